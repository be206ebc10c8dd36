//! `tools` and `disallowedTools` down to the tools a subagent is spawned with, as
//! Claude Code 2.1.337 does it in print mode (tool search off): `egn`/`Pdt` read the
//! value, `mf` splits it, the spawn resolves the names against the subagent tool pool.

use serde_json::Value as Json;

/// The tools a subagent gets when `tools` is absent or `*` (observed, 2.1.337 print
/// mode): Grep and Glob are not among them.
pub const DEFAULT: &[&str] = &[
    "Agent", "Bash", "Edit", "EnterWorktree", "ExitWorktree", "Monitor", "NotebookEdit", "Read", "SendMessage",
    "Skill", "TaskStop", "WebFetch", "WebSearch", "Write",
];

/// Tools outside the default set that a `tools` list can still grant by name, but
/// only to a subagent without Bash (observed: with Bash they are dropped).
pub const NAMED_ONLY: &[&str] = &["Glob", "Grep"];

/// Older names Claude Code still maps to a tool (its `Wgo` table; the other entries
/// name tools a subagent never has).
const ALIASES: &[(&str, &str)] = &[("Task", "Agent"), ("KillShell", "TaskStop"), ("KillBash", "TaskStop")];

/// The tools `memory` adds to an explicit list.
const MEMORY: &[&str] = &["Read", "Write", "Edit"];

/// What `tools` asks for (`Pdt`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolList {
    /// Absent, or naming `*`: the default set.
    All,
    /// These names, as split (`[]`: none at all).
    Named(Vec<String>),
}

impl ToolList {
    /// `memory` adds Read, Write and Edit to an explicit list.
    pub fn with_memory(self) -> ToolList {
        match self {
            ToolList::All => ToolList::All,
            ToolList::Named(mut names) => {
                for t in MEMORY {
                    if !names.iter().any(|n| n == t) {
                        names.push((*t).to_string());
                    }
                }
                ToolList::Named(names)
            }
        }
    }

    /// The names listed, `None` for all (a `disallowedTools: "*"` removes nothing:
    /// `Pdt` reads it as absent).
    pub fn names(self) -> Option<Vec<String>> {
        match self {
            ToolList::All => None,
            ToolList::Named(n) => Some(n),
        }
    }
}

/// `Pdt(value)`: absent is all; `null`, `false`, `0`, `""`, a number or a map name
/// none; a string or the strings of a list are split by `mf`; `*` among them is all.
pub fn from_value(v: Option<&Json>) -> ToolList {
    let items: Vec<&str> = match v {
        None => return ToolList::All,
        Some(Json::String(s)) => vec![s.as_str()],
        Some(Json::Array(a)) => a.iter().filter_map(Json::as_str).collect(),
        Some(_) => Vec::new(),
    };
    let names = split(&items);
    if names.iter().any(|n| n == "*") {
        return ToolList::All;
    }
    ToolList::Named(names)
}

/// `mf`: each item split on commas and spaces outside parentheses, pieces trimmed.
pub fn split(items: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for item in items {
        let mut cur = String::new();
        let mut inside = false;
        let push = |cur: &mut String, out: &mut Vec<String>| {
            let t = super::frontmatter::js_trim(cur);
            if !t.is_empty() {
                out.push(t.to_string());
            }
            cur.clear();
        };
        for c in item.chars() {
            match c {
                '(' => {
                    inside = true;
                    cur.push(c);
                }
                ')' => {
                    inside = false;
                    cur.push(c);
                }
                ',' | ' ' if !inside => push(&mut cur, &mut out),
                _ => {
                    if !cur.is_empty() || !super::frontmatter::js_trim(&c.to_string()).is_empty() {
                        cur.push(c);
                    }
                }
            }
        }
        push(&mut cur, &mut out);
    }
    out
}

/// The tool a name grants: `Bash(git diff:*)` grants Bash, `Task` grants Agent.
/// `cF`: a name with parentheses names a tool only when one `(` follows the name and
/// the last `)` ends it; otherwise (`Agent(a`, `b)`) the whole text is the name,
/// which no tool has.
fn tool_of(name: &str) -> &str {
    let t = match (name.find('('), name.rfind(')')) {
        (None, None) => name,
        (Some(open), Some(close)) if close == name.len() - 1 && close > open && open > 0 && !name[..open].contains(')') => &name[..open],
        _ => name,
    };
    ALIASES.iter().find(|(old, _)| *old == t).map_or(t, |(_, new)| new)
}

