//! [`FileCache`]: the bytes of files, the answers to file-system questions (kinds,
//! listings, resolved paths) and memoized computations, kept between the loads of
//! the live loader.
//!
//! Each load is a *pass*. A pass is either
//! - **validating** ([`FileCache::begin_pass`] with `None`: a cold start, a forced
//!   reload, the polling fallback, lost events): every answer and memo is dropped
//!   and asked again, and a file's bytes are reused only when its size, modification
//!   time and inode are unchanged; or
//! - **trusting** (`Some(changed)`: the paths the watcher reported after the
//!   debounce): exactly the answers, files and memos a change at one of those paths
//!   may affect ([`super::Observation::touched_by`]) are dropped, and everything else
//!   is answered from memory without a system call. This is sound because the
//!   watcher covers every folder a load reads from (`loader::watch`), so a change it
//!   did not report did not happen; when it may have lost events it asks for a
//!   validating pass instead.
//!
//! Within one pass the files are taken not to change (a change during a load is
//! reported and handled by the next one), so every answer is asked once per pass.

use std::any::{Any, TypeId};
use crate::discover::fast_hash::HashMap;
use crate::discover::lock;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::observe::{watch_untracked, Changes, Observed, Recorder};
use super::canonical::CanonicalMemo;
use super::path_key::{key_bytes, PathKey, PathTable};
use super::{read_bounded, read_open, read_unmeasured, DirEntry, Files, ReadError, Scratch, MAX_FILE_BYTES};

/// What identifies one version of a file without reading it: its size, and a hash of
/// its modification time and inode (only ever compared, and kept for every file held).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    changed: u64,
}

/// The stamp of a file not held yet, or why it is not read.
fn fresh(meta: &std::fs::Metadata) -> Result<Stamp, ReadError> {
    if meta.is_dir() {
        return Err(ReadError::IsDir);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge(meta.len()));
    }
    Ok(stamp(meta))
}

fn stamp(meta: &std::fs::Metadata) -> Stamp {
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(meta);
    #[cfg(not(unix))]
    let inode = 0;
    // 0 stands for a file read without being measured ([`UNMEASURED`]).
    Stamp { len: meta.len(), changed: super::hash_key((meta.modified().ok(), inode)) | 1 }
}

/// The `changed` of a file read without being measured: equal to no stamp, so the
/// file is read again unless [`FileCache::measure_read_files`] measured it since.
const UNMEASURED: u64 = 0;

/// A value a framework derived from a file's bytes (its parse), or a memoized
/// computation's result.
type Shared = Arc<dyn Any + Send + Sync>;

/// What a parse or a memoized result is kept under: a hash of its type (a `TypeId`
/// takes twice the room, padded) and the caller's key. Types whose hashes collide
/// only take each other's place: a value is used only once downcast to its type.
type ValueKey = (u64, u64);

fn value_key<T: 'static>(key: u64) -> ValueKey {
    (super::hash_key(TypeId::of::<T>()), key)
}

struct Entry {
    stamp: Stamp,
    /// Held only for files read as they are ([`FileCache::read`] with a [`Hold`]
    /// other than `Not`). A file that is
    /// only parsed keeps its parses, not its bytes: they were most of a large
    /// workspace's memory besides its agents, and a parse of the same version is
    /// reused without them (another parse of it reads the file again).
    bytes: Option<Arc<[u8]>>,
    /// Tells the versions of a path apart: a parse is kept only with the version it
    /// was made from.
    version: u64,
    /// The last pass ([`FileCache::begin_pass`]) that asked for the file.
    pass: u64,
    /// A folder above it was reported changed: a trusting pass checks its stamp
    /// before using the bytes (the folder may be new to the watcher, or renamed).
    suspect: bool,
    /// Parses of these bytes, by the deriving type and the caller's context key
    /// (boxed: a parse is added once per version, and most files have one).
    derived: Box<[(ValueKey, Shared)]>,
    /// `bytes` are held only for the pass ([`Hold::ForPass`]).
    held_for_pass: bool,
}

