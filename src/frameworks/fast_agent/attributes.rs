//! The attributes with structure of their own: `mcp_connect` targets, `function_tools`
//! entries, the `a2a` remote-agent settings, and the RFC's inline `servers` entries.

use serde_json::{json, Map as JsonMap, Value as Json};

use super::raw::{str_to_none, Failure};
use super::values::Checker;
use crate::py;
use crate::yaml::Value;

/// The RFC's `servers`: names, or one-key mappings `name: {tools: [...], transport, url, ...}`
/// whose `tools` become that server's tool filter. Returns the names and the filters.
pub(super) fn rfc_servers(c: &Checker) -> Result<(Vec<String>, JsonMap<String, Json>), Failure> {
    let items = match c.raw.value("servers") {
        None | Some(Value::Null) => return Ok((Vec::new(), JsonMap::new())),
        Some(Value::Seq(items)) => items,
        Some(_) => return Err(c.err("servers", "must be a list")),
    };
    let mut names = Vec::new();
    let mut tools = JsonMap::new();
    for item in items {
        match &item.value {
            Value::Str(s) if str_to_none(&item.value).is_some() => names.push(s.clone()),
            Value::Map(m) if m.entries.len() == 1 => {
                let (k, v) = &m.entries[0];
                let Some(name) = str_to_none(&k.value) else { return Err(c.err("servers", "entries must be named")) };
                names.push(name.to_string());
                if let Value::Map(settings) = &v.value {
                    if let Some((_, t)) = settings.entries.iter().find(|(k, _)| k.value == Value::Str("tools".into())) {
                        tools.insert(name.to_string(), t.value.to_json_python());
                    }
                }
            }
            _ => return Err(c.err("servers", "entries must be server names or `name: {settings}` mappings")),
        }
    }
    Ok((names, tools))
}

pub(super) fn a2a(c: &Checker) -> Result<Json, Failure> {
    let raw = c.raw;
    let transport = match raw.value("transport") {
        None | Some(Value::Null) => Json::Null,
        Some(_) => {
            let t = c.string("transport", None)?;
            if t != "JSONRPC" && t != "HTTP+JSON" {
                return Err(c.err("transport", "must be one of JSONRPC, HTTP+JSON"));
            }
            json!(t)
        }
    };
    let auth = match raw.value("auth") {
        None | Some(Value::Null) => Json::Null,
        Some(Value::Map(m)) => a2a_auth(m).map_err(|why| c.err("auth", &why))?,
        Some(_) => return Err(c.err("auth", "must be a mapping")),
    };
    let url = c.string("url", None)?;
    let streaming = c.boolean("streaming", true)?;
    let polling = c.boolean("polling", false)?;
    let modes = c.str_list("accepted_output_modes")?;
    let headers = match raw.value("headers") {
        None | Some(Value::Null) => JsonMap::new(),
        Some(Value::Map(m)) => {
            let mut out = JsonMap::new();
            for (k, v) in &m.entries {
                let Some(_) = str_to_none(&k.value) else { return Err(c.err("headers", "keys must be non-empty strings")) };
                let Value::Str(s) = &v.value else { return Err(c.err("headers", "values must be strings")) };
                out.insert(py::str_of(&k.value), json!(s));
            }
            out
        }
        Some(_) => return Err(c.err("headers", "must be a mapping")),
    };
    let relative_card_path = c.optional_str("relative_card_path")?;
    let timeout = match raw.value("request_timeout_seconds") {
        None | Some(Value::Null) => json!(120.0),
        Some(v) => c.float("request_timeout_seconds", v)?,
    };
    Ok(json!({
        "url": url,
        "transport": transport,
        "streaming": streaming,
        "polling": polling,
        "accepted_output_modes": modes,
        "headers": headers,
        "auth": auth,
        "relative_card_path": relative_card_path,
        "request_timeout_seconds": timeout,
    }))
}

