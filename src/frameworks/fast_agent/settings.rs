//! The part of fast-agent's `Settings` model (`fast_agent.config.Settings`, pydantic,
//! lax mode) that decides whether the settings file loads at all: when
//! `get_settings_or_exit` fails, `fast-agent go` exits before reading any card.
//! Checked: the top-level fields' types, `mcp` (`_migrate_legacy_mcp_settings`,
//! `MCPSettings._normalize_server_targets`, the forbidding `defaults`/`client`/
//! `diagnostics` sections), `logger` (`LoggerSettings`), `model_references`,
//! `environments`/`default_environment`. Provider sections are checked only for being
//! mappings; fields not listed here are taken as fast-agent would accept them.

use crate::yaml::{Map, Node, Value};

/// Why the settings do not load, and the line of the offending key.
pub struct Refusal {
    pub message: String,
    pub line: u32,
}

type Check = Result<(), String>;

fn is_str(v: &Value) -> bool {
    matches!(v, Value::Str(_))
}

fn opt_str(v: &Value) -> Check {
    if matches!(v, Value::Null) || is_str(v) { Ok(()) } else { Err("must be a string".into()) }
}

fn string(v: &Value) -> Check {
    if is_str(v) { Ok(()) } else { Err("must be a string".into()) }
}

/// pydantic's lax `bool`: booleans, the integers 0 and 1, and its words for true/false.
fn boolean(v: &Value) -> Check {
    let ok = match v {
        Value::Bool(_) => true,
        Value::Int(i) => *i == 0 || *i == 1,
        Value::Float(f) => *f == 0.0 || *f == 1.0,
        Value::Str(s) => matches!(
            s.to_ascii_lowercase().as_str(),
            "0" | "off" | "f" | "false" | "n" | "no" | "1" | "on" | "t" | "true" | "y" | "yes"
        ),
        _ => false,
    };
    if ok { Ok(()) } else { Err("must be a boolean".into()) }
}

/// pydantic's lax `int` (`allow_bool`: whether a boolean passes, as it does unless a
/// field validator rejects it).
fn integer(v: &Value, allow_bool: bool) -> Check {
    let ok = match v {
        Value::Int(_) | Value::BigInt(_) => true,
        Value::Bool(_) => allow_bool,
        Value::Float(f) => f.is_finite() && f.fract() == 0.0,
        Value::Str(s) => s.trim().parse::<i64>().is_ok(),
        _ => false,
    };
    if ok { Ok(()) } else { Err("must be an integer".into()) }
}

/// pydantic's lax `float` without booleans (the logger's validators reject them).
fn number(v: &Value) -> Check {
    let ok = match v {
        Value::Int(_) | Value::BigInt(_) | Value::Float(_) => true,
        Value::Str(s) => s.trim().parse::<f64>().is_ok(),
        _ => false,
    };
    if ok { Ok(()) } else { Err("must be a number".into()) }
}

fn literal(v: &Value, allowed: &[&str]) -> Check {
    match v {
        Value::Str(s) if allowed.contains(&s.as_str()) => Ok(()),
        _ => Err(format!("must be one of {}", allowed.join(", "))),
    }
}

fn mapping(v: &Value) -> Check {
    if matches!(v, Value::Map(_)) { Ok(()) } else { Err("must be a mapping".into()) }
}

fn opt_mapping(v: &Value) -> Check {
    if matches!(v, Value::Null) { Ok(()) } else { mapping(v) }
}

fn str_key<'a>(k: &'a Node) -> Option<&'a str> {
    match &k.value {
        Value::Str(s) => Some(s),
        _ => None,
    }
}

/// Checks each field of `map` found in `fields`; `forbid` refuses any other key.
fn fields(map: &Map, path: &str, forbid: bool, check: &dyn Fn(&str, &Node) -> Option<Check>) -> Result<(), Refusal> {
    for (k, v) in map.iter() {
        let name = str_key(k).map(str::to_string).unwrap_or_else(|| crate::py::str_of(&k.value));
        let result = match check(&name, v) {
            Some(result) => result,
            None if forbid => Err("is not a known field (extra fields are forbidden here)".into()),
            None => Ok(()),
        };
        if let Err(why) = result {
            // A nested section's refusal already names its full path.
            let message = if why.starts_with('`') { why } else { format!("`{path}{name}` {why}") };
            return Err(Refusal { message, line: k.span.line });
        }
    }
    Ok(())
}

fn logger(name: &str, v: &Node) -> Option<Check> {
    let v = &v.value;
    Some(match name {
        "type" => literal(v, &["none", "console", "file", "http"]),
        "level" => literal(v, &["debug", "info", "warning", "error"]),
        "progress_display" | "show_chat" | "stream_reprint_banner" | "show_tools" | "truncate_tools" | "enable_markup"
        | "enable_prompt_marks" | "render_fences_with_syntax" | "code_word_wrap" => boolean(v),
        "path" | "code_theme" => string(v),
        "batch_size" | "max_queue_size" => integer(v, false),
        "flush_interval" | "http_timeout" => number(v),
        "http_endpoint" | "theme_file" => opt_str(v),
        _ => return None,
    })
}

