//! Reading the file system: one shared, read-only [`FileCache`] so that every file is
//! read at most once per load (and, in the live loader, only again when it changed),
//! and folder listings in the order Python's `sorted(Path.iterdir())` gives.

mod canonical;
pub mod site_packages;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Files larger than this are not read; they become an `io` diagnostic. Agent
/// definitions are kilobytes; the bound keeps a stray dump in a watched folder from
/// costing memory and time.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    NotFound,
    IsDir,
    TooLarge(u64),
    Other(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotFound => write!(f, "no such file"),
            ReadError::IsDir => write!(f, "is a directory"),
            ReadError::TooLarge(n) => {
                write!(f, "file too large ({n} bytes; agentry reads at most {MAX_FILE_BYTES} bytes)")
            }
            ReadError::Other(m) => write!(f, "{m}"),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        match e.kind() {
            io::ErrorKind::NotFound => ReadError::NotFound,
            io::ErrorKind::IsADirectory => ReadError::IsDir,
            _ => ReadError::Other(e.to_string()),
        }
    }
}

/// What identifies one version of a file without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

fn stamp(meta: &std::fs::Metadata) -> Stamp {
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(meta);
    #[cfg(not(unix))]
    let inode = 0;
    Stamp { len: meta.len(), modified: meta.modified().ok(), inode }
}

/// A value a framework derived from a file's bytes (its parse), kept with the bytes
/// and dropped with them when the file changes.
type Derived = Arc<dyn Any + Send + Sync>;

struct Entry {
    stamp: Stamp,
    bytes: Arc<[u8]>,
    /// The last pass ([`FileCache::begin_pass`]) that asked for the file.
    pass: u64,
    /// Parses of these bytes, by the deriving type and the caller's context key.
    derived: Vec<((TypeId, u64), Derived)>,
}

/// Bytes of files, read once and shared. Cheap to query again: a cached file is only
/// re-read when its size, modification time or inode changed.
#[derive(Default)]
pub struct FileCache {
    entries: Mutex<HashMap<PathBuf, Entry>>,
    reads: AtomicU64,
    bytes_read: AtomicU64,
    /// Every call of [`FileCache::read`], cached or not: the live loader's progress.
    served: AtomicU64,
    pass: AtomicU64,
    canonical: canonical::CanonicalMemo,
}

