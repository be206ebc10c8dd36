//! `realpath` answers remembered for one load pass: frameworks canonicalize every
//! card, agent and root (often several times per file), and the C library's
//! `realpath` issues one `readlink` per path component each time. Here a path costs one
//! `lstat` of its last component once its folder is known, and nothing when asked again
//! (the file cache keeps the answers to what is asked; this memo, its folders').

use crate::discover::fast_hash::HashMap;
use crate::discover::lock;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use super::path_key::{key_bytes, PathKey};

/// An `io::Error` kept in a form that can be handed out again (the OS error number is
/// what callers look at, e.g. `ELOOP`).
#[derive(Clone)]
enum Failure {
    Os(i32),
    Kind(io::ErrorKind, String),
}

impl Failure {
    fn of(e: &io::Error) -> Self {
        match e.raw_os_error() {
            Some(code) => Failure::Os(code),
            None => Failure::Kind(e.kind(), e.to_string()),
        }
    }

    fn to_io(&self) -> io::Error {
        match self {
            Failure::Os(code) => io::Error::from_raw_os_error(*code),
            Failure::Kind(kind, message) => io::Error::new(*kind, message.clone()),
        }
    }
}

/// `ENOTDIR`, as `realpath` reports `file/..`.
const ENOTDIR: i32 = 20;

/// Tells, when it can without a system call, that a resolved path is listed in its
/// folder and is not a symlink (the pass's listings of the folders walked).
pub(super) type Listed<'a> = &'a dyn Fn(&Path) -> bool;

/// Canonical paths of the folders walked, valid until [`CanonicalMemo::clear`].
#[derive(Default)]
pub(super) struct CanonicalMemo {
    /// By folder: `None` when it resolves to itself, as nearly every folder does.
    /// Only folders (and the steps of paths with `..`) are remembered: a path is
    /// asked for through [`super::FileCache::canonicalize`], which keeps its answer,
    /// so remembering it here too would only double the pass's largest memo.
    known: Mutex<HashMap<PathKey, Result<Option<PathBuf>, Failure>>>,
    /// Whether each resolved path a `..` went up from is a folder: Kimi's chains go
    /// up from the same few folders thousands of times.
    folders: Mutex<HashMap<PathKey, Result<bool, Failure>>>,
}

impl CanonicalMemo {
    /// What `std::fs::canonicalize(path)` returns; `listed` spares the `lstat` of
    /// each part it knows.
    pub(super) fn canonicalize(&self, path: &Path, listed: Listed) -> io::Result<PathBuf> {
        // Only absolute paths of names and `..` go step by step (`..` applied to what
        // the path resolved to so far, after any symlink) and have their folders
        // remembered: a trailing slash (which requires a folder) is invisible to
        // `Path` equality, so the memo would mix `a.md/` up with `a.md`. Those and
        // relative paths go to the OS.
        let stepwise = path.is_absolute()
            && !path.as_os_str().as_encoded_bytes().ends_with(b"/")
            && path.components().all(|c| matches!(c, Component::RootDir | Component::Normal(_) | Component::ParentDir));
        if !stepwise {
            return std::fs::canonicalize(path);
        }
        if path.components().any(|c| c == Component::ParentDir) {
            self.resolve_dotted(path, listed)
        } else {
            self.resolve(path, listed)
        }
    }

    /// Forgets every answer (a new pass may see a changed tree), and the room they
    /// took: the memo is empty between passes, when the live loader waits.
    pub(super) fn clear(&self) {
        *self.lock() = HashMap::default();
        *lock(&self.folders) = HashMap::default();
    }

    /// [`CanonicalMemo::canonicalize`] of a plain absolute path (no `..`), remembered.
    fn remembered(&self, path: &Path, listed: Listed) -> io::Result<PathBuf> {
        // A folder that resolves to itself is its key, in the form the OS gives back
        // (`/a//b` is asked under the key of `/a/b`, and resolves to it).
        if let Some((folder, known)) = self.lock().get_key_value(key_bytes(path).as_ref()) {
            return match known {
                Ok(real) => Ok(real.clone().unwrap_or_else(|| folder.as_path().to_path_buf())),
                Err(f) => Err(f.to_io()),
            };
        }
        let found = self.resolve(path, listed);
        let kept = match &found {
            // Bytes, not `Path` equality: `/a//b` equals `/a/b` but is not its key.
            Ok(real) => Ok((real.as_os_str() != path.as_os_str()).then(|| real.clone())),
            Err(e) => Err(Failure::of(e)),
        };
        self.lock().insert(PathKey::new(path), kept);
        found
    }

