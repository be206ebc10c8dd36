//! Lookups built once per catalog snapshot, so that drawing and every keystroke stay
//! proportional to what is on screen: agents by id, the sources of each name, the
//! diagnostics of each file, the finder's haystacks, and the agent list's rows
//! (flat, filtered, or as a hierarchy tree).

use crate::discover::fast_hash::HashMap;
use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::HashTable;

use super::haystacks::{Chunk, Haystacks};
use crate::model::{Agent, Catalog, Diagnostic, EcosystemReport, EdgeKind, Status};

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
    /// A name heading of the by-name grouping.
    Name { name: String },
    /// A tree edge whose target was not found, or that would close a cycle.
    Unresolved { name: String, depth: u16, via: EdgeKind, cycle: bool },
}

/// Per-snapshot lookups. Agents are numbered in `catalog.agents()` order.
pub struct Index {
    pub catalog: Arc<Catalog>,
    /// (report, position in report) of each agent.
    pub agents: Vec<(usize, usize)>,
    // The lookups hold agent numbers, never copies of their keys and names: on a
    // 100,000-agent workspace three string-keyed maps were 25 MB.
    /// `(ecosystem, source key)` → agent; hashed and compared through the agent.
    by_key: HashTable<u32>,
    /// The agents sharing each agent's name in its framework (its name group), in
    /// precedence order: `same_name[name_groups[g]..name_groups[g + 1]]` for the
    /// agent's group `g = name_group[n]`.
    name_group: Vec<u32>,
    name_groups: Vec<u32>,
    same_name: Vec<usize>,
    /// Diagnostics per agent (matched by its file), counted.
    pub diagnostic_counts: Vec<usize>,
    /// Search text per agent: name, framework, path, description.
    pub haystacks: Haystacks,
    /// Counted once for the status bar.
    pub totals: Totals,
    /// The notes that an installed tool is another release than the one agentry
    /// follows (found by the background load), for the status bar.
    pub releases: Vec<String>,
    /// Each tool that refuses to start, in one line naming the file that stops it.
    pub refusals: Vec<String>,
    /// Winners of each report, for the list's headings (counting them on every
    /// frame reads every agent of the report).
    /// Active agents and active skills per report.
    pub report_winners: Vec<(usize, usize)>,
    /// What was derived from each report alone, for the next snapshot's index.
    parts: Vec<Arc<ReportParts>>,
}

/// What the index derives from one framework's report alone, shared by the indexes
/// of successive snapshots that hold the same report: while the first load runs,
/// each arrival costs its own agents, not the whole catalog's again; a refresh, the
/// reports it changed.
pub struct ReportParts {
    report: Arc<EcosystemReport>,
    /// Each agent's key hash ([`key_hash`]).
    hashes: Vec<u64>,
    /// Each agent's name group, numbered within the report.
    group: Vec<u32>,
    groups: u32,
    haystacks: Arc<Chunk>,
    totals: Totals,
    winners: (usize, usize),
}

impl ReportParts {
    fn of(report: &Arc<EcosystemReport>) -> ReportParts {
        let count = report.agents.len();
        let mut hashes = Vec::with_capacity(count);
        let mut group = Vec::with_capacity(count);
        // An agent and a skill of one name are two names.
        let mut names: HashMap<(crate::model::Kind, &str), u32> = HashMap::default();
        // Sized up front (the text measured first): grown by doubling, it would keep
        // up to half its room unused, and each doubling holds two buffers at once.
        let text_len = report.agents.iter().flat_map(haystack).map(str::len).sum();
        let mut haystacks = Chunk::with_capacity(count, text_len);
        let mut totals = Totals::default();
        let mut skills = 0;
        for agent in &report.agents {
            match agent.status {
                Status::Wins if agent.kind == crate::model::Kind::Skill => {
                    totals.winners += 1;
                    skills += 1;
                }
                Status::Wins => totals.winners += 1,
                Status::Shadowed | Status::Equivalent => totals.shadowed += 1,
                Status::Invalid => totals.invalid += 1,
                Status::Held => totals.held += 1,
                Status::Skipped => totals.skipped += 1,
            }
            hashes.push(key_hash(agent.ecosystem, &[agent.source.scope.as_str(), ":", &agent.source.rel], &agent.source.card));
            let next = names.len() as u32;
            group.push(*names.entry((agent.kind, agent.name.as_str())).or_insert(next));
            haystacks.push_with(|text| haystack(agent).iter().for_each(|piece| text.push_str(piece)));
        }
        let groups = names.len() as u32;
        drop(names);
        let winners = (totals.winners - skills, skills);
        ReportParts { report: report.clone(), hashes, group, groups, haystacks: Arc::new(haystacks), totals, winners }
    }
}

