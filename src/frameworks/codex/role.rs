//! One agent role as Codex 0.171.0 reads it: a role file (`parse_agent_role_file_contents`:
//! strict, a config layer plus `name`, `description`, `nickname_candidates`) and the
//! `[agents.NAME]` tables of a `config.toml` (`AgentsToml`: unknown keys ignored, a
//! wrong type stops Codex).

use toml_codex::Value;

use super::nested;
use super::toml_read::{self, invalid_type, Failure};
use crate::model::{Attribute, Attributes, DiagKind};

/// A value and the line it is written on.
#[derive(Clone, Debug, PartialEq)]
pub struct Valued<T> {
    pub value: T,
    pub line: Option<u32>,
}

/// A role file that loaded.
#[derive(Clone, Debug, PartialEq)]
pub struct RoleFile {
    /// Trimmed; `None` when the file has none (a table's key names the role then).
    pub name: Option<String>,
    /// Trimmed, never blank.
    pub description: Option<Valued<String>>,
    pub nickname_candidates: Option<Valued<Vec<String>>>,
    /// `developer_instructions` as the system prompt, made by the load's
    /// `cx.prompts` (on disk in the explorer where the file holds it verbatim); set
    /// by the reader, `None` from [`parse_role_file`] alone.
    pub prompt: Option<crate::model::Text>,
    pub model: Option<Valued<String>>,
    pub model_reasoning_effort: Option<Valued<String>>,
    /// The file's keys; `developer_instructions` is kept only here (it is most of a
    /// role file's bytes) and shared with the agents made from the file.
    pub attributes: Attributes,
}

impl RoleFile {
    /// `developer_instructions` as written (Codex does not trim it).
    pub fn developer_instructions(&self) -> Option<Valued<String>> {
        let found = self.attributes.get(self.attributes.lines().position(|(k, _)| k == "developer_instructions")?)?;
        Some(Valued { value: found.value.as_str()?.to_string(), line: Some(found.line).filter(|l| *l > 0) })
    }
}

/// Top-level keys of Codex's `ConfigToml` a role file may set, with the type serde
/// checks where agentry checks it (the rest are taken as written).
enum Shape {
    Text,
    Flag,
    Whole,
    Table,
    List,
    OneOf(&'static [&'static str]),
    Any,
}

const SANDBOX_MODES: &[&str] = &["read-only", "workspace-write", "danger-full-access"];
const WEB_SEARCH_MODES: &[&str] = &["disabled", "cached", "indexed", "live"];

fn config_key(key: &str) -> Option<Shape> {
    use Shape::*;
    Some(match key {
        "developer_instructions" | "model" | "model_reasoning_effort" | "plan_mode_reasoning_effort"
        | "model_provider" | "profile" | "instructions" | "review_model" | "service_tier" | "chatgpt_base_url"
        | "openai_base_url" | "oss_provider" | "compact_prompt" | "default_permissions" | "apps_mcp_product_sku"
        | "mcp_oauth_callback_url" | "experimental_realtime_start_instructions"
        | "experimental_realtime_ws_backend_prompt" | "experimental_realtime_ws_base_url"
        | "experimental_realtime_ws_model" | "experimental_realtime_ws_startup_context"
        | "experimental_thread_config_endpoint" => Text,
        "allow_login_shell" | "check_for_update_on_startup" | "disable_paste_burst" | "experimental_use_unified_exec_tool"
        | "hide_agent_reasoning" | "include_apps_instructions" | "include_collaboration_mode_instructions"
        | "include_environment_context" | "include_permissions_instructions" | "model_supports_reasoning_summaries"
        | "show_raw_agent_reasoning" | "suppress_unstable_features_warning" => Flag,
        "background_terminal_max_timeout" | "model_auto_compact_token_limit" | "model_context_window"
        | "mcp_oauth_callback_port" | "project_doc_max_bytes" | "tool_output_token_limit" => Whole,
        "agents" | "analytics" | "apps" | "audio" | "auto_review" | "debug" | "desktop" | "features" | "feedback"
        | "ghost_snapshot" | "history" | "hooks" | "marketplaces" | "mcp_servers" | "memories" | "model_providers"
        | "notice" | "otel" | "permissions" | "plugins" | "profiles" | "projects" | "realtime"
        | "sandbox_workspace_write" | "shell_environment_policy" | "skills" | "tool_suggest" | "tui" | "windows" => Table,
        // Sections of 0.171.0's `ConfigToml` (observed: any other type drops the role file).
        "rollout_trace" | "responses" | "code_mode" | "goals" | "browser_use" | "computer_use" => Table,
        "notify" | "project_doc_fallback_filenames" | "project_root_markers" => List,
        "sandbox_mode" => OneOf(SANDBOX_MODES),
        "web_search" => OneOf(WEB_SEARCH_MODES),
        "tools" => Table,
        "approval_policy" | "approvals_reviewer" | "cli_auth_credentials_store" | "experimental_compact_prompt_file"
        | "experimental_thread_store" | "file_opener" | "forced_chatgpt_workspace_id" | "forced_login_method"
        | "log_dir" | "mcp_oauth_credentials_store" | "model_auto_compact_token_limit_scope" | "model_catalog_json"
        | "model_instructions_file" | "model_reasoning_summary" | "model_verbosity" | "personality" | "sqlite_home"
        // In the field list of 0.169.0's and 0.171.0's `ConfigToml` (its binary), not in the schema.
        | "model_post_turn_compact_threshold_percent" | "allow_symlinked_codex_home" | "mcp_enterprise_managed_auth"
        | "mcp_optional_startup_grace_ms" | "thread_unload_delay_secs" | "js_repl_node_path" | "js_repl_node_module_dirs"
        | "responses_api_metadata" | "orchestrator" | "cloud" | "experimental_realtime_webrtc_call_base_url"
        | "experimental_thread_store_endpoint" => Any,
        _ => return None,
    })
}

