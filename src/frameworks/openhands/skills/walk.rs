//! Third-party files below the working folder (`find_nested_third_party_files`):
//! OpenHands asks `git ls-files --cached --others --exclude-standard` for the files
//! under W, so `.gitignore` (and `.git/info/exclude`) apply, `.git` and nested
//! repositories are not entered, and a linked folder is one entry, not entered.
//! agentry walks the folders itself with those rules (it never runs git; files
//! tracked in spite of `.gitignore` are not known to it).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::parse::{third_party_name, Form};
use super::Scan;
use crate::discover::Files;
use crate::model::Scope;

/// One `.gitignore` line: a glob, relative to the folder of its file.
struct Rule {
    negate: bool,
    dir_only: bool,
    /// Matched against the path from the rule's folder (with a `/`) or the name.
    anchored: bool,
    regex: regex::Regex,
}

/// The rules of one ignore file, with the folder (relative to the git root) they
/// are relative to.
struct Rules {
    dir: String,
    rules: Vec<Rule>,
}

fn glob_regex(glob: &str) -> Option<regex::Regex> {
    let mut out = String::from("^");
    let chars: Vec<char> = glob.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' if chars.get(i + 1) == Some(&'*') => {
                if chars.get(i + 2) == Some(&'/') {
                    out.push_str("(?:.*/)?");
                    i += 3;
                } else {
                    out.push_str(".*");
                    i += 2;
                }
                continue;
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => match chars[i..].iter().position(|&c| c == ']').filter(|&k| k > 1) {
                Some(k) => {
                    let class: String = chars[i + 1..i + k].iter().collect();
                    let class = class.strip_prefix('!').map_or(class.clone(), |c| format!("^{c}"));
                    out.push('[');
                    out.push_str(&class.replace('\\', "\\\\"));
                    out.push(']');
                    i += k + 1;
                    continue;
                }
                None => out.push_str("\\["),
            },
            '\\' if i + 1 < chars.len() => {
                out.push_str(&regex::escape(&chars[i + 1].to_string()));
                i += 2;
                continue;
            }
            c => out.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    out.push('$');
    regex::Regex::new(&out).ok()
}

fn parse_rules(text: &str) -> Vec<Rule> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut line = line.trim_end_matches([' ', '\r']);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let negate = line.starts_with('!');
        if negate {
            line = &line[1..];
        }
        let line = line.strip_prefix('\\').unwrap_or(line);
        let dir_only = line.ends_with('/');
        let line = line.trim_end_matches('/');
        let anchored = line.contains('/');
        let line = line.trim_start_matches('/');
        if line.is_empty() {
            continue;
        }
        if let Some(regex) = glob_regex(line) {
            out.push(Rule { negate, dir_only, anchored, regex });
        }
    }
    out
}

/// Whether `rel` (from the git root) is ignored by the stack of rules, the deepest
/// file and its last matching line deciding.
fn ignored(stack: &[Arc<Rules>], rel: &str, is_dir: bool) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    for rules in stack.iter().rev() {
        let Some(local) = (if rules.dir.is_empty() { Some(rel) } else { rel.strip_prefix(&rules.dir).and_then(|r| r.strip_prefix('/')) }) else { continue };
        for rule in rules.rules.iter().rev() {
            if rule.dir_only && !is_dir {
                continue;
            }
            let hit = if rule.anchored { rule.regex.is_match(local) } else { rule.regex.is_match(name) };
            if hit {
                return !rule.negate;
            }
        }
    }
    false
}

