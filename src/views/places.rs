//! For a path none of a framework's [`Place`]s covers, how close it came: one folder too deep, the wrong extension, the right folder name outside
//! the walk from the working folder to the root, or just the wrong folder.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::model::{normalize, Place, Roots};

/// How a path missed a framework's places.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "miss")]
pub enum Miss {
    /// In a scanned folder, deeper than the tool reads.
    TooDeep { location: String, depth: u32 },
    /// In a scanned folder, with a name ending the tool does not read.
    WrongExtension { location: String, suffixes: Vec<String> },
    /// In a folder named like a scanned one, in a place the walk from the working
    /// folder up to the root does not reach.
    OutsideWalk { location: String, walked: Vec<PathBuf> },
    /// Nowhere near a place the tool scans.
    WrongFolder,
}

impl Miss {
    /// The rule in words.
    pub fn rule(&self) -> String {
        match self {
            Miss::TooDeep { location, depth: 0 } => {
                format!("in a subfolder of {location}, where only the top level is read")
            }
            Miss::TooDeep { location, depth } => format!("deeper than {location} is read ({depth} subfolder levels)"),
            Miss::WrongExtension { location, suffixes } => {
                format!("in {location}, but only files ending {} are read there", suffixes.join(", "))
            }
            Miss::OutsideWalk { location, .. } => {
                format!("a folder named like {location}, outside the walk from the working folder up to the repository root")
            }
            Miss::WrongFolder => "in a folder the tool does not scan".into(),
        }
    }
}

/// How `path` misses `places` (which must not cover it): the closest reason.
pub fn miss(places: &[Place], roots: &Roots, path: &Path) -> Miss {
    let path = normalize(path);
    let project = normalize(&roots.project);
    for loc in places {
        let dir = normalize(&loc.dir);
        // The project folder itself is a place for files of the tool's own kind
        // only: a file anywhere in the project is not "near" it.
        if dir == project {
            continue;
        }
        if let Ok(rel) = path.strip_prefix(&dir) {
            let depth = rel.components().count().saturating_sub(1);
            if loc.reach.depth.is_some_and(|d| depth > d as usize) {
                return Miss::TooDeep { location: loc.label.clone(), depth: loc.reach.depth.unwrap_or(0) };
            } else if !loc.ending_read(&path) {
                return Miss::WrongExtension {
                    location: loc.label.clone(),
                    suffixes: loc.reach.suffixes.iter().map(|s| s.to_string()).collect(),
                };
            }
        }
    }
    let parent = path.parent().map(Path::to_path_buf).unwrap_or_default();
    for loc in places {
        let dir = normalize(&loc.dir);
        // The folder's own tail below the project (`.claude/agents`), found at the
        // end of the file's folder somewhere else in the project.
        let Ok(tail) = dir.strip_prefix(&project) else { continue };
        // One folder name (`agents/`) is too common to say the file was meant there.
        if tail.components().count() < 2 || parent == dir || !parent.starts_with(&project) {
            continue;
        }
        if parent.ends_with(tail) {
            let walked = roots.walk_up();
            return Miss::OutsideWalk { location: loc.label.clone(), walked };
        }
    }
    Miss::WrongFolder
}

/// A name with case and separators (`-`, `_`, `.`, space) folded away.
pub fn fold(name: &str) -> String {
    name.chars().filter(|c| !matches!(c, '-' | '_' | '.' | ' ')).flat_map(char::to_lowercase).collect()
}

/// How `other` differs from `name`, when it is close: `case`, `separators`, or
/// `spelling` within a small edit distance (1 for names up to 4 characters, else 2).
pub fn difference(name: &str, other: &str) -> Option<(&'static str, usize)> {
    if name == other {
        return None;
    }
    if name.to_lowercase() == other.to_lowercase() {
        return Some(("case", 0));
    }
    if fold(name) == fold(other) {
        return Some(("separators", 0));
    }
    let limit = if name.chars().count() <= 4 { 1 } else { 2 };
    let (lower, other_lower) = (name.to_lowercase(), other.to_lowercase());
    let d = edit_distance(&lower, &other_lower, limit);
    if d <= limit {
        return Some(("spelling", d));
    }
    // `reviewer` for `code-reviewer`: a name holding the query as one of its parts.
    let parts = |s: &str| s.split(|c: char| !c.is_alphanumeric()).map(str::to_string).collect::<Vec<_>>();
    let holds = lower.chars().count() >= 3
        && other_lower.contains(&lower)
        && (parts(&other_lower).contains(&lower) || parts(&lower).len() > 1);
    holds.then(|| ("contains", other.chars().count() - name.chars().count()))
}

