//! `load_agent_spec`: the `extend` chain of one file, merged child over parent, then the
//! required-field checks and defaults. Kimi recurses; agentry walks the chain in a loop
//! and stops at the first repeated file (Kimi's `RecursionError`) or at a depth Python
//! would not survive either, so no chain can overflow agentry's stack.
//!
//! Every effective field keeps the file and line that set it and the rule that chose it.

use crate::discover::fast_hash::HashMap;
use crate::discover::{lock, Hold};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{json, Map as JsonMap, Value as Json};

use super::origins::{args_origin, list_origin, list_words, nullable_origin, nullable_words, with_note};
use super::physical;
use super::spec::{self, Placed, Problem, Setting, SpecFile, SubagentEntry};
use crate::discover::observe::Observed;
use crate::discover::{key_bytes, Files, ReadError};
use crate::model::{DiagKind, Field, FieldOrigin};

/// The longest `extend` chain (in files) Kimi's recursive loader survives. Python's
/// recursion limit is 1000 frames and each level costs the loader two plus the YAML
/// parser's at the deepest file; measured with the oracle (limit 1000), a chain of
/// 486 files loads and one of 487 fails with `RecursionError`, as a loop does.
pub const MAX_EXTEND_DEPTH: usize = 486;

/// The merged, finalised spec (`ResolvedAgentSpec`) with every field's origin.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub name: String,
    pub system_prompt_path: PathBuf,
    /// In the order Python's dict keeps them (first insertion position).
    pub system_prompt_args: Vec<(String, String)>,
    pub model: Option<String>,
    pub when_to_use: String,
    pub tools: Vec<String>,
    pub allowed_tools: Option<Vec<String>>,
    pub exclude_tools: Vec<String>,
    pub subagents: Vec<SubagentEntry>,
    pub origins: HashMap<&'static str, FieldOrigin>,
    /// The definition's own file, as validated.
    pub own: Arc<Placed>,
}

/// What loading one file through its chain gave: the files opened (child first) and
/// the result, or the problem that stopped it.
pub struct Resolution {
    pub chain: Vec<PathBuf>,
    pub outcome: Result<Resolved, Problem>,
    /// How deep the observations of the [`Cover`] it took over are nested (0: none).
    pub covered: u32,
}

/// The validated files and folder identities of one load, each asked of the file
/// system once and kept with what it observed. Every definition's memoized
/// resolution walks its own chain through them and takes over the observations of
/// each step it asks (shared by `Arc`, not copied). Shared by the threads that
/// resolve definitions ahead of the load's visit (see `super::warm`).
#[derive(Default)]
pub struct Lookups {
    parsed: Mutex<ByPath<Looked<Loaded>>>,
    /// Each folder with symlinks resolved (`None` when it cannot be).
    folders: Mutex<ByPath<Looked<Option<PathBuf>>>>,
    pub bodies: Bodies,
    pub spellings: physical::Spellings,
}

/// The [`spec::unplaced`] parses of one load's agent files, by a digest of their
/// bytes ([`crate::model::digest`]), so that the load holds no copy of the bytes: a
/// file reached under several spellings (`lead/agent.yaml`, `coder/../lead/agent.yaml`),
/// or already loaded by the walk's sniff, is parsed once.
#[derive(Default)]
pub struct Bodies(Mutex<HashMap<u128, Unplaced>>);

/// A file's parse before it is placed at a path ([`spec::unplaced`]).
pub type Unplaced = Arc<Result<SpecFile, Problem>>;

impl Bodies {
    /// The unplaced parse of `bytes`, made by `unplaced` unless known.
    pub fn keep(&self, bytes: &[u8], unplaced: impl FnOnce() -> Result<SpecFile, Problem>) -> Unplaced {
        let digest = crate::model::digest(bytes);
        lock(&self.0).entry(digest).or_insert_with(|| Arc::new(unplaced())).clone()
    }

    /// [`spec::unplaced`] of `bytes`.
    fn unplaced(&self, bytes: &[u8]) -> Unplaced {
        let digest = crate::model::digest(bytes);
        if let Some(known) = lock(&self.0).get(&digest) {
            return known.clone();
        }
        let unplaced = Arc::new(spec::unplaced(bytes));
        lock(&self.0).entry(digest).or_insert(unplaced).clone()
    }
}

