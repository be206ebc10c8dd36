//! OpenAI Codex agent roles (@openai/codex 0.169.0, the native `codex-cli 0.169.0`).
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
mod toml_read;

use super::precedence::{self, Candidate, Ladder, Tier};
use super::{Framework, LoadContext, Location};
use crate::model::{Agent, EcosystemReport, Roots, Scope, SearchDir, Source, Status};

pub struct Codex;

pub(crate) const ID: &str = "codex";

/// The roles compiled into Codex 0.169.0.
const BUILTINS: [&str; 3] = ["default", "explorer", "worker"];

impl Framework for Codex {
    fn evidence(&self) -> &'static [crate::toolset::Evidence] {
        use crate::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".codex"), E::home(".codex")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Codex"
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let layers = layers::layers(cx, cx.roots.trusted);
        report.searched = searched(&layers);
        let tables = match merge::read_configs(cx, &layers) {
            Ok(tables) => tables,
            Err(fatal) => {
                // Codex refuses to start: no role at all.
                report.diagnostics.push(fatal);
                return report;
            }
        };
        let m = merge::merge(cx, &layers, tables);
        let mut candidates = build::candidates(cx, &layers, &m, Status::Wins);
        report.diagnostics.extend(build::spawn_failures(&m));
        report.diagnostics.extend(m.diagnostics.iter().cloned());
        for d in &m.dropped {
            report.diagnostics.push(d.diagnostic.clone());
        }
        let tier_of = |layer: usize| layers.len() - 1 - layer;
        let builtin_tier = layers.len();
        for name in BUILTINS {
            let rule = "built into Codex 0.169.0 (its name only: agentry does not copy built-in roles)".to_string();
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
        report.diagnostics = dedupe(report.diagnostics);
        report.agents = agents;
        report
    }

    fn locations(&self, roots: &Roots) -> Vec<Location> {
        let mut out = Vec::new();
        let mut dirs = vec![(Scope::User, roots.home.join(".codex"), "user ~/.codex".to_string())];
        for dir in roots.walk_up() {
            let rel = crate::model::relative_to(&dir.join(".codex"), &crate::model::normalize(&roots.project));
            dirs.push((Scope::Project, dir.join(".codex"), format!("project {rel} (read only when the project is trusted)")));
        }
        for (scope, dir, label) in dirs {
            out.push(Location { scope, dir: dir.clone(), depth: Some(0), suffixes: &["config.toml"], label: format!("{label}: [agents.NAME] tables") });
            out.push(Location { scope, dir: dir.join("agents"), depth: None, suffixes: &[".toml"], label: format!("{label}/agents, any depth") });
        }
        out
    }
}

fn searched(layers: &[layers::Layer]) -> Vec<SearchDir> {
    layers
        .iter()
        .enumerate()
        .map(|(i, l)| SearchDir { scope: l.scope, path: l.dir.clone(), role: format!("{} (layer {} of {}, the last one wins)", l.label, i + 1, layers.len()) })
        .collect()
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
fn sort_as_reported(agents: &mut [Agent], layers: &[layers::Layer]) {
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
