//! Reading one agent file the way `md_agents.parse_agent` does: strict UTF-8 with
//! Python's universal newlines, tsugite's own frontmatter split (`str.split("---", 2)`,
//! not python-frontmatter), `yaml.safe_load`, then `AgentConfig(**frontmatter)`.
//! Failures carry the Python exception class, because the inheritance resolver
//! swallows `ValueError`s in some places and lets the others through.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::Value as Json;

use super::schema::{self, FIELDS};
use crate::discover::ReadError;
use crate::model::{Attributes, AttributesBuilder, CompactJson, DiagKind, FieldOrigin, Text, TextError};
use crate::frameworks::Prompts;
use crate::yaml::{self, Value};

/// A file's body. The command line holds it, shared with the user message when it
/// renders to itself (plain text). The explorer keeps only its place in the file
/// from the moment it is parsed, and every resolution through the file reads it
/// back: the cache keeps a parse of every agent file, and a load has them all
/// alive at once.
#[derive(Clone, Debug)]
pub enum Body {
    Held(Arc<str>),
    OnDisk(Text),
}

impl Body {
    /// The body: shared when held, else read from the file and checked against what
    /// was parsed (a file changed since is an error, never a stale body).
    pub fn read(&self) -> Result<Arc<str>, TextError> {
        match self {
            Body::Held(body) => Ok(body.clone()),
            Body::OnDisk(text) => text.read().map(|body| Arc::from(&*body)),
        }
    }
}

/// The Python exception class of a failure, which decides whether an implicit base
/// lookup swallows it (`except ValueError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrClass {
    /// `ValueError` and its subclasses (`UnicodeDecodeError`, pydantic's
    /// `ValidationError`, YAML and frontmatter errors, missing / circular parents).
    Value,
    /// `TypeError`: a frontmatter that is a list or a scalar.
    Type,
    /// `KeyError`: a `custom_tools` item without `name` during a merge.
    Key,
    /// `OSError`: unreadable files, folders where a file was expected.
    Os,
    /// Another exception a YAML constructor raises (`IndexError`, `AttributeError`).
    Other,
}

/// Why a definition could not be loaded: the file at fault, where, and the kind the
/// resolution report gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadError {
    pub class: ErrClass,
    pub kind: DiagKind,
    pub path: PathBuf,
    pub line: Option<u32>,
    pub message: String,
}

impl LoadError {
    pub fn new(
        class: ErrClass,
        kind: DiagKind,
        path: &Path,
        line: Option<u32>,
        message: impl Into<String>,
    ) -> Self {
        LoadError {
            class,
            kind,
            path: path.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}

/// A config: the value of every AgentConfig field (in `FIELDS` order), which keys
/// the file wrote (pydantic's `model_fields_set`), and where each value came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub values: Vec<Json>,
    pub set: Vec<bool>,
    pub origins: Vec<FieldOrigin>,
    /// A prefetch `assign` that Python holds as a key that is not a string and the
    /// JSON values cannot show (`.nan`, `.inf`, a date, bytes): see `render`.
    pub odd_assign: bool,
}

impl Config {
    pub fn get(&self, key: &str) -> &Json {
        schema::index_of(key)
            .map(|i| &self.values[i])
            .unwrap_or(&Json::Null)
    }

    pub fn str_of(&self, key: &str) -> Option<&str> {
        self.get(key).as_str()
    }

    /// `extends`: `None` for null/absent.
    pub fn extends(&self) -> Option<&str> {
        self.str_of("extends")
    }
}

/// One parsed (not yet resolved) agent file. The file cache keeps one for every
/// agent file between loads, so it holds only what the file wrote: the full
/// [`Config`] (every field, with defaults and origins) is made when a resolution
/// asks for it ([`Parsed::config`]). The path it was loaded from (tsugite's
/// `Agent.file_path`) is the cache's key, not kept again here.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// Its source key, for the origins of the fields it sets (shared by them).
    source: Arc<str>,
    /// The index in `FIELDS` of each of `attributes`: the fields the file sets, in
    /// the file's order (a repeated key overrides).
    written: Box<[u8]>,
    /// Where validation changed the value the file wrote (a coercion): the
    /// attribute's position and the validated value. Most values pass as written
    /// and are kept once, in their attribute.
    validated: Box<[(u32, CompactJson)]>,
    pub body: Body,
    /// The 1-based line of the body's first character.
    pub body_line: u32,
    /// Where the body starts in the file's bytes, while the text parsed is the
    /// bytes themselves (decoding translated no `\r`): the explorer keeps what is
    /// rendered from the body on disk by it.
    pub body_at: Option<u32>,
    /// Shared with the agents loaded from this file.
    pub attributes: Attributes,
    /// [`Config::odd_assign`] of the file's own `prefetch`.
    odd_assign: bool,
}

