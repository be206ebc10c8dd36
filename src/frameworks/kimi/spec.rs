//! One Kimi agent file, read and validated the way `_load_agent_spec` does it before
//! it looks at the parent: strict UTF-8, PyYAML `safe_load`, the version check on
//! Python's `str()` of the value, `AgentSpec(**data["agent"])` under pydantic's lax
//! mode (no coercion between scalar kinds, extra keys ignored, the `Inherit` sentinel
//! that also accepts an empty list or mapping), and paths joined to the file's folder.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::model::{Attributes, AttributesBuilder, DiagKind};
use crate::py;
use crate::yaml::{self, Map, Node, Value};

/// Why a file (or a prompt) could not be used: the report's error kind, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub kind: DiagKind,
    pub path: PathBuf,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub message: String,
}

impl Problem {
    pub fn new(kind: DiagKind, path: &Path, line: Option<u32>, message: impl Into<String>) -> Problem {
        Problem { kind, path: path.to_path_buf(), line, col: None, message: message.into() }
    }
}

/// A field's state after validation. `Inherit` is pydantic's default sentinel (also
/// what an empty list or mapping becomes for some fields); `Null` an explicit null.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting<T> {
    Inherit,
    Null,
    Set(T),
}

/// A field of one file: its state and, when the key is written, the key's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot<T> {
    pub state: Setting<T>,
    pub line: Option<u32>,
}

impl<T> Slot<T> {
    fn unset() -> Self {
        Slot { state: Setting::Inherit, line: None }
    }
}

/// One fixed subagent entry (`NAME: {path, description}`), its path already joined to
/// the declaring file's folder.
#[derive(Clone, Debug, PartialEq)]
pub struct SubagentEntry {
    pub name: String,
    pub path: PathBuf,
    pub description: String,
    pub line: u32,
}

/// A validated `AgentSpec` of one file, before any merge.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecFile {
    /// The path the file was opened under (joined, not resolved through symlinks).
    pub path: PathBuf,
    /// `extend` as written (`None` for null or absent).
    pub extend: Slot<String>,
    pub name: Slot<String>,
    pub system_prompt_path: Slot<PathBuf>,
    /// Keys with their values and lines, in file order.
    pub system_prompt_args: Vec<(String, String, u32)>,
    pub system_prompt_args_line: Option<u32>,
    pub model: Slot<String>,
    pub when_to_use: Slot<String>,
    pub tools: Slot<Vec<String>>,
    pub allowed_tools: Slot<Vec<String>>,
    pub exclude_tools: Slot<Vec<String>>,
    pub subagents: Slot<Vec<SubagentEntry>>,
    /// The keys as written (top-level `version`, then the `agent` mapping's keys);
    /// shared, since every placing of the file and its agent hold them.
    pub attributes: Attributes,
}

/// Parses and validates the bytes of `path`. The first failure wins, in the
/// package's order: decoding, YAML, top level, version, `agent` shape, field types.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<SpecFile, Problem> {
    parse_in(path, path.parent().unwrap_or(Path::new("/")), bytes)
}

/// [`parse`] with no path: what the bytes say wherever the file is opened, its paths
/// still relative ([`Placed`] is the parse at a path). A file reached under
/// several spellings (`a/agent.yaml`, `b/../a/agent.yaml`) is parsed once.
pub fn unplaced(bytes: &[u8]) -> Result<SpecFile, Problem> {
    parse_in(Path::new(""), Path::new(""), bytes)
}

/// [`unplaced`] from the YAML already loaded from the file's text.
pub fn unplaced_from(root: Option<&Node>) -> Result<SpecFile, Problem> {
    validate(Path::new(""), Path::new(""), root)
}

/// One file's [`parse`] at the path it was opened under, kept as its [`unplaced`]
/// parse (shared by every spelling of the file, and kept by the file cache) and the
/// path: a load places every file it opens, and a copy of the parse per path would be
/// most of what it holds. The paths the file writes are joined when asked for.
#[derive(Debug)]
pub struct Placed {
    /// The path the file was opened under (joined, not resolved through symlinks).
    pub path: PathBuf,
    /// An `Ok` parse: [`Placed::new`] places a failed one as its problem.
    unplaced: Arc<Result<SpecFile, Problem>>,
}