type Looked<V> = (V, Arc<Observed>);
/// Keyed by path, as the digest of its bytes in key form ([`path_slot`]): the maps
/// of a load hold no copy of the paths they are asked with.
pub type ByPath<V> = HashMap<u128, V>;

/// The key of `path` in a [`ByPath`] map: two spellings with the same key form
/// ([`key_bytes`]) share it.
pub fn path_slot(path: &Path) -> u128 {
    crate::model::digest(&key_bytes(path))
}

/// One file as `_load_agent_spec` steps 1–7 leave it, its problem boxed: a problem is
/// several times the size of a loaded file, and most files load.
type Loaded = Result<Arc<Placed>, Box<Problem>>;

/// `map[key]`, made by `make` the first time; its observations go to `files` every
/// time. Two threads may make the same entry at once: both make the same value, and
/// the first one kept is used.
fn looked_up<V: Clone>(files: Files, map: &Mutex<ByPath<Looked<V>>>, key: &Path, make: impl FnOnce(Files) -> V) -> V {
    let slot = path_slot(key);
    let known = lock(map).get(&slot).map(|(v, observed)| (v.clone(), observed.clone()));
    if let Some((v, observed)) = known {
        files.include(observed);
        return v;
    }
    let (v, observed) = files.capture(make);
    lock(map).entry(slot).or_insert((v.clone(), observed));
    v
}


/// What resolving one file observed, for the files extending it: the chain of a
/// file's parent is (a prefix of) the rest of its own chain (its walk stops no later,
/// since it starts one file deeper with one more identity seen), so a child's
/// resolution depends on its own file plus what its parent's resolution observed,
/// taken over as one shared part instead of one part per file of the chain. (At
/// Kimi's depth bound the parent's chain reaches one file further than the child's:
/// an edit there resolves the child again needlessly, never wrongly.)
#[derive(Clone)]
pub struct Cover {
    pub observed: Arc<Observed>,
    /// How many covers are nested in it: a chain nests one per file, so the nesting
    /// is bounded ([`MAX_COVER_DEPTH`]) to keep walking and dropping the tree shallow.
    pub depth: u32,
}

/// The deepest nesting of covers; past it a resolution takes over its files' parts
/// one by one again, starting a new nest.
const MAX_COVER_DEPTH: u32 = 32;

/// Turns a path into its report source key; shared by threads.
pub type SourceKey<'k> = dyn Fn(&Path) -> String + Sync + 'k;

/// Where a file's `extend` leads.
enum Next {
    /// Nowhere: no `extend`, null, or `""` (which the merge rejects).
    Root,
    Parent(PathBuf),
    /// `extend: default` with no built-in folder known.
    NoDefault,
}

/// Loads agent files through the load's [`Lookups`], asking through the handle of
/// the computation running (each file of a chain is asked for once).
pub struct Resolver<'a> {
    files: Files<'a>,
    lookups: &'a Lookups,
    /// `DEFAULT_AGENT_FILE`, when a built-in folder is known.
    default_agent: Option<PathBuf>,
    /// Turns a path into its report source key.
    key: &'a SourceKey<'a>,
    /// The canonical folders met: a chain's files mostly share a few folders, whose
    /// answers are taken over once.
    folders: ByPath<Option<PathBuf>>,
}

impl<'a> Resolver<'a> {
    pub fn new(files: Files<'a>, lookups: &'a Lookups, default_agent: Option<PathBuf>, key: &'a SourceKey<'a>) -> Self {
        Resolver { files, lookups, default_agent, key, folders: HashMap::default() }
    }

    /// `_load_agent_spec` steps 1–7 for one file: exists, is a file, UTF-8, YAML,
    /// version, `agent` shape, field types, joined paths.
    pub fn load_file(&mut self, path: &Path) -> Result<Arc<Placed>, Problem> {
        let lookups = self.lookups;
        looked_up(self.files, &lookups.parsed, path, |files| read_and_parse(files, path, lookups).map_err(Box::new))
            .map_err(|problem| *problem)
    }

