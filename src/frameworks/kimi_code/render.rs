//! What the model is given: the tool list (`isToolActive`, `agent/toolPolicy/evaluate.ts`)
//! and the prompt template (`renderPrompt`, `_base/utils/render-prompt.ts`, with the
//! variables of `systemPromptVars` that do not depend on the machine the tool runs on).

use std::sync::LazyLock;

use crate::frameworks::{LoadContext, RenderMode};

/// The tools of a default 2.1.0 session in print mode (no MCP servers, no web-search
/// service, experimental flags off), in the order they are sent (alphabetical).
pub const SESSION_TOOLS: [&str; 26] = [
    "Agent", "AgentSwarm", "AskUserQuestion", "Bash", "CreateGoal", "CronCreate", "CronDelete", "CronList", "Edit",
    "EnterPlanMode", "ExitPlanMode", "FetchURL", "GetGoal", "Glob", "Grep", "Read", "ReadMediaFile", "SetGoalBudget",
    "Skill", "TaskList", "TaskOutput", "TaskStop", "TodoList", "UpdateGoal", "WaitFor", "Write",
];

/// The session's tools an agent keeps: with `tools`, only exact names in it (`*` in
/// a longer list matches nothing; patterns only match MCP tools, of which a default
/// session has none); then `disallowedTools` removes exact names.
pub fn effective_tools(tools: Option<&[String]>, disallowed: Option<&[String]>) -> Vec<&'static str> {
    SESSION_TOOLS
        .iter()
        .copied()
        .filter(|t| tools.is_none_or(|list| list.iter().any(|x| x == t)))
        .filter(|t| !disallowed.is_some_and(|list| list.iter().any(|x| x == t)))
        .collect()
}

/// The variables known before the tool starts.
pub struct Vars {
    /// The default main agent's rendered prompt when SYSTEM.md provides it; the
    /// built-in one is the tool's own text, which agentry does not copy.
    pub base_prompt: Option<String>,
    pub cwd: String,
    /// config.toml's `[tools] enabled` (when not empty) and `disabled`.
    pub global_tools: (Option<Vec<String>>, Option<Vec<String>>),
}

impl Vars {
    pub fn new(cx: &LoadContext) -> Vars {
        let r = cx.roots;
        let cwd = match cx.render {
            // The resolution report writes the workspace as `<project>`.
            RenderMode::Export => match r.cwd.strip_prefix(&r.project) {
                Ok(rest) if !rest.as_os_str().is_empty() => format!("<project>/{}", rest.to_string_lossy()),
                _ => "<project>".to_string(),
            },
            RenderMode::Live { .. } => r.cwd.to_string_lossy().into_owned(),
        };
        Vars { base_prompt: None, cwd, global_tools: (None, None) }
    }

    #[cfg(test)]
    pub fn plain(cwd: &std::path::Path) -> Vars {
        Vars { base_prompt: None, cwd: cwd.to_string_lossy().into_owned(), global_tools: (None, None) }
    }
}

impl Vars {
    /// An agent's tools (`isToolActiveComposed`): its own policy, then the global
    /// switches of config.toml, which work the same way.
    pub fn tools(&self, tools: Option<&[String]>, disallowed: Option<&[String]>) -> Vec<&'static str> {
        let global = effective_tools(self.global_tools.0.as_deref(), self.global_tools.1.as_deref());
        effective_tools(tools, disallowed).into_iter().filter(|t| global.contains(t)).collect()
    }
}

/// `renderPrompt`: `${name}` replaced for the known variables, anything else (unknown
/// names, `$name`, `${ name }`, and values only the running tool knows — `os`,
/// `shell`, `cwd_listing`, `agents_md`, skills, `reply_style_guide`, the built-in
/// `base_prompt`) kept as written.
pub fn render(template: &str, vars: &Vars, with_base: bool) -> String {
    static VARIABLE: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}").expect("variable pattern"));
    VARIABLE
        .replace_all(template, |c: &regex::Captures| {
            let value = match &c[1] {
                "product_name" => Some("Kimi Code CLI"),
                "cwd" => Some(vars.cwd.as_str()),
                "base_prompt" if with_base => vars.base_prompt.as_deref(),
                // Empty in a print-mode session: no notifier, no additional folders,
                // no plugins; `role_additional` is always empty for these profiles.
                "role_additional" | "notify_user_guidance" | "additional_dirs_info" | "additional_dirs_section" | "plugin_sections" => Some(""),
                "windows_notes" if !cfg!(windows) => Some(""),
                _ => None,
            };
            value.map_or_else(|| c[0].to_string(), str::to_string)
        })
        .into_owned()
}

/// The variables of `text` (a rendered prompt) that only the running tool fills, in
/// words for the agent's rule; `None` when there are none.
pub fn runtime_note(text: &str) -> Option<String> {
    const RUNTIME: [&str; 9] =
        ["base_prompt", "os", "shell", "cwd_listing", "agents_md", "skills", "skills_section", "reply_style_guide", "windows_notes"];
    let left: Vec<String> = RUNTIME.iter().filter(|v| text.contains(&format!("${{{v}}}"))).map(|v| format!("`${{{v}}}`")).collect();
    (!left.is_empty()).then(|| {
        format!("; its prompt shows {} as written: Kimi Code fills them in when the agent starts (the built-in prompt, the machine, AGENTS.md, skills)", left.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn known_variables_are_filled_and_the_rest_kept() {
        let mut vars = Vars::plain(Path::new("/w"));
        vars.base_prompt = Some("BASE $1".into());
        let out = render("${product_name} ${cwd} ${base_prompt} ${x} $y ${ product_name } ${os}", &vars, true);
        assert_eq!(out, "Kimi Code CLI /w BASE $1 ${x} $y ${ product_name } ${os}");
        assert_eq!(render("${base_prompt}", &vars, false), "${base_prompt}");
    }

    #[test]
    fn tools_keep_exact_names_then_lose_disallowed_ones() {
        let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(effective_tools(Some(&list(&["Read", "read", "*", "Bash"])), Some(&list(&["Bash"]))), vec!["Read"]);
        assert_eq!(effective_tools(None, None).len(), 26);
        assert!(effective_tools(Some(&[]), None).is_empty());
    }
}
