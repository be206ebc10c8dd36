//! `agent_inheritance.resolve_agent_inheritance` and its helpers: the explicit parent
//! (`extends: NAME` / a path), the implicit base (`F/.tsugite/default.md`, then the
//! configured / built-in default searched from the agent's own folder), the visited
//! set that turns explicit loops into errors and implicit ones into "no base", and the
//! package's rule of which failures an implicit base swallows (`ValueError`) and which
//! it lets through (`TypeError`, `KeyError`, `OSError`).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::merge;
use super::parse::{self, Config, ErrClass, LoadError, Parsed};
use super::search::{self, py_resolve, SearchSpace, TsuConfig};
use std::sync::Arc;

use crate::discover::fast_hash::{HashMap, HashSet};
use crate::discover::observe::Observed;
use crate::discover::{Files, Hold};
use crate::model::DiagKind;
use crate::frameworks::Prompts;

/// An agent after inheritance: the merged config and body, and the files merged
/// (this file first, then its base's chain).
#[derive(Clone, Debug)]
pub struct Resolved {
    pub config: Config,
    pub body: Arc<str>,
    pub chain: Vec<PathBuf>,
    /// The own body of each file of `chain`, in its order, and where it starts in
    /// the file ([`Parsed::body_at`]): the explorer keeps on disk the lines of a
    /// message these hold.
    pub bodies: Vec<(Arc<str>, Option<u32>)>,
    /// The line of each file of `chain` its body starts on ([`Parsed::body_line`]):
    /// a line of the merged body is told as a line of the file that wrote it.
    pub body_lines: Vec<u32>,
}

impl Resolved {
    /// The file of `chain` and its line that line `line` (1-based) of the merged
    /// body comes from: the bodies are joined root first with a blank line between.
    /// `None` for a separating blank line.
    pub fn body_origin(&self, line: u32) -> Option<(&Path, u32)> {
        let mut start = 1u32;
        for ((path, (body, _)), first) in self.chain.iter().zip(&self.bodies).zip(&self.body_lines).rev() {
            let count = body.split('\n').count() as u32;
            if line < start {
                return None;
            }
            if line < start + count {
                return Some((path, line - start + first));
            }
            start += count + 1;
        }
        None
    }
}

/// What a resolution needs to know about the world.
pub struct Resolver<'a> {
    pub files: Files<'a>,
    pub space: &'a SearchSpace,
    pub config: &'a TsuConfig,
    /// The process working directory (the project).
    pub cwd: &'a Path,
    pub home: &'a Path,
    /// Turns a path into its source key (for field origins).
    pub key_of: &'a dyn Fn(&Path) -> String,
    /// What one load already looked up.
    pub lookups: &'a Lookups,
    /// How the parses keep their bodies.
    pub prompts: Prompts,
}

/// A parse, with its body when this caller is the one that parsed it (the only
/// moment the explorer has the body without reading it back).
type Parse = (Arc<Parsed>, Option<Arc<str>>);

type Visited = HashSet<PathBuf>;

/// File-system lookups and parses of one load, each done once. Every agent walks its
/// whole chain; in a long generated chain (thousands of files, each extending the
/// previous) the same parents are found, resolved and parsed again by every agent
/// below them, which without this made the load quadratic in syscalls. The files do
/// not change during a load, so the answers are the same. Each answer keeps what it
/// observed, which a name's memoized resolution that reuses it takes over (shared,
/// not copied: a 10,000-file chain stays linear in memory).
#[derive(Default)]
pub struct Lookups {
    found: Table<Reference, Option<PathBuf>>,
    real: Table<PathBuf, Option<PathBuf>>,
    is_file: Table<PathBuf, bool>,
    parsed: Table<PathBuf, Result<Arc<Parsed>, LoadError>>,
    folders: Mutex<HashSet<Arc<Path>>>,
}

