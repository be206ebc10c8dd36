//! Reading the file system: one shared, read-only [`FileCache`] so that every file is
//! read at most once per load (and, in the live loader, only again when it changed),
//! and folder listings in the order Python's `sorted(Path.iterdir())` gives.
//!
//! Frameworks ask through a [`Files`] handle, which records what each computation
//! observed ([`observe`]) so the live loader can reuse what a change cannot affect.

mod cache;
mod canonical;
mod files;
mod path_key;
pub mod observe;
pub mod site_packages;
pub mod walk;

use std::borrow::Cow;
use std::io;
use std::path::Path;
use std::sync::Arc;

pub use cache::{Counts, FileCache, Hold, Kind, Measure, ParseKey, Pass};

/// Maps and sets keyed by paths and ids that a load asks thousands of times: a
/// faster (still randomly seeded) hasher than the standard library's SipHash.
pub mod fast_hash {
    pub type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
    pub type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
}
pub use files::Files;
pub(crate) use path_key::key_bytes;

/// Locks `m`, going on after a panic on another thread: the maps behind these locks
/// change by whole inserts and removals, so a poisoned one is still consistent.
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
pub use observe::untracked_access;
// Python's `Path.suffix`/`Path.stem` of a listed name, where the readers look for them.
pub use crate::model::{stem, suffix};

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

/// Reads at most `MAX_FILE_BYTES`: the file may have grown since it was measured, and a
/// FIFO or device never ends. `expected` (the measured size) sizes the buffer so that a
/// file unchanged since costs two `read` calls (the bytes, then end of file), where
/// `read_to_end` would start at 8 KiB and double.
fn read_bounded(path: &Path, expected: u64) -> Result<Vec<u8>, ReadError> {
    read_open(std::fs::File::open(path)?, expected)
}

