//! One agent file, as Claude Code 2.1.337 turns it into an agent: `Pyn` and its
//! validator `rGr` for `.claude/agents` files, `O3n` for a plugin's agents, `Pdt` /
//! `egn` / `mf` for the tool lists.

use serde_json::{Map, Value as Json};
use unicode_normalization::UnicodeNormalization;

use super::frontmatter::{self, js_trim, Split};
use super::hooks;
use super::tools::{self, ToolList};
use crate::model::{Attributes, AttributesBuilder};

/// The most bytes Claude Code reads of an agent file (`Bqt`, `R3n`).
pub const MAX_BYTES: u64 = 1_048_576;
/// The longest name, in UTF-16 units (`lj`).
const MAX_NAME: usize = 256;

/// Keys Claude Code reads from an agent file's front matter (its schema's shape);
/// any other key draws a warning in its debug log.
pub const KNOWN_KEYS: &[&str] = &[
    "name", "description", "tools", "disallowedTools", "prompt", "model", "effort", "permissionMode", "mcpServers",
    "hooks", "maxTurns", "autoCompactWindow", "skills", "initialPrompt", "memory", "background", "omitClaudeMd",
    "isolation", "observer", "observerMessage", "observeSubagents", "observeToolResults", "color",
];

/// Keys shown as written: Claude Code reads them, but never says what it made of
/// them, so agentry cannot check them against the tool.
pub const UNCHECKED: &[&str] = &[
    "permissionMode", "disallowedTools", "memory", "maxTurns", "effort", "color", "hooks", "mcpServers", "skills",
    "background", "isolation", "initialPrompt", "autoCompactWindow", "omitClaudeMd",
];

/// What a file is to Claude Code.
pub enum Outcome {
    Agent(Box<Definition>),
    /// Ignored without a word: why, in words.
    Silent(String),
    /// Rejected with a line in the debug log.
    Rejected { kind: Rejection, message: String, line: Option<u32> },
    /// Over the size Claude Code reads ([`MAX_BYTES`]): never parsed.
    TooLarge(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    Parse,
    Validation,
}

/// A file that loads.
pub struct Definition {
    pub name: String,
    pub description: String,
    /// `model` as the tool keeps it (trimmed, `inherit` folded), when it keeps one.
    pub model: Option<String>,
    pub tools: ToolList,
    pub disallowed: Option<Vec<String>>,
    pub permission_mode: Option<String>,
    /// The body, trimmed: the reader makes the prompt text from it and then drops
    /// it, so the kept parse holds no copy.
    pub prompt: String,
    /// The front matter as parsed (keys as written), packed: the agent shares it.
    /// Each key's line is where it is written, or the block's first line.
    pub frontmatter: Attributes,
    /// The keys the reader asks about whose line is not the one in `frontmatter`: a
    /// key written where `key_line` cannot find it (no line), or one of the fields it
    /// always shows, found written but not parsed. Nearly always empty.
    odd_lines: Box<[(Box<str>, Option<u32>)]>,
    /// Warnings the tool logs without rejecting the file (unknown keys, a retry).
    pub warnings: Vec<(String, Option<u32>)>,
}

/// `!value` in JavaScript.
fn falsy(v: Option<&Json>) -> bool {
    match v {
        None | Some(Json::Null) => true,
        Some(Json::Bool(b)) => !b,
        Some(Json::String(s)) => s.is_empty(),
        Some(Json::Number(n)) => n.as_f64() == Some(0.0),
        Some(_) => false,
    }
}

/// The text of a file as Claude Code reads it: UTF-8 (bad bytes replaced), BOM gone.
pub fn decode(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.strip_prefix('\u{feff}').unwrap_or(&text).to_string()
}

struct Front<'a> {
    split: Split<'a>,
    map: Map<String, Json>,
    parse_error: Option<String>,
    retried: bool,
    /// The block parsed to something other than a table (a list, a scalar).
    not_table: bool,
}

fn front(text: &str) -> Front<'_> {
    let split = frontmatter::split(text);
    let Some(block) = split.block else {
        return Front { split, map: Map::new(), parse_error: None, retried: false, not_table: false };
    };
    let parsed = frontmatter::parse_block(block);
    let (map, parse_error, not_table) = match parsed.value {
        Ok(Json::Object(m)) => (m, None, false),
        Ok(Json::Null) => (Map::new(), None, false),
        Ok(_) => (Map::new(), None, true),
        Err(e) => (Map::new(), Some(e), false),
    };
    Front { split, map, parse_error, retried: parsed.retried, not_table }
}