/// The tools a subagent is spawned with, or why the spawn is refused.
pub struct Effective {
    pub tools: Vec<String>,
    /// The refusal, when every named tool is unknown.
    pub refused: Option<String>,
    /// Names dropped as unknown.
    pub unknown: Vec<String>,
}

pub fn effective(name: &str, tools: &ToolList, disallowed: Option<&[String]>, plan_mode: bool) -> Effective {
    let known = |t: &str| DEFAULT.contains(&t) || NAMED_ONLY.contains(&t);
    let mut unknown = Vec::new();
    let mut set: Vec<String> = match tools {
        ToolList::All => {
            let mut s: Vec<String> = DEFAULT.iter().map(|t| t.to_string()).collect();
            if plan_mode {
                s.push("ExitPlanMode".into());
            }
            s
        }
        ToolList::Named(names) => {
            let mut s: Vec<String> = Vec::new();
            for n in names {
                let t = tool_of(n);
                if known(t) {
                    if !s.iter().any(|x| x == t) {
                        s.push(t.to_string());
                    }
                } else {
                    unknown.push(n.clone());
                }
            }
            if s.is_empty() && !names.is_empty() {
                let refused = format!(
                    "Agent '{name}' would be spawned with zero tools — refusing. Its tools list resolved to nothing: unrecognized [{}]",
                    unknown.join(", ")
                );
                return Effective { tools: Vec::new(), refused: Some(refused), unknown };
            }
            s
        }
    };
    for d in disallowed.unwrap_or_default() {
        // Observed: a pattern (`Bash(rm:*)`) removes the whole tool.
        let d = tool_of(d);
        set.retain(|t| t != d && !(d == "Bash" && t == "Monitor"));
    }
    if set.iter().any(|t| t == "Bash") {
        set.retain(|t| !NAMED_ONLY.contains(&t.as_str()));
    }
    set.sort();
    Effective { tools: set, refused: None, unknown }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_on_commas_and_spaces_outside_parentheses() {
        assert_eq!(split(&["Read, Agent(helper, other)"]), vec!["Read", "Agent(helper, other)"]);
        assert_eq!(split(&["Read Grep", "Edit, Write"]), vec!["Read", "Grep", "Edit", "Write"]);
        assert_eq!(from_value(Some(&Json::from("Read, *"))), ToolList::All);
        assert_eq!(from_value(Some(&Json::Null)), ToolList::Named(vec![]));
        assert_eq!(from_value(Some(&Json::from(5))), ToolList::Named(vec![]));
    }

    #[test]
    fn a_name_with_unbalanced_parentheses_is_no_tool() {
        assert_eq!(tool_of("Bash(git diff:*)"), "Bash");
        assert_eq!(tool_of("Task"), "Agent");
        for whole in ["Agent(helper", "other)", "(x)", "Bash(a)b", "Bash)(a)"] {
            assert_eq!(tool_of(whole), whole);
        }
    }

    #[test]
    fn only_all_unknown_names_refuse_the_spawn() {
        let named = |v: &[&str]| ToolList::Named(v.iter().map(|s| s.to_string()).collect());
        assert!(effective("a", &named(&["read", "grep"]), None, false).refused.is_some());
        assert_eq!(effective("a", &named(&["Read", "Frob"]), None, false).tools, vec!["Read"]);
        assert!(effective("a", &named(&[]), None, false).tools.is_empty());
        let no_bash = effective("a", &ToolList::All, Some(&["Bash".to_string()]), false);
        assert!(!no_bash.tools.iter().any(|t| t == "Monitor" || t == "Bash"));
        assert!(effective("a", &ToolList::All, None, true).tools.contains(&"ExitPlanMode".to_string()));
        assert_eq!(effective("a", &named(&["Bash", "Grep", "Glob"]), None, false).tools, vec!["Bash"]);
        assert_eq!(effective("a", &named(&["Bash", "Grep"]), Some(&["Bash".to_string()]), false).tools, vec!["Grep"]);
    }
}