/// serde's complaint about `value` for a key of `shape`, if any.
fn shape_error(key: &str, shape: &Shape, value: &Value) -> Option<String> {
    match (shape, value) {
        (Shape::Text, Value::String(_))
        | (Shape::Flag, Value::Boolean(_))
        | (Shape::Whole, Value::Integer(_))
        | (Shape::Table, Value::Table(_))
        | (Shape::List, Value::Array(_))
        | (Shape::Any, _) => None,
        (Shape::Text, v) => Some(invalid_type(v, "a string")),
        (Shape::Flag, v) => Some(invalid_type(v, "a boolean")),
        (Shape::Whole, v) => Some(invalid_type(v, "an integer")),
        (Shape::List, v) => Some(format!("{}\nin `{key}`", invalid_type(v, "a sequence"))),
        // Observed: `tools = ["shell"]` is read as a variant of Codex's tools setting.
        (Shape::Table, Value::Array(items)) if key == "tools" => Some(match items.first() {
            Some(Value::String(s)) => format!("unknown variant `{s}`, expected `standalone` or `search_mcp`"),
            _ => invalid_type(value, "struct ToolsToml"),
        }),
        (Shape::Table, v) => Some(format!("{}\nin `{key}`", invalid_type(v, "a map"))),
        (Shape::OneOf(names), Value::String(s)) if names.contains(&s.as_str()) => None,
        // Observed: `web_search` also takes a table of settings.
        (Shape::OneOf(_), Value::Table(_)) if key == "web_search" => None,
        (Shape::OneOf(_), v) if key == "web_search" => Some(invalid_type(v, "string or map")),
        (Shape::OneOf(names), Value::String(s)) => {
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            Some(format!("unknown variant `{s}`, expected one of {}", list.join(", ")))
        }
        (Shape::OneOf(_), v) => Some(invalid_type(v, "a string")),
    }
}

