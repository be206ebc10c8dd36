use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::path::{normalized, posix, relative_to};

/// Which part of the machine a definition comes from. The order of the variants is
/// the order agentry lists them in when a framework does not decide otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Project,
    User,
    Xdg,
    Builtin,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Xdg => "xdg",
            Scope::Builtin => "builtin",
        }
    }
}

/// The folders a workspace is made of. `builtins` is the folder standing in for the
/// framework's own built-in agents when the user names one (`--builtins`); when it is
/// `None` each framework looks for its installed package itself.
#[derive(Clone, Debug, Serialize)]
pub struct Roots {
    /// The project root: the repository's top folder (the nearest ancestor with
    /// `.git`) in a real run, or the folder the user names.
    pub project: PathBuf,
    pub home: PathBuf,
    pub xdg: PathBuf,
    pub builtins: Option<PathBuf>,
    /// The folder the tool is started in (`--cwd`): the project root or a folder
    /// below it. Tools that walk from it up to the root read every level between.
    pub cwd: PathBuf,
    /// Whether the user trusts (has acknowledged) the project folder (`--untrusted`).
    pub trusted: bool,
    /// The order folder entries are taken in by tools that take the file system's.
    pub listing: ListingOrder,
    /// Whose views are shown: the project's tool set. Every framework loads whatever
    /// it holds; the views filter by it ([`crate::toolset`]).
    pub tools: crate::model::toolset::ToolSet,
}

/// How a folder's entries are ordered for a tool that reads them as `readdir` gives
/// them (FORMAT.md, "Folder listing order").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ListingOrder {
    /// The file system's own order, as the tool would see it.
    System,
    /// Sorted byte order of the names (`AGENTRY_LISTING_ORDER=name`), as the oracles
    /// pin it so fixtures agree on every machine.
    Name,
}

impl ListingOrder {
    /// `Name` when `AGENTRY_LISTING_ORDER=name` is set in the environment.
    pub fn from_env() -> ListingOrder {
        match std::env::var("AGENTRY_LISTING_ORDER") {
            Ok(v) if v.eq_ignore_ascii_case("name") => ListingOrder::Name,
            _ => ListingOrder::System,
        }
    }
}

impl Roots {
    /// A workspace started at the project root, trusted, listing folders in the
    /// order `AGENTRY_LISTING_ORDER` asks for.
    pub fn new(project: PathBuf, home: PathBuf, xdg: PathBuf, builtins: Option<PathBuf>) -> Roots {
        Roots { cwd: project.clone(), project, home, xdg, builtins, trusted: true, listing: ListingOrder::from_env(), tools: Default::default() }
    }

    /// The folders from the working folder up to the project root, nearest first
    /// (just the root when the working folder is not below it).
    pub fn walk_up(&self) -> Vec<PathBuf> {
        let root = normalized(&self.project).into_owned();
        let mut dir = normalized(&self.cwd).into_owned();
        if !below_or_at(&dir, &root) {
            return vec![root];
        }
        let mut out = Vec::new();
        loop {
            out.push(dir.clone());
            if dir == root || !dir.pop() {
                break;
            }
        }
        out
    }

    /// The scope whose root holds `path` most specifically, and the path relative to
    /// it. A path outside all roots is written relative to the project (it may start
    /// with `..`), as the frameworks' reports do.
    pub fn locate(&self, path: &Path, builtins: Option<&Path>) -> (Scope, String) {
        // Called for every definition of every load: the roots are normalised without
        // a copy when they already are (the usual case).
        let path = normalized(path);
        let roots = [
            (Scope::Builtin, builtins.map(normalized)),
            (Scope::Project, Some(normalized(&self.project))),
            (Scope::User, Some(normalized(&self.home))),
            (Scope::Xdg, Some(normalized(&self.xdg))),
        ];
        // The longest root holding the path; of equal ones the last (as `max_by_key`).
        let mut best: Option<(Scope, &Path)> = None;
        for (scope, root) in &roots {
            let Some(root) = root.as_deref() else { continue };
            if below_or_at(&path, root) && best.is_none_or(|(_, b)| root.as_os_str().len() >= b.as_os_str().len()) {
                best = Some((*scope, root));
            }
        }
        match best {
            Some((scope, root)) => {
                // `os.path.relpath` of a root to itself is `.`, never empty.
                let rel = plain_below(&path, root)
                    .map(str::to_string)
                    .unwrap_or_else(|| posix(path.strip_prefix(root).unwrap_or(&path)));
                (scope, if rel.is_empty() { ".".to_string() } else { rel })
            }
            None => (Scope::Project, relative_to(&path, &normalized(&self.project))),
        }
    }

