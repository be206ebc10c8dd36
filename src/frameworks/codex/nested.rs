//! Values inside Codex 0.171.0's `ConfigToml` that serde checks below the top level,
//! as a role file meets them (`approval_policy`'s `AskForApproval`, each
//! `[mcp_servers.NAME]`'s `McpServerConfig`, and the sections 0.171.0 added:
//! `rollout_trace`, `responses`, `code_mode`). Observed with the released binary:
//! a failure here drops the role file ("failed to deserialize agent role file");
//! unknown keys inside a section are ignored.

use toml_codex::Value;

use super::toml_read::invalid_type;

const GRANULAR_REQUIRED: &[&str] = &["sandbox_approval", "rules", "mcp_elicitations"];
const APPROVAL_POLICIES: &[&str] = &["untrusted", "on-failure", "on-request", "never"];

/// serde's complaint about an `approval_policy` value, if any. The `granular` form
/// is a table that needs three flags (its optional fields are taken as written).
pub fn approval_policy_error(value: &Value) -> Option<String> {
    const VARIANTS: &str = "`untrusted`, `on-failure`, `on-request`, `granular`, `never`";
    match value {
        Value::String(s) if APPROVAL_POLICIES.contains(&s.as_str()) => None,
        Value::String(s) if s == "granular" => Some("invalid type: unit variant, expected newtype variant".into()),
        Value::String(s) => Some(format!("unknown variant `{s}`, expected one of {VARIANTS}")),
        Value::Table(t) => match t.iter().next() {
            Some((k, Value::Table(g))) if k == "granular" && t.len() == 1 => GRANULAR_REQUIRED
                .iter()
                .find(|f| !g.contains_key(**f))
                .map(|f| format!("missing field `{f}`"))
                .or_else(|| g.iter().find(|(f, v)| GRANULAR_REQUIRED.contains(&f.as_str()) && !v.is_bool()).map(|(_, v)| invalid_type(v, "a boolean"))),
            Some((k, v)) if k == "granular" && t.len() == 1 => Some(invalid_type(v, "struct GranularApprovalConfig")),
            Some((k, _)) if t.len() == 1 => Some(format!("unknown variant `{k}`, expected one of {VARIANTS}")),
            _ => Some("invalid type: map, expected string or map".into()),
        },
        v => Some(invalid_type(v, "string or map")),
    }
}

/// serde's complaint about the servers of `mcp_servers`, if any, with the server's
/// name: each must be a table naming a transport (`command` or `url`), with the
/// fields Codex types.
pub fn mcp_servers_error(servers: &toml_codex::Table) -> Option<(String, String)> {
    servers.iter().find_map(|(name, server)| server_error(server).map(|m| (name.clone(), m)))
}

fn server_error(server: &Value) -> Option<String> {
    let Value::Table(fields) = server else { return Some(invalid_type(server, "struct McpServerConfig")) };
    for (key, value) in fields {
        let problem = match key.as_str() {
            "command" | "url" | "cwd" | "bearer_token_env_var" => (!value.is_str()).then(|| invalid_type(value, "a string")),
            "enabled" | "required" => (!value.is_bool()).then(|| invalid_type(value, "a boolean")),
            "args" | "enabled_tools" | "disabled_tools" => string_list_error(value),
            "env_vars" => match value {
                Value::Array(items) => items.iter().any(|v| !v.is_str() && !v.is_table())
                    .then(|| "data did not match any variant of untagged enum McpServerEnvVar".to_string()),
                v => Some(invalid_type(v, "a sequence")),
            },
            "startup_timeout_sec" | "tool_timeout_sec" => {
                (!value.is_float() && !value.is_integer()).then(|| invalid_type(value, "f64"))
            }
            "env" | "http_headers" | "env_http_headers" => match value {
                Value::Table(t) => t.values().find(|v| !v.is_str()).map(|v| invalid_type(v, "a string")),
                v => Some(invalid_type(v, "a map")),
            },
            _ => None,
        };
        if problem.is_some() {
            return problem;
        }
    }
    // The transport decides which other fields are allowed.
    let (transport, refused): (&str, &[&str]) = if fields.contains_key("command") {
        ("stdio", &["url", "bearer_token_env_var", "http_headers", "env_http_headers"])
    } else if fields.contains_key("url") {
        ("streamable_http", &["args", "env", "env_vars", "cwd"])
    } else {
        return Some("invalid transport".to_string());
    };
    refused.iter().find(|k| fields.contains_key(**k)).map(|k| format!("{k} is not supported for {transport}"))
}

