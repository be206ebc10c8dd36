//! Registration's check of an agent's `skills:` (`agent_definition_to_factory`,
//! `subagent/registry.py`): each name is looked up among the skills the working folder
//! loads (`load_available_skills`: project over user, no public skills); one that is
//! not there raises, and `_register_definition` skips the agent. The name stays taken
//! by it among the file agents (they were de-duplicated first), but a built-in agent
//! of the name is registered after them and then takes it.

use std::sync::Arc;

use super::ID;
use crate::model::{Agent, DiagKind, Diagnostic, Edge, EdgeKind, Kind, Scope, Status};

/// The skill names an agent's `skills` field holds.
fn named_skills(agent: &Agent) -> Vec<String> {
    agent
        .fields
        .iter()
        .find(|f| f.key == "skills")
        .and_then(|f| f.value.to_json().as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect()))
        .unwrap_or_default()
}

pub(super) fn resolve_skills(agents: &mut [Agent], skills: &[Agent], diagnostics: &mut Vec<Diagnostic>) {
    let available = super::skills::available(skills);
    let mut skipped_names: Vec<String> = Vec::new();
    for agent in agents.iter_mut().filter(|a| a.kind == Kind::Agent && !a.status.is_unloaded()) {
        let names = named_skills(agent);
        if names.is_empty() {
            continue;
        }
        let edges: Vec<Edge> = names.iter().map(|n| Edge { kind: EdgeKind::Skill, name: n.clone(), target: available.get(n.as_str()).cloned() }).collect();
        let missing = names.iter().find(|n| !available.contains_key(n.as_str())).cloned();
        let mut all_edges = agent.edges.to_vec();
        all_edges.extend(edges);
        agent.edges = Arc::from(all_edges);
        let Some(missing) = missing.filter(|_| agent.status == Status::Wins) else { continue };
        let message = format!("ValueError: Skill '{missing}' not found but was given to agent '{}'. OpenHands skips the agent when it registers it", agent.name);
        diagnostics.push(Diagnostic::error(ID, DiagKind::Missing, &*agent.source.path, message).failing(agent.source.key()));
        agent.status = Status::Skipped;
        agent.rule = format!("skipped at registration: its skill `{missing}` is not loaded from the working folder or the home");
        skipped_names.push(agent.name.clone());
    }
    // A built-in of a skipped agent's name registers after the file agents.
    for name in skipped_names {
        let Some(builtin) = agents.iter_mut().find(|a| a.name == name && a.kind == Kind::Agent && a.source.scope == Scope::Builtin && matches!(a.status, Status::Shadowed | Status::Equivalent)) else { continue };
        let unresolved = named_skills(builtin).iter().any(|n| !available.contains_key(n.as_str()));
        if !unresolved {
            builtin.status = Status::Wins;
            builtin.shadowed_by = None;
            builtin.rule = "the file agent of this name was skipped at registration, so the built-in agent registers".into();
        }
    }
}