/// Reads a role file. `label` is the path as Codex prints it; `hint` the table key
/// for a table's `config_file` (the role's name when the file has none).
pub fn parse_role_file(bytes: &[u8], label: &str, hint: Option<&str>) -> Result<RoleFile, Failure> {
    let doc = toml_read::parse(bytes).map_err(|mut f| {
        if f.kind == DiagKind::Parse && !f.message.starts_with("invalid utf-8") && !f.message.starts_with("incomplete utf-8") {
            f.message = format!("failed to parse agent role file at {label}: {}", f.message);
        }
        f
    })?;
    // Codex reads a role file through a TOML value in which a date or time is its
    // text: observed, `instructions = 1979-05-27` loads, `hide_agent_reasoning =
    // 1979-05-27` is refused as `string "1979-05-27"`.
    let mut doc = doc;
    doc.table = doc.table.into_iter().map(|(k, v)| (k, toml_read::datetimes_as_text(v))).collect();
    let line = |key: &str| doc.lines.key(&[], key);
    let deser = |key: &str, msg: String| {
        Failure::validation(format!("failed to deserialize agent role file at {label}: {msg}")).at(line(key))
    };
    // serde's pass over the whole table: types and unknown keys.
    for (key, value) in &doc.table {
        let problem = match key.as_str() {
            "name" | "description" => (!value.is_str()).then(|| invalid_type(value, "a string")),
            "nickname_candidates" => string_list_error(value).map(|m| format!("{m}\nin `nickname_candidates`")),
            "approval_policy" => nested::approval_policy_error(value),
            "mcp_servers" if value.is_table() => value.as_table().and_then(nested::mcp_servers_error).map(|(_, m)| m),
            "rollout_trace" | "responses" | "code_mode" | "goals" if value.is_table() => {
                value.as_table().and_then(|t| nested::section_error(key, t))
            }
            other => match config_key(other) {
                None => Some(format!("unknown field `{other}`")),
                Some(shape) => shape_error(other, &shape, value),
            },
        };
        if let Some(msg) = problem {
            return Err(deser(key, msg));
        }
    }
    let text = |key: &str| doc.table.get(key).and_then(Value::as_str).map(|v| Valued { value: v.to_string(), line: line(key) });
    let description = match text("description") {
        Some(d) if d.value.trim().is_empty() => {
            return Err(Failure::validation(format!("agent role file {label}.description cannot be blank")).at(d.line))
        }
        Some(d) => Some(Valued { value: d.value.trim().to_string(), line: d.line }),
        None => None,
    };
    let developer_instructions = text("developer_instructions");
    match &developer_instructions {
        Some(d) if d.value.trim().is_empty() => {
            return Err(Failure::validation(format!("agent role file at {label}.developer_instructions cannot be blank")).at(d.line))
        }
        None if hint.is_none() => {
            return Err(Failure::validation(format!("agent role file at {label} must define `developer_instructions`")))
        }
        _ => {}
    }
    let name = text("name").map(|n| n.value.trim().to_string()).filter(|n| !n.is_empty());
    if name.is_none() && hint.is_none() {
        return Err(Failure::validation(format!("agent role file at {label} must define a non-empty `name`")).at(line("name")));
    }
    let nickname_candidates = match doc.table.get("nickname_candidates") {
        Some(Value::Array(items)) => {
            let names: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            let at = line("nickname_candidates");
            let value = normalize_nicknames(&format!("agent role file {label}.nickname_candidates"), &names).map_err(|f| f.at(at))?;
            Some(Valued { value, line: at })
        }
        _ => None,
    };
    let attributes = doc
        .table
        .iter()
        .map(|(k, v)| Attribute::new(k, line(k).unwrap_or(0), toml_read::to_json(v)))
        .collect();
    Ok(RoleFile {
        name,
        description,
        nickname_candidates,
        prompt: None,
        model: text("model"),
        model_reasoning_effort: text("model_reasoning_effort"),
        attributes,
    })
}

fn string_list_error(value: &Value) -> Option<String> {
    match value {
        Value::Array(items) => items.iter().find(|v| !v.is_str()).map(|v| invalid_type(v, "a string")),
        other => Some(invalid_type(other, "a sequence")),
    }
}

/// `normalize_agent_role_nickname_candidates`: trimmed, at least one, none blank, no
/// duplicates, only ASCII letters, digits, spaces, `-` and `_`.
pub fn normalize_nicknames(label: &str, names: &[&str]) -> Result<Vec<String>, Failure> {
    if names.is_empty() {
        return Err(Failure::validation(format!("{label} must contain at least one name")));
    }
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let name = name.trim();
        if name.is_empty() {
            return Err(Failure::validation(format!("{label} cannot contain blank names")));
        }
        if out.iter().any(|n| n == name) {
            return Err(Failure::validation(format!("{label} cannot contain duplicates")));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_')) {
            return Err(Failure::validation(format!(
                "{label} may only contain ASCII letters, digits, spaces, hyphens, and underscores"
            )));
        }
        out.push(name.to_string());
    }
    Ok(out)
}

