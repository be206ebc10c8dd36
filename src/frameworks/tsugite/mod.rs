//! Tsugite (tsugite-cli 0.25.3) Markdown agents: discovery over the package's search
//! list (config `agent_paths`, `.tsugite/`, `.tsugite/agents/`, `agents/`, `./`,
//! built-ins, global folders), name = file stem and first `exists()` wins (a broken
//! winner still wins), inheritance with per-field origins, and the rendered prompt
//! (instructions → system prompt, body → user message) without running anything.
//!
//! Files: `search` (config, search list, name lookup), `parse` (reading and
//! frontmatter), `schema` (AgentConfig validation), `inherit` + `merge`
//! (inheritance), `render` + `jinja` (over `crate::render`) + `clock` + `directives` + `tools` (the prompt).

mod clock;
mod directives;
mod inherit;
pub(crate) mod jinja;
mod merge;
pub(crate) mod parse;
pub(crate) mod render;
mod schema;
mod search;
mod timedelta;
mod tools;

use crate::discover::Hold;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;


use super::{Framework, LoadContext, RenderMode};
use crate::discover::site_packages::{self, Package};
use crate::model::{
    Agent, CompactJson, DiagKind, Diagnostic, EcosystemReport, Edge, EdgeKind, Field, Message, Place, Reach, Roots,
    Part, Scope, Severity, Source, Status, Text,
};
use super::precedence::{self, Ladder, Tier};
use inherit::Resolver;
use parse::LoadError;
use search::{py_resolve, SearchSpace};

pub use jinja::{py_str, render_template, DateTime, World};
pub use render::{prepare, Inputs, Prepared};

const ID: &str = "tsugite";

/// 2025-01-15 12:00:00 UTC, the clock of the resolution report.
pub const EXPORT_CLOCK: i64 = 1_736_942_400;

pub struct Tsugite;

impl Framework for Tsugite {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".tsugite"), E::xdg("tsugite")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Tsugite"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::python("Tsugite", "0.25.3", &["tsugite-cli"]).commands(&["tsugite"]))
    }

    /// `iter_agent_search_paths` from the project (config `agent_paths` entries are
    /// read from a file, so they are not listed here), `*.md` directly in each folder.
    fn name_matching(&self, _kind: crate::model::Kind) -> super::NameRule {
        super::NameRule {
            ignores_case: false,
            words: "by the file `NAME.md`, as the file system compares names (case-sensitive on Linux)",
        }
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        Loader::new(cx).run()
    }
}

/// The installed package's `tsugite/builtin_agents/`, per the spec's "Locating
/// built-ins", with the places looked at.
fn locate_builtins(cx: &LoadContext) -> (Option<PathBuf>, Vec<PathBuf>) {
    let pkg = Package {
        rel_path: "tsugite/builtin_agents",
        dist_prefix: "tsugite_cli-",
        launchers: &["tsugite", "tsu"],
    };
    site_packages::find(cx.files, cx.roots, cx.env, &pkg)
}

struct Loader<'a> {
    cx: &'a LoadContext<'a>,
    report: EcosystemReport,
    builtins: Option<PathBuf>,
    /// The roots with symlinks resolved, to name resolved paths (symlinked winners).
    real_roots: Roots,
    real_builtins: Option<PathBuf>,
}

/// One name's resolution: its candidates' agents and their diagnostics.
struct NameOutcome {
    agents: Vec<Agent>,
    diagnostics: Vec<Diagnostic>,
}

/// A candidate's field values, system prompt and merged body.
type Fingerprint = (Vec<CompactJson>, Option<Text>, Arc<str>);

impl<'a> Loader<'a> {
    fn new(cx: &'a LoadContext<'a>) -> Self {
        let mut report = EcosystemReport::new(ID);
        let builtins = cx.builtins(|| {
            let (found, looked) = locate_builtins(cx);
            if found.is_none() {
                report.diagnostics.push(super::builtins_not_installed(
                    ID,
                    cx.roots,
                    "tsugite-cli",
                    &looked,
                    "built-in agents (and the built-in `default` base) are not shown",
                ));
            }
            found
        });
        let real = |p: &Path| py_resolve(cx.files, p).unwrap_or_else(|| p.to_path_buf());
        let real_roots = Roots {
            project: real(&cx.roots.project),
            home: real(&cx.roots.home),
            xdg: real(&cx.roots.xdg),
            builtins: None,
            ..cx.roots.clone()
        };
        let real_builtins = builtins.as_deref().map(real);
        report.builtins = builtins.clone();
        Loader {
            cx,
            report,
            builtins,
            real_roots,
            real_builtins,
        }
    }

