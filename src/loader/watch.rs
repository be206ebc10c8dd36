//! What to watch and how: the folders a snapshot depends on, a filter for events
//! that cannot change a definition, and a watcher that keeps its set of watched
//! folders in step with the latest snapshot.
//!
//! Folders are watched, never single files: editors save by writing a new file and
//! renaming it over the old one, which ends a watch on the file but not on its folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::Duration;

use notify::event::{AccessKind, MetadataKind, ModifyKind};
use notify::{Event, EventKind, RecursiveMode};

use super::Control;
use crate::model::Catalog;

/// `true` for paths whose changes never change an agent: version-control internals
/// and editors' swap, backup and lock files (vim writes `4913` to test a folder).
pub fn is_ignored(path: &Path) -> bool {
    if path.components().any(|c| c.as_os_str() == ".git") {
        return true;
    }
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    name == "4913"
        || name.ends_with('~')
        || name.starts_with(".#")
        || [".swp", ".swx", ".swo"].iter().any(|s| name.ends_with(s))
}

/// Folders never worth watching below a workspace root: version control and the
/// dependency and build trees that can hold tens of thousands of folders.
const HEAVY_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "target",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".cache",
];

/// At most this many folders are watched below one workspace root: beyond it, only
/// the folders of files a load read are (each watch costs kernel memory, and the
/// walk runs after every load).
pub const MAX_WALKED_DIRS: usize = 1000;

/// The subfolders of `root`, breadth first, without following symlinks (Kimi does not
/// walk linked folders either, and a link cannot loop this way), skipping
/// [`HEAVY_DIRS`], at most [`MAX_WALKED_DIRS`].
pub(crate) fn walk(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([root.to_path_buf()]);
    while let Some(dir) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            if out.len() >= MAX_WALKED_DIRS {
                return out;
            }
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            if is_dir && !HEAVY_DIRS.iter().any(|h| e.file_name() == *h) {
                out.push(e.path());
                queue.push_back(e.path());
            }
        }
    }
    out
}

/// The folders a snapshot depends on, each with whether its subfolders count too.
///
/// - every place's folder that exists, recursively when the place reads below its
///   top level and lies inside a workspace root (agent folders are small; a settings
///   folder such as `~/.claude`, read at its top, is not watched below it); a searched project root (Kimi walks the whole
///   project, Tsugite reads `*.md` directly in it) is watched folder by folder
///   through a bounded walk that skips dependency trees, so a new `team/agent.yaml`
///   deep in the project is seen without watching `node_modules/`; a searched home
///   or XDG root is watched at its top only;
/// - for a searched folder that does not exist, its nearest existing ancestor, so
///   creating `.agents/agents/` is seen;
/// - the folder of every file the loads read (`folders_read`: parents reached through
///   `extends`, included templates, built-ins).
///
/// `walked` is [`walk`] of the project, done by the caller only when folders may have
/// come or gone.
pub fn targets(catalog: &Catalog, folders_read: &[PathBuf], walked: &[PathBuf]) -> BTreeMap<PathBuf, bool> {
    let roots = [&catalog.roots.project, &catalog.roots.home, &catalog.roots.xdg];
    let is_root_or_above = |p: &Path| roots.iter().any(|r| r.starts_with(p));
    let mut out: BTreeMap<PathBuf, bool> = BTreeMap::new();
    let add = |out: &mut BTreeMap<PathBuf, bool>, path: PathBuf, recursive: bool| {
        let entry = out.entry(path).or_insert(false);
        *entry |= recursive;
    };
    for report in &catalog.reports {
        // Each place's folder, its subfolders too where files below its top level are
        // read; a place that is one file, by its folder.
        let dirs = report
            .places
            .iter()
            .map(|p| match p.reach.file {
                true => (p.dir.parent().map(Path::to_path_buf).unwrap_or_default(), false),
                false => (p.dir.clone(), p.reach.depth != Some(0)),
            })
            .chain(report.builtins.clone().map(|b| (b, true)));
        for (dir, below) in dirs {
            if is_dir(&dir) {
                if is_root_or_above(&dir) {
                    // Only the project is walked (Kimi's entry points are anywhere in
                    // it); the home folder itself is only ever read at its top.
                    if dir == catalog.roots.project {
                        for sub in walked {
                            add(&mut out, sub.clone(), false);
                        }
                    }
                    add(&mut out, dir, false);
                } else {
                    add(&mut out, dir, below);
                }
            } else if let Some(existing) = dir.ancestors().skip(1).find(|a| is_dir(a)) {
                add(&mut out, existing.to_path_buf(), false);
            }
        }
    }
    for folder in folders_read {
        if is_dir(folder) {
            add(&mut out, folder.clone(), false);
        }
    }
    // A folder inside a recursively watched one is already covered.
    let recursive: Vec<PathBuf> = out.iter().filter(|(_, r)| **r).map(|(p, _)| p.clone()).collect();
    out.retain(|p, _| !recursive.iter().any(|r| p != r && p.starts_with(r)));
    out
}