/// A `.claude/agents` file (`Pyn`).
pub fn parse_file(bytes: &[u8]) -> Outcome {
    let text = decode(bytes);
    let f = front(&text);
    let line = |key: &str| f.split.block.and_then(|b| frontmatter::key_line(b, f.split.first_line, key));
    if let Some(e) = &f.parse_error {
        return Outcome::Rejected {
            kind: Rejection::Parse,
            message: format!("YAML frontmatter failed to parse and was ignored: {e}"),
            line: Some(f.split.first_line),
        };
    }
    let fm = &f.map;
    let name = fm.get("name");
    if falsy(name) {
        return Outcome::Silent(match (f.split.block, name) {
            (None, _) => "no front matter (it must open with `---` on the first line and close with `---`): Claude Code ignores the file without a message".into(),
            (Some(_), None) if f.not_table => "the front matter is not a table of keys: Claude Code ignores the file without a message".into(),
            (Some(_), None) => "no `name` in the front matter: Claude Code treats the file as documentation and ignores it without a message".into(),
            (Some(_), Some(v)) => format!("`name` is {v}, which Claude Code takes for no name: it ignores the file without a message"),
        });
    }
    let reject = |message: String, key: &str| Outcome::Rejected { kind: Rejection::Validation, message, line: line(key) };
    let Some(Json::String(name)) = name else {
        return reject("Failed to parse agent: Missing required \"name\" field in frontmatter (it is not a string)".into(), "name");
    };
    let description = fm.get("description");
    let invalid = if name.starts_with('-') {
        Some(("Invalid \"name\": names must not start with \"-\"".to_string(), "name"))
    } else if name.encode_utf16().count() > MAX_NAME {
        Some((format!("Invalid \"name\": names must be at most {MAX_NAME} characters"), "name"))
    } else if name.nfkc().any(|c| c == ':') {
        Some(("Invalid \"name\": names must not contain \":\" (reserved for plugin namespacing)".to_string(), "name"))
    } else if falsy(description) || !matches!(description, Some(Json::String(_))) {
        Some(("Missing required \"description\" field in frontmatter".to_string(), "description"))
    } else {
        None
    };
    if let Some((message, key)) = invalid {
        return reject(message, key);
    }
    if let Some(why) = hooks::problem(fm) {
        return reject(format!("Failed to parse agent: Unknown parsing error ({why})"), if fm.contains_key("hooks") { "hooks" } else { "PreToolUse" });
    }
    let description = description.and_then(Json::as_str).unwrap_or_default().replace("\\n", "\n");
    let memory = fm.get("memory").and_then(Json::as_str).filter(|m| ["user", "project", "local"].contains(m)).map(str::to_string);
    let mut tools = tools::from_value(fm.get("tools"));
    if memory.is_some() {
        tools = tools.with_memory();
    }
    let mut warnings = Vec::new();
    let unknown: Vec<&str> = fm.keys().map(String::as_str).filter(|k| !KNOWN_KEYS.contains(k)).collect();
    if !unknown.is_empty() {
        warnings.push((format!("frontmatter keys Claude Code does not recognize or apply: {}", unknown.join(", ")), line(unknown[0])));
    }
    if f.retried {
        warnings.push((
            "the front matter is not valid YAML as written; Claude Code loads it only after quoting risky values (its lenient retry)".into(),
            Some(f.split.first_line),
        ));
    }
    let (frontmatter, odd_lines) = kept(fm, &f.split);
    Outcome::Agent(Box::new(Definition {
        name: name.clone(),
        description,
        model: model(fm.get("model")),
        tools,
        disallowed: fm.get("disallowedTools").and_then(|v| tools::from_value(Some(v)).names()),
        permission_mode: fm.get("permissionMode").and_then(Json::as_str).map(str::to_string),
        prompt: js_trim(f.split.body).to_string(),
        frontmatter,
        odd_lines,
        warnings,
    }))
}

/// A plugin's agent file (`O3n`): it always loads; the name is
/// `plugin:subfolders:name`, the name from the front matter or else the file name.
pub fn parse_plugin_file(bytes: &[u8], plugin: &str, namespace: &[String], stem: &str, plugin_root: &str) -> Definition {
    let text = decode(bytes);
    let f = front(&text);
    let fm = &f.map;
    // `nQt`: `String(name)` unless null or over 256 characters.
    let own = match fm.get("name") {
        None | Some(Json::Null) => None,
        Some(v) => Some(frontmatter::js_string(v)).filter(|n| n.encode_utf16().count() <= MAX_NAME && !n.is_empty()),
    };
    let short = own.unwrap_or_else(|| stem.to_string());
    let name = std::iter::once(plugin).chain(namespace.iter().map(String::as_str)).chain([short.as_str()]).collect::<Vec<_>>().join(":");
    // `Yke`: a string trimmed, a number or boolean as text.
    let text_of = |v: Option<&Json>| match v {
        Some(Json::String(s)) => Some(js_trim(s).to_string()).filter(|s| !s.is_empty()),
        Some(v @ (Json::Number(_) | Json::Bool(_))) => Some(frontmatter::js_string(v)),
        _ => None,
    };
    let description = text_of(fm.get("description"))
        .or_else(|| text_of(fm.get("when_to_use")))
        .or_else(|| text_of(fm.get("when-to-use")))
        .unwrap_or_else(|| format!("Agent from {plugin} plugin"));
    let memory = fm.get("memory").and_then(Json::as_str).filter(|m| ["user", "project", "local"].contains(m)).map(str::to_string);
    let mut tools = tools::from_value(fm.get("tools"));
    if memory.is_some() {
        tools = tools.with_memory();
    }
    let mut warnings = Vec::new();
    if let Some(e) = &f.parse_error {
        warnings.push((format!("the front matter does not parse ({e}); Claude Code loads the plugin agent anyway, under its file name"), Some(f.split.first_line)));
    }
    for key in ["permissionMode", "hooks", "mcpServers", "initialPrompt"] {
        if fm.contains_key(key) {
            let line = f.split.block.and_then(|b| frontmatter::key_line(b, f.split.first_line, key));
            warnings.push((format!("`{key}` is ignored for plugin agents"), line));
        }
    }
    let prompt = js_trim(f.split.body).replace("${CLAUDE_PLUGIN_ROOT}", plugin_root);
    let (frontmatter, odd_lines) = kept(fm, &f.split);
    Definition {
        name,
        description,
        model: model(fm.get("model")),
        tools,
        disallowed: fm.get("disallowedTools").and_then(|v| tools::from_value(Some(v)).names()),
        permission_mode: None,
        prompt,
        frontmatter,
        odd_lines,
        warnings,
    }
}

