//! What a computation asked of the file system: the record that lets the live loader
//! reuse a result (a framework's report, one definition's resolution) after a change,
//! exactly when no answer it was built from can have changed.
//!
//! Every query a framework makes goes through [`super::Files`], which notes an
//! [`Observation`] (the kind of question and the path asked about) in the recorder of
//! the computation running. A finished computation's observations are an
//! [`Observed`] tree: its own questions plus the trees of the memoized computations
//! it reused, shared by `Arc` so reusing a result costs no copy.
//!
//! A question a recorder cannot express (a template reading a file at render time,
//! the wall clock) is flagged with [`untracked_access`]: a computation that made one
//! is never reused.

use std::cell::Cell;
use crate::discover::fast_hash::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::path_key::PathTable;

/// The kind of question asked about a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// The file's bytes.
    Read,
    /// Whether it exists, and as what (file, folder).
    Stat,
    /// The entries of a folder (names and whether each is a folder).
    List,
    /// The path with symlinks resolved (`canonicalize`); noted for the path asked
    /// about and for the answer, since a change below either changes it.
    Resolve,
}

/// One question: its kind and the path it was about ([`clean`]; shared with the
/// file cache's keys, see `PathTable`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub asked: Asked,
    pub path: Arc<Path>,
}

/// What changed since the last pass: the paths reported, the folders whose entries
/// came, went or changed kind among them (an edited file leaves its folder's listing
/// as it was), and the reported paths whose kind (missing, file, folder, symlink)
/// changed (an edited file is still a file where it was).
#[derive(Clone, Debug, Default)]
pub struct Changes {
    pub paths: Vec<PathBuf>,
    pub relisted: Vec<PathBuf>,
    pub restated: Vec<PathBuf>,
    /// The [`PathFilter`] hashes of `paths` and `relisted`, for skipping computations
    /// that observed nothing at or below them; `None` (made by hand, or a change at
    /// the root) checks everything.
    probes: Option<Vec<u64>>,
}

impl Changes {
    /// The changes at `paths` (made [`clean`]), with the folders `relisted` and the
    /// paths `restated`.
    pub fn new(paths: &[PathBuf], relisted: Vec<PathBuf>, restated: Vec<PathBuf>) -> Changes {
        let clean_all = |v: &[PathBuf]| v.iter().map(|p| clean(p)).collect::<Vec<_>>();
        let (paths, relisted, restated) = (clean_all(paths), clean_all(&relisted), clean_all(&restated));
        let at_root = paths.iter().chain(&relisted).any(|p| p.as_os_str().as_encoded_bytes() == b"/");
        let probes = (!at_root).then(|| paths.iter().chain(&relisted).map(|p| path_hash(p)).collect());
        Changes { paths, relisted, restated, probes }
    }

    /// `false` when nothing `filter` was made from is at or below a changed path or
    /// is a relisted folder, so no observation behind it is touched.
    fn may_touch(&self, filter: &PathFilter) -> bool {
        self.probes.as_ref().is_none_or(|probes| probes.iter().any(|h| filter.may_hold(*h)))
    }

    /// `true` when the listing of `dir` may have changed.
    pub fn relists(&self, dir: &Path) -> bool {
        if is_clean(dir) {
            self.relisted.iter().any(|d| d == dir)
        } else {
            let dir = clean(dir);
            self.relisted.contains(&dir)
        }
    }

    /// `true` when `path` is, or is below, a changed path.
    pub fn covers(&self, path: &Path) -> bool {
        if is_clean(path) {
            self.paths.iter().any(|c| is_below(path, c))
        } else {
            let path = clean(path);
            self.paths.iter().any(|c| is_below(&path, c))
        }
    }
}

impl Observation {
    pub fn new(asked: Asked, path: &Path) -> Observation {
        Observation { asked, path: clean(path).into() }
    }

    /// `true` when `changes` may change this question's answer: the path itself or a
    /// folder above it changed (a folder renamed or deleted takes its contents
    /// along), or, for a listing, an entry of the folder came or went.
    pub fn touched_by(&self, changes: &Changes) -> bool {
        // What a path is, and where it resolves to, change only when its kind does
        // (or a folder above it changed); its bytes change with any write.
        let kind_only = matches!(self.asked, Asked::Stat | Asked::Resolve);
        changes.paths.iter().any(|c| is_below(&self.path, c) && !(kind_only && *self.path == **c && !changes.restated.contains(c)))
            || (self.asked == Asked::List && changes.relisted.iter().any(|d| **d == *self.path))
    }
}