fn string_list_error(value: &Value) -> Option<String> {
    match value {
        Value::Array(items) => items.iter().find(|v| !v.is_str()).map(|v| invalid_type(v, "a string")),
        v => Some(invalid_type(v, "a sequence")),
    }
}

/// serde's complaint about a field of a section table Codex 0.171.0 types (observed
/// with the oracle: `rollout_trace.max_payload_bytes` is a `usize` and
/// `rollout_trace.max_bytes` a `u64`, `responses.process_mode` one of two words,
/// `code_mode.heartbeat_interval_s` a `u32`, `goals.max_goal_token_budget` a
/// non-zero `u64`); other keys of these sections are ignored.
pub fn section_error(section: &str, fields: &toml_codex::Table) -> Option<String> {
    fields.iter().find_map(|(key, value)| match (section, key.as_str()) {
        ("rollout_trace", "max_payload_bytes") => unsigned_error(value, "usize", 0, u64::MAX),
        ("rollout_trace", "max_bytes") => unsigned_error(value, "u64", 0, u64::MAX),
        ("code_mode", "heartbeat_interval_s") => unsigned_error(value, "u32", 0, u64::from(u32::MAX)),
        ("goals", "max_goal_token_budget") => unsigned_error(value, "a nonzero u64", 1, u64::MAX),
        ("responses", "process_mode") => process_mode_error(value),
        _ => None,
    })
}

/// An integer in `min..=max`, as serde words a miss for the unsigned type `ty`.
fn unsigned_error(value: &Value, ty: &str, min: u64, max: u64) -> Option<String> {
    match value {
        Value::Integer(i) if u64::try_from(*i).is_ok_and(|u| (min..=max).contains(&u)) => None,
        Value::Integer(i) => Some(format!("invalid value: integer `{i}`, expected {ty}")),
        other => Some(invalid_type(other, ty)),
    }
}

