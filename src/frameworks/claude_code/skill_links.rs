//! The skills an agent's `skills:` key names, linked to the skill each loads.

use serde_json::Value as Json;

use super::ID;
use crate::model::{DiagKind, Diagnostic, Edge, EdgeKind, EcosystemReport, Status};

/// The names an agent's `skills:` key gives: a list of strings, or one string of
/// comma-separated names.
fn named_skills(v: &Json) -> Vec<String> {
    match v {
        Json::String(s) => s.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        Json::Array(a) => a.iter().filter_map(Json::as_str).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        _ => Vec::new(),
    }
}

/// Links each agent's `skills:` names to the skill each loads: the active skill of
/// that name (or shown name, or alias; a plugin agent's own plugin first). A name
/// that loads nothing is a warning: Claude Code logs `Skill 'N' specified in
/// frontmatter was not found` and starts the agent without it.
pub fn link(report: &mut EcosystemReport) {
    let skills: Vec<(String, String, Option<String>, Status)> = report
        .agents
        .iter()
        .filter(|a| !a.kind.is_agent() && a.status.is_active() || !a.kind.is_agent() && a.status == Status::Held)
        .map(|a| {
            let alias = a.fields.iter().find(|f| f.key == "listed-as").and_then(|f| f.value.to_json().as_str().map(str::to_string));
            (a.name.clone(), a.source.key(), alias, a.status)
        })
        .collect();
    let mut diags = Vec::new();
    for a in report.agents.iter_mut().filter(|a| a.kind.is_agent() && matches!(a.status, Status::Wins | Status::Held)) {
        let Some(index) = a.attributes.lines().position(|(k, _)| k == "skills") else { continue };
        let Some(attr) = a.attributes.get(index) else { continue };
        let names = named_skills(&attr.value.to_json());
        if names.is_empty() {
            continue;
        }
        let plugin = a.name.rsplit_once(':').map(|(p, _)| p.split(':').next().unwrap_or(p).to_string());
        let mut edges: Vec<Edge> = a.edges.to_vec();
        for name in names {
            let tries: Vec<String> = plugin.iter().map(|p| format!("{p}:{name}")).chain([name.clone()]).collect();
            let hit = tries.iter().find_map(|n| skills.iter().find(|s| s.0 == *n || s.2.as_deref() == Some(n.as_str())));
            let target = match hit {
                Some((_, key, _, Status::Held)) => {
                    let msg = format!("`skills` names `{name}`, whose only definition ({key}) is held until the project is trusted: Claude Code starts the agent without it (`Skill '{name}' specified in frontmatter was not found`)");
                    diags.push(Diagnostic::warning(ID, DiagKind::Missing, &*a.source.path, msg).at(Some(attr.line), None));
                    None
                }
                Some((_, key, _, _)) => Some(key.clone()),
                None => {
                    let msg = format!("`skills` names `{name}`, which is no skill Claude Code loads: it starts the agent without it (`Skill '{name}' specified in frontmatter was not found`)");
                    diags.push(Diagnostic::warning(ID, DiagKind::Missing, &*a.source.path, msg).at(Some(attr.line), None));
                    None
                }
            };
            edges.push(Edge { kind: EdgeKind::Skill, name, target });
        }
        a.edges = edges.into();
    }
    report.diagnostics.extend(diags);
}
