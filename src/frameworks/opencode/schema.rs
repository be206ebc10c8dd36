//! One agent entry checked and normalised as OpenCode 1.18.33's `ConfigAgentV1.Info`
//! schema does (a struct with rest, then its transform): wrong types are errors
//! (fatal for OpenCode outside `mode/` folders); unknown keys are kept and copied into
//! `options`; `tools` is kept and turned into `permission`; `maxSteps` copied to
//! `steps`; a permission string means `{"*": value}`. Also the V2 `agents` entry
//! translation (`system` → `prompt`, …).

use serde_json::{Map, Value as Json};

const KNOWN: [&str; 16] = [
    "model", "variant", "temperature", "top_p", "prompt", "tools", "disable", "description", "mode", "hidden",
    "options", "color", "steps", "maxSteps", "permission", "name",
];

const THEME_COLORS: [&str; 7] = ["primary", "secondary", "accent", "success", "warning", "error", "info"];

fn kind(v: &Json) -> String {
    match v {
        Json::Array(_) => format!("{v}"),
        Json::Object(_) => "object".into(),
        other => other.to_string(),
    }
}

fn expected(what: &str, key: &str, v: &Json) -> String {
    format!("Expected {what} | undefined, got {} {key}", kind(v))
}

fn is_action(v: &Json) -> bool {
    matches!(v.as_str(), Some("ask" | "allow" | "deny"))
}

fn positive_int(v: &Json) -> bool {
    v.as_u64().is_some_and(|n| n > 0) || v.as_f64().is_some_and(|f| f > 0.0 && f.fract() == 0.0 && f.is_finite())
}

/// Whether `key` is one of the schema's own keys.
pub fn is_known(key: &str) -> bool {
    KNOWN.contains(&key)
}

/// The entry OpenCode keeps, or the first schema error (message, key).
pub fn normalise(entry: &Map<String, Json>) -> Result<Map<String, Json>, (String, String)> {
    let fail = |what: &str, key: &str, v: &Json| Err((expected(what, key, v), key.to_string()));
    for (key, v) in entry {
        let ok = match key.as_str() {
            "model" | "variant" | "prompt" | "description" => v.is_string(),
            "temperature" | "top_p" => v.as_f64().is_some_and(f64::is_finite),
            "disable" | "hidden" => v.is_boolean(),
            "mode" => matches!(v.as_str(), Some("primary" | "subagent" | "all")),
            "steps" | "maxSteps" => positive_int(v),
            "color" => v.as_str().is_some_and(|s| {
                THEME_COLORS.contains(&s)
                    || (s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit()))
            }),
            "options" => v.is_object(),
            "tools" => v.as_object().is_some_and(|m| m.values().all(Json::is_boolean)),
            "permission" => match v {
                Json::String(_) => is_action(v),
                Json::Object(m) => m.values().all(|p| {
                    is_action(p) || p.as_object().is_some_and(|pm| pm.values().all(is_action))
                }),
                _ => false,
            },
            _ => true,
        };
        if !ok {
            let what = match key.as_str() {
                "model" | "variant" | "prompt" | "description" => "string",
                "temperature" | "top_p" => "number",
                "disable" | "hidden" => "boolean",
                "mode" => "\"primary\" | \"subagent\" | \"all\"",
                "steps" | "maxSteps" => "a positive integer",
                "color" => "a hex color or a theme color",
                "options" | "tools" => "object",
                _ => "\"ask\" | \"allow\" | \"deny\" or a map of them",
            };
            return fail(what, key, v);
        }
    }
    let mut out = entry.clone();
    let mut options = entry.get("options").and_then(Json::as_object).cloned().unwrap_or_default();
    for (key, v) in entry {
        if !KNOWN.contains(&key.as_str()) {
            options.insert(key.clone(), v.clone());
        }
    }
    out.insert("options".into(), Json::Object(options));
    let mut permission = Map::new();
    if let Some(tools) = entry.get("tools").and_then(Json::as_object) {
        for (tool, enabled) in tools {
            let action = Json::from(if enabled.as_bool() == Some(true) { "allow" } else { "deny" });
            let key = if matches!(tool.as_str(), "write" | "edit" | "patch") { "edit" } else { tool };
            permission.insert(key.to_string(), action);
        }
    }
    match entry.get("permission") {
        Some(Json::String(s)) => {
            permission.insert("*".into(), Json::from(s.as_str()));
        }
        Some(Json::Object(m)) => permission.extend(m.clone()),
        _ => {}
    }
    out.insert("permission".into(), Json::Object(permission));
    if !out.contains_key("steps") {
        if let Some(m) = entry.get("maxSteps") {
            out.insert("steps".into(), m.clone());
        }
    }
    Ok(out)
}