const _: () = assert!(FIELDS.len() <= u8::MAX as usize, "`Parsed::written` holds indices in FIELDS as bytes");

impl Parsed {
    /// The file's own config: every field, the schema default where the file sets none.
    pub fn config(&self) -> Config {
        static DEFAULTS: OnceLock<Config> = OnceLock::new();
        let mut config = DEFAULTS
            .get_or_init(|| Config {
                values: FIELDS.iter().map(|(k, _)| schema::default_of(k)).collect(),
                set: vec![false; FIELDS.len()],
                origins: FIELDS
                    .iter()
                    .map(|_| FieldOrigin::default("framework default"))
                    .collect(),
                odd_assign: false,
            })
            .clone();
        config.odd_assign = self.odd_assign;
        let rel = site_path(&self.source);
        for (position, (&index, attribute)) in self.written.iter().zip(self.attributes.iter()).enumerate() {
            let index = index as usize;
            let line = attribute.line;
            config.values[index] = self.validated(position).unwrap_or(&attribute.value).to_json();
            config.set[index] = true;
            config.origins[index] =
                FieldOrigin::own(&self.source, Some(line), format!("set in {rel}:{line}"));
        }
        config
    }

    /// `extends` as [`Config::extends`] reads it, without making the config.
    pub fn extends(&self) -> Option<String> {
        let index = schema::index_of("extends")?;
        let position = self.written.iter().rposition(|&i| i as usize == index)?;
        match self.validated(position) {
            Some(value) => value.as_str().map(str::to_string),
            None => self.attributes.get(position)?.value.as_str().map(str::to_string),
        }
    }

    /// The validated value of the field the file sets at `position`, where
    /// validation changed what the file wrote.
    fn validated(&self, position: usize) -> Option<&CompactJson> {
        self.validated.iter().find(|(p, _)| *p as usize == position).map(|(_, v)| v)
    }
}

/// A read failure as the package reports it.
pub fn read_error(path: &Path, e: ReadError) -> LoadError {
    match e {
        ReadError::IsDir => LoadError::new(
            ErrClass::Os,
            DiagKind::Io,
            path,
            None,
            "IsADirectoryError: is a directory",
        ),
        other => LoadError::new(
            ErrClass::Os,
            DiagKind::Io,
            path,
            None,
            format!("cannot read: {other}"),
        ),
    }
}

