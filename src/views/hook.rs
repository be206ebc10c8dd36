//! The pre-commit hook's `files:` pattern, made from the readers' places: a commit
//! that touches any file some tool reads (a definition, or a settings, config or
//! manifest file that changes how definitions are read) runs `agentry check`.
//! `.pre-commit-hooks.yaml` holds the pattern [`every_tool`] makes; a test fails when
//! the two differ.

use std::collections::BTreeSet;
use std::path::{Component, Path};

use crate::model::{normalize, Catalog, Place, Scope};

/// The pattern (a regular expression as pre-commit reads it: Python `re`, searched in
/// the path relative to the repository root) matching every project file the places
/// of `catalog` read. A place in a folder below the project matches in any folder of
/// the repository (tools walk up from the working folder); files read directly in the
/// project folder by their type alone (`*.md`) only at the top.
pub fn files_pattern(catalog: &Catalog) -> String {
    let project = normalize(&catalog.roots.project);
    let alternatives: BTreeSet<String> =
        catalog.reports.iter().flat_map(|r| r.places.iter()).filter_map(|p| place_pattern(&project, p)).collect();
    format!("(?i)({})$", alternatives.into_iter().collect::<Vec<_>>().join("|"))
}

/// One place's part of the pattern: `None` for a place outside `project`, or one
/// only reached from definitions (a prompt file anywhere would make every file
/// match).
pub fn place_pattern(project: &Path, place: &Place) -> Option<String> {
    if place.scope != Scope::Project || place.reached {
        return None;
    }
    let dir = normalize(&place.dir);
    let tail = dir.strip_prefix(project).ok()?;
    Some(alternative(tail, place))
}

/// [`files_pattern`] of every registered framework over a workspace holding nothing:
/// the places every tool declares whatever the workspace holds.
pub fn every_tool() -> String {
    files_pattern(&default_workspace())
}

/// Every registered framework loaded over a workspace holding nothing (default
/// settings, trusted, the working folder at the project root).
pub fn default_workspace() -> Catalog {
    let root = Path::new("/nonexistent/agentry-hook-pattern");
    let mut roots = crate::model::Roots::new(root.join("project"), root.join("home"), root.join("xdg"), Some(root.join("builtins")));
    roots.trusted = true;
    let opts = crate::load::LoadOptions {
        roots,
        ecosystems: Vec::new(),
        render: crate::frameworks::RenderMode::Export,
        env: Default::default(),
        options: Default::default(),
        texts: crate::model::TextForm::Held,
    };
    crate::load::load(&opts, &crate::discover::FileCache::for_one_load(), 1)
}

/// One place as a pattern: its folder below the project, how deep, which names.
fn alternative(tail: &Path, place: &Place) -> String {
    let parts: Vec<String> = tail
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(escape(&p.to_string_lossy())),
            _ => None,
        })
        .collect();
    let reach = &place.reach;
    if reach.file {
        return format!("(^|/){}", parts.join("/"));
    }
    let depth = match reach.depth {
        None => "(.*/)?".to_string(),
        Some(0) => String::new(),
        Some(n) => format!("([^/]+/){{0,{n}}}"),
    };
    let names: Vec<String> = reach
        .suffixes
        .iter()
        .map(|s| if s.starts_with('.') { format!("[^/]+{}", escape(s)) } else { escape(s) })
        .collect();
    let names = match names.len() {
        0 => "[^/]+".to_string(),
        1 => names[0].clone(),
        _ => format!("({})", names.join("|")),
    };
    let by_type_at_top = parts.is_empty() && reach.depth == Some(0) && reach.suffixes.iter().all(|s| s.starts_with('.'));
    let start = if by_type_at_top { "^" } else { "(^|/)" };
    let folder = if parts.is_empty() { String::new() } else { format!("{}/", parts.join("/")) };
    format!("{start}{folder}{depth}{names}")
}

/// `text` with the characters a regular expression gives a meaning escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if ".+*?()|[]{}^$\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Reach;

    fn place(dir: &str, reach: Reach) -> Place {
        Place::agents(0, Scope::Project, Path::new("/p"), Path::new("/p").join(dir), reach, "")
    }

    #[test]
    fn a_place_becomes_its_folder_depth_and_names() {
        let p = |dir: &str, reach| alternative(Path::new(dir), &place(dir, reach));
        assert_eq!(p(".claude/agents", Reach::tree(&[".md"])), r"(^|/)\.claude/agents/(.*/)?[^/]+\.md");
        assert_eq!(p(".codex", Reach::top(&["config.toml"])), r"(^|/)\.codex/config\.toml");
        assert_eq!(p("", Reach::top(&[".md"])), r"^[^/]+\.md");
        assert_eq!(p("", Reach::top(&["opencode.json", "opencode.jsonc"])), r"(^|/)(opencode\.json|opencode\.jsonc)");
        assert_eq!(p("a", Reach::to_depth(2, &[])), r"(^|/)a/([^/]+/){0,2}[^/]+");
    }
}