/// `ResponseProcessMode`: `streaming` or `after_complete_response`.
fn process_mode_error(value: &Value) -> Option<String> {
    const VARIANTS: &[&str] = &["streaming", "after_complete_response"];
    match value {
        Value::String(s) if VARIANTS.contains(&s.as_str()) => None,
        Value::String(s) => Some(format!("unknown variant `{s}`, expected `streaming` or `after_complete_response`")),
        Value::Table(t) if t.len() != 1 => Some("invalid value: map, expected map with a single key".into()),
        Value::Table(t) => t.keys().next().map(|k| match VARIANTS.contains(&k.as_str()) {
            true => "invalid type: newtype variant, expected unit variant".to_string(),
            false => format!("unknown variant `{k}`, expected `streaming` or `after_complete_response`"),
        }),
        other => Some(invalid_type(other, "string or map")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mcp_error(servers: &toml_codex::Table) -> Option<String> {
        mcp_servers_error(servers).map(|(_, m)| m)
    }

    fn table(text: &str) -> toml_codex::Table {
        toml_codex::from_str(text).unwrap()
    }

    #[test]
    fn approval_policy_takes_the_four_words_and_a_granular_table() {
        let t = table("a = \"never\"\nb = \"granular\"\nc = \"x\"\nd = 5\ne = { granular = {} }\nf = { other = 1 }");
        assert_eq!(approval_policy_error(&t["a"]), None);
        assert!(approval_policy_error(&t["b"]).unwrap().contains("newtype variant"));
        assert!(approval_policy_error(&t["c"]).unwrap().starts_with("unknown variant `x`"));
        assert_eq!(approval_policy_error(&t["d"]).unwrap(), "invalid type: integer `5`, expected string or map");
        assert_eq!(approval_policy_error(&t["e"]).unwrap(), "missing field `sandbox_approval`");
        let g = table("g = { granular = { sandbox_approval = true, rules = true, mcp_elicitations = false } }");
        assert_eq!(approval_policy_error(&g["g"]), None);
        assert!(approval_policy_error(&t["f"]).unwrap().starts_with("unknown variant `other`"));
    }

    #[test]
    fn a_server_needs_a_transport_and_typed_fields() {
        assert_eq!(mcp_error(&table("[s]\ncommand = \"x\"\nunknown = 1")), None);
        assert_eq!(mcp_error(&table("[s]\nurl = \"http://x\"")), None);
        assert_eq!(mcp_error(&table("[s]\nx = 1")).unwrap(), "invalid transport");
        assert_eq!(mcp_error(&table("[s]\ncommand = 5")).unwrap(), "invalid type: integer `5`, expected a string");
        assert!(mcp_error(&table("[s]\ncommand = \"x\"\nargs = \"a\"")).unwrap().ends_with("expected a sequence"));
        assert!(mcp_error(&table("[s]\ncommand = \"x\"\nenabled = \"yes\"")).unwrap().ends_with("a boolean"));
        assert!(mcp_error(&table("[s]\ncommand = \"x\"\nenv = {A = 1}")).is_some());
        assert_eq!(mcp_error(&table("[s]\ncommand = \"x\"\nurl = \"u\"")).unwrap(), "url is not supported for stdio");
        assert_eq!(mcp_error(&table("[s]\nurl = \"u\"\ncwd = \"/\"")).unwrap(), "cwd is not supported for streamable_http");
        assert!(mcp_error(&table("[s]\ncommand = \"x\"\nenv_vars = [1]")).unwrap().contains("McpServerEnvVar"));
        assert_eq!(mcp_error(&table("[s]\ncommand = \"x\"\ntool_timeout_sec = 2")), None);
    }

    #[test]
    fn the_sections_of_0_171_type_their_fields() {
        let t = table("[rollout_trace]\nmax_bytes = -5\n[responses]\nprocess_mode = \"nope\"\n[code_mode]\nheartbeat_interval_s = 4294967296\n[goals]\nmax_goal_token_budget = 0\n[ok]\nx = 1");
        let err = |k: &str| section_error(k, t[k].as_table().unwrap());
        assert_eq!(err("rollout_trace").unwrap(), "invalid value: integer `-5`, expected u64");
        assert!(err("responses").unwrap().starts_with("unknown variant `nope`"));
        assert_eq!(err("code_mode").unwrap(), "invalid value: integer `4294967296`, expected u32");
        assert_eq!(err("goals").unwrap(), "invalid value: integer `0`, expected a nonzero u64");
        let good = table("[a]\nmax_payload_bytes = 5\nenabled = \"yes\"\nprocess_mode = \"streaming\"\nheartbeat_interval_s = 0");
        for section in ["rollout_trace", "responses", "code_mode", "goals"] {
            assert_eq!(section_error(section, good["a"].as_table().unwrap()), None, "{section}");
        }
        let mode = table("a = {}\nb = { streaming = 1 }\nc = 5");
        assert_eq!(process_mode_error(&mode["a"]).unwrap(), "invalid value: map, expected map with a single key");
        assert!(process_mode_error(&mode["b"]).is_some());
        assert_eq!(process_mode_error(&mode["c"]).unwrap(), "invalid type: integer `5`, expected string or map");
    }
}
