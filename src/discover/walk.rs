//! The one folder walker: a tree walked as a place's [`Walking`] says (order, depth,
//! links, loops, names left out, folder budget), every question asked through the
//! file cache. The walker decides what is entered; the reader decides what each
//! entry means and how the tool words what it passes over, from the [`Visit`]s.

use std::collections::{HashSet, VecDeque};
use std::io;
use std::path::{Path, PathBuf};

use super::{name_bytes, DirEntry, Files};
use crate::model::{Links, ListingOrder, Loops, Order, Traversal, Walking};

/// An entry met in a folder being walked.
pub struct Visited<'w, T> {
    pub entry: &'w DirEntry,
    pub name: &'w str,
    /// The names of the folders from the walked folder down to the entry's folder.
    pub names: &'w [String],
    /// Its name, or a folder's on the way, starts with `.`.
    pub hidden: bool,
    /// What the reader said about the entry's folder when it was entered.
    pub state: &'w T,
}

impl<T> Visited<'_, T> {
    /// The path from the walked folder, `/`-separated.
    pub fn rel(&self) -> String {
        let mut rel = String::new();
        for n in self.names {
            rel.push_str(n);
            rel.push('/');
        }
        rel.push_str(self.name);
        rel
    }
}

/// Why an entry is neither entered nor visited as a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Its name starts with `.` ([`Walking::skip_hidden`]).
    Hidden,
    /// Its name is one of [`Walking::skip_names`].
    Named,
    /// A folder below [`Walking::depth`].
    TooDeep,
    /// A folder that leads back as [`Walking::loops`] says.
    Loop,
    /// A linked folder, which [`Links::NotEntered`] does not enter.
    Link,
    /// The first folder past [`Walking::max_folders`]; no folder is entered after it.
    Budget,
}

/// What the walk tells its reader, in walk order.
pub enum Visit<'w, T> {
    /// A folder (or a link to one) not left out by name: the reader answers whether
    /// it is entered, and with what state; it may still be skipped after (depth,
    /// loop, link, budget). `real` is its resolved path.
    Folder(Visited<'w, T>, &'w Path),
    /// Any other entry: a file, a link to nothing, a FIFO.
    File(Visited<'w, T>),
    Skipped(Visited<'w, T>, Skip),
    /// A folder (the walked one too) that could not be listed.
    Unlisted(&'w Path, &'w io::Error),
}

/// A folder to list.
struct Folder<T> {
    path: PathBuf,
    depth: u32,
    names: Vec<String>,
    hidden: bool,
    state: T,
    /// The real paths of the folders from the walked one down to this one.
    reals: Vec<PathBuf>,
}

struct Walker<'a, T, V> {
    files: Files<'a>,
    how: Walking,
    listing: ListingOrder,
    visit: V,
    seen: HashSet<PathBuf>,
    entered: usize,
    stopped: bool,
    /// The readers' state, carried by the folders.
    state: std::marker::PhantomData<fn(T)>,
}

/// A folder listed, its entries in the walk's order, and how many were taken.
struct Listed<T> {
    folder: Folder<T>,
    entries: Vec<(String, DirEntry)>,
    next: usize,
}

/// Walks the folder `root` as `how` says (nothing when it is not a folder), telling
/// `visit` what it meets; `listing` is the load's order for [`Order::Listing`].
/// `visit` answers a [`Visit::Folder`] with the state its entries will see, or `None`
/// to pass over it; its answer to anything else is not used. The walk keeps its own
/// stack: a hostile tree deep in links costs memory, not the thread's stack.
pub fn walk<T: Clone>(files: Files<'_>, root: &Path, how: &Walking, listing: ListingOrder, state: T, visit: impl FnMut(Visit<'_, T>) -> Option<T>) {
    let real = files.canonicalize(root);
    let (path, real) = match real {
        Some(real) if how.real_paths => (real.clone(), real),
        Some(real) => (root.to_path_buf(), real),
        None if how.real_paths => return,
        None => (root.to_path_buf(), root.to_path_buf()),
    };
    let mut w = Walker { files, how: *how, listing, visit, seen: HashSet::new(), entered: 1, stopped: false, state: std::marker::PhantomData };
    if how.loops == Loops::Once {
        w.seen.insert(real.clone());
    }
    let top = Folder { path, depth: 0, names: Vec::new(), hidden: false, state, reals: vec![real] };
    match how.traversal {
        Traversal::DepthFirst => {
            let mut stack: Vec<Listed<T>> = w.list(top).into_iter().collect();
            while let Some(listed) = stack.last_mut() {
                let Some((name, e)) = listed.entries.get(listed.next) else {
                    stack.pop();
                    continue;
                };
                listed.next += 1;
                if let Some(child) = w.entry(&listed.folder, e, name) {
                    stack.extend(w.list(child));
                }
            }
        }
        Traversal::FilesFirst => {
            let mut stack = vec![top];
            while let Some(folder) = stack.pop() {
                let Some(listed) = w.list(folder) else { continue };
                let below: Vec<Folder<T>> = listed.entries.iter().filter_map(|(name, e)| w.entry(&listed.folder, e, name)).collect();
                stack.extend(below.into_iter().rev());
            }
        }
        Traversal::BreadthFirst => {
            let mut queue = VecDeque::from([top]);
            while let Some(folder) = queue.pop_front() {
                let Some(listed) = w.list(folder) else { continue };
                for (name, e) in &listed.entries {
                    queue.extend(w.entry(&listed.folder, e, name));
                }
            }
        }
    }
}