/// [`read_bounded`] of a file already open.
fn read_open(mut file: std::fs::File, expected: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
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
            Ok(n) => {
                filled += n;
                // A regular file that gave exactly the length it had when it was
                // stamped, short of the room left: at its end, without a probe read.
                // (Had it grown since, the next pass sees a new stamp.)
                if filled as u64 == expected && filled < bytes.len() {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// Bytes of a file read into its thread's scratch buffer ([`read_unmeasured`]), which
/// they go back to when dropped: a parse reads the bytes and drops them, so one
/// buffer per thread serves every file it reads.
pub(crate) struct Scratch {
    buffer: Vec<u8>,
    len: usize,
}

/// Scratch buffers above this size are freed rather than kept for the next file.
const SCRATCH_KEPT: usize = 1 << 20;

thread_local! {
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

impl std::ops::Deref for Scratch {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.buffer[..self.len]
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.buffer.len() <= SCRATCH_KEPT {
            SCRATCH.set(std::mem::take(&mut self.buffer));
        }
    }
}

/// Reads an open file to its end without measuring it first (no `fstat`, which was a
/// fifth of a load's system calls), into this thread's scratch buffer. A read that
/// leaves room is taken as the end of the file, as it is for a regular file; only a
/// file larger than the buffer is measured, to size the buffer once. Errors are those
/// of [`read_bounded`] with a measured size: a folder reads as [`ReadError::IsDir`],
/// and a file over `MAX_FILE_BYTES` is not read past the bound.
pub(crate) fn read_unmeasured(mut file: std::fs::File) -> Result<Scratch, ReadError> {
    use std::io::Read;
    const FIRST: usize = 64 * 1024;
    let limit = MAX_FILE_BYTES as usize + 1;
    let mut bytes = Scratch { buffer: SCRATCH.take(), len: 0 };
    if bytes.buffer.len() < FIRST {
        bytes.buffer.resize(FIRST, 0);
    }
    loop {
        if bytes.len == bytes.buffer.len() {
            if bytes.len == limit {
                return Err(ReadError::TooLarge(bytes.len as u64));
            }
            let measured = file.metadata()?.len();
            if measured > MAX_FILE_BYTES {
                return Err(ReadError::TooLarge(measured));
            }
            // Room for the measured size and one byte more, so a file that did not
            // grow ends with a read that leaves room; one that did grows the buffer.
            let room = (measured as usize + 1).max(bytes.len * 2).min(limit);
            bytes.buffer.resize(room, 0);
        }
        let filled = bytes.len;
        match file.read(&mut bytes.buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => {
                bytes.len += n;
                if bytes.len < bytes.buffer.len() {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(bytes)
}

/// A context key for [`Files::parse`] from the text a parse depends on besides
/// the bytes (typically the source key).
pub fn context_key(text: &str) -> u64 {
    hash_key(text)
}

/// A memo or context key from parts that hash, without formatting them into one
/// text first (for keys made once per definition per load). foldhash's quality
/// variant spreads 64 bits as well as SipHash at a fraction of the cost (a refresh
/// makes one key per file); the keys never leave the process, so the fixed seed
/// only makes them repeatable.
pub fn hash_key(parts: impl std::hash::Hash) -> u64 {
    use std::hash::BuildHasher;
    const STATE: foldhash::quality::FixedState = foldhash::quality::FixedState::with_seed(0x6167_656e_7472_7931);
    STATE.hash_one(parts)
}

/// One entry of a folder. The file cache keeps the listings of a workspace's folders
/// between loads, over a hundred thousand entries: the path is the one the cache's
/// other holders share (`path_key::PathTable`), and the name is read from it.
#[derive(Clone, Debug)]
pub struct DirEntry {
    pub path: Arc<Path>,
    /// A folder, following symlinks (Python's `Path.is_dir()`).
    pub is_dir: bool,
    /// A regular file, following symlinks (Python's `Path.is_file()`).
    pub is_file: bool,
    /// The entry itself is a symlink (`os.walk` does not enter linked folders).
    pub is_symlink: bool,
    /// Its name is UTF-8 (it compares as its bytes: [`DirEntry::cmp_name`]).
    utf8: bool,
    /// Its place in the file system's own listing (`readdir` order).
    pub listed: u32,
}

/// The entries of a folder in Python's `sorted(Path.iterdir())` order (code-point order
/// of the names). `Ok(None)` when the path is not a folder; `Err` when listing fails.
/// Each entry's path is shared through `paths` when the folder's path is in key form,
/// and so the folder's path, a separator and a name is too (the key of a path
/// spelled otherwise would change its bytes).
fn list_dir(dir: &Path, paths: &path_key::PathTable) -> io::Result<Option<Vec<DirEntry>>> {
    // Listing tells a folder by succeeding: only a failure asks what the path is.
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(_) if !std::fs::metadata(dir).map(|m| m.is_dir()).unwrap_or(false) => return Ok(None),
        Err(e) => return Err(e),
    };
    let shared = path_key::in_key_form(dir.as_os_str().as_encoded_bytes());
    let mut out = Vec::new();
    for entry in listing {
        let entry = entry?;
        let path = entry.path();
        // The entry's type comes with the listing; only a symlink (or a file system
        // that does not say) needs a `stat` to tell where it leads.
        let file_type = entry.file_type().ok();
        let is_symlink = file_type.is_some_and(|t| t.is_symlink());
        let (is_dir, is_file) = match file_type {
            Some(t) if !t.is_symlink() => (t.is_dir(), t.is_file()),
            _ => std::fs::metadata(&path).map(|m| (m.is_dir(), m.is_file())).unwrap_or((false, false)),
        };
        let path = if shared { paths.shared(path) } else { path.into() };
        // The name read with the entry sorts the listing; the entry keeps only its path.
        let (name, utf8) = match entry.file_name().into_string() {
            Ok(name) => (name, true),
            Err(raw) => (raw.to_string_lossy().into_owned(), false),
        };
        let listed = out.len() as u32;
        out.push((name, DirEntry { path, is_dir, is_file, is_symlink, utf8, listed }));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Some(out.into_iter().map(|(_, entry)| entry).collect()))
}

/// The bytes after the last separator of an entry's path (its folder's joined with
/// its name).
fn name_bytes(path: &Path) -> &[u8] {
    let bytes = path.as_os_str().as_encoded_bytes();
    let last = if cfg!(windows) { bytes.iter().rposition(|b| matches!(b, b'/' | b'\\')) } else { memchr::memrchr(b'/', bytes) };
    &bytes[last.map_or(0, |i| i + 1)..]
}

impl DirEntry {
    /// The entry's name, lossy where it is not UTF-8 (as Python's `str` of it).
    pub fn name(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(name_bytes(&self.path))
    }

    /// The entry's name compared with `name`, as the listing is sorted: a look-up by
    /// name searches a listing with this, without decoding each name it passes.
    pub fn cmp_name(&self, name: &str) -> std::cmp::Ordering {
        if self.utf8 {
            name_bytes(&self.path).cmp(name.as_bytes())
        } else {
            (*self.name()).cmp(name)
        }
    }
}

/// A listing in the order a tool that reads `readdir` as it comes sees it: the file
/// system's own order, or sorted byte order of the names under
/// [`ListingOrder::Name`](crate::model::ListingOrder) (as the oracles pin it).
pub fn in_listing_order(entries: &[DirEntry], order: crate::model::ListingOrder) -> Vec<&DirEntry> {
    let mut out: Vec<&DirEntry> = entries.iter().collect();
    match order {
        crate::model::ListingOrder::Name => out.sort_by(|a, b| name_bytes(&a.path).cmp(name_bytes(&b.path))),
        crate::model::ListingOrder::System => out.sort_by_key(|e| e.listed),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache for one load reads what a measuring one reads: small files, files
    /// larger than the first scratch buffer, empty files, and the same errors.
    #[test]
    fn a_cache_for_one_load_reads_what_a_measuring_cache_reads() {
        let dir = std::env::temp_dir().join(format!("agentry-one-load-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("folder.md")).unwrap();
        let sizes = [0, 1, 4095, 65_535, 65_536, 65_537, 200_000];
        for size in sizes {
            let text: Vec<u8> = (0..size).map(|i| b'a' + (i % 26) as u8).collect();
            std::fs::write(dir.join(format!("{size}.md")), &text).unwrap();
        }
        let measured = FileCache::new();
        // Bytes kept (`read`) and bytes only parsed (`derived`, the scratch buffer).
        let (kept, parsed) = (FileCache::for_one_load(), FileCache::for_one_load());
        for size in sizes {
            let f = dir.join(format!("{size}.md"));
            let expected = measured.read(&f, Hold::Kept).unwrap();
            assert_eq!(kept.read(&f, Hold::Kept).unwrap(), expected, "{size}");
            assert_eq!(*parsed.parse(&f, Hold::Not, 0, |b| b.to_vec()).unwrap(), *expected, "{size}");
        }
        for missing in ["folder.md", "missing.md"] {
            let path = dir.join(missing);
            assert_eq!(kept.read(&path, Hold::Kept), measured.read(&path, Hold::Kept), "{missing}");
            let parse = |b: &[u8]| b.len();
            assert_eq!(parsed.parse(&path, Hold::Not, 0, parse).err(), measured.read(&path, Hold::Kept).err(), "{missing}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Files read unmeasured are measured afterwards: unchanged ones are not read
    /// again by the next validating pass; ones written since they were read are
    /// named, and read again.
    #[test]
    fn files_read_unmeasured_are_measured_after_the_pass() {
        let (dir, a, b, cache) = two_files_and_a_pass("measure-later");
        cache.measure_later();
        for f in [&a, &b] {
            cache.read(f, Hold::Kept).unwrap();
        }
        let long_ago = std::time::SystemTime::UNIX_EPOCH;
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
        let mut named = cache.measure_read_files(long_ago);
        named.sort();
        assert_eq!(named, [a.clone(), b.clone()], "written after the pass began: named, not measured");
        assert!(cache.measure_read_files(later).is_empty());
        assert!(cache.measure_read_files(long_ago).is_empty(), "measured once");
        let reads = || cache.counts().reads;
        let before = reads();
        cache.begin_pass(None);
        for f in [&a, &b] {
            cache.read(f, Hold::Kept).unwrap();
        }
        assert_eq!(reads(), before, "measured files that did not change are not read again");
        std::fs::write(&b, "three").unwrap();
        cache.begin_pass(None);
        assert_eq!(&*cache.read(&b, Hold::Kept).unwrap(), b"three");
        assert_eq!(reads(), before + 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A scratch folder with `a.md` ("one") and `b.md` ("two"), and a cache in its
    /// first pass.
    fn two_files_and_a_pass(name: &str) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf, FileCache) {
        let dir = std::env::temp_dir().join(format!("agentry-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.md"), dir.join("b.md"));
        std::fs::write(&a, "one").unwrap();
        std::fs::write(&b, "two").unwrap();
        let cache = FileCache::new();
        cache.begin_pass(None);
        (dir, a, b, cache)
    }

    #[test]
    fn bytes_held_for_a_pass_are_let_go_when_it_ends() {
        use std::sync::Arc;
        let (dir, a, b, cache) = two_files_and_a_pass("pass-held");
        let first = cache.read(&a, Hold::ForPass).unwrap();
        assert!(Arc::ptr_eq(&first, &cache.read(&a, Hold::ForPass).unwrap()), "held within the pass");
        let kept = cache.read(&b, Hold::ForPass).unwrap();
        assert!(Arc::ptr_eq(&kept, &cache.read(&b, Hold::Kept).unwrap()), "a kept read takes the held bytes over");
        cache.retain_pass();
        let again = cache.read(&a, Hold::ForPass).unwrap();
        assert!(!Arc::ptr_eq(&first, &again), "let go when the pass ended");
        assert_eq!(&*again, b"one");
        assert!(Arc::ptr_eq(&kept, &cache.read(&b, Hold::Kept).unwrap()), "kept past the pass");
        assert_eq!(cache.counts().reads, 2, "reading an unchanged file again is no new read");
        let released = cache.read(&a, Hold::ForPass).unwrap();
        cache.release_for_pass(&a);
        cache.release_for_pass(&b);
        assert!(!Arc::ptr_eq(&released, &cache.read(&a, Hold::ForPass).unwrap()), "let go by the last reader");
        assert!(Arc::ptr_eq(&kept, &cache.read(&b, Hold::Kept).unwrap()), "kept bytes stay");
        assert_eq!(cache.counts().reads, 2, "reading an unchanged file again is no new read");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_is_read_once_until_it_changes() {
        let dir = std::env::temp_dir().join(format!("agentry-fc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.md");
        std::fs::write(&f, "one").unwrap();
        let cache = FileCache::new();
        assert_eq!(&*cache.read(&f, Hold::Kept).unwrap(), b"one");
        assert_eq!(&*cache.read(&f, Hold::Kept).unwrap(), b"one");
        assert_eq!(cache.counts().reads, 1);
        std::fs::write(&f, "three").unwrap();
        // Within a pass a file is taken not to change: its stamp is checked once.
        assert_eq!(&*cache.read(&f, Hold::Kept).unwrap(), b"one");
        cache.begin_pass(None);
        assert_eq!(&*cache.read(&f, Hold::Kept).unwrap(), b"three");
        assert_eq!(cache.counts().reads, 2);
        // A pass that does not ask for the file drops it.
        cache.begin_pass(None);
        cache.retain_pass();
        assert!(cache.paths().is_empty());
        assert_eq!(cache.read(&dir.join("missing"), Hold::Kept), Err(ReadError::NotFound));
        let parses = std::cell::Cell::new(0);
        let parse = |b: &[u8]| {
            parses.set(parses.get() + 1);
            b.len()
        };
        assert_eq!(*cache.parse(&f, Hold::Not, 7, parse).unwrap(), 5);
        assert_eq!(*cache.parse(&f, Hold::Not, 7, parse).unwrap(), 5);
        assert_eq!(parses.get(), 1, "unchanged bytes are parsed once");
        assert_eq!(*cache.parse(&f, Hold::Not, 8, parse).unwrap(), 5);
        assert_eq!(parses.get(), 2, "another context parses again");
        std::fs::write(&f, "changed!").unwrap();
        cache.begin_pass(None);
        assert_eq!(*cache.parse(&f, Hold::Not, 7, parse).unwrap(), 8);
        assert_eq!(parses.get(), 3, "new bytes are parsed again");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_folders_held_change_version_only_when_a_folder_comes_or_goes() {
        let dir = std::env::temp_dir().join(format!("agentry-fv-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::create_dir_all(dir.join("b")).unwrap();
        for f in ["a/1.md", "a/2.md", "b/3.md"] {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        let cache = FileCache::new();
        cache.begin_pass(None);
        cache.read(&dir.join("a/1.md"), Hold::Kept).unwrap();
        let one_folder = cache.folders_version();
        cache.read(&dir.join("a/2.md"), Hold::Kept).unwrap();
        assert_eq!(
            cache.folders_version(),
            one_folder,
            "a second file of a held folder"
        );
        cache.read(&dir.join("b/3.md"), Hold::Kept).unwrap();
        assert_ne!(cache.folders_version(), one_folder);
        cache.retain_pass();
        let mut folders = cache.folders();
        folders.sort();
        assert_eq!(folders, [dir.join("a"), dir.join("b")]);

        // An edited file, trusted and read again: the same folders.
        let before = cache.folders_version();
        std::fs::write(dir.join("a/1.md"), "edited").unwrap();
        cache.begin_pass(Some(&[dir.join("a/1.md")]));
        assert_eq!(&*cache.read(&dir.join("a/1.md"), Hold::Kept).unwrap(), b"edited");
        cache.retain_pass();
        assert_eq!(cache.folders_version(), before);

        // A pass that no longer reads `b/3.md` drops its folder.
        cache.begin_pass(None);
        cache.read(&dir.join("a/1.md"), Hold::Kept).unwrap();
        cache.retain_pass();
        assert_eq!(cache.folders(), [dir.join("a")]);
        assert_ne!(cache.folders_version(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_trusted_edit_keeps_other_answers_and_a_file_turned_folder_drops_them() {
        let dir = std::env::temp_dir().join(format!("agentry-fe-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (edited, other) = (dir.join("a.md"), dir.join("b.md"));
        std::fs::write(&edited, "one").unwrap();
        std::fs::write(&other, "two").unwrap();
        let cache = FileCache::new();
        let runs = std::cell::Cell::new(0);
        let listing_and_kind = |files: Files<'_>| {
            runs.set(runs.get() + 1);
            (
                files.list_dir(&dir).unwrap().map_or(0, |l| l.len()),
                files.is_file(&edited),
            )
        };
        let edited_bytes = |files: Files<'_>| files.read(&edited, Hold::Kept).unwrap().len();
        cache.begin_pass(None);
        let files = cache.untracked();
        assert_eq!(*files.memo(1, listing_and_kind), (2, true));
        assert_eq!(*files.memo(2, edited_bytes), 3);
        cache.retain_pass();

        std::fs::write(&edited, "three").unwrap();
        cache.begin_pass(Some(std::slice::from_ref(&edited)));
        assert_eq!(*files.memo(1, listing_and_kind), (2, true));
        assert_eq!(
            runs.get(),
            1,
            "an edit leaves the listing and the kind as they were"
        );
        assert_eq!(*files.memo(2, edited_bytes), 5, "the bytes are new");
        cache.retain_pass();

        std::fs::remove_file(&edited).unwrap();
        std::fs::create_dir(&edited).unwrap();
        cache.begin_pass(Some(std::slice::from_ref(&edited)));
        assert_eq!(*files.memo(1, listing_and_kind), (2, false), "now a folder");
        assert_eq!(runs.get(), 2);
        cache.retain_pass();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