    /// The source of a file: its scope and path as found, else as resolved.
    /// A search folder as a place: `*.md` directly in it, `tier` its place in the
    /// search order.
    fn place(&self, tier: usize, dir: PathBuf, label: String) -> Place {
        let roots = self.cx.roots;
        let scope = self.source_of(&dir).scope;
        let base = match scope {
            Scope::Project => roots.project.clone(),
            Scope::User => roots.home.clone(),
            Scope::Xdg => roots.xdg.clone(),
            Scope::Builtin => self.builtins.clone().unwrap_or_default(),
        };
        Place::agents(tier, scope, &base, dir, Reach::top(&[".md"]), label)
    }

    fn source_of(&self, path: &Path) -> Source {
        let roots = self.cx.roots;
        let plain = roots.source(path, self.builtins.as_deref());
        if !plain.rel.starts_with("..") {
            return plain;
        }
        let real = py_resolve(self.cx.files, path).unwrap_or_else(|| path.to_path_buf());
        let resolved = self.real_roots.source(&real, self.real_builtins.as_deref());
        if resolved.rel.starts_with("..") {
            plain
        } else {
            Source {
                path: crate::store::shared_path(path),
                ..resolved
            }
        }
    }

    fn key_of(&self, path: &Path) -> String {
        self.source_of(path).key()
    }

    fn run(mut self) -> EcosystemReport {
        let roots = self.cx.roots;
        let config = search::load_config(self.cx.files, &roots.xdg, &roots.home);
        if let (Some(path), Some(problem)) = (&config.path, &config.problem) {
            self.report.diagnostics.push(Diagnostic::warning(
                ID,
                DiagKind::Parse,
                path,
                format!("tsugite ignores this config.json and uses its defaults: {problem}"),
            ));
        }
        let space = SearchSpace::new(
            self.cx.key,
            &config,
            &roots.project,
            &roots.home,
            &roots.xdg,
            self.builtins.clone(),
        );
        let dirs = space.dirs_labelled(self.cx.files, &roots.project, "the project");
        for (i, d) in dirs.iter().enumerate() {
            let place = self.place(i, d.path.clone(), d.role.clone()).ranked(ordinal(i + 1));
            self.report.places.push(place);
        }
        let mut names: Vec<String> = Vec::new();
        for d in &dirs {
            match search::md_stems(self.cx.files, &d.path) {
                Ok(stems) => names.extend(stems),
                Err(e) => self.report.diagnostics.push(Diagnostic::warning(
                    ID,
                    DiagKind::Io,
                    &d.path,
                    format!("cannot list this search folder ({e}); tsugite sees it as empty"),
                )),
            }
        }
        names.sort();
        names.dedup();

        let inputs = self.inputs();
        // Everything a name's resolution depends on besides file-system answers: the
        // search list (computed above from answers of its own), the search space, the
        // rendering inputs without the clock (a prompt that reads the clock is never
        // reused, see `jinja`).
        let shared_key = crate::discover::context_key(&format!(
            "{dirs:?}\0{config:?}\0{}\0{}\0{}\0{:?}\0{}\0{:?}",
            inputs.user_prompt,
            inputs.cwd,
            inputs.interactive,
            inputs.world.env,
            inputs.world.cwd,
            inputs.world.base_dir
        ));
        let lookups = inherit::Lookups::default();
        let mut agents = Vec::new();
        let mut diagnostics = Vec::new();
        // Each name (its candidates, winner and shadowing) is one memoized resolution:
        // a refresh recomputes only the names whose files, parents, lookups or
        // listings changed. Names resolve in parallel; the lookups they share are
        // computed once.
        let outcomes: Vec<_> = names
            .par_iter()
            .map(|name| {
                let key = crate::discover::hash_key((self.cx.key, ID, shared_key, name));
                self.cx.files.definition(key, |files| {
                    let cx = self.cx.with_files(files);
                    let view = self.view(&cx);
                    let outcome = view.resolve_name(name, &dirs, &space, &config, &inputs, &lookups);
                    // Kept with the name: a refresh resolves these paths again only
                    // for the names it recomputes.
                    let folders = view.inheritance_folders(&outcome.agents, &lookups);
                    (outcome, folders)
                })
            })
            .collect();
        self.watch_inheritance_folders(&space, outcomes.iter().map(|o| &o.1[..]));
        for outcome in &outcomes {
            let outcome = &outcome.0;
            for agent in &outcome.agents {
                agents.push(agent.clone());
            }
            for d in &outcome.diagnostics {
                if !diagnostics
                    .iter()
                    .any(|e: &Diagnostic| e.source.is_some() && e.source == d.source)
                {
                    diagnostics.push(d.clone());
                }
            }
        }
        self.report.agents = agents;
        self.report.diagnostics.extend(diagnostics);
        // `config.json`: the first of these that exists is read.
        let config = Reach::top(&["config.json"]);
        let (xdg, home) = (roots.xdg.join("tsugite"), roots.home.join(".config/tsugite"));
        self.report.places.push(Place::settings(Scope::Xdg, &roots.xdg, xdg, config, "config.json in $XDG_CONFIG_HOME/tsugite"));
        self.report.places.push(Place::settings(Scope::User, &roots.home, home, config, "config.json in ~/.config/tsugite"));
        self.report
    }

