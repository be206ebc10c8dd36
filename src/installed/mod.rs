//! Which release of each tool the user has installed, found without running it and
//! without the network: package manifests in npm global prefixes, Claude Code's own
//! install folders, Homebrew's Cellar and Caskroom, pipx and uv tool environments, and
//! commands on `PATH` whose resolved file names a version.
//!
//! Every look goes through [`Files`] (bounded reads, answers recorded), with the home
//! folder and the environment passed in: nothing here reads the process environment,
//! and no fixed system folder is searched (`/usr/local` is found as the prefix of the
//! `node` on `PATH`, as npm itself finds its default prefix), so a test's fake folders
//! are all it sees.

mod brew;
mod npm;
mod python;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::discover::{Files, Hold};
use crate::model::{DiagKind, Diagnostic};

/// The release of a tool a reader follows, and how that tool is installed: the data
/// `Framework::release` gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Release {
    /// The tool's name for people (`Claude Code`).
    pub tool: &'static str,
    /// The release whose rules the reader follows.
    pub version: &'static str,
    /// npm package names (`@anthropic-ai/claude-code`).
    pub npm: &'static [&'static str],
    /// Python distribution names (`openhands-sdk`).
    pub python: &'static [&'static str],
    /// Homebrew formulae and casks.
    pub brew: &'static [&'static str],
    /// The commands the tool installs on `PATH`.
    pub commands: &'static [&'static str],
    /// Folders below home where the tool's own installer keeps one entry per release,
    /// named by its version (`.local/share/claude/versions`).
    pub version_folders: &'static [&'static str],
    /// Folders below home that hold the npm package as a private prefix
    /// (`.claude/local`).
    pub npm_prefixes: &'static [&'static str],
}

impl Release {
    /// A release with only its name, version and npm packages set.
    pub const fn npm(tool: &'static str, version: &'static str, npm: &'static [&'static str]) -> Release {
        Release { tool, version, npm, python: &[], brew: &[], commands: &[], version_folders: &[], npm_prefixes: &[] }
    }

    /// A release of a Python tool.
    pub const fn python(tool: &'static str, version: &'static str, python: &'static [&'static str]) -> Release {
        Release { tool, version, npm: &[], python, brew: &[], commands: &[], version_folders: &[], npm_prefixes: &[] }
    }

    pub const fn brew(self, brew: &'static [&'static str]) -> Release {
        Release { brew, ..self }
    }

    pub const fn commands(self, commands: &'static [&'static str]) -> Release {
        Release { commands, ..self }
    }

    /// The package names, for people (`@anthropic-ai/claude-code`, `openhands-sdk`).
    pub fn packages(&self) -> Vec<&'static str> {
        self.npm.iter().chain(self.python).copied().collect()
    }
}

/// One installed copy of a tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Install {
    pub version: String,
    /// The file or folder the version was read from.
    pub path: PathBuf,
    /// How it was installed, in a word or two (`npm global`, `Homebrew`, `pipx`).
    pub how: &'static str,
}

/// Where to look: the home folder and the environment the tools would see.
#[derive(Clone, Copy)]
pub struct Machine<'a> {
    pub home: &'a Path,
    pub env: &'a BTreeMap<String, String>,
}

impl Machine<'_> {
    /// A variable that is set and not empty.
    fn var(&self, name: &str) -> Option<PathBuf> {
        self.env.get(name).filter(|v| !v.is_empty()).map(PathBuf::from)
    }

    /// The folders of `PATH`, in order.
    fn path_dirs(&self) -> Vec<PathBuf> {
        self.env.get("PATH").map(|p| std::env::split_paths(p).filter(|d| d.is_absolute()).collect()).unwrap_or_default()
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    fn data_home(&self) -> PathBuf {
        self.var("XDG_DATA_HOME").unwrap_or_else(|| self.home.join(".local/share"))
    }
}

/// Every installed copy of the tool found, the one the user most likely runs first:
/// the command on `PATH`, then npm prefixes, the tool's own folders, Homebrew, pipx
/// and uv. Copies found twice (through a link) are listed once.
pub fn find(files: Files, machine: &Machine, release: &Release) -> Vec<Install> {
    let mut found = Vec::new();
    for dir in machine.path_dirs() {
        for command in release.commands {
            let candidate = dir.join(command);
            if files.is_file(&candidate) {
                found.extend(from_command(files, release, &candidate));
            }
        }
    }
    found.extend(npm::find(files, machine, release));
    for folder in release.version_folders {
        found.extend(newest_entry(files, &machine.home.join(folder)).map(|(version, path)| Install { version, path, how: "own installer" }));
    }
    found.extend(brew::find(files, machine, release));
    found.extend(python::find(files, machine, release));
    let mut seen = std::collections::HashSet::new();
    found.retain(|i| seen.insert(files.canonicalize(&i.path).unwrap_or_else(|| i.path.clone())));
    found
}

