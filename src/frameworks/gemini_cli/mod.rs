//! Gemini CLI subagents (npm `@google/gemini-cli` 0.61.0).
//!
//! Mirrors `AgentRegistry.loadAgents` and `registerAgent` (built-ins, then the
//! project folder `<cwd>/.gemini/agents` when the folder is trusted, each agent only
//! once acknowledged, then `~/.gemini/agents`, then each extension's `agents/`; the
//! first registration of a name wins), `loadAgentsFromDirectory` (regular `*.md`
//! files at the top level, `_` names skipped), `parseAgentMarkdown` and
//! `markdownToAgentDefinition` ([`schema`]), js-yaml 4's `load` ([`crate::jsyaml`]),
//! `applyOverrides` (settings `agents.overrides`) and `registerRemoteAgent`'s
//! description for inline agent cards. Extension agents get the ExtensionManager's
//! `recursivelyHydrateStrings` variables.

mod files;
mod mcp;
mod registry;
pub mod schema;
mod settings;
pub(crate) mod skill_file;
mod skills;
mod tools;

use std::path::{Path, PathBuf};

use super::precedence::{self, Candidate, Ladder, Tier};
use super::{Framework, LoadContext, RenderMode};
use crate::model::{Agent, DiagKind, Diagnostic, EcosystemReport, Place, Reach, Scope, Source, Status};
use registry::Pending;
use settings::Settings;

pub struct GeminiCli;

const ID: &str = "gemini-cli";

/// The agents compiled into the CLI (`loadBuiltInAgents`); `browser_agent` only when
/// settings enable it.
const BUILTINS: [&str; 3] = ["codebase_investigator", "cli_help", "generalist"];

/// Whose folder a place is: the registry words and rules differ by it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    Project,
    User,
    Extension,
}

const TIER_BUILTIN: usize = 0;
const TIER_PROJECT: usize = 1;
const TIER_USER: usize = 2;
const TIER_EXTENSION: usize = 3;

impl Origin {
    fn of(place: &Place) -> Origin {
        match place.tier {
            TIER_PROJECT => Origin::Project,
            TIER_USER => Origin::User,
            _ => Origin::Extension,
        }
    }

    fn tier(self) -> usize {
        match self {
            Origin::Project => TIER_PROJECT,
            Origin::User => TIER_USER,
            Origin::Extension => TIER_EXTENSION,
        }
    }
}

/// The extension's folder of an extension's agents place, for `${extensionPath}`.
fn extension_of(place: &Place) -> Option<&Path> {
    if Origin::of(place) == Origin::Extension { place.dir.parent() } else { None }
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

/// The folders the registry loads, in registration order (top-level `*.md`): the
/// working folder's, the user's, then each enabled extension's; the project's held
/// while folder trust is on and the folder is not trusted.
fn places(cx: &LoadContext, home: &Path, project_read: bool) -> Vec<Place> {
    let r = cx.roots;
    let md = Reach::top(&[".md"]);
    let extensions = settings::extensions(cx, home);
    let mut out = vec![
        Place::agents(TIER_PROJECT, Scope::Project, &r.project, r.cwd.join(".gemini/agents"), md, "project <cwd>/.gemini/agents").held(!project_read),
        Place::agents(TIER_USER, Scope::User, &r.home, home.join(".gemini/agents"), md, "user ~/.gemini/agents"),
    ];
    for ext in &extensions {
        out.push(Place::agents(TIER_EXTENSION, Scope::User, &r.home, ext.dir.join("agents"), md, format!("extension `{}` agents", ext.name)));
    }
    for (i, p) in out.iter_mut().enumerate() {
        p.rank = format!("registered {}", i + 2);
    }
    out.extend(skills::places(cx, home, &extensions, project_read));
    let settings = Reach::top(&["settings.json"]);
    out.push(Place::settings(Scope::User, &r.home, home.join(".gemini"), settings, "user settings ~/.gemini/settings.json"));
    let workspace = Place::settings(Scope::Project, &r.project, r.cwd.join(".gemini"), settings, "workspace settings <cwd>/.gemini/settings.json");
    out.push(workspace.held(!project_read));
    let manifests = Reach::to_depth(1, &["gemini-extension.json", "extension-enablement.json"]);
    out.push(Place::settings(Scope::User, &r.home, home.join(".gemini/extensions"), manifests, "extension manifests ~/.gemini/extensions"));
    out
}

impl Framework for GeminiCli {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".gemini"), E::project("GEMINI.md"), E::home(".gemini")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Gemini CLI"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::npm("Gemini CLI", "0.61.0", &["@google/gemini-cli"]).brew(&["gemini-cli"]).commands(&["gemini"]))
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let home = gemini_home(cx);
        let settings = Settings::read(cx, &home);
        // Folder trust on and the folder not trusted: the CLI never reads the
        // project folder; agentry reads it only to show what is held back.
        let project_read = !settings.folder_trust || cx.roots.trusted;
        report.places = places(cx, &home, project_read);
        agents(cx, &settings, project_read, &mut report);
        skills::load(cx, &settings, &mut report);
        report
    }
}