fn mcp(map: &Map) -> Result<(), Refusal> {
    if let Some(k) = map.get_key("targets") {
        return Err(Refusal {
            message: "`mcp.targets` is no longer supported (fast-agent asks to migrate it to `mcp.servers`)".into(),
            line: k.span.line,
        });
    }
    fields(map, "mcp.", false, &|name, v| {
        let nested = |v: &Node, path: &str, check: &dyn Fn(&str, &Node) -> Option<Check>| -> Check {
            match &v.value {
                Value::Map(m) => fields(m, path, true, check).map_err(|r| r.message),
                _ => Err("must be a mapping".into()),
            }
        };
        Some(match name {
            "servers" => match &v.value {
                Value::Null => Ok(()),
                Value::Map(servers) => servers.iter().try_for_each(|(_, s)| mapping(&s.value).map_err(|_| "entries must be mappings".to_string())),
                _ => Err("must be a mapping of server names to settings".into()),
            },
            "defaults" => nested(v, "mcp.defaults.", &|n, v| {
                Some(match n {
                    "protocol_mode" => literal(&v.value, &["auto", "modern", "legacy"]),
                    "reconnect_on_disconnect" | "include_instructions" => boolean(&v.value),
                    _ => return None,
                })
            }),
            "client" => nested(v, "mcp.client.", &|n, v| if n == "auto_sampling" { Some(boolean(&v.value)) } else { None }),
            "diagnostics" => nested(v, "mcp.diagnostics.", &|n, v| {
                Some(match n {
                    "enabled" => boolean(&v.value),
                    "timeline" => mapping(&v.value),
                    _ => return None,
                })
            }),
            _ => return None,
        })
    })
}

fn valid_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn model_references(v: &Value) -> Check {
    let Value::Map(namespaces) = v else { return Err("must be a mapping".into()) };
    for (ns, entries) in namespaces.iter() {
        let Value::Map(entries) = &entries.value else { return Err("values must be mappings".into()) };
        if !str_key(ns).is_some_and(valid_name) {
            return Err("namespace names must match [A-Za-z_][A-Za-z0-9_-]*".into());
        }
        for (key, model) in entries.iter() {
            if !str_key(key).is_some_and(valid_name) {
                return Err("keys must match [A-Za-z_][A-Za-z0-9_-]*".into());
            }
            match &model.value {
                Value::Str(s) if !s.trim().is_empty() => {}
                Value::Str(_) => return Err("entries must be non-empty model strings".into()),
                _ => return Err("entries must be strings".into()),
            }
        }
    }
    Ok(())
}

/// Whether `Settings(**mapping)` succeeds; `Err` says why not. A document that is not a
/// mapping is read as empty (`load_yaml_mapping`), so it loads.
pub fn refusal(doc: &Value) -> Result<(), Refusal> {
    let Value::Map(map) = doc else { return Ok(()) };
    for removed in ["mcp_ui_mode", "mcp_ui_output_dir"] {
        if let Some(k) = map.get_key(removed) {
            return Err(Refusal { message: format!("`{removed}` was removed in fast-agent 0.10"), line: k.span.line });
        }
    }
    if let Some(Value::Map(m)) = map.get("mcp").map(|n| &n.value) {
        mcp(m)?;
        for (legacy, section, key) in [("auto_sampling", "client", "auto_sampling"), ("mcp_timeline", "diagnostics", "timeline")] {
            let canonical = m.get(section).and_then(|s| s.get(key)).is_some();
            if let (Some(k), true) = (map.get_key(legacy), canonical) {
                return Err(Refusal {
                    message: format!("`{legacy}` and `mcp.{section}.{key}` cannot both be set"),
                    line: k.span.line,
                });
            }
        }
    }
    let environments: Vec<String> = match map.get("environments").map(|n| &n.value) {
        Some(Value::Map(envs)) => envs.iter().filter_map(|(k, _)| str_key(k).map(str::to_string)).collect(),
        _ => Vec::new(),
    };
    fields(map, "", false, &|name, v| {
        let value = &v.value;
        Some(match name {
            "execution_engine" => literal(value, &["asyncio"]),
            "home" | "default_model" | "model_source" | "cli_model_override" => opt_str(value),
            "default_environment" => string(value).and_then(|_| match value {
                Value::Str(s) if s != "local" && !environments.contains(s) => {
                    Err(format!("names `{s}`, which is not configured in `environments`"))
                }
                _ => Ok(()),
            }),
            "session_history" | "git_aware" => boolean(value),
            "session_history_window" | "llm_retries" => integer(value, true),
            "logger" => match value {
                Value::Map(m) => fields(m, "logger.", false, &logger).map_err(|r| r.message),
                _ => mapping(value),
            },
            "harness_app" | "compaction" | "copilot" | "skills" | "cards" | "plugins" | "tui" | "shell_execution" | "ptc" => {
                mapping(value)
            }
            "otel" | "bedrock" => opt_mapping(value),
            // The LLM provider sections: `api_key` and `base_url` are `str | None` in each.
            "anthropic" | "openai" | "responses" | "openresponses" | "codexresponses" | "deepseek" | "zai" | "moonshot"
            | "google" | "xai" | "metaai" | "openrouter" | "generic" | "tensorzero" | "azure" | "aliyun" | "hf" | "groq" => {
                match value {
                    Value::Map(m) => {
                        let prefix = format!("{name}.");
                        fields(m, &prefix, false, &|key, v| matches!(key, "api_key" | "base_url").then(|| opt_str(&v.value)))
                            .map_err(|r| r.message)
                    }
                    _ => opt_mapping(value),
                }
            }
            "model_references" => model_references(value),
            "environments" => match value {
                Value::Map(envs) => envs.iter().try_for_each(|(k, _)| match str_key(k) {
                    Some(n) if n.starts_with('_') => Err("names starting with '_' are reserved".to_string()),
                    Some(n) if n.trim().is_empty() => Err("names must be non-empty".to_string()),
                    _ => Ok(()),
                }),
                _ => Err("must be a mapping".into()),
            },
            _ => return None,
        })
    })
}
