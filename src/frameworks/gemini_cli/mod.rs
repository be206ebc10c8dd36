//! Gemini CLI subagents (npm `@google/gemini-cli` 0.61.0).
//!
//! Mirrors `AgentRegistry.loadAgents` and `registerAgent` (built-ins, then the
//! project folder `<cwd>/.gemini/agents` when the folder is trusted, each agent only
//! once acknowledged, then `~/.gemini/agents`, then each extension's `agents/`; the
//! first registration of a name wins), `loadAgentsFromDirectory` (regular `*.md`
//! files at the top level, `_` names skipped), `parseAgentMarkdown` and
//! `markdownToAgentDefinition` ([`schema`]), js-yaml 4's `load` ([`yaml`]),
//! `applyOverrides` (settings `agents.overrides`) and `registerRemoteAgent`'s
//! description for inline agent cards. Extension agents get the ExtensionManager's
//! `recursivelyHydrateStrings` variables.

mod mcp;
pub mod schema;
mod settings;
mod tools;
pub mod yaml;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value as Json;

use super::precedence::{self, Candidate, Ladder, Tier};
use super::{Framework, LoadContext, Location, RenderMode};
use crate::discover::{self, ReadError};
use crate::model::{
    Agent, AgentRecord, AttributesBuilder, DiagKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Scope, SearchDir, Source,
    Status, Text,
};
use settings::Settings;

pub struct GeminiCli;

const ID: &str = "gemini-cli";

/// The agents compiled into the CLI (`loadBuiltInAgents`); `browser_agent` only when
/// settings enable it.
const BUILTINS: [&str; 3] = ["codebase_investigator", "cli_help", "generalist"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Project,
    User,
    Extension,
}

/// One folder the registry loads, in registration order.
struct Folder {
    place: Place,
    scope: Scope,
    base: PathBuf,
    path: PathBuf,
    label: String,
    /// The extension's folder, for `${extensionPath}`.
    extension: Option<PathBuf>,
}

const TIER_BUILTIN: usize = 0;

fn tier_of(place: Place) -> usize {
    match place {
        Place::Project => 1,
        Place::User => 2,
        Place::Extension => 3,
    }
}

fn ladder() -> Ladder {
    let order = "the folder's readdir order (not defined by Gemini CLI)";
    Ladder::new(vec![
        Tier::first("the built-in agents (registered first; the first registration of a name wins)"),
        Tier::first("project <cwd>/.gemini/agents (registered after the built-ins)").undocumented(order),
        Tier::first("user ~/.gemini/agents (registered after the project's)").undocumented(order),
        Tier::first("extension agents (registered last, extensions in folder order)").undocumented(order),
    ])
}

/// The user's Gemini home: `$GEMINI_CLI_HOME` in a live run, else the home folder.
fn gemini_home(cx: &LoadContext) -> PathBuf {
    match (&cx.render, cx.env.get("GEMINI_CLI_HOME")) {
        (RenderMode::Live { .. }, Some(h)) if !h.is_empty() => crate::model::normalize(Path::new(h)),
        _ => cx.roots.home.clone(),
    }
}

fn folders(cx: &LoadContext, home: &Path) -> Vec<Folder> {
    let r = cx.roots;
    let mut out = vec![
        Folder {
            place: Place::Project,
            scope: Scope::Project,
            base: r.project.clone(),
            path: r.cwd.join(".gemini/agents"),
            label: "project <cwd>/.gemini/agents".into(),
            extension: None,
        },
        Folder {
            place: Place::User,
            scope: Scope::User,
            base: r.home.clone(),
            path: home.join(".gemini/agents"),
            label: "user ~/.gemini/agents".into(),
            extension: None,
        },
    ];
    for ext in settings::extensions(cx, home) {
        out.push(Folder {
            place: Place::Extension,
            scope: Scope::User,
            base: r.home.clone(),
            path: ext.dir.join("agents"),
            label: format!("extension `{}` agents", ext.name),
            extension: Some(ext.dir),
        });
    }
    out
}

/// A file's parse, shared through the file cache, with its content's digest (the
/// acknowledgement compares content hashes).
struct Parsed {
    result: Result<Vec<schema::Definition>, schema::Failure>,
    digest: u128,
}

/// One definition (or failing file) in registration order.
struct Read {
    folder: usize,
    agent: Agent,
    digest: u128,
    remote: bool,
    failure: Option<Diagnostic>,
}

