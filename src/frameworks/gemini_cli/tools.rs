//! `isValidToolName(name, {allowWildcards: true})` of Gemini CLI 0.61.0: the names a
//! subagent's `tools:` list may hold.

/// `ALL_BUILTIN_TOOL_NAMES`.
const BUILTIN_TOOLS: &[&str] = &[
    "glob",
    "write_todos",
    "write_file",
    "google_web_search",
    "web_fetch",
    "replace",
    "run_shell_command",
    "grep_search",
    "read_many_files",
    "read_file",
    "list_directory",
    "activate_skill",
    "ask_user",
    "tracker_create_task",
    "tracker_update_task",
    "tracker_get_task",
    "tracker_list_tasks",
    "tracker_add_dependency",
    "tracker_visualize",
    "get_internal_docs",
    "enter_plan_mode",
    "exit_plan_mode",
    "update_topic",
    "complete_task",
    "invoke_agent",
    "read_mcp_resource",
    "list_mcp_resources",
];

/// `TOOL_LEGACY_ALIASES`: kept as written, accepted.
const LEGACY_ALIASES: &[&str] = &["search_file_content"];

pub fn is_valid_tool_name(name: &str) -> bool {
    if BUILTIN_TOOLS.contains(&name) || LEGACY_ALIASES.contains(&name) || name.starts_with("discovered_tool_") || name == "*" {
        return true;
    }
    let Some(rest) = name.strip_prefix("mcp_") else { return false };
    if rest == "*" {
        return true;
    }
    if rest.starts_with('_') {
        return false;
    }
    // `parseMcpToolName`: /^([^_]+)_(.+)$/ (`.` stops at line terminators).
    let Some((server, tool)) = rest.split_once('_') else { return false };
    if server.is_empty() || tool.is_empty() || tool.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return false;
    }
    let slug = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'));
    if !slug(server) {
        return false;
    }
    if tool == "*" {
        return true;
    }
    if tool.chars().all(|c| c == '_') {
        return false;
    }
    slug(tool)
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_the_cli_accepts() {
        for ok in ["read_file", "*", "mcp_*", "mcp_github_*", "mcp_github_create_issue", "discovered_tool_x", "search_file_content"] {
            assert!(super::is_valid_tool_name(ok), "{ok}");
        }
        for bad in ["Read", "Bash", "mcp__github__x", "mcp_github", "mcp_gh___", "mcp_a b_c", ""] {
            assert!(!super::is_valid_tool_name(bad), "{bad}");
        }
    }
}
