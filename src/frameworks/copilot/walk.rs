//! One folder tree as Copilot CLI 1.0.102 walks it: recursively, names starting
//! with `.` left out (files and folders), only names ending in lower-case `.md`,
//! symlinks followed for files and folders, a folder link back to one of its own
//! ancestors not walked again, a link to nothing ignored without a word.

use std::path::PathBuf;

use crate::discover::walk::{self as walker, Skip, Visit};
use crate::frameworks::LoadContext;
use crate::model::{Place, Walking};

/// How the CLI walks a tree: depth first in listing order, nothing left out, folder
/// links followed but not back up to an ancestor.
pub const WALKING: Walking = Walking::to_depth(None);

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
    /// The walk stopped at the place's folder budget ([`Walking::max_folders`]).
    pub truncated: bool,
}

/// The agent ID of a relative path: without a lower-case `.agent.md` or `.md`,
/// `/` replaced by `--`.
pub fn agent_id(rel: &str) -> String {
    let stem = rel.strip_suffix(".agent.md").or_else(|| rel.strip_suffix(".md")).unwrap_or(rel);
    stem.replace('/', "--")
}

/// Walks the place's tree (nothing when it is not a folder).
pub fn walk(cx: &LoadContext, place: &Place) -> Walk {
    let mut out = Walk::default();
    walker::walk(cx.files, &place.dir, &place.reach.walk, cx.roots.listing, (), |visit| {
        match visit {
            Visit::Folder(..) => return Some(()),
            Visit::File(v) if v.name.ends_with(".md") => {
                let e = v.entry;
                let real = if e.is_file { cx.files.canonicalize(&e.path) } else { None };
                out.files.push(Found { rel: v.rel(), path: e.path.to_path_buf(), hidden: v.hidden, real, link: e.is_symlink });
            }
            Visit::File(v) if !v.hidden && looks_like_markdown(v.name) => out.near_misses.push(v.entry.path.to_path_buf()),
            Visit::Skipped(v, Skip::Loop) => out.loops.push(v.entry.path.to_path_buf()),
            Visit::Skipped(_, Skip::Budget) => out.truncated = true,
            Visit::Unlisted(dir, e) => out.unlisted.push((dir.to_path_buf(), e.to_string())),
            Visit::File(_) | Visit::Skipped(..) => {}
        }
        None
    });
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
