//! The keys of a Copilot CLI agent file and their types, as CLI 1.0.102 checks
//! them (observed: its errors name each field, zod-style, `tools: 0: Expected
//! string, received number`, one per line; unknown keys load with a warning).

use serde_yaml::{Mapping, Value};

use super::frontmatter::{Failure, Split, MALFORMED};
use crate::model::{Attributes, AttributesBuilder, DiagKind};

/// Keys the CLI reads (and type-checks). Every other key is an unknown field: the
/// agent loads, with a warning naming it.
pub const KNOWN: [&str; 15] = [
    "name", "description", "tools", "model", "disable-model-invocation", "user-invocable", "infer",
    "mcp-servers", "hooks", "skills", "reasoning-effort", "include-custom-instructions",
    "strict-tools-list", "deferred-tool-loading", "github",
];

/// One top-level key as written, with its file line.
#[derive(Clone, Debug)]
pub struct Key {
    pub name: String,
    pub line: u32,
}

/// A file that loaded, as the CLI's `session.custom_agents_updated` event shows it.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The `name` key when it is a non-empty string, else the ID.
    pub name: String,
    pub description: String,
    /// `tools` as echoed: omitted is `["*"]`, a string is split at commas.
    pub tools: Vec<String>,
    pub tools_given: bool,
    /// `model` as a list (a string is a list of one).
    pub models: Option<Vec<String>>,
    pub disable_model_invocation: bool,
    pub user_invocable: bool,
    /// Whether the body is empty (the sub-agent then gets every tool). The body
    /// itself is the prompt the reader makes from the split, not kept here.
    pub body_is_empty: bool,
    /// Every top-level key as written, in file order, packed: the agent shares them.
    pub keys: Attributes,
    /// Keys the CLI warns about and ignores.
    pub unknown: Vec<Key>,
    /// The file declares MCP servers or hooks (started when the agent runs).
    pub starts_processes: bool,
}

impl Definition {
    /// The line top-level `key` is written on.
    pub fn line(&self, key: &str) -> Option<u32> {
        self.keys.lines().find(|(k, _)| *k == key).map(|(_, l)| l)
    }
}

/// The zod type word of a YAML value, as the CLI names it after turning the YAML
/// into JSON (where `.inf` and `.nan` become null; a tag is dropped).
fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.as_f64().is_some_and(|f| !f.is_finite()) => "null",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Sequence(_) => "array",
        Value::Mapping(_) => "object",
        Value::Tagged(t) => type_word(&t.value),
    }
}

fn untagged(v: &Value) -> &Value {
    match v {
        Value::Tagged(t) => untagged(&t.value),
        other => other,
    }
}

/// A key as the event would name it (non-string keys in their YAML form).
fn key_text(k: &Value) -> String {
    match untagged(k) {
        Value::String(s) => s.clone(),
        other => serde_yaml::to_string(other).map(|s| s.trim_end().to_string()).unwrap_or_default(),
    }
}

/// A YAML value as JSON (numbers that JSON cannot hold become null).
pub fn to_json(v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match untagged(v) {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                J::from(i)
            } else if let Some(u) = n.as_u64() {
                J::from(u)
            } else {
                n.as_f64().and_then(serde_json::Number::from_f64).map_or(J::Null, J::Number)
            }
        }
        Value::String(s) => J::String(s.clone()),
        Value::Sequence(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Mapping(m) => J::Object(m.iter().map(|(k, v)| (key_text(k), to_json(v))).collect()),
        Value::Tagged(_) => J::Null,
    }
}

/// The file line of top-level `key` in the front matter (its first spelling).
fn key_line(split: &Split, key: &str) -> u32 {
    for (i, line) in split.yaml_text.lines().enumerate() {
        if line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        let Some((k, _)) = line.split_once(':') else { continue };
        let k = k.trim().trim_matches(|c| c == '"' || c == '\'');
        if k == key {
            return split.first_line + i as u32;
        }
    }
    split.first_line
}

