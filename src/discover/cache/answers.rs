//! Answers to the file-system questions other than "what are the bytes": what a
//! path is ([`Kind`]), a folder's listing, where a path resolves to, and where the
//! listed symlinks point (so the watcher sees a change of their targets).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::FileCache;
use crate::discover::fast_hash::HashMap;
use crate::discover::path_key::{key_bytes, PathKey};
use crate::discover::{lock, DirEntry};

/// What a path is, following symlinks (Python's `exists()`, `is_file()`, `is_dir()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Missing, or not reachable (a dangling link, a permission error): Python's
    /// `exists()` is false for all of them.
    Missing,
    File,
    Dir,
    /// A FIFO, a socket, a device.
    Other,
}

type Listing = Result<Option<Arc<[DirEntry]>>, (io::ErrorKind, String)>;

/// Answers to questions other than "what are the bytes".
#[derive(Default)]
pub(super) struct Answers {
    pub(super) kinds: HashMap<PathKey, Kind>,
    pub(super) listings: HashMap<PathKey, Listing>,
    /// `canonicalize`: the path, or the raw OS error (a symlink loop is told apart).
    pub(super) resolved: HashMap<PathKey, Result<PathKey, Option<i32>>>,
}

/// Listed symlinks: where each points, and the folders of those targets.
#[derive(Default)]
pub(super) struct Links {
    pub(super) to: HashMap<PathBuf, PathBuf>,
    pub(super) folders: std::collections::HashSet<PathBuf>,
}

impl FileCache {
    /// What `path` is, following symlinks.
    pub fn kind(&self, path: &Path) -> Kind {
        let bytes = key_bytes(path);
        if let Some(k) = lock(&self.answers).kinds.get(bytes.as_ref()) {
            return *k;
        }
        // Not kept: the listing keeps telling it (a workspace's looks for names in
        // several folders were two hundred thousand kinds, each also keeping its path).
        if let Some(kind) = self.kind_from_listing(path) {
            return kind;
        }
        let kind = match std::fs::metadata(path) {
            Ok(m) if m.is_file() => Kind::File,
            Ok(m) if m.is_dir() => Kind::Dir,
            Ok(_) => Kind::Other,
            Err(_) => Kind::Missing,
        };
        let key = self.paths.key_of(path, &bytes);
        lock(&self.answers).kinds.insert(key, kind);
        kind
    }

    /// The kind of `path` as its folder's listing of this pass already tells it,
    /// without a `stat`: frameworks look for each name in several folders, and most
    /// of those looks find nothing. `None` when the listing cannot tell: no listing
    /// yet, a symlink (its target decides), a name that is not plain, or a file
    /// system whose names may not match byte for byte.
    fn kind_from_listing(&self, path: &Path) -> Option<Kind> {
        Self::listed_kind(&lock(&self.answers), path)
    }

    /// [`FileCache::kind_from_listing`] in `answers`.
    pub(super) fn listed_kind(answers: &Answers, path: &Path) -> Option<Kind> {
        if !cfg!(target_os = "linux") || path.as_os_str().as_encoded_bytes().ends_with(b"/") {
            return None;
        }
        let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else { return None };
        let name = name.to_str().filter(|n| *n != "." && *n != "..")?;
        match answers.listings.get(key_bytes(folder).as_ref())? {
            // Not a folder (missing, a file, a dangling link): nothing is below it.
            Ok(None) => Some(Kind::Missing),
            Ok(Some(entries)) => match entries.binary_search_by(|e| e.cmp_name(name)) {
                Err(_) => Some(Kind::Missing),
                Ok(i) => {
                    let e = &entries[i];
                    // Listed names are lossy: a name that only reads the same is not it.
                    if e.path.file_name() != path.file_name() {
                        return None;
                    }
                    match (e.is_symlink, e.is_dir, e.is_file) {
                        (true, _, _) => None,
                        (false, true, _) => Some(Kind::Dir),
                        (false, false, true) => Some(Kind::File),
                        (false, false, false) => Some(Kind::Other),
                    }
                }
            },
            Err(_) => None,
        }
    }

    /// `discover::list_dir`, remembered.
    pub fn list_dir(&self, dir: &Path) -> io::Result<Option<Arc<[DirEntry]>>> {
        let bytes = key_bytes(dir);
        let cached = lock(&self.answers).listings.get(bytes.as_ref()).cloned();
        let listing = match cached {
            Some(l) => l,
            None => {
                let fresh: Listing = match crate::discover::list_dir(dir, &self.paths) {
                    Ok(entries) => Ok(entries.map(Arc::from)),
                    Err(e) => Err((e.kind(), e.to_string())),
                };
                if let (false, Ok(Some(entries))) = (self.one_load, &fresh) {
                    self.note_links(dir, entries);
                }
                let key = self.paths.key_of(dir, &bytes);
                lock(&self.answers).listings.insert(key, fresh.clone());
                fresh
            }
        };
        listing.map_err(|(kind, message)| io::Error::new(kind, message))
    }

    /// `std::fs::canonicalize`, remembered; the raw OS error when it fails (Python
    /// tells a symlink loop from a missing path).
    pub fn canonicalize(&self, path: &Path) -> Result<PathBuf, Option<i32>> {
        let bytes = key_bytes(path);
        if let Some(r) = lock(&self.answers).resolved.get(bytes.as_ref()) {
            return r.as_ref().map(|real| real.as_path().to_path_buf()).map_err(|e| *e);
        }
        // A part listed in its folder as no symlink resolves to itself: the walks have
        // listed most folders a load resolves paths in.
        let listed = |real: &Path| matches!(self.kind_from_listing(real), Some(Kind::File | Kind::Dir | Kind::Other));
        let resolved = self.canonical.canonicalize(path, &listed).map_err(|e| e.raw_os_error());
        let (key, kept) = (self.paths.key_of(path, &bytes), resolved.as_ref().map(|real| self.paths.key(real)).map_err(|e| *e));
        lock(&self.answers).resolved.insert(key, kept);
        resolved
    }

    /// Remembers where the symlinks of a fresh listing point: only the link's folder
    /// is watched for the link itself, so an edit, rename or removal of its target
    /// (which changes what the link is, and the listing's word on it) must reach the
    /// watcher through the target's folder. A dangling link keeps the place it names,
    /// so its target's return is seen too.
    /// The folder listed counts too when it is a link itself (a tool may list
    /// `.claude/agents` without listing `.claude`).
    fn note_links(&self, dir: &Path, entries: &[DirEntry]) {
        let dir_is_link = std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink());
        let mut fresh = entries.iter().filter(|e| e.is_symlink).map(|e| &*e.path).chain(dir_is_link.then_some(dir)).peekable();
        if fresh.peek().is_none() {
            return;
        }
        let mut links = lock(&self.links);
        for link in fresh {
            if links.to.contains_key(link) {
                continue;
            }
            let target = std::fs::canonicalize(link).ok().or_else(|| {
                let named = std::fs::read_link(link).ok()?;
                Some(crate::discover::observe::clean(&link.parent()?.join(named)))
            });
            let Some(target) = target else { continue };
            if let Some(folder) = target.parent() {
                if links.folders.insert(folder.to_path_buf()) {
                    self.folders_version.fetch_add(1, Ordering::Relaxed);
                }
            }
            links.to.insert(link.to_path_buf(), target);
        }
    }
}