/// The agents: read, held, registered and ranked as `AgentRegistry.loadAgents` does.
fn agents(cx: &LoadContext, settings: &Settings, project_read: bool, report: &mut EcosystemReport) {
    // The agent folders, in registration order (the settings files come last).
    let folders: Vec<Place> = report.places.iter().filter(|p| p.holds_agents()).cloned().collect();
    let reads = files::scan(cx, &folders, report);
    if !settings.agents_enabled {
        registry::disabled_everything(reads, &folders, project_read, report);
        return;
    }
    // Definitions that take part in registration, in registration order.
    let mut pending: Vec<Pending> = Vec::new();
    for name in BUILTINS.iter().copied().chain(settings.browser_enabled.then_some("browser_agent")) {
        if settings.disabled(name) {
            continue;
        }
        let agent = Agent::new(ID, name.into(), Source::builtin(name), Status::Wins, String::new());
        pending.push(Pending { tier: TIER_BUILTIN, batch: 0, agent, remote: false, place: Origin::Project });
    }
    // The content hash each project name was acknowledged with: acknowledging
    // every announced agent stores one hash per name, the last one's.
    let mut acknowledged: std::collections::HashMap<String, u128> = std::collections::HashMap::new();
    for r in &reads {
        if r.failure.is_none() && Origin::of(&folders[r.folder]) == Origin::Project {
            acknowledged.insert(r.agent.name.clone(), r.digest);
        }
    }
    // Registration order, for listing the definitions that do not win.
    let sequence: std::collections::HashMap<String, usize> = reads.iter().enumerate().map(|(i, r)| (r.agent.source.key(), i)).collect();
    for files::Read { folder, mut agent, digest, remote, failure } in reads {
        let f = &folders[folder];
        if let Some(d) = failure {
            match Origin::of(f) {
                Origin::Project if !project_read => {}
                // The ExtensionManager writes these to the debug log only.
                Origin::Extension => {
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
        if Origin::of(f) == Origin::Project {
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
        pending.push(Pending { tier: Origin::of(f).tier(), batch: folder + 1, agent, remote, place: Origin::of(f) });
    }
    // A registration that fails leaves the name free for the next definition;
    // one that would be a duplicate is never attempted.
    let registration = registry::register(&pending, settings);
    for &(i, ref message) in registration.failed.iter().rev() {
        let mut agent = pending.remove(i).agent;
        let d = Diagnostic::error(ID, DiagKind::Validation, &*agent.source.path, message.clone()).failing(agent.source.key());
        report.diagnostics.push(d);
        agent.status = Status::Invalid;
        agent.rule = "registration failed: Gemini CLI shows the error and leaves the name free".into();
        report.agents.push(agent);
    }
    // Each name's registered definition goes first among its tier's (the engine
    // ranks the first one read there).
    let mut candidates: Vec<Candidate> = Vec::with_capacity(pending.len());
    for p in pending {
        let key = p.agent.source.key();
        let at = registration.winners.contains(&key).then(|| candidates.iter().position(|c| c.tier == p.tier && c.agent.name == p.agent.name)).flatten();
        let candidate = Candidate { tier: p.tier, agent: p.agent };
        match at {
            Some(at) => candidates.insert(at, candidate),
            None => candidates.push(candidate),
        }
    }
    let mut ranked = precedence::rank(&ladder(), candidates);
    for agent in ranked.iter_mut().filter(|a| a.status == Status::Wins && registration.late.contains(&a.source.key())) {
        agent.rule = "active: a remote agent registers once its card has loaded, after its folder's other definitions of this name were checked, so the last one listed replaces them".into();
    }
    for agent in ranked.iter_mut().filter(|a| a.status == Status::Wins) {
        registry::registered(agent, settings);
        if agent.field("agentCardUrl").is_some_and(|u| !u.value.to_json().is_null()) {
            agent.rule.push_str("; its agent card is fetched from the URL at registration, which agentry does not do (a card that fails to load leaves the name to the next definition)");
        }
    }
    // Of two project files of one name, the one acknowledged (the later in the
    // folder's listing) is registered: an order Gemini CLI does not define.
    let held_twins: std::collections::HashSet<String> = report
        .agents
        .iter()
        .filter(|a| a.status == Status::Held && cx.roots.trusted && project_read && a.source.scope == Scope::Project)
        .map(|a| a.name.clone())
        .collect();
    for agent in ranked.iter_mut().filter(|a| a.status == Status::Wins && a.source.scope == Scope::Project && held_twins.contains(&a.name)) {
        agent.undocumented_order = Some("the folder's readdir order (the later file's acknowledgement replaces the earlier's)".into());
    }
    ranked.append(&mut report.agents);
    report.agents = registry::order(ranked, &sequence);
}

