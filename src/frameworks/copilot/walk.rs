//! One folder tree as Copilot CLI 1.0.102 walks it: recursively, names starting
//! with `.` left out (files and folders), only names ending in lower-case `.md`,
//! symlinks followed for files and folders, a folder link back to one of its own
//! ancestors not walked again, a link to nothing ignored without a word.

use std::path::{Path, PathBuf};

use crate::discover;
use crate::frameworks::LoadContext;

/// More entries than this in one tree stop the walk (a diagnostic says so): a
/// hostile tree of links to sibling folders would otherwise grow without bound.
pub const MAX_ENTRIES: usize = 200_000;

/// An `.md` file found in a tree.
#[derive(Clone, Debug)]
pub struct Found {
    /// The path relative to the tree, `/`-separated, as walked (through links).
    pub rel: String,
    /// The path as walked (not resolved).
    pub path: PathBuf,
    /// The name, or a folder on the way, starts with `.`: the CLI never lists it.
    pub hidden: bool,
    /// Where it resolves to; `None` for a link to nothing, or not a regular file.
    pub real: Option<PathBuf>,
    /// The entry itself is a symlink.
    pub link: bool,
}

/// What walking one tree gave: its `.md` files in walk order (each folder's
/// entries in listing order, depth first), and what went wrong on the way.
#[derive(Default)]
pub struct Walk {
    pub files: Vec<Found>,
    /// Folders that could not be listed, with the error.
    pub unlisted: Vec<(PathBuf, String)>,
    /// Folder links not walked because they lead back to an ancestor.
    pub loops: Vec<PathBuf>,
    /// Names the CLI ignores that look meant as agents (`x.MD`, `x.markdown`).
    pub near_misses: Vec<PathBuf>,
    /// The walk stopped at [`MAX_ENTRIES`].
    pub truncated: bool,
}

/// The agent ID of a relative path: without a lower-case `.agent.md` or `.md`,
/// `/` replaced by `--`.
pub fn agent_id(rel: &str) -> String {
    let stem = rel.strip_suffix(".agent.md").or_else(|| rel.strip_suffix(".md")).unwrap_or(rel);
    stem.replace('/', "--")
}

/// Walks the tree at `root` (nothing when it is not a folder).
pub fn walk(cx: &LoadContext, root: &Path) -> Walk {
    let mut out = Walk::default();
    if cx.files.kind(root) != crate::discover::Kind::Dir {
        return out;
    }
    let root_real = cx.files.canonicalize(root).unwrap_or_else(|| root.to_path_buf());
    // Depth first, each folder's entries in listing order, a sub-folder walked
    // where it comes in its folder's listing: a stack of folders being listed.
    struct Frame {
        entries: Vec<discover::DirEntry>,
        next: usize,
        rel: String,
        hidden: bool,
        ancestors: Vec<PathBuf>,
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut seen = 0usize;
    let open = |dir: &Path, rel: String, hidden: bool, ancestors: Vec<PathBuf>, out: &mut Walk| -> Option<Frame> {
        match cx.files.list_dir(dir) {
            Ok(Some(entries)) => {
                let entries = discover::in_listing_order(&entries, cx.roots.listing).into_iter().cloned().collect();
                Some(Frame { entries, next: 0, rel, hidden, ancestors })
            }
            Ok(None) => None,
            Err(e) => {
                out.unlisted.push((dir.to_path_buf(), e.to_string()));
                None
            }
        }
    };
    stack.extend(open(root, String::new(), false, vec![root_real], &mut out));
    while let Some(frame) = stack.last_mut() {
        let Some(entry) = frame.entries.get(frame.next).cloned() else {
            stack.pop();
            continue;
        };
        frame.next += 1;
        seen += 1;
        if seen > MAX_ENTRIES {
            out.truncated = true;
            break;
        }
        let name = entry.name();
        let rel = format!("{}{}", frame.rel, name);
        let hidden = frame.hidden || name.starts_with('.');
        if entry.is_dir {
            let real = cx.files.canonicalize(&entry.path).unwrap_or_else(|| entry.path.to_path_buf());
            if entry.is_symlink && frame.ancestors.iter().any(|a| a.starts_with(&real)) {
                out.loops.push(entry.path.to_path_buf());
                continue;
            }
            let mut ancestors = frame.ancestors.clone();
            ancestors.push(real);
            let child = open(&entry.path, format!("{rel}/"), hidden, ancestors, &mut out);
            stack.extend(child);
        } else if name.ends_with(".md") {
            let real = if entry.is_file { cx.files.canonicalize(&entry.path) } else { None };
            out.files.push(Found { rel, path: entry.path.to_path_buf(), hidden, real, link: entry.is_symlink });
        } else if !hidden && looks_like_markdown(&name) {
            out.near_misses.push(entry.path.to_path_buf());
        }
    }
    out
}

/// A name that is Markdown by another spelling: the CLI reads only `.md`.
fn looks_like_markdown(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}

#[cfg(test)]
mod tests {
    use super::agent_id;

    #[test]
    fn ids_come_from_relative_paths() {
        assert_eq!(agent_id("team/lint.agent.md"), "team--lint");
        assert_eq!(agent_id("b.Agent.md"), "b.Agent");
        assert_eq!(agent_id("g.chatmode.md"), "g.chatmode");
        assert_eq!(agent_id("v1.2.agent.md"), "v1.2");
        assert_eq!(agent_id("README.md"), "README");
    }
}