/// What a watcher event means for the loader, if anything.
pub(crate) fn classify(event: &Event) -> Option<Control> {
    match event.kind {
        // agentry's own reads open files; they change nothing.
        EventKind::Access(AccessKind::Open(_) | AccessKind::Read | AccessKind::Any | AccessKind::Other) => return None,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => return None,
        _ => {}
    }
    if event.need_rescan() {
        return Some(Control::Rescan);
    }
    let paths: Vec<PathBuf> = event.paths.iter().filter(|p| !is_ignored(p)).cloned().collect();
    (!paths.is_empty()).then_some(Control::Changed(paths))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Watched {
    recursive: bool,
    /// The folder's inode when the watch was added: a folder deleted and created
    /// again at the same path needs a new watch.
    inode: u64,
}

fn inode(path: &Path) -> u64 {
    #[cfg(unix)]
    {
        std::fs::metadata(path).map(|m| std::os::unix::fs::MetadataExt::ino(&m)).unwrap_or(0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        0
    }
}

/// A notify watcher (or poller) and the folders it watches.
pub(crate) struct Watcher {
    inner: Box<dyn notify::Watcher + Send>,
    watched: BTreeMap<PathBuf, Watched>,
    pub polling: Option<Duration>,
}

/// The watch limit was hit: only polling can go on.
pub(crate) struct LimitReached(pub String);

fn handler(control: Sender<Control>) -> impl notify::EventHandler {
    move |res: notify::Result<Event>| {
        let msg = match res {
            Ok(event) => classify(&event),
            Err(e) if matches!(e.kind, notify::ErrorKind::MaxFilesWatch) => Some(Control::WatchError(e.to_string())),
            // Other watcher errors concern one path that may be gone; the next load
            // recomputes the watch set anyway.
            Err(_) => None,
        };
        if let Some(msg) = msg {
            let _ = control.send(msg);
        }
    }
}

impl Watcher {
    /// The operating system's notifications.
    pub fn native(control: Sender<Control>) -> Result<Watcher, String> {
        let inner = notify::recommended_watcher(handler(control)).map_err(|e| e.to_string())?;
        Ok(Watcher { inner: Box::new(inner), watched: BTreeMap::new(), polling: None })
    }

    /// Looking at the folders every `every`.
    pub fn poll(control: Sender<Control>, every: Duration) -> Result<Watcher, String> {
        let config = notify::Config::default().with_poll_interval(every);
        let inner = notify::PollWatcher::new(handler(control), config).map_err(|e| e.to_string())?;
        Ok(Watcher { inner: Box::new(inner), watched: BTreeMap::new(), polling: Some(every) })
    }

    pub fn dirs(&self) -> usize {
        self.watched.len()
    }

    /// Brings the watched set to `targets`; returns the folders newly watched. A
    /// folder that cannot be watched (gone, unreadable) is skipped; the watch limit
    /// is an error, since nothing after it can be watched either.
    ///
    /// `check_inodes` looks for folders deleted and made again under the same name;
    /// a refresh whose changes were all files (the watcher said so) can skip it.
    pub fn update(&mut self, targets: &BTreeMap<PathBuf, bool>, check_inodes: bool) -> Result<Vec<PathBuf>, LimitReached> {
        let stale: Vec<PathBuf> = self
            .watched
            .iter()
            .filter(|(p, w)| targets.get(*p) != Some(&w.recursive) || (check_inodes && inode(p) != w.inode))
            .map(|(p, _)| p.clone())
            .collect();
        for p in stale {
            let _ = self.inner.unwatch(&p);
            self.watched.remove(&p);
        }
        let mut added = Vec::new();
        for (path, &recursive) in targets {
            if self.watched.contains_key(path) {
                continue;
            }
            let mode = if recursive { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
            match self.inner.watch(path, mode) {
                Ok(()) => {
                    self.watched.insert(path.clone(), Watched { recursive, inode: inode(path) });
                    added.push(path.clone());
                }
                Err(e) if matches!(e.kind, notify::ErrorKind::MaxFilesWatch) => {
                    return Err(LimitReached(format!("{e} (raise fs.inotify.max_user_watches to watch again)")))
                }
                Err(_) => {}
            }
        }
        Ok(added)
    }
}

/// `true` when `path` is a folder, following symlinks.
fn is_dir(path: &Path) -> bool {
    std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_backup_and_git_files_are_ignored() {
        for p in ["/p/.git/index", "/p/.agents/agents/.a.md.swp", "/p/a.md~", "/p/.#a.md", "/p/4913", "/p/x.swx"] {
            assert!(is_ignored(Path::new(p)), "{p}");
        }
        for p in ["/p/.agents/agents/a.md", "/p/agents/x.yaml", "/p/.gitignore", "/p/49130"] {
            assert!(!is_ignored(Path::new(p)), "{p}");
        }
    }

    #[test]
    fn a_root_is_walked_folder_by_folder_without_dependency_trees() {
        let root = std::env::temp_dir().join(format!("agentry-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for d in ["p/team/crew", "p/node_modules/x", "p/.git/objects", "p/.agents/agents", "h/notes/2024"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("p"), root.join("p/team/loop")).unwrap();
        let catalog = Catalog {
            generation: 1,
            roots: crate::model::Roots::new(root.join("p"), root.join("h"), root.join("h/.config"), None),
            reports: vec![{
                let mut r = crate::model::EcosystemReport::new("test");
                for (path, scope) in [
                    (root.join("p"), crate::model::Scope::Project),
                    (root.join("p/.agents/agents"), crate::model::Scope::Project),
                    (root.join("h/.agents/agents"), crate::model::Scope::User),
                    // A searched home root is not walked: `h/notes` is not watched.
                    (root.join("h"), crate::model::Scope::User),
                ] {
                    let reach = crate::model::Reach::tree(&[]);
                    r.places.push(crate::model::Place::agents(0, scope, &root, path, reach, ""));
                }
                std::sync::Arc::new(r)
            }],
        };
        let t = targets(&catalog, &[], &walk(&root.join("p")));
        let got: Vec<(String, bool)> =
            t.iter().map(|(p, r)| (p.strip_prefix(&root).unwrap().display().to_string(), *r)).collect();
        let want: Vec<(String, bool)> = [
            ("h", false),
            ("p", false),
            ("p/.agents", false),
            ("p/.agents/agents", true),
            ("p/team", false),
            ("p/team/crew", false),
        ]
        .iter()
        .map(|(p, r)| (p.to_string(), *r))
        .collect();
        assert_eq!(got, want);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn own_reads_are_not_changes() {
        let open =
            Event::new(EventKind::Access(AccessKind::Open(notify::event::AccessMode::Any))).add_path("/p/a.md".into());
        assert!(classify(&open).is_none());
        let write = Event::new(EventKind::Modify(ModifyKind::Any)).add_path("/p/a.md".into());
        assert!(matches!(classify(&write), Some(Control::Changed(p)) if p == [PathBuf::from("/p/a.md")]));
        let swap = Event::new(EventKind::Create(notify::event::CreateKind::File)).add_path("/p/.a.md.swp".into());
        assert!(classify(&swap).is_none());
    }
}
