//! `md_agents.AgentConfig` (pydantic v2, `extra="forbid"`, `str_strip_whitespace`)
//! re-created over YAML values: which keys exist, their defaults, and the lax
//! coercions pydantic applies (`"7"` → 7, `"yes"` → true, strings stripped, `null`
//! rejected for non-optional fields). A validated config is kept as JSON in
//! `model_dump(mode="json")` form, which is what the resolution report shows.

use serde_json::{json, Map as JsonMap, Value as Json};

use crate::yaml::{Node, Value};

/// The value types of AgentConfig's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Str,
    OptStr,
    Int,
    Bool,
    OptBool,
    ListStr,
    ListDict,
    Dict,
    OptDict,
    Visibility,
    Attachments,
}

/// Every AgentConfig field in declaration order (the order `model_dump` uses).
pub const FIELDS: &[(&str, Kind)] = &[
    ("name", Kind::Str),
    ("description", Kind::Str),
    ("model", Kind::OptStr),
    ("max_turns", Kind::Int),
    ("tools", Kind::ListStr),
    ("strict_tools", Kind::Bool),
    ("prefetch", Kind::ListDict),
    ("attachments", Kind::Attachments),
    ("auto_load_skills", Kind::ListStr),
    ("auto_load_agent_list", Kind::Bool),
    ("auto_load_agents", Kind::ListStr),
    ("skill_paths", Kind::ListStr),
    ("instructions", Kind::Str),
    ("extends", Kind::OptStr),
    ("reasoning_effort", Kind::OptStr),
    ("model_kwargs", Kind::Dict),
    ("custom_tools", Kind::ListDict),
    ("disable_history", Kind::Bool),
    ("auto_context", Kind::OptBool),
    ("visibility", Kind::Visibility),
    ("spawnable", Kind::Bool),
    ("network", Kind::OptDict),
    ("sandbox", Kind::OptDict),
    ("allowed_secrets", Kind::ListStr),
    ("run_if", Kind::OptStr),
];

pub fn index_of(key: &str) -> Option<usize> {
    FIELDS.iter().position(|(k, _)| *k == key)
}

/// The schema default of a field (`name` has none; it is required).
pub fn default_of(key: &str) -> Json {
    match key {
        "description" | "instructions" => json!(""),
        "max_turns" => json!(5),
        "strict_tools" | "auto_load_agent_list" | "disable_history" => json!(false),
        "spawnable" => json!(true),
        "visibility" => json!("public"),
        "model_kwargs" => json!({}),
        "tools" | "prefetch" | "attachments" | "auto_load_skills" | "auto_load_agents"
        | "skill_paths" | "custom_tools" | "allowed_secrets" => json!([]),
        _ => Json::Null,
    }
}

/// One pydantic error: the location (`tools.0`) and the message.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub loc: String,
    pub msg: String,
    pub line: Option<u32>,
}

fn invalid(loc: impl Into<String>, msg: impl Into<String>, node: &Node) -> Invalid {
    Invalid {
        loc: loc.into(),
        msg: msg.into(),
        line: Some(node.span.line),
    }
}

/// pydantic's `str` in lax mode with `str_strip_whitespace`.
fn as_str(node: &Node, loc: &str) -> Result<String, Invalid> {
    match &node.value {
        Value::Str(s) => Ok(crate::py::strip(s).to_string()),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Ok(crate::py::strip(s).to_string()),
            Err(_) => Err(invalid(
                loc,
                "Input should be a valid string, unable to parse raw data as a unicode string",
                node,
            )),
        },
        other => Err(invalid(
            loc,
            format!("Input should be a valid string (got {})", type_word(other)),
            node,
        )),
    }
}

fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Int(_) | Value::BigInt(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Str(_) => "a string",
        Value::Bytes(_) => "bytes",
        Value::Date(_) | Value::DateTime(_) => "a date",
        Value::Seq(_) | Value::Set(_) => "a list",
        Value::Map(_) => "a mapping",
    }
}