/// `_ensure_function_tools` rendered by `serialize_function_tools`: a string is one
/// entry; list entries are strings or `{entrypoint, variant, code_arg, language}`.
pub(super) fn function_tools(c: &Checker) -> Result<Json, Failure> {
    let entries: Vec<&Value> = match c.raw.value("function_tools") {
        None | Some(Value::Null) => return Ok(Json::Null),
        Some(v @ Value::Str(_)) => vec![v],
        Some(Value::Seq(items)) => items.iter().map(|n| &n.value).collect(),
        Some(_) => return Err(c.err("function_tools", "must be a string or list")),
    };
    let single = matches!(c.raw.value("function_tools"), Some(Value::Str(_)));
    let mut out = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        match entry {
            Value::Str(s) => {
                match py::strip(s) {
                    "" if !single => return Err(c.err("function_tools", &format!("entry {i} must be a non-empty string"))),
                    "" => {}
                    t => out.push(json!(t)),
                }
            }
            Value::Map(m) => {
                let mut spec = JsonMap::new();
                for (k, v) in &m.entries {
                    let key = py::str_of(&k.value);
                    if !matches!(key.as_str(), "entrypoint" | "variant" | "code_arg" | "language") {
                        return Err(c.err("function_tools", &format!("entry {i} has the unsupported key {key}")));
                    }
                    match &v.value {
                        Value::Null => {}
                        Value::Str(s) => {
                            spec.insert(key, json!(if k.value == Value::Str("entrypoint".into()) { py::strip(s) } else { s }));
                        }
                        _ => return Err(c.err("function_tools", &format!("entry {i}: '{key}' must be a string"))),
                    }
                }
                if spec.get("entrypoint").and_then(Json::as_str).is_none_or(str::is_empty) {
                    return Err(c.err("function_tools", &format!("entry {i}: 'entrypoint' must be a non-empty string")));
                }
                if let Some(variant) = spec.get("variant").and_then(Json::as_str) {
                    if variant != "code" {
                        return Err(c.err("function_tools", &format!("entry {i}: 'variant' must be one of: code")));
                    }
                    spec.entry("code_arg").or_insert(json!("code"));
                    spec.entry("language").or_insert(json!("python"));
                }
                spec.retain(|_, v| v.as_str().is_some_and(|s| !s.is_empty()));
                out.push(Json::Object(spec));
            }
            _ => return Err(c.err("function_tools", &format!("entry {i} must be a string or an object"))),
        }
    }
    Ok(if out.is_empty() { Json::Null } else { Json::Array(out) })
}

/// `parse_mcp_connect_entries`: a list of target mappings, or a mapping name → target;
/// rendered by `_serialize_mcp_connect_targets` (only the keys that are set; the
/// mapping form keyed by name).
pub(super) fn mcp_connect(c: &Checker) -> Result<Json, Failure> {
    let bad = |what: String| Failure::validation(format!("Invalid 'mcp_connect': {what}"), c.line("mcp_connect"));
    // (field path, name from the mapping key, the entry), and whether the mapping form was used
    type Entries<'v> = Vec<(String, Option<String>, &'v Value)>;
    let (entries, mapping): (Entries, bool) = match c.raw.value("mcp_connect") {
        None | Some(Value::Null) => return Ok(json!([])),
        Some(Value::Seq(items)) => (items.iter().enumerate().map(|(i, n)| (format!("mcp_connect[{i}]"), None, &n.value)).collect(), false),
        Some(Value::Map(m)) => {
            let mut out = Vec::new();
            for (k, v) in &m.entries {
                let Some(name) = str_to_none(&k.value) else { return Err(bad("'mcp_connect' keys must be non-empty strings".into())) };
                out.push((format!("mcp_connect.{name}"), Some(name.to_string()), &v.value));
            }
            (out, true)
        }
        Some(_) => return Err(bad("'mcp_connect' must be a mapping or list".into())),
    };
    let mut rendered: Vec<(Option<String>, JsonMap<String, Json>)> = Vec::new();
    for (path, implicit, raw) in entries {
        let Value::Map(m) = raw else { return Err(bad(format!("'{path}' must be a mapping"))) };
        rendered.push(mcp_connect_entry(&path, implicit, m).map_err(bad)?);
    }
    if !mapping {
        return Ok(Json::Array(rendered.into_iter().map(|(_, e)| Json::Object(e)).collect()));
    }
    let mut out = JsonMap::new();
    for (name, mut e) in rendered {
        e.remove("name");
        if let Some(name) = name {
            if out.insert(name, Json::Object(e)).is_some() {
                return Err(bad("'mcp_connect' mapping keys must be unique after trimming".into()));
            }
        }
    }
    Ok(Json::Object(out))
}