impl Placed {
    /// The parse at `path` of the bytes whose [`unplaced`] parse is `unplaced`, or its
    /// problem at `path`.
    pub fn new(unplaced: &Arc<Result<SpecFile, Problem>>, path: &Path) -> Result<Placed, Problem> {
        match &**unplaced {
            Err(problem) => Err(Problem { path: path.to_path_buf(), ..problem.clone() }),
            Ok(_) => Ok(Placed { path: path.to_path_buf(), unplaced: unplaced.clone() }),
        }
    }

    /// The file's fields as validated, its paths left unjoined (`path`,
    /// `system_prompt_path` and the subagents' paths): ask [`Placed::system_prompt_path`]
    /// and [`Placed::subagents`] for those.
    pub fn spec(&self) -> &SpecFile {
        match &*self.unplaced {
            Ok(spec) => spec,
            Err(_) => unreachable!("only a parse that succeeded is placed"),
        }
    }

    /// `system_prompt_path` when set, joined to the file's folder.
    pub fn system_prompt_path(&self) -> Option<PathBuf> {
        match &self.spec().system_prompt_path.state {
            Setting::Set(p) => Some(join_path(self.folder(), p)),
            _ => None,
        }
    }

    /// `subagents` when set, each path joined to the file's folder.
    pub fn subagents(&self) -> Option<Vec<SubagentEntry>> {
        match &self.spec().subagents.state {
            Setting::Set(subagents) => Some(
                subagents
                    .iter()
                    .map(|sub| {
                        // Kept by the definition that inherits it: to its exact size.
                        let mut path = join_path(self.folder(), &sub.path);
                        path.shrink_to_fit();
                        SubagentEntry { path, ..sub.clone() }
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("/"))
    }
}

fn parse_in(path: &Path, folder: &Path, bytes: &[u8]) -> Result<SpecFile, Problem> {
    let text = decode_utf8(path, bytes)?;
    let root = yaml::load(&text).map_err(|e| {
        // Kimi wraps only `yaml.YAMLError`; an exception a constructor raises (`!!int x`,
        // a 30 February, `!!bool maybe`) escapes as itself: a parse failure only when
        // it is an `AttributeError`, else a validation failure (`load_agent_spec`).
        let escaped = python_exception(&e.message);
        let (kind, message) = match escaped {
            Some("AttributeError") => (DiagKind::Parse, e.message.clone()),
            Some(_) => (DiagKind::Validation, e.message.clone()),
            None => (DiagKind::Parse, format!("Invalid YAML in agent spec file: {}", e.message)),
        };
        Problem { kind, path: path.to_path_buf(), line: Some(e.line), col: Some(e.col), message }
    })?;
    validate(path, folder, root.as_ref())
}

/// The Python exception class a YAML error message names (`ValueError: …`): one
/// raised by a constructor, not by the YAML parser.
fn python_exception(message: &str) -> Option<&str> {
    let (class, _) = message.split_once(": ")?;
    (class.ends_with("Error") && class.chars().all(|c| c.is_ascii_alphanumeric())).then_some(class)
}

/// The checks of [`parse`] after the YAML loaded; relative paths are joined to `folder`.
fn validate(path: &Path, folder: &Path, root: Option<&Node>) -> Result<SpecFile, Problem> {
    let top = match root.map(|n| &n.value) {
        Some(Value::Map(map)) => map,
        other => {
            let type_name = other.map(Value::type_name).unwrap_or("NoneType");
            return Err(Problem::new(
                DiagKind::Parse,
                path,
                root.map(|n| n.span.line),
                format!(
                    "the top level is {}, not a mapping; Kimi fails with AttributeError: '{type_name}' object has \
                     no attribute 'get'",
                    if type_name == "NoneType" { "empty".to_string() } else { format!("a {type_name}") }
                ),
            ));
        }
    };
    let mut attributes = AttributesBuilder::default();
    if let Some((key, value)) = entry(top, "version") {
        attributes.push("version", key.span.line, &value.value.to_json());
        let version = py::str_of(&value.value);
        if version != "1" {
            return Err(Problem::new(
                DiagKind::Validation,
                path,
                Some(key.span.line),
                format!("Unsupported agent spec version: {version} (only \"1\" after str())"),
            ));
        }
    }
    let empty = Map::default();
    let agent = match entry(top, "agent") {
        None => &empty,
        Some((_, Node { value: Value::Map(map), .. })) => map,
        Some((key, value)) => {
            return Err(Problem::new(
                DiagKind::Validation,
                path,
                Some(key.span.line),
                format!(
                    "`agent` is {}, not a mapping; Kimi fails with TypeError: AgentSpec() argument after ** must \
                     be a mapping",
                    match value.value.type_name() {
                        "NoneType" => "null".to_string(),
                        other => format!("a {other}"),
                    }
                ),
            ))
        }
    };
    if let Some((key, _)) = agent.entries.iter().find(|(k, _)| !matches!(k.value, Value::Str(_))) {
        return Err(Problem::new(
            DiagKind::Validation,
            path,
            Some(key.span.line),
            format!("a key of `agent` is a {}; Kimi fails with TypeError: keywords must be strings", key.value.type_name()),
        ));
    }
    let mut v = Validator { errors: Vec::new() };
    let mut spec = SpecFile {
        path: path.to_path_buf(),
        extend: Slot { state: Setting::Null, line: None },
        name: Slot::unset(),
        system_prompt_path: Slot::unset(),
        system_prompt_args: Vec::new(),
        system_prompt_args_line: None,
        model: Slot { state: Setting::Null, line: None },
        when_to_use: Slot { state: Setting::Null, line: None },
        tools: Slot::unset(),
        allowed_tools: Slot::unset(),
        exclude_tools: Slot::unset(),
        subagents: Slot::unset(),
        attributes: Attributes::default(),
    };
    for (key, value) in &agent.entries {
        let Value::Str(name) = &key.value else { continue };
        let line = Some(key.span.line);
        attributes.push(name.as_str(), key.span.line, &value.value.to_json());
        match name.as_str() {
            "extend" => spec.extend = Slot { state: v.optional_str(name, value), line },
            "name" => spec.name = Slot { state: v.str_or_inherit(name, value), line },
            "system_prompt_path" => {
                let state = match v.str_or_inherit(name, value) {
                    Setting::Set(p) => Setting::Set(join(folder, &p)),
                    Setting::Inherit => Setting::Inherit,
                    Setting::Null => Setting::Null,
                };
                spec.system_prompt_path = Slot { state, line };
            }
            "system_prompt_args" => {
                spec.system_prompt_args = v.str_map(name, value);
                spec.system_prompt_args_line = line;
            }
            "model" => spec.model = Slot { state: v.optional_str(name, value), line },
            "when_to_use" => spec.when_to_use = Slot { state: v.optional_str(name, value), line },
            "tools" => spec.tools = Slot { state: v.str_list(name, value), line },
            "allowed_tools" => spec.allowed_tools = Slot { state: v.str_list(name, value), line },
            "exclude_tools" => spec.exclude_tools = Slot { state: v.str_list(name, value), line },
            "subagents" => spec.subagents = Slot { state: v.subagents(folder, value), line },
            _ => {}
        }
    }
    if !v.errors.is_empty() {
        let n = v.errors.len();
        let first_line = v.errors.iter().map(|(l, _)| *l).min();
        let details: Vec<String> = v.errors.iter().map(|(l, m)| format!("line {l}: {m}")).collect();
        return Err(Problem::new(
            DiagKind::Validation,
            path,
            first_line,
            format!("{n} validation error{} for AgentSpec: {}", if n == 1 { "" } else { "s" }, details.join("; ")),
        ));
    }
    spec.attributes = attributes.finish();
    Ok(spec)
}

/// Strict UTF-8 (Python's `open(encoding="utf-8")`); a byte-order mark stays in the
/// text (PyYAML skips it).
pub fn decode_utf8(path: &Path, bytes: &[u8]) -> Result<String, Problem> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let line = 1 + bytes[..at].iter().filter(|b| **b == b'\n').count() as u32;
            let byte = bytes.get(at).copied().unwrap_or(0);
            Err(Problem::new(
                DiagKind::Parse,
                path,
                Some(line),
                format!("UnicodeDecodeError: 'utf-8' codec can't decode byte {byte:#04x} in position {at}: the file is not UTF-8"),
            ))
        }
    }
}