/// Names resolve in parallel, so each answer is a cell the first asker fills while
/// any other asker of the same key waits for it: a shared parent is parsed once
/// (and counted once), however many names reach it at the same time.
type Table<K, V> = Mutex<HashMap<K, Arc<OnceLock<Looked<V>>>>>;
type Looked<V> = (V, Arc<Observed>);
/// An `extends` reference and the folder it is looked up from.
type Reference = (String, PathBuf);

impl Lookups {
    /// `Path.resolve()` of `path`, once per load.
    pub fn real(&self, files: Files, path: &Path) -> Option<PathBuf> {
        memo(files, &self.real, path, |files| py_resolve(files, path))
    }

    /// `folder`, one copy shared by every name that asks: the names' memos keep the
    /// folders their agents inherit from, mostly the same few.
    pub fn shared_folder(&self, folder: &Path) -> Arc<Path> {
        let mut folders = self.folders.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(shared) = folders.get(folder) {
            return shared.clone();
        }
        let shared: Arc<Path> = folder.into();
        folders.insert(shared.clone());
        shared
    }
}

/// `map[key]`, computed by `make` the first time; its observations go to `files`
/// every time.
fn memo<K, Q, V: Clone>(files: Files, map: &Table<K, V>, key: &Q, make: impl FnOnce(Files) -> V) -> V
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: ToOwned<Owned = K> + std::hash::Hash + Eq + ?Sized,
{
    let cell = {
        let mut map = map.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Looked up borrowed: the key is copied only the first time.
        match map.get(key) {
            Some(cell) => cell.clone(),
            None => map.entry(key.to_owned()).or_default().clone(),
        }
    };
    // Filled outside the table's lock; `make` is a leaf look-up that never asks the
    // same table again, so waiting on a cell cannot deadlock.
    let mut filled_here = false;
    let (v, observed) = cell.get_or_init(|| {
        filled_here = true;
        files.capture(make)
    });
    if !filled_here {
        files.include(observed.clone());
    }
    v.clone()
}

/// Longest `extends` chain followed before agentry gives up. tsugite has no limit
/// but a chain this long can only come from generated files; the visited set already
/// stops real loops.
const MAX_DEPTH: usize = 256;