    /// What identifies a step of the chain for loop detection: the canonical folder
    /// the next relative path resolves against, plus the file name. Two visits with
    /// the same identity read the same file and resolve its parent the same way, so
    /// Kimi would recurse forever.
    fn identity(&mut self, path: &Path) -> PathBuf {
        let folder = path.parent().and_then(|p| match self.folders.get(&path_slot(p)) {
            Some(real) => real.clone(),
            None => {
                let asked = self.lookups.spellings.asked(self.files, p);
                let real = looked_up(self.files, &self.lookups.folders, &asked, |files| files.canonicalize(&asked));
                self.folders.insert(path_slot(p), real.clone());
                real
            }
        });
        match (folder, path.file_name()) {
            (Some(folder), Some(name)) => folder.join(name),
            _ => crate::model::normalize(path),
        }
    }

    /// The file `file` (opened as `path`) extends.
    fn next(&self, path: &Path, file: &SpecFile) -> Next {
        match &file.extend.state {
            Setting::Set(target) if target.is_empty() => Next::Root,
            Setting::Set(target) if target == "default" => match &self.default_agent {
                Some(default) => Next::Parent(default.clone()),
                None => Next::NoDefault,
            },
            Setting::Set(target) => Next::Parent(spec::join(path.parent().unwrap_or(Path::new("/")), target)),
            _ => Next::Root,
        }
    }

    /// The first `len` files of `entry`'s chain, as [`Resolver::resolve`] opened them
    /// (`len` is the length of its [`Resolution::chain`]): each file's parent is
    /// fixed by the file alone, so the chain is rebuilt without resolving again. For
    /// a resolver on an untracked handle: what the chain depends on is recorded by
    /// the resolution that measured `len`.
    pub fn chain(&mut self, entry: &Path, len: usize) -> Vec<PathBuf> {
        let mut chain = vec![entry.to_path_buf()];
        while chain.len() < len {
            let Some(path) = chain.last() else { break };
            let Ok(file) = self.load_file(path) else { break };
            match self.next(path, file.spec()) {
                Next::Parent(parent) => chain.push(parent),
                Next::Root | Next::NoDefault => break,
            }
        }
        chain
    }

    /// `load_agent_spec(entry)`. `covers` holds what the resolutions of other files
    /// of this load observed (by path): when the entry's parent is among them, that
    /// record stands for the rest of the chain, which is then asked without noting.
    pub fn resolve(&mut self, entry: &Path, covers: &ByPath<Cover>) -> Resolution {
        let mut covered = 0;
        let mut chain: Vec<PathBuf> = Vec::new();
        let mut files: Vec<Arc<Placed>> = Vec::new();
        // Each step's identity, with its position in the chain.
        let mut states: ByPath<usize> = std::iter::once((path_slot(&self.identity(entry)), 0)).collect();
        let mut path = entry.to_path_buf();
        loop {
            chain.push(path.clone());
            let file = match self.load_file(&path) {
                Ok(f) => f,
                Err(p) => {
                    // A parent that is not there is fixed at the `extend` that names it.
                    let p = match files.last() {
                        Some(child) if p.kind == DiagKind::Missing => Problem::new(
                            DiagKind::Missing,
                            &child.path,
                            child.spec().extend.line,
                            format!("{} (named by `extend` here)", p.message),
                        ),
                        _ => p,
                    };
                    return Resolution { chain, outcome: Err(p), covered };
                }
            };
            files.push(file.clone());
            let next = match self.next(&path, file.spec()) {
                Next::Root => break,
                Next::Parent(next) => next,
                Next::NoDefault => {
                    let p = Problem::new(
                        DiagKind::Missing,
                        &path,
                        file.spec().extend.line,
                        "Agent spec file not found: `extend: default` names the default agent of the installed \
                         kimi-cli package, and no installation was found",
                    );
                    return Resolution { chain, outcome: Err(p), covered };
                }
            };
            if chain.len() == 1 {
                if let Some(cover) = covers.get(&path_slot(&next)).filter(|c| c.depth < MAX_COVER_DEPTH) {
                    self.files.include(cover.observed.clone());
                    self.files = self.files.unrecorded();
                    covered = cover.depth;
                }
            }
            let state = path_slot(&self.identity(&next));
            if let Some(&start) = states.get(&state) {
                let mut names: Vec<String> = chain[start..].iter().map(|p| (self.key)(p)).collect();
                names.push((self.key)(&chain[start]));
                let lead = if start == 0 {
                    "extend cycle".to_string()
                } else {
                    format!("{} extends into the extend cycle", (self.key)(&chain[0]))
                };
                let p = Problem::new(
                    DiagKind::Cycle,
                    &path,
                    file.spec().extend.line,
                    format!(
                        "{lead}: {}; Kimi recurses until Python's RecursionError",
                        names.join(" → ")
                    ),
                );
                return Resolution { chain, outcome: Err(p), covered };
            }
            if chain.len() >= MAX_EXTEND_DEPTH {
                let p = Problem::new(
                    DiagKind::Cycle,
                    &path,
                    file.spec().extend.line,
                    format!(
                        "extend chain deeper than {MAX_EXTEND_DEPTH} files; Kimi's recursive loader fails with \
                         RecursionError long before its end"
                    ),
                );
                return Resolution { chain, outcome: Err(p), covered };
            }
            states.insert(state, chain.len());
            path = next;
        }
        let outcome = self.merge(entry, &files);
        Resolution { chain, outcome, covered }
    }