/// pydantic's lax `int`: ints, bools, floats without a fraction, numeric strings
/// (`" 7 "`, `"+7"`, `"1_000"`, `"7.0"`).
fn as_int(node: &Node, loc: &str) -> Result<Json, Invalid> {
    let bad = |why: &str| invalid(loc, format!("Input should be a valid integer{why}"), node);
    match &node.value {
        Value::Int(i) => Ok(json!(i)),
        Value::Bool(b) => Ok(json!(*b as i64)),
        Value::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.2e18 => {
            Ok(json!(*f as i64))
        }
        Value::Float(_) => Err(bad(", got a number with a fractional part")),
        Value::Str(s) => int_from_str(s)
            .map(|i| json!(i))
            .ok_or_else(|| bad(", unable to parse string as an integer")),
        Value::BigInt(_) => Err(bad(" (agentry keeps integers within 64 bits)")),
        _ => Err(bad("")),
    }
}

fn int_from_str(s: &str) -> Option<i64> {
    let t = crate::py::strip(s);
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let digits = digits.strip_suffix(".0").unwrap_or(digits);
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    if !digits.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return None;
    }
    digits
        .replace('_', "")
        .parse::<i64>()
        .ok()
        .map(|v| v * sign)
}

/// pydantic's lax `bool`.
fn as_bool(node: &Node, loc: &str) -> Result<bool, Invalid> {
    let bad = || {
        invalid(
            loc,
            "Input should be a valid boolean, unable to interpret input",
            node,
        )
    };
    match &node.value {
        Value::Bool(b) => Ok(*b),
        Value::Int(0) => Ok(false),
        Value::Int(1) => Ok(true),
        Value::Float(f) if *f == 0.0 => Ok(false),
        Value::Float(f) if *f == 1.0 => Ok(true),
        Value::Str(s) => match s.to_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

fn items(node: &Node) -> Option<&[Node]> {
    match &node.value {
        Value::Seq(v) | Value::Set(v) => Some(v),
        _ => None,
    }
}

fn as_list_str(node: &Node, loc: &str) -> Result<Json, Invalid> {
    let list = items(node).ok_or_else(|| invalid(loc, "Input should be a valid list", node))?;
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        out.push(Json::String(as_str(item, &format!("{loc}.{i}"))?));
    }
    Ok(Json::Array(out))
}

/// `Dict[str, Any]`: keys validated (and stripped) as strings, values as PyYAML built
/// them, written as pydantic's JSON mode writes them (a UTC time ends in `Z`).
fn as_dict(node: &Node, loc: &str) -> Result<Json, Invalid> {
    let Value::Map(map) = &node.value else {
        return Err(invalid(loc, "Input should be a valid dictionary", node));
    };
    let mut out = JsonMap::new();
    for (k, v) in &map.entries {
        let key = as_str(k, &format!("{loc}.[key]"))?;
        out.insert(key, crate::py::pydantic::json(&v.value));
    }
    Ok(Json::Object(out))
}

fn as_list_dict(node: &Node, loc: &str) -> Result<Json, Invalid> {
    let list = items(node).ok_or_else(|| invalid(loc, "Input should be a valid list", node))?;
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        out.push(as_dict(item, &format!("{loc}.{i}"))?);
    }
    Ok(Json::Array(out))
}

/// Validates one field's YAML value.
pub fn validate(kind: Kind, key: &str, node: &Node) -> Result<Json, Invalid> {
    let nullable = matches!(kind, Kind::OptStr | Kind::OptBool | Kind::OptDict);
    if matches!(node.value, Value::Null) {
        return if nullable {
            Ok(Json::Null)
        } else {
            Err(invalid(key, "Input should not be null", node))
        };
    }
    match kind {
        Kind::Str | Kind::OptStr => as_str(node, key).map(Json::String),
        Kind::Int => as_int(node, key),
        Kind::Bool | Kind::OptBool => as_bool(node, key).map(Json::Bool),
        Kind::ListStr => as_list_str(node, key),
        Kind::ListDict => as_list_dict(node, key),
        Kind::Dict | Kind::OptDict => as_dict(node, key),
        Kind::Visibility => {
            let v = as_str(node, key)?;
            if ["public", "private", "internal"].contains(&v.as_str()) {
                Ok(Json::String(v))
            } else {
                Err(invalid(
                    key,
                    format!(
                        "visibility must be one of ['public', 'private', 'internal'], got: {v}"
                    ),
                    node,
                ))
            }
        }
        Kind::Attachments => attachments(node),
    }
}