/// Reads the nested third-party files of `work` (below `root`, the git root) as path
/// rules into `scan`, sorted by their folder.
pub(super) fn nested(scan: &mut Scan<'_>, tier: usize, base: &Path, work: &Path, root: &Path) {
    let files = scan.cx.files;
    let read_rules = |dir: &Path, file: &str, rel: &str| -> Option<Arc<Rules>> {
        let bytes = files.read(&dir.join(file), crate::discover::Hold::Not).ok()?;
        Some(Arc::new(Rules { dir: rel.to_string(), rules: parse_rules(&String::from_utf8_lossy(&bytes)) }))
    };
    let mut stack: Vec<Arc<Rules>> = read_rules(root, ".git/info/exclude", "").into_iter().collect();
    // The ignore files of the folders from the git root down to the working folder's
    // parent (the walk reads the working folder's own).
    let rel_work = work.strip_prefix(root).map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_default();
    let (mut at, mut rel) = (root.to_path_buf(), String::new());
    for part in rel_work.split('/').filter(|p| !p.is_empty()) {
        stack.extend(read_rules(&at, ".gitignore", &rel));
        at.push(part);
        rel = if rel.is_empty() { part.to_string() } else { format!("{rel}/{part}") };
        if ignored(&stack, &rel, true) {
            return;
        }
    }
    let mut found = walk(&files, work, &rel, "", &stack);
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let mut reals = HashSet::new();
    for (rel_dir, path) in found {
        let real = files.canonicalize(&path).unwrap_or_else(|| path.clone());
        if reals.insert(real) {
            scan.load(tier, false, Scope::Project, base, &path, Form::Nested { rel_dir: &rel_dir });
        }
    }
}

/// One folder of the walk: `rel` from the git root, `from_work` from the working
/// folder; its subfolders are walked on every core.
fn walk(files: &Files<'_>, dir: &Path, rel: &str, from_work: &str, stack: &[Arc<Rules>]) -> Vec<(String, PathBuf)> {
    let Ok(Some(entries)) = files.list_dir(dir) else { return Vec::new() };
    let mut stack = stack.to_vec();
    if entries.iter().any(|e| e.name() == ".gitignore" && e.is_file) {
        if let Ok(bytes) = files.read(&dir.join(".gitignore"), crate::discover::Hold::Not) {
            stack.push(Arc::new(Rules { dir: rel.to_string(), rules: parse_rules(&String::from_utf8_lossy(&bytes)) }));
        }
    }
    let join = |a: &str, b: &str| if a.is_empty() { b.to_string() } else { format!("{a}/{b}") };
    let mut found = Vec::new();
    let mut folders = Vec::new();
    for e in entries.iter() {
        let name = e.name();
        if name == ".git" {
            continue;
        }
        let entry_rel = join(rel, &name);
        let real_dir = e.is_dir && !e.is_symlink;
        if ignored(&stack, &entry_rel, real_dir) {
            continue;
        }
        if real_dir {
            folders.push((e, entry_rel, join(from_work, &name)));
        } else if !from_work.is_empty() && third_party_name(&name).is_some() && e.is_file {
            found.push((from_work.to_string(), e.path.to_path_buf()));
        }
    }
    let below: Vec<Vec<(String, PathBuf)>> = folders
        .into_par_iter()
        // A nested repository is one entry to git, not entered.
        .filter(|(e, _, _)| !files.exists(&e.path.join(".git")))
        .map(|(e, entry_rel, entry_from_work)| walk(files, &e.path, &entry_rel, &entry_from_work, &stack))
        .collect();
    found.extend(below.into_iter().flatten());
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_rules_match_as_git_does() {
        let stack = vec![Arc::new(Rules { dir: String::new(), rules: parse_rules("node_modules/\n/build\n*.log\n!keep.log\ndocs/**/AGENTS.md\n") })];
        assert!(ignored(&stack, "a/node_modules", true));
        assert!(!ignored(&stack, "a/node_modules", false));
        assert!(ignored(&stack, "build", true));
        assert!(!ignored(&stack, "a/build", true));
        assert!(ignored(&stack, "x/y.log", false));
        assert!(!ignored(&stack, "keep.log", false));
        assert!(ignored(&stack, "docs/a/b/AGENTS.md", false));
        assert!(ignored(&stack, "docs/AGENTS.md", false));
        assert!(!ignored(&stack, "src/AGENTS.md", false));
    }
}
