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

//!
//! The cache is split by mechanism: the bytes of files and how long they are held
//! ([`bytes`]), answers to the other file-system questions ([`answers`]), memoized
//! results ([`memo`]), and the pass that ties them to one load ([`pass`]).

mod answers;
mod bytes;
mod memo;
mod pass;

use std::any::{Any, TypeId};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::discover::fast_hash::HashMap;
use crate::discover::lock;
use super::canonical::CanonicalMemo;
use super::path_key::{PathKey, PathTable};
use super::Files;

pub use answers::Kind;
pub use bytes::{Hold, ParseKey};
pub use pass::{Measure, Pass};

use answers::{Answers, Links};
use bytes::Entry;
use memo::Memo;

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

    /// Whether the current pass trusts what it holds (module documentation): its
    /// memos are mostly reused, so work done ahead of asking for them is mostly wasted.
    pub fn trusting(&self) -> bool {
        self.trusting.load(Ordering::Relaxed)
    }

    /// Where the cache's paths are shared (for [`super::Files::capture`]).
    pub(in crate::discover) fn path_table(&self) -> &PathTable {
        &self.paths
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
}