/// Checks `split`'s front matter; `id` stands in for an absent or empty `name`.
pub fn check(split: &Split, id: &str) -> Result<Definition, Failure> {
    let empty = Mapping::new();
    let map = match untagged(&split.yaml) {
        Value::Null => &empty,
        Value::Mapping(m) => m,
        other => {
            let message = format!("{MALFORMED}Expected object, received {}", type_word(other));
            return Err(Failure::parse(message, Some(split.first_line), None));
        }
    };
    let mut keys = AttributesBuilder::default();
    let mut unknown = Vec::new();
    for (k, v) in map {
        let name = key_text(k);
        let line = key_line(split, &name);
        keys.push(&name, line, &to_json(v));
        if !KNOWN.contains(&name.as_str()) {
            unknown.push(Key { name, line });
        }
    }
    let get = |key: &str| map.iter().find(|(k, _)| matches!(untagged(k), Value::String(s) if s == key)).map(|(_, v)| untagged(v));
    let mut errors: Vec<(String, &str)> = Vec::new();
    let mut error = |key: &'static str, text: String| errors.push((text, key));

    let string = |key: &'static str, error: &mut dyn FnMut(&'static str, String)| -> Option<String> {
        match get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                error(key, format!("{key}: Expected string, received {}", type_word(other)));
                None
            }
        }
    };
    let boolean = |key: &'static str, error: &mut dyn FnMut(&'static str, String)| -> Option<bool> {
        match get(key)? {
            Value::Bool(b) => Some(*b),
            other => {
                error(key, format!("{key}: Expected boolean, received {}", type_word(other)));
                None
            }
        }
    };
    // A list of strings, or (`tools`, `model`) one string.
    let strings = |key: &'static str, list_first: bool, error: &mut dyn FnMut(&'static str, String)| -> Option<Vec<String>> {
        match get(key)? {
            Value::String(s) => Some(vec![s.clone()]),
            Value::Sequence(items) => {
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match untagged(item) {
                        Value::String(s) => out.push(s.clone()),
                        other => error(key, format!("{key}: {i}: Expected string, received {}", type_word(other))),
                    }
                }
                Some(out)
            }
            other => {
                let want = if list_first { "array" } else { "string" };
                error(key, format!("{key}: Expected {want}, received {}", type_word(other)));
                None
            }
        }
    };

    let name = string("name", &mut error);
    let description = match get("description") {
        None => {
            error("description", "description: Required".into());
            None
        }
        Some(_) => string("description", &mut error),
    };
    let tools = match get("tools") {
        Some(Value::String(s)) => Some(s.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect()),
        Some(_) => strings("tools", true, &mut error),
        None => None,
    };
    let models = strings("model", false, &mut error);
    // Observed: a list must be non-empty and every entry non-blank (a blank string
    // alone is accepted).
    let blank = |v: &Value| matches!(untagged(v), Value::String(s) if s.trim().is_empty());
    if matches!(get("model"), Some(Value::Sequence(items)) if items.is_empty() || items.iter().any(blank)) {
        error("model", "model: Expected a non-empty list of model names".into());
    }
    let dmi = boolean("disable-model-invocation", &mut error);
    let user_invocable = boolean("user-invocable", &mut error);
    let infer = boolean("infer", &mut error);
    if let Some(servers) = get("mcp-servers") {
        check_servers(servers, &mut error);
    }
    // Observed wording: `hooks: hooks must be an object`.
    if get("hooks").is_some_and(|v| !v.is_mapping()) {
        error("hooks", "hooks: hooks must be an object".into());
    }
    if let Some(v) = get("github").filter(|v| !v.is_mapping()) {
        error("github", format!("github: Expected object, received {}", type_word(v)));
    }
    // `skills` is a list only (a string is an error, unlike `tools` and `model`).
    if let Some(v) = get("skills").filter(|v| v.is_string()) {
        error("skills", format!("skills: Expected array, received {}", type_word(v)));
    } else {
        let _ = strings("skills", true, &mut error);
    }
    let _ = string("reasoning-effort", &mut error);
    for key in ["include-custom-instructions", "strict-tools-list", "deferred-tool-loading"] {
        let _ = boolean(key, &mut error);
    }
    if !errors.is_empty() {
        let line = errors.iter().map(|(_, k)| key_line(split, k)).min();
        let text: Vec<String> = errors.into_iter().map(|(t, _)| t).collect();
        return Err(Failure {
            kind: DiagKind::Validation,
            message: format!("{MALFORMED}{}", text.join("\n")),
            line,
            col: None,
        });
    }
    let tools_given = tools.is_some();
    Ok(Definition {
        name: name.filter(|n| !n.is_empty()).unwrap_or_else(|| id.to_string()),
        description: description.unwrap_or_default(),
        tools: tools.unwrap_or_else(|| vec!["*".to_string()]),
        tools_given,
        models,
        // An explicit `disable-model-invocation` wins over `infer`.
        disable_model_invocation: dmi.unwrap_or(infer.is_some_and(|i| !i)),
        user_invocable: user_invocable.unwrap_or(true),
        body_is_empty: split.body.is_empty(),
        starts_processes: get("mcp-servers").is_some() || get("hooks").is_some(),
        keys: keys.finish(),
        unknown,
    })
}

