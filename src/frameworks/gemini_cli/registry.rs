//! What `AgentRegistry` does with the loaded definitions besides ranking them:
//! registration failures (`registerAgent`, `registerRemoteAgent`, the 0.61.0
//! `applyOverrides` bug), the winners' registered form (settings overrides, inline
//! card descriptions), `experimental.enableAgents: false`, and the report's order.

use std::collections::{HashMap, HashSet};

use serde_json::Value as Json;

use super::files::Read;
use super::settings::{self, Settings};
use super::{Origin, ID};
use crate::model::Place;
use crate::model::{Agent, Diagnostic, EcosystemReport, Field, Status};

/// Every file ignored: settings `experimental.enableAgents` is false, so the
/// registry loads nothing, built-ins included.
pub(super) fn disabled_everything(reads: Vec<Read>, folders: &[Place], project_read: bool, report: &mut EcosystemReport) {
    let mut seen = std::collections::HashSet::new();
    for Read { folder, mut agent, failure, .. } in reads {
        if failure.is_some() && super::Origin::of(&folders[folder]) == Origin::Project && !project_read {
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
pub(super) fn registration_error(settings: &Settings, agent: &Agent, remote: bool, place: Origin) -> Option<String> {
    let scope = match place {
        Origin::Project => "project",
        Origin::User => "user",
        Origin::Extension => "extension",
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

/// One definition that takes part in registration.
pub(super) struct Pending {
    pub tier: usize,
    /// The `Promise.allSettled` batch it registers in: the built-ins, the project
    /// folder, the user folder, each extension.
    pub batch: usize,
    pub agent: Agent,
    pub remote: bool,
    pub place: Origin,
}

/// What `loadAgents` ends with: the source keys of the registered definitions, the
/// definitions whose registration failed (indices into the pending list, ascending),
/// and the remote agents that won over an earlier-listed definition of their batch.
pub(super) struct Registration {
    pub winners: HashSet<String>,
    pub failed: Vec<(usize, String)>,
    pub late: HashSet<String>,
}

/// Replays `loadAgents`: each batch's `registerAgent` calls start in listing order
/// and check the name synchronously. A local agent registers at once (or fails at
/// once: the `tools` override bug); a remote agent awaits its card first, so every
/// remote agent of a name started before the name was taken registers afterwards,
/// the last one listed last, replacing what the batch registered meanwhile. Batches
/// run one after the other.
pub(super) fn register(pending: &[Pending], settings: &Settings) -> Registration {
    let mut out = Registration { winners: HashSet::new(), failed: Vec::new(), late: HashSet::new() };
    let mut taken: HashSet<&str> = HashSet::new();
    let mut i = 0;
    while i < pending.len() {
        let batch = pending[i].batch;
        let mut started: Vec<usize> = Vec::new();
        let mut registered_now: HashMap<&str, usize> = HashMap::new();
        while i < pending.len() && pending[i].batch == batch {
            let p = &pending[i];
            let name = p.agent.name.as_str();
            if taken.contains(name) || registered_now.contains_key(name) {
                i += 1;
                continue;
            }
            if p.remote {
                started.push(i);
            } else if let Some(message) = registration_error(settings, &p.agent, false, p.place) {
                out.failed.push((i, message));
            } else {
                registered_now.insert(name, i);
            }
            i += 1;
        }
        let mut batch_winners: HashMap<&str, usize> = registered_now;
        for k in started {
            let p = &pending[k];
            if let Some(message) = registration_error(settings, &p.agent, true, p.place) {
                out.failed.push((k, message));
            } else {
                batch_winners.insert(p.agent.name.as_str(), k);
            }
        }
        // A remote winner with a definition of its name listed before it in the batch.
        for &k in batch_winners.values().filter(|&&k| pending[k].remote) {
            let failed = |j: usize| out.failed.iter().any(|f| f.0 == j);
            if (0..k).any(|j| pending[j].batch == batch && pending[j].agent.name == pending[k].agent.name && !failed(j)) {
                out.late.insert(pending[k].agent.source.key());
            }
        }
        for (name, k) in batch_winners {
            taken.insert(name);
            out.winners.insert(pending[k].agent.source.key());
        }
    }
    out.failed.sort_by_key(|f| f.0);
    out
}

/// What the registry keeps for a winner: settings overrides applied to a local agent,
/// an inline card's descriptions folded into a remote agent's.
pub(super) fn registered(agent: &mut Agent, settings: &Settings) {
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
pub(super) fn order(mut agents: Vec<Agent>, sequence: &HashMap<String, usize>) -> Vec<Agent> {
    let key = |a: &Agent| {
        let seq = if a.source.is_compiled_in() { 0 } else { sequence.get(&a.source.key()).map_or(usize::MAX, |s| s + 1) };
        (a.status != Status::Wins, seq)
    };
    agents.sort_by(|a, b| a.name.cmp(&b.name).then(key(a).cmp(&key(b))));
    agents
}