const MAX_TIERS: usize = 4;

/// `attachments`: a flat list of strings / specs, or 1–4 lists of them (cache tiers).
fn attachments(node: &Node) -> Result<Json, Invalid> {
    let list =
        items(node).ok_or_else(|| invalid("attachments", "Input should be a valid list", node))?;
    let grouped: Vec<bool> = list
        .iter()
        .map(|n| items(n).is_some() && matches!(n.value, Value::Seq(_)))
        .collect();
    let mut flat: Vec<(usize, &Node, Option<u32>)> = Vec::new();
    if grouped.iter().any(|g| *g) {
        if !grouped.iter().all(|g| *g) {
            return Err(invalid(
                "attachments",
                "attachments must be either a flat list or a list of groups, not a mix of both",
                node,
            ));
        }
        if list.len() > MAX_TIERS {
            return Err(invalid(
                "attachments",
                "attachments supports at most 4 groups (prompt-cache breakpoint limit)",
                node,
            ));
        }
        for (tier, group) in list.iter().enumerate() {
            for item in items(group).unwrap_or(&[]) {
                match &item.value {
                    Value::Str(s) if s.starts_with('-') => flat.push((tier, item, None)),
                    Value::Str(_) | Value::Map(_) => flat.push((tier, item, Some(tier as u32))),
                    _ => {
                        return Err(invalid(
                            "attachments",
                            format!("invalid attachment item in group {tier}"),
                            item,
                        ));
                    }
                }
            }
        }
    } else {
        flat = list.iter().map(|n| (0, n, None)).collect();
    }
    let mut out = Vec::new();
    for (i, (_, item, tier)) in flat.into_iter().enumerate() {
        let loc = format!("attachments.{i}");
        let value = match (&item.value, tier) {
            (Value::Str(s), Some(t)) => spec_from_path(s, t, item, &loc)?,
            (Value::Map(_), t) => spec(item, t, &loc)?,
            _ => Json::String(as_str(item, &loc)?),
        };
        out.push(value);
    }
    check_unique_assigns(&out).map_err(|msg| invalid("attachments", msg, node))?;
    Ok(Json::Array(out))
}

/// A string turned into `{path, tier}` by the grouped form.
fn spec_from_path(path: &str, tier: u32, node: &Node, loc: &str) -> Result<Json, Invalid> {
    let path = crate::py::strip(path).to_string();
    if path.starts_with('-') {
        return Err(invalid(
            loc,
            "AttachmentSpec.path cannot start with '-' (use string form for removals)",
            node,
        ));
    }
    Ok(spec_json(
        path,
        "full",
        Json::Null,
        Json::Null,
        true,
        false,
        "first_heading",
        50,
        tier,
    ))
}

#[allow(clippy::too_many_arguments)]
fn spec_json(
    path: String,
    mode: &str,
    name: Json,
    assign: Json,
    attach: bool,
    optional: bool,
    index_format: &str,
    max_entries: i64,
    tier: u32,
) -> Json {
    json!({
        "path": path, "mode": mode, "name": name, "assign": assign, "attach": attach,
        "optional": optional, "index_format": index_format, "max_entries": max_entries, "tier": tier,
    })
}