/// How long a read ([`Files::read`], [`Files::parse`]) keeps the file's bytes in the
/// cache, chosen where the file is read: held bytes are what most of a load's memory
/// is besides its agents, and bytes not held cost a second read from the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Not held: the result made of them ([`Files::parse`], kept per version of the
    /// file) or memoized is what is kept, so the next pass needs the bytes no more.
    Not,
    /// Until the pass ends ([`FileCache::retain_pass`]) or the last reader lets go
    /// ([`Files::release_for_pass`]): for a file that several readers of one load
    /// read, each of whose results is memoized for the next.
    ForPass,
    /// Across passes, until the file changes or a validating pass no longer asks
    /// for it: for bytes a reader uses as they are, every load.
    Kept,
}

/// What a [`Files::parse`] result is kept under (with the type of the result) and
/// whether making it counts as parsing a definition in [`Counts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseKey {
    context: u64,
    counted: bool,
}

impl ParseKey {
    /// A look that only decides whether the file is a definition at all: not counted
    /// as a parse (the load that follows parses it).
    pub fn look(context: u64) -> ParseKey {
        ParseKey { context, counted: false }
    }
}

/// A parse of a definition under `context`, which must capture whatever else the
/// result depends on (a hash of the source key, say): counted in [`Counts::parses`].
impl From<u64> for ParseKey {
    fn from(context: u64) -> ParseKey {
        ParseKey { context, counted: true }
    }
}

/// What [`FileCache::lookup`] found for a file.
enum Found {
    /// The version held, with its bytes, and whether only for the pass.
    Held(Arc<[u8]>, u64, bool),
    /// The version held, without its bytes; and its size.
    Known(u64, u64),
    /// A version not held yet (new or changed), as measured; and the file, when it
    /// was measured by opening it.
    Fresh(Stamp, Option<File>),
    /// A file not held yet, opened but not measured (a cache for one load).
    Unmeasured(File),
}

/// A file's bytes as [`FileCache::bytes`] gives them: shared when they are held,
/// else the buffer they were read into (a parse drops them, so sharing them would
/// only cost a copy).
enum Bytes {
    Shared(Arc<[u8]>),
    Read(Vec<u8>),
    Scratch(Scratch),
}

impl Bytes {
    fn into_shared(self) -> Arc<[u8]> {
        match self {
            Bytes::Shared(bytes) => bytes,
            Bytes::Read(bytes) => bytes.into(),
            Bytes::Scratch(bytes) => Arc::from(&*bytes),
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Shared(bytes) => bytes,
            Bytes::Read(bytes) => bytes,
            Bytes::Scratch(bytes) => bytes,
        }
    }
}

impl Entry {
    fn found(&self) -> Found {
        match &self.bytes {
            Some(b) => Found::Held(b.clone(), self.version, self.held_for_pass),
            None => Found::Known(self.version, self.stamp.len),
        }
    }
}

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
struct Answers {
    kinds: HashMap<PathKey, Kind>,
    listings: HashMap<PathKey, Listing>,
    /// `canonicalize`: the path, or the raw OS error (a symlink loop is told apart).
    resolved: HashMap<PathKey, Result<PathKey, Option<i32>>>,
}

struct Memo {
    value: Shared,
    observed: Arc<Observed>,
    pass: u64,
}

/// Counters since creation; a load's figures are the differences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Files read from disk.
    pub reads: u64,
    pub bytes_read: u64,
    /// Parses made ([`FileCache::parse`] computed rather than reused).
    pub parses: u64,
    /// Definitions resolved ([`Files::definition`] computed rather than reused).
    pub resolutions: u64,
}

/// Listed symlinks: where each points, and the folders of those targets.
#[derive(Default)]
struct Links {
    to: HashMap<PathBuf, PathBuf>,
    folders: std::collections::HashSet<PathBuf>,
}

