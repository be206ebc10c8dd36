//! Kimi CLI agent specs (kimi-cli 1.52.0): YAML files with an `agent:` mapping, an
//! `extend` chain merged child over parent, fixed subagents, and a Jinja system
//! prompt with `${…}` variables.
//!
//! Responsibilities: find the entry points (`entries`), resolve each through its
//! chain (`resolve`, validated per file by `spec`, each field's origin from
//! `origins`), render its prompt (`prompt`, Jinja's Python flavour from
//! `crate::render`, live `KIMI_*` values from `live`), then follow its subagents,
//! each file once. Kimi has no name lookup, so every loadable file wins; a file Kimi
//! cannot load is an `Invalid` agent with one error diagnostic on its own source.

mod entries;
mod keys;
mod live;
mod origins;
mod physical;
mod plain;
mod prompt;
mod resolve;
pub(crate) mod spec;
mod warm;

use crate::discover::fast_hash::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::precedence::{self, Candidate, Ladder, Order, Tier};
use super::{Framework, LoadContext, RenderMode};
use crate::discover::site_packages;
use crate::model::{
    normalize, Agent, AgentRecord, DiagKind, Diagnostic, EcosystemReport, Edge, EdgeKind, Place, Reach, Scope, Severity, Status,
};
use resolve::{chain_keys, ByPath, Cover, Lookups, Resolver, SourceKey};
use spec::{Problem, Setting};

const ID: &str = "kimi";

pub struct Kimi;

impl Framework for Kimi {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".kimi"), E::home(".kimi")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Kimi CLI"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::python("Kimi CLI", "1.52.0", &["kimi-cli"]).commands(&["kimi"]))
    }

    /// Every `.yaml`/`.yml` under the project at any depth (the entry points agentry
    /// shows), and the built-in agents.
    fn name_matching(&self, _kind: crate::model::Kind) -> super::NameRule {
        super::NameRule {
            ignores_case: false,
            words: "not by name: Kimi loads the one file given to --agent-file",
        }
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let builtins = cx.builtins(|| locate_builtins(cx));
        if builtins.is_none() {
            report.diagnostics.push(builtins_not_found(cx));
        }
        report.builtins = builtins.clone();
        let keys = keys::SourceKeys::new(cx.roots, builtins.as_deref());
        let key = |p: &Path| keys.key(p);
        let default_agent = builtins.as_ref().map(|b| b.join("default").join("agent.yaml"));
        let builtin_args = match &cx.render {
            RenderMode::Export => prompt::export_builtins(),
            RenderMode::Live { .. } => live::builtin_args(cx.files, &cx.roots.project),
        };

        // What every definition's resolution depends on besides file-system answers
        // (and the context and its own path and lister, in its key); the clock is
        // left out (a prompt that may read it is never reused, see `prompt`).
        let args_key = {
            let mut args = builtin_args.clone();
            args.remove("KIMI_NOW");
            cx.memo_key(ID, &format!("{args:?}\0{default_agent:?}\0{builtins:?}"))
        };

        let lookups = Lookups::default();
        let mut places = places(cx, builtins.as_deref());
        let (entry_points, walk_problems) = entries::walk(cx.files, &places[0].dir, &lookups.bodies);
        report.diagnostics.extend(walk_problems);
        let context = Context {
            roots: cx.roots,
            builtins: builtins.as_deref(),
            default_agent: default_agent.clone(),
            lookups: &lookups,
            key: &key,
            builtin_args,
            homes: Homes::new(cx, builtins.as_deref()),
            prompts: cx.prompts,
        };
        // A pass that trusts its memos reuses most definitions: resolving them all
        // ahead would be wasted, so only its changed files are parsed ahead.
        let warmed = if cx.files.trusting() {
            resolve::preparse(cx.files.unrecorded(), &entry_points, &lookups.bodies);
            HashMap::default()
        } else {
            warm::resolve_ahead(&context, cx.files.unrecorded(), &entry_points, args_key)
        };
        // Sized for every entry point up front: the path-keyed maps would otherwise
        // grow a step at a time, hashing every path again at each step.
        let n = entry_points.len();
        let mut loader = Loader {
            context,
            warmed,
            args_key,
            chains: Resolver::new(cx.files.unrecorded(), &lookups, default_agent, &key),
            files: cx.files,
            seen: HashSet::with_capacity_and_hasher(n, Default::default()),
            listed_by: HashMap::with_capacity_and_hasher(n, Default::default()),
            covers: HashMap::with_capacity_and_hasher(n, Default::default()),
            elsewhere: Elsewhere::default(),
            report: &mut report,
        };
        loader.report.agents.reserve(n);
        // Each entry point's path freed once visited: the visit's end is the load's peak.
        for entry in entry_points {
            loader.visit(&entry);
        }
        let elsewhere = std::mem::take(&mut loader.elsewhere.folders);
        drop(loader);
        // Freed on another thread: they hold every file of the load parsed, and the
        // caller (an export) waits on nothing they hold.
        rayon::spawn(move || drop(lookups));
        for folder in elsewhere {
            let (scope, _) = cx.roots.locate(&folder, builtins.as_deref());
            let base = if scope == Scope::Project { &cx.roots.project } else { &cx.roots.home };
            let label = "holds a file reached through `extend`, `subagents` or a prompt path";
            places.push(Place::reached(scope, base, folder, Reach::top(&[]), label));
        }
        report.places = places;
        quiet_bases(&mut report);
        // Kimi has no name lookup: every file it loads is an entry point of its own and
        // wins with the rule `why_it_wins` wrote. Listed by name, then source.
        let ladder = Ladder::new(vec![Tier::separate("the project's entry points")]).ordered(Order::Source);
        let candidates = std::mem::take(&mut report.agents).into_iter().map(|agent| Candidate { tier: 0, agent }).collect();
        report.agents = precedence::rank(&ladder, candidates);
        report
    }
}