/// One `mcp_connect` target (`_parse_entry`): its name and its rendered fields.
fn mcp_connect_entry(path: &str, implicit: Option<String>, m: &crate::yaml::Map) -> Result<(Option<String>, JsonMap<String, Json>), String> {
    const KEYS: &[&str] = &[
        "target", "name", "description", "management", "connector_id", "headers", "access_token", "defer_loading",
        "auth", "protocol_mode",
    ];
    let get = |k: &str| m.entries.iter().rev().find(|(key, _)| key.value == Value::Str(k.into())).map(|(_, v)| &v.value).filter(|v| !matches!(v, Value::Null));
    let mut unknown: Vec<String> = m.entries.iter().map(|(k, _)| py::str_of(&k.value)).filter(|k| !KEYS.contains(&k.as_str())).collect();
    if !unknown.is_empty() {
        unknown.sort();
        return Err(format!("'{path}' has unsupported keys: {}", unknown.join(", ")));
    }
    let non_empty = |k: &str| -> Result<Option<String>, String> {
        match get(k) {
            None => Ok(None),
            Some(v) => str_to_none(v).map(|s| Some(s.to_string())).ok_or(format!("'{path}.{k}' must be a non-empty string")),
        }
    };
    let string = |k: &str| -> Result<Option<String>, String> {
        match get(k) {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("'{path}.{k}' must be a string")),
        }
    };
    let target = non_empty("target")?;
    let explicit = non_empty("name")?;
    let connector_id = non_empty("connector_id")?;
    if let (Some(i), Some(e)) = (&implicit, &explicit) {
        if i != e {
            return Err(format!("'{path}.name' must match mapping key '{i}' when provided"));
        }
    }
    let name = implicit.or(explicit);
    match (&target, &connector_id) {
        (None, None) => return Err(format!("'{path}.target' must be a non-empty string unless connector_id is set")),
        (Some(_), Some(_)) => return Err(format!("'{path}' must set exactly one of 'target' or 'connector_id'")),
        _ => {}
    }
    if connector_id.is_some() && name.is_none() {
        return Err(format!("'{path}.name' must be a non-empty string when connector_id is set"));
    }
    let mut out = JsonMap::new();
    if let Some(t) = target {
        out.insert("target".into(), json!(t));
    }
    if let Some(n) = &name {
        out.insert("name".into(), json!(n));
    }
    if let Some(d) = string("description")?.filter(|d| !d.is_empty()) {
        out.insert("description".into(), json!(d));
    }
    if let Some(v) = get("management") {
        match str_to_none(v) {
            Some(mode @ ("client" | "provider")) => {
                out.insert("management".into(), json!(mode));
            }
            _ => return Err(format!("'{path}.management' must be one of client, provider")),
        }
    }
    if let Some(id) = connector_id {
        out.insert("connector_id".into(), json!(id));
    }
    if let Some(v) = get("headers") {
        let Value::Map(h) = v else { return Err(format!("'{path}.headers' must be a mapping")) };
        let mut headers = JsonMap::new();
        for (k, v) in &h.entries {
            let Some(_) = str_to_none(&k.value) else { return Err(format!("'{path}.headers' keys must be non-empty strings")) };
            let Value::Str(s) = &v.value else { return Err(format!("'{path}.headers' values must be strings")) };
            headers.insert(py::str_of(&k.value), json!(s));
        }
        out.insert("headers".into(), Json::Object(headers));
    }
    if let Some(t) = string("access_token")? {
        out.insert("access_token".into(), json!(t));
    }
    if let Some(v) = get("defer_loading") {
        let Value::Bool(b) = v else { return Err(format!("'{path}.defer_loading' must be a boolean")) };
        out.insert("defer_loading".into(), json!(b));
    }
    if let Some(v) = get("auth") {
        if !matches!(v, Value::Map(_)) {
            return Err(format!("'{path}.auth' must be a mapping"));
        }
        out.insert("auth".into(), v.to_json_python());
    }
    if let Some(v) = get("protocol_mode") {
        match v {
            Value::Str(mode) if ["auto", "modern", "legacy"].contains(&mode.as_str()) => {
                out.insert("protocol_mode".into(), json!(mode));
            }
            _ => return Err(format!("'{path}.protocol_mode' must be one of auto, modern, legacy")),
        }
    }
    Ok((name, out))
}