/// Bytes of files, read once and shared, plus answers and memos (see the module
/// documentation for when they are trusted).
#[derive(Default)]
pub struct FileCache {
    entries: Mutex<HashMap<PathKey, Entry>>,
    answers: Mutex<Answers>,
    memos: Mutex<HashMap<ValueKey, Memo>>,
    reads: AtomicU64,
    bytes_read: AtomicU64,
    parses: AtomicU64,
    resolutions: AtomicU64,
    /// Every call of [`FileCache::read`], cached or not: the live loader's progress.
    served: AtomicU64,
    pass: AtomicU64,
    /// The last [`Entry::version`] given out.
    versions: AtomicU64,
    /// The current pass trusts what it holds (see the module documentation).
    trusting: AtomicBool,
    /// `realpath` step by step within one pass (a path costs its folder's answer and
    /// one `lstat`); `answers.resolved` keeps the results across passes.
    canonical: CanonicalMemo,
    /// How many held files each folder holds ([`FileCache::folders`]), and a counter
    /// bumped whenever a folder comes or goes from it.
    folders: Mutex<HashMap<PathKey, usize>>,
    folders_version: AtomicU64,
    /// Listed symlinks and where each points: a change there is a change of the link
    /// (the target's folder is watched too, [`FileCache::folders`]).
    links: Mutex<Links>,
    /// Memoized results a trusting pass invalidated, dropped by
    /// [`FileCache::settle`] once the new results are out (a framework's
    /// old report takes a while to free).
    invalidated: Mutex<Vec<Memo>>,
    /// The paths the maps above and the memos' observations hold, each once.
    paths: PathTable,
    /// Made for one load and no pass after it ([`FileCache::for_one_load`]).
    one_load: bool,
    /// The pass reads files without measuring them ([`FileCache::measure_later`]).
    unmeasured_pass: AtomicBool,
}