/// `mcp-servers`: an object of servers, each an object; every server needs
/// `tools`, a local one (`local`, `stdio` or no `type`) `args`, a remote one
/// (`http`, `sse`) `url` (observed: `mcp-servers.srv.args: Required`).
fn check_servers(servers: &Value, error: &mut dyn FnMut(&'static str, String)) {
    let Value::Mapping(servers) = servers else {
        error("mcp-servers", format!("mcp-servers: Expected object, received {}", type_word(servers)));
        return;
    };
    for (name, server) in servers {
        let name = key_text(name);
        let Value::Mapping(server) = untagged(server) else {
            error("mcp-servers", format!("mcp-servers.{name}: Expected object, received {}", type_word(server)));
            continue;
        };
        let field = |k: &str| server.iter().find(|(key, _)| key.as_str() == Some(k)).map(|(_, v)| untagged(v));
        let kind = match field("type") {
            None => Some("args"),
            Some(Value::String(t)) if t == "local" || t == "stdio" => Some("args"),
            Some(Value::String(t)) if t == "http" || t == "sse" => Some("url"),
            _ => None,
        };
        let wanted: &[(&str, &str)] = match kind {
            Some("args") => &[("args", "array"), ("tools", "array")],
            Some(_) => &[("url", "string"), ("tools", "array")],
            None => &[("tools", "array")],
        };
        for &(key, want) in wanted {
            let v = field(key);
            let fits = match v {
                Some(Value::Sequence(_)) => want == "array",
                Some(Value::String(_)) => want == "string",
                _ => false,
            };
            match v {
                None => error("mcp-servers", format!("mcp-servers.{name}.{key}: Required")),
                Some(_) if fits => {}
                Some(other) => error("mcp-servers", format!("mcp-servers.{name}.{key}: Expected {want}, received {}", type_word(other))),
            }
        }
    }
}

/// The warning the CLI prints for unknown keys.
pub fn unknown_warning(unknown: &[Key]) -> Option<String> {
    let names: Vec<&str> = unknown.iter().map(|k| k.name.as_str()).collect();
    match names.len() {
        0 => None,
        1 => Some(format!("unknown field ignored: {}", names[0])),
        _ => Some(format!("unknown fields ignored: {}", names.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::frontmatter::split;
    use super::*;

    fn check_text(text: &str) -> Result<Definition, Failure> {
        check(&split(text.as_bytes()).expect("splits"), "the-id")
    }

    fn message(text: &str) -> String {
        check_text(text).expect_err("fails").message.trim_start_matches(MALFORMED).to_string()
    }

    #[test]
    fn errors_name_the_field() {
        assert_eq!(message("---\ntools: [read, 1]\ndescription: d\n---\n"), "tools: 1: Expected string, received number");
        assert_eq!(message("---\ntools: {a: 1}\ndescription: d\n---\n"), "tools: Expected array, received object");
        assert_eq!(message("---\ndescription: d\nmodel: 5\n---\n"), "model: Expected string, received number");
        let blank = "model: Expected a non-empty list of model names";
        assert_eq!(message("---\ndescription: d\nmodel: [a, ' ']\n---\n"), blank);
        assert!(check_text("---\ndescription: d\nmodel: ''\n---\nB.").is_ok());
        assert_eq!(message("---\nname: x\n---\n"), "description: Required");
        assert_eq!(message("---\ndescription: ~\n---\n"), "description: Expected string, received null");
        assert_eq!(message("---\ndescription: d\ninfer: 'no'\n---\n"), "infer: Expected boolean, received string");
        assert_eq!(
            message("---\ndescription: d\nmcp-servers:\n  srv:\n    type: local\n    command: x\n---\n"),
            "mcp-servers.srv.args: Required\nmcp-servers.srv.tools: Required"
        );
        let list = check(&split(b"---\n- a\n---\n").unwrap(), "x").unwrap_err();
        assert_eq!((list.kind, list.message.trim_start_matches(MALFORMED)), (DiagKind::Parse, "Expected object, received array"));
    }

    #[test]
    fn values_as_the_event_shows_them() {
        let d = check_text("---\ndescription: yes\nname: ''\ntools: 'read, search'\nmodel: [a, b]\ninfer: false\ncolor: red\n---\nB.").unwrap();
        assert_eq!((d.name.as_str(), d.description.as_str()), ("the-id", "yes"));
        assert_eq!(d.tools, ["read", "search"]);
        assert_eq!(d.models.as_deref(), Some(&["a".to_string(), "b".to_string()][..]));
        assert!(d.disable_model_invocation);
        assert_eq!(unknown_warning(&d.unknown).as_deref(), Some("unknown field ignored: color"));
        assert_eq!(d.unknown[0].line, 7);
        let d = check_text("---\ndescription: d\ninfer: false\ndisable-model-invocation: false\n---\n").unwrap();
        assert!(!d.disable_model_invocation);
        assert_eq!(check_text("---\ndescription: d\ntools: ''\n---\n").unwrap().tools, Vec::<String>::new());
    }
}
