//! GitHub Copilot CLI custom agents (npm `@github/copilot` 1.0.102; its loader is
//! native code, so every rule here was observed by running that release, see
//! `shared/oracle/copilot`).
//!
//! Folder trees in precedence order: `~/.copilot/agents`, then `.github/agents` in
//! the working folder and each parent up to the repository root, then
//! `.claude/agents` in the same folders. Each tree is walked recursively
//! ([`walk`]); an agent's ID is its relative path (`team/lint.agent.md` →
//! `team--lint`), and inside one tree the first path in byte order claims the ID
//! before it is parsed, so a broken claimant leaves the tree without that agent.
//! Across trees the first tree with a loaded agent wins the ID. The model reaches
//! agents by their `name` through the `task` tool, which finds a built-in first.
//! Front matter: [`frontmatter`] (serde_yaml, as the CLI); keys: [`schema`];
//! tools a sub-agent gets: [`tools`].
//!
//! Skills (`SKILL.md` folders and `.claude/commands` files) rank on their own
//! ladder, where the project beats the user: [`skills`].

mod definition;
mod frontmatter;
mod notes;
mod schema;
pub(crate) mod skill_file;
pub(crate) mod skill_listing;
mod skill_walk;
mod skills;
mod tools;
mod walk;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::precedence::{rank, Candidate, Ladder, Tier};
use super::{Framework, LoadContext};
use crate::model::{relative_to, Agent, DiagKind, Diagnostic, EcosystemReport, Place, Reach, Roots, Scope, Source, Status};
use definition::{loaded_agent, parse_file, Outcome};
#[doc(hidden)]
pub use definition::read_bytes;

/// The front-matter keys Copilot CLI reads; any other key loads with a warning
/// (`unknown field ignored: KEY`) and is ignored.
pub use schema::KNOWN as KNOWN_KEYS;

pub struct Copilot;

const ID: &str = "copilot";

/// The agents compiled into CLI 1.0.102: the names its `task` tool accepts
/// offline (names only; the CLI looks a name up among them first).
pub const BUILTINS: [&str; 7] = ["explore", "task", "general-purpose", "rubber-duck", "code-review", "research", "security-review"];

/// The trees in precedence order (tiers from 1: the built-ins rank first), each
/// walked at any depth for `.md` names; `copilot_home` is `$COPILOT_HOME` where the
/// user's environment sets it (default `~/.copilot`).
fn trees(roots: &Roots, copilot_home: Option<&Path>) -> Vec<Place> {
    let md = Reach::tree(&[".md"]).walking(walk::WALKING);
    let (user, label) = match copilot_home {
        Some(dir) => (dir.join("agents"), "user $COPILOT_HOME/agents".to_string()),
        None => (roots.home.join(".copilot/agents"), "user ~/.copilot/agents".to_string()),
    };
    let mut out = vec![Place::agents(1, Scope::User, &roots.home, user, md, label)];
    let up = roots.walk_up();
    for sub in [".github/agents", ".claude/agents"] {
        for (i, dir) in up.iter().enumerate() {
            let rel = relative_to(dir, &roots.project);
            let at = if rel == "." { sub.to_string() } else { format!("{rel}/{sub}") };
            let whose = if i == 0 { "the working folder's" } else { "a parent of the working folder" };
            let tier = out.len() + 1;
            out.push(Place::agents(tier, Scope::Project, &roots.project, dir.join(sub), md, format!("project {at} ({whose})")));
        }
    }
    out
}

/// Every `.md` file of one tree that the CLI lists, in byte order of its relative
/// path, with the ID it claims.
struct Listed {
    tier: usize,
    id: String,
    found: walk::Found,
    source: Source,
}

