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
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

/// One question: its kind and the path it was about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub asked: Asked,
    pub path: PathBuf,
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
}

impl Changes {
    /// The changes at `paths` (made [`clean`]), with the folders `relisted` and the
    /// paths `restated`.
    pub fn new(paths: &[PathBuf], relisted: Vec<PathBuf>, restated: Vec<PathBuf>) -> Changes {
        let clean_all = |v: &[PathBuf]| v.iter().map(|p| clean(p)).collect();
        Changes { paths: clean_all(paths), relisted: clean_all(&relisted), restated: clean_all(&restated) }
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
        Observation { asked, path: clean(path) }
    }

    /// `true` when `changes` may change this question's answer: the path itself or a
    /// folder above it changed (a folder renamed or deleted takes its contents
    /// along), or, for a listing, an entry of the folder came or went.
    pub fn touched_by(&self, changes: &Changes) -> bool {
        // What a path is, and where it resolves to, change only when its kind does
        // (or a folder above it changed); its bytes change with any write.
        let kind_only = matches!(self.asked, Asked::Stat | Asked::Resolve);
        changes.paths.iter().any(|c| is_below(&self.path, c) && !(kind_only && self.path == *c && !changes.restated.contains(c)))
            || (self.asked == Asked::List && changes.relisted.contains(&self.path))
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

fn is_clean(path: &Path) -> bool {
    let b = path.as_os_str().as_encoded_bytes();
    b == b"/" || (b.first() == Some(&b'/') && b[1..].split(|c| *c == b'/').all(|s| !s.is_empty() && s != b"." && s != b".."))
}

/// The observations of one finished computation.
#[derive(Debug, Default)]
pub struct Observed {
    pub own: Vec<Observation>,
    /// The observations of the memoized results it reused or computed inside.
    pub parts: Vec<Arc<Observed>>,
}

impl Observed {
    /// `true` when `changes` may change any answer this computation saw.
    pub fn touched_by(&self, changes: &Changes) -> bool {
        self.touched_once(changes, &mut HashMap::new())
    }

    /// [`Observed::touched_by`], deciding each shared part once (`seen`, by address):
    /// a search list reused by thousands of definitions is checked once per pass.
    pub fn touched_once(&self, changes: &Changes, seen: &mut HashMap<*const Observed, bool>) -> bool {
        if self.own.iter().any(|o| o.touched_by(changes)) {
            return true;
        }
        for part in &self.parts {
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

    /// How many questions, counting shared parts once per use.
    pub fn len(&self) -> usize {
        self.own.len() + self.parts.iter().map(|p| p.len()).sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Collects the observations of one running computation. Frameworks query from
/// several threads (rayon), hence the lock; it is per computation, so rarely contended.
#[derive(Default)]
pub struct Recorder {
    inner: Mutex<Observed>,
}

impl Recorder {
    pub fn note(&self, asked: Asked, path: &Path) {
        self.lock().own.push(Observation::new(asked, path));
    }

    /// Adds what a reused (or nested) computation observed.
    pub fn include(&self, part: Arc<Observed>) {
        self.lock().parts.push(part);
    }

    pub fn finish(self) -> Observed {
        self.inner.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Observed> {
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

    #[test]
    fn a_change_touches_the_path_what_is_below_it_and_the_listing_of_its_folder() {
        let at = |p: &str| Changes::new(&[p.into()], Vec::new(), Vec::new());
        let read = Observation { asked: Asked::Read, path: "/p/a/x.md".into() };
        assert!(read.touched_by(&at("/p/a/x.md")));
        assert!(read.touched_by(&at("/p/a")), "a folder renamed away takes the file along");
        assert!(!read.touched_by(&at("/p/a/y.md")));
        assert!(!read.touched_by(&at("/p/a/x.md.bak")));
        let list = Observation { asked: Asked::List, path: "/p/a".into() };
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
        let nested = Arc::new(Observed { own: vec![read], parts: Vec::new() });
        let whole = Observed { own: vec![list], parts: vec![nested] };
        assert!(whole.touched_by(&at("/p/a/x.md")));
        assert!(!whole.touched_by(&at("/q")));
        let spelled = Observation::new(Asked::Read, Path::new("/p/b/../a/./x.md"));
        assert!(spelled.touched_by(&at("/p/a/x.md")), "paths compare whatever their spelling");
        assert!(spelled.touched_by(&at("/p/a/")));
        assert_eq!(whole.len(), 2);
    }

    #[test]
    fn an_untracked_access_reaches_the_enclosing_computation() {
        let ((_, inner), outer) = watch_untracked(|| watch_untracked(untracked_access));
        assert!(inner && outer);
        let (_, clean) = watch_untracked(|| ());
        assert!(!clean);
    }
}