impl Resolver<'_> {
    /// `parse_agent_file(path)`: read, parse, and resolve unless `extends: none`.
    pub fn parse_agent_file(&self, path: &Path) -> Result<(Arc<Parsed>, Resolved), LoadError> {
        if !search::exists(self.files, path) {
            return Err(LoadError::new(
                ErrClass::Os,
                DiagKind::Io,
                path,
                None,
                "FileNotFoundError: agent file not found",
            ));
        }
        let parse = self.read_and_parse(path)?;
        let parsed = parse.0.clone();
        let resolved = if parsed.extends().as_deref() == Some("none") {
            own(parse, path)?
        } else {
            self.resolve(parse, path, path, &mut Visited::default(), 0)?
        };
        Ok((parsed, resolved))
    }

    fn read_and_parse(&self, path: &Path) -> Result<Parse, LoadError> {
        let mut fresh = None;
        let parsed = memo(
            self.files,
            &self.lookups.parsed,
            path,
            |files| self.read_and_parse_once(files, path, &mut fresh),
        )?;
        Ok((parsed, fresh))
    }

    /// `Path.resolve()`, once per path and load.
    pub fn real(&self, path: &Path) -> Option<PathBuf> {
        self.lookups.real(self.files, path)
    }

    /// `find_agent_file(reference, dir)`, once per reference, folder and load.
    fn find(&self, reference: &str, dir: &Path) -> Option<PathBuf> {
        memo(
            self.files,
            &self.lookups.found,
            &(reference.to_string(), dir.to_path_buf()),
            |files| self.space.find(files, reference, dir, self.cwd, self.home),
        )
    }

    fn is_file(&self, path: &Path) -> bool {
        memo(
            self.files,
            &self.lookups.is_file,
            path,
            |files| search::is_file(files, path),
        )
    }

    /// Parses `path`; the body the explorer keeps on disk goes to `fresh`, for the
    /// caller to use once and let go.
    fn read_and_parse_once(
        &self,
        files: Files,
        path: &Path,
        fresh: &mut Option<Arc<str>>,
    ) -> Result<Arc<Parsed>, LoadError> {
        // Parsed once per version of the file: a reload re-parses only what changed.
        // The parse is shared (`Arc`) by the cache, this load's table and every
        // resolution that walks through the file, not copied into each.
        let key = (self.key_of)(path);
        let context = crate::discover::context_key(&format!("{}\0{key}\0{:?}", path.display(), self.prompts));
        let parsed = files
            .parse(path, Hold::Not, context, |bytes| parse::parse_file(path, bytes, &key, self.prompts, fresh).map(Arc::new))
            .map_err(|e| parse::read_error(path, e))?;
        (*parsed).clone()
    }

    /// `resolve_agent_inheritance(agent, agent_path, visited)`, `agent` read from `file`.
    fn resolve(
        &self,
        (agent, fresh): Parse,
        file: &Path,
        agent_path: &Path,
        visited: &mut Visited,
        depth: usize,
    ) -> Result<Resolved, LoadError> {
        if depth > MAX_DEPTH {
            return Err(LoadError::new(
                ErrClass::Value,
                DiagKind::Cycle,
                agent_path,
                line_of(&agent, "extends"),
                format!("inheritance deeper than {MAX_DEPTH} levels"),
            ));
        }
        let resolved_path = self
            .real(agent_path)
            .unwrap_or_else(|| agent_path.to_path_buf());
        // tsugite hands each parent a copy of the visited set. Adding this file for the
        // walk up and taking it out again afterwards is the same and keeps a long chain
        // linear instead of copying the set at every level.
        let added = visited.insert(resolved_path.clone());
        let base = match agent.extends().as_deref() {
            Some("none") => Ok(None),
            None => self.default_base(agent_path, &resolved_path, visited, depth),
            Some("") => Ok(None),
            Some(reference) => self
                .explicit_parent(reference, &agent, agent_path, visited, depth)
                .map(Some),
        };
        if added {
            visited.remove(&resolved_path);
        }
        let Some(base) = base? else {
            return own((agent, fresh), file);
        };
        let config = merge::merge(&base.config, &agent.config(), file)?;
        let body = own_body(&agent, fresh, file)?;
        let mut chain = vec![file.to_path_buf()];
        chain.extend(base.chain);
        let merged = format!("{}\n\n{}", base.body, body).into();
        let mut bodies = vec![(body, agent.body_at)];
        bodies.extend(base.bodies);
        let mut body_lines = vec![agent.body_line];
        body_lines.extend(base.body_lines);
        Ok(Resolved {
            config,
            body: merged,
            chain,
            bodies,
            body_lines,
        })
    }

    /// `load_extended_agent(reference, current_path, visited)`: find, check the visited
    /// set, read and parse (without resolving). Returns the parse and the file found.
    fn load_extended(
        &self,
        reference: &str,
        current: &Path,
        visited: &Visited,
        line: Option<u32>,
    ) -> Result<(Parse, PathBuf), LoadError> {
        let dir = if self.is_file(current) {
            current.parent().unwrap_or(current)
        } else {
            current
        };
        let found = self.find(reference, dir).ok_or_else(|| {
            LoadError::new(
                ErrClass::Value,
                DiagKind::Missing,
                current,
                line,
                format!(
                    "Extended agent not found: {reference} (searched from {})",
                    dir.display()
                ),
            )
        })?;
        let real = self.real(&found).unwrap_or_else(|| found.clone());
        if visited.contains(&real) {
            return Err(LoadError::new(
                ErrClass::Value,
                DiagKind::Cycle,
                current,
                line,
                format!(
                    "Circular inheritance detected: {} is already in the chain",
                    found.display()
                ),
            ));
        }
        if !self.is_file(&found) {
            return Err(LoadError::new(
                ErrClass::Value,
                DiagKind::Io,
                &found,
                None,
                format!("Agent file is not a file: {}", found.display()),
            ));
        }
        Ok((self.read_and_parse(&found)?, found))
    }

    /// `load_explicit_parent_agent`: errors propagate to the child.
    fn explicit_parent(
        &self,
        reference: &str,
        agent: &Parsed,
        agent_path: &Path,
        visited: &mut Visited,
        depth: usize,
    ) -> Result<Resolved, LoadError> {
        let (parent, parent_path) =
            self.load_extended(reference, agent_path, visited, line_of(agent, "extends"))?;
        self.resolve(parent, &parent_path, &parent_path, visited, depth + 1)
    }

    /// `load_default_base_agent`: the project-local `.tsugite/default.md` next to the
    /// agent, then the configured / built-in default searched from the agent's folder.
    fn default_base(
        &self,
        agent_path: &Path,
        resolved_path: &Path,
        visited: &mut Visited,
        depth: usize,
    ) -> Result<Option<Resolved>, LoadError> {
        let folder = agent_path.parent().unwrap_or(agent_path);
        let local = folder.join(".tsugite/default.md");
        if search::exists(self.files, &local) {
            let real = self.real(&local).unwrap_or_else(|| local.clone());
            if real != resolved_path && !visited.contains(&real) {
                let attempt = self
                    .load_extended("default", agent_path, visited, None)
                    .and_then(|(d, file)| {
                        if d.0.extends().is_none() {
                            // tsugite uses a standalone project default as it is, without
                            // its own implicit base.
                            own(d, &file)
                        } else {
                            self.resolve(d, &file, &local, visited, depth + 1)
                        }
                    });
                match attempt {
                    Ok(r) => return Ok(Some(r)),
                    Err(e) if e.class == ErrClass::Value => {}
                    Err(e) => return Err(e),
                }
            }
        }
        let name = match &self.config.default_base_agent {
            None => "default",
            Some(n) if n.is_empty() => return Ok(None),
            Some(n) => n.as_str(),
        };
        let Some(found) = self.find(name, folder) else {
            return Ok(None);
        };
        if found == resolved_path || visited.contains(&found) {
            return Ok(None);
        }
        let attempt = self
            .load_extended(name, agent_path, visited, None)
            .and_then(|(d, file)| self.resolve(d, &file, &found, visited, depth + 1));
        match attempt {
            Ok(r) => Ok(Some(r)),
            Err(e) if e.class == ErrClass::Value => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// An agent with no base: its own config, body and file.
fn own((agent, fresh): Parse, file: &Path) -> Result<Resolved, LoadError> {
    let body = own_body(&agent, fresh, file)?;
    Ok(Resolved {
        config: agent.config(),
        body: body.clone(),
        chain: vec![file.to_path_buf()],
        bodies: vec![(body, agent.body_at)],
        body_lines: vec![agent.body_line],
    })
}

/// The body of `agent`, read from `file`: `fresh` when this resolution parsed it,
/// else as the parse keeps it. A body that changed on disk since it was parsed is
/// an error until the refresh that the file's change brings parses it again.
fn own_body(agent: &Parsed, fresh: Option<Arc<str>>, file: &Path) -> Result<Arc<str>, LoadError> {
    match fresh {
        Some(body) => Ok(body),
        None => agent.body.read().map_err(|e| {
            LoadError::new(ErrClass::Os, DiagKind::Io, file, None, format!("cannot read the body: {e}"))
        }),
    }
}

fn line_of(agent: &Parsed, key: &str) -> Option<u32> {
    agent.attributes.lines().filter(|&(k, _)| k == key).last().map(|(_, line)| line)
}
