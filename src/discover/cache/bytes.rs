//! The bytes of files: which version of a file is current (its stamp, or trusted in
//! a trusting pass), reading it, how long its bytes stay held ([`Hold`]), and the
//! parses kept with each version.

use std::fs::File;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::{value_key, FileCache, Shared, ValueKey};
use crate::discover::path_key::key_bytes;
use crate::discover::{lock, read_bounded, read_open, read_unmeasured, ReadError, Scratch, MAX_FILE_BYTES};

/// What identifies one version of a file without reading it: its size, and a hash of
/// its modification time and inode (only ever compared, and kept for every file held).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    pub(super) len: u64,
    pub(super) changed: u64,
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

pub(super) fn stamp(meta: &std::fs::Metadata) -> Stamp {
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(meta);
    #[cfg(not(unix))]
    let inode = 0;
    // 0 stands for a file read without being measured ([`UNMEASURED`]).
    Stamp { len: meta.len(), changed: crate::discover::hash_key((meta.modified().ok(), inode)) | 1 }
}

/// The `changed` of a file read without being measured: equal to no stamp, so the
/// file is read again unless [`FileCache::measure_read_files`] measured it since.
pub(super) const UNMEASURED: u64 = 0;

pub(super) struct Entry {
    pub(super) stamp: Stamp,
    /// Held only for files read as they are ([`FileCache::read`] with a [`Hold`]
    /// other than `Not`). A file that is
    /// only parsed keeps its parses, not its bytes: they were most of a large
    /// workspace's memory besides its agents, and a parse of the same version is
    /// reused without them (another parse of it reads the file again).
    pub(super) bytes: Option<Arc<[u8]>>,
    /// Tells the versions of a path apart: a parse is kept only with the version it
    /// was made from.
    pub(super) version: u64,
    /// The last pass ([`FileCache::begin_pass`]) that asked for the file.
    pub(super) pass: u64,
    /// A folder above it was reported changed: a trusting pass checks its stamp
    /// before using the bytes (the folder may be new to the watcher, or renamed).
    pub(super) suspect: bool,
    /// Parses of these bytes, by the deriving type and the caller's context key
    /// (boxed: a parse is added once per version, and most files have one).
    pub(super) derived: Box<[(ValueKey, Shared)]>,
    /// `bytes` are held only for the pass ([`Hold::ForPass`]).
    pub(super) held_for_pass: bool,
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

impl FileCache {
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

    /// Keeps [`FileCache::folders`] in step with a file added to (or removed from)
    /// the held files. Called with the entries locked, so the two agree.
    pub(super) fn count_folder(&self, path: &Path, added: bool) {
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
}