    /// Whether the resolved path `real` is a folder, asked once.
    fn is_dir(&self, real: &Path) -> io::Result<bool> {
        if let Some(known) = lock(&self.folders).get(key_bytes(real).as_ref()) {
            return known.clone().map_err(|f| f.to_io());
        }
        let found = std::fs::metadata(real).map(|m| m.is_dir());
        lock(&self.folders).insert(PathKey::new(real), found.as_ref().map(|d| *d).map_err(Failure::of));
        found
    }

    /// A plain absolute path: its folder's answer plus one `lstat`.
    fn resolve(&self, path: &Path, listed: Listed) -> io::Result<PathBuf> {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return std::fs::canonicalize(path);
        };
        let real = self.remembered(parent, listed)?.join(name);
        if listed(&real) {
            return Ok(real);
        }
        if std::fs::symlink_metadata(&real)?.file_type().is_symlink() {
            return std::fs::canonicalize(&real);
        }
        Ok(real)
    }

    /// An absolute path with `..` parts (Kimi's `extend: ../base.yaml`): each part in
    /// turn, as `realpath` does it: a name is resolved (through the memo), `..` goes
    /// up from what the path resolved to so far, which must be a folder.
    fn resolve_dotted(&self, path: &Path, listed: Listed) -> io::Result<PathBuf> {
        let mut real = PathBuf::from("/");
        for part in path.components() {
            match part {
                Component::RootDir => {}
                Component::Normal(name) => real = self.remembered(&real.join(name), listed)?,
                Component::ParentDir => {
                    if !self.is_dir(&real)? {
                        return Err(io::Error::from_raw_os_error(ENOTDIR));
                    }
                    real.pop();
                }
                _ => return std::fs::canonicalize(path),
            }
        }
        Ok(real)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathKey, Result<Option<PathBuf>, Failure>>> {
        lock(&self.known)
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_the_os_does() {
        let dir = std::env::temp_dir().join(format!("agentry-canon-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("real/sub")).unwrap();
        std::fs::write(dir.join("real/sub/a.md"), "x").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("real"), dir.join("link")).unwrap();
            std::os::unix::fs::symlink("a.md", dir.join("real/sub/rel.md")).unwrap();
            std::os::unix::fs::symlink(dir.join("loop1"), dir.join("loop2")).unwrap();
            std::os::unix::fs::symlink(dir.join("loop2"), dir.join("loop1")).unwrap();
        }
        let memo = CanonicalMemo::default();
        let asked = [
            "real/sub/a.md",
            "real//sub/a.md",
            "link/sub//../sub//a.md",
            "link/sub/a.md",
            "link/sub/rel.md",
            "link/sub/../sub/a.md",
            "real/sub/../sub/a.md",
            "real/../link/sub/rel.md",
            "real/sub/a.md/../a.md",
            "real/missing/../sub/a.md",
            "loop1/../real",
            "link/sub/../../real/sub/a.md",
            "real/../../..",
            "real/sub/a.md/",
            "real/sub/a.md/x",
            "real/missing/a.md",
            "loop1/a.md",
            "link",
            "link/",
        ];
        // Told nothing, or told of every part that is there and no symlink (as a
        // folder's listing tells it).
        let listed_memo = CanonicalMemo::default();
        let listed = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| !m.file_type().is_symlink());
        for _round in 0..2 {
            for rel in asked {
                let path = dir.join(rel);
                // Compared as bytes: `Path` equality takes `a//b` for `a/b`.
                let answer = |r: io::Result<PathBuf>| r.map(PathBuf::into_os_string).map_err(|e| e.raw_os_error());
                let os = answer(std::fs::canonicalize(&path));
                let ours = answer(memo.canonicalize(&path, &|_| false));
                assert_eq!(ours, os, "{rel}");
                let ours = answer(listed_memo.canonicalize(&path, &listed));
                assert_eq!(ours, os, "{rel}, told what is listed");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
