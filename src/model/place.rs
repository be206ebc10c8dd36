//! Where a tool looks for definitions: one [`Place`] per folder (or file) a reader
//! reads, in the reader's precedence order. A reader declares its places once, from
//! the load's roots, environment and settings; its scan walks them, its ladder ranks
//! by their tiers, and the watcher, the Sources pane, `why`, `file` and `walk` read
//! them from the report.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{normalize, Scope, Walking};

/// What a place holds: a kind of definition, or the settings that change how they
/// are read. A tool with skills adds rows of their own kind to the same table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlaceKind {
    Agents,
    /// Skill folders (`.claude/skills`, `.agents/skills`) and command files.
    Skills,
    /// Settings, config and manifest files (`settings.json`, an extension's manifest):
    /// read for what they say about the definitions, never ranked.
    Settings,
}

/// How much of a place's folder is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Reach {
    /// Folders below the place still read: 0 is the top level only, `None` any depth.
    pub depth: Option<u32>,
    /// File name endings read (`.md`, `.agent.md`, `config.toml`); empty is any file.
    pub suffixes: &'static [&'static str],
    /// The place is one file, its `dir` the file's path (a file an environment
    /// variable or a plugin names).
    pub file: bool,
    /// How the tool walks the folder (`discover::walk`); not part of `--json`.
    #[serde(skip)]
    pub walk: Walking,
}

impl Reach {
    pub const fn top(suffixes: &'static [&'static str]) -> Reach { Reach::new(Some(0), suffixes) }

    pub const fn tree(suffixes: &'static [&'static str]) -> Reach { Reach::new(None, suffixes) }

    pub const fn to_depth(depth: u32, suffixes: &'static [&'static str]) -> Reach { Reach::new(Some(depth), suffixes) }

    /// A folder read down to `depth`, walked to the same depth as [`Walking::to_depth`] says.
    pub const fn new(depth: Option<u32>, suffixes: &'static [&'static str]) -> Reach {
        Reach { depth, suffixes, file: false, walk: Walking::to_depth(depth) }
    }

    /// The same reach, its folder walked as `walk` says.
    pub const fn walking(self, walk: Walking) -> Reach { Reach { walk, ..self } }

    /// One file.
    pub const FILE: Reach = Reach { file: true, ..Reach::top(&[]) };
}

/// One place a tool reads definitions from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    pub kind: PlaceKind,
    pub scope: Scope,
    /// What the source paths of files found here are written relative to.
    pub base: PathBuf,
    /// The folder (with `depth` 0 and one file name in `suffixes`, a file's folder).
    pub dir: PathBuf,
    pub reach: Reach,
    /// The rung of the tool's ladder the place ranks in (several places may share one).
    pub tier: usize,
    /// How the place is named to people and in rules ("project .claude/agents").
    pub label: String,
    /// How it ranks, in words ("searched 2", "layer 1 of 3, the last one wins");
    /// empty when the label says it.
    pub rank: String,
    /// Read only once trust or a setting allows it (an untrusted project's plugins):
    /// its definitions are `HELD`.
    pub held: bool,
    /// Not walked: it holds files reached from definitions (`extend`, a prompt path,
    /// a config file naming another), found only by following them.
    pub reached: bool,
}

impl Place {
    /// An agents place, not held, with no rank in words.
    pub fn agents(tier: usize, scope: Scope, base: &Path, dir: PathBuf, reach: Reach, label: impl Into<String>) -> Place {
        Place {
            kind: PlaceKind::Agents,
            scope,
            base: base.to_path_buf(),
            dir,
            reach,
            tier,
            label: label.into(),
            rank: String::new(),
            held: false,
            reached: false,
        }
    }

    /// Settings files (`reach` says which) that change how the definitions are read.
    pub fn settings(scope: Scope, base: &Path, dir: PathBuf, reach: Reach, label: impl Into<String>) -> Place {
        Place { kind: PlaceKind::Settings, ..Place::agents(usize::MAX, scope, base, dir, reach, label) }
    }

    /// A skills place: [`Place::agents`] of kind [`PlaceKind::Skills`].
    pub fn skills(tier: usize, scope: Scope, base: &Path, dir: PathBuf, reach: Reach, label: impl Into<String>) -> Place {
        Place { kind: PlaceKind::Skills, ..Place::agents(tier, scope, base, dir, reach, label) }
    }

    pub fn holds_agents(&self) -> bool { self.kind == PlaceKind::Agents }

    pub fn holds_skills(&self) -> bool { self.kind == PlaceKind::Skills }

    /// A place of definitions of either kind (not settings).
    pub fn holds_definitions(&self) -> bool { self.kind != PlaceKind::Settings }

    /// Where files reached from definitions are (`reach` says how far), in its own
    /// words: a referenced file (`Reach::FILE`), or a folder of them.
    pub fn reached(scope: Scope, base: &Path, dir: PathBuf, reach: Reach, label: impl Into<String>) -> Place {
        Place { reached: true, ..Place::agents(usize::MAX, scope, base, dir, reach, label) }
    }

    pub fn ranked(mut self, rank: impl Into<String>) -> Place {
        self.rank = rank.into();
        self
    }

    pub fn held(mut self, held: bool) -> Place {
        self.held = held;
        self
    }

    /// The label with the rank, as the Sources pane lists the place.
    pub fn role(&self) -> String {
        if self.rank.is_empty() { self.label.clone() } else { format!("{} ({})", self.label, self.rank) }
    }

    /// Whether the place reads `path` (a file): below its folder, within its depth,
    /// with one of its endings (compared without case: a view does not know the tool's).
    /// The place itself counts: a place that is one file, or a folder place that
    /// turned out to be a file (which the tool then tries to read).
    pub fn covers(&self, path: &Path) -> bool {
        let path = normalize(path);
        if path == normalize(&self.dir) {
            return true;
        }
        let Ok(rel) = path.strip_prefix(normalize(&self.dir)) else { return false };
        let parts = rel.components().count();
        parts > 0 && self.reach.depth.is_none_or(|d| parts - 1 <= d as usize) && self.ending_read(&path)
    }

    /// Whether the file name of `path` ends as the place's files do.
    pub fn ending_read(&self, path: &Path) -> bool {
        let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        let suffixes = self.reach.suffixes;
        // An ending with a dot is a file type (`.md`, never the bare `.md`); one without,
        // a whole file name (`config.toml`, `SYSTEM.md`).
        suffixes.is_empty()
            || suffixes.iter().any(|s| {
                let s = s.to_lowercase();
                if s.starts_with('.') { name.ends_with(&s) && name.len() > s.len() } else { name == s }
            })
    }
}

/// Numbers the places' ranks in order: "`word` 1", "`word` 2"…
pub fn numbered(places: &mut [Place], word: &str) {
    for (i, p) in places.iter_mut().enumerate() {
        p.rank = format!("{word} {}", i + 1);
    }
}
