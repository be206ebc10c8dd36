//! Agents from Codex's merge: each state a role went through, with every effective
//! field naming the file and line that set it and, for the fields filled from a
//! lower layer, that layer.

use std::sync::Arc;

use crate::model::Place as Layer;
use super::merge::{Def, Merge, State};
use super::ID;
use crate::frameworks::precedence::Candidate;
use crate::frameworks::LoadContext;
use crate::model::{Agent, AgentRecord, DiagKind, Diagnostic, Field, FieldOrigin, Provenance, Site, Status};

/// Every state of every role (the final one and those it replaced), each as an
/// agent of `status` whose tier is its layer's index (lowest first). `HELD` ones
/// carry their rule; the others are ranked afterwards.
pub fn candidates(cx: &LoadContext, layers: &[Layer], m: &Merge, status: Status) -> Vec<Candidate> {
    let mut out = Vec::new();
    for states in m.history.values() {
        for state in states {
            let def = &m.defs[state.winner];
            let mut agent = agent_of(cx, layers, m, state);
            if status == Status::Held {
                agent.status = Status::Held;
                agent.rule = format!(
                    "held: the project is not trusted, and Codex skips every project layer without a word; trusted, {} would read it",
                    layers[def.layer].label
                );
            }
            out.push(Candidate { tier: def.layer, agent });
        }
    }
    out
}

fn agent_of(cx: &LoadContext, layers: &[Layer], m: &Merge, s: &State) -> Agent {
    let w = &m.defs[s.winner];
    let origin = |p: usize, site: &Arc<str>, line: Option<u32>, what: &str| {
        if p == s.winner {
            FieldOrigin::own(site, line, format!("set by {}", layers[w.layer].label))
        } else {
            let from = &m.defs[p];
            FieldOrigin {
                provenance: Provenance::Inherited,
                sites: Box::new([Site::new(site, line)]),
                rule: format!("filled from {} ({}){what}", layers[from.layer].label, from.key).into(),
            }
        }
    };
    let mut fields: Vec<Field> = Vec::new();
    let mut description = String::new();
    if let Some(d) = s.description.and_then(|p| m.defs[p].description.as_ref().map(|d| (p, d))) {
        description = d.1.value.clone();
        fields.push(Field::new("description", d.1.value.clone().into(), origin(d.0, &d.1.site, d.1.line, "")));
    }
    if let Some(n) = s.nickname.and_then(|p| m.defs[p].nickname.as_ref().map(|n| (p, n))) {
        fields.push(Field::new("nickname_candidates", n.1.value.clone().into(), origin(n.0, &n.1.site, n.1.line, "")));
    }
    let mut system_prompt = None;
    if let Some(p) = s.config_file {
        let cf_def = &m.defs[p];
        if let (Some(_), Some(cf)) = (&w.table, &cf_def.config_file) {
            let value = cx.roots.source(&cf.value, None).key();
            fields.push(Field::new("config_file", value.into(), origin(p, &cf.site, cf.line, "")));
        }
        // A role file opened through a symlink is never applied: spawning fails.
        if let Some((role, site, false)) = &cf_def.role {
            let via = if p == s.winner { "" } else { VIA_ROLE_FILE };
            let mut set = |key: &'static str, v: &Option<super::role::Valued<String>>| {
                if let Some(v) = v {
                    fields.push(Field::new(key, v.value.clone().into(), origin(p, site, v.line, via)));
                }
            };
            set("developer_instructions", &role.developer_instructions());
            set("model", &role.model);
            set("model_reasoning_effort", &role.model_reasoning_effort);
            system_prompt = role.prompt.clone();
        }
    }
    fields.sort_by(|a, b| a.key.cmp(&b.key));
    let chain = chain_of(m, s);
    AgentRecord {
        ecosystem: ID,
        kind: crate::model::Kind::Agent,
        name: s.name.clone(),
        source: w.source.clone(),
        status: Status::Wins,
        shadowed_by: None,
        rule: String::new(),
        undocumented_order: None,
        chain: chain.into(),
        description: description.into(),
        fields: fields.into_iter().collect(),
        attributes: w.attributes.clone(),
        system_prompt,
        listed: None,
        messages: Arc::default(),
        edges: Arc::default(),
    }
    .into()
}

/// The winning definition, then the lower definitions that gave it a description,
/// a config_file or nicknames, from the highest layer down.
fn chain_of(m: &Merge, s: &State) -> Vec<String> {
    let mut lower: Vec<&Def> = Vec::new();
    for p in [s.description, s.config_file, s.nickname].into_iter().flatten() {
        if p != s.winner && !lower.iter().any(|d| std::ptr::eq(*d, &m.defs[p])) {
            lower.push(&m.defs[p]);
        }
    }
    lower.sort_by_key(|d| std::cmp::Reverse(d.layer));
    std::iter::once(m.defs[s.winner].key.clone()).chain(lower.into_iter().map(|d| d.key.clone())).collect()
}

/// How a field read from a lower definition's role file says so.
const VIA_ROLE_FILE: &str = " — read from the role file it names";

/// The fields filled from below, added to each ranked definition's rule, one
/// clause per lower definition ("config_file, model filled from the user layer …").
pub fn explain_fills(agents: &mut [Agent]) {
    for agent in agents.iter_mut() {
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for f in agent.fields.iter().filter(|f| f.origin.provenance == Provenance::Inherited) {
            let from = f.origin.rule.split(VIA_ROLE_FILE).next().unwrap_or_default().to_string();
            match groups.iter_mut().find(|(r, _)| *r == from) {
                Some((_, keys)) => keys.push(f.key.to_string()),
                None => groups.push((from, vec![f.key.to_string()])),
            }
        }
        for (from, keys) in groups {
            let note = format!("; {} {from}", keys.join(", "));
            agent.rule.push_str(&note);
        }
    }
}

/// Codex lists a role whose role file it reaches through a symlink, but every spawn
/// of it fails ("agent type is currently not available"; the log says why).
pub fn spawn_failures(m: &Merge) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for s in m.finals.values() {
        let Some(p) = s.config_file else { continue };
        let def = &m.defs[p];
        if let (Some((_, site, true)), Some(cf)) = (&def.role, &def.config_file) {
            let msg = format!("spawning `{}` fails: agent type is currently not available (Symbolic link loop (os error 40))", s.name);
            out.push(Diagnostic::error(ID, DiagKind::Io, &cf.value, msg).failing(site.to_string()));
        }
    }
    out
}

/// The definitions that did not load, as `INVALID` agents with their reason.
pub fn dropped_agents(m: &Merge) -> Vec<Agent> {
    m.dropped
        .iter()
        .map(|d| Agent::new(ID, d.name.clone(), d.source.clone(), Status::Invalid, format!("not loaded: {}", d.diagnostic.message)))
        .collect()
}