/// The bytes as `path.read_text(encoding="utf-8")` decodes them: strict UTF-8,
/// `\r\n` and `\r` read as `\n`. Borrowed when that changes nothing: the text
/// is then the file's bytes, where a body kept on disk is found by its place.
pub fn decode_text<'b>(path: &Path, bytes: &'b [u8]) -> Result<Cow<'b, str>, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count() as u32
            + 1;
        LoadError::new(
            ErrClass::Value,
            DiagKind::Parse,
            path,
            Some(line),
            format!(
                "UnicodeDecodeError: invalid UTF-8 at byte {}",
                e.valid_up_to()
            ),
        )
    })?;
    // Most files have no `\r`: one scan instead of two copying passes.
    Ok(if text.contains('\r') { Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n")) } else { Cow::Borrowed(text) })
}

/// The agent file at `path`, whose contents are `bytes`, decoded and parsed, its body
/// kept in the form asked for. Kept on disk, the body parsed also goes to `fresh`,
/// for the caller to use once and let go.
pub fn parse_file(
    path: &Path,
    bytes: &[u8],
    source: &str,
    prompts: Prompts,
    fresh: &mut Option<Arc<str>>,
) -> Result<Parsed, LoadError> {
    let text = decode_text(path, bytes)?;
    let keep_body = |body: &str| match prompts.on_disk() {
        false => Body::Held(body.into()),
        true => {
            *fresh = Some(body.into());
            Body::OnDisk(prompts.from_file(path, bytes, body))
        }
    };
    let mut parsed = parse_agent(&text, path, source, keep_body)?;
    if matches!(text, Cow::Owned(_)) {
        parsed.body_at = None;
    }
    Ok(parsed)
}

/// `parse_agent(text, path)`; `keep_body` makes the body the parse keeps of the
/// body found in `text`.
pub fn parse_agent(
    text: &str,
    path: &Path,
    source: &str,
    keep_body: impl FnOnce(&str) -> Body,
) -> Result<Parsed, LoadError> {
    let parse_err =
        |line, msg: String| LoadError::new(ErrClass::Value, DiagKind::Parse, path, line, msg);
    if !text.starts_with("---") {
        return Err(parse_err(
            Some(1),
            "Agent text must start with YAML frontmatter".into(),
        ));
    }
    let mut parts = text.splitn(3, "---");
    let (_, front, rest) = (parts.next(), parts.next(), parts.next());
    let (Some(front), Some(rest)) = (front, rest) else {
        return Err(parse_err(
            Some(1),
            "Invalid YAML frontmatter format in agent text (no closing ---)".into(),
        ));
    };
    // The frontmatter starts on the file's first line, so YAML lines are file lines.
    // `parse_frontmatter` wraps only `yaml.YAMLError`; an exception a constructor
    // raises (`!!int x`, a 30 February, `!!bool maybe`) escapes as itself.
    let doc = yaml::load(front).map_err(|e| match e.message.split_once(": ") {
        Some((class, _)) if class.ends_with("Error") && class.chars().all(|c| c.is_ascii_alphanumeric()) => {
            let class = match class {
                "ValueError" => ErrClass::Value,
                "KeyError" => ErrClass::Key,
                "TypeError" => ErrClass::Type,
                _ => ErrClass::Other,
            };
            LoadError::new(class, DiagKind::Validation, path, Some(e.line), e.message.clone())
        }
        _ => parse_err(Some(e.line), format!("Invalid YAML frontmatter in agent text: {}", e.message)),
    })?;
    let body_start = text.len() - rest.len();
    let body = crate::py::strip(rest);
    let lead = rest.len() - rest.trim_start_matches(crate::py::is_space).len();
    let body_line = text[..body_start + lead].matches('\n').count() as u32 + 1;

    let entries = match doc.as_ref().map(|n| &n.value) {
        None => Vec::new(),
        Some(v) if is_falsy(v) => Vec::new(),
        Some(Value::Map(map)) => map.entries.clone(),
        Some(other) => {
            let line = doc.as_ref().map(|n| n.span.line);
            return Err(LoadError::new(
                ErrClass::Type,
                DiagKind::Parse,
                path,
                line,
                format!(
                    "TypeError: the frontmatter is {}, not a mapping",
                    other.type_name()
                ),
            ));
        }
    };
    let mut written: Vec<u8> = Vec::new();
    let mut validated = Vec::new();
    let mut attributes = AttributesBuilder::default();
    let mut missing_name = true;
    let mut odd_assign = false;
    for (key_node, value_node) in &entries {
        let Value::Str(key) = &key_node.value else {
            return Err(LoadError::new(
                ErrClass::Type,
                DiagKind::Parse,
                path,
                Some(key_node.span.line),
                "TypeError: keywords must be strings",
            ));
        };
        let line = key_node.span.line;
        let written_value = value_node.value.to_json();
        let Some(i) = schema::index_of(key) else {
            return Err(validation(
                path,
                Some(line),
                format!("{key}: Extra inputs are not permitted"),
            ));
        };
        let value = schema::validate(FIELDS[i].1, key, value_node).map_err(|e| {
            validation(path, e.line.or(Some(line)), format!("{}: {}", e.loc, e.msg))
        })?;
        if *key == "name" {
            missing_name = false;
        }
        if *key == "prefetch" {
            odd_assign = has_odd_assign(&value_node.value);
        }
        if !same_in_order(&written_value, &value) {
            validated.push((written.len() as u32, CompactJson::from(value)));
        }
        written.push(i as u8);
        attributes.push(key.as_str(), line, &written_value);
    }
    if missing_name {
        return Err(validation(path, Some(1), "name: Field required"));
    }
    Ok(Parsed {
        source: source.into(),
        written: written.into(),
        validated: validated.into(),
        body: keep_body(body),
        body_line,
        body_at: u32::try_from(body_start + lead).ok(),
        attributes: attributes.finish(),
        odd_assign,
    })
}

/// Whether a prefetch item's `assign` is a truthy key Python can hash but that is
/// no string, of a type the JSON value loses (`null` for `.nan`/`.inf`, a string
/// for a date): numbers and booleans stay visible in the JSON.
fn has_odd_assign(prefetch: &Value) -> bool {
    let Value::Seq(items) = prefetch else { return false };
    items.iter().any(|item| {
        let Value::Map(map) = &item.value else { return false };
        map.entries.iter().any(|(k, v)| {
            matches!(&k.value, Value::Str(s) if s == "assign")
                && match &v.value {
                    Value::Float(f) => !f.is_finite(),
                    Value::Date(_) | Value::DateTime(_) | Value::BigInt(_) => true,
                    Value::Bytes(b) => !b.is_empty(),
                    _ => false,
                }
        })
    })
}

/// Equal with objects' keys in the same order too: the config keeps the order the
/// validated value has.
fn same_in_order(kept: &Json, value: &Json) -> bool {
    match (kept, value) {
        (Json::Null, Json::Null) => true,
        (Json::Bool(a), Json::Bool(b)) => a == b,
        // `-0.0 == 0.0`, but they print differently.
        (Json::Number(a), Json::Number(b)) => {
            a == b && a.as_f64().map(f64::to_bits) == b.as_f64().map(f64::to_bits)
        }
        (Json::String(a), Json::String(b)) => a == b,
        (Json::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_in_order(x, y))
        }
        (Json::Object(a), Json::Object(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && same_in_order(va, vb))
        }
        _ => false,
    }
}