impl FileCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The file's bytes, following symlinks.
    pub fn read(&self, path: &Path) -> Result<Arc<[u8]>, ReadError> {
        self.served.fetch_add(1, Ordering::Relaxed);
        let meta = std::fs::metadata(path)?;
        if meta.is_dir() {
            return Err(ReadError::IsDir);
        }
        let now = stamp(&meta);
        let pass = self.pass.load(Ordering::Relaxed);
        if let Some(e) = self.lock().get_mut(path) {
            if e.stamp == now {
                e.pass = pass;
                return Ok(e.bytes.clone());
            }
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(ReadError::TooLarge(meta.len()));
        }
        let bytes: Arc<[u8]> = read_bounded(path, meta.len())?.into();
        self.reads.fetch_add(1, Ordering::Relaxed);
        self.bytes_read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        self.lock().insert(path.to_path_buf(), Entry { stamp: now, bytes: bytes.clone(), pass, derived: Vec::new() });
        Ok(bytes)
    }

    /// What `derive` makes of the file's bytes, computed once per version of the file:
    /// a reload parses only the files that changed. `context` must capture whatever
    /// else the result depends on (a hash of the source key, say); the type `T` keeps
    /// frameworks apart. Read errors are returned as they are and not remembered.
    pub fn derived<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        context: u64,
        derive: impl FnOnce(&[u8]) -> T,
    ) -> Result<Arc<T>, ReadError> {
        let key = (TypeId::of::<T>(), context);
        let bytes = self.read(path)?;
        let cached = self.lock().get(path).filter(|e| Arc::ptr_eq(&e.bytes, &bytes)).and_then(|e| {
            e.derived.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())
        });
        if let Some(v) = cached.and_then(|v| v.downcast::<T>().ok()) {
            return Ok(v);
        }
        let value = Arc::new(derive(&bytes));
        if let Some(e) = self.lock().get_mut(path).filter(|e| Arc::ptr_eq(&e.bytes, &bytes)) {
            e.derived.retain(|(k, _)| *k != key);
            e.derived.push((key, value.clone() as Derived));
        }
        Ok(value)
    }

    /// Forgets a file, so the next read goes to disk.
    pub fn invalidate(&self, path: &Path) {
        self.lock().remove(path);
    }

    /// How many files were read from disk, and how many bytes, since creation.
    pub fn stats(&self) -> (u64, u64) {
        (self.reads.load(Ordering::Relaxed), self.bytes_read.load(Ordering::Relaxed))
    }

    /// How many reads were asked for since creation, served from the cache or not.
    /// A loader counts progress with it while a load runs.
    pub fn served(&self) -> u64 {
        self.served.load(Ordering::Relaxed)
    }

    /// Every file held, i.e. every file some load has read (the live loader watches
    /// their folders: a parent or template outside the searched folders still counts).
    pub fn paths(&self) -> Vec<PathBuf> {
        self.lock().keys().cloned().collect()
    }

    /// Starts a new pass (one load of a cache kept between loads): files read from now
    /// on belong to it, for [`FileCache::retain_pass`].
    pub fn begin_pass(&self) {
        self.pass.fetch_add(1, Ordering::Relaxed);
        self.canonical.clear();
    }

    /// `std::fs::canonicalize`, remembered for the current pass: frameworks resolve
    /// the same roots and folders for every file, and each `realpath` costs a
    /// `readlink` per path component.
    pub fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.canonical.canonicalize(path)
    }

    /// Forgets every file the current pass did not ask for (deleted, renamed or no
    /// longer referenced), so a long-lived cache holds one workspace's files only.
    pub fn retain_pass(&self) {
        let pass = self.pass.load(Ordering::Relaxed);
        self.lock().retain(|_, e| e.pass == pass);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Entry>> {
        // A panic while holding the lock leaves the map consistent (inserts are atomic).
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Reads at most `MAX_FILE_BYTES`: the file may have grown since it was measured, and a
/// FIFO or device never ends. `expected` (the measured size) sizes the buffer so that a
/// file unchanged since costs two `read` calls (the bytes, then end of file), where
/// `read_to_end` would start at 8 KiB and double.
fn read_bounded(path: &Path, expected: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let limit = MAX_FILE_BYTES as usize + 1;
    let mut bytes = vec![0u8; (expected as usize).saturating_add(1).min(limit)];
    let mut filled = 0;
    loop {
        if filled == bytes.len() {
            if filled == limit {
                return Err(ReadError::TooLarge(filled as u64));
            }
            let grown = (filled * 2).clamp(8192, limit);
            bytes.resize(grown, 0);
        }
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// A context key for [`FileCache::derived`] from the text a parse depends on besides
/// the bytes (typically the source key).
pub fn context_key(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// One entry of a folder.
#[derive(Clone, Debug)]
pub struct DirEntry {
    pub name: String,
    pub path: PathBuf,
    /// A folder, following symlinks (Python's `Path.is_dir()`).
    pub is_dir: bool,
}

/// The entries of a folder in Python's `sorted(Path.iterdir())` order (code-point order
/// of the names). `Ok(None)` when the path is not a folder; `Err` when listing fails.
pub fn list_dir(dir: &Path) -> io::Result<Option<Vec<DirEntry>>> {
    if !std::fs::metadata(dir).map(|m| m.is_dir()).unwrap_or(false) {
        return Ok(None);
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let is_dir = std::fs::metadata(&path).map(|m| m.is_dir()).unwrap_or(false);
        out.push(DirEntry { name: entry.file_name().to_string_lossy().into_owned(), path, is_dir });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Some(out))
}

/// Python's `Path.suffix`: the last `.xxx` of the name, empty for names without one or
/// consisting only of a leading dot (`.md` has no suffix).
pub fn suffix(name: &str) -> &str {
    match name.rfind('.') {
        Some(0) | None => "",
        Some(i) if i + 1 == name.len() => "",
        Some(i) => &name[i..],
    }
}

/// Python's `Path.stem`: the name minus its suffix.
pub fn stem(name: &str) -> &str {
    &name[..name.len() - suffix(name).len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_and_stem_follow_pathlib() {
        assert_eq!(suffix("a.md"), ".md");
        assert_eq!(suffix(".md"), "");
        assert_eq!(suffix("a."), "");
        assert_eq!(suffix("double.md.md"), ".md");
        assert_eq!(stem("double.md.md"), "double.md");
        assert_eq!(stem(".secret.md"), ".secret");
        assert_eq!(stem("noext"), "noext");
    }

    #[test]
    fn a_file_is_read_once_until_it_changes() {
        let dir = std::env::temp_dir().join(format!("agentry-fc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.md");
        std::fs::write(&f, "one").unwrap();
        let cache = FileCache::new();
        assert_eq!(&*cache.read(&f).unwrap(), b"one");
        assert_eq!(&*cache.read(&f).unwrap(), b"one");
        assert_eq!(cache.stats().0, 1);
        std::fs::write(&f, "three").unwrap();
        assert_eq!(&*cache.read(&f).unwrap(), b"three");
        // A pass that does not ask for the file drops it.
        cache.begin_pass();
        cache.retain_pass();
        assert!(cache.paths().is_empty());
        assert_eq!(cache.read(&dir.join("missing")), Err(ReadError::NotFound));
        let parses = std::cell::Cell::new(0);
        let parse = |b: &[u8]| {
            parses.set(parses.get() + 1);
            b.len()
        };
        assert_eq!(*cache.derived(&f, 7, parse).unwrap(), 5);
        assert_eq!(*cache.derived(&f, 7, parse).unwrap(), 5);
        assert_eq!(parses.get(), 1, "unchanged bytes are parsed once");
        assert_eq!(*cache.derived(&f, 8, parse).unwrap(), 5);
        assert_eq!(parses.get(), 2, "another context parses again");
        std::fs::write(&f, "changed!").unwrap();
        assert_eq!(*cache.derived(&f, 7, parse).unwrap(), 8);
        assert_eq!(parses.get(), 3, "new bytes are parsed again");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