    /// The same loader asking through `cx` (inside a memoized resolution).
    fn view<'b>(&self, cx: &'b LoadContext<'b>) -> Loader<'b> {
        Loader {
            cx,
            report: EcosystemReport::new(ID),
            builtins: self.builtins.clone(),
            real_roots: self.real_roots.clone(),
            real_builtins: self.real_builtins.clone(),
        }
    }

    /// Every candidate file of one name, in search order: the winner, the shadowed
    /// ones (equivalent when they resolve to what the winner does), their diagnostics.
    fn resolve_name(
        &self,
        name: &str,
        dirs: &[search::SearchEntry],
        space: &SearchSpace,
        config: &search::TsuConfig,
        inputs: &Inputs,
        lookups: &inherit::Lookups,
    ) -> NameOutcome {
        let roots = self.cx.roots;
        let files = self.cx.files;
        let file = format!("{name}.md");
        let candidates: Vec<(PathBuf, usize)> = dirs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.path.join(&file), i))
            .filter(|(p, _)| search::exists(files, p))
            .collect();
        if candidates.is_empty() {
            return NameOutcome {
                agents: Vec::new(),
                diagnostics: Vec::new(),
            };
        }
        let sources: Vec<Source> = candidates.iter().map(|(p, _)| self.source_of(p)).collect();
        // The candidates' own files are parsed under the keys located just above.
        let key_fn = |p: &Path| match candidates.iter().position(|(c, _)| c.as_os_str() == p.as_os_str()) {
            Some(i) => sources[i].key(),
            None => self.key_of(p),
        };
        let resolver = Resolver {
            files,
            space,
            config,
            cwd: &roots.project,
            home: &roots.home,
            key_of: &key_fn,
            lookups,
            prompts: self.cx.prompts,
        };
        // Kept in the name's memo as long as the name resolves the same: sized to fit.
        let mut agents: Vec<Agent> = Vec::with_capacity(candidates.len());
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        let first_real = resolver.real(&candidates[0].0);
        // A plain name is looked up along the very search list the candidates were
        // probed in, so `find_agent_file` would answer the first candidate.
        let winner = if search::reads_as_path(name) {
            space.find(files, name, &roots.project, &roots.project, &roots.home)
        } else {
            first_real.clone()
        };
        let direct = winner.is_some() && winner == first_real;
        let winner_key = if direct {
            Some(sources[0].key())
        } else {
            winner.as_deref().map(|w| self.key_of(w))
        };
        let mut fingerprints: Vec<Option<Fingerprint>> = Vec::with_capacity(candidates.len());
        for (idx, ((cand, _), source)) in candidates.iter().zip(&sources).enumerate() {
            let is_winner = direct && idx == 0;
            let load_path = if is_winner {
                winner.clone().unwrap_or_else(|| cand.clone())
            } else {
                cand.clone()
            };
            // Found through the search folders, the rules are the ranking's; the load
            // adds to them.
            let rule = match direct {
                true => String::new(),
                false => unreachable_rule(name, winner_key.as_deref()),
            };
            let ctx = Candidate {
                name,
                cand,
                source: source.clone(),
                load_path: &load_path,
                is_winner,
                winner_key: winner_key.clone(),
                rule,
            };
            let (agent, diags, body) = self.load_candidate(&resolver, ctx, inputs);
            // Only a name with a winner and shadowed candidates compares them.
            let compared = direct && candidates.len() > 1;
            let fingerprint = (compared && agent.status != Status::Invalid && diags.is_empty()).then(|| {
                (
                    agent.fields.iter().map(|f| f.value.clone()).collect(),
                    agent.system_prompt.clone(),
                    body,
                )
            });
            fingerprints.push(fingerprint);
            agents.push(agent);
            for d in diags {
                if !diagnostics
                    .iter()
                    .any(|e: &Diagnostic| e.source.is_some() && e.source == d.source)
                {
                    diagnostics.push(d);
                }
            }
        }
        if direct {
            let mut ladder = Ladder::new(dirs.iter().enumerate().map(|(i, d)| Tier::first(role(d, i))).collect());
            ladder.failures_take_part = true;
            let ranked = agents.into_iter().zip(&candidates).map(|(agent, &(_, tier))| precedence::Candidate { tier, agent }).collect();
            agents = precedence::rank_by(&ladder, ranked, &SearchOrder { fingerprints: &fingerprints });
        }
        diagnostics.shrink_to_fit();
        NameOutcome {
            agents,
            diagnostics,
        }
    }

    /// `extends` and the implicit base are looked up from each agent's own folder, so
    /// those folders' `.tsugite/`, `agents/`… matter too (a new `default.md` there
    /// changes the result): they are listed after the project's search list.
    /// The folders, symlinks resolved, of the files `agents` come from and inherit
    /// from, each once, in the agents' order.
    fn inheritance_folders(&self, agents: &[Agent], lookups: &inherit::Lookups) -> Box<[Arc<Path>]> {
        let mut folders: Vec<Arc<Path>> = Vec::new();
        for a in agents {
            for p in std::iter::once(a.source.path.to_path_buf())
                .chain(a.chain.iter().skip(1).filter_map(|k| self.path_of_key(k)))
            {
                if let Some(parent) = lookups
                    .real(self.cx.files, &p)
                    .as_deref()
                    .and_then(Path::parent)
                {
                    if !folders.iter().any(|f| **f == *parent) {
                        folders.push(lookups.shared_folder(parent));
                    }
                }
            }
        }
        folders.into()
    }

    /// Adds the search folders of every folder of [`Loader::inheritance_folders`]
    /// (given per name, in the names' order) to the report's searched ones.
    fn watch_inheritance_folders<'f>(&mut self, space: &SearchSpace, per_name: impl Iterator<Item = &'f [Arc<Path>]>) {
        let mut seen: crate::discover::fast_hash::HashSet<&Path> = Default::default();
        let folders: Vec<&Path> = per_name.flatten().map(|f| &**f).filter(|f| seen.insert(f)).collect();
        // Where the folders searched so far resolve to: a folder found again through
        // another spelling or a symlink is not added twice.
        let mut searched: crate::discover::fast_hash::HashSet<Option<PathBuf>> =
            self.report.places.iter().map(|s| py_resolve(self.cx.files, &s.dir)).collect();
        for folder in folders {
            let label = format!(
                "{} (inheritance lookups of the agents there)",
                self.key_of(folder)
            );
            for d in space.dirs_labelled(self.cx.files, folder, &label) {
                if searched.insert(py_resolve(self.cx.files, &d.path)) {
                    let place = Place { reached: true, ..self.place(usize::MAX, d.path, d.role) };
                    self.report.places.push(place);
                }
            }
        }
    }

    /// The file behind a source key of this report (chain entries).
    fn path_of_key(&self, key: &str) -> Option<PathBuf> {
        let (scope, rel) = key.split_once(':')?;
        let root = match scope {
            "project" => &self.cx.roots.project,
            "user" => &self.cx.roots.home,
            "xdg" => &self.cx.roots.xdg,
            "builtin" => self.builtins.as_ref()?,
            _ => return None,
        };
        Some(root.join(rel))
    }

    fn inputs(&self) -> Inputs {
        let project = &self.cx.roots.project;
        match &self.cx.render {
            RenderMode::Export => Inputs {
                user_prompt: "<user prompt>".into(),
                cwd: "<project>".into(),
                interactive: false,
                world: World {
                    now: EXPORT_CLOCK,
                    micros: 0,
                    env: BTreeMap::new(),
                    cwd: "<project>".into(),
                    base_dir: project.clone(),
                },
            },
            RenderMode::Live { user_prompt } => {
                let since = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                let cwd = project.display().to_string();
                Inputs {
                    user_prompt: user_prompt.clone(),
                    cwd: cwd.clone(),
                    interactive: true,
                    world: World {
                        now: since.as_secs() as i64,
                        micros: since.subsec_micros(),
                        env: self.cx.env.clone(),
                        cwd,
                        base_dir: project.clone(),
                    },
                }
            }
        }
    }

    /// Loads and renders one candidate: the agent, its diagnostics, and its resolved
    /// body (part of what the model reads, for the equivalence check).
    fn load_candidate(
        &self,
        resolver: &Resolver,
        c: Candidate,
        inputs: &Inputs,
    ) -> (Agent, Vec<Diagnostic>, Arc<str>) {
        let source = c.source;
        let key = source.key();
        let status = if c.is_winner {
            Status::Wins
        } else {
            Status::Shadowed
        };
        let mut agent = Agent::new(ID, c.name.to_string(), source, status, c.rule);
        agent.shadowed_by = if c.is_winner {
            None
        } else {
            c.winner_key
        };
        let (parsed, mut resolved) = match resolver.parse_agent_file(c.load_path) {
            Ok(r) => r,
            Err(e) => {
                if c.is_winner {
                    agent.rule.push_str(
                        "; it fails to load, and tsugite does not fall through to the next folder",
                    );
                }
                agent.status = Status::Invalid;
                agent.description = format!("cannot be loaded: {}", e.message).into();
                // A file with no front matter at all is plain Markdown (a README in
                // `agents/`), no definition: `tsugite agents list` hides it, and only
                // `tsugite run` of its very name would read it.
                let plain = e.kind == DiagKind::Parse
                    && agent.source.scope == Scope::Project
                    && crate::model::normalized(&e.path) == crate::model::normalized(c.load_path)
                    && self.cx.files.read(c.load_path, Hold::Kept).is_ok_and(|b| !b.starts_with(b"---"));
                let mut diagnostic = self.load_diagnostic(e, &key);
                if plain && !self.read_on_demand(c.cand) {
                    diagnostic.severity = Severity::Info;
                    diagnostic.message.push_str(PLAIN);
                    agent.rule.push_str("; plain Markdown, read only when an agent of this name is asked for");
                } else if self.read_on_demand(c.cand) {
                    // README.md, CHANGELOG.md, … in the start folder: Tsugite reads them
                    // only when asked for an agent of that name (and `agents list` no
                    // longer lists them), so they are no error of the workspace.
                    diagnostic.severity = Severity::Info;
                    diagnostic.message.push_str(ON_DEMAND);
                    agent.rule.push_str("; a file in the start folder is read only when an agent of this name is asked for");
                }
                return (agent, vec![diagnostic], Arc::default());
            }
        };
        let load_key = if c.load_path.as_os_str() == c.cand.as_os_str() {
            key.clone()
        } else {
            self.key_of(c.load_path)
        };
        merge::finish_origins(&mut resolved.config, &load_key);
        agent.chain = agent
            .chain
            .iter()
            .cloned()
            .chain(resolved.chain.iter().skip(1).map(|p| self.key_of(p)))
            .collect();
        agent.attributes = parsed.attributes.clone();
        agent.fields = schema::FIELDS
            .iter()
            .enumerate()
            .map(|(i, (field, _))| Field::new(*field, resolved.config.values[i].clone(), resolved.config.origins[i].clone()))
            .collect();
        agent.edges = self.edges(&resolved, &agent.chain).into();
        let description = resolved.config.str_of("description").unwrap_or_default();
        agent.description = if description.is_empty() {
            resolved
                .body
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or_default()
                .into()
        } else {
            description.into()
        };
        let mut diags = Vec::new();
        match render::prepare(&resolved.config, &resolved.body, inputs) {
            Ok(Some(p)) => {
                agent.system_prompt = Some(p.instructions.into());
                // The explorer leaves the lines of a message that the bodies of its
                // chain hold on disk; held, a message that is the body itself is shared
                // with the kept parse.
                let parts: Vec<Part> = match self.cx.prompts.on_disk() {
                    // Root first: the order of the bodies in the merged body.
                    true => resolved
                        .chain
                        .iter()
                        .zip(&resolved.bodies)
                        .rev()
                        .filter_map(|(path, (body, at))| Some(Part { file: path, start: (*at)? as usize, bytes: body.as_bytes() }))
                        .collect(),
                    false => Vec::new(),
                };
                let kept = |text: Arc<str>| match parts.is_empty() {
                    false => self.cx.prompts.rendered_from_parts(&parts, &text),
                    true => text.into(),
                };
                // Multi-step agents send each step as its own user turn.
                agent.messages = if p.steps.is_empty() {
                    Arc::new([Message {
                        role: "user".into(),
                        label: None,
                        text: kept(p.user_message),
                    }])
                } else {
                    p.steps
                        .into_iter()
                        .map(|(name, text)| Message {
                            role: "user".into(),
                            label: Some(name),
                            text: kept(text.into()),
                        })
                        .collect()
                };
            }
            Ok(None) => {
                let guard = resolved.config.str_of("run_if").unwrap_or_default();
                agent.rule.push_str(&format!(
                    "; skipped: its run_if guard `{guard}` is false, so it sends no prompt"
                ));
            }
            Err(e) => {
                let (line, where_) = match e.part {
                    render::Part::Body if resolved.chain.len() == 1 => {
                        (e.line.map(|l| l + parsed.body_line - 1), "body".to_string())
                    }
                    // Told as the line of the file of the chain that wrote it.
                    render::Part::Body => match e.line.and_then(|l| resolved.body_origin(l)) {
                        Some((file, line)) if file == c.load_path => (Some(line), "body".into()),
                        Some((_, line)) => (
                            Some(line),
                            format!("body as {} inherits it", match agent.source.scope {
                                Scope::Builtin => agent.source.key(),
                                _ => crate::model::shown(c.load_path, self.cx.roots),
                            }),
                        ),
                        None => (None, "merged body".into()),
                    },
                    render::Part::Instructions => (
                        resolved.config.origins[schema::index_of("instructions").unwrap_or(0)]
                            .sites
                            .first()
                            .and_then(|s| s.line),
                        "instructions".into(),
                    ),
                    render::Part::Tools => (
                        resolved.config.origins[schema::index_of("tools").unwrap_or(0)]
                            .sites
                            .first()
                            .and_then(|s| s.line),
                        "tools".into(),
                    ),
                    render::Part::Prefetch => (
                        resolved.config.origins[schema::index_of("prefetch").unwrap_or(0)]
                            .sites
                            .first()
                            .and_then(|s| s.line),
                        "prefetch variables".into(),
                    ),
                };
                let kind = if e.bounded {
                    DiagKind::Template
                } else if e.part == render::Part::Prefetch {
                    // A TypeError in tsugite, as a frontmatter of the wrong shape is.
                    DiagKind::Parse
                } else {
                    DiagKind::Validation
                };
                // Instructions and tools may come from an ancestor: point at the
                // file that wrote them (the first of the chain that did).
                let field = match e.part {
                    render::Part::Instructions => Some("instructions"),
                    render::Part::Tools => Some("tools"),
                    render::Part::Prefetch => Some("prefetch"),
                    render::Part::Body => None,
                };
                let at = field
                    .and_then(|f| {
                        resolved.config.origins[schema::index_of(f).unwrap_or(0)]
                            .sites
                            .first()
                    })
                    .and_then(|site| self.path_of_key(&site.source))
                    .or_else(|| match (field, resolved.chain.len()) {
                        (None, 2..) => e.line.and_then(|l| resolved.body_origin(l)).map(|(p, _)| p.to_path_buf()),
                        _ => None,
                    })
                    .unwrap_or_else(|| c.load_path.to_path_buf());
                let d = Diagnostic::error(
                    ID,
                    kind,
                    &at,
                    format!("cannot render the {where_}: {}", e.message),
                )
                .at(line, None)
                .failing(key.clone());
                diags.push(d);
            }
        }
        if self.read_on_demand(c.cand) {
            for d in diags.iter_mut().filter(|d| d.severity == Severity::Error) {
                d.severity = Severity::Info;
                d.message.push_str(ON_DEMAND);
            }
        }
        (agent, diags, resolved.body)
    }

    fn edges(&self, resolved: &inherit::Resolved, chain: &[String]) -> Vec<Edge> {
        let target = chain.get(1).cloned();
        match resolved.config.extends() {
            Some("none") | Some("") => Vec::new(),
            Some(name) => vec![Edge {
                kind: EdgeKind::Extends,
                name: name.to_string(),
                target,
            }],
            None if target.is_some() => vec![Edge {
                kind: EdgeKind::Extends,
                name: "default (implicit base)".into(),
                target,
            }],
            None => Vec::new(),
        }
    }

    /// A candidate directly in the folder Tsugite starts in (the project root here).
    fn read_on_demand(&self, candidate: &Path) -> bool {
        candidate.parent().is_some_and(|dir| crate::model::normalized(dir) == crate::model::normalized(&self.cx.roots.project))
    }

    fn load_diagnostic(&self, e: LoadError, key: &str) -> Diagnostic {
        Diagnostic::error(ID, e.kind, &e.path, e.message)
            .at(e.line, None)
            .failing(key.to_string())
    }
}