/// A file that loading agents `extend`, and that Kimi would refuse only when asked
/// for on its own (`--agent-file`, e.g. a base with no `name`): a base, not a broken
/// definition, so its own failure is a note and fails no check.
fn quiet_bases(report: &mut EcosystemReport) {
    let mut extended: HashSet<&str> = HashSet::default();
    for a in report.agents.iter().filter(|a| a.status == Status::Wins) {
        let own = a.source.key();
        extended.extend(a.chain.iter().filter(|k| **k != own).map(String::as_str));
    }
    let bases: HashSet<String> = report
        .agents
        .iter()
        .filter(|a| a.status == Status::Invalid)
        .map(|a| a.source.key())
        .filter(|k| extended.contains(k.as_str()))
        .collect();
    for d in report.diagnostics.iter_mut() {
        if d.severity == Severity::Error && d.source.as_ref().is_some_and(|k| bases.contains(k)) {
            d.severity = Severity::Info;
            d.message.push_str(" (on its own; other agents extend it and load)");
        }
    }
}

/// Who lists a file as a subagent: the parent's source key, the subagent's name and
/// description, and the line of the entry.
#[derive(Clone, Debug, Hash)]
struct ListedBy {
    parent: String,
    parent_path: PathBuf,
    line: u32,
    name: String,
    description: String,
}

/// What every definition of one load shares.
struct Context<'a> {
    roots: &'a crate::model::Roots,
    builtins: Option<&'a Path>,
    default_agent: Option<PathBuf>,
    lookups: &'a Lookups,
    key: &'a SourceKey<'a>,
    builtin_args: std::collections::BTreeMap<String, String>,
    homes: Homes,
    /// How rendered prompts are kept (the explorer leaves them on disk).
    prompts: super::Prompts,
}

/// What one definition (one file, reached as an entry point or as the subagent of
/// `listed`) adds to the report. Its `extend` chain is kept as a length only: the
/// chain is rebuilt from the files (see [`Resolver::chain`]), so a long chain is not
/// kept once per definition besides the report.
struct Definition {
    /// Its agent as the report shows it, but for the `chain` of a chain too long to
    /// keep ([`Loader::load_one`] fills it in).
    agent: Agent,
    /// Boxed: most definitions have none.
    diagnostic: Option<Box<Diagnostic>>,
    subagents: Vec<spec::SubagentEntry>,
    chain_len: usize,
    /// Its chain is at most [`KEPT_CHAIN`] long: the agent's `chain` is filled, and
    /// a refresh reuses it instead of rebuilding it.
    chain_kept: bool,
    /// The files it opened (its chain's, when kept, then its system prompt) that are
    /// outside the project and the built-in agents, for [`Elsewhere`]: the others
    /// add no folder to search.
    opened_elsewhere: Vec<PathBuf>,
    /// What its resolution observed, for the files extending it.
    cover: Cover,
}

