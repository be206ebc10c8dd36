//! One OpenHands agent file → its definition, exactly as `AgentDefinition.load`
//! builds it: strict UTF-8, newlines normalised, python-frontmatter splitting, PyYAML
//! values, Python `str()` coercions and the schema's validators.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::validators;
use crate::frontmatter::{self, Format};
use crate::model::{Attributes, AttributesBuilder, DiagKind, Field, FieldOrigin, Fields, Text};
use crate::frameworks::Prompts;
use crate::py;
use crate::yaml::{self, Map, Node, Value};

/// A file that loaded.
#[derive(Clone)]
pub struct Definition {
    pub name: String,
    /// Shared with every agent built from this parse.
    pub description: Arc<str>,
    // Shared with every agent built from this parse (see `Agent`).
    pub fields: Fields,
    pub attributes: Attributes,
    pub system_prompt: Text,
}

/// Why a file did not load, as the oracle classifies it.
pub use crate::model::Failure;

fn fail(kind: DiagKind, message: impl Into<String>, line: Option<u32>) -> Failure {
    Failure { kind, message: message.into(), line, col: None }
}

/// `KNOWN_FIELDS`: every other top-level key lands in `metadata`.
const KNOWN: [&str; 14] = [
    "name", "description", "model", "color", "tools", "skills", "max_iteration_per_run", "max_budget_per_run",
    "hooks", "profile_store_dir", "mcp_config", "mcp_servers", "permission_mode", "condenser",
];

/// The parsed front matter, with each key's file line.
pub(super) struct Front {
    pub(super) map: Map,
    pub(super) line_offset: u32,
}

impl Front {
    pub(super) fn entry(&self, key: &str) -> Option<&(Node, Node)> {
        // Duplicate keys were already folded by the YAML layer (last value wins).
        self.map.entries.iter().find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key))
    }
    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.entry(key).map(|(_, v)| &v.value)
    }
    pub(super) fn line(&self, key: &str) -> Option<u32> {
        self.entry(key).map(|(k, _)| k.span.line + self.line_offset)
    }
}

/// Decodes the bytes as Python's text mode does: strict UTF-8 (a BOM is kept),
/// `\r\n` and lone `\r` turned into `\n`. Borrowed when no newline needs turning.
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, Failure> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() as u32;
        let byte = bytes.get(e.valid_up_to()).copied().unwrap_or(0);
        fail(
            DiagKind::Parse,
            format!("UnicodeDecodeError: 'utf-8' codec can't decode byte 0x{byte:02x} in position {}", e.valid_up_to()),
            Some(line),
        )
    })?;
    Ok(if memchr::memchr(b'\r', bytes).is_some() {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    })
}

pub(super) fn front_matter(split: &frontmatter::Split) -> Result<Option<Front>, Failure> {
    let Some(front) = &split.front else { return Ok(None) };
    let value = match front.format {
        Format::Yaml => yaml::load_with(&front.text, yaml::Loader::CSafe).map_err(|e| {
            Failure {
                kind: DiagKind::Parse,
                message: format!("YAMLError: {}", e.message),
                line: Some(e.line + front.line_offset),
                col: Some(e.col),
            }
        })?,
        Format::Json => Some(json_front(&front.text).map_err(|m| fail(DiagKind::Parse, m, Some(front.line_offset + 1)))?),
    };
    let Some(Node { value: Value::Map(map), .. }) = value else { return Ok(None) };
    // `Post(content, handler, **metadata)`: keys must be strings and must not clash
    // with the two positional parameters.
    for (k, _) in &map.entries {
        match &k.value {
            Value::Str(s) if s == "content" || s == "handler" => {
                return Err(fail(
                    DiagKind::Parse,
                    format!("TypeError: Post.__init__() got multiple values for argument '{s}'"),
                    Some(k.span.line + front.line_offset),
                ))
            }
            Value::Str(_) => {}
            _ => {
                return Err(fail(
                    DiagKind::Parse,
                    "TypeError: keywords must be strings",
                    Some(k.span.line + front.line_offset),
                ))
            }
        }
    }
    Ok(Some(Front { map, line_offset: front.line_offset }))
}