/// The last entry of a mapping whose key is the string `key` (PyYAML keeps the last
/// of duplicate keys; the YAML layer already folds them).
fn entry<'a>(map: &'a Map, key: &str) -> Option<(&'a Node, &'a Node)> {
    map.entries.iter().rev().find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key)).map(|(k, v)| (k, v))
}

/// `pathlib`'s `folder / value`: an absolute value replaces the folder, `.` parts and
/// empty parts vanish, `..` stays (and is resolved by the OS when the file is opened).
pub fn join(folder: &Path, value: &str) -> PathBuf {
    join_path(folder, Path::new(value))
}

/// [`join`] of a path: joining what `join` made of a value to the empty folder gives
/// the same as joining the value.
fn join_path(folder: &Path, rel: &Path) -> PathBuf {
    let mut out = if rel.is_absolute() { PathBuf::new() } else { folder.to_path_buf() };
    for part in rel.components() {
        match part {
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// pydantic's lax-mode checks for the types of `AgentSpec`, collecting every error
/// with its line as pydantic collects them before raising.
struct Validator {
    errors: Vec<(u32, String)>,
}

impl Validator {
    fn fail(&mut self, field: &str, node: &Node, expected: &str) {
        let got = node.value.type_name();
        self.errors.push((node.span.line, format!("{field}: expected {expected}, got {got} (pydantic does not coerce)")));
    }

    /// A `str` in lax mode: a string (bytes that are UTF-8 too), never a number, bool
    /// or date.
    fn string(node: &Node) -> Option<String> {
        match &node.value {
            Value::Str(s) => Some(s.clone()),
            Value::Bytes(b) => String::from_utf8(b.clone()).ok(),
            _ => None,
        }
    }

    /// The `Inherit` sentinel is an empty `NamedTuple`: pydantic builds one from an
    /// empty list, tuple, set or mapping.
    fn is_empty_container(node: &Node) -> bool {
        match &node.value {
            Value::Seq(s) | Value::Set(s) => s.is_empty(),
            Value::Map(m) => m.entries.is_empty(),
            _ => false,
        }
    }

    fn optional_str(&mut self, field: &str, node: &Node) -> Setting<String> {
        if node.value == Value::Null {
            return Setting::Null;
        }
        match Self::string(node) {
            Some(s) => Setting::Set(s),
            None => {
                self.fail(field, node, "a string or null");
                Setting::Null
            }
        }
    }

    fn str_or_inherit(&mut self, field: &str, node: &Node) -> Setting<String> {
        if let Some(s) = Self::string(node) {
            return Setting::Set(s);
        }
        if Self::is_empty_container(node) {
            return Setting::Inherit;
        }
        self.fail(field, node, "a string");
        Setting::Inherit
    }

    fn str_map(&mut self, field: &str, node: &Node) -> Vec<(String, String, u32)> {
        let Value::Map(map) = &node.value else {
            self.fail(field, node, "a mapping of strings");
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, v) in &map.entries {
            match (Self::string(k), Self::string(v)) {
                (Some(key), Some(value)) => out.push((key, value, k.span.line)),
                (None, _) => self.fail(&format!("{field} key"), k, "a string"),
                (Some(key), None) => self.fail(&format!("{field}.{key}"), v, "a string"),
            }
        }
        out
    }

    /// `list[str] | None | Inherit`: an empty list is a real list (the exact type wins
    /// pydantic's smart union); an empty mapping is the sentinel.
    fn str_list(&mut self, field: &str, node: &Node) -> Setting<Vec<String>> {
        match &node.value {
            Value::Null => Setting::Null,
            Value::Seq(items) | Value::Set(items) => {
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match Self::string(item) {
                        Some(s) => out.push(s),
                        None => self.fail(&format!("{field}[{i}]"), item, "a string"),
                    }
                }
                Setting::Set(out)
            }
            Value::Map(m) if m.entries.is_empty() => Setting::Inherit,
            _ => {
                self.fail(field, node, "a list of strings or null");
                Setting::Inherit
            }
        }
    }

    /// `dict[str, SubagentSpec] | None | Inherit`: an empty mapping is a real mapping,
    /// an empty list the sentinel. Each entry needs a string `path` and `description`.
    fn subagents(&mut self, folder: &Path, node: &Node) -> Setting<Vec<SubagentEntry>> {
        let map = match &node.value {
            Value::Null => return Setting::Null,
            Value::Map(map) => map,
            _ if Self::is_empty_container(node) => return Setting::Inherit,
            _ => {
                self.fail("subagents", node, "a mapping of subagents or null");
                return Setting::Inherit;
            }
        };
        let mut out = Vec::new();
        for (k, v) in &map.entries {
            let Some(name) = Self::string(k) else {
                self.fail("subagents key", k, "a string");
                continue;
            };
            let field = format!("subagents.{name}");
            let Value::Map(body) = &v.value else {
                self.fail(&field, v, "a mapping with `path` and `description`");
                continue;
            };
            let mut text = |key: &str| match entry(body, key) {
                Some((_, value)) => {
                    let s = Self::string(value);
                    if s.is_none() {
                        self.fail(&format!("{field}.{key}"), value, "a string");
                    }
                    s
                }
                None => {
                    self.errors.push((v.span.line.max(k.span.line), format!("{field}.{key}: field required")));
                    None
                }
            };
            let path = text("path");
            let description = text("description");
            if let (Some(path), Some(description)) = (path, description) {
                out.push(SubagentEntry { name, path: join(folder, &path), description, line: k.span.line });
            }
        }
        Setting::Set(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_is_pathlib_division() {
        assert_eq!(join(Path::new("/p/a"), "./b.yaml"), PathBuf::from("/p/a/b.yaml"));
        assert_eq!(join(Path::new("/p/a"), "../b.yaml"), PathBuf::from("/p/a/../b.yaml"));
        assert_eq!(join(Path::new("/p/a"), ""), PathBuf::from("/p/a"));
        assert_eq!(join(Path::new("/p/a"), "/abs/x.yaml"), PathBuf::from("/abs/x.yaml"));
        assert_eq!(join(Path::new("/p/a"), "~/x.yaml"), PathBuf::from("/p/a/~/x.yaml"));
    }

    #[test]
    fn a_parse_placed_at_a_path_is_the_parse_at_that_path() {
        let texts: [&[u8]; 6] = [
            b"version: 1\nagent:\n  extend: ../base.yaml\n  system_prompt_path: ./p/../x.md\n  subagents:\n    a:\n      path: /abs/a.yaml\n      description: d\n    b:\n      path: ''\n      description: e\n    c:\n      path: ./c//d/./e.yaml\n      description: f\n",
            b"agent:\n  system_prompt_path: /etc/x.md\n  tools: [1]\n",
            b"agent: [",
            b"agent:\n  name: caf\xe9\n",
            b"- a\n",
            b"version: 2\n",
        ];
        for text in texts {
            for path in ["/p/a/agent.yaml", "/p/a/../b/agent.yaml", "agent.yaml", "/agent.yaml"] {
                let path = Path::new(path);
                let placed = Placed::new(&Arc::new(unplaced(text)), path).map(|placed| SpecFile {
                    path: placed.path.clone(),
                    system_prompt_path: Slot {
                        state: placed.system_prompt_path().map_or(placed.spec().system_prompt_path.state.clone(), Setting::Set),
                        ..placed.spec().system_prompt_path.clone()
                    },
                    subagents: Slot {
                        state: placed.subagents().map_or(placed.spec().subagents.state.clone(), Setting::Set),
                        ..placed.spec().subagents.clone()
                    },
                    ..placed.spec().clone()
                });
                assert_eq!(placed, parse(path, text), "{path:?}");
            }
        }
    }

    #[test]
    fn bad_utf8_names_the_line_and_byte() {
        let e = decode_utf8(Path::new("/x.yaml"), b"agent:\n  name: caf\xe9\n").unwrap_err();
        assert_eq!(e.kind, DiagKind::Parse);
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("0xe9"), "{}", e.message);
    }
}
