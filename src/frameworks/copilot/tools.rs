//! Which tools a Copilot CLI sub-agent gets from its `tools` list (CLI 1.0.102,
//! observed: the tool list of each sub-agent's first model request). Aliases and
//! most tool names are matched case-insensitively; Claude Code's names map like
//! aliases; a few tools exist only when named exactly; names the session does not
//! have give nothing; an empty or blank body drops the restriction altogether.

/// The tools of the offline session the fixtures pin, in the order the CLI offers
/// them (no GitHub MCP server, no web tools): what `*`, an omitted `tools`, or an
/// empty body give.
pub const SESSION_TOOLS: [&str; 19] = [
    "bash", "read_bash", "stop_bash", "list_bash", "view", "create", "edit", "fetch_copilot_cli_documentation",
    "skill", "sql", "session_store_sql", "read_agent", "list_agents", "write_agent", "tool_search_tool",
    "update_todo", "grep", "glob", "task",
];

/// Session tools matched only as written (observed: `Update_Todo` and
/// `Tool_Search_Tool` give nothing where `SQL`, `Read_Bash` give their tool), and
/// tools the CLI adds only when named, exactly (observed with the oracle: not part
/// of `*`; `READ_FILE` gives nothing).
const EXACT_ONLY: [&str; 8] = [
    "update_todo", "tool_search_tool", "read_file", "grep_search", "file_search", "semantic_search",
    "report_dreaming_artifact", "send_inbox",
];

const SHELL: &[&str] = &["bash", "read_bash", "stop_bash", "list_bash"];
/// The tools that come with `task`: appended after every other tool (observed:
/// `[EXECUTE, Todo, Agent, WRITE]` gives `bash…, update_todo, task, create, edit,
/// read_agent, list_agents, write_agent`).
const WITH_TASK: &[&str] = &["read_agent", "list_agents", "write_agent"];
const EDIT: &[&str] = &["create", "edit"];
const SEARCH: &[&str] = &["grep", "glob"];

/// The session tools one name in `tools` stands for. Aliases are matched in any
/// case; a VS Code tool-set name `set/tool` stands for its tool part
/// (`search/codebase`, `execute/runInTerminal`), and `set/*` for nothing.
fn expand(name: &str) -> Vec<&'static str> {
    if let Some((_, tool)) = name.rsplit_once('/') {
        return if tool == "*" { Vec::new() } else { expand(tool) };
    }
    let lower = name.to_lowercase();
    match lower.as_str() {
        "read" | "view" | "readfile" => vec!["view"],
        "search" | "codebase" => SEARCH.to_vec(),
        "filesearch" => vec!["glob"],
        "textsearch" => vec!["grep"],
        "edit" | "write" | "multiedit" | "notebookedit" => EDIT.to_vec(),
        "editfiles" => vec!["edit"],
        "createfile" | "createdirectory" => vec!["create"],
        "shell" | "execute" | "bash" | "runcommands" | "runinterminal" => SHELL.to_vec(),
        "agent" | "task" | "custom-agent" | "runsubagent" => vec!["task"],
        "todo" | "todowrite" | "todos" => vec!["update_todo"],
        other => {
            let any_case = SESSION_TOOLS.iter().copied().find(|t| *t == other && !EXACT_ONLY.contains(t));
            let exact = EXACT_ONLY.iter().copied().find(|t| *t == name);
            any_case.or(exact).into_iter().collect()
        }
    }
}

/// Whether `tools` asks for every tool (`*` anywhere in it).
pub fn is_all(tools: &[String]) -> bool {
    tools.iter().any(|t| t == "*")
}

/// The sub-agent's tools, in the order `tools` names them, each once.
pub fn effective(tools: &[String], body_is_blank: bool) -> Vec<&'static str> {
    if body_is_blank || is_all(tools) {
        return SESSION_TOOLS.to_vec();
    }
    let mut out: Vec<&'static str> = Vec::new();
    let with_task = if tools.iter().any(|name| expand(name).contains(&"task")) { WITH_TASK } else { &[] };
    for t in tools.iter().flat_map(|name| expand(name)).chain(with_task.iter().copied()) {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// Names in `tools` that give the sub-agent nothing (unknown here, web tools
/// offline, `server/tool` names of MCP servers).
pub fn unmatched(tools: &[String]) -> Vec<&str> {
    tools.iter().filter(|t| *t != "*" && expand(t).is_empty()).map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn aliases_expand_in_the_order_written() {
        assert_eq!(
            effective(&names(&["Read", "Grep", "Glob", "Edit", "Write", "Bash"]), false),
            ["view", "grep", "glob", "create", "edit", "bash", "read_bash", "stop_bash", "list_bash"]
        );
        assert_eq!(effective(&names(&["read", "read", "view"]), false), ["view"]);
        assert_eq!(
            effective(&names(&["EXECUTE", "Todo", "Agent", "WRITE"]), false),
            ["bash", "read_bash", "stop_bash", "list_bash", "update_todo", "task", "create", "edit", "read_agent", "list_agents", "write_agent"]
        );
        assert_eq!(effective(&names(&["READ", "Search"]), false), ["view", "grep", "glob"]);
        assert!(effective(&names(&["nosuchtool", "web", "github/*", "Read Grep"]), false).is_empty());
        assert_eq!(effective(&names(&["read"]), true).len(), SESSION_TOOLS.len());
        assert_eq!(effective(&names(&["*"]), false).len(), SESSION_TOOLS.len());
        assert_eq!(unmatched(&names(&["read", "web"])), ["web"]);
        assert_eq!(
            effective(&names(&["search/codebase", "edit/editFiles", "runCommands/terminal", "read/readFile", "execute/runInTerminal", "web/fetch", "agent/runSubagent", "todo", "memory"]), false),
            ["grep", "glob", "edit", "view", "bash", "read_bash", "stop_bash", "list_bash", "task", "update_todo", "read_agent", "list_agents", "write_agent"]
        );
        assert!(effective(&names(&["edit/*", "github/*"]), false).is_empty());
        assert_eq!(effective(&names(&["SQL", "Update_Todo", "update_todo", "READ_FILE", "read_file"]), false), ["sql", "update_todo", "read_file"]);
    }
}
