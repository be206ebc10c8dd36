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
    queue: VecDeque<Folder<T>>,
}

/// Walks the folder `root` as `how` says (nothing when it is not a folder), telling
/// `visit` what it meets; `listing` is the load's order for [`Order::Listing`].
/// `visit` answers a [`Visit::Folder`] with the state its entries will see, or `None`
/// to pass over it; its answer to anything else is not used.
pub fn walk<T: Clone>(files: Files<'_>, root: &Path, how: &Walking, listing: ListingOrder, state: T, visit: impl FnMut(Visit<'_, T>) -> Option<T>) {
    let real = files.canonicalize(root);
    let (path, real) = match real {
        Some(real) if how.real_paths => (real.clone(), real),
        Some(real) => (root.to_path_buf(), real),
        None if how.real_paths => return,
        None => (root.to_path_buf(), root.to_path_buf()),
    };
    let mut w = Walker { files, how: *how, listing, visit, seen: HashSet::new(), entered: 1, stopped: false, queue: VecDeque::new() };
    if how.loops == Loops::Once {
        w.seen.insert(real.clone());
    }
    let top = Folder { path, depth: 0, names: Vec::new(), hidden: false, state, reals: vec![real] };
    w.list(top);
    while let Some(next) = w.queue.pop_front() {
        w.list(next);
    }
}

impl<T: Clone, V: FnMut(Visit<'_, T>) -> Option<T>> Walker<'_, T, V> {
    fn list(&mut self, folder: Folder<T>) {
        let entries = match self.files.list_dir(&folder.path) {
            Ok(Some(entries)) => entries,
            Ok(None) => return,
            Err(e) => {
                (self.visit)(Visit::Unlisted(&folder.path, &e));
                return;
            }
        };
        let mut ordered: Vec<(String, &DirEntry)> = entries.iter().map(|e| (e.name().into_owned(), e)).collect();
        match self.how.order {
            Order::Listing => match self.listing {
                ListingOrder::Name => ordered.sort_by(|a, b| name_bytes(&a.1.path).cmp(name_bytes(&b.1.path))),
                ListingOrder::System => ordered.sort_by_key(|e| e.1.listed),
            },
            Order::CodePoints => {}
            Order::Bytes => ordered.sort_by(|a, b| name_bytes(&a.1.path).cmp(name_bytes(&b.1.path))),
            Order::Utf16 => ordered.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16())),
        }
        match self.how.traversal {
            Traversal::DepthFirst => {
                for (name, e) in &ordered {
                    if let Some(child) = self.entry(&folder, e, name) {
                        self.list(child);
                    }
                }
            }
            Traversal::FilesFirst => {
                let below: Vec<Folder<T>> = ordered.iter().filter_map(|(name, e)| self.entry(&folder, e, name)).collect();
                for child in below {
                    self.list(child);
                }
            }
            Traversal::BreadthFirst => {
                for (name, e) in &ordered {
                    if let Some(child) = self.entry(&folder, e, name) {
                        self.queue.push_back(child);
                    }
                }
            }
        }
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