/// A JSON front-matter block (`json.loads`), as YAML-layer values.
pub(super) fn json_front(text: &str) -> Result<Node, String> {
    let v: Json = serde_json::from_str(text).map_err(|e| format!("JSONDecodeError: {e}"))?;
    fn conv(v: &Json) -> Value {
        match v {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => n.as_f64().map(Value::Float).unwrap_or_else(|| Value::BigInt(n.to_string())),
            },
            Json::String(s) => Value::Str(s.clone()),
            Json::Array(a) => Value::Seq(a.iter().map(|x| Node { value: conv(x), span: Default::default() }).collect()),
            Json::Object(o) => Value::Map(Map {
                entries: o
                    .iter()
                    .map(|(k, x)| {
                        (Node { value: Value::Str(k.clone()), span: Default::default() }, Node { value: conv(x), span: Default::default() })
                    })
                    .collect(),
            }),
        }
    }
    Ok(Node { value: conv(&v), span: Default::default() })
}

/// The stripped, non-empty texts of `(?is)<example>(.*?)</example>` in
/// `description`, as `re.findall` gives them. Searched by hand: the regex's
/// backtracking search was a sixth of a parse. Case-insensitive matching is ASCII
/// only here, as it is for these tags under Unicode folding (no letter of
/// "example" folds to a non-ASCII one).
fn examples(description: &str) -> Vec<String> {
    const OPEN: &str = "<example>";
    const CLOSE: &str = "</example>";
    let mut found = Vec::new();
    let mut at = 0;
    // Leftmost matches, each ending at the first closing tag after its opening
    // one: an opening tag without a closing tag after it ends the search.
    while let Some(open) = find_tag(description, at, OPEN) {
        let start = open + OPEN.len();
        let Some(close) = find_tag(description, start, CLOSE) else { break };
        let text = py::strip(&description[start..close]);
        if !text.is_empty() {
            found.push(text.to_string());
        }
        at = close + CLOSE.len();
    }
    found
}

/// Where `tag` (ASCII, starting with `<`) first occurs in `text` at or after `from`,
/// in any case of its letters.
fn find_tag(text: &str, from: usize, tag: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'<', &bytes[from..])
        .map(|i| from + i)
        .find(|&i| bytes.get(i..i + tag.len()).is_some_and(|b| b.eq_ignore_ascii_case(tag.as_bytes())))
}

/// The rule of a field a front-matter key set, in words: a fixed text for each key
/// the loader reads, borrowed by the many fields of a workspace instead of copied.
fn front_matter_rule(key: &str) -> std::borrow::Cow<'static, str> {
    macro_rules! fixed {
        ($($k:literal),*) => {
            match key {
                $($k => concat!("`", $k, ":` in the front matter").into(),)*
                _ => ["`", key, ":` in the front matter"].concat().into(),
            }
        };
    }
    fixed!(
        "description", "model", "color", "tools", "skills", "permission_mode", "max_iteration_per_run",
        "max_budget_per_run", "mcp_config", "mcp_servers", "profile_store_dir", "hooks", "condenser"
    )
}