/// `Path::starts_with` for [`clean`] paths, on bytes: a refresh checks every
/// observation of every memo, and comparing components is several times slower.
fn is_below(path: &Path, folder: &Path) -> bool {
    let (p, f) = (path.as_os_str().as_encoded_bytes(), folder.as_os_str().as_encoded_bytes());
    p.starts_with(f) && (p.len() == f.len() || p[f.len()] == b'/' || f.ends_with(b"/"))
}

/// The path in one spelling, so comparing bytes compares paths: absolute, without
/// `.`, `..` (taken lexically, as notify's paths are), doubled or trailing
/// separators. Most paths already are; only the others are rebuilt.
pub fn clean(path: &Path) -> PathBuf {
    if is_clean(path) {
        path.to_path_buf()
    } else {
        crate::model::normalize(path)
    }
}

/// Normal ([`crate::model::is_normal`]): a refresh asks this of every path the cache
/// holds, and a load of every path it notes.
fn is_clean(path: &Path) -> bool {
    crate::model::is_normal(path)
}

/// FNV-1a over a path's bytes (the hash [`PathFilter`] keeps).
fn path_hash(path: &Path) -> u64 {
    path.as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(FNV_OFFSET, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(FNV_PRIME)
        })
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x100_0000_01b3;

/// A Bloom filter of the paths a computation observed and every folder above them:
/// a change at a path it does not hold touches none of the computation's questions.
/// It lets a refresh pass over the thousands of unaffected definitions with two bit
/// tests each instead of comparing every observation with every change. 128 bits:
/// every record of a load keeps one, and most records hold a few paths.
#[derive(Clone, Copy, Debug, Default)]
pub struct PathFilter([u64; 2]);

impl PathFilter {
    fn bits(hash: u64) -> [(usize, u64); 2] {
        let bit = |h: u64| ((h as usize >> 6) & 1, 1u64 << (h & 63));
        [bit(hash), bit(hash >> 8)]
    }

    fn insert_hash(&mut self, hash: u64) {
        for (word, mask) in Self::bits(hash) {
            self.0[word] |= mask;
        }
    }

    /// Adds the path and each folder above it (below the root), hashed as
    /// [`path_hash`] hashes them, in one pass.
    fn insert_with_folders(&mut self, path: &Path) {
        let b = path.as_os_str().as_encoded_bytes();
        let mut h = FNV_OFFSET;
        for (i, byte) in b.iter().enumerate() {
            if *byte == b'/' && i > 0 {
                self.insert_hash(h);
            }
            h = (h ^ u64::from(*byte)).wrapping_mul(FNV_PRIME);
        }
        self.insert_hash(h);
    }

    fn may_hold(&self, hash: u64) -> bool {
        Self::bits(hash)
            .iter()
            .all(|(word, mask)| self.0[*word] & mask != 0)
    }

    fn union(&mut self, other: &PathFilter) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

/// A [`PathFilter`] made the first time it is asked for, kept in the record itself.
/// Bit 0 of the first word marks it made (a filter may hold that bit anyway, which
/// only adds a false positive); the second word is stored before the first, so a
/// reader that sees the mark sees the whole filter.
#[derive(Debug, Default)]
struct LazyFilter([AtomicU64; 2]);

const MADE: u64 = 1;

impl LazyFilter {
    fn get_or_init(&self, make: impl FnOnce() -> PathFilter) -> PathFilter {
        let first = self.0[0].load(Ordering::Acquire);
        if first & MADE != 0 {
            return PathFilter([first, self.0[1].load(Ordering::Relaxed)]);
        }
        let f = make();
        self.0[1].store(f.0[1], Ordering::Relaxed);
        self.0[0].store(f.0[0] | MADE, Ordering::Release);
        PathFilter([f.0[0] | MADE, f.0[1]])
    }
}

/// The observations of one finished computation.
#[derive(Debug, Default)]
pub struct Observed {
    pub own: Box<[Observation]>,
    /// The observations of the memoized results it reused or computed inside.
    pub parts: Box<[Arc<Observed>]>,
    /// Every path below, made when a refresh first asks (the fields are final by then).
    /// Inline and 16 bytes: a load makes hundreds of thousands of records, each one
    /// allocation of 64 bytes with its shared count (with a 256-bit filter behind a
    /// `OnceLock`, 96).
    filter: LazyFilter,
}

const _: () = assert!(std::mem::size_of::<Observed>() == 48, "see `Observed::filter`");

impl Observed {
    pub fn new(own: Vec<Observation>, parts: Vec<Arc<Observed>>) -> Observed {
        Observed {
            own: own.into(),
            parts: parts.into(),
            filter: LazyFilter::default(),
        }
    }