/// `AttachmentSpec` from a mapping (unknown keys rejected).
fn spec(node: &Node, tier: Option<u32>, loc: &str) -> Result<Json, Invalid> {
    let Value::Map(map) = &node.value else {
        return Err(invalid(loc, "Input should be a valid dictionary", node));
    };
    let mut path = None;
    let (mut mode, mut name, mut assign) = ("full".to_string(), Json::Null, Json::Null);
    let (mut attach, mut optional) = (true, false);
    let (mut index_format, mut max_entries, mut spec_tier) =
        ("first_heading".to_string(), 50i64, 0u32);
    for (k, v) in &map.entries {
        let key = as_str(k, &format!("{loc}.[key]"))?;
        let at = format!("{loc}.{key}");
        match key.as_str() {
            "path" => path = Some(as_str(v, &at)?),
            "mode" => {
                mode = as_str(v, &at)?;
                if mode != "full" && mode != "index" {
                    return Err(invalid(at, "Input should be 'full' or 'index'", v));
                }
            }
            "name" if matches!(v.value, Value::Null) => name = Json::Null,
            "name" => name = Json::String(as_str(v, &at)?),
            "assign" if matches!(v.value, Value::Null) => assign = Json::Null,
            "assign" => {
                let a = as_str(v, &at)?;
                if !is_identifier(&a) {
                    return Err(invalid(
                        at,
                        format!("assign must be a valid Python identifier, got: '{a}'"),
                        v,
                    ));
                }
                assign = Json::String(a);
            }
            "attach" => attach = nonnull(v, &at).and_then(|_| as_bool(v, &at))?,
            "optional" => optional = nonnull(v, &at).and_then(|_| as_bool(v, &at))?,
            "index_format" => {
                index_format = as_str(v, &at)?;
                if !["path_only", "first_line", "first_heading", "frontmatter"]
                    .contains(&index_format.as_str())
                {
                    return Err(invalid(at, "Input should be 'path_only', 'first_line', 'first_heading' or 'frontmatter'", v));
                }
            }
            "max_entries" => {
                max_entries = nonnull(v, &at)
                    .and_then(|_| as_int(v, &at))?
                    .as_i64()
                    .unwrap_or(50)
            }
            "tier" => {
                spec_tier = nonnull(v, &at)
                    .and_then(|_| as_int(v, &at))?
                    .as_i64()
                    .unwrap_or(0) as u32
            }
            _ => return Err(invalid(at, "Extra inputs are not permitted", k)),
        }
    }
    let Some(path) = path else {
        return Err(invalid(format!("{loc}.path"), "Field required", node));
    };
    if path.starts_with('-') {
        return Err(invalid(
            format!("{loc}.path"),
            "AttachmentSpec.path cannot start with '-' (use string form for removals)",
            node,
        ));
    }
    if !attach && assign.is_null() {
        return Err(invalid(
            loc,
            "attach: false requires assign: to be useful",
            node,
        ));
    }
    let tier = tier.unwrap_or(spec_tier);
    Ok(spec_json(
        path,
        &mode,
        name,
        assign,
        attach,
        optional,
        &index_format,
        max_entries,
        tier,
    ))
}

fn nonnull(node: &Node, loc: &str) -> Result<(), Invalid> {
    match node.value {
        Value::Null => Err(invalid(loc, "Input should not be null", node)),
        _ => Ok(()),
    }
}

/// Python's `str.isidentifier()`, close enough for attachment `assign` names.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c == '_' || c.is_alphabetic() => chars.all(|c| c == '_' || c.is_alphanumeric()),
        _ => false,
    }
}

/// The after-validator `_no_duplicate_assigns`, also run again on merged configs.
pub fn check_unique_assigns(attachments: &[Json]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for item in attachments {
        if let Some(a) = item.get("assign").and_then(Json::as_str) {
            if !seen.insert(a.to_string()) {
                return Err(format!("duplicate attachment assign: '{a}'"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_follow_pydantic_lax_parsing() {
        assert_eq!(int_from_str(" 7 "), Some(7));
        assert_eq!(int_from_str("+7"), Some(7));
        assert_eq!(int_from_str("1_000"), Some(1000));
        assert_eq!(int_from_str("7.0"), Some(7));
        assert_eq!(int_from_str("7.5"), None);
        assert_eq!(int_from_str("_1"), None);
        assert_eq!(int_from_str(""), None);
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier("notes"));
        assert!(is_identifier("_x1"));
        assert!(!is_identifier("1x"));
        assert!(!is_identifier("a-b"));
    }
}
