//! What agentry says about a load beyond the tool's own messages: names the model
//! cannot reach, tool names that give nothing, processes an agent starts, and what
//! the walk met (listing failures, link loops, near-miss names).

use std::collections::BTreeMap;

use super::definition::Loaded;
use super::{tools, walk, BUILTINS, ID};
use crate::model::Place;
use crate::model::{Agent, DiagKind, Diagnostic, EcosystemReport, Source, Status};
use serde_json::Value as Json;

/// What a loaded file says that the user may not expect: tool names that give the
/// sub-agent nothing, and MCP servers or hooks that start when it runs.
pub fn note_loaded(report: &mut EcosystemReport, source: &Source, loaded: &Loaded) {
    let def = &loaded.def;
    let line = |key: &str| def.line(key);
    let unmatched = tools::unmatched(&def.tools);
    if !unmatched.is_empty() && !def.body_is_empty {
        let d = Diagnostic::info(
            ID,
            DiagKind::Ambiguous,
            &*source.path,
            format!("`tools` names that give the sub-agent no tool (ignored without a message): {}", unmatched.join(", ")),
        );
        report.diagnostics.push(d.at(line("tools"), None));
    }
    if def.starts_processes {
        let d = Diagnostic::info(
            ID,
            DiagKind::Ambiguous,
            &*source.path,
            "declares `mcp-servers` or `hooks`: they start when the agent runs (agentry shows them as written)",
        );
        report.diagnostics.push(d.at(line("mcp-servers").or(line("hooks")), None));
    }
}

/// Listing failures, loops, near-miss names and a cut-off walk, as diagnostics
/// that fail no definition.
pub fn note_walk_problems(report: &mut EcosystemReport, tree: &Place, walked: &walk::Walk) {
    for (dir, e) in &walked.unlisted {
        report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Io, dir, format!("cannot list folder: {e}")));
    }
    for link in &walked.loops {
        report.diagnostics.push(Diagnostic::skipped(ID, link, "folder link back to one of its own ancestors: the tool does not walk it again"));
    }
    for path in &walked.near_misses {
        report.diagnostics.push(Diagnostic::skipped(ID, path, "not read: the tool reads only names ending in lower-case `.md`"));
    }
    if walked.truncated {
        report.diagnostics.push(Diagnostic::warning(
            ID,
            DiagKind::Io,
            &tree.dir,
            format!("more than {} folders in {}: agentry stopped walking it", tree.reach.walk.max_folders, tree.label),
        ));
    }
}

/// Which active agents the model can call by `name`: the `task` tool looks a name
/// up among the built-ins first, then among the custom agents in precedence order
/// (tree by tree, each by path in byte order: observed); `disable-model-invocation`
/// hides an agent. `tiers` gives each file's tree.
pub fn note_reachability(report: &mut EcosystemReport, by_id: &mut BTreeMap<String, Vec<Agent>>, tiers: &BTreeMap<String, usize>) {
    let mut winners: Vec<(usize, String, String)> = Vec::new();
    for (id, group) in by_id.iter() {
        for (i, a) in group.iter().enumerate() {
            if a.status == Status::Wins && !a.source.is_compiled_in() {
                let name = a.field("name").and_then(|f| f.value.to_json().as_str().map(str::to_string)).unwrap_or_default();
                winners.push((i, id.clone(), name));
            }
        }
    }
    // Precedence order of the winners: the tree, then the path.
    let order = |a: &Agent| (tiers.get(&a.source.key()).copied().unwrap_or(usize::MAX), a.source.rel.clone());
    winners.sort_by_key(|(i, id, _)| order(&by_id[id][*i]));
    let mut taken: BTreeMap<String, String> = BUILTINS.iter().map(|b| (b.to_string(), format!("builtin:{b}"))).collect();
    for group in by_id.values_mut() {
        for a in group.iter_mut().filter(|a| a.shadowed_by.as_deref().is_some_and(|k| k.starts_with("builtin:"))) {
            a.rule.push_str(" — the model's `task` call for this name runs the built-in's prompt; `--agent` still selects the file");
        }
    }
    for (i, id, name) in winners {
        let agent = &mut by_id.get_mut(&id).expect("grouped")[i];
        let hidden = agent.field("disableModelInvocation").is_some_and(|f| f.value.to_json() == Json::Bool(true));
        let note = if hidden {
            " — hidden from the model (`disable-model-invocation` or `infer: false`); `--agent` and `/agent` still select it".to_string()
        } else if let Some(first) = taken.get(&name) {
            let msg = format!(
                "the model cannot call this agent: its name `{name}` is already taken by {first} (the `task` tool takes the first agent of a name); `--agent {id}` still selects it"
            );
            report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Ambiguous, &*agent.source.path, msg.clone()));
            format!(" — {msg}")
        } else {
            taken.insert(name.clone(), agent.source.key());
            format!(" — the model calls it by the name `{name}`")
        };
        agent.rule.push_str(&note);
    }
}