    /// The field-by-field merge of `_load_agent_spec` (root ancestor first), then
    /// `load_agent_spec`'s assertion, required fields and defaults.
    fn merge(&self, entry: &Path, files: &[Arc<Placed>]) -> Result<Resolved, Problem> {
        let Some(root) = files.last() else {
            return Err(Problem::new(DiagKind::Io, entry, None, "nothing was loaded"));
        };
        if matches!(&root.spec().extend.state, Setting::Set(s) if s.is_empty()) {
            return Err(Problem::new(
                DiagKind::Validation,
                &root.path,
                root.spec().extend.line,
                "`extend: \"\"` is neither a parent nor null; Kimi fails with AssertionError: agent extension \
                 should be recursively resolved",
            ));
        }
        // A file's key is asked for by most fields' origins: asked of the load once.
        let keys: Vec<std::cell::OnceCell<Arc<str>>> = files.iter().map(|_| Default::default()).collect();
        let key_at = |i: usize| Arc::clone(keys[i].get_or_init(|| (self.key)(&files[i].path).into()));
        let file_key = |p: &Path| match files.iter().position(|f| f.path == p) {
            Some(i) => key_at(i),
            None => Arc::from((self.key)(p)),
        };
        let pick = |get: &dyn Fn(&SpecFile) -> bool| -> Option<usize> { (0..files.len()).find(|&i| get(files[i].spec())) };
        let set = |s: &dyn Fn(&SpecFile) -> bool| pick(s);

        let name_at = set(&|f| !matches!(f.name.state, Setting::Inherit));
        let prompt_at = set(&|f| !matches!(f.system_prompt_path.state, Setting::Inherit));
        let tools_at = set(&|f| !matches!(f.tools.state, Setting::Inherit));
        let chain_words = || (0..files.len()).map(key_at).collect::<Vec<_>>().join(" → ");
        let required = |what: &str, field: &str| {
            Problem::new(
                DiagKind::Validation,
                entry,
                None,
                format!("{what}: no file of the chain ({}) sets `{field}`", chain_words()),
            )
        };
        let name = match name_at.map(|i| &files[i].spec().name.state) {
            Some(Setting::Set(n)) => n.clone(),
            _ => return Err(required("Agent name is required", "name")),
        };
        let Some(system_prompt_path) = prompt_at.and_then(|i| files[i].system_prompt_path()) else {
            return Err(required("System prompt path is required", "system_prompt_path"));
        };
        let Some(tools_at) = tools_at else { return Err(required("Tools are required", "tools")) };

        let mut origins = HashMap::default();
        // `set_here` is the rule of a value the definition sets itself.
        let replaced = |i: usize, slot_line: Option<u32>, field: &str, set_here: &'static str| -> FieldOrigin {
            if i == 0 {
                FieldOrigin::own(&key_at(0), slot_line, set_here)
            } else {
                let rule = format!("inherited from {}: no nearer file sets `{field}` (unset, `[]` and `{{}}` mean inherit)", key_at(i));
                FieldOrigin::inherited(&key_at(i), slot_line, rule)
            }
        };
        let name_i = name_at.unwrap_or(0);
        origins.insert("name", replaced(name_i, files[name_i].spec().name.line, "name", "set here; replaces any parent's `name`"));
        let prompt_i = prompt_at.unwrap_or(0);
        let prompt_line = files[prompt_i].spec().system_prompt_path.line;
        let prompt_note = "relative to the file that writes it";
        let prompt_origin = match prompt_i {
            0 => replaced(0, prompt_line, "system_prompt_path", "set here; replaces any parent's `system_prompt_path`; relative to the file that writes it"),
            i => with_note(replaced(i, prompt_line, "system_prompt_path", ""), prompt_note),
        };
        origins.insert("system_prompt_path", prompt_origin);