/// `MCPServerAuthSettings.model_validate(auth)` (pydantic, lax; extra keys kept) as
/// `model_dump(exclude_none=True)` writes it: the defaults `oauth: true`,
/// `redirect_port: 3030`, `redirect_path: /callback`, `persist: keyring` filled in.
fn a2a_auth(map: &crate::yaml::Map) -> Result<Json, String> {
    let mut out = JsonMap::new();
    out.insert("oauth".into(), json!(true));
    out.insert("redirect_port".into(), json!(3030));
    out.insert("redirect_path".into(), json!("/callback"));
    out.insert("persist".into(), json!("keyring"));
    for (k, v) in &map.entries {
        let key = py::str_of(&k.value);
        let value = &v.value;
        let rendered = match key.as_str() {
            "oauth" => match value {
                Value::Bool(b) => json!(b),
                Value::Int(0) => json!(false),
                Value::Int(1) => json!(true),
                Value::Str(s) => match s.to_ascii_lowercase().as_str() {
                    "0" | "off" | "f" | "false" | "n" | "no" => json!(false),
                    "1" | "on" | "t" | "true" | "y" | "yes" => json!(true),
                    _ => return Err("oauth must be a boolean".into()),
                },
                _ => return Err("oauth must be a boolean".into()),
            },
            "redirect_port" => match value {
                Value::Int(i) => json!(i),
                Value::Float(f) if f.is_finite() && f.fract() == 0.0 => json!(*f as i64),
                Value::Str(s) if s.trim().parse::<i64>().is_ok() => json!(s.trim().parse::<i64>().unwrap_or_default()),
                _ => return Err("redirect_port must be an integer".into()),
            },
            "redirect_path" => match value {
                Value::Str(s) => json!(s),
                _ => return Err("redirect_path must be a string".into()),
            },
            "persist" => match value {
                Value::Str(s) if s == "keyring" || s == "memory" => json!(s),
                _ => return Err("persist must be keyring or memory".into()),
            },
            "forward" => match value {
                Value::Null => Json::Null,
                Value::Str(s) if s == "huggingface" => json!(s),
                _ => return Err("forward must be huggingface".into()),
            },
            "scope" => match value {
                Value::Null => Json::Null,
                Value::Str(s) => json!(s),
                Value::Seq(items) if items.iter().all(|i| matches!(i.value, Value::Str(_))) => v.value.to_json_python(),
                _ => return Err("scope must be a string or a list of strings".into()),
            },
            "client_metadata_url" => match value {
                Value::Null => Json::Null,
                Value::Str(s) => {
                    let Some(rest) = s.strip_prefix("https://") else { return Err("client_metadata_url must use HTTPS scheme".into()) };
                    let path = rest.find(['/', '?', '#']).map(|i| &rest[i..]).unwrap_or("");
                    let path = path.split(['?', '#']).next().unwrap_or("");
                    if path.is_empty() || path == "/" {
                        return Err("client_metadata_url must have a non-root pathname".into());
                    }
                    json!(s)
                }
                _ => return Err("client_metadata_url must be a string".into()),
            },
            _ => v.value.to_json_python(),
        };
        if rendered.is_null() {
            out.remove(&key);
        } else {
            out.insert(key, rendered);
        }
    }
    Ok(Json::Object(out))
}
