use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use super::{Agent, Diagnostic, Kind, Place, Roots, Scope};

/// Everything one framework decided about one workspace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EcosystemReport {
    /// The tool (reader id); `tool` in agentry's JSON (the resolution report keeps
    /// its own `ecosystem`, [`crate::export`]).
    #[serde(rename = "tool")]
    pub ecosystem: &'static str,
    /// Every definition found, in precedence order (for each name the winner first).
    pub agents: Vec<Agent>,
    pub diagnostics: Vec<Diagnostic>,
    /// Every place the framework reads definitions from, in its precedence order
    /// (and the folders of files reached from them): the watcher watches these.
    pub places: Vec<Place>,
    /// The built-in agents folder used, if any.
    pub builtins: Option<PathBuf>,
    /// The text that enumerates agents in what the tool sends its model, where the
    /// reader knows it (FORMAT.md "Agent listing").
    pub agent_listing: Option<String>,
    /// The same for skills: the tool's listing of skills as its model receives it.
    pub skill_listing: Option<String>,
}

impl EcosystemReport {
    pub fn new(ecosystem: &'static str) -> Self {
        EcosystemReport { ecosystem, agents: Vec::new(), diagnostics: Vec::new(), places: Vec::new(), builtins: None, agent_listing: None, skill_listing: None }
    }

    /// The problem that stops the tool from starting, if one does (the first
    /// diagnostic marked [`Diagnostic::fatal`]): the tool then shows no agent at all.
    /// The agents keep the status they would have, so the views can say what loads
    /// once the file is fixed; the resolution report shows none ([`crate::export`]).
    pub fn refusal(&self) -> Option<&Diagnostic> {
        self.diagnostics.iter().find(|d| d.fatal)
    }
}

/// One immutable snapshot of a workspace, across every framework.
#[derive(Clone, Debug, Serialize)]
pub struct Catalog {
    pub generation: u64,
    pub roots: Roots,
    /// Shared: a refresh that leaves a framework's report as it was reuses it.
    pub reports: Vec<std::sync::Arc<EcosystemReport>>,
}

impl Catalog {
    pub fn agents(&self) -> impl Iterator<Item = &Agent> {
        self.reports.iter().flat_map(|r| r.agents.iter())
    }

    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.reports.iter().flat_map(|r| r.diagnostics.iter())
    }

    /// What the views show of this catalog: the reports of the tools in the tool set
    /// (`roots.tools`), each with its agents and skills only (built-in skills only
    /// with `--kind skill`): no file a tool reads only when
    /// asked for it by name or passes over with a note (a root `README.md`, a
    /// `CLAUDE.md` in an agents folder), and no built-ins when they are hidden. The
    /// diagnostics stay (`check --notes` lists the notes). A report left whole is
    /// shared, not copied.
    pub fn view(&self) -> Catalog {
        self.view_reusing(&mut Vec::new())
    }

    /// [`Catalog::view`] that takes the filtered copy of a report from `memo` (pairs
    /// of a report and its view, from the last call) when the report is the same:
    /// the explorer's refreshes keep the reports they did not change.
    pub fn view_reusing(&self, memo: &mut Vec<(Arc<EcosystemReport>, Arc<EcosystemReport>)>) -> Catalog {
        let tools = &self.roots.tools;
        let mut next = Vec::new();
        let reports = self
            .reports
            .iter()
            .filter(|r| tools.contains(r.ecosystem))
            .map(|r| {
                if let Some((_, seen)) = memo.iter().find(|(raw, _)| Arc::ptr_eq(raw, r)) {
                    next.push((r.clone(), seen.clone()));
                    return seen.clone();
                }
                let problems = problem_sources(r);
                let row = |a: &Agent| {
                    is_row(a, &problems)
                        && (tools.builtins || a.source.scope != Scope::Builtin)
                        && tools.kind.is_none_or(|k| a.kind == k)
                        // A tool's built-in skills are its slash commands, dozens of them:
                        // rows only when skills are asked for.
                        && !(a.kind == Kind::Skill && a.source.is_compiled_in() && tools.kind != Some(Kind::Skill))
                };
                if r.agents.iter().all(row) {
                    return r.clone();
                }
                let mut kept = EcosystemReport { agents: Vec::new(), ..EcosystemReport::new(r.ecosystem) };
                kept.agents = r.agents.iter().filter(|a| row(a)).cloned().collect();
                kept.diagnostics = r.diagnostics.clone();
                kept.places = r.places.clone();
                kept.builtins = r.builtins.clone();
                kept.agent_listing = r.agent_listing.clone();
                kept.skill_listing = r.skill_listing.clone();
                let kept = Arc::new(kept);
                next.push((r.clone(), kept.clone()));
                kept
            })
            .collect();
        *memo = next;
        Catalog { generation: self.generation, roots: self.roots.clone(), reports }
    }

    /// The folders the shown tools looked in for agent files (not the built-ins'),
    /// first seen first: where an empty workspace was searched.
    pub fn searched(&self) -> Vec<&Place> {
        let mut out: Vec<&Place> = Vec::new();
        let places = self.reports.iter().flat_map(|r| r.places.iter());
        for d in places.filter(|p| p.holds_definitions() && !p.reached) {
            if d.scope != Scope::Builtin && !out.iter().any(|o| o.dir == d.dir) {
                out.push(d);
            }
        }
        out
    }
}

/// The source keys of a report's definitions that failed with more than a note.
fn problem_sources(report: &EcosystemReport) -> std::collections::HashSet<&str> {
    use super::Severity;
    report.diagnostics.iter().filter(|d| d.severity != Severity::Info).filter_map(|d| d.source.as_deref()).collect()
}

/// Whether a definition is an agent of the workspace: one the tool loads, or one it
/// fails to load with a problem worth a warning. A file it reads only when asked for
/// by name, or passes over with only a note, is not.
fn is_row(agent: &Agent, problems: &std::collections::HashSet<&str>) -> bool {
    !agent.status.is_unloaded() || problems.contains(agent.source.key().as_str())
}