    /// The paths observed here and in every part, with the folders above them.
    pub fn filter(&self) -> PathFilter {
        self.filter.get_or_init(|| {
            let mut f = PathFilter::default();
            for o in &self.own {
                f.insert_with_folders(&o.path);
            }
            for part in &self.parts {
                f.union(&part.filter());
            }
            f
        })
    }

    /// `true` when `changes` may change any answer this computation saw, deciding each
    /// shared part once (`seen`, by address):
    /// a search list reused by thousands of definitions is checked once per pass.
    pub fn touched_once(&self, changes: &Changes, seen: &mut HashMap<*const Observed, bool>) -> bool {
        if !changes.may_touch(&self.filter()) {
            return false;
        }
        if self.own.iter().any(|o| o.touched_by(changes)) {
            return true;
        }
        for part in &self.parts {
            // Most parts are ruled out by their filter, without a look-up in `seen`.
            if !changes.may_touch(&part.filter()) {
                continue;
            }
            let key = Arc::as_ptr(part);
            let touched = match seen.get(&key) {
                Some(t) => *t,
                None => {
                    let t = part.touched_once(changes, seen);
                    seen.insert(key, t);
                    t
                }
            };
            if touched {
                return true;
            }
        }
        false
    }
}

/// What a running computation noted so far.
#[derive(Default)]
struct Notes {
    own: Vec<(Asked, PathBuf)>,
    parts: Vec<Arc<Observed>>,
}

/// Collects the observations of one running computation. Frameworks query from
/// several threads (rayon), hence the lock; it is per computation, so rarely contended.
#[derive(Default)]
pub struct Recorder {
    inner: Mutex<Notes>,
}

impl Recorder {
    pub fn note(&self, asked: Asked, path: &Path) {
        self.lock().own.push((asked, clean(path)));
    }

    /// Adds what a reused (or nested) computation observed.
    pub fn include(&self, part: Arc<Observed>) {
        self.lock().parts.push(part);
    }