        // system_prompt_args: per key, the nearest file wins; dict order is the first
        // insertion, which walks from the root ancestor down.
        let mut args: Vec<(String, String, usize, u32)> = Vec::new();
        for i in (0..files.len()).rev() {
            for (k, v, line) in &files[i].spec().system_prompt_args {
                match args.iter_mut().find(|(key, ..)| key == k) {
                    Some(slot) => *slot = (k.clone(), v.clone(), i, *line),
                    None => args.push((k.clone(), v.clone(), i, *line)),
                }
            }
        }
        origins.insert("system_prompt_args", args_origin(&args, files, &file_key));

        let model_at = pick(&|f| matches!(f.model.state, Setting::Set(_)));
        let model = model_at.and_then(|i| match &files[i].spec().model.state {
            Setting::Set(m) => Some(m.clone()),
            _ => None,
        });
        origins.insert("model", nullable_origin(model_at, files, &file_key, |f| &f.model, &nullable_words!("model", "null")));
        let when_at = pick(&|f| matches!(f.when_to_use.state, Setting::Set(_)));
        let when_to_use = when_at
            .and_then(|i| match &files[i].spec().when_to_use.state {
                Setting::Set(m) => Some(m.clone()),
                _ => None,
            })
            .unwrap_or_default();
        origins.insert("when_to_use", nullable_origin(when_at, files, &file_key, |f| &f.when_to_use, &nullable_words!("when_to_use", "\"\"")));

        let tools = list_value(&files[tools_at].spec().tools.state).unwrap_or_default();
        origins.insert("tools", list_origin(Some(tools_at), files, &file_key, |f| &f.tools, &list_words!("tools", "[]")));
        let allowed_at = pick(&|f| !matches!(f.allowed_tools.state, Setting::Inherit));
        let allowed_tools = allowed_at.and_then(|i| list_value(&files[i].spec().allowed_tools.state));
        origins.insert("allowed_tools", list_origin(allowed_at, files, &file_key, |f| &f.allowed_tools, &list_words!("allowed_tools", "null")));
        let exclude_at = pick(&|f| !matches!(f.exclude_tools.state, Setting::Inherit));
        let exclude_tools = exclude_at.and_then(|i| list_value(&files[i].spec().exclude_tools.state)).unwrap_or_default();
        origins.insert("exclude_tools", list_origin(exclude_at, files, &file_key, |f| &f.exclude_tools, &list_words!("exclude_tools", "[]")));
        let subagents_at = pick(&|f| !matches!(f.subagents.state, Setting::Inherit));
        let subagents = subagents_at.and_then(|i| files[i].subagents()).unwrap_or_default();
        origins.insert("subagents", list_origin(subagents_at, files, &file_key, |f| &f.subagents, &list_words!("subagents", "{}")));

        Ok(Resolved {
            name,
            system_prompt_path,
            system_prompt_args: args.into_iter().map(|(k, v, ..)| (k, v)).collect(),
            model,
            when_to_use,
            tools,
            allowed_tools,
            exclude_tools,
            subagents,
            origins,
            own: files[0].clone(),
        })
    }
}