fn validation(path: &Path, line: Option<u32>, msg: impl Into<String>) -> LoadError {
    LoadError::new(
        ErrClass::Value,
        DiagKind::Validation,
        path,
        line,
        format!("ValidationError: {}", msg.into()),
    )
}

/// Python truthiness of what `yaml.safe_load` returned (`... or {}`).
fn is_falsy(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Float(f) => *f == 0.0,
        Value::Str(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::Seq(v) | Value::Set(v) => v.is_empty(),
        Value::Map(m) => m.entries.is_empty(),
        Value::BigInt(_) | Value::Date(_) | Value::DateTime(_) => false,
    }
}

/// The path within its scope of a source key (`agents/a.md` of `project:agents/a.md`).
fn site_path(source: &str) -> &str {
    source.split_once(':').map(|(_, r)| r).unwrap_or(source)
}

/// `file:line` as rules print it: the path within its scope (`agents/a.md:4`).
pub fn site(source: &str, line: Option<u32>) -> String {
    let rel = site_path(source);
    match line {
        Some(l) => format!("{rel}:{l}"),
        None => rel.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "You review pull requests. Be brief, be kind, and say what to change and why.";

    fn parse(name: &str, contents: &str, prompts: Prompts) -> (PathBuf, Parsed, Option<Arc<str>>) {
        let dir = std::env::temp_dir().join(format!("agentry-tsugite-parse-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.md");
        std::fs::write(&path, contents).unwrap();
        let mut fresh = None;
        let parsed = parse_file(&path, contents.as_bytes(), "project:a.md", prompts, &mut fresh).unwrap();
        (path, parsed, fresh)
    }

    #[test]
    fn a_parse_on_disk_holds_no_body_and_reads_it_back_checked() {
        let contents = format!("---\nname: a\n---\n\n{BODY}\n");
        let (path, parsed, fresh) = parse("on-disk", &contents, Prompts::ON_DISK);
        let Body::OnDisk(text) = &parsed.body else { panic!("{:?}", parsed.body) };
        assert!(text.as_held().is_none());
        assert!(!format!("{parsed:?}").contains("pull requests"), "{parsed:?}");
        // The body parsed goes to the caller, once, not into the parse.
        assert_eq!(fresh.as_deref(), Some(BODY));
        assert_eq!(parsed.body.read().unwrap().as_ref(), BODY);
        std::fs::write(&path, contents.replace("brief", "terse")).unwrap();
        assert!(parsed.body.read().is_err(), "a changed file is an error, not a stale body");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_held_parse_keeps_its_body() {
        let (path, parsed, fresh) = parse("held", &format!("---\nname: a\n---\n{BODY}\n"), Prompts::HELD);
        assert!(matches!(&parsed.body, Body::Held(b) if &**b == BODY));
        assert_eq!(fresh, None);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
