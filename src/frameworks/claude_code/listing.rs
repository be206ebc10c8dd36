//! What Claude Code 2.1.337 tells its model about subagents: the system message
//! `Available agent types for the Agent tool:` with one `- NAME: DESCRIPTION (Tools:
//! TOOLS)` line per active agent (`Nei`, `EKi`), built-ins included, sorted by name
//! (`localeCompare`, ASCII-only names first), without a cut-off (observed up to 300
//! agents); an agent named in a `permissions.deny` rule `Agent(NAME)` is left out.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use super::tools::ToolList;
use crate::discover::Hold;
use crate::frameworks::LoadContext;
use crate::model::{Agent, Scope, Status};

pub const HEADER: &str = "Available agent types for the Agent tool:";

/// `EKi`: the tools as the file names them (not as resolved): `All tools` for none
/// or `*`, `All tools except …` for `disallowedTools` alone, `None` when every named
/// tool is disallowed.
pub fn tools_text(tools: &ToolList, disallowed: Option<&[String]>) -> String {
    let named = match tools {
        ToolList::Named(n) if !n.is_empty() => Some(n),
        _ => None,
    };
    let denied = disallowed.filter(|d| !d.is_empty());
    match (named, denied) {
        (Some(n), Some(d)) => {
            let left: Vec<&str> = n.iter().filter(|t| !d.contains(t)).map(String::as_str).collect();
            if left.is_empty() { "None".into() } else { left.join(", ") }
        }
        (Some(n), None) => n.join(", "),
        (None, Some(d)) => format!("All tools except {}", d.join(", ")),
        (None, None) => "All tools".into(),
    }
}

/// `Nei`: one agent's line, without the leading `- NAME: `.
pub fn line(description: &str, tools: &ToolList, disallowed: Option<&[String]>) -> String {
    format!("{description} (Tools: {})", tools_text(tools, disallowed))
}

/// The names `permissions.deny` holds as `Agent(NAME)`, in every settings file read:
/// the user's, and the project's shared and local ones.
pub fn denied(cx: &LoadContext) -> HashSet<String> {
    let r = cx.roots;
    let files = [r.home.join(".claude/settings.json"), r.project.join(".claude/settings.json"), r.project.join(".claude/settings.local.json")];
    let mut out = HashSet::new();
    for f in files {
        let Ok(bytes) = cx.files.read(&f, Hold::Kept) else { continue };
        let Ok(json) = serde_json::from_slice::<serde_json::Value>(&bytes) else { continue };
        for rule in json["permissions"]["deny"].as_array().into_iter().flatten().filter_map(|v| v.as_str()) {
            if let Some(name) = rule.trim().strip_prefix("Agent(").and_then(|s| s.strip_suffix(')')) {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// The listing text, and `listed` set on every agent: an active agent that is not
/// denied is listed; shadowed, held and denied ones are not. `lines` maps a custom
/// agent's source key to its line. The text only when every listed agent's line is
/// known: a built-in's line is the tool's own text, which agentry does not copy (names
/// only), so with a built-in listed the text is left to the tool.
pub fn agent_listing(agents: &mut [Agent], lines: &HashMap<String, String>, denied: &HashSet<String>) -> Option<String> {
    let mut shown: Vec<(String, Option<String>)> = Vec::new();
    for a in agents.iter_mut().filter(|a| a.kind.is_agent() && !a.status.is_unloaded()) {
        let builtin = a.source.scope == Scope::Builtin;
        let text = if builtin { None } else { lines.get(&a.source.key()).cloned() };
        let listed = a.status == Status::Wins && !denied.contains(&a.name) && (builtin || text.is_some());
        a.listed = Some(listed);
        if listed {
            shown.push((a.name.clone(), text));
        }
    }
    shown.sort_by(|a, b| locale_cmp(&a.0, &b.0));
    let mut out = HEADER.to_string();
    for (name, text) in shown {
        out.push_str(&format!("\n- {name}: {}", text?));
    }
    Some(out)
}

/// The place of an ASCII character in ICU's root collation (punctuation, then
/// symbols, digits, letters without case), and its case (lower first).
fn weight(c: char) -> (u32, u8) {
    const ORDER: &str = "\t\n\u{b}\u{c}\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";
    if c.is_ascii_alphabetic() {
        return (200 + (c.to_ascii_lowercase() as u32 - 'a' as u32), u8::from(c.is_ascii_uppercase()));
    }
    match ORDER.find(c) {
        Some(i) => (10 + i as u32, 0),
        None => (c as u32, 0),
    }
}

/// `a.localeCompare(b)` as the listing sorts: names of ASCII only first, compared
/// as ICU's root collation does (letters without case first, then lower case before
/// upper case); other names after them, by UTF-16 code units.
pub fn locale_cmp(a: &str, b: &str) -> Ordering {
    match (a.is_ascii(), b.is_ascii()) {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        (false, false) => return a.encode_utf16().cmp(b.encode_utf16()),
        (true, true) => {}
    }
    let primary = |s: &str| s.chars().map(|c| weight(c).0).collect::<Vec<_>>();
    let tertiary = |s: &str| s.chars().map(|c| weight(c).1).collect::<Vec<_>>();
    primary(a).cmp(&primary(b)).then_with(|| tertiary(a).cmp(&tertiary(b))).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_as_the_listing_sorts_them() {
        let mut names = vec!["émile", "Zeta", "explore", "Explore", "_under", "claude", "0num", "a b", "alpha", "Beta", "kit:helper"];
        names.sort_by(|a, b| locale_cmp(a, b));
        assert_eq!(names, ["_under", "0num", "a b", "alpha", "Beta", "claude", "explore", "Explore", "kit:helper", "Zeta", "émile"]);
    }

    #[test]
    fn the_text_only_where_no_built_in_is_listed() {
        use crate::model::Source;
        let root = std::path::Path::new("/p");
        let agent = |name: &str, scope: Scope, status: Status| {
            let source = if scope == Scope::Builtin { Source::builtin(name) } else { Source::new(scope, root, root.join(format!(".claude/agents/{name}.md"))) };
            Agent::new("claude-code", name.into(), source, status, String::new())
        };
        let lines: HashMap<String, String> = [("project:.claude/agents/w.md", "does w (Tools: All tools)"), ("project:.claude/agents/x.md", "does x (Tools: All tools)")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let denied: HashSet<String> = ["x".to_string()].into();
        let mut agents = vec![agent("w", Scope::Project, Status::Wins), agent("x", Scope::Project, Status::Wins)];
        assert_eq!(agent_listing(&mut agents, &lines, &denied).as_deref(), Some("Available agent types for the Agent tool:\n- w: does w (Tools: All tools)"));
        assert_eq!((agents[0].listed, agents[1].listed), (Some(true), Some(false)));
        agents.push(agent("Plan", Scope::Builtin, Status::Wins));
        assert_eq!(agent_listing(&mut agents, &lines, &denied), None);
        assert_eq!(agents[2].listed, Some(true));
    }

    #[test]
    fn tools_as_written() {
        let named = |v: &[&str]| ToolList::Named(v.iter().map(|s| s.to_string()).collect());
        assert_eq!(tools_text(&ToolList::All, None), "All tools");
        assert_eq!(tools_text(&named(&[]), None), "All tools");
        assert_eq!(tools_text(&named(&["read", "grep"]), None), "read, grep");
        let no_edit = ["Write".to_string(), "Edit".to_string()];
        assert_eq!(tools_text(&ToolList::All, Some(&no_edit)), "All tools except Write, Edit");
        assert_eq!(tools_text(&named(&["Edit"]), Some(&no_edit)), "None");
    }
}