/// Levenshtein distance, stopping early past `limit`.
fn edit_distance(a: &str, b: &str, limit: usize) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        if cur.iter().min().is_some_and(|&m| m > limit) {
            return limit + 1;
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scope;

    fn loc(dir: &str, depth: Option<u32>, suffixes: &'static [&'static str]) -> Place {
        let reach = crate::model::Reach::new(depth, suffixes);
        Place::agents(0, Scope::Project, Path::new("/p"), dir.into(), reach, format!("project {dir}"))
    }

    fn covers(place: &Place, path: &Path) -> bool { place.covers(path) }

    #[test]
    fn coverage_follows_depth_and_suffix() {
        let top = loc("/p/.claude/agents", Some(0), &[".md"]);
        assert!(covers(&top, Path::new("/p/.claude/agents/a.md")));
        assert!(covers(&top, Path::new("/p/.claude/agents/A.MD")));
        assert!(!covers(&top, Path::new("/p/.claude/agents/sub/a.md")));
        assert!(!covers(&top, Path::new("/p/.claude/agents/a.txt")));
        // The place itself (a folder place that is a file is read as one).
        assert!(covers(&top, Path::new("/p/.claude/agents")));
        assert!(covers(&loc("/p", None, &[]), Path::new("/p/x/y/z")));
    }

    #[test]
    fn a_miss_names_the_closest_rule() {
        let mut roots = Roots::new("/p".into(), "/h".into(), "/h/.config".into(), None);
        roots.cwd = "/p/a".into();
        let locs = [loc("/p/a/.claude/agents", Some(0), &[".md"]), loc("/p/.claude/agents", Some(0), &[".md"])];
        assert!(matches!(miss(&locs, &roots, Path::new("/p/.claude/agents/sub/g.md")), Miss::TooDeep { depth: 0, .. }));
        assert!(matches!(miss(&locs, &roots, Path::new("/p/.claude/agents/g.txt")), Miss::WrongExtension { .. }));
        assert!(matches!(miss(&locs, &roots, Path::new("/p/b/.claude/agents/g.md")), Miss::OutsideWalk { .. }));
        assert_eq!(miss(&locs, &roots, Path::new("/p/docs/g.md")), Miss::WrongFolder);
    }

    #[test]
    fn near_names_by_case_separators_and_spelling() {
        assert_eq!(difference("ghost", "Ghost"), Some(("case", 0)));
        assert_eq!(difference("code-reviewer", "code_reviewer"), Some(("separators", 0)));
        assert_eq!(difference("reviewer", "reveiwer"), Some(("spelling", 2)));
        assert_eq!(difference("ghost", "ghast"), Some(("spelling", 1)));
        assert_eq!(difference("ghost", "planner"), None);
        assert_eq!(difference("ab", "xy"), None);
    }
}

/// Where each tool of the catalog looks for definition files of its own (built-ins
/// and files reached from definitions left out): one row per tool, the project's
/// folders before the home's, each folder once.
pub fn looked_in(catalog: &crate::model::Catalog) -> Vec<(&'static str, Vec<String>)> {
    let mut rows: Vec<(&'static str, Vec<String>)> = Vec::new();
    for report in &catalog.reports {
        let mut dirs: Vec<String> = Vec::new();
        for place in report.places.iter().filter(|p| p.holds_definitions() && !p.reached) {
            let shown = crate::model::shown(&place.dir, &catalog.roots);
            if place.scope != crate::model::Scope::Builtin && !dirs.contains(&shown) {
                dirs.push(shown);
            }
        }
        dirs.sort_by_key(|d| d.starts_with('~'));
        if !dirs.is_empty() {
            rows.push((report.ecosystem, dirs));
        }
    }
    rows
}

/// The rows of [`looked_in`] as indented text lines, the tool names aligned.
pub fn looked_in_lines(rows: &[(&'static str, Vec<String>)]) -> Vec<String> {
    let width = rows.iter().map(|(tool, _)| tool.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(tool, dirs)| {
            let dirs: Vec<_> = dirs.iter().map(|d| crate::text::sanitize::line(d).into_owned()).collect();
            format!("  {tool:<width$}  {}", dirs.join(", "))
        })
        .collect()
}
