//! Entry points of a workspace. Kimi itself never scans folders (it loads the one
//! `--agent-file`); to show a whole project agentry treats as an entry point every
//! `.yaml`/`.yml` file under it (any depth, hidden folders and dot-files included,
//! symlinked files followed, symlinked folders not walked) whose YAML top level is a
//! mapping with the key `agent`, or, when the file is not UTF-8 or not YAML, whose
//! bytes have a line starting with `agent:`. This is the oracle's convention.
//!
//! The walk is iterative and bounded, skips `.git`, and reports unreadable folders
//! without stopping.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::resolve::{Bodies, Unplaced};
use super::spec;
use crate::discover::{Files, Hold, ParseKey, ReadError};
use crate::model::{DiagKind, Diagnostic};
use crate::yaml::{self, Value};

/// Folders and files one walk visits at most; a project with more is not an agent
/// workspace agentry can show usefully, and the bound keeps a mistaken root (`/`) cheap.
const MAX_WALK_ENTRIES: usize = 200_000;

/// What the walk over the folders meets, in walk order: a YAML file to look into, or
/// a problem. Kept with the memoized walk, one for each YAML file of the project: the
/// path is its folder listing's, and the rare problem boxed.
enum Met {
    Candidate(Arc<Path>),
    Problem(Box<Diagnostic>),
}

/// The entry points under `project`, in `os.walk` order (each folder's files sorted,
/// then its subfolders, depth first), with problems met on the way.
///
/// The walk over the folders is memoized apart from the look into each file: an
/// edited file (the usual refresh) changes no listing, so it costs one look, not a
/// walk of the project.
pub fn walk(files: Files, project: &Path, bodies: &Bodies) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let key = crate::discover::context_key(&format!("kimi entry walk\0{}", project.display()));
    // Sniffed once per version of the file (a refresh looks again only at the files
    // that changed), in parallel: a cold load parses every YAML file of the project.
    let met = files.memo(key, |files| {
        look_ahead(files.unrecorded(), project, bodies);
        yaml_files(files, project)
    });
    let sniffed: Vec<_> = met
        .par_iter()
        .map(|m| match m {
            Met::Candidate(path) => Some(sniffed(files, path, bodies)),
            Met::Problem(_) => None,
        })
        .collect();
    let mut found = Vec::new();
    let mut diagnostics = Vec::new();
    for (m, sniff) in met.iter().zip(sniffed) {
        match (m, sniff) {
            (Met::Problem(d), _) => diagnostics.push((**d).clone()),
            (Met::Candidate(path), Some(Ok(sniff))) => {
                if sniff.entry {
                    found.push(path.to_path_buf());
                }
            }
            (Met::Candidate(path), Some(Err(e))) => {
                diagnostics.push(Diagnostic::warning("kimi", DiagKind::Io, &**path, format!("cannot read: {e}")))
            }
            (Met::Candidate(_), None) => {}
        }
    }
    (found, diagnostics)
}

/// Lists the folders under `project` and sniffs their YAML files on every core, ahead
/// of the walk, which must go in order and then finds its answers in the file cache.
/// `files` records nothing: the walk and the sniffs note what they ask.
fn look_ahead(files: Files, project: &Path, bodies: &Bodies) {
    let visited = AtomicUsize::new(0);
    let ahead = Ahead { files, visited: &visited, bodies };
    rayon::scope(|scope| ahead.look_below(scope, project.to_path_buf()));
}

/// What the look ahead shares between its tasks.
#[derive(Clone, Copy)]
struct Ahead<'s> {
    files: Files<'s>,
    visited: &'s AtomicUsize,
    bodies: &'s Bodies,
}

impl<'s> Ahead<'s> {
    fn look_below(self, scope: &rayon::Scope<'s>, dir: PathBuf) {
        let files = self.files;
        let Ok(Some(listing)) = files.list_dir(&dir) else { return };
        // The walk stops after MAX_WALK_ENTRIES entries: so does the look ahead.
        if self.visited.fetch_add(listing.len(), Ordering::Relaxed) + listing.len() > MAX_WALK_ENTRIES {
            return;
        }
        for entry in listing.iter() {
            if entry.is_dir {
                if !entry.is_symlink && &*entry.name() != ".git" {
                    let path = entry.path.to_path_buf();
                    scope.spawn(move |scope| self.look_below(scope, path));
                }
            } else if is_yaml(&entry.name()) && files.is_file(&entry.path) {
                let _ = sniffed(files, &entry.path, self.bodies);
            }
        }
    }
}

fn is_yaml(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}