/// The state of one load: which files were visited, and the report being filled.
struct Loader<'a, 'r> {
    context: Context<'a>,
    /// Definitions resolved ahead of the visit, by memo key ([`warm`]).
    warmed: HashMap<u64, warm::Warmed>,
    /// Names the inputs of a definition other than its path and who lists it.
    args_key: u64,
    /// Rebuilds each definition's chain, recording nothing: each definition's
    /// observations cover its chain, and the load takes them over.
    chains: Resolver<'a>,
    files: crate::discover::Files<'a>,
    /// By normal form ([`normal_digest`]), as is `listed_by`.
    seen: HashSet<u128>,
    /// Who first lists each file not yet visited: a file's entry is taken when it is
    /// visited, so the map does not grow with the visit.
    listed_by: HashMap<u128, ListedBy>,
    /// What each definition's resolution observed, by path.
    covers: ByPath<Cover>,
    /// The folders of the files opened, for the folders the live view watches.
    elsewhere: Elsewhere,
    report: &'r mut EcosystemReport,
}

impl Loader<'_, '_> {
    /// The oracle's `visit`: the file, then its subagents in name order, depth first,
    /// each file once. Iterative, so a long subagent chain cannot exhaust the stack.
    fn visit(&mut self, entry: &Path) {
        // Each path with its normal form, made once for both the visited set and who
        // lists it.
        let mut stack = vec![(entry.to_path_buf(), normal_digest(entry))];
        while let Some((path, normal)) = stack.pop() {
            if !self.seen.insert(normal) {
                continue;
            }
            let listed = self.listed_by.remove(&normal);
            let one = self.load_one(&path, listed);
            let subagents = subagents_in_visit_order(&one);
            if subagents.is_empty() {
                continue;
            }
            let parent = (self.context.key)(&path);
            for sub in subagents {
                let normal = normal_digest(&sub.path);
                if !self.seen.contains(&normal) {
                    self.listed_by.entry(normal).or_insert_with(|| listing(&parent, &path, sub));
                }
                stack.push((sub.path.clone(), normal));
            }
        }
    }

    /// One definition, memoized: what it adds depends on its file, its chain, its
    /// prompt and includes and whether its subagents exist (file-system answers), and
    /// on who lists it, which is part of the key. A refresh resolves again only the
    /// definitions whose answers changed: an edited file and the files extending it.
    fn load_one(&mut self, path: &Path, listed: Option<ListedBy>) -> Arc<Definition> {
        let key = definition_key(self.args_key, path, listed.as_ref());
        let (context, covers, warmed) = (&self.context, &self.covers, &mut self.warmed);
        let one = self.files.definition(key, |files| match warmed.remove(&key) {
            Some(ahead) => ahead.take(files),
            None => context.compute(files, path, listed.as_ref(), covers),
        });
        self.covers.insert(resolve::path_slot(path), one.cover.clone());
        let mut agent = one.agent.clone();
        if !one.chain_kept {
            let chain = self.chains.chain(path, one.chain_len);
            for file in &chain {
                self.touch(file);
            }
            agent.chain = chain_keys(&chain, self.context.key).into();
        }
        for file in &one.opened_elsewhere {
            self.touch(file);
        }
        self.report.agents.push(agent);
        self.report
            .diagnostics
            .extend(one.diagnostic.as_deref().cloned());
        one
    }

    fn touch(&mut self, file: &Path) {
        if let Some(folder) = self.context.homes.folder_outside(file) {
            self.elsewhere.touch(&folder);
        }
    }
}

/// The two roots of a load (the project and the built-in agents), normalised.
struct Homes([Option<PathBuf>; 2]);

impl Homes {
    fn new(cx: &LoadContext, builtins: Option<&Path>) -> Self {
        Homes([Some(normalize(&cx.roots.project)), builtins.map(normalize)])
    }