impl Resolved {
    /// The effective fields with the package's key names and the oracle's JSON types.
    pub fn fields(&self, key: &dyn Fn(&Path) -> String) -> Vec<Field> {
        let args: JsonMap<String, Json> =
            self.system_prompt_args.iter().map(|(k, v)| (k.clone(), Json::String(v.clone()))).collect();
        let subagents: JsonMap<String, Json> = self
            .subagents
            .iter()
            .map(|s| (s.name.clone(), json!({"path": key(&s.path), "description": s.description})))
            .collect();
        // `name` is the agent's label, but it is inherited like any field, so its
        // origin is worth showing next to the oracle's eight.
        let values: [(&'static str, Json); 9] = [
            ("name", Json::String(self.name.clone())),
            ("system_prompt_path", Json::String(key(&self.system_prompt_path))),
            ("system_prompt_args", Json::Object(args)),
            ("model", self.model.clone().map_or(Json::Null, Json::String)),
            ("when_to_use", Json::String(self.when_to_use.clone())),
            ("tools", json!(self.tools)),
            ("allowed_tools", self.allowed_tools.as_ref().map_or(Json::Null, |t| json!(t))),
            ("exclude_tools", json!(self.exclude_tools)),
            ("subagents", Json::Object(subagents)),
        ];
        values
            .into_iter()
            .map(|(k, value)| {
                let origin = self.origins.get(k).cloned().unwrap_or_else(|| FieldOrigin::default("framework default"));
                Field::new(k, value, origin)
            })
            .collect()
    }
}

/// `_load_agent_spec` steps 1–7 for one file, asked through `files` (under the
/// spelling [`physical::asked`] gives; the problems name the path as written).
fn read_and_parse(files: Files, path: &Path, lookups: &Lookups) -> Result<Arc<Placed>, Problem> {
    let asked = lookups.spellings.asked(files, path);
    // A regular file (the usual case) is told by the remembered kind; anything else
    // asks again for the error Kimi reports.
    let regular = files.kind(&asked) == crate::discover::Kind::File;
    match if regular { Ok(None) } else { files.metadata(&asked).map(Some) } {
        Err(e) if is_not_found(&e) => {
            return Err(Problem::new(DiagKind::Missing, path, None, format!("Agent spec file not found: {}", path.display())))
        }
        Err(e) => return Err(Problem::new(DiagKind::Io, path, None, format!("cannot inspect the agent spec file: {e}"))),
        Ok(Some(meta)) if !meta.is_file() => {
            return Err(Problem::new(DiagKind::Missing, path, None, format!("Agent spec path is not a file: {}", path.display())))
        }
        Ok(_) => {}
    }
    let unplaced = unplaced(files, &asked, &lookups.bodies).map_err(|e| {
        let kind = if e == ReadError::NotFound { DiagKind::Missing } else { DiagKind::Io };
        Problem::new(kind, path, None, format!("cannot read the agent spec file: {e}"))
    })?;
    Placed::new(&unplaced, path).map(Arc::new)
}

/// The file parsed before it is placed at a path, once per version of it: a reload
/// re-parses only what changed, and each spelling of the file places the same parse.
/// An entry point's parse is the walk's (a file that is not one is read again).
fn unplaced(files: Files, path: &Path, bodies: &Bodies) -> Result<Unplaced, ReadError> {
    if let Some(parse) = &super::entries::sniffed(files, path, bodies)?.parse {
        return Ok(parse.clone());
    }
    static CONTEXT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let context = *CONTEXT.get_or_init(|| crate::discover::context_key("kimi agent file, unplaced"));
    files.parse(path, Hold::Not, context, |bytes| bodies.unplaced(bytes)).map(|parse| (*parse).clone())
}

/// Parses the regular files `paths` into the file cache, in parallel and without
/// noting anything (the resolutions that read them note it): resolution itself runs
/// one definition at a time.
pub fn preparse(files: Files, paths: &[PathBuf], bodies: &Bodies) {
    use rayon::prelude::*;
    paths.par_iter().for_each(|path| {
        let _ = unplaced(files, path, bodies);
    });
}

/// Python's `Path.exists()` is false for these errors (missing file, a file used as a
/// folder, a symlink loop); anything else (permissions) is raised.
fn is_not_found(e: &std::io::Error) -> bool {
    const ELOOP: i32 = if cfg!(target_os = "macos") { 62 } else { 40 };
    matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) || e.raw_os_error() == Some(ELOOP)
}

fn list_value<T: Clone>(state: &Setting<Vec<T>>) -> Option<Vec<T>> {
    match state {
        Setting::Set(v) => Some(v.clone()),
        _ => None,
    }
}

/// The source keys of a chain of paths.
pub fn chain_keys(chain: &[PathBuf], key: &dyn Fn(&Path) -> String) -> Vec<String> {
    chain.iter().map(|p| key(p)).collect()
}