impl FileCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// A cache for a process that loads once and exits (the command line): files are
    /// read without being measured, so what it holds has no stamp to tell a changed
    /// file by, and it must not begin another pass.
    pub fn for_one_load() -> Self {
        FileCache { one_load: true, ..Self::default() }
    }

    /// A handle that records nothing: for one-off reads outside a load.
    pub fn untracked(&self) -> Files<'_> {
        Files::new(self, None)
    }

    /// The file's bytes, following symlinks, held as `hold` says.
    pub fn read(&self, path: &Path, hold: Hold) -> Result<Arc<[u8]>, ReadError> {
        let found = self.lookup(path)?;
        self.bytes(path, found, hold).map(|(bytes, _)| bytes.into_shared())
    }

    /// Lets go of the file's bytes held for the pass before it ends: for the last of
    /// the pass's readers once it is done with them, as a load's worst moment sets
    /// the resident peak. Bytes another reader keeps stay; a read after this goes to
    /// the disk again.
    pub fn release_for_pass(&self, path: &Path) {
        let released = lock(&self.entries)
            .get_mut(key_bytes(path).as_ref())
            .filter(|e| e.held_for_pass)
            .and_then(|e| {
                e.held_for_pass = false;
                e.bytes.take()
            });
        drop(released);
    }

    /// Which version of the file is current, and whether it is held: trusted in a
    /// trusting pass, else told by its stamp.
    fn lookup(&self, path: &Path) -> Result<Found, ReadError> {
        self.served.fetch_add(1, Ordering::Relaxed);
        let pass = self.pass.load(Ordering::Relaxed);
        let key = key_bytes(path);
        if self.trusting.load(Ordering::Relaxed) {
            if let Some(e) = lock(&self.entries).get_mut(key.as_ref()).filter(|e| !e.suspect) {
                e.pass = pass;
                return Ok(e.found());
            }
        }
        // Checked once per pass: within a pass files are taken not to change.
        let held = match lock(&self.entries).get(key.as_ref()) {
            Some(e) if e.pass == pass && !e.suspect => return Ok(e.found()),
            held => held.is_some(),
        };
        // A file not held is read anyway: it is measured through the open file, which
        // spares the system a second walk of its path (most of a cold load's file
        // system time). A file that does not open is measured by its path as before,
        // so its error is the same.
        if !held {
            if let Ok(file) = File::open(path) {
                if self.one_load || self.unmeasured_pass.load(Ordering::Relaxed) {
                    return Ok(Found::Unmeasured(file));
                }
                let meta = file.metadata()?;
                return fresh(&meta).map(|now| Found::Fresh(now, Some(file)));
            }
        }
        let meta = std::fs::metadata(path)?;
        let now = stamp(&meta);
        if let Some(e) = lock(&self.entries).get_mut(key.as_ref()) {
            if e.stamp == now {
                e.pass = pass;
                e.suspect = false;
                return Ok(e.found());
            }
        }
        fresh(&meta).map(|now| Found::Fresh(now, None))
    }

    /// The bytes of what [`FileCache::lookup`] found, read from disk unless held,
    /// and their version; `hold` says for how long they are held. Only a new version counts
    /// as a file read ([`Counts::reads`]): reading again an unchanged file whose
    /// bytes were not kept is not reading what changed.
    fn bytes(&self, path: &Path, found: Found, hold: Hold) -> Result<(Bytes, u64), ReadError> {
        let (now, bytes, version) = match found {
            Found::Held(bytes, version, for_pass) => {
                if for_pass && hold == Hold::Kept {
                    if let Some(e) = lock(&self.entries).get_mut(key_bytes(path).as_ref()).filter(|e| e.version == version) {
                        e.held_for_pass = false;
                    }
                }
                return Ok((Bytes::Shared(bytes), version));
            }
            Found::Known(version, len) => {
                let bytes = read_bounded(path, len)?;
                if hold == Hold::Not {
                    return Ok((Bytes::Read(bytes), version));
                }
                let bytes: Arc<[u8]> = bytes.into();
                if let Some(e) = lock(&self.entries).get_mut(key_bytes(path).as_ref()).filter(|e| e.version == version) {
                    e.bytes = Some(bytes.clone());
                    e.held_for_pass = hold == Hold::ForPass;
                }
                return Ok((Bytes::Shared(bytes), version));
            }
            Found::Fresh(now, file) => {
                let version = self.versions.fetch_add(1, Ordering::Relaxed) + 1;
                let bytes = match file {
                    Some(file) => read_open(file, now.len)?,
                    None => read_bounded(path, now.len)?,
                };
                (now, Bytes::Read(bytes), version)
            }
            Found::Unmeasured(file) => {
                let version = self.versions.fetch_add(1, Ordering::Relaxed) + 1;
                let bytes = read_unmeasured(file)?;
                // Measured after the pass, if the cache lives on (`measure_read_files`).
                (Stamp { len: bytes.len() as u64, changed: UNMEASURED }, Bytes::Scratch(bytes), version)
            }
        };
        self.reads.fetch_add(1, Ordering::Relaxed);
        self.bytes_read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let pass = self.pass.load(Ordering::Relaxed);
        let bytes = if hold == Hold::Not { bytes } else { Bytes::Shared(bytes.into_shared()) };
        let held = match &bytes {
            Bytes::Shared(shared) => Some(shared.clone()),
            Bytes::Read(_) | Bytes::Scratch(_) => None,
        };
        let held_for_pass = held.is_some() && hold == Hold::ForPass;
        let entry = Entry { stamp: now, bytes: held, version, pass, suspect: false, derived: Box::default(), held_for_pass };
        let key = self.paths.key(path);
        let mut entries = lock(&self.entries);
        if entries.insert(key, entry).is_none() {
            self.count_folder(path, true);
        }
        Ok((bytes, version))
    }

    /// What `derive` makes of the file's bytes, computed once per version of the file
    /// and `key`: a reload parses only the files that changed. The type `T` keeps
    /// frameworks apart; `hold` says how long the bytes read stay held for a later
    /// read of the file. Read errors are returned as they are and not remembered.
    pub fn parse<T: Send + Sync + 'static>(
        &self,
        path: &Path,
        hold: Hold,
        key: impl Into<ParseKey>,
        derive: impl FnOnce(&[u8]) -> T,
    ) -> Result<Arc<T>, ReadError> {
        let ParseKey { context, counted } = key.into();
        let key = value_key::<T>(context);
        let found = self.lookup(path)?;
        if let Found::Held(_, held, _) | Found::Known(held, _) = found {
            let cached = lock(&self.entries)
                .get(key_bytes(path).as_ref())
                .filter(|e| e.version == held)
                .and_then(|e| e.derived.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()));
            if let Some(v) = cached.and_then(|v| v.downcast::<T>().ok()) {
                return Ok(v);
            }
        }
        let (bytes, version) = self.bytes(path, found, hold)?;
        let value = Arc::new(derive(&bytes));
        drop(bytes);
        if counted {
            self.parses.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(e) = lock(&self.entries).get_mut(key_bytes(path).as_ref()).filter(|e| e.version == version) {
            let mut derived = std::mem::take(&mut e.derived).into_vec();
            derived.retain(|(k, _)| *k != key);
            derived.push((key, value.clone() as Shared));
            e.derived = derived.into_boxed_slice();
        }
        Ok(value)
    }

    /// Counts a parse made by a [`ParseKey::look`] that was not counted as one, when
    /// the look turned out to parse a definition.
    pub(crate) fn count_parse(&self) {
        self.parses.fetch_add(1, Ordering::Relaxed);
    }

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
    fn listed_kind(answers: &Answers, path: &Path) -> Option<Kind> {
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
                let fresh: Listing = match super::list_dir(dir, &self.paths) {
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

    /// The memoized result of `compute` under `key` (which, with `T`, must name every
    /// input that is not a file-system answer), computed again only when one of the
    /// answers it saw may have changed. `parent` receives what it observed; `counted`
    /// says whether a computation counts as a definition resolved.
    pub(crate) fn memo<T: Send + Sync + 'static>(
        &self,
        parent: Option<&Recorder>,
        key: u64,
        counted: bool,
        compute: impl FnOnce(Files<'_>) -> T,
    ) -> Arc<T> {
        let id = value_key::<T>(key);
        let pass = self.pass.load(Ordering::Relaxed);
        let hit = lock(&self.memos).get_mut(&id).and_then(|m| {
            let value = m.value.clone().downcast::<T>().ok()?;
            m.pass = pass;
            Some((value, m.observed.clone()))
        });
        if let Some((value, observed)) = hit {
            if let Some(r) = parent {
                r.include(observed);
            }
            return value;
        }
        let recorder = Recorder::default();
        let (value, untracked) = watch_untracked(|| compute(Files::new(self, Some(&recorder))));
        if counted {
            self.resolutions.fetch_add(1, Ordering::Relaxed);
        }
        let value = Arc::new(value);
        let observed = Arc::new(recorder.finish(&self.paths));
        if let Some(r) = parent {
            r.include(observed.clone());
        }
        // A result that depends on something unrecorded is recomputed every time.
        if !untracked {
            lock(&self.memos).insert(id, Memo { value: value.clone() as Shared, observed, pass });
        }
        value
    }

    /// Whether the current pass trusts what it holds (module documentation): its
    /// memos are mostly reused, so work done ahead of asking for them is mostly wasted.
    pub fn trusting(&self) -> bool {
        self.trusting.load(Ordering::Relaxed)
    }

    /// Where the cache's paths are shared (for [`super::Files::capture`]).
    pub(super) fn path_table(&self) -> &PathTable {
        &self.paths
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
                Some(super::observe::clean(&link.parent()?.join(named)))
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

    /// Keeps [`FileCache::folders`] in step with a file added to (or removed from)
    /// the held files. Called with the entries locked, so the two agree.
    fn count_folder(&self, path: &Path, added: bool) {
        let Some(folder) = path.parent() else { return };
        let mut folders = lock(&self.folders);
        let key = key_bytes(folder);
        if added {
            // Most files join a folder already counted: its key is made only once.
            match folders.get_mut(key.as_ref()) {
                Some(count) => *count += 1,
                None => {
                    folders.insert(self.paths.key_of(folder, &key), 1);
                    self.folders_version.fetch_add(1, Ordering::Relaxed);
                }
            }
        } else {
            let Some(count) = folders.get_mut(key.as_ref()) else { return };
            *count -= 1;
            if *count == 0 {
                folders.remove(key.as_ref());
                self.folders_version.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// What was read, parsed and resolved since creation.
    pub fn counts(&self) -> Counts {
        Counts {
            reads: self.reads.load(Ordering::Relaxed),
            bytes_read: self.bytes_read.load(Ordering::Relaxed),
            parses: self.parses.load(Ordering::Relaxed),
            resolutions: self.resolutions.load(Ordering::Relaxed),
        }
    }

    /// How many reads were asked for since creation, served from the cache or not.
    /// A loader counts progress with it while a load runs.
    pub fn served(&self) -> u64 {
        self.served.load(Ordering::Relaxed)
    }

    /// Every file held, i.e. every file some load has read (the live loader watches
    /// their folders: a parent or template outside the searched folders still counts).
    pub fn paths(&self) -> Vec<PathBuf> {
        lock(&self.entries).keys().map(|k| k.as_path().to_path_buf()).collect()
    }

    /// The folders of every file held, each once (what the live loader watches for
    /// them: tens of thousands of files live in a few folders).
    pub fn folders(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = lock(&self.folders).keys().map(|k| k.as_path().to_path_buf()).collect();
        let links = lock(&self.links);
        let known: std::collections::HashSet<&Path> = out.iter().map(PathBuf::as_path).collect();
        let extra: Vec<PathBuf> = links.folders.iter().filter(|f| !known.contains(f.as_path())).cloned().collect();
        out.extend(extra);
        out
    }

    /// Changes whenever [`FileCache::folders`] does: equal versions, equal folders.
    pub fn folders_version(&self) -> u64 {
        self.folders_version.load(Ordering::Relaxed)
    }

    /// Work a refresh would otherwise do on its critical path, for the live loader to
    /// call once a snapshot is out: frees the results the last trusting pass
    /// invalidated (a framework's old report takes a while to free) and the paths
    /// no longer held, and makes the path filter of every memo (see
    /// [`super::observe::PathFilter`]) so the next trusting pass finds them made.
    /// Otherwise the next pass does these.
    pub fn settle(&self) {
        let garbage = std::mem::take(&mut *lock(&self.invalidated));
        drop(garbage);
        self.paths.prune();
        let observed: Vec<Arc<Observed>> = lock(&self.memos)
            .values()
            .map(|m| m.observed.clone())
            .collect();
        for o in observed {
            o.filter();
        }
    }

    /// Starts a new pass (one load of a cache kept between loads): files read from now
    /// on belong to it, for [`FileCache::retain_pass`]. `changed` is `None` for a
    /// validating pass and the reported changes for a trusting one (module docs).
    pub fn begin_pass(&self, changed: Option<&[PathBuf]>) {
        debug_assert!(!self.one_load, "a cache for one load begins no other pass");
        self.pass.fetch_add(1, Ordering::Relaxed);
        self.unmeasured_pass.store(false, Ordering::Relaxed);
        self.trusting.store(changed.is_some(), Ordering::Relaxed);
        self.canonical.clear();
        drop(std::mem::take(&mut *lock(&self.invalidated)));
        let Some(changed) = changed else {
            // Every folder is listed again, and its links noted afresh.
            lock(&self.links).to.clear();
            *lock(&self.answers) = Answers::default();
            lock(&self.memos).clear();
            return;
        };
        // A change at a link's target, or above it, changes the link: what it is, and
        // what its folder's listing says of it. (Kept while it dangles; listed again,
        // a link is noted with where it points now.)
        // A change below a linked folder is one below the link too, and the other way
        // round: the system reports it under one of the two names only.
        let links: Vec<(PathBuf, PathBuf)> = lock(&self.links).to.iter().map(|(l, t)| (l.clone(), t.clone())).collect();
        let reported = changed;
        let mut changed: Vec<PathBuf> = changed.to_vec();
        for (link, target) in &links {
            // Both ways: a link to a folder above it lies below its own target. From
            // the reported paths only, so links that lead into each other stay bounded.
            let aliases: Vec<PathBuf> = reported
                .iter()
                .flat_map(|c| {
                    let below = |base: &Path| c.strip_prefix(base).ok().filter(|rest| !rest.as_os_str().is_empty());
                    [below(target).map(|rest| link.join(rest)), below(link).map(|rest| target.join(rest))]
                })
                .flatten()
                .collect();
            changed.extend(aliases);
        }
        let probe = Changes::new(&changed, Vec::new(), Vec::new());
        let moved: Vec<PathBuf> = links
            .iter()
            .filter(|(link, target)| probe.covers(target) && !probe.covers(link))
            .map(|(link, _)| link.clone())
            .collect();
        changed.extend(moved.iter().cloned());
        // A link itself changed (made, removed, pointed elsewhere): noted again when listed.
        lock(&self.links).to.retain(|link, _| !probe.covers(link));
        changed.sort();
        changed.dedup();
        let (mut relisted, mut restated, mut files_only) = self.relisted(&changed);
        for link in &moved {
            files_only = false;
            restated.push(link.clone());
            if let Some(folder) = link.parent().filter(|f| !relisted.iter().any(|r| r == f)) {
                relisted.push(folder.to_path_buf());
            }
        }
        let changed = &changed[..];
        let changes = Changes::new(changed, relisted, restated);
        let below = |p: &Path| changes.covers(p);
        // A changed file is read again (a same-size write within the clock's
        // resolution keeps its stamp); a file below a changed folder is checked by
        // its stamp, which is what tells an unchanged file in a renamed folder apart.
        {
            let mut entries = lock(&self.entries);
            for c in changed {
                if entries.remove(key_bytes(c).as_ref()).is_some() {
                    self.count_folder(c, false);
                }
            }
            // Edited files (files before and after, no symlink made or removed) hold
            // nothing below them and leave every kind, resolution and listing as it
            // was: the common refresh skips going over all the cache holds.
            if !files_only {
                for (p, e) in entries.iter_mut() {
                    if below(p.as_path()) {
                        e.suspect = true;
                    }
                }
            }
        }
        if !files_only {
            let mut answers = lock(&self.answers);
            answers.kinds.retain(|p, _| !below(p.as_path()));
            answers.resolved.retain(|p, r| !below(p.as_path()) && !r.as_ref().is_ok_and(|real| below(real.as_path())));
            answers.listings.retain(|p, _| !below(p.as_path()) && !changes.relists(p.as_path()));
        }
        // Each memo's filter rules most of them out at once; shared parts are
        // decided once (`seen`).
        let mut seen = HashMap::default();
        let mut memos = lock(&self.memos);
        let touched: Vec<ValueKey> = memos
            .iter()
            .filter(|(_, m)| m.observed.touched_once(&changes, &mut seen))
            .map(|(id, _)| *id)
            .collect();
        let invalidated: Vec<Memo> = touched.iter().filter_map(|id| memos.remove(id)).collect();
        drop(memos);
        *lock(&self.invalidated) = invalidated;
    }

    /// The folders whose listing a change at one of `changed` altered (an entry that
    /// came, went, or changed kind), and the changed paths whose kind changed. An
    /// edited file leaves both as they were, so what only listed its folder or asked
    /// whether it exists stays valid. What was not asked before counts as altered.
    /// Also says whether every changed path is a file that stays one: its listing
    /// and kind the same, not a symlink before or after.
    fn relisted(&self, changed: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>, bool) {
        let answers = lock(&self.answers);
        let (mut relisted, mut restated): (Vec<PathBuf>, Vec<PathBuf>) = (Vec::new(), Vec::new());
        let mut files_only = true;
        for path in changed {
            // What a listing would say now: `read_dir` names dangling links too.
            let now = std::fs::symlink_metadata(path).ok().map(|m| {
                let is_dir = std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false);
                (is_dir, m.file_type().is_symlink())
            });
            let kind_now = match std::fs::metadata(path) {
                Ok(m) if m.is_file() => Kind::File,
                Ok(m) if m.is_dir() => Kind::Dir,
                Ok(_) => Kind::Other,
                Err(_) => Kind::Missing,
            };
            let Some(dir) = path.parent() else {
                files_only = false;
                continue;
            };
            let known = match answers.listings.get(key_bytes(dir).as_ref()) {
                Some(Ok(Some(entries))) => Some(entries.iter().find(|e| *e.path == **path).map(|e| (e.is_dir, e.is_symlink))),
                _ => None,
            };
            if known != Some(now) && !relisted.iter().any(|d| d == dir) {
                relisted.push(dir.to_path_buf());
            }
            // A symlink made or removed changes where the path resolves to.
            let link_changed = known.flatten().map(|(_, link)| link) != now.map(|(_, link)| link);
            // As [`FileCache::kind`] answered it: kept, or told by the listing.
            let kind_before =
                answers.kinds.get(key_bytes(path).as_ref()).copied().or_else(|| Self::listed_kind(&answers, path));
            if kind_before != Some(kind_now) || link_changed {
                restated.push(path.clone());
            }
            // Its folder's listing knew it as a plain non-folder, and it is a file now
            // (a kind never asked is restated above, but nothing below it can exist).
            files_only &= kind_now == Kind::File
                && known == Some(now)
                && !link_changed
                && matches!(kind_before, None | Some(Kind::File));
        }
        (relisted, restated, files_only)
    }

    /// Files this pass reads for the first time are read without being measured (one
    /// system call less per file, and no buffer of their own for bytes not held):
    /// for the explorer's first load, whose complete catalog the user is waiting for.
    /// [`FileCache::measure_read_files`] measures them once it is on screen.
    pub fn measure_later(&self) {
        self.unmeasured_pass.store(true, Ordering::Relaxed);
    }

    /// Measures the files read without being measured, and returns those that may
    /// have changed since they were read: modified at or after `since` (when the
    /// pass began, less the clock's slack), or gone. Those keep no stamp, so the
    /// next pass that checks them reads them again; the caller reloads them.
    pub fn measure_read_files(&self, since: std::time::SystemTime) -> Vec<PathBuf> {
        // The keys share their paths: no copy of a hundred thousand paths.
        let unmeasured: Vec<(PathKey, u64, u64)> = lock(&self.entries)
            .iter()
            .filter(|(_, e)| e.stamp.changed == UNMEASURED)
            .map(|(p, e)| (p.clone(), e.version, e.stamp.len))
            .collect();
        let mut changed = Vec::new();
        for (key, version, len) in unmeasured {
            let path = key.as_path();
            let meta = std::fs::metadata(path);
            let steady = meta.as_ref().ok().filter(|m| m.len() == len && m.modified().is_ok_and(|t| t < since));
            let Some(meta) = steady else {
                changed.push(path.to_path_buf());
                continue;
            };
            if let Some(e) = lock(&self.entries).get_mut(key_bytes(path).as_ref()).filter(|e| e.version == version) {
                e.stamp = stamp(meta);
            }
        }
        changed
    }

    /// Lets go of the bytes held for the pass ([`Hold::ForPass`]) and of its memo of
    /// resolved paths: for as soon as the pass's last reader is done, before the
    /// rest of [`FileCache::retain_pass`] (the explorer indexes the new catalog
    /// meanwhile, at its resident peak).
    pub fn release_pass_holds(&self) {
        self.canonical.clear();
        for e in lock(&self.entries).values_mut().filter(|e| e.held_for_pass) {
            e.bytes = None;
            e.held_for_pass = false;
        }
    }

    /// Ends a pass. A validating pass forgets every file and memo it did not ask for
    /// (deleted, renamed or no longer referenced), so a long-lived cache holds one
    /// workspace's files only. A trusting pass keeps them: it reused results without
    /// asking for their files again, and what a change made stale is already gone.
    /// Either frees the pass's step-by-step resolutions, before the snapshot goes out
    /// and the explorer indexes it (the next pass would clear them anyway).
    pub fn retain_pass(&self) {
        self.release_pass_holds();
        if self.trusting.load(Ordering::Relaxed) {
            return;
        }
        let pass = self.pass.load(Ordering::Relaxed);
        lock(&self.entries).retain(|p, e| {
            let keep = e.pass == pass;
            if !keep {
                self.count_folder(p.as_path(), false);
            }
            keep
        });
        // Links of folders this pass did not list are no longer read through.
        let answers = lock(&self.answers);
        let mut links = lock(&self.links);
        links.to.retain(|link, _| link.parent().is_some_and(|f| answers.listings.contains_key(key_bytes(f).as_ref())));
        let folders: std::collections::HashSet<PathBuf> = links.to.values().filter_map(|t| t.parent().map(Path::to_path_buf)).collect();
        if folders != links.folders {
            links.folders = folders;
            self.folders_version.fetch_add(1, Ordering::Relaxed);
        }
        drop(links);
        drop(answers);
        lock(&self.memos).retain(|_, m| m.pass == pass);
        self.paths.prune();
    }
}