    /// The folder of `file`, normalised, when it is outside both roots.
    fn folder_outside(&self, file: &Path) -> Option<PathBuf> {
        let file = crate::model::normalized(file);
        let folder = file.parent()?;
        let inside = self.0.iter().flatten().any(|root| is_at_or_below(folder, root));
        (!inside).then(|| folder.to_path_buf())
    }
}

/// The folders outside the project and the built-in agents holding a file the load
/// opened, in first-seen order: only those are searched besides the two roots.
#[derive(Default)]
struct Elsewhere {
    folders: Vec<PathBuf>,
}

impl Elsewhere {
    fn touch(&mut self, folder: &Path) {
        if !self.folders.iter().any(|f| f == folder) {
            self.folders.push(folder.to_path_buf());
        }
    }
}

/// `Path::starts_with` for normalised paths, on bytes: every file a load opens is
/// asked this.
fn is_at_or_below(path: &Path, root: &Path) -> bool {
    let (p, r) = (path.as_os_str().as_encoded_bytes(), root.as_os_str().as_encoded_bytes());
    p.starts_with(r) && (p.len() == r.len() || p[r.len()] == b'/' || r.ends_with(b"/"))
}

/// The longest chain a definition keeps (see [`Definition::chain_kept`]): usual chains
/// are a few files, and a bound keeps a 10,000-level `extend` chain linear in memory.
const KEPT_CHAIN: usize = 32;

/// The memo key of one definition: hashed, not formatted, since it is made for every
/// definition of every load.
fn definition_key(args_key: u64, path: &Path, listed: Option<&ListedBy>) -> u64 {
    crate::discover::hash_key(("kimi definition", args_key, path.as_os_str(), listed))
}

