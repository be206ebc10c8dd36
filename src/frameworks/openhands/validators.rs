//! The pydantic models OpenHands validates front-matter values with: `HookConfig`,
//! `MCPServer` (through `coerce_mcp_config`) and the condenser spec. Each returns the
//! JSON the framework's `model_dump_json` prints, or the reason the file is rejected.

use serde_json::{json, Map as JsonMap, Value as Json};

use crate::py::{self, lax};
use crate::yaml::{Map, Node, Value};

fn str_key(k: &Node) -> Result<&str, String> {
    match &k.value {
        Value::Str(s) => Ok(s),
        other => Err(format!("keys must be strings, got {}", other.type_name())),
    }
}

/// Python's `re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()`.
fn pascal_to_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if i > 0 && c.is_ascii_uppercase() {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

const HOOK_EVENTS: [&str; 6] = ["pre_tool_use", "post_tool_use", "user_prompt_submit", "session_start", "session_end", "stop"];

/// `HookConfig.model_validate(mapping)`.
pub fn hooks(map: &Map) -> Result<Json, String> {
    // The legacy `{hooks: {...}}` wrapper.
    let inner;
    let map = match map.entries.iter().find(|(k, _)| matches!(&k.value, Value::Str(s) if s == "hooks")) {
        Some((_, v)) => match &v.value {
            Value::Map(m) => m,
            other => {
                inner = other.type_name();
                return Err(format!("AttributeError: '{inner}' object has no attribute 'items'"));
            }
        },
        None => map,
    };
    let mut events: JsonMap<String, Json> = HOOK_EVENTS.iter().map(|e| (e.to_string(), json!([]))).collect();
    let mut seen = Vec::new();
    for (k, v) in &map.entries {
        let key = str_key(k)?;
        let snake = pascal_to_snake(key);
        if snake != key && !HOOK_EVENTS.contains(&snake.as_str()) {
            return Err(format!("Unknown event type '{key}'. Valid types: {}", sorted_events()));
        }
        if seen.contains(&snake) {
            return Err(format!("Duplicate hook event: both '{key}' and its snake_case equivalent '{snake}' were provided"));
        }
        if !HOOK_EVENTS.contains(&snake.as_str()) {
            return Err(format!("{snake}: Extra inputs are not permitted"));
        }
        let Value::Seq(matchers) = &v.value else {
            return Err(format!("{snake}: Input should be a valid list"));
        };
        let list: Result<Vec<Json>, String> = matchers.iter().map(|m| hook_matcher(&m.value)).collect();
        events.insert(snake.clone(), Json::Array(list.map_err(|e| format!("{snake}: {e}"))?));
        seen.push(snake);
    }
    Ok(Json::Object(events))
}

fn sorted_events() -> String {
    let mut e = HOOK_EVENTS.to_vec();
    e.sort_unstable();
    e.join(", ")
}

fn field<'a>(map: &'a Map, name: &str) -> Option<&'a Value> {
    map.entries.iter().rev().find(|(k, _)| matches!(&k.value, Value::Str(s) if s == name)).map(|(_, v)| &v.value)
}

fn hook_matcher(v: &Value) -> Result<Json, String> {
    let Value::Map(m) = v else { return Err("Input should be a valid dictionary or instance of HookMatcher".into()) };
    let matcher = field(m, "matcher").map(lax::str_).transpose()?.unwrap_or_else(|| "*".into());
    let hooks = match field(m, "hooks") {
        None => Vec::new(),
        Some(Value::Seq(items)) => items.iter().map(|h| hook_definition(&h.value)).collect::<Result<_, _>>()?,
        Some(_) => return Err("hooks: Input should be a valid list".into()),
    };
    Ok(json!({ "hooks": hooks, "matcher": matcher }))
}

fn opt_str(m: &Map, name: &str) -> Result<Option<String>, String> {
    match field(m, name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => lax::str_(v).map(Some).map_err(|e| format!("{name}: {e}")),
    }
}

fn hook_definition(v: &Value) -> Result<Json, String> {
    let Value::Map(m) = v else { return Err("Input should be a valid dictionary or instance of HookDefinition".into()) };
    let kind = match field(m, "type") {
        None => "command".to_string(),
        Some(v) => match lax::str_(v)?.as_str() {
            t @ ("command" | "prompt" | "agent") => t.to_string(),
            _ => return Err("type: Input should be 'command', 'prompt' or 'agent'".into()),
        },
    };
    let command = field(m, "command").map(lax::str_).transpose()?.unwrap_or_default();
    let prompt = opt_str(m, "prompt")?;
    let tools = field(m, "tools").map(lax::str_list).transpose()?.unwrap_or_default();
    let timeout = field(m, "timeout").map(lax::int).transpose()?.unwrap_or(60);
    let max_iterations = field(m, "max_iterations").map(lax::int).transpose()?.unwrap_or(3);
    // `async` is the alias; `async_` the field name (populate_by_name).
    let async_ = field(m, "async").or_else(|| field(m, "async_")).map(lax::bool_).transpose()?.unwrap_or(false);
    let empty = |s: &Option<String>| s.as_deref().is_none_or(str::is_empty);
    match kind.as_str() {
        "command" if command.is_empty() => return Err("'command' is required when type is 'command'".into()),
        "prompt" if empty(&prompt) => return Err("'prompt' is required when type is 'prompt'".into()),
        "prompt" if !command.is_empty() => return Err("'command' must not be set when type is 'prompt'".into()),
        "prompt" if async_ => return Err("'async' is not supported for prompt hooks".into()),
        "agent" if !command.is_empty() => {
            return Err("'command' must not be set when type is 'agent'; use 'system_prompt' instead".into())
        }
        "agent" if async_ => return Err("'async' is not supported for agent hooks".into()),
        _ => {}
    }
    Ok(json!({
        "async_": async_, "command": command, "max_iterations": max_iterations,
        "name": opt_str(m, "name")?, "prompt": prompt, "system_prompt": opt_str(m, "system_prompt")?,
        "timeout": timeout, "tools": tools, "type": kind,
    }))
}

