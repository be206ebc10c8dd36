//! The spelling a file is asked for. Kimi joins `extend` and subagent paths to the
//! folder of the file naming them, as written, so the files of a team reach each
//! other as `lead/../planner/../lead/agent.yaml`, a new spelling at each step, and
//! every spelling is a file-cache entry of its own (a `stat`, a read, a parse, and a
//! `realpath` walking each `..`). The spelling stays what the report shows; the
//! file system is asked under the lexical form when that names the same file.
//!
//! `P/name/..` is `P` when `P/name` is a folder and not a symlink (the kernel steps
//! into it and back out), which `P`'s listing tells without a system call; any other
//! `..` keeps the path as written. Observations are noted on paths made lexical
//! (`observe::clean`), so asking under the lexical form notes what asking under the
//! written one does.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use crate::discover::Files;

/// The path the file system is asked about for `path`: `path` itself, or the same
/// file with its `..` parts taken lexically.
pub fn asked<'p>(files: Files, path: &'p Path) -> Cow<'p, Path> {
    if !has_parent_part(path) {
        return Cow::Borrowed(path);
    }
    // Not noted: what the written path notes is noted on its lexical form too, which
    // the look into these listings does not add to.
    let listings = files.cache().untracked();
    let mut out = PathBuf::with_capacity(path.as_os_str().len());
    for part in path.components() {
        if part == Component::ParentDir {
            let stepped_into = match (out.parent(), out.file_name()) {
                (Some(folder), Some(name)) if !folder.as_os_str().is_empty() => is_plain_folder(listings, folder, name),
                _ => false,
            };
            if !stepped_into {
                return Cow::Borrowed(path);
            }
            out.pop();
        } else {
            out.push(part);
        }
    }
    Cow::Owned(out)
}

/// Whether a part of `path` is `..`, on bytes: most paths have none.
fn has_parent_part(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    memchr::memmem::find_iter(bytes, b"..").any(|at| {
        (at == 0 || bytes[at - 1] == b'/') && bytes.get(at + 2).is_none_or(|&b| b == b'/')
    })
}

/// `folder/name` is listed in `folder` as a folder that is not a symlink.
fn is_plain_folder(files: Files, folder: &Path, name: &std::ffi::OsStr) -> bool {
    let (Ok(Some(entries)), Some(wanted)) = (files.list_dir(folder), name.to_str()) else { return false };
    match entries.binary_search_by(|e| e.name.as_str().cmp(wanted)) {
        // Listed names are lossy: a name that only reads the same is not it.
        Ok(i) => {
            let e = &entries[i];
            e.path.file_name() == Some(name) && e.is_dir && !e.is_symlink
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_parts_are_taken_lexically_only_through_plain_folders() {
        let root = std::env::temp_dir().join(format!("agentry-kimi-physical-{}", std::process::id()));
        std::fs::create_dir_all(root.join("team/lead")).unwrap();
        std::fs::create_dir_all(root.join("team/coder")).unwrap();
        std::fs::create_dir_all(root.join("elsewhere/deep")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("elsewhere/deep"), root.join("team/linked")).unwrap();
        let cache = crate::discover::FileCache::new();
        let files = cache.untracked();
        let asked_as = |rel: &str| asked(files, &root.join(rel)).into_owned();

        assert_eq!(asked_as("team/lead/../coder/../lead/a.yaml"), root.join("team/lead/a.yaml"));
        assert_eq!(asked_as("team/lead/a.yaml"), root.join("team/lead/a.yaml"));
        assert_eq!(asked_as("team/..x/a.yaml"), root.join("team/..x/a.yaml"));
        // A missing folder, a file, or a symlink: `..` is not where it reads.
        assert_eq!(asked_as("team/missing/../lead/a.yaml"), root.join("team/missing/../lead/a.yaml"));
        #[cfg(unix)]
        assert_eq!(asked_as("team/linked/../lead/a.yaml"), root.join("team/linked/../lead/a.yaml"));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