/// Said of a problem in a file Tsugite reads only when asked for it by name.
const ON_DEMAND: &str = " (a file in the start folder: Tsugite reads it only when an agent of this name is asked for)";

/// Said of a file with no front matter in a folder Tsugite searches.
const PLAIN: &str = " (plain Markdown with no front matter: `tsugite agents list` hides it; Tsugite reads it only when an agent of this name is asked for)";

struct Candidate<'p> {
    name: &'p str,
    cand: &'p Path,
    /// Where `cand` sits among the roots.
    source: Source,
    load_path: &'p Path,
    is_winner: bool,
    winner_key: Option<String>,
    rule: String,
}

/// How a search folder is named in rules: its role and place in the search order.
fn role(dir: &search::SearchEntry, index: usize) -> String {
    format!("{} (searched {})", dir.role, ordinal(index + 1))
}

/// Why a candidate of a name that reads as a path is not what `tsugite run NAME` loads.
fn unreachable_rule(name: &str, winner_key: Option<&str>) -> String {
    match winner_key {
        Some(w) => format!("`{name}` reads as a path, so tsugite resolves it to {w}, not through the search folders"),
        None => format!("`{name}` reads as a path (it ends in `.md`) and ./{name} does not exist: unreachable by name"),
    }
}

/// `find_agent_file` in Tsugite's words: the first folder of the search list holding
/// `NAME.md` wins, broken or not; a shadowed candidate is EQUIVALENT when its field
/// values, system prompt and merged body (`fingerprints`, in read order; none for a
/// candidate with problems) are the winner's. The load's own remarks follow the rule.
struct SearchOrder<'a> {
    fingerprints: &'a [Option<Fingerprint>],
}

impl precedence::Rules for SearchOrder<'_> {
    fn equivalent(&self, contest: &precedence::Contest<'_>, loser: usize) -> bool {
        let winner = &self.fingerprints[contest.members[0].read];
        winner.is_some() && *winner == self.fingerprints[contest.members[loser].read]
    }

    fn winner_rule(&self, contest: &precedence::Contest<'_>) -> Option<String> {
        let (winner, label) = (contest.winner(), &contest.ladder.tiers[contest.members[0].tier].label);
        let name = &winner.name;
        Some(match contest.members.len() {
            1 => format!("the only `{name}.md`: {label}{}", winner.rule),
            _ => format!("first `{name}.md` in the search order: {label} is searched before the other folders holding it{}", winner.rule),
        })
    }

    fn loser_rule(&self, contest: &precedence::Contest<'_>, loser: usize, _equivalent: bool) -> Option<String> {
        let label = |k: usize| &contest.ladder.tiers[contest.members[k].tier].label;
        let key = contest.winner().source.key();
        Some(format!("shadowed by {key}: {} is searched before {}{}", label(0), label(loser), contest.members[loser].agent.rule))
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