fn scan(cx: &LoadContext, folders: &[Folder], report: &mut EcosystemReport) -> Vec<Read> {
    use rayon::prelude::*;
    // Listed in order here; the files are parsed on every core below, in order.
    let mut files: Vec<(usize, Arc<Path>)> = Vec::new();
    let mut out = Vec::new();
    for (i, f) in folders.iter().enumerate() {
        let entries = match cx.files.list_dir(&f.path) {
            Ok(Some(entries)) => entries,
            // Only a missing folder is fine (ENOENT); a file in its place is not.
            Ok(None) if matches!(cx.files.kind(&f.path), discover::Kind::Missing) => continue,
            Ok(None) => {
                out.push(listing_failure(i, f, "ENOTDIR: not a directory".into()));
                continue;
            }
            Err(e) => {
                out.push(listing_failure(i, f, e.to_string()));
                continue;
            }
        };
        for e in discover::in_listing_order(&entries, cx.roots.listing) {
            let name = e.name();
            if e.is_dir {
                continue;
            }
            // `Dirent.isFile()`: a symlink is not a file, whatever it points to.
            let ignored = if e.is_symlink {
                Some("a symlink: Gemini CLI keeps only regular files (Dirent.isFile())")
            } else if name.starts_with('_') {
                Some("its name starts with `_`: Gemini CLI skips it before reading")
            } else if !name.ends_with(".md") {
                Some("only names ending in `.md` (exactly, case-sensitive) are read")
            } else {
                None
            };
            if let Some(why) = ignored {
                if name.to_ascii_lowercase().ends_with(".md") {
                    report.diagnostics.push(Diagnostic::skipped(ID, &*e.path, format!("not read: {why}")));
                }
                continue;
            }
            if !e.is_file {
                continue;
            }
            files.push((i, Arc::clone(&e.path)));
        }
    }
    // A folder that cannot be listed comes before the files of later folders.
    let parsed: Vec<Vec<Read>> = files.par_iter().map(|(i, path)| read_file(cx, *i, &folders[*i], path)).collect();
    out.extend(parsed.into_iter().flatten());
    out.sort_by_key(|r| r.folder);
    out
}

/// A folder the loader cannot list: reported like a file that fails to load.
fn listing_failure(index: usize, folder: &Folder, why: String) -> Read {
    let source = Source::new(folder.scope, &folder.base, folder.path.clone());
    let message = format!("Failed to load agent from {}: Could not list directory: {why}", folder.path.display());
    let d = Diagnostic::error(ID, DiagKind::Io, &folder.path, message).failing(source.key());
    let agent = Agent::new(ID, "agents".into(), source, Status::Invalid, "the agents folder cannot be listed: Gemini CLI reports it".into());
    Read { folder: index, agent, digest: 0, remote: false, failure: Some(d) }
}

fn read_file(cx: &LoadContext, index: usize, folder: &Folder, path: &Path) -> Vec<Read> {
    let file_source = Source::new(folder.scope, &folder.base, path.to_path_buf());
    let parsed = cx
        .files
        .derived(path, discover::context_key("gemini-cli agent file"), |b| Parsed { result: schema::parse(b), digest: crate::model::digest(b) })
        .unwrap_or_else(|e| {
            Arc::new(Parsed {
                result: Err(schema::Failure { parse: false, message: format!("Could not read file: {}", io_message(&e)), line: None, col: None }),
                digest: 0,
            })
        });
    let key = file_source.key();
    let defs = match &parsed.result {
        Err(f) => {
            let kind = if f.message.starts_with("Could not read") {
                DiagKind::Io
            } else if f.parse {
                DiagKind::Parse
            } else {
                DiagKind::Validation
            };
            let message = format!("Failed to load agent from {}: {}", path.display(), f.message);
            let d = Diagnostic::error(ID, kind, path, message).at(f.line, f.col).failing(key);
            let name = discover::stem(&file_source.rel.rsplit('/').next().unwrap_or_default().to_string()).to_string();
            let agent = Agent::new(ID, name, file_source, Status::Invalid, "failed to load: Gemini CLI reports the file and loads the others".into());
            return vec![Read { folder: index, agent, digest: parsed.digest, remote: false, failure: Some(d) }];
        }
        Ok(defs) => defs,
    };
    let several = defs.len() > 1;
    defs.iter()
        .map(|def| {
            let mut source = file_source.clone();
            if several {
                source.card = Some(def.name.clone());
            }
            let agent = agent_of(cx, folder, def, source);
            Read { folder: index, agent, digest: parsed.digest, remote: def.remote, failure: None }
        })
        .collect()
}

fn io_message(e: &ReadError) -> String {
    match e {
        ReadError::NotFound => "ENOENT: no such file (a dangling symlink?)".into(),
        other => other.to_string(),
    }
}