/// The keys the reader always looks up, besides the front matter's own.
const SHOWN: [&str; 4] = ["description", "model", "tools", "disallowedTools"];

/// The front matter packed, each key with its line (the block's first line where
/// `key_line` cannot find it), and the keys whose line differs from that: those not
/// found, and the always-shown keys found written but not parsed.
fn kept(fm: &Map<String, Json>, split: &Split) -> (Attributes, Box<[(Box<str>, Option<u32>)]>) {
    let line = |k: &str| split.block.and_then(|b| frontmatter::key_line(b, split.first_line, k));
    let mut packed = AttributesBuilder::default();
    let mut odd: Vec<(Box<str>, Option<u32>)> = Vec::new();
    for (k, v) in fm {
        let at = line(k);
        if at.is_none() {
            odd.push((k.as_str().into(), None));
        }
        packed.push(k, at.unwrap_or(split.first_line), v);
    }
    odd.extend(SHOWN.iter().filter(|k| !fm.contains_key(**k)).filter_map(|k| Some(((*k).into(), Some(line(k)?)))));
    (packed.finish(), odd.into())
}

impl Definition {
    /// Whether the front matter has `key`.
    pub fn has(&self, key: &str) -> bool {
        self.frontmatter.lines().any(|(k, _)| k == key)
    }

    /// The front matter's value of `key`.
    pub fn value(&self, key: &str) -> Option<Json> {
        self.frontmatter.get(self.frontmatter.lines().position(|(k, _)| k == key)?).map(|a| a.value.to_json())
    }

    /// The line `key` is written on, as `key_line` finds it in the block.
    pub fn key_line(&self, key: &str) -> Option<u32> {
        match self.odd_lines.iter().find(|(k, _)| &**k == key) {
            Some((_, line)) => *line,
            None => self.frontmatter.lines().find(|(k, _)| *k == key).map(|(_, l)| l),
        }
    }
}

/// `model`: a non-empty string, trimmed; `inherit` in any case folds to `inherit`.
fn model(v: Option<&Json>) -> Option<String> {
    let s = js_trim(v?.as_str()?);
    if s.is_empty() {
        return None;
    }
    Some(if s.to_lowercase() == "inherit" { "inherit".into() } else { s.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(text: &str) -> Box<Definition> {
        match parse_file(text.as_bytes()) {
            Outcome::Agent(d) => d,
            _ => panic!("not an agent: {text:?}"),
        }
    }

    #[test]
    fn keys_keep_the_line_they_are_written_on() {
        let d = agent("---\nname: a\ndescription: d\n\"tools\": Read\n---\nBody\n");
        assert_eq!((d.key_line("name"), d.key_line("tools"), d.key_line("model")), (Some(2), Some(4), None));
        assert_eq!(d.value("tools"), Some(Json::from("Read")));
        assert!(d.has("description") && !d.has("model"));
        // Keys `key_line` cannot place keep no line, though their attribute shows
        // the block's first line.
        let d = agent("---\n{name: a, description: d}\n---\n");
        assert_eq!(d.key_line("name"), None);
        assert_eq!(d.frontmatter.lines().collect::<Vec<_>>(), [("name", 2), ("description", 2)]);
        // An always-shown key written but not parsed keeps its line.
        let broken = format!("---\nk1: {}\ntools: x\n---\n", "[".repeat(1000));
        let d = parse_plugin_file(broken.as_bytes(), "p", &[], "s", "/r");
        assert_eq!((d.key_line("tools"), d.has("tools")), (Some(3), false));
    }
}