/// A V2 `agents` entry as OpenCode 1.18.33 translates it into a V1 entry; `None` for
/// one the V2 schema rejects (OpenCode drops it with a log line only).
pub fn from_v2(entry: &Json) -> Option<Map<String, Json>> {
    let e = entry.as_object()?;
    let mut out = Map::new();
    for (key, v) in e {
        match key.as_str() {
            "system" => {
                v.as_str()?;
                out.insert("prompt".into(), v.clone());
            }
            "disabled" => {
                v.as_bool()?;
                out.insert("disable".into(), v.clone());
            }
            "model" => match v {
                Json::String(s) if model_id(s) => {
                    let (model, variant) = match s.split_once('#') {
                        Some((m, var)) => (m, Some(var)),
                        None => (s.as_str(), None),
                    };
                    out.insert("model".into(), Json::from(model));
                    if let Some(var) = variant {
                        out.insert("variant".into(), Json::from(var));
                    }
                }
                Json::Object(m) => {
                    let provider = m.get("providerID")?.as_str().filter(|p| one_part(p) && !p.contains('/'))?;
                    let model = m.get("model")?.as_str().filter(|m| one_part(m))?;
                    out.insert("model".into(), Json::from(format!("{provider}/{model}")));
                    if let Some(var) = m.get("variant") {
                        out.insert("variant".into(), Json::from(var.as_str().filter(|v| one_part(v))?));
                    }
                }
                _ => return None,
            },
            "request" => {
                let request = v.as_object()?;
                if let Some(headers) = request.get("headers") {
                    headers.as_object()?.values().all(Json::is_string).then_some(())?;
                }
                if let Some(body) = request.get("body") {
                    out.insert("options".into(), Json::Object(body.as_object()?.clone()));
                }
            }
            "description" => {
                v.as_str()?;
                out.insert(key.clone(), v.clone());
            }
            "color" => {
                let hex = v.as_str()?.strip_prefix('#')?;
                (hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then_some(())?;
                out.insert(key.clone(), v.clone());
            }
            "hidden" => {
                v.as_bool()?;
                out.insert(key.clone(), v.clone());
            }
            "mode" => {
                if !matches!(v.as_str(), Some("primary" | "subagent" | "all")) {
                    return None;
                }
                out.insert(key.clone(), v.clone());
            }
            "steps" => {
                if !positive_int(v) {
                    return None;
                }
                out.insert(key.clone(), v.clone());
            }
            _ => {}
        }
    }
    Some(out)
}

/// The V2 model id, `^[^/#]+\/[^#]+(?:#[^#]+)?$`: `provider/model`, then maybe
/// `#variant`.
fn model_id(s: &str) -> bool {
    let (id, variant) = s.split_once('#').map_or((s, None), |(id, v)| (id, Some(v)));
    variant.is_none_or(one_part) && id.split_once('/').is_some_and(|(p, m)| !p.is_empty() && !m.is_empty())
}

/// `^[^#]+$`.
fn one_part(s: &str) -> bool {
    !s.is_empty() && !s.contains('#')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Json) -> Map<String, Json> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn unknown_keys_copied_tools_converted_steps_filled() {
        let n = normalise(&obj(json!({"x": 1, "options": {"x": 0, "a": 2}, "tools": {"write": false, "bash": true},
            "permission": {"bash": "ask"}, "maxSteps": 3}))).unwrap();
        assert_eq!(n["options"], json!({"x": 1, "a": 2}));
        assert_eq!(n["x"], json!(1));
        assert_eq!(n["permission"], json!({"edit": "deny", "bash": "ask"}));
        assert_eq!(n["steps"], json!(3));
        assert_eq!(normalise(&obj(json!({"permission": "deny"}))).unwrap()["permission"], json!({"*": "deny"}));
    }

    #[test]
    fn wrong_types_are_errors() {
        for bad in [json!({"temperature": "hot"}), json!({"tools": ["read"]}), json!({"steps": 0}),
            json!({"steps": 2.5}), json!({"color": "red"}), json!({"disable": "yes"}), json!({"mode": "x"}),
            json!({"description": 42})] {
            assert!(normalise(&obj(bad.clone())).is_err(), "{bad}");
        }
        assert!(normalise(&obj(json!({"color": "#a0B1c2", "steps": 4}))).is_ok());
    }
}