impl Context<'_> {
    /// One definition with its chain kept ([`Context::definition`], then
    /// [`Context::keep_chain`]).
    fn compute(
        &self,
        files: crate::discover::Files,
        path: &Path,
        listed: Option<&ListedBy>,
        covers: &ByPath<Cover>,
    ) -> Definition {
        let mut one = self.definition(files, path, listed, covers);
        self.keep_chain(files, path, &mut one);
        // Its memo key names the file and who lists it, so the memo holds the agent
        // as the report shows it, sharing one record with every snapshot.
        if one.agent.status == Status::Wins {
            one.agent.rule = why_it_wins(listed);
        }
        one
    }

    /// Those of `opened` that are outside the load's roots ([`Homes::folder_outside`]).
    fn outside(&self, opened: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
        opened.into_iter().filter(|file| self.homes.folder_outside(file).is_some()).collect()
    }

    /// Keeps `one`'s chain with it when the chain is short.
    fn keep_chain(&self, files: crate::discover::Files, path: &Path, one: &mut Definition) {
        if one.chain_len <= KEPT_CHAIN {
            // Rebuilt from what the resolution just read: no new observation.
            let chain = Resolver::new(files.unrecorded(), self.lookups, self.default_agent.clone(), self.key)
                .chain(path, one.chain_len);
            one.agent.chain = chain_keys(&chain, self.key).into();
            one.chain_kept = true;
            let mut opened = self.outside(chain);
            opened.append(&mut one.opened_elsewhere);
            one.opened_elsewhere = opened;
        }
    }

    /// Resolves and renders one file: its agent (or its error), and the subagents to
    /// visit (none when it failed, as in Kimi).
    fn definition(
        &self,
        files: crate::discover::Files,
        path: &Path,
        listed: Option<&ListedBy>,
        covers: &ByPath<Cover>,
    ) -> Definition {
        let (resolution, observed) = files.capture(|files| {
            Resolver::new(files, self.lookups, self.default_agent.clone(), self.key)
                .resolve(path, covers)
        });
        let cover = Cover {
            observed,
            depth: resolution.covered + 1,
        };
        let mut resolver = Resolver::new(files, self.lookups, self.default_agent.clone(), self.key);
        let source = self.roots.source(path, self.builtins);
        let chain_len = resolution.chain.len();
        let failed = |resolver: &mut Resolver, problem: Problem, prompt: Option<PathBuf>| {
            let (agent, diagnostic) = self.fail(resolver, path, &source, problem, listed);
            Definition {
                agent,
                diagnostic: Some(Box::new(diagnostic)),
                subagents: Vec::new(),
                chain_len,
                chain_kept: false,
                opened_elsewhere: self.outside(prompt),
                cover: cover.clone(),
            }
        };
        let resolved = match resolution.outcome {
            Ok(r) => r,
            Err(problem) => return failed(&mut resolver, problem, None),
        };
        let prompt_path = Some(resolved.system_prompt_path.clone());
        let prompt = match prompt::render(
            files,
            &resolved.system_prompt_path,
            &self.lookups.spellings,
            &resolved.system_prompt_args,
            &self.builtin_args,
            self.prompts,
        ) {
            Ok(text) => text,
            Err(problem) => return failed(&mut resolver, problem, prompt_path),
        };
        let mut edges = Vec::new();
        if let (Setting::Set(target), Some(parent)) =
            (&resolved.own.spec().extend.state, resolution.chain.get(1))
        {
            edges.push(Edge {
                kind: EdgeKind::Extends,
                name: target.clone(),
                target: Some((self.key)(parent)),
            });
        }
        for sub in &resolved.subagents {
            let exists = files.is_file(&self.lookups.spellings.asked(files, &sub.path));
            edges.push(Edge {
                kind: EdgeKind::Subagent,
                name: sub.name.clone(),
                target: exists.then(|| (self.key)(&sub.path)),
            });
        }
        let description = first_line(&resolved.when_to_use)
            .or_else(|| listed.and_then(|l| first_line(&l.description)))
            .unwrap_or_default();
        let agent = AgentRecord {
            chain: Arc::default(),
            description: description.into(),
            fields: resolved.fields(self.key).into(),
            attributes: resolved.own.spec().attributes.clone(),
            system_prompt: Some(prompt),
            edges: edges.into(),
            ..AgentRecord::new(ID, resolved.name.clone(), source, Status::Wins, String::new())
        }
        .into();
        Definition {
            agent,
            diagnostic: None,
            subagents: resolved.subagents,
            chain_len,
            chain_kept: false,
            opened_elsewhere: self.outside(prompt_path),
            cover,
        }
    }

    /// An `Invalid` agent and its error: the diagnostic points at the file and line
    /// where the cause is; its `source` is the definition that failed.
    fn fail(
        &self,
        resolver: &mut Resolver,
        path: &Path,
        source: &crate::model::Source,
        problem: Problem,
        listed: Option<&ListedBy>,
    ) -> (Agent, Diagnostic) {
        let key = source.key();
        let mut message = problem.message.clone();
        if normalize(&problem.path) != normalize(path) {
            message = format!(
                "{message} (in {}, while loading {key})",
                (self.key)(&problem.path)
            );
        }
        if let Some(l) = listed {
            message = format!("{message}; listed as subagent `{}` of {}", l.name, l.parent);
        }
        let mut problem = problem;
        // A subagent file that is not there is fixed at the entry that lists it.
        if let (Some(l), true) = (
            listed,
            problem.kind == DiagKind::Missing && normalize(&problem.path) == normalize(path),
        ) {
            problem.path = l.parent_path.clone();
            problem.line = Some(l.line);
            problem.col = None;
        }
        let diagnostic =
            Diagnostic::error(ID, problem.kind, problem.path.clone(), message.clone()).at(problem.line, problem.col).failing(key);
        // What the file itself says, when it could be read, so the explorer can show
        // the broken definition next to its error.
        let own = resolver.load_file(path).ok();
        // Never an empty row: a file with no usable `name` is shown by the name it is
        // called by (its subagent key, else its file's stem), and the row says which.
        let own_name = own.as_ref().and_then(|f| match &f.spec().name.state {
            Setting::Set(n) if !n.trim().is_empty() => Some(n.clone()),
            _ => None,
        });
        let (name, called) = match (own_name, listed) {
            (Some(n), _) => (n, ""),
            (None, Some(l)) if !l.name.trim().is_empty() => (l.name.clone(), "; no `name`: shown by its subagent key"),
            // Shown by its file's stem, marked ([`AgentRecord::shown_name`]).
            (None, _) => (String::new(), ""),
        };
        let rule = format!("Kimi cannot load it: {message}");
        let agent = AgentRecord {
            description: format!("invalid: {}{called}", problem.kind.as_str()).into(),
            attributes: own.map(|f| f.spec().attributes.clone()).unwrap_or_default(),
            ..AgentRecord::new(ID, name, source.clone(), Status::Invalid, rule)
        }
        .into();
        (agent, diagnostic)
    }
}