/// The regular `.yaml`/`.yml` files under `project`, in walk order, and the folders
/// that could not be listed.
fn yaml_files(files: Files, project: &Path) -> Vec<Met> {
    let mut met = Vec::new();
    let mut stack = vec![project.to_path_buf()];
    let mut visited = 0usize;
    while let Some(dir) = stack.pop() {
        let listing = match files.list_dir(&dir) {
            Ok(Some(listing)) => listing,
            Ok(None) => {
                if dir != project || files.exists(project) {
                    let message = "cannot list the folder: Not a directory".to_string();
                    met.push(Met::Problem(Box::new(Diagnostic::warning("kimi", DiagKind::Io, &dir, message))));
                }
                continue;
            }
            Err(e) => {
                met.push(Met::Problem(Box::new(Diagnostic::warning("kimi", DiagKind::Io, &dir, format!("cannot list the folder: {e}")))));
                continue;
            }
        };
        let mut subdirs = Vec::new();
        let mut names = Vec::new();
        for entry in listing.iter() {
            visited += 1;
            if visited > MAX_WALK_ENTRIES {
                met.push(Met::Problem(Box::new(Diagnostic::warning(
                    "kimi",
                    DiagKind::Io,
                    project,
                    format!("the project holds more than {MAX_WALK_ENTRIES} entries; agentry stopped looking for agent files"),
                ))));
                met.shrink_to_fit();
                return met;
            }
            // `os.walk` sorts a symlinked folder among the folders but does not enter it.
            if entry.is_dir {
                if !entry.is_symlink && &*entry.name() != ".git" {
                    subdirs.push((entry.name(), &entry.path));
                }
            } else if is_yaml(&entry.name()) {
                names.push((entry.name(), &entry.path));
            }
        }
        names.sort();
        for (_, path) in names {
            if !files.is_file(path) {
                continue; // a dangling link, a FIFO: not something Kimi could load
            }
            met.push(Met::Candidate(path.clone()));
        }
        subdirs.sort();
        stack.extend(subdirs.into_iter().rev().map(|(_, p)| p.to_path_buf()));
    }
    met.shrink_to_fit();
    met
}

/// What the look into a YAML file found: whether it is an entry point, and the
/// [`spec::unplaced`] parse of an entry point whose YAML loaded.
pub struct Sniff {
    pub entry: bool,
    pub parse: Option<Unplaced>,
}

/// [`sniff`] of the file at `path`, once per version of it. The resolution asks
/// this too: an entry point's file is then read and parsed once per load.
pub fn sniffed(files: Files, path: &Path, bodies: &Bodies) -> Result<std::sync::Arc<Sniff>, ReadError> {
    static CONTEXT: OnceLock<u64> = OnceLock::new();
    let context = *CONTEXT.get_or_init(|| crate::discover::context_key("kimi entry point"));
    files.parse(path, Hold::Not, ParseKey::look(context), |bytes| {
        let sniff = sniff(bytes, bodies);
        // The parse the resolution would have made: counted as it would have been.
        if sniff.parse.is_some() {
            files.count_parse();
        }
        sniff
    })
}

/// An entry point is a YAML mapping with the key `agent`; text that is not UTF-8 or
/// not YAML is one when a line starts with `agent:` (blanks allowed before the
/// colon). The YAML of an entry point is validated right away (shared through
/// `bodies` with other paths to the same bytes), so that the resolution does not
/// load it again.
fn sniff(bytes: &[u8], bodies: &Bodies) -> Sniff {
    // Both ways of being an entry spell `agent` in the bytes, but for a quoted key
    // written with escapes: a file with neither (most YAML of a project that is not
    // an agent) is not loaded.
    if memchr::memmem::find(bytes, b"agent").is_none() && memchr::memchr(b'\\', bytes).is_none() {
        return Sniff { entry: false, parse: None };
    }
    let parsed = std::str::from_utf8(bytes).ok().map(yaml::load);
    match parsed {
        Some(Ok(root)) => {
            let entry = match root.as_ref().map(|node| &node.value) {
                Some(Value::Map(map)) => map.entries.iter().any(|(k, _)| matches!(&k.value, Value::Str(s) if s == "agent")),
                _ => false,
            };
            let parse = entry.then(|| bodies.keep(bytes, || spec::unplaced_from(root.as_ref())));
            Sniff { entry, parse }
        }
        _ => Sniff { entry: entry_line().is_match(bytes), parse: None },
    }
}

fn entry_line() -> &'static regex::bytes::Regex {
    static RE: OnceLock<regex::bytes::Regex> = OnceLock::new();
    RE.get_or_init(|| regex::bytes::Regex::new(r"(?m)^agent[ \t]*:").expect("a valid pattern"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unparsable_files_are_entries_by_their_agent_line() {
        let is_entry_point = |bytes: &[u8]| sniff(bytes, &Bodies::default()).entry;
        assert!(is_entry_point(b"agent:\n\tname: tabbed\n"));
        assert!(is_entry_point(b"agent:\n  name: caf\xe9\n"));
        assert!(!is_entry_point(b"name: [oops\n"));
        assert!(is_entry_point(b"\"\\x61gent\": {}\n"));
        assert!(!is_entry_point(b"agents: {}\n"));
    }
}