impl<T: Clone, V: FnMut(Visit<'_, T>) -> Option<T>> Walker<'_, T, V> {
    /// The folder's entries in the walk's order; `None` when it is no folder or
    /// cannot be listed (the reader is told).
    fn list(&mut self, folder: Folder<T>) -> Option<Listed<T>> {
        let entries = match self.files.list_dir(&folder.path) {
            Ok(Some(entries)) => entries,
            Ok(None) => return None,
            Err(e) => {
                (self.visit)(Visit::Unlisted(&folder.path, &e));
                return None;
            }
        };
        let mut entries: Vec<(String, DirEntry)> = entries.iter().map(|e| (e.name().into_owned(), e.clone())).collect();
        let by_bytes = |a: &(String, DirEntry), b: &(String, DirEntry)| name_bytes(&a.1.path).cmp(name_bytes(&b.1.path));
        match self.how.order {
            Order::Listing => match self.listing {
                ListingOrder::Name => entries.sort_by(by_bytes),
                ListingOrder::System => entries.sort_by_key(|e| e.1.listed),
            },
            Order::CodePoints => {}
            Order::Bytes => entries.sort_by(by_bytes),
            Order::Utf16 => entries.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16())),
        }
        Some(Listed { folder, entries, next: 0 })
    }

    /// Tells the reader of one entry of `folder`; a folder to enter is returned.
    fn entry(&mut self, folder: &Folder<T>, e: &DirEntry, name: &str) -> Option<Folder<T>> {
        let hidden = folder.hidden || name.starts_with('.');
        let visited = || Visited { entry: e, name, names: &folder.names, hidden, state: &folder.state };
        let skip = if self.how.skip_hidden && name.starts_with('.') {
            Some(Skip::Hidden)
        } else if self.how.skip_names.contains(&name) {
            Some(Skip::Named)
        } else {
            None
        };
        if let Some(skip) = skip {
            (self.visit)(Visit::Skipped(visited(), skip));
            return None;
        }
        if !e.is_dir {
            (self.visit)(Visit::File(visited()));
            return None;
        }
        let real = self.files.canonicalize(&e.path).unwrap_or_else(|| e.path.to_path_buf());
        let state = (self.visit)(Visit::Folder(visited(), &real))?;
        let looped = match self.how.loops {
            Loops::Ancestor => folder.reals.iter().any(|a| a.starts_with(&real)),
            Loops::OnPath => folder.reals.contains(&real),
            Loops::Once => self.seen.contains(&real),
            Loops::Unchecked => false,
        };
        let skip = if self.how.links == Links::NotEntered && e.is_symlink {
            Some(Skip::Link)
        } else if self.how.depth.is_some_and(|d| folder.depth + 1 > d) {
            Some(Skip::TooDeep)
        } else if looped {
            Some(Skip::Loop)
        } else if self.entered >= self.how.max_folders {
            (!std::mem::replace(&mut self.stopped, true)).then_some(Skip::Budget)
        } else {
            None
        };
        if let Some(skip) = skip {
            (self.visit)(Visit::Skipped(visited(), skip));
            return None;
        }
        if self.entered >= self.how.max_folders {
            return None;
        }
        self.entered += 1;
        if self.how.loops == Loops::Once {
            self.seen.insert(real.clone());
        }
        let mut names = folder.names.clone();
        names.push(name.to_string());
        let mut reals = folder.reals.clone();
        reals.push(real.clone());
        let path = if self.how.real_paths { real } else { e.path.to_path_buf() };
        Some(Folder { path, depth: folder.depth + 1, names, hidden, state, reals })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::FileCache;

    /// root/{b.md, A/{x.md, up -> root}, .hidden/h.md, node_modules/n.md, d1/d2/d3/deep.md}
    fn tree(name: &str) -> PathBuf {
        let root = std::env::temp_dir().join(format!("agentry-walk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["A", ".hidden", "node_modules", "d1/d2/d3"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        for file in ["b.md", "A/x.md", ".hidden/h.md", "node_modules/n.md", "d1/d2/d3/deep.md"] {
            std::fs::write(root.join(file), "x").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(&root, root.join("A/up")).unwrap();
        root
    }

    /// What the walk reports, in order: `file REL`, `skip REL WHY`, `folder REL`.
    fn events(root: &Path, how: Walking) -> Vec<String> {
        let cache = FileCache::new();
        let mut out = Vec::new();
        walk(cache.untracked(), root, &how, ListingOrder::Name, (), |visit| {
            match visit {
                Visit::Folder(v, _) => {
                    out.push(format!("folder {}", v.rel()));
                    return Some(());
                }
                Visit::File(v) => out.push(format!("file {}", v.rel())),
                Visit::Skipped(v, why) => out.push(format!("skip {} {why:?}", v.rel())),
                Visit::Unlisted(dir, _) => out.push(format!("unlisted {}", dir.display())),
            }
            None
        });
        out
    }

    #[cfg(unix)]
    #[test]
    fn the_walk_follows_the_places_data() {
        let root = tree("data");
        let all = events(&root, Walking::to_depth(None));
        assert_eq!(
            all,
            [
                "folder .hidden", "file .hidden/h.md", "folder A", "folder A/up", "skip A/up Loop", "file A/x.md", "file b.md",
                "folder d1", "folder d1/d2", "folder d1/d2/d3", "file d1/d2/d3/deep.md", "folder node_modules", "file node_modules/n.md",
            ]
        );
        let skipping = events(&root, Walking::to_depth(Some(1)).skip(true, &["node_modules"]));
        assert_eq!(
            skipping,
            ["skip .hidden Hidden", "folder A", "folder A/up", "skip A/up TooDeep", "file A/x.md", "file b.md", "folder d1", "folder d1/d2", "skip d1/d2 TooDeep", "skip node_modules Named"]
        );
        let files_first = events(&root, Walking::to_depth(None).skip(true, &["node_modules"]).traversal(Traversal::FilesFirst));
        // The root's entries are all met before anything below them.
        assert_eq!(files_first[..5], ["skip .hidden Hidden", "folder A", "file b.md", "folder d1", "skip node_modules Named"]);
        let breadth = events(&root, Walking::to_depth(None).skip(true, &["node_modules"]).traversal(Traversal::BreadthFirst));
        let files: Vec<&String> = breadth.iter().filter(|e| e.starts_with("file")).collect();
        assert_eq!(files, ["file b.md", "file A/x.md", "file d1/d2/d3/deep.md"]);
        // Without a loop check the link is entered again, down to the depth limit.
        let unchecked = events(&root, Walking::to_depth(Some(2)).loops(Loops::Unchecked).skip(true, &["node_modules"]));
        assert!(unchecked.contains(&"file A/up/b.md".to_string()) && unchecked.contains(&"skip A/up/A TooDeep".to_string()));
        let not_entered = events(&root, Walking::to_depth(None).links(Links::NotEntered).skip(true, &[]));
        assert!(not_entered.contains(&"skip A/up Link".to_string()));
        let budget = events(&root, Walking::to_depth(None).skip(true, &[]).max_folders(2));
        // The first folder past the budget is reported, later ones are passed over.
        let expected = ["skip .hidden Hidden", "folder A", "folder A/up", "skip A/up Loop", "file A/x.md", "file b.md", "folder d1", "skip d1 Budget", "folder node_modules"];
        assert_eq!(budget, expected);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[cfg(unix)]
    #[test]
    fn each_real_folder_once_and_real_paths() {
        let root = tree("once");
        // `A/up` leads back to the root, already walked: not entered again.
        let once = events(&root, Walking::to_depth(None).loops(Loops::Once).skip(true, &["node_modules"]));
        assert!(once.contains(&"skip A/up Loop".to_string()));
        let cache = FileCache::new();
        let mut paths = Vec::new();
        let how = Walking::to_depth(None).loops(Loops::Once).real_paths();
        walk(cache.untracked(), &root.join("A/up/A"), &how, ListingOrder::Name, (), |visit| {
            if let Visit::File(v) = visit {
                paths.push(v.entry.path.to_path_buf());
            }
            Some(())
        });
        // From `A/up/A` (the real `A`): `up` is the real root, not yet walked, so it
        // is entered; the real `A` inside it is not entered again.
        let real = std::fs::canonicalize(&root).unwrap();
        let expected: Vec<PathBuf> = [".hidden/h.md", "b.md", "d1/d2/d3/deep.md", "node_modules/n.md", "A/x.md"].iter().map(|f| real.join(f)).collect();
        assert_eq!(paths, expected);
        let _ = std::fs::remove_dir_all(&root);
    }
}
