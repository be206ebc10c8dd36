//! OpenAI Codex agent roles (@openai/codex 0.171.0, the native `codex-cli 0.171.0`).
//!
//! Mirrors the crate `codex_agent_roles` of that release: `load_agent_roles` (config
//! layers lowest first: the user's `$CODEX_HOME`, then each trusted `.codex/` from
//! the repository root down to the working folder), `read_declared_role` and
//! `agent_role_config_from_toml` (`[agents.NAME]` tables), `discover_agent_roles_in_dir`
//! and `collect_agent_role_files` (`agents/**/*.toml`), `parse_agent_role_file_contents`
//! (strict role files) and `merge_missing_role_fields` (description, config_file and
//! nickname_candidates filled from the layers below). TOML is read with the `toml`
//! crate at Codex's own version (0.9.11). Built-in roles (`default`, `explorer`,
//! `worker`) are names only.

mod build;
mod layers;
mod merge;
mod nested;
pub(crate) mod role;
pub(crate) mod skill_file;
pub(crate) mod skill_meta;
mod skill_rules;
mod skill_walk;
mod skills;
mod toml_read;

use super::precedence::{self, Candidate, Ladder, Tier};
use super::{Framework, LoadContext};
use crate::model::{Agent, EcosystemReport, Place, Scope, Source, Status};

pub struct Codex;

pub(crate) const ID: &str = "codex";

/// The roles compiled into Codex 0.171.0.
const BUILTINS: [&str; 3] = ["default", "explorer", "worker"];

impl Framework for Codex {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".codex"), E::home(".codex")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Codex"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::npm("Codex", "0.171.0", &["@openai/codex"]).brew(&["codex"]).commands(&["codex"]))
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let layers = layers::layers(cx, cx.roots.trusted);
        report.places = places(cx);
        let tables = match merge::read_configs(cx, &layers) {
            Ok(tables) => tables,
            Err(fatal) => {
                // Codex refuses to start: no role at all.
                report.diagnostics.push(fatal);
                return report;
            }
        };
        let m = merge::merge(cx, &layers, tables);
        for file in &m.reached {
            let scope = cx.roots.locate(file, None).0;
            let base = if scope == Scope::Project { &cx.roots.project } else { &cx.roots.home };
            report.places.push(Place::reached(scope, base, file.clone(), crate::model::Reach::FILE, "a role file a table's config_file names"));
        }
        let mut candidates = build::candidates(cx, &layers, &m, Status::Wins);
        report.diagnostics.extend(build::spawn_failures(&m));
        report.diagnostics.extend(m.diagnostics.iter().cloned());
        for d in &m.dropped {
            report.diagnostics.push(d.diagnostic.clone());
        }
        let tier_of = |layer: usize| layers.len() - 1 - layer;
        let builtin_tier = layers.len();
        for name in BUILTINS {
            let rule = "built into Codex 0.171.0 (its name only: agentry does not copy built-in roles)".to_string();
            let agent = Agent::new(ID, name.to_string(), Source::builtin(name), Status::Wins, rule);
            candidates.push(Candidate { tier: builtin_tier, agent });
        }
        let mut tiers: Vec<Tier> = layers.iter().rev().map(|l| Tier::first(l.label.clone())).collect();
        tiers.push(Tier::first("the roles built into Codex"));
        let ranked_input: Vec<Candidate> =
            candidates.into_iter().map(|c| Candidate { tier: if c.tier == builtin_tier { c.tier } else { tier_of(c.tier) }, agent: c.agent }).collect();
        let mut agents = precedence::rank(&Ladder::new(tiers), ranked_input);
        build::explain_fills(&mut agents);
        agents.extend(build::dropped_agents(&m));
        if !cx.roots.trusted {
            agents.extend(held(cx));
        }
        sort_as_reported(&mut agents, &layers::layers(cx, true));
        let skills = skills::load(cx, user_config(cx).as_ref());
        agents.extend(skills.skills);
        report.places.extend(skills.places);
        report.diagnostics.extend(skills.diagnostics);
        report.diagnostics = dedupe(report.diagnostics);
        report.agents = agents;
        report
    }
}

/// Every layer Codex reads, trusted or not (the project's are held in an untrusted
/// project), each as its `config.toml` and its `agents/` folder; then each `.codex`
/// on the walk that is no folder (yet), which would be a layer once made.
fn places(cx: &LoadContext) -> Vec<Place> {
    let held = !cx.roots.trusted;
    let layers = layers::layers(cx, true);
    let project = crate::model::normalize(&cx.roots.project);
    let absent: Vec<Place> = cx
        .roots
        .walk_up()
        .into_iter()
        .rev()
        .map(|d| d.join(".codex"))
        .filter(|dir| !layers.iter().any(|l| l.dir == *dir))
        .map(|dir| {
            let label = format!("the project layer ({}), once a folder", crate::model::relative_to(&dir, &project));
            let config = crate::model::Reach::top(&["config.toml"]);
            Place::agents(usize::MAX, Scope::Project, &cx.roots.project, dir, config, label)
        })
        .collect();
    layers
        .into_iter()
        .chain(absent)
        .flat_map(|l| {
            let project = l.scope == Scope::Project;
            let l = l.held(held && project);
            [layers::agents_place(&l), l]
        })
        .collect()
}

/// The user layer's `config.toml` as a table (it read without error: Codex would not
/// have started otherwise).
fn user_config(cx: &LoadContext) -> Option<toml_codex::Table> {
    let path = cx.roots.home.join(".codex/config.toml");
    let bytes = cx.files.read(&path, crate::discover::Hold::Kept).ok()?;
    toml_read::parse(&bytes).ok().map(|d| d.table)
}

/// Under `--untrusted` Codex skips every project layer without a word: the project
/// definitions that would load if the project were trusted are `HELD`.
fn held(cx: &LoadContext) -> Vec<Agent> {
    let layers = layers::layers(cx, true);
    let Ok(tables) = merge::read_configs(cx, &layers) else { return Vec::new() };
    let m = merge::merge(cx, &layers, tables);
    build::candidates(cx, &layers, &m, Status::Held)
        .into_iter()
        .filter(|c| layers[c.tier].scope == Scope::Project)
        .map(|c| c.agent)
        .collect()
}

/// The report's order: by name, the active one, then held, then shadowed from the
/// highest layer down (built-ins last), then what did not load.
fn sort_as_reported(agents: &mut [Agent], layers: &[Place]) {
    let rank = |a: &Agent| -> usize {
        if a.source.is_compiled_in() {
            return usize::MAX;
        }
        // Deeper `.codex` folders have longer paths: closest layer first.
        layers.iter().rposition(|l| a.source.path.starts_with(&l.dir)).map_or(0, |i| layers.len() - i)
    };
    let status = |a: &Agent| match a.status {
        Status::Wins => 0,
        Status::Held => 1,
        Status::Shadowed | Status::Equivalent => 2,
        _ => 3,
    };
    agents.sort_by(|a, b| {
        (a.name.as_str(), status(a), rank(a), a.source.key()).cmp(&(b.name.as_str(), status(b), rank(b), b.source.key()))
    });
}

/// One diagnostic per (file, kind, definition): Codex loads its config twice and
/// a file claimed by a failing table is read again on its own.
fn dedupe(diagnostics: Vec<crate::model::Diagnostic>) -> Vec<crate::model::Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    diagnostics
        .into_iter()
        .filter(|d| {
            let message = if d.source.is_some() { String::new() } else { d.message.clone() };
            seen.insert((d.kind.as_str(), d.source.clone(), d.path.clone(), message))
        })
        .collect()
}