/// Builds the definition of one file; `stem` is the file name's stem, `source` the
/// file's source key (for origins), `bytes` the contents of `path`; the prompt is
/// kept as `texts` says.
pub fn parse(bytes: &[u8], stem: &str, source: &str, path: &Path, prompts: Prompts) -> Result<Definition, Failure> {
    // One key for all the sites of the file's fields.
    let source: std::sync::Arc<str> = source.into();
    let text = decode(bytes)?;
    let split = frontmatter::split(&text);
    let front = front_matter(&split)?;
    let empty = Front { map: Map::default(), line_offset: 0 };
    let fm = front.as_ref().unwrap_or(&empty);
    let invalid = |m: String, key: &str| fail(DiagKind::Validation, m, fm.line(key));

    let mut fields = Vec::new();
    let mut push = |key: &'static str, value: Json, from: &[&str], default_rule: &'static str| {
        let origin = match from.iter().find_map(|k| fm.line(k).map(|l| (k, l))) {
            Some((k, line)) => FieldOrigin::own(&source, Some(line), front_matter_rule(k)),
            None => FieldOrigin::default(default_rule),
        };
        fields.push(Field::new(key, value, origin));
    };

    let name = fm.get("name").map(py::str_of).unwrap_or_else(|| stem.to_string());
    let description = fm.get("description").map(py::str_of).unwrap_or_default();
    push("description", json!(description), &["description"], "default: empty");
    let model = fm.get("model").map(py::str_of).unwrap_or_else(|| "inherit".into());
    push("model", json!(model), &["model"], "default: `inherit` (the parent agent's model)");
    let color = match fm.get("color") {
        None | Some(Value::Null) => Json::Null,
        Some(v) => json!(py::str_of(v)),
    };
    push("color", color, &["color"], "default: none");
    let tools: Vec<String> = match fm.get("tools") {
        Some(Value::Str(s)) => vec![s.clone()],
        Some(Value::Seq(items)) => items.iter().map(|n| py::str_of(&n.value)).collect(),
        _ => Vec::new(),
    };
    push("tools", json!(tools), &["tools"], "default: no tools");
    let skills: Vec<String> = match fm.get("skills") {
        Some(Value::Str(s)) => s.split(',').map(py::strip).filter(|s| !s.is_empty()).map(String::from).collect(),
        Some(Value::Seq(items)) => items.iter().map(|n| py::str_of(&n.value)).collect(),
        _ => Vec::new(),
    };
    push("skills", json!(skills), &["skills"], "default: no skills");

    let permission_mode = match fm.get("permission_mode") {
        None | Some(Value::Null) => Json::Null,
        Some(raw) => {
            let v = py::strip(&py::str_of(raw)).to_lowercase();
            if !["always_confirm", "never_confirm", "confirm_risky"].contains(&v.as_str()) {
                return Err(invalid(
                    format!(
                        "ValueError: Invalid permission_mode '{}'. Must be one of: always_confirm, confirm_risky, never_confirm",
                        py::str_of(raw)
                    ),
                    "permission_mode",
                ));
            }
            json!(v)
        }
    };
    push("permission_mode", permission_mode, &["permission_mode"], "default: none (inherits the parent's policy)");

    let iterations = match fm.get("max_iteration_per_run") {
        Some(Value::Str(s)) => Some(py::int_parse(s).ok_or_else(|| {
            invalid(
                format!("ValueError: invalid literal for int() with base 10: {}", py::repr(&Value::Str(s.clone()))),
                "max_iteration_per_run",
            )
        })?),
        Some(Value::Int(i)) => Some(Value::Int(*i)),
        Some(Value::BigInt(b)) => Some(Value::BigInt(b.clone())),
        Some(Value::Bool(b)) => Some(Value::Int(i64::from(*b))),
        _ => None,
    };
    let iterations = match iterations {
        Some(v) if !int_positive(&v) => {
            return Err(invalid("ValidationError: max_iteration_per_run: Input should be greater than 0".into(), "max_iteration_per_run"))
        }
        Some(v) => v.to_json(),
        None => Json::Null,
    };
    push("max_iteration_per_run", iterations, &["max_iteration_per_run"], "default: none");

    let budget = match fm.get("max_budget_per_run") {
        Some(Value::Bool(_)) | None => None,
        Some(Value::Int(i)) => Some(*i as f64),
        Some(Value::BigInt(b)) => b.parse::<f64>().ok(),
        Some(Value::Float(f)) => Some(*f),
        Some(Value::Str(s)) => Some(py::float_parse(s).ok_or_else(|| {
            invalid(format!("ValueError: could not convert string to float: {}", py::repr(&Value::Str(s.clone()))), "max_budget_per_run")
        })?),
        Some(_) => None,
    };
    let budget = match budget {
        // pydantic's `gt=0` rejects NaN too, which a plain `f <= 0.0` would let through.
        Some(f) if f.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) => {
            return Err(invalid("ValidationError: max_budget_per_run: Input should be greater than 0".into(), "max_budget_per_run"))
        }
        // pydantic writes infinity as null.
        Some(f) if f.is_finite() => json!(f),
        Some(_) => Json::Null,
        None => Json::Null,
    };
    push("max_budget_per_run", budget, &["max_budget_per_run"], "default: no budget");

    // `fm.get("mcp_config", fm.get("mcp_servers"))`: the first key wins even when null.
    let (mcp_key, mcp_raw) = match fm.entry("mcp_config") {
        Some((_, v)) => ("mcp_config", Some(&v.value)),
        None => ("mcp_servers", fm.get("mcp_servers")),
    };
    let mcp = match mcp_raw {
        None | Some(Value::Null) => Json::Null,
        Some(Value::Map(m)) => validators::mcp_config(m).map_err(|e| invalid(format!("ValidationError: {e}"), mcp_key))?,
        Some(other) => {
            return Err(invalid(
                format!("ValueError: mcp_config must be a mapping of server names to configs, got <class '{}'>", other.type_name()),
                mcp_key,
            ))
        }
    };
    push("mcp_config", mcp, &[mcp_key], "default: none");

    let profile = match fm.get("profile_store_dir") {
        None | Some(Value::Null) => Json::Null,
        Some(Value::Str(s)) => json!(s),
        Some(other) => {
            return Err(invalid(
                format!("ValueError: profile_store_dir must be a scalar value, got <class '{}'>", other.type_name()),
                "profile_store_dir",
            ))
        }
    };
    push("profile_store_dir", profile, &["profile_store_dir"], "default: the default profile store");

    let hooks = match fm.get("hooks") {
        Some(Value::Map(m)) => validators::hooks(m).map_err(|e| invalid(format!("ValidationError: {e}"), "hooks"))?,
        _ => Json::Null,
    };
    push("hooks", hooks, &["hooks"], "default: none (a non-mapping value is ignored)");

    let condenser = match fm.get("condenser") {
        None | Some(Value::Null) | Some(Value::Bool(true)) => Json::Null,
        Some(Value::Bool(false)) => json!({ "kind": "NoOpCondenser" }),
        Some(Value::Str(s)) => match py::strip(s).to_lowercase().as_str() {
            "" | "default" | "inherit" => Json::Null,
            "none" | "off" | "false" | "no" | "disable" | "disabled" => json!({ "kind": "NoOpCondenser" }),
            _ => {
                return Err(invalid(
                    format!(
                        "ValueError: Invalid condenser value: {}. Use 'default', 'none', or a mapping with a condenser config.",
                        py::repr(&Value::Str(s.clone()))
                    ),
                    "condenser",
                ))
            }
        },
        Some(Value::Map(m)) => validators::condenser_map(m).map_err(|e| invalid(format!("ValidationError: {e}"), "condenser"))?,
        Some(other) => return Err(invalid(format!("ValueError: Invalid condenser value: {}", py::repr(other)), "condenser")),
    };
    push("condenser", condenser, &["condenser"], "default: none (a summarizing condenser at run time)");

    let when = examples(&description);
    let origin = match fm.line("description") {
        Some(line) => FieldOrigin {
            provenance: crate::model::Provenance::Own,
            sites: Box::new([crate::model::Site::new(&source, Some(line))]),
            rule: "extracted from the <example> tags of `description:`".into(),
        },
        None => FieldOrigin::default("default: none (no description)"),
    };
    fields.push(Field::new("when_to_use_examples", json!(when), origin));

    let metadata: serde_json::Map<String, Json> = fm
        .map
        .entries
        .iter()
        .filter_map(|(k, v)| match &k.value {
            Value::Str(s) if !KNOWN.contains(&s.as_str()) => Some((s.clone(), crate::py::pydantic::json(&v.value))),
            _ => None,
        })
        .collect();
    let meta_sites: Box<[crate::model::Site]> = fm
        .map
        .entries
        .iter()
        .filter(|(k, _)| matches!(&k.value, Value::Str(s) if !KNOWN.contains(&s.as_str())))
        .map(|(k, _)| crate::model::Site::new(&source, Some(k.span.line + fm.line_offset)))
        .collect();
    let origin = if meta_sites.is_empty() {
        FieldOrigin::default("default: empty (no unknown keys)")
    } else {
        FieldOrigin {
            provenance: crate::model::Provenance::Own,
            sites: meta_sites,
            rule: "every front-matter key OpenHands does not know".into(),
        }
    };
    fields.push(Field::new("metadata", Json::Object(metadata), origin));

    let mut attributes = AttributesBuilder::default();
    for (k, v) in &fm.map.entries {
        attributes.push(&py::str_of(&k.value), k.span.line + fm.line_offset, &v.value.to_json());
    }
    Ok(Definition {
        name,
        description: description.into(),
        fields: fields.into(),
        attributes: attributes.finish(),
        system_prompt: prompts.from_file(path, bytes, split.body),
    })
}

fn int_positive(v: &Value) -> bool {
    match v {
        Value::Int(i) => *i > 0,
        Value::BigInt(b) => !b.starts_with('-'),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written search gives what the pattern OpenHands uses gives.
    #[test]
    fn examples_match_the_pattern() {
        let re = regex::Regex::new(r"(?is)<example>(.*?)</example>").unwrap();
        let cases = [
            "",
            "no tags",
            "<example>one</example>",
            "a <EXAMPLE>Two\nlines</Example> b <example> </example> <example>three</example>",
            "<example>open <example>nested</example> after</example>",
            "<example>unclosed",
            "<example>x</example><example>never closed",
            "</example><example>late</example>",
            "<exam<example>é ü</example>",
            "<example></example>",
            "<eXaMpLe>\tpadded\u{3000}</ExAmPlE>",
        ];
        for case in cases {
            let expected: Vec<String> = re
                .captures_iter(case)
                .map(|c| py::strip(&c[1]).to_string())
                .filter(|s| !s.is_empty())
                .collect();
            assert_eq!(examples(case), expected, "{case:?}");
        }
    }
}