    /// A [`Source`] for a file, its scope found by [`Roots::locate`].
    pub fn source(&self, path: &Path, builtins: Option<&Path>) -> Source {
        let (scope, rel) = self.locate(path, builtins);
        Source { scope, path: crate::store::shared_path(path), rel, card: None }
    }
}

/// Where one definition lives: a file in a scope, and for files holding several
/// cards, the card's name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Source {
    pub scope: Scope,
    /// The file as discovery built it (joined, not resolved through symlinks);
    /// shared with the loader's cache and the texts kept on disk
    /// ([`crate::store::shared_path`]).
    pub path: Arc<Path>,
    /// The path relative to the scope's root, with `/` separators.
    pub rel: String,
    pub card: Option<String>,
}

impl Source {
    pub fn new(scope: Scope, root: &Path, path: PathBuf) -> Source {
        let rel = plain_below(&path, root)
            .map(str::to_string)
            .unwrap_or_else(|| path.strip_prefix(root).map(posix).unwrap_or_else(|_| posix(&path)));
        Source { scope, path: crate::store::shared_path(&path), rel, card: None }
    }

    /// An agent compiled into the tool: no file anywhere, the key `builtin:NAME`.
    pub fn builtin(name: &str) -> Source {
        Source { scope: Scope::Builtin, path: Path::new("").into(), rel: name.to_string(), card: None }
    }

    /// A definition with no file of its own ([`Source::builtin`]).
    pub fn is_compiled_in(&self) -> bool {
        self.scope == Scope::Builtin && self.path.as_os_str().is_empty()
    }

    /// `SCOPE:PATH[#CARD]`, the identity used by the resolution report.
    pub fn key(&self) -> String {
        let scope = self.scope.as_str();
        let card = self.card.as_deref().map_or(0, |c| c.len() + 1);
        let mut key = String::with_capacity(scope.len() + 1 + self.rel.len() + card);
        key.push_str(scope);
        key.push(':');
        key.push_str(&self.rel);
        if let Some(card) = &self.card {
            key.push('#');
            key.push_str(card);
        }
        key
    }

    /// Whether `key` is this source's [`Source::key`], without building it.
    pub fn key_is(&self, key: &str) -> bool {
        let Some(rest) = key.strip_prefix(self.scope.as_str()).and_then(|k| k.strip_prefix(':')) else {
            return false;
        };
        let Some(rest) = rest.strip_prefix(self.rel.as_str()) else { return false };
        match &self.card {
            None => rest.is_empty(),
            Some(card) => rest.strip_prefix('#') == Some(card.as_str()),
        }
    }
}

/// `path` below `root` when it is `root`'s text, a `/` and only normal parts: then
/// the text itself is what [`posix`] of the component-wise `strip_prefix` gives,
/// without walking components (every file of every load is made a [`Source`]).
fn plain_below<'a>(path: &'a Path, root: &Path) -> Option<&'a str> {
    let root = root.as_os_str().as_encoded_bytes();
    if root.is_empty() {
        return None;
    }
    let rest = path.as_os_str().as_encoded_bytes().strip_prefix(root)?;
    let rest = rest.strip_prefix(b"/")?;
    let plain = rest.split(|&b| b == b'/').all(|part| !part.is_empty() && part != b"." && part != b"..");
    plain.then(|| std::str::from_utf8(rest).ok()).flatten()
}

