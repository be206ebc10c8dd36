//! Values inside Codex 0.169.0's `ConfigToml` that serde checks below the top level,
//! as a role file meets them (`approval_policy`'s `AskForApproval`, each
//! `[mcp_servers.NAME]`'s `McpServerConfig`). Observed with the released binary:
//! a failure here drops the role file ("failed to deserialize agent role file").

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
}
