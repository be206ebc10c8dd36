//! Lookups built once per catalog snapshot, so that drawing and every keystroke stay
//! proportional to what is on screen: agents by id, the sources of each name, the
//! diagnostics of each file, the finder's haystacks, and the agent list's rows
//! (flat, filtered, or as a hierarchy tree).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::haystacks::Haystacks;
use crate::model::{Agent, Catalog, Diagnostic, EdgeKind, Status};

/// How much of a description the finder searches (descriptions can be whole files).
const HAYSTACK_DESCRIPTION: usize = 80;
/// Tree depth shown before "…" (cycles are cut earlier, at the first repeat).
const MAX_TREE_DEPTH: usize = 12;

/// One line of the agent list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    /// A framework heading.
    Group { report: usize },
    /// An agent; in tree mode with its depth and the edge that led to it.
    Agent { agent: usize, depth: u16, via: Option<EdgeKind> },
    /// A tree edge whose target was not found, or that would close a cycle.
    Unresolved { name: String, depth: u16, via: EdgeKind, cycle: bool },
}

/// Per-snapshot lookups. Agents are numbered in `catalog.agents()` order.
pub struct Index {
    pub catalog: Arc<Catalog>,
    /// (report, position in report) of each agent.
    pub agents: Vec<(usize, usize)>,
    pub by_id: HashMap<String, usize>,
    /// `(ecosystem, source key)` → agent.
    by_key: HashMap<(&'static str, String), usize>,
    /// `(report, name)` → every definition of that name, in precedence order.
    by_name: HashMap<(usize, String), Vec<usize>>,
    /// Diagnostics per agent (matched by its file), counted.
    pub diagnostic_counts: Vec<usize>,
    /// Search text per agent: name, framework, path, description.
    pub haystacks: Haystacks,
    /// Counted once for the status bar.
    pub totals: Totals,
    /// Winners of each report, for the list's headings (counting them on every
    /// frame reads every agent of the report).
    pub report_winners: Vec<usize>,
}

/// Workspace-wide counts for the status bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub winners: usize,
    pub shadowed: usize,
    pub invalid: usize,
    pub errors: usize,
}

impl Index {
    pub fn new(catalog: Arc<Catalog>) -> Index {
        let mut per_path: HashMap<&Path, usize> = HashMap::new();
        for d in catalog.diagnostics() {
            *per_path.entry(d.path.as_path()).or_default() += 1;
        }
        let mut agents = Vec::new();
        let mut by_id = HashMap::new();
        let mut by_key = HashMap::new();
        let mut by_name: HashMap<(usize, String), Vec<usize>> = HashMap::new();
        let mut diagnostic_counts = Vec::new();
        let mut haystacks = Haystacks::default();
        let mut report_winners = vec![0; catalog.reports.len()];
        let mut totals = Totals {
            errors: catalog.diagnostics().filter(|d| d.severity == crate::model::Severity::Error).count(),
            ..Totals::default()
        };
        for (r, report) in catalog.reports.iter().enumerate() {
            for (i, agent) in report.agents.iter().enumerate() {
                let n = agents.len();
                agents.push((r, i));
                match agent.status {
                    Status::Wins => {
                        totals.winners += 1;
                        report_winners[r] += 1;
                    }
                    Status::Shadowed | Status::Equivalent => totals.shadowed += 1,
                    Status::Invalid => totals.invalid += 1,
                }
                let key = agent.source.key();
                by_id.insert(format!("{}:{key}", agent.ecosystem), n);
                by_key.insert((agent.ecosystem, key), n);
                by_name.entry((r, agent.name.clone())).or_default().push(n);
                diagnostic_counts.push(per_path.get(agent.source.path.as_path()).copied().unwrap_or(0));
                haystacks.push(&haystack(agent));
            }
        }
        Index { catalog, agents, by_id, by_key, by_name, diagnostic_counts, haystacks, totals, report_winners }
    }

    pub fn agent(&self, n: usize) -> &Agent {
        let (r, i) = self.agents[n];
        &self.catalog.reports[r].agents[i]
    }

    pub fn report_of(&self, n: usize) -> usize {
        self.agents[n].0
    }

    /// Every definition of the agent's name in its framework, precedence order.
    pub fn sources_of(&self, n: usize) -> &[usize] {
        let a = self.agent(n);
        self.by_name.get(&(self.report_of(n), a.name.clone())).map(Vec::as_slice).unwrap_or(&[])
    }

    /// How many definitions the agent hides (for a winner), else 0.
    pub fn shadows(&self, n: usize) -> usize {
        if self.agent(n).status.is_active() {
            self.sources_of(n).iter().filter(|&&o| o != n && self.agent(o).status != Status::Invalid).count()
        } else {
            0
        }
    }