    /// The observations, each question and each shared part kept once, each path
    /// shared through `paths`: a computation asks about the same paths again and
    /// again (a chain's folders, a search list), and memos keep what they observed
    /// for as long as they live.
    pub(crate) fn finish(self, paths: &PathTable) -> Observed {
        let mut notes = self.inner.into_inner().unwrap_or_else(|p| p.into_inner());
        notes.own.sort_unstable_by(|a, b| (a.1.as_os_str(), a.0 as u8).cmp(&(b.1.as_os_str(), b.0 as u8)));
        notes.own.dedup_by(|a, b| a.0 == b.0 && a.1.as_os_str() == b.1.as_os_str());
        let own: Vec<Observation> =
            notes.own.iter().map(|(asked, path)| Observation { asked: *asked, path: paths.key_of_clean(path).shared().clone() }).collect();
        notes.parts.sort_unstable_by_key(|p| Arc::as_ptr(p) as usize);
        notes.parts.dedup_by(|a, b| Arc::ptr_eq(a, b));
        Observed::new(own, notes.parts)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Notes> {
        // A panic while holding the lock leaves a valid (possibly shorter) list.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

thread_local! {
    /// Set when the running computation asked something no recorder can express.
    static UNTRACKED: Cell<bool> = const { Cell::new(false) };
}

/// Says that the computation running on this thread depends on something outside
/// the recorded observations (a template's `read_text`, the wall clock), so its
/// result must not be reused. Thread-local because such reads happen deep inside
/// template rendering, which runs on the thread of the memoized computation.
pub fn untracked_access() {
    UNTRACKED.with(|u| u.set(true));
}

/// Runs `f` and tells whether it made an untracked access; the flag of an enclosing
/// computation keeps what it had, plus this one's (an enclosing result depends on
/// whatever a nested one depended on).
pub(crate) fn watch_untracked<T>(f: impl FnOnce() -> T) -> (T, bool) {
    let outer = UNTRACKED.with(|u| u.replace(false));
    let value = f();
    let inner = UNTRACKED.with(|u| u.get());
    UNTRACKED.with(|u| u.set(outer || inner));
    (value, inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the file cache asks of a computation's observations.
    fn touches(observed: &Observed, changes: &Changes) -> bool {
        observed.touched_once(changes, &mut HashMap::default())
    }

    #[test]
    fn a_change_touches_the_path_what_is_below_it_and_the_listing_of_its_folder() {
        let at = |p: &str| Changes::new(&[p.into()], Vec::new(), Vec::new());
        let read = Observation::new(Asked::Read, Path::new("/p/a/x.md"));
        assert!(read.touched_by(&at("/p/a/x.md")));
        assert!(read.touched_by(&at("/p/a")), "a folder renamed away takes the file along");
        assert!(!read.touched_by(&at("/p/a/y.md")));
        assert!(!read.touched_by(&at("/p/a/x.md.bak")));
        let list = Observation::new(Asked::List, Path::new("/p/a"));
        let created = Changes::new(&["/p/a/new.md".into()], vec!["/p/a".into()], vec!["/p/a/new.md".into()]);
        let stat = Observation::new(Asked::Stat, Path::new("/p/a/x.md"));
        assert!(!stat.touched_by(&at("/p/a/x.md")), "an edited file is still a file");
        assert!(stat.touched_by(&Changes::new(&["/p/a/x.md".into()], Vec::new(), vec!["/p/a/x.md".into()])));
        assert!(stat.touched_by(&at("/p/a")), "its folder renamed");
        assert!(list.touched_by(&created), "a new entry changes the listing");
        assert!(!list.touched_by(&at("/p/a/x.md")), "an edited file leaves the listing as it was");
        assert!(!list.touched_by(&at("/p/a/sub/deep.md")));
        assert!(!list.touched_by(&at("/p/b")));
        assert!(list.touched_by(&at("/p")), "the folder itself renamed");
        let nested = Arc::new(Observed::new(vec![read], Vec::new()));
        let whole = Observed::new(vec![list], vec![nested]);
        assert!(touches(&whole, &at("/p/a/x.md")));
        assert!(!touches(&whole, &at("/q")));
        let spelled = Observation::new(Asked::Read, Path::new("/p/b/../a/./x.md"));
        assert!(spelled.touched_by(&at("/p/a/x.md")), "paths compare whatever their spelling");
        assert!(spelled.touched_by(&at("/p/a/")));
    }

    #[test]
    fn the_path_filter_rules_out_only_what_is_not_touched() {
        let obs = |asked, p: &str| Observation::new(asked, Path::new(p));
        let leaf = Arc::new(Observed::new(
            vec![obs(Asked::Read, "/p/a/x.md"), obs(Asked::Stat, "/p/b/y.md")],
            Vec::new(),
        ));
        let whole = Observed::new(vec![obs(Asked::List, "/p/c")], vec![leaf.clone(), leaf]);
        let changes = [
            Changes::new(&["/p/a/x.md".into()], Vec::new(), Vec::new()),
            Changes::new(&["/p/a".into()], Vec::new(), Vec::new()),
            Changes::new(&["/p".into()], Vec::new(), Vec::new()),
            Changes::new(&["/".into()], Vec::new(), Vec::new()),
            Changes::new(&["/p/b/y.md".into()], Vec::new(), vec!["/p/b/y.md".into()]),
            Changes::new(&["/p/b/y.md".into()], Vec::new(), Vec::new()),
            Changes::new(&["/p/c/new.md".into()], vec!["/p/c".into()], Vec::new()),
            Changes::new(&["/p/c/z.md".into()], Vec::new(), Vec::new()),
            Changes::new(
                &["/p/a/x.md.bak".into(), "/q".into()],
                Vec::new(),
                Vec::new(),
            ),
        ];
        let touched: Vec<bool> = changes.iter().map(|c| touches(&whole, c)).collect();
        assert_eq!(
            touched,
            [true, true, true, true, true, false, true, false, false]
        );
        // The same answers with the filter left out.
        for c in &changes {
            let unfiltered = Changes {
                paths: c.paths.clone(),
                relisted: c.relisted.clone(),
                restated: c.restated.clone(),
                probes: None,
            };
            assert_eq!(touches(&whole, &unfiltered), touches(&whole, c), "{c:?}");
        }
        assert!(
            !Changes::new(&["/elsewhere/f.md".into()], Vec::new(), Vec::new())
                .may_touch(&whole.filter())
        );
    }

    #[test]
    fn clean_paths_are_told_apart() {
        for p in ["/", "/a", "/a/.b", "/a/..b/c", "/a/b.", "/.x/y"] {
            assert!(is_clean(Path::new(p)), "{p}");
        }
        for p in [
            "", "a/b", "/a/", "//a", "/a//b", "/a/./b", "/a/..", "/a/../b", "/a/.",
        ] {
            assert!(!is_clean(Path::new(p)), "{p}");
        }
    }

    #[test]
    fn an_untracked_access_reaches_the_enclosing_computation() {
        let ((_, inner), outer) = watch_untracked(|| watch_untracked(untracked_access));
        assert!(inner && outer);
        let (_, clean) = watch_untracked(|| ());
        assert!(!clean);
    }
}
