//! [`Files`]: how frameworks ask the file system anything. Each question is answered
//! by the shared [`FileCache`] and noted in the recorder of the computation asking,
//! so the live loader knows what each result depends on.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::observe::{Asked, Observed, Recorder};
use super::cache::Hold;
use super::{DirEntry, FileCache, Kind, ReadError};

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

    pub fn cache(&self) -> &'a FileCache {
        self.cache
    }

    fn note(&self, asked: Asked, path: &Path) {
        if let Some(r) = self.recorder {
            r.note(asked, path);
        }
    }

    /// The file's bytes, following symlinks.
    pub fn read(&self, path: &Path) -> Result<Arc<[u8]>, ReadError> {
        self.note(Asked::Read, path);
        self.cache.read(path)
    }

    /// [`FileCache::read_for_pass`]: the file's bytes, held for the pass.
    pub fn read_for_pass(&self, path: &Path) -> Result<Arc<[u8]>, ReadError> {
        self.note(Asked::Read, path);
        self.cache.read_for_pass(path)
    }

    /// [`FileCache::release_for_pass`]: not a question, so nothing is noted.
    pub fn release_for_pass(&self, path: &Path) {
        self.cache.release_for_pass(path);
    }

    /// [`FileCache::read_unkept`]: the file's bytes, given to `use_bytes` and not held.
    pub fn read_unkept<T>(&self, path: &Path, use_bytes: impl FnOnce(&[u8]) -> T) -> Result<T, ReadError> {
        self.note(Asked::Read, path);
        self.cache.read_unkept(path, use_bytes)
    }

    /// [`FileCache::derived`]: a parse of the file, made once per version of it.
    pub fn derived<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        context: u64,
        derive: impl FnOnce(&[u8]) -> T,
    ) -> Result<Arc<T>, ReadError> {
        self.note(Asked::Read, path);
        self.cache.derived(path, context, derive)
    }

    /// [`Files::derived`] for a quick look that only decides whether the file is a
    /// definition at all: remembered the same way, not counted as a parse.
    pub fn sniffed<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        context: u64,
        sniff: impl FnOnce(&[u8]) -> T,
    ) -> Result<Arc<T>, ReadError> {
        self.look(path, context, Hold::Not, sniff)
    }

    /// [`Files::sniffed`] for a file the load reads in full after the look: its bytes
    /// stay held for the pass ([`Files::release_for_pass`]), so that read does not go
    /// to the disk again.
    pub fn sniffed_before_reading<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        context: u64,
        sniff: impl FnOnce(&[u8]) -> T,
    ) -> Result<Arc<T>, ReadError> {
        self.look(path, context, Hold::ForPass, sniff)
    }

    fn look<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        context: u64,
        hold: Hold,
        sniff: impl FnOnce(&[u8]) -> T,
    ) -> Result<Arc<T>, ReadError> {
        self.note(Asked::Read, path);
        self.cache.derived_counted(path, context, false, hold, sniff)
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

    /// Python's `Path.is_dir()`.
    pub fn is_dir(&self, path: &Path) -> bool {
        self.kind(path) == Kind::Dir
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
}