impl Framework for Copilot {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".github/agents"), E::project(".github/skills"), E::project(".github/copilot-instructions.md"), E::home(".copilot")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "GitHub Copilot CLI"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::npm("GitHub Copilot CLI", "1.0.102", &["@github/copilot"]).brew(&["copilot-cli"]).commands(&["copilot"]))
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        // `$COPILOT_HOME` moves the user's folder; the resolution report is made
        // without it, as the oracle runs the CLI.
        let copilot_home = match (&cx.render, cx.env.get("COPILOT_HOME")) {
            (super::RenderMode::Live { .. }, Some(dir)) if !dir.is_empty() => Some(crate::model::normalize(Path::new(dir))),
            _ => None,
        };
        let mut trees = trees(cx.roots, copilot_home.as_deref());
        crate::model::numbered(&mut trees, "searched");
        let mut ladder_tiers = vec![Tier::first("the built-in agents (the `task` tool finds a built-in name first)")];
        ladder_tiers.extend(trees.iter().map(|t| Tier::first(t.label.clone())));
        let ladder = Ladder::new(ladder_tiers);

        let mut unloaded: Vec<Agent> = Vec::new();
        let mut listed: Vec<Listed> = Vec::new();
        for (i, tree) in trees.iter().enumerate() {
            let walked = walk::walk(cx, tree);
            notes::note_walk_problems(&mut report, tree, &walked);
            let mut first_path: BTreeMap<&Path, String> = BTreeMap::new();
            let mut files: Vec<Listed> = Vec::new();
            for found in &walked.files {
                let source = Source::new(tree.scope, &tree.base, found.path.clone());
                let key = source.key();
                let why = if found.hidden {
                    Some("name or folder starts with '.'; the tool does not list it".to_string())
                } else if found.real.is_none() {
                    Some(if found.link {
                        "symlink that resolves to no file; ignored without a message".to_string()
                    } else {
                        "not a regular file; ignored without a message".to_string()
                    })
                } else {
                    None
                };
                if let Some(why) = why {
                    report.diagnostics.push(Diagnostic::skipped(ID, &*source.path, why.clone()).failing(key));
                    let name = walk::agent_id(&found.rel);
                    unloaded.push(Agent::new(ID, name, source, Status::Skipped, format!("skipped: {why}")));
                    continue;
                }
                let real = found.real.as_deref().unwrap_or(&found.path);
                if let Some(kept) = first_path.get(real) {
                    let why = format!(
                        "same file as {kept} in this folder tree: the tool keeps the path it lists first (listing order{})",
                        if cx.roots.listing == crate::model::ListingOrder::Name { ", pinned to sorted order" } else { ", which the tool does not document" }
                    );
                    report.diagnostics.push(Diagnostic::skipped(ID, &*source.path, why.clone()).failing(key));
                    unloaded.push(Agent::new(ID, walk::agent_id(&found.rel), source, Status::Skipped, format!("skipped: {why}")));
                    continue;
                }
                first_path.insert(real, key);
                files.push(Listed { tier: i + 1, id: walk::agent_id(&found.rel), found: found.clone(), source });
            }
            files.sort_by(|a, b| a.found.rel.as_bytes().cmp(b.found.rel.as_bytes()));
            listed.extend(files);
        }

        // Claims: inside a tree the first path of an ID (byte order) claims it.
        let mut claimant: BTreeMap<(usize, &str), usize> = BTreeMap::new();
        for (n, l) in listed.iter().enumerate() {
            claimant.entry((l.tier, l.id.as_str())).or_insert(n);
        }
        let outcomes: Vec<Arc<Outcome>> = {
            use rayon::prelude::*;
            listed.par_iter().map(|l| parse_file(cx, &l.found.path, &l.id)).collect()
        };

        let mut candidates: Vec<Candidate> = BUILTINS
            .iter()
            .map(|b| Candidate {
                tier: 0,
                agent: Agent::new(ID, b.to_string(), Source::builtin(b), Status::Wins, String::new()),
            })
            .collect();
        // Files that never get parsed because another path of their tree claimed
        // the ID: (their entry, the claimant's index).
        let mut unclaimed: Vec<(Agent, usize, usize)> = Vec::new();
        for (n, l) in listed.iter().enumerate() {
            let claim = claimant[&(l.tier, l.id.as_str())];
            let key = l.source.key();
            if claim != n {
                let winner = &listed[claim];
                let twin = l.found.rel.strip_suffix(".md").is_some_and(|s| !l.found.rel.ends_with(".agent.md") && winner.found.rel == format!("{s}.agent.md"));
                if !twin {
                    let msg = format!("agent ID \"{}\" conflicts with \"{}\"; chosen file: \"{}\"", l.id, winner.source.key(), winner.source.key());
                    report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Validation, &*l.source.path, msg));
                }
                let agent = match &*outcomes[n] {
                    Ok(loaded) => loaded_agent(&l.id, l.source.clone(), loaded),
                    Err(f) => {
                        let mut a = Agent::new(ID, l.id.clone(), l.source.clone(), Status::Shadowed, String::new());
                        a.rule = format!("alone it fails: {}", f.message);
                        a
                    }
                };
                unclaimed.push((agent, n, claim));
                continue;
            }
            match &*outcomes[n] {
                Err(f) => {
                    report.diagnostics.push(Diagnostic::error(ID, f.kind, &*l.source.path, f.message.clone()).at(f.line, f.col).failing(key));
                    let rule = "failed to load: this tree gives no agent for the ID (a later path of the same ID here is never read); other trees still may".to_string();
                    unloaded.push(Agent::new(ID, l.id.clone(), l.source.clone(), Status::Invalid, rule));
                }
                Ok(loaded) => {
                    notes::note_loaded(&mut report, &l.source, loaded);
                    if let Some(msg) = schema::unknown_warning(&loaded.def.unknown) {
                        let line = loaded.def.unknown.first().map(|k| k.line);
                        report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Validation, &*l.source.path, msg).at(line, None));
                    }
                    candidates.push(Candidate { tier: l.tier, agent: loaded_agent(&l.id, l.source.clone(), loaded) });
                }
            }
        }

        let ranked = rank(&ladder, candidates);
        let mut by_id: BTreeMap<String, Vec<Agent>> = BTreeMap::new();
        for a in ranked {
            by_id.entry(a.name.clone()).or_default().push(a);
        }
        unclaimed.sort_by(|a, b| (listed[a.1].tier, listed[a.1].found.rel.as_bytes()).cmp(&(listed[b.1].tier, listed[b.1].found.rel.as_bytes())));
        for (mut agent, _, claim) in unclaimed {
            let winner = &listed[claim];
            let group = by_id.entry(agent.name.clone()).or_default();
            let top = group.iter().find(|a| a.status == Status::Wins).map(|a| a.source.key());
            let failed = agent.fields.is_empty();
            let mut rule = format!(
                "shadowed: never parsed: {} claims ID `{}` first in {} (paths are taken in byte order; the first claims the ID before it is parsed)",
                winner.source.rel,
                agent.name,
                trees[winner.tier - 1].label
            );
            if top.is_none() {
                rule.push_str("; that file fails to load, so this tree gives no agent for the ID");
            }
            if failed {
                rule.push_str(&format!("; {}", agent.rule));
            }
            agent.status = Status::Shadowed;
            agent.shadowed_by = Some(top.unwrap_or_else(|| winner.source.key()));
            agent.rule = rule;
            group.push(agent);
        }
        for group in by_id.values_mut() {
            let never_parsed = group.iter().filter(|a| a.rule.starts_with("shadowed: never parsed")).count();
            if let Some(w) = group.iter_mut().find(|a| a.status == Status::Wins && never_parsed > 0) {
                if let Some(rest) = w.rule.strip_prefix("the only definition of") {
                    w.rule = format!("the only definition that loads of{rest}");
                }
                w.rule.push_str(&format!(" ({never_parsed} more path(s) of this ID never parsed: another path of their tree claimed it first)"));
            }
        }
        let tiers: BTreeMap<String, usize> = listed.iter().map(|l| (l.source.key(), l.tier)).collect();
        for group in by_id.values_mut() {
            order_group(group, &tiers);
        }
        notes::note_reachability(&mut report, &mut by_id, &tiers);
        let mut agents: Vec<Agent> = by_id.into_values().flatten().collect();
        unloaded.sort_by(|a, b| a.name.cmp(&b.name));
        agents.extend(unloaded);
        report.agents = agents;
        report.places = trees;
        skills::load(cx, &mut report, copilot_home.as_deref());
        skills::link_agents(&mut report);
        report
    }
}

