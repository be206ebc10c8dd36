//! [`PathKey`]: paths as keys of the file cache's maps, hashed as bytes.
//!
//! The standard library hashes a `Path` component by component, a byte at a time (it
//! must: `a//b`, `a/./b` and `a/b/` equal `a/b`), which was near a tenth of a cold
//! load. A key holds its path in the one form `Path::components` gives back, where
//! equal paths have equal bytes, so it is hashed and compared as bytes; a path asked
//! about is looked up by its bytes as they are whenever they are in that form already
//! (nearly always), without building anything.
//!
//! A key shares its path (`Arc<Path>`), and a [`PathTable`] gives out one key per
//! path: the cache's maps and the observations of every memo name the same few tens
//! of thousands of paths over a hundred thousand times, and each copy of a path was
//! an allocation kept between loads.

use std::borrow::{Borrow, Cow};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A path in the form its components give back (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct PathKey(Arc<Path>);

impl PathKey {
    pub(crate) fn new(path: &Path) -> Self {
        match key_bytes(path) {
            Cow::Borrowed(_) => PathKey(path.into()),
            Cow::Owned(_) => PathKey(rebuilt(path).into()),
        }
    }

    pub(super) fn as_path(&self) -> &Path {
        &self.0
    }

    /// The path, shared.
    pub(super) fn shared(&self) -> &Arc<Path> {
        &self.0
    }

    fn bytes(&self) -> &[u8] {
        self.0.as_os_str().as_encoded_bytes()
    }
}

impl PartialEq for PathKey {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for PathKey {}

impl Hash for PathKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.bytes().hash(state)
    }
}

impl Borrow<[u8]> for PathKey {
    fn borrow(&self) -> &[u8] {
        self.bytes()
    }
}

/// One [`PathKey`] per path for as long as anything holds it (see the module
/// documentation), in the process's table of shared paths
/// ([`crate::store::shared_path`]), so the texts a snapshot keeps on disk name their
/// files with the same allocation.
#[derive(Default)]
pub(crate) struct PathTable;

impl PathTable {
    /// The key of `path`, shared with every other holder of it.
    pub(crate) fn key(&self, path: &Path) -> PathKey {
        self.key_of(path, &key_bytes(path))
    }

    /// [`PathTable::key`] of a path whose [`key_bytes`] are `bytes` (the caller
    /// looked it up by them already).
    pub(crate) fn key_of(&self, path: &Path, bytes: &[u8]) -> PathKey {
        PathKey(crate::store::shared_path_by(bytes, || PathKey::new(path).0))
    }

    /// The key's path for `path`, which must be in key form (see [`in_key_form`]).
    pub(crate) fn shared(&self, path: PathBuf) -> Arc<Path> {
        let bytes = path.as_os_str().as_encoded_bytes();
        debug_assert!(in_key_form(bytes), "{path:?}");
        crate::store::shared_path_by(bytes, || path.as_path().into())
    }

    /// [`PathTable::key`] of a path made [`super::observe::clean`], which is in key
    /// form on Unix: a load interns every path each computation observed.
    pub(crate) fn key_of_clean(&self, path: &Path) -> PathKey {
        let bytes = path.as_os_str().as_encoded_bytes();
        if cfg!(unix) {
            debug_assert!(in_key_form(bytes), "{path:?}");
            self.key_of(path, bytes)
        } else {
            self.key(path)
        }
    }

    /// Forgets the paths nothing else holds any more.
    pub(crate) fn prune(&self) {
        crate::store::prune_shared_paths();
    }
}

/// What a map keyed by [`PathKey`] is asked with for `path`: its bytes when they are
/// in key form, else those of the path rebuilt from its components.
pub(crate) fn key_bytes(path: &Path) -> Cow<'_, [u8]> {
    let bytes = path.as_os_str().as_encoded_bytes();
    if in_key_form(bytes) {
        Cow::Borrowed(bytes)
    } else {
        Cow::Owned(rebuilt(path).into_os_string().into_encoded_bytes())
    }
}

fn rebuilt(path: &Path) -> PathBuf {
    path.components().collect()
}

/// Whether `components().collect()` gives `bytes` back unchanged: on Unix, no empty
/// part (`//`), no `.` part but a leading one, no trailing separator. Elsewhere
/// (prefixes, two separators) paths are always rebuilt.
pub(super) fn in_key_form(bytes: &[u8]) -> bool {
    if !cfg!(unix) {
        return false;
    }
    memchr::memchr_iter(b'/', bytes).all(|i| match bytes.get(i + 1) {
        None => i == 0,
        Some(b'/') => false,
        Some(b'.') => !matches!(bytes.get(i + 2), None | Some(b'/')),
        Some(_) => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths equal as `Path`s have equal keys, and the bytes of a path in key form are
    /// taken as they are.
    #[test]
    fn keys_agree_with_path_equality() {
        let paths = [
            "", ".", "./", "./a", "a", "a/", "a//b", "a/./b", "a/b/.", "a/b/./", "/", "//", "/.", "/a", "//a",
            "/a/", "/a/..", "/a/../b", "../a", "a/.b", "a/..b", "a/.../b", ".a", "/a/b.md", "a/.", "./.", "/./a",
        ];
        for a in paths {
            let key = PathKey::new(Path::new(a));
            assert_eq!(key.as_path(), Path::new(a), "{a:?}");
            assert_eq!(key.bytes(), &*key_bytes(Path::new(a)), "{a:?}");
            assert_eq!(in_key_form(a.as_bytes()), key.bytes() == a.as_bytes(), "{a:?}");
            for b in paths {
                assert_eq!(Path::new(a) == Path::new(b), key == PathKey::new(Path::new(b)), "{a:?} {b:?}");
            }
        }
    }

    /// Equal paths, however spelled, get one shared key, kept while someone holds it.
    #[test]
    fn a_table_shares_one_key_per_path() {
        let table = PathTable;
        let held = table.key(Path::new("/a/b"));
        assert!(Arc::ptr_eq(held.shared(), table.key(Path::new("/a//b/")).shared()));
        assert!(Arc::ptr_eq(held.shared(), table.key_of_clean(Path::new("/a/b")).shared()));
        table.prune();
        assert!(Arc::ptr_eq(held.shared(), table.key(Path::new("/a/b")).shared()));
    }
}
