//! The files a view looks at beyond the catalog: files named like a name, in the
//! project and in the user folders the frameworks declare. Bounded (depth, count)
//! and never following a symlinked folder, so a hostile tree cannot stall a view.

use std::path::{Path, PathBuf};

use super::places::fold;
use super::why::stem;
use crate::model::{normalize, Place, Roots};

const MAX_DEPTH: usize = 8;
const MAX_ENTRIES: usize = 50_000;
/// Folders no agent tool reads and that can be huge.
const PRUNED: &[&str] = &[".git", "node_modules", "target", ".venv", "venv", "__pycache__", ".cache"];

/// Files whose stem equals `name` once case and separators are folded, below the
/// project and below the parent folder of each place outside it (under home).
pub fn files_named_like<'a>(roots: &Roots, places: impl Iterator<Item = &'a Place>, name: &str) -> Vec<PathBuf> {
    let want = fold(name);
    let project = normalize(&roots.project);
    let home = normalize(&roots.home);
    let mut tops = vec![project.clone()];
    for loc in places {
        let dir = normalize(&loc.dir);
        if dir.starts_with(&project) {
            continue;
        }
        // `~/.claude/agents` is searched from `~/.claude` (a sibling folder is a near
        // miss), never from home itself; other places from themselves.
        let top = match dir.parent() {
            Some(parent) if dir.starts_with(&home) && parent != home => parent.to_path_buf(),
            _ => dir,
        };
        if !tops.iter().any(|t| top.starts_with(t)) {
            tops.retain(|t| !t.starts_with(&top));
            tops.push(top);
        }
    }
    let mut out = Vec::new();
    let mut budget = MAX_ENTRIES;
    for top in &tops {
        visit(top, 0, &want, &mut out, &mut budget);
    }
    out.sort();
    out.dedup();
    out
}

fn visit(dir: &Path, depth: usize, want: &str, out: &mut Vec<PathBuf>, budget: &mut usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            let skip = PRUNED.iter().any(|p| entry.file_name() == *p);
            if !skip && depth < MAX_DEPTH {
                visit(&path, depth + 1, want, out, budget);
            }
        } else if stem(&path).is_some_and(|s| fold(&s) == want) {
            out.push(path);
        }
    }
}