const MCP_FIELDS: [&str; 14] = [
    "url", "transport", "command", "args", "env", "cwd", "description", "icon", "timeout", "sse_read_timeout",
    "keep_alive", "headers", "auth", "enabled",
];

/// `coerce_mcp_config(mapping)`: unwraps `mcpServers`, drops unknown server keys,
/// validates each server and dumps it compactly (unset fields omitted).
pub fn mcp_config(map: &Map) -> Result<Json, String> {
    let servers: &Map = match field(map, "mcpServers") {
        Some(Value::Map(m)) => m,
        Some(Value::Null) => return Ok(json!({})),
        Some(other) => return Err(format!("Input should be a valid dictionary, got {}", other.type_name())),
        None => map,
    };
    let mut out = JsonMap::new();
    for (k, v) in &servers.entries {
        let name = py::str_of(&k.value);
        let server = match &v.value {
            Value::Map(m) => mcp_server(m).map_err(|e| format!("{name}: {e}"))?,
            _ => return Err(format!("{name}: Input should be a valid dictionary or instance of MCPServer")),
        };
        out.insert(name, server);
    }
    Ok(Json::Object(out))
}

fn mcp_server(m: &Map) -> Result<Json, String> {
    // `type` becomes `transport` when none is given; `shttp` means `http` in either.
    let mut fields: Vec<(&str, &Value)> = Vec::new();
    let mut typed = None;
    for (k, v) in &m.entries {
        let Value::Str(key) = &k.value else { continue };
        if key == "type" {
            typed = Some(&v.value);
        } else if MCP_FIELDS.contains(&key.as_str()) {
            fields.retain(|(f, _)| f != key);
            fields.push((key, &v.value));
        }
    }
    if !fields.iter().any(|(f, _)| *f == "transport") {
        if let Some(t) = typed.filter(|t| !matches!(t, Value::Null)) {
            fields.push(("transport", t));
        }
    }
    let mut out = JsonMap::new();
    let mut enabled = true;
    for (key, v) in fields {
        if matches!(v, Value::Null) && key != "enabled" {
            continue;
        }
        let at = |e: String| format!("{key}: {e}");
        let value = match key {
            "transport" => {
                let t = lax::str_(v).map_err(at)?;
                let t = if t == "shttp" { "http".to_string() } else { t };
                if !["stdio", "http", "streamable-http", "sse"].contains(&t.as_str()) {
                    return Err(at("Input should be 'stdio', 'http', 'streamable-http' or 'sse'".into()));
                }
                json!(t)
            }
            "url" | "command" => {
                let s = lax::str_(v).map_err(at)?;
                if s.is_empty() {
                    return Err(at("String should have at least 1 character".into()));
                }
                json!(s)
            }
            "cwd" | "description" | "icon" => json!(lax::str_(v).map_err(at)?),
            "args" => json!(lax::str_list(v).map_err(at)?),
            "timeout" | "sse_read_timeout" => json!(lax::float(v).map_err(at)?),
            "keep_alive" => json!(lax::bool_(v).map_err(at)?),
            "enabled" => {
                enabled = lax::bool_(v).map_err(at)?;
                continue;
            }
            "env" | "headers" => secret_map(v).map_err(at)?,
            "auth" => match v {
                Value::Map(_) => v.to_json(),
                _ => return Err(at("Input should be a valid dictionary".into())),
            },
            _ => continue,
        };
        // The compact dump drops `None` and `{}` values.
        if value != json!({}) {
            out.insert(key.to_string(), value);
        }
    }
    out.insert("enabled".into(), json!(enabled));
    let has = |k: &str| out.get(k).is_some();
    match out.get("transport").and_then(Json::as_str) {
        Some("stdio") if !has("command") => return Err("Value error, stdio MCP servers require 'command'".into()),
        Some("http" | "streamable-http" | "sse") if !has("url") => {
            return Err("Value error, remote MCP servers require 'url'".into())
        }
        _ => {}
    }
    if has("auth") && out.get("headers").and_then(Json::as_object).is_some_and(|h| h.keys().any(|k| k.eq_ignore_ascii_case("authorization"))) {
        return Err("Value error, 'auth' cannot be combined with an explicit top-level 'Authorization' header".into());
    }
    Ok(Json::Object(out))
}

/// `dict[str, SecretStr]` with empty, blank and redacted values dropped.
fn secret_map(v: &Value) -> Result<Json, String> {
    let Value::Map(m) = v else { return Err("Input should be a valid dictionary".into()) };
    let mut out = JsonMap::new();
    for (k, v) in &m.entries {
        let key = lax::str_(&k.value)?;
        let secret = lax::str_(&v.value)?;
        if py::strip(&secret).is_empty() || secret == "**********" {
            continue;
        }
        out.insert(key, json!(secret));
    }
    Ok(Json::Object(out))
}

/// `_extract_condenser` for a mapping: only `{kind: NoOpCondenser}` is decided
/// without an LLM; other kinds are kept as written (agentry cannot validate them).
pub fn condenser_map(m: &Map) -> Result<Json, String> {
    match field(m, "kind") {
        Some(Value::Str(k)) if k == "NoOpCondenser" => Ok(json!({ "kind": "NoOpCondenser" })),
        Some(Value::Str(_)) => Ok(Value::Map(m.clone()).to_json()),
        _ => Err("condenser: a mapping needs a `kind`".into()),
    }
}