/// The agent a definition gives, before ranking (extension variables substituted).
fn agent_of(cx: &LoadContext, folder: &Folder, def: &schema::Definition, source: Source) -> Agent {
    let key: Arc<str> = source.key().into();
    let hydrate = |s: &str| match &folder.extension {
        Some(ext) => settings::hydrate(s, ext, &cx.roots.cwd),
        None => s.to_string(),
    };
    let fields: Vec<Field> = def
        .fields
        .iter()
        .map(|(k, v)| {
            let line = def.lines.iter().find(|(f, _)| f == k).map(|(_, l)| *l);
            let value = if folder.extension.is_some() { hydrate_json(v, &hydrate) } else { v.clone() };
            let origin = match line {
                Some(l) => FieldOrigin::own(&key, Some(l), "set in the front matter"),
                None => FieldOrigin::default("Gemini CLI's default (markdownToAgentDefinition)"),
            };
            Field::new(*k, value, origin)
        })
        .collect();
    let description = fields.iter().find(|f| f.key == "description").and_then(|f| f.value.to_json().as_str().map(str::to_string)).unwrap_or_default();
    let mut attributes = AttributesBuilder::default();
    for (k, l, v) in &def.attributes {
        attributes.push(k, *l, v);
    }
    let mut record = AgentRecord::new(ID, def.name.clone(), source, Status::Wins, String::new());
    record.description = description.into();
    record.fields = fields.into();
    record.attributes = attributes.finish();
    record.system_prompt = def.prompt.as_deref().map(|p| Text::held(hydrate(p)));
    let _ = &folder.label;
    record.into()
}

fn hydrate_json(v: &Json, hydrate: &dyn Fn(&str) -> String) -> Json {
    match v {
        Json::String(s) => Json::String(hydrate(s)),
        Json::Array(items) => Json::Array(items.iter().map(|i| hydrate_json(i, hydrate)).collect()),
        Json::Object(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), hydrate_json(v, hydrate))).collect()),
        other => other.clone(),
    }
}

