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
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::discover::fast_hash::HashMap;
use crate::discover::{lock, Files};

/// [`asked`] for the files of one load, each folder's look into its parent's listing
/// remembered: a team's spellings step through the same few folders.
#[derive(Default)]
pub struct Spellings(Mutex<HashMap<OsString, bool>>);

impl Spellings {
    /// [`asked`], remembering which folders are plain.
    pub fn asked<'p>(&self, files: Files, path: &'p Path) -> Cow<'p, Path> {
        lexical_if_same(path, |folder| {
            if let Some(&plain) = lock(&self.0).get(folder.as_os_str()) {
                return plain;
            }
            let plain = is_plain_folder(files, folder);
            lock(&self.0).insert(folder.as_os_str().to_owned(), plain);
            plain
        })
    }
}

/// The path the file system is asked about for `path`: `path` itself, or the same
/// file with its `..` parts taken lexically.
pub fn asked<'p>(files: Files, path: &'p Path) -> Cow<'p, Path> {
    lexical_if_same(path, |folder| is_plain_folder(files, folder))
}

/// `path` with its `..` parts taken lexically when each steps out of a folder that
/// `plain_folder` says is plain, else `path` as written. On bytes: a load asks this
/// of every spelling it meets.
fn lexical_if_same<'p>(path: &'p Path, mut plain_folder: impl FnMut(&Path) -> bool) -> Cow<'p, Path> {
    // Other systems take `..` in their own way; a name that is not UTF-8 is rare.
    let (true, Some(text)) = (cfg!(unix) && has_parent_part(path), path.to_str()) else { return Cow::Borrowed(path) };
    let absolute = text.starts_with('/');
    // The parts kept so far, each after a `/` when the path is absolute. Split as
    // bytes: `str::split` searches each short part with `memchr`, which cost more
    // than the rest of the work.
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    for part in text.as_bytes().split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                // A folder to step out of, below another one (or the root).
                let cut = match out.iter().rposition(|&b| b == b'/') {
                    Some(cut) if absolute || cut > 0 => cut,
                    _ => return Cow::Borrowed(path),
                };
                let plain = std::str::from_utf8(&out).is_ok_and(|folder| plain_folder(Path::new(folder)));
                if !plain {
                    return Cow::Borrowed(path);
                }
                out.truncate(cut);
            }
            name => {
                if absolute || !out.is_empty() {
                    out.push(b'/');
                }
                out.extend_from_slice(name);
            }
        }
    }
    if out.is_empty() {
        out.push(if absolute { b'/' } else { b'.' });
    }
    // Whole parts of a UTF-8 text joined by `/`: always UTF-8.
    String::from_utf8(out).map_or(Cow::Borrowed(path), |lexical| Cow::Owned(PathBuf::from(lexical)))
}

/// Whether a part of `path` is `..`, on bytes: most paths have none. A path ending
/// in `/` (which only a folder satisfies) is kept as written.
fn has_parent_part(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    !bytes.ends_with(b"/") && bytes.split(|&b| b == b'/').any(|part| part == b"..")
}

/// `path` is listed in its folder as a folder that is not a symlink. Not noted: what
/// the written path notes is noted on its lexical form too, which this look into the
/// listing does not add to.
fn is_plain_folder(files: Files, path: &Path) -> bool {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else { return false };
    let listing = files.unrecorded().list_dir(folder);
    let (Ok(Some(entries)), Some(wanted)) = (listing, name.to_str()) else { return false };
    match entries.binary_search_by(|e| e.cmp_name(wanted)) {
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
        let spellings = Spellings::default();
        for _ in 0..2 {
            let asked_in_folder = spellings.asked(files, &root.join("team/lead/../coder/a.yaml")).into_owned();
            assert_eq!(asked_in_folder, root.join("team/coder/a.yaml"));
            let written = root.join("team/missing/../coder/a.yaml");
            assert_eq!(spellings.asked(files, &written), written);
        }
        assert_eq!(asked_as("team/lead/a.yaml"), root.join("team/lead/a.yaml"));
        assert_eq!(asked_as("team/..x/a.yaml"), root.join("team/..x/a.yaml"));
        // A missing folder, a file, or a symlink: `..` is not where it reads.
        assert_eq!(asked_as("team/missing/../lead/a.yaml"), root.join("team/missing/../lead/a.yaml"));
        #[cfg(unix)]
        assert_eq!(asked_as("team/linked/../lead/a.yaml"), root.join("team/linked/../lead/a.yaml"));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