    pub fn by_source_key(&self, ecosystem: &'static str, key: &str) -> Option<usize> {
        self.by_key.get(&(ecosystem, key.to_string())).copied()
    }

    /// The agent a diagnostic is about: the definition it failed, else the first
    /// definition from its file.
    pub fn agent_of_diagnostic(&self, d: &Diagnostic) -> Option<usize> {
        if let Some(key) = &d.source {
            if let Some(n) = self.by_source_key(d.ecosystem, key) {
                return Some(n);
            }
        }
        (0..self.agents.len()).find(|&n| {
            let a = self.agent(n);
            a.ecosystem == d.ecosystem && a.source.path == d.path
        })
    }

    /// The flat list: each framework's heading, then its agents (all, or the given
    /// ones in the given order).
    pub fn flat_rows(&self, only: Option<&[usize]>) -> Vec<Row> {
        // Grouped by report, stable: each group keeps the given order.
        let all: Vec<usize>;
        let list = match only {
            Some(list) => list,
            None => {
                all = (0..self.agents.len()).collect();
                &all
            }
        };
        let (grouped, counts) =
            super::finder::counting_sort(list, self.catalog.reports.len(), |n| self.agents[n].0);
        let mut rows = Vec::with_capacity(list.len() + counts.len());
        let mut start = 0;
        for (report, count) in counts.into_iter().enumerate().filter(|&(_, count)| count > 0) {
            rows.push(Row::Group { report });
            rows.extend(grouped[start..start + count].iter().map(|&agent| Row::Agent { agent, depth: 0, via: None }));
            start += count;
        }
        rows
    }

    /// The hierarchy tree: per framework, every winner that no other winner links
    /// to is a root; below each agent, the agents it extends or delegates to.
    pub fn tree_rows(&self, only: Option<&[usize]>) -> Vec<Row> {
        let mut rows = Vec::new();
        let mask: Option<Vec<bool>> = only.map(|list| {
            let mut mask = vec![false; self.agents.len()];
            list.iter().for_each(|&n| mask[n] = true);
            mask
        });
        let keep = |n: usize| mask.as_ref().is_none_or(|m| m[n]);
        for (r, report) in self.catalog.reports.iter().enumerate() {
            let active: Vec<usize> =
                (0..self.agents.len()).filter(|&n| self.agents[n].0 == r && self.agent(n).status.is_active()).collect();
            let mut linked = vec![false; self.agents.len()];
            for &n in &active {
                for edge in self.agent(n).edges.iter() {
                    if let Some(t) = edge.target.as_deref().and_then(|k| self.by_source_key(report.ecosystem, k)) {
                        if t != n {
                            linked[t] = true;
                        }
                    }
                }
            }
            let roots: Vec<usize> = active.iter().copied().filter(|&n| !linked[n] && keep(n)).collect();
            if roots.is_empty() && only.is_some() {
                continue;
            }
            rows.push(Row::Group { report: r });
            for root in roots {
                let mut path = Vec::new();
                self.subtree(root, 0, None, &mut path, &mut rows);
            }
        }
        rows
    }

    fn subtree(&self, n: usize, depth: u16, via: Option<EdgeKind>, path: &mut Vec<usize>, rows: &mut Vec<Row>) {
        rows.push(Row::Agent { agent: n, depth, via });
        if depth as usize >= MAX_TREE_DEPTH {
            return;
        }
        path.push(n);
        let agent = self.agent(n);
        for edge in agent.edges.iter() {
            let target = edge.target.as_deref().and_then(|k| self.by_source_key(agent.ecosystem, k));
            match target {
                Some(t) if !path.contains(&t) => self.subtree(t, depth + 1, Some(edge.kind), path, rows),
                Some(_) => rows.push(Row::Unresolved {
                    name: edge.name.clone(),
                    depth: depth + 1,
                    via: edge.kind,
                    cycle: true,
                }),
                None => rows.push(Row::Unresolved {
                    name: edge.name.clone(),
                    depth: depth + 1,
                    via: edge.kind,
                    cycle: false,
                }),
            }
        }
        path.pop();
    }
}

fn haystack(agent: &Agent) -> String {
    let description: String = agent.description.chars().take(HAYSTACK_DESCRIPTION).collect();
    let mut path = agent.source.rel.clone();
    if let Some(card) = &agent.source.card {
        path.push('#');
        path.push_str(card);
    }
    format!("{} {} {} {}", agent.name, agent.ecosystem, path, description)
}