impl Framework for GeminiCli {
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Gemini CLI"
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let home = gemini_home(cx);
        let settings = Settings::read(cx, &home);
        let folders = folders(cx, &home);
        report.searched = folders
            .iter()
            .enumerate()
            .map(|(i, f)| SearchDir { scope: f.scope, path: f.path.clone(), role: format!("{} (registered {})", f.label, i + 2) })
            .collect();
        // Folder trust on and the folder not trusted: the CLI never reads the
        // project folder; agentry reads it only to show what is held back.
        let project_read = !settings.folder_trust || cx.roots.trusted;
        let reads = scan(cx, &folders, &mut report);
        if !settings.agents_enabled {
            disabled_everything(reads, &folders, project_read, &mut report);
            return report;
        }
        // Definitions that take part in registration: tier, agent, remote, place.
        let mut pending: Vec<(usize, Agent, bool, Place)> = Vec::new();
        for name in BUILTINS.iter().copied().chain(settings.browser_enabled.then_some("browser_agent")) {
            if settings.disabled(name) {
                continue;
            }
            let agent = Agent::new(ID, name.into(), Source::builtin(name), Status::Wins, String::new());
            pending.push((TIER_BUILTIN, agent, false, Place::Project));
        }
        // The content hash each project name was acknowledged with: acknowledging
        // every announced agent stores one hash per name, the last one's.
        let mut acknowledged: std::collections::HashMap<String, u128> = std::collections::HashMap::new();
        for r in &reads {
            if r.failure.is_none() && folders[r.folder].place == Place::Project {
                acknowledged.insert(r.agent.name.clone(), r.digest);
            }
        }
        // Registration order, for listing the definitions that do not win.
        let sequence: std::collections::HashMap<String, usize> = reads.iter().enumerate().map(|(i, r)| (r.agent.source.key(), i)).collect();
        for Read { folder, mut agent, digest, remote, failure } in reads {
            let f = &folders[folder];
            if let Some(d) = failure {
                match f.place {
                    Place::Project if !project_read => {}
                    // The ExtensionManager writes these to the debug log only.
                    Place::Extension => {
                        let mut d = Diagnostic::skipped(ID, d.path.clone(), format!("not loaded (debug log only): {}", d.message)).at(d.line, d.col);
                        d.source = Some(agent.source.key());
                        agent.status = Status::Skipped;
                        agent.rule = "failed to load: Gemini CLI writes extension agent errors to its debug log only".into();
                        report.diagnostics.push(d);
                    }
                    _ => report.diagnostics.push(d),
                }
                report.agents.push(agent);
                continue;
            }
            if f.place == Place::Project {
                if !project_read {
                    agent.status = Status::Held;
                    agent.rule = "held: folder trust is on and this folder is not trusted, so Gemini CLI does not read <cwd>/.gemini/agents".into();
                } else if !cx.roots.trusted {
                    agent.status = Status::Held;
                    agent.rule = "held: not acknowledged yet (~/.gemini/acknowledgments/agents.json); Gemini CLI announces it and waits".into();
                } else if acknowledged.get(&agent.name) != Some(&digest) {
                    agent.status = Status::Held;
                    agent.rule = "held: acknowledgement is stored per project and name, and it holds the hash of a later file of this name".into();
                }
                if agent.status == Status::Held {
                    report.agents.push(agent);
                    continue;
                }
            }
            if settings.disabled(&agent.name) {
                let d = Diagnostic::skipped(ID, &*agent.source.path, format!("disabled by settings agents.overrides.{}.enabled = false", agent.name)).failing(agent.source.key());
                report.diagnostics.push(d);
                agent.status = Status::Skipped;
                agent.rule = "skipped: settings agents.overrides disable this name".into();
                report.agents.push(agent);
                continue;
            }
            pending.push((tier_of(f.place), agent, remote, f.place));
        }
        // A registration that fails leaves the name free for the next definition;
        // one that would be a duplicate is never attempted. So only winners are
        // registered, and a failed one is taken out before ranking again.
        let ranked = loop {
            let candidates = pending.iter().map(|(tier, agent, _, _)| Candidate { tier: *tier, agent: agent.clone() }).collect();
            let ranked = precedence::rank(&ladder(), candidates);
            let failed: Vec<(usize, String)> = ranked
                .iter()
                .filter(|a| a.status == Status::Wins && !a.source.is_compiled_in())
                .filter_map(|a| {
                    let i = pending.iter().position(|(_, p, _, _)| p.source == a.source)?;
                    let (_, _, remote, place) = &pending[i];
                    registration_error(&settings, a, *remote, *place).map(|m| (i, m))
                })
                .collect();
            if failed.is_empty() {
                break ranked;
            }
            let mut failed = failed;
            failed.sort_by(|a, b| b.0.cmp(&a.0));
            for (i, message) in failed {
                let (_, mut agent, _, _) = pending.remove(i);
                let d = Diagnostic::error(ID, DiagKind::Validation, &*agent.source.path, message).failing(agent.source.key());
                report.diagnostics.push(d);
                agent.status = Status::Invalid;
                agent.rule = "registration failed: Gemini CLI shows the error and leaves the name free".into();
                report.agents.push(agent);
            }
        };
        let mut ranked = ranked;
        for agent in ranked.iter_mut().filter(|a| a.status == Status::Wins) {
            registered(agent, &settings);
            if agent.field("agentCardUrl").is_some_and(|u| !u.value.to_json().is_null()) {
                agent.rule.push_str("; its agent card is fetched from the URL at registration, which agentry does not do (a card that fails to load leaves the name to the next definition)");
            }
        }
        ranked.append(&mut report.agents);
        report.agents = order(ranked, &sequence);
        report
    }

    fn locations(&self, roots: &crate::model::Roots) -> Vec<Location> {
        let place = |scope, dir: PathBuf, label: String| Location { scope, dir, depth: Some(0), suffixes: &[".md"], label };
        let mut out = vec![
            place(Scope::Project, roots.cwd.join(".gemini/agents"), "Gemini CLI project .gemini/agents of the working folder".into()),
            place(Scope::User, roots.home.join(".gemini/agents"), "Gemini CLI user ~/.gemini/agents".into()),
        ];
        // `locations` has no file cache to ask: the extension folders are listed here.
        if let Ok(dir) = std::fs::read_dir(roots.home.join(".gemini/extensions")) {
            let mut exts: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.join("gemini-extension.json").is_file()).collect();
            exts.sort();
            for ext in exts {
                let name = ext.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                out.push(place(Scope::User, ext.join("agents"), format!("Gemini CLI extension `{name}` agents")));
            }
        }
        out
    }
}