/// One `[agents.KEY]` table as written (checked for types only: the rest is checked
/// per role, with the file system at hand).
#[derive(Clone, Debug, PartialEq)]
pub struct TableRole {
    pub key: String,
    pub line: Option<u32>,
    pub description: Option<Valued<String>>,
    pub config_file: Option<Valued<String>>,
    pub nickname_candidates: Option<Valued<Vec<String>>>,
    pub attributes: Attributes,
}

/// Global knobs of `[agents]`, not roles.
const AGENT_KNOBS: &[&str] = &["max_threads", "max_depth", "job_max_runtime_seconds", "interrupt_message"];

/// The role tables of a `config.toml`, in key order. `Err` is what stops Codex from
/// starting: a TOML error, or a wrong type where Codex's config has a fixed one.
pub fn read_config(bytes: &[u8], label: &str) -> Result<Vec<TableRole>, Failure> {
    let doc = toml_read::parse(bytes).map_err(|mut f| {
        let at = match (f.line, f.col) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            _ => String::new(),
        };
        // Bytes that are not UTF-8 fail in Codex's `read_to_string`, before TOML: a
        // read failure it reports as invalid data (observed: `validation`).
        if f.message.starts_with("invalid utf-8") || f.message.starts_with("incomplete utf-8") {
            f.kind = DiagKind::Validation;
            f.message = format!("Failed to read config file {label}: {}", f.message);
            return f;
        }
        // Codex writes `PATH:LINE:COL: MESSAGE` and then toml's excerpt of the line.
        f.message = match f.message.split_once('\n').filter(|(h, _)| h.starts_with("TOML parse error")) {
            Some((_, body)) => {
                let (excerpt, rest): (Vec<&str>, Vec<&str>) = body.lines().partition(|l| l.contains('|'));
                format!("{label}{at}: {}\n{}", rest.join("\n"), excerpt.join("\n"))
            }
            None => format!("{label}{at}: {}", f.message),
        };
        f
    })?;
    let fatal = |msg: String, line: Option<u32>| Failure::validation(msg).at(line);
    for (key, value) in &doc.table {
        if key == "agents" {
            continue;
        }
        // Checked below the top level as in role files (observed fatal here too).
        let nested = match (key.as_str(), value) {
            ("approval_policy", v) => nested::approval_policy_error(v).map(|m| format!("{m}\nin `{key}`")),
            ("skills", v) => super::skill_rules::config_error(v),
            ("mcp_servers", Value::Table(servers)) => {
                nested::mcp_servers_error(servers).map(|(name, m)| format!("{m}\nin `mcp_servers.{name}`"))
            }
            _ => None,
        };
        if let Some(msg) = nested {
            return Err(fatal(msg, doc.lines.key(&[], key).or_else(|| doc.lines.table(&[key]))));
        }
        // Every typed key is checked as in role files: observed fatal here for
        // strings, flags, integers, lists, tables and the `web_search` modes.
        if let Some(shape) = config_key(key) {
            if let Some(msg) = shape_error(key, &shape, value) {
                return Err(fatal(format!("{msg}\nin `{key}`"), doc.lines.key(&[], key)));
            }
        }
    }
    let Some(agents) = doc.table.get("agents") else { return Ok(Vec::new()) };
    let Value::Table(agents) = agents else {
        return Err(fatal(format!("{}\nin `agents`", invalid_type(agents, "struct AgentsToml")), doc.lines.key(&[], "agents").or_else(|| doc.lines.table(&["agents"]))));
    };
    let mut out = Vec::new();
    for (key, value) in agents {
        let at = |k: &str| doc.lines.key(&["agents", key], k);
        if AGENT_KNOBS.contains(&key.as_str()) {
            let ok = if key == "interrupt_message" { value.is_bool() } else { value.is_integer() };
            if !ok {
                let want = if key == "interrupt_message" { "a boolean" } else { "an integer" };
                return Err(fatal(format!("{}\nin `agents`", invalid_type(value, want)), doc.lines.key(&["agents"], key)));
            }
            continue;
        }
        let Value::Table(role) = value else {
            return Err(fatal(format!("{}\nin `agents`", invalid_type(value, "struct AgentRoleToml")), None));
        };
        let mut entry = TableRole {
            key: key.clone(),
            line: doc.lines.table(&["agents", key]),
            description: None,
            config_file: None,
            nickname_candidates: None,
            attributes: role.iter().map(|(k, v)| Attribute::new(k, at(k).unwrap_or(0), toml_read::to_json(v))).collect(),
        };
        for (k, v) in role {
            let problem = match k.as_str() {
                "description" | "config_file" => (!v.is_str()).then(|| invalid_type(v, "a string")),
                "nickname_candidates" => string_list_error(v),
                _ => None,
            };
            if let Some(msg) = problem {
                return Err(fatal(format!("{msg}\nin `agents`"), at(k)));
            }
        }
        let text = |k: &str| role.get(k).and_then(Value::as_str).map(|s| Valued { value: s.to_string(), line: at(k) });
        entry.description = text("description");
        entry.config_file = text("config_file");
        entry.nickname_candidates = role.get("nickname_candidates").and_then(Value::as_array).map(|items| Valued {
            value: items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            line: at("nickname_candidates"),
        });
        out.push(entry);
    }
    // Codex keeps its roles in a `BTreeMap`: by key, whatever the table's own order.
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_files_are_strict_and_trim_what_codex_trims() {
        let ok = parse_role_file(b"name = \"  A b \"\ndescription = \" d \"\ndeveloper_instructions = \" keep \"\n", "f", None).unwrap();
        assert_eq!(ok.name.as_deref(), Some("A b"));
        assert_eq!(ok.developer_instructions(), Some(Valued { value: " keep ".into(), line: Some(3) }));
        assert_eq!(ok.description.unwrap().value, "d");
        let unknown = parse_role_file(b"name = \"a\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\ncolor = \"red\"\n", "f", None);
        assert_eq!(unknown.unwrap_err().message, "failed to deserialize agent role file at f: unknown field `color`");
        let no_di = parse_role_file(b"name = \"a\"\n", "f", None).unwrap_err();
        assert_eq!(no_di.message, "agent role file at f must define `developer_instructions`");
        let mode = parse_role_file(b"name = \"a\"\ndeveloper_instructions = \"x\"\nsandbox_mode = \"nope\"\n", "f", None);
        assert!(mode.unwrap_err().message.contains("unknown variant `nope`"));
    }

    #[test]
    fn a_config_refuses_every_typed_key_of_the_wrong_shape() {
        for text in ["features = 5", "notify = \"x\"", "model_context_window = \"x\"", "web_search = \"x\"", "profiles = []"] {
            assert!(read_config(text.as_bytes(), "c").is_err(), "{text}");
        }
        assert!(read_config(b"web_search = \"indexed\"\nunknown_top = 5\n", "c").is_ok());
    }

    #[test]
    fn a_config_refuses_a_bad_approval_policy_or_mcp_server() {
        let fatal = read_config(b"approval_policy = \"x\"\n[agents.r]\ndescription = \"d\"\n", "c").unwrap_err();
        assert!(fatal.message.ends_with("in `approval_policy`"));
        let fatal = read_config(b"[mcp_servers.s]\nx = 1\n", "c").unwrap_err();
        assert_eq!(fatal.message, "invalid transport\nin `mcp_servers.s`");
        assert!(read_config(b"approval_policy = \"never\"\n[mcp_servers.s]\ncommand = \"x\"\n", "c").is_ok());
    }

    #[test]
    fn a_config_that_is_not_utf8_is_a_read_failure() {
        let fatal = read_config(b"[agents.r]\ndescription = \"caf\xe9\"\n", "c").unwrap_err();
        assert_eq!(fatal.kind, DiagKind::Validation);
        assert_eq!(fatal.message, "Failed to read config file c: invalid utf-8 sequence of 1 bytes from index 29");
    }

    #[test]
    fn tables_ignore_unknown_keys_but_a_wrong_type_is_fatal() {
        let tables = read_config(b"[agents.helper]\ndescription = \"h\"\nprompt = \"x\"\n", "c").unwrap();
        assert_eq!(tables[0].description.as_ref().unwrap().value, "h");
        assert_eq!(tables[0].line, Some(1));
        let fatal = read_config(b"[agents.r]\ndescription = 5\n", "c").unwrap_err();
        assert_eq!(fatal.message, "invalid type: integer `5`, expected a string\nin `agents`");
        let syntax = read_config(b"[agents.r\n", "c").unwrap_err();
        assert_eq!(syntax.kind, DiagKind::Parse);
        assert!(syntax.message.starts_with("c:1:"), "{}", syntax.message);
    }
}