/// `path.starts_with(root)` for two normalised paths ([`normalized`]), from the text
/// alone: their parts are the text between single `/`s, so `root`'s parts are a
/// prefix of `path`'s when its text is, followed by nothing or a `/`. (Walking the
/// parts was most of the cost of placing a file below the roots it is not in.)
fn below_or_at(path: &Path, root: &Path) -> bool {
    let (p, r) = (path.as_os_str().as_encoded_bytes(), root.as_os_str().as_encoded_bytes());
    r == b"/" || p.strip_prefix(r).is_some_and(|rest| rest.is_empty() || rest[0] == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_matches_the_source_that_builds_it_and_no_other() {
        let plain = Source { scope: Scope::User, path: Path::new("/h/a.md").into(), rel: "a.md".into(), card: None };
        let card = Source { card: Some("x".into()), ..plain.clone() };
        for source in [&plain, &card] {
            assert!(source.key_is(&source.key()), "{}", source.key());
        }
        for other in ["user:a.md#x", "user:a.m", "user:a.md#", "project:a.md", "user:", "a.md", "usera.md"] {
            assert!(!plain.key_is(other), "{other}");
        }
        for other in ["user:a.md", "user:a.md#", "user:a.md#xy", "user:a.mdx"] {
            assert!(!card.key_is(other), "{other}");
        }
    }

    #[test]
    fn the_walk_up_goes_from_the_working_folder_to_the_root() {
        let mut roots = Roots::new("/w/p".into(), "/h".into(), "/h/.config".into(), None);
        assert_eq!(roots.walk_up(), vec![PathBuf::from("/w/p")]);
        roots.cwd = "/w/p/a/b".into();
        assert_eq!(roots.walk_up(), vec![PathBuf::from("/w/p/a/b"), "/w/p/a".into(), "/w/p".into()]);
        roots.cwd = "/elsewhere".into();
        assert_eq!(roots.walk_up(), vec![PathBuf::from("/w/p")]);
    }

    #[test]
    fn most_specific_root_wins_and_outside_paths_are_project_relative() {
        let roots = Roots::new("/w/p".into(), "/w/h".into(), "/w/h/.config".into(), None);
        assert_eq!(roots.locate(Path::new("/w/h/.config/k/a.yaml"), None), (Scope::Xdg, "k/a.yaml".into()));
        assert_eq!(roots.locate(Path::new("/w/h/x/../a.yaml"), None), (Scope::User, "a.yaml".into()));
        assert_eq!(roots.locate(Path::new("/w/o/a.yaml"), None), (Scope::Project, "../o/a.yaml".into()));
        assert_eq!(roots.locate(Path::new("/w/p"), None), (Scope::Project, ".".into()));
        assert_eq!(
            roots.locate(Path::new("/b/a.md"), Some(Path::new("/b"))),
            (Scope::Builtin, "a.md".into())
        );
    }

    #[test]
    fn a_source_below_its_root_takes_the_short_way_only_when_it_gives_the_same() {
        let roots = ["/p", "/p/", "/", "", ".", "p", "/p/./q", "/p//q", "/p/.."];
        let paths = [
            "/p/a.md", "/p/a/b.md", "/p//a.md", "/p/./a.md", "/p/a/../b.md", "/p/", "/p", "/pq/a.md", "p/a.md",
            "./a.md", "/p/./q/a.md", "/p//q/a.md", "/p/../a.md", "/a.md", "/p/.a.md", "/p/..a/b",
        ];
        for root in roots {
            for path in paths {
                let (root, path) = (Path::new(root), Path::new(path));
                let slow = path.strip_prefix(root).map(posix).unwrap_or_else(|_| posix(path));
                let source = Source::new(Scope::Project, root, path.to_path_buf());
                assert_eq!(source.rel, slow, "{} below {}", path.display(), root.display());
            }
        }
    }

    #[test]
    fn below_or_at_is_starts_with() {
        let roots = ["/p", "/", "/p/q", "/pq", "/q"];
        let paths = ["/p/a.md", "/p", "/pq", "/pq/a", "/p/q", "/p/qr", "/p/q/a", "/"];
        for root in roots {
            for path in paths {
                let (root, path) = (Path::new(root), Path::new(path));
                assert_eq!(below_or_at(path, root), path.starts_with(root), "{} in {}", path.display(), root.display());
            }
        }
    }

    #[test]
    fn key_names_the_card() {
        let mut s = Source::new(Scope::Project, Path::new("/p"), "/p/a/b.md".into());
        assert_eq!(s.key(), "project:a/b.md");
        s.card = Some("x".into());
        assert_eq!(s.key(), "project:a/b.md#x");
    }
}