/// The digest of the normal form of `path` ([`normalize`], [`keys::path_digest`]) as
/// the key of the path-keyed sets of a visit: they hold no copy of the paths.
fn normal_digest(path: &Path) -> u128 {
    keys::path_digest(&crate::model::normalized(path))
}

/// A definition's subagents in the order the visit pushes them on its stack: by
/// name, last first, so that they are visited by name.
fn subagents_in_visit_order(one: &Definition) -> Vec<&spec::SubagentEntry> {
    let mut subagents: Vec<&spec::SubagentEntry> = one.subagents.iter().collect();
    subagents.sort_by(|a, b| a.name.cmp(&b.name));
    subagents.reverse();
    subagents
}

/// How the definition at `path` (source key `parent`) lists `sub`.
fn listing(parent: &str, path: &Path, sub: &spec::SubagentEntry) -> ListedBy {
    ListedBy {
        parent: parent.to_string(),
        parent_path: path.to_path_buf(),
        line: sub.line,
        name: sub.name.clone(),
        description: sub.description.clone(),
    }
}

/// Joined to its exact length: every load makes one for each of its agents.
fn why_it_wins(listed: Option<&ListedBy>) -> String {
    let base = "Kimi loads an agent by its file path (`--agent-file`); `name` is only a label: files of one name are separate entry points and none shadows another";
    match listed {
        Some(l) => [base, "; reached as subagent `", &l.name, "` of ", &l.parent].concat(),
        None => [base, "; an entry point of the project (a .yaml/.yml with an `agent:` mapping)"].concat(),
    }
}

fn first_line(text: &str) -> Option<String> {
    text.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_string)
}

/// `kimi_cli/agents` in the installed kimi-cli distribution.
const PACKAGE: site_packages::Package<'static> =
    site_packages::Package { rel_path: "kimi_cli/agents", dist_prefix: "kimi_cli-", launchers: &["kimi", "kimi-cli"] };

fn locate_builtins(cx: &LoadContext) -> Option<PathBuf> {
    site_packages::find(cx.files, cx.roots, cx.env, &PACKAGE).0
}

fn builtins_not_found(cx: &LoadContext) -> Diagnostic {
    let looked = site_packages::find(cx.files, cx.roots, cx.env, &PACKAGE).1;
    super::builtins_not_installed(ID, cx.roots, "kimi-cli", &looked, "built-in agents are not shown and `extend: default` cannot be resolved")
}

/// Where Kimi's agent files are: the project, walked for entry points (every
/// `.yaml`/`.yml` with a top-level `agent:`; Kimi itself loads the one
/// `--agent-file`, agentry shows them all), and the built-in agents. Each entry point
/// is a tier of its own; the folders of files reached from them are added after the
/// load.
fn places(cx: &LoadContext, builtins: Option<&Path>) -> Vec<Place> {
    const YAML: &[&str] = &[".yaml", ".yml"];
    let r = cx.roots;
    let label = "the project, any depth: entry points are files with a top-level `agent:` (Kimi itself loads the one --agent-file; agentry shows them all)";
    let mut out = vec![Place::agents(0, Scope::Project, &r.project, r.project.clone(), Reach::tree(YAML), label)];
    if let Some(b) = builtins {
        let label = "kimi-cli's built-in agents: `extend: default` is default/agent.yaml here";
        out.push(Place::agents(0, Scope::Builtin, b, b.to_path_buf(), Reach::tree(YAML), label));
    }
    // Any file of either may be reached from a definition: a prompt path, `extend`,
    // `subagents`.
    let reached = "any file reached through `extend`, `subagents` or a prompt path";
    out.push(Place::reached(Scope::Project, &r.project, r.project.clone(), Reach::tree(&[]), format!("the project: {reached}")));
    if let Some(b) = builtins {
        out.push(Place::reached(Scope::Builtin, b, b.to_path_buf(), Reach::tree(&[]), format!("the built-in agents: {reached}")));
    }
    out
}