/// Workspace-wide counts for the status bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub winners: usize,
    pub shadowed: usize,
    pub invalid: usize,
    pub held: usize,
    pub skipped: usize,
    pub errors: usize,
}

impl Index {
    pub fn new(catalog: Arc<Catalog>) -> Index {
        Index::reusing(catalog, &[])
    }

    /// [`Index::new`], taking what `previous` (the parts of an earlier index) derived
    /// from the reports this catalog still holds.
    pub fn reusing(catalog: Arc<Catalog>, previous: &[Arc<ReportParts>]) -> Index {
        let parts: Vec<Arc<ReportParts>> = catalog
            .reports
            .iter()
            .map(|report| match previous.iter().find(|p| Arc::ptr_eq(&p.report, report)) {
                Some(p) => p.clone(),
                None => Arc::new(ReportParts::of(report)),
            })
            .collect();
        // Keyed by the path's bytes: `Path`'s own hash walks its components.
        let mut per_path: HashMap<&[u8], usize> = HashMap::default();
        for d in catalog.diagnostics() {
            *per_path.entry(d.path.as_os_str().as_encoded_bytes()).or_default() += 1;
        }
        let count = parts.iter().map(|p| p.hashes.len()).sum();
        let mut agents = Vec::with_capacity(count);
        let mut by_key = HashTable::with_capacity(count);
        let mut name_group = Vec::with_capacity(count);
        let mut diagnostic_counts = Vec::with_capacity(count);
        let mut totals = Totals {
            errors: catalog.diagnostics().filter(|d| d.severity == crate::model::Severity::Error).count(),
            ..Totals::default()
        };
        let mut groups = 0;
        let mut hash_of: Vec<u64> = Vec::with_capacity(count);
        for (r, (report, part)) in catalog.reports.iter().zip(&parts).enumerate() {
            for (i, agent) in report.agents.iter().enumerate() {
                let n = agents.len();
                agents.push((r, i));
                hash_of.push(part.hashes[i]);
                by_key.insert_unique(part.hashes[i], n as u32, |&m: &u32| hash_of[m as usize]);
                name_group.push(groups + part.group[i]);
                diagnostic_counts.push(per_path.get(agent.source.path.as_os_str().as_encoded_bytes()).copied().unwrap_or(0));
            }
            groups += part.groups;
            let t = &part.totals;
            totals.winners += t.winners;
            totals.shadowed += t.shadowed;
            totals.invalid += t.invalid;
            totals.held += t.held;
            totals.skipped += t.skipped;
        }
        drop(hash_of);
        let (name_groups, same_name) = members_by_group(&name_group, groups as usize);
        let haystacks = Haystacks::from_chunks(parts.iter().map(|p| p.haystacks.clone()).collect());
        let report_winners = parts.iter().map(|p| p.winners).collect();
        let releases =
            catalog.diagnostics().filter(|d| d.kind == crate::model::DiagKind::Release).map(|d| d.message.clone()).collect();
        let refusals = crate::views::refusal::Refusal::all(&catalog).iter().map(|r| r.line(&catalog.roots)).collect();
        Index {
            catalog,
            agents,
            by_key,
            name_group,
            name_groups,
            same_name,
            diagnostic_counts,
            haystacks,
            totals,
            releases,
            refusals,
            report_winners,
            parts,
        }
    }

    /// What this index derived from each report, for [`Index::reusing`].
    pub fn parts(&self) -> &[Arc<ReportParts>] {
        &self.parts
    }

    /// The agent whose id (`ecosystem:source key`, as [`AgentRecord::id`](crate::model::AgentRecord::id)) is given.
    pub fn by_id(&self, id: &str) -> Option<usize> {
        // Framework names hold no `:`, so the id's first one ends the ecosystem.
        let (ecosystem, key) = id.split_once(':')?;
        self.lookup(ecosystem, key)
    }

    pub fn agent(&self, n: usize) -> &Agent {
        let (r, i) = self.agents[n];
        &self.catalog.reports[r].agents[i]
    }

    /// Every definition of the agent's name in its framework, precedence order.
    pub fn sources_of(&self, n: usize) -> &[usize] {
        let g = self.name_group[n] as usize;
        &self.same_name[self.name_groups[g] as usize..self.name_groups[g + 1] as usize]
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
        self.lookup(ecosystem, key)
    }