/// One ID's entries in the report's order: the built-in of that name, the file
/// that won the ID, the other files that load from the highest tree down (by
/// path inside a tree, claimed or not), then those that fail alone.
fn order_group(group: &mut [Agent], tiers: &BTreeMap<String, usize>) {
    // rank() put the built-in first, then the trees' claimants from the highest.
    let file_winner = group.iter().find(|a| !a.source.is_compiled_in()).map(|a| a.source.key());
    let key = |a: &Agent| {
        let k = a.source.key();
        let tier = tiers.get(&k).copied().unwrap_or(usize::MAX);
        (!a.source.is_compiled_in(), a.fields.is_empty(), Some(&k) != file_winner.as_ref(), tier, a.source.rel.clone())
    };
    group.sort_by_cached_key(key);
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    /// The trees in precedence order from a nested working folder: the user's,
    /// every `.github/agents` from the working folder up, then every
    /// `.claude/agents`; all of any depth, `.md` names only.
    #[test]
    fn places_follow_the_precedence_order() {
        let mut roots = Roots::new(PathBuf::from("/p"), PathBuf::from("/h"), PathBuf::from("/h/.config"), None);
        roots.cwd = PathBuf::from("/p/packages/api");
        let got: Vec<(Scope, String)> =
            trees(&roots, None).into_iter().map(|l| (l.scope, l.dir.display().to_string())).collect();
        let want = [
            (Scope::User, "/h/.copilot/agents"),
            (Scope::Project, "/p/packages/api/.github/agents"),
            (Scope::Project, "/p/packages/.github/agents"),
            (Scope::Project, "/p/.github/agents"),
            (Scope::Project, "/p/packages/api/.claude/agents"),
            (Scope::Project, "/p/packages/.claude/agents"),
            (Scope::Project, "/p/.claude/agents"),
        ];
        assert_eq!(got, want.map(|(s, d)| (s, d.to_string())));
        assert!(trees(&roots, None).iter().all(|l| l.reach.depth.is_none() && l.reach.suffixes == [".md"]));
        assert!(trees(&roots, None)[1].label.contains("working folder"));
        assert!(trees(&roots, None).iter().enumerate().all(|(i, l)| l.tier == i + 1));
    }
}