/// The version behind a command on `PATH`: its resolved file inside an npm package,
/// a folder of versions, a Homebrew keg or a Python environment.
fn from_command(files: Files, release: &Release, command: &Path) -> Option<Install> {
    let real = files.canonicalize(command)?;
    if let Some(version) = named_by_versions_folder(&real) {
        return Some(Install { version, path: real, how: "command on PATH" });
    }
    if let Some(install) = brew::from_path(&real, release) {
        return Some(install);
    }
    if let Some(install) = npm::package_above(files, &real, release) {
        return Some(Install { how: "command on PATH", ..install });
    }
    python::from_launcher(files, command, release)
}

/// `…/versions/<version>`: how the native installers name a release's file.
fn named_by_versions_folder(path: &Path) -> Option<String> {
    if path.parent()?.file_name()? != "versions" {
        return None;
    }
    let name = path.file_name()?.to_str()?;
    is_version(name).then(|| name.to_string())
}

/// The entry of `dir` named by the highest version, and its path.
fn newest_entry(files: Files, dir: &Path) -> Option<(String, PathBuf)> {
    let Ok(Some(entries)) = files.list_dir(dir) else { return None };
    entries
        .iter()
        .filter_map(|e| {
            let name = e.name().into_owned();
            is_version(&name).then(|| (name, e.path.to_path_buf()))
        })
        .max_by(|a, b| crate::text::natural::cmp(&a.0, &b.0))
}

/// Whether `text` reads as a release number: a digit first, at most 64 characters
/// of digits, letters, `.`, `-` and `+`, and a dot somewhere (`2.1.337`,
/// `1.0.0-beta.3`). Anything else read from a file is not trusted as one.
pub fn is_version(text: &str) -> bool {
    text.len() <= 64
        && text.starts_with(|c: char| c.is_ascii_digit())
        && text.contains('.')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
}

/// Files larger than this are not read for a version: manifests are kilobytes.
const MAX_MANIFEST_BYTES: u64 = 4 * 1024 * 1024;

/// A small file's bytes, or nothing (missing, a folder, too large, unreadable).
fn read_small(files: Files, path: &Path) -> Option<std::sync::Arc<[u8]>> {
    let meta = files.metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_MANIFEST_BYTES {
        return None;
    }
    files.read(path, Hold::Not).ok()
}

/// One line of the tools table: a reader, the release it follows, and what is installed.
#[derive(Clone, Debug, Serialize)]
pub struct ToolRow {
    /// The tool's id, as `--tool` takes it.
    pub tool: &'static str,
    /// Its name as people know it.
    pub title: &'static str,
    pub follows: &'static str,
    pub packages: Vec<&'static str>,
    /// The copy the user most likely runs, first; empty when none was found.
    pub installed: Vec<Install>,
}

impl ToolRow {
    /// Whether the copy found first is another release than the one followed.
    pub fn differs(&self) -> bool {
        self.installed.first().is_some_and(|i| i.version != self.follows)
    }
}

/// The table of every framework: the release each follows and, with a machine to
/// look at, what is installed.
pub fn table(releases: impl IntoIterator<Item = (&'static str, Release)>, files: Files, machine: Option<&Machine>) -> Vec<ToolRow> {
    releases
        .into_iter()
        .map(|(id, release)| ToolRow {
            tool: id,
            title: release.tool,
            follows: release.version,
            packages: release.packages(),
            installed: machine.map(|m| find(files, m, &release)).unwrap_or_default(),
        })
        .collect()
}

/// The note a load gives when the installed copy of the tool is another release:
/// an info diagnostic at the file the version was read from.
pub fn note(ecosystem: &'static str, release: &Release, files: Files, machine: &Machine) -> Option<Diagnostic> {
    let install = find(files, machine, release).into_iter().next()?;
    (install.version != release.version).then(|| {
        Diagnostic::info(ecosystem, DiagKind::Release, &install.path, differs_message(release, &install.version))
    })
}

/// "Claude Code 2.1.340 installed; agentry follows 2.1.337: rules may differ".
pub fn differs_message(release: &Release, installed: &str) -> String {
    format!("{} {installed} installed; agentry follows {}: rules may differ", release.tool, release.version)
}
