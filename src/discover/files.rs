//! [`Files`]: how frameworks ask the file system anything. Each question is answered
//! by the shared [`FileCache`] and noted in the recorder of the computation asking,
//! so the live loader knows what each result depends on.
//!
//! Two verbs read: [`Files::read`] (the bytes) and [`Files::parse`] (what a function
//! makes of them, kept per version of the file), each told by a [`Hold`] how long the
//! bytes stay. The rest are questions about paths (kinds, listings, resolved paths)
//! and memoized computations.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::observe::{Asked, Observed, Recorder};
use super::{DirEntry, FileCache, Hold, Kind, ParseKey, ReadError};

/// The file cache seen through one computation's recorder. Cheap to copy.
#[derive(Clone, Copy)]
pub struct Files<'a> {
    cache: &'a FileCache,
    recorder: Option<&'a Recorder>,
}

impl<'a> Files<'a> {
    /// Questions asked through the handle are noted in `recorder` (if any).
    pub fn new(cache: &'a FileCache, recorder: Option<&'a Recorder>) -> Self {
        Files { cache, recorder }
    }

    fn note(&self, asked: Asked, path: &Path) {
        if let Some(r) = self.recorder {
            r.note(asked, path);
        }
    }

    /// The file's bytes, following symlinks, held as `hold` says.
    pub fn read(&self, path: &Path, hold: Hold) -> Result<Arc<[u8]>, ReadError> {
        self.note(Asked::Read, path);
        self.cache.read(path, hold)
    }

    /// What `parse` makes of the file's bytes, made once per version of the file and
    /// `key` (a context key, [`super::context_key`], or a [`ParseKey::look`]); `hold`
    /// says how long the bytes read stay held for a later read of the file.
    pub fn parse<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        hold: Hold,
        key: impl Into<ParseKey>,
        parse: impl FnOnce(&[u8]) -> T,
    ) -> Result<Arc<T>, ReadError> {
        self.note(Asked::Read, path);
        self.cache.parse(path, hold, key, parse)
    }

    /// Lets go of bytes read with [`Hold::ForPass`] before the pass ends, once the
    /// last of its readers is done with them. Not a question, so nothing is noted.
    pub fn release_for_pass(&self, path: &Path) {
        self.cache.release_for_pass(path);
    }

    /// Counts a parse made inside a [`ParseKey::look`] that turned out to parse a
    /// definition (the load then reuses it).
    pub fn count_parse(&self) {
        self.cache.count_parse();
    }

    /// What `path` is, following symlinks.
    pub fn kind(&self, path: &Path) -> Kind {
        self.note(Asked::Stat, path);
        self.cache.kind(path)
    }

    /// `std::fs::metadata`, asked of the system every time (for callers that need
    /// the error's kind), and noted like [`Files::kind`].
    pub fn metadata(&self, path: &Path) -> io::Result<std::fs::Metadata> {
        self.note(Asked::Stat, path);
        std::fs::metadata(path)
    }

    /// Python's `Path.exists()`: follows symlinks, false on any error.
    pub fn exists(&self, path: &Path) -> bool {
        self.kind(path) != Kind::Missing
    }

    /// Python's `Path.is_file()`.
    pub fn is_file(&self, path: &Path) -> bool {
        self.kind(path) == Kind::File
    }

    /// The folder's entries in Python's sorted order (`discover::list_dir`).
    pub fn list_dir(&self, dir: &Path) -> io::Result<Option<Arc<[DirEntry]>>> {
        self.note(Asked::List, dir);
        self.cache.list_dir(dir)
    }

    /// `std::fs::canonicalize`; `None` when it fails.
    pub fn canonicalize(&self, path: &Path) -> Option<PathBuf> {
        self.canonicalize_or_os_error(path).ok()
    }

    /// `std::fs::canonicalize`, with the raw OS error when it fails.
    pub fn canonicalize_or_os_error(&self, path: &Path) -> Result<PathBuf, Option<i32>> {
        self.note(Asked::Resolve, path);
        let resolved = self.cache.canonicalize(path);
        if let Ok(r) = &resolved {
            self.note(Asked::Resolve, r);
        }
        resolved
    }

    /// `compute`'s result, reused across loads while no file-system answer it saw can
    /// have changed. `key` (with the type `T`) must capture every other input: use
    /// [`super::context_key`] over the load's context key and the computation's own
    /// arguments. Whatever `compute` asks must go through the handle it is given.
    pub fn memo<T: Send + Sync + 'static>(&self, key: u64, compute: impl FnOnce(Files<'_>) -> T) -> Arc<T> {
        self.cache.memo(self.recorder, key, false, compute)
    }

    /// Runs `compute` with a recorder of its own and returns what it observed too,
    /// already added to this handle's recorder. For caches shared by several
    /// memoized computations within one load: a computation that reuses the cached
    /// value adds the observations with [`Files::include`], so it still knows what
    /// the value depends on.
    pub fn capture<T>(&self, compute: impl FnOnce(Files<'_>) -> T) -> (T, Arc<Observed>) {
        let recorder = Recorder::default();
        let value = compute(Files::new(self.cache, Some(&recorder)));
        let observed = Arc::new(recorder.finish(self.cache.path_table()));
        self.include(observed.clone());
        (value, observed)
    }

    /// Adds what a reused value observed (see [`Files::capture`]).
    pub fn include(&self, observed: Arc<Observed>) {
        if let Some(r) = self.recorder {
            r.include(observed);
        }
    }

    /// [`Files::memo`] for the resolution of one definition: counted in the load's
    /// statistics ("3 definitions re-resolved").
    pub fn definition<T: Send + Sync + 'static>(&self, key: u64, compute: impl FnOnce(Files<'_>) -> T) -> Arc<T> {
        self.cache.memo(self.recorder, key, true, compute)
    }

    /// The same cache, noting nothing: the one door for work done ahead of the
    /// questions that record it (Kimi's look-ahead parses and resolves on worker
    /// threads what its load then asks again through a recording handle, and finds
    /// made), and for asking again what a recorded observation already covers.
    /// A result made only through it must not be memoized: nothing says when it
    /// goes stale.
    pub fn unrecorded(&self) -> Files<'a> {
        Files::new(self.cache, None)
    }

    /// Whether this pass trusts what it holds ([`FileCache::trusting`]): its memos are
    /// mostly reused, so work done ahead of asking for them is mostly wasted.
    pub fn trusting(&self) -> bool {
        self.cache.trusting()
    }
}