    fn lookup(&self, ecosystem: &str, key: &str) -> Option<usize> {
        let hash = key_hash(ecosystem, &[key], &None);
        let found = self.by_key.find(hash, |&m| {
            let a = self.agent(m as usize);
            a.ecosystem == ecosystem && a.source.key_is(key)
        });
        found.map(|&m| m as usize)
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
            a.ecosystem == d.ecosystem && *a.source.path == *d.path
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

    /// Grouped by name: each name's heading, then its definitions in every
    /// framework (frameworks in the catalog's order, each in its precedence order).
    pub fn name_rows(&self, only: Option<&[usize]>) -> Vec<Row> {
        let mut list: Vec<usize> = match only {
            Some(list) => list.to_vec(),
            None => (0..self.agents.len()).collect(),
        };
        list.sort_by(|&a, &b| self.agent(a).name.cmp(&self.agent(b).name).then(self.agents[a].cmp(&self.agents[b])));
        let mut rows = Vec::with_capacity(list.len() * 2);
        for n in list {
            let name = &self.agent(n).name;
            if !matches!(rows.iter().rev().find(|r| matches!(r, Row::Name { .. })), Some(Row::Name { name: last }) if last == name) {
                rows.push(Row::Name { name: name.clone() });
            }
            rows.push(Row::Agent { agent: n, depth: 0, via: None });
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

/// The hash of `ecosystem` and a source key given in pieces (the key's text is the
/// pieces, then `#card` when there is one): an agent's key hashes from its parts
/// without being built, a looked-up key from its whole text, to the same value.
fn key_hash(ecosystem: &str, pieces: &[&str], card: &Option<String>) -> u64 {
    // Hashed as one byte string, so pieces hash as their concatenation.
    let card_len = card.as_ref().map_or(0, |c| c.len() + 1);
    let mut key = Vec::with_capacity(ecosystem.len() + 1 + pieces.iter().map(|p| p.len()).sum::<usize>() + card_len);
    key.extend_from_slice(ecosystem.as_bytes());
    key.push(0xff);
    pieces.iter().for_each(|p| key.extend_from_slice(p.as_bytes()));
    if let Some(card) = card {
        key.push(b'#');
        key.extend_from_slice(card.as_bytes());
    }
    KEY_STATE.hash_one(&key[..])
}

const KEY_STATE: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0x6b65_7973);

/// Each group's members in agent order, flattened: the group `g` is
/// `members[starts[g]..starts[g + 1]]`.
fn members_by_group(group_of: &[u32], groups: usize) -> (Vec<u32>, Vec<usize>) {
    let mut starts = vec![0u32; groups + 1];
    group_of.iter().for_each(|&g| starts[g as usize + 1] += 1);
    for g in 0..groups {
        starts[g + 1] += starts[g];
    }
    let mut next = starts.clone();
    let mut members = vec![0; group_of.len()];
    for (n, &g) in group_of.iter().enumerate() {
        members[next[g as usize] as usize] = n;
        next[g as usize] += 1;
    }
    (starts, members)
}

/// The agent's search text in pieces: name, framework, path (with its card), and the
/// start of its description.
fn haystack(agent: &Agent) -> [&str; 9] {
    let description = &agent.description;
    let cut = description.char_indices().nth(HAYSTACK_DESCRIPTION).map_or(description.len(), |(at, _)| at);
    let (hash, card) = agent.source.card.as_deref().map_or(("", ""), |card| ("#", card));
    [&agent.name, " ", agent.ecosystem, " ", &agent.source.rel, hash, card, " ", &description[..cut]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{EcosystemReport, Roots, Scope, Source};

    fn agent(ecosystem: &'static str, name: &str, rel: &str, card: Option<&str>, status: Status) -> Agent {
        let source = Source { scope: Scope::Project, path: std::path::Path::new(rel).into(), rel: rel.into(), card: card.map(str::to_string) };
        Agent::new(ecosystem, name.into(), source, status, String::new())
    }

    /// Each haystack is "name framework path[#card] description", the description cut
    /// at its 80th character (not byte), written in place as measured.
    #[test]
    fn haystacks_hold_name_framework_path_and_the_start_of_the_description() {
        let mut long = agent("kimi", "écrit", "a/x.yaml", None, Status::Wins);
        long.description = "é".repeat(100).into();
        let mut carded = agent("fast-agent", "x", "cards.md", Some("c"), Status::Shadowed);
        carded.description = "short".into();
        let mut report = EcosystemReport::new("kimi");
        report.agents = vec![long, carded, agent("kimi", "", "", None, Status::Invalid)];
        let roots = Roots::new("/p".into(), "/h".into(), "/x".into(), None);
        let index = Index::new(Arc::new(Catalog { generation: 1, roots, reports: vec![Arc::new(report)] }));
        let expected = [format!("écrit kimi a/x.yaml {}", "é".repeat(80)), "x fast-agent cards.md#c short".to_string(), " kimi  ".to_string()];
        assert_eq!(index.haystacks.iter().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn ids_keys_and_names_find_their_agents() {
        let mut a = EcosystemReport::new("kimi");
        a.agents = vec![
            agent("kimi", "x", "x.yaml", None, Status::Wins),
            agent("kimi", "y", "y.yaml", None, Status::Wins),
            agent("kimi", "x", "sub/x.yaml", None, Status::Shadowed),
        ];
        let mut b = EcosystemReport::new("fast-agent");
        b.agents = vec![
            agent("fast-agent", "x", "cards.md", Some("x"), Status::Wins),
            agent("fast-agent", "x", "cards.md", Some("x2"), Status::Shadowed),
        ];
        let roots = Roots::new("/p".into(), "/h".into(), "/x".into(), None);
        let catalog = Catalog { generation: 1, roots, reports: vec![Arc::new(a), Arc::new(b)] };
        let index = Index::new(Arc::new(catalog));
        for n in 0..index.agents.len() {
            assert_eq!(index.by_id(&index.agent(n).id()), Some(n));
        }
        assert_eq!(index.by_id("kimi:project:sub/x.yaml"), Some(2));
        assert_eq!(index.by_id("fast-agent:project:cards.md#x2"), Some(4));
        assert_eq!(index.by_id("fast-agent:project:cards.md"), None);
        assert_eq!(index.by_id("kimi:project:cards.md#x"), None);
        assert_eq!(index.by_id("kimi"), None);
        assert_eq!(index.by_source_key("fast-agent", "project:cards.md#x"), Some(3));
        // Names group per framework, in precedence order.
        assert_eq!(index.sources_of(0), &[0, 2]);
        assert_eq!(index.sources_of(2), &[0, 2]);
        assert_eq!(index.sources_of(1), &[1]);
        assert_eq!(index.sources_of(4), &[3, 4]);
        assert_eq!(index.shadows(0), 1);
    }

    #[test]
    fn an_index_reusing_an_earlier_ones_parts_equals_one_built_afresh() {
        let report = |eco: &'static str, names: &[&str]| {
            let mut r = EcosystemReport::new(eco);
            r.agents = names.iter().enumerate().map(|(i, n)| agent(eco, n, &format!("{n}{i}.md"), None, if i % 2 == 0 { Status::Wins } else { Status::Shadowed })).collect();
            Arc::new(r)
        };
        let (a, b, c) = (report("kimi", &["x", "y", "x"]), report("tsugite", &["z", "x", "z", "z"]), report("codex", &["y"]));
        let roots = Roots::new("/p".into(), "/h".into(), "/x".into(), None);
        let catalog = |reports: Vec<Arc<EcosystemReport>>| Arc::new(Catalog { generation: 1, roots: roots.clone(), reports });
        let first = Index::new(catalog(vec![a.clone(), c.clone()]));
        let whole = catalog(vec![b.clone(), a.clone(), c.clone()]);
        let (fresh, reused) = (Index::new(whole.clone()), Index::reusing(whole, first.parts()));
        assert!(Arc::ptr_eq(&reused.parts()[1], &first.parts()[0]), "the parts of a report kept are shared");
        assert_eq!(reused.agents, fresh.agents);
        assert_eq!(reused.totals, fresh.totals);
        assert_eq!(reused.report_winners, fresh.report_winners);
        assert_eq!(reused.diagnostic_counts, fresh.diagnostic_counts);
        assert_eq!(reused.haystacks.iter().collect::<Vec<_>>(), fresh.haystacks.iter().collect::<Vec<_>>());
        for n in 0..fresh.agents.len() {
            assert_eq!(reused.by_id(&reused.agent(n).id()), Some(n));
            assert_eq!(reused.sources_of(n), fresh.sources_of(n));
        }
        assert_eq!(fresh.sources_of(0), &[0, 2, 3]);
    }
}