/// Every file ignored: settings `experimental.enableAgents` is false, so the
/// registry loads nothing, built-ins included.
fn disabled_everything(reads: Vec<Read>, folders: &[Folder], project_read: bool, report: &mut EcosystemReport) {
    let mut seen = std::collections::HashSet::new();
    for Read { folder, mut agent, failure, .. } in reads {
        if failure.is_some() && folders[folder].place == Place::Project && !project_read {
            continue;
        }
        let path = agent.source.path.clone();
        let mut file = agent.source.clone();
        file.card = None;
        if seen.insert(file.key()) {
            let d = Diagnostic::skipped(ID, &*path, "subagents are disabled (settings experimental.enableAgents = false)").failing(file.key());
            report.diagnostics.push(d);
        }
        agent.status = Status::Skipped;
        agent.rule = "skipped: settings experimental.enableAgents = false turns subagents off".into();
        report.agents.push(agent);
    }
}

/// Why registering this definition fails, as the CLI shows it.
fn registration_error(settings: &Settings, agent: &Agent, remote: bool, place: Place) -> Option<String> {
    let scope = match place {
        Place::Project => "project",
        Place::User => "user",
        Place::Extension => "extension",
    };
    if !remote && settings.override_sets_tools(&agent.name) {
        // 0.61.0: applyOverrides assigns toolConfig on an object with only a getter.
        return Some(format!("Error registering {scope} agent \"{}\": Cannot set property toolConfig of #<Object> which has only a getter", agent.name));
    }
    if remote {
        if let Some(card) = agent.field("agentCardJson").and_then(|f| f.value.to_json().as_str().map(str::to_string)) {
            let card = serde_json::from_str::<Json>(&card).unwrap_or(Json::Null);
            if let Err(why) = settings::check_card(&card) {
                return Some(format!("[{}] Failed to load remote agent: {why}", agent.name));
            }
        }
    }
    None
}

/// What the registry keeps for a winner: settings overrides applied to a local agent,
/// an inline card's descriptions folded into a remote agent's.
fn registered(agent: &mut Agent, settings: &Settings) {
    let fields: Vec<Field> = agent.fields.iter().collect();
    let get = |k: &str| fields.iter().find(|f| f.key == k).map(|f| f.value.to_json());
    let mut out = fields.clone();
    let set = |out: &mut Vec<Field>, key: &'static str, value: Json, rule: &'static str| {
        if let Some(f) = out.iter_mut().find(|f| f.key == key) {
            f.value = value.into();
            f.origin.rule = rule.into();
        }
    };
    if get("kind").as_ref().and_then(Json::as_str) == Some("remote") {
        if let Some(card) = get("agentCardJson").and_then(|c| c.as_str().and_then(|s| serde_json::from_str::<Json>(s).ok())) {
            let user = get("description").and_then(|d| d.as_str().map(str::to_string)).unwrap_or_default();
            let description = settings::card_description(&user, &card);
            if let Some(d) = description {
                agent.description = d.clone().into();
                set(&mut out, "description", Json::String(d), "rewritten at registration from the agent card (registerRemoteAgent)");
            }
        }
    } else if let Some(o) = settings.overrides(&agent.name) {
        if let Some(mc) = o.get("modelConfig").filter(|v| settings::truthy(v)) {
            let merged = settings::merge_model_config(&get("modelConfig").unwrap_or(Json::Null), mc);
            set(&mut out, "modelConfig", merged, "merged with settings agents.overrides");
        }
        if let Some(rc) = o.get("runConfig").filter(|v| settings::truthy(v)) {
            let mut run = get("runConfig").unwrap_or(Json::Null);
            if let (Json::Object(base), Json::Object(over)) = (&mut run, rc) {
                base.extend(over.clone());
            }
            set(&mut out, "runConfig", run, "merged with settings agents.overrides");
        }
        // The merged definition has no `mcpServers` getter: only the override's.
        let servers = match o.get("mcpServers").filter(|v| settings::truthy(v)) {
            Some(Json::Object(over)) => {
                let mut m = get("mcpServers").and_then(|v| v.as_object().cloned()).unwrap_or_default();
                m.extend(over.clone());
                Json::Object(m)
            }
            _ => Json::Null,
        };
        set(&mut out, "mcpServers", servers, "settings agents.overrides replace the definition's mcpServers");
    }
    agent.fields = out.into();
}

/// By name, the winner first (built-ins before files), then the others in
/// registration order.
fn order(mut agents: Vec<Agent>, sequence: &std::collections::HashMap<String, usize>) -> Vec<Agent> {
    let key = |a: &Agent| {
        let seq = if a.source.is_compiled_in() { 0 } else { sequence.get(&a.source.key()).map_or(usize::MAX, |s| s + 1) };
        (a.status != Status::Wins, seq)
    };
    agents.sort_by(|a, b| a.name.cmp(&b.name).then(key(a).cmp(&key(b))));
    agents
}
