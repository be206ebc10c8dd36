//! The one precedence engine every framework ranks its definitions on.
//!
//! A framework describes its ladder — ordered tiers (folders, scopes, layers), and
//! for each tier whether the first or the last definition of a name read there wins —
//! and hands over its definitions in the order it read them. The engine picks each
//! name's winner, marks the rest `SHADOWED` (or `EQUIVALENT` when they resolve to the
//! same thing), writes the rule in words on each, and marks a winner that only the
//! file system's listing order decided. Definitions that did not load (`INVALID`,
//! `SKIPPED`) or are `HELD` take no part and pass through as they are.
//!
//! [`rank_with`] lets a framework pass over a tier's pick across tiers (Kimi Code: a
//! file named like a built-in without `override: true` cannot replace it).
//!
//! Two helpers cover the frameworks that do not pick one file per name:
//! [`merge_fields`] (OpenCode: a name's fields merged across sources, later wins per
//! field) and [`fill_fields`] (Codex: a layer's missing fields filled from the layers
//! below); both keep each field's origin.

use std::collections::HashMap;

use crate::model::{Agent, Field, FieldOrigin, Provenance, Site, Status};

/// Which definition of a name wins inside one tier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Within {
    /// The first one read (OpenHands, Gemini CLI's user folder).
    First,
    /// The last one read replaces the earlier ones (Claude Code: a map keyed by name).
    Last,
}

/// How names are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKey {
    Exact,
    /// Case-insensitive (Qwen Code).
    CaseInsensitive,
}

/// One rung of a ladder: a folder, scope or layer, in precedence order.
#[derive(Clone, Debug)]
pub struct Tier {
    /// How the tier is named in rules ("project .claude/agents").
    pub label: String,
    pub within: Within,
    /// Where the read order inside the tier is the file system's listing order,
    /// which the tool does not document: that order in words. A winner picked from
    /// several definitions of this tier is marked with it.
    pub undocumented: Option<String>,
}

impl Tier {
    pub fn first(label: impl Into<String>) -> Tier {
        Tier { label: label.into(), within: Within::First, undocumented: None }
    }

    pub fn last(label: impl Into<String>) -> Tier {
        Tier { label: label.into(), within: Within::Last, undocumented: None }
    }

    /// The read order inside the tier is `order`, which the tool does not promise.
    pub fn undocumented(mut self, order: impl Into<String>) -> Tier {
        self.undocumented = Some(order.into());
        self
    }
}

/// A framework's ladder: tiers from the highest precedence down.
#[derive(Clone, Debug)]
pub struct Ladder {
    pub tiers: Vec<Tier>,
    pub names: NameKey,
    /// Mark a shadowed definition that resolves exactly as its winner `EQUIVALENT`.
    pub equivalents: bool,
}

impl Ladder {
    pub fn new(tiers: Vec<Tier>) -> Ladder {
        Ladder { tiers, names: NameKey::Exact, equivalents: true }
    }

    fn key(&self, name: &str) -> String {
        match self.names {
            NameKey::Exact => name.to_string(),
            NameKey::CaseInsensitive => name.to_lowercase(),
        }
    }
}

/// One definition as read: the tier it was found in, and the agent it resolved to.
/// Candidates are given in read order.
pub struct Candidate {
    pub tier: usize,
    pub agent: Agent,
}

/// Ranks `candidates` on `ladder`. Returns every definition, grouped by name (names
/// in sorted order), each name's winner first, then the others from the highest
/// precedence down; definitions that take no part follow their name's ranked ones.
pub fn rank(ladder: &Ladder, candidates: Vec<Candidate>) -> Vec<Agent> {
    rank_with(ladder, candidates, &|_| None)
}

/// [`rank`], where a tier's pick may be passed over across tiers: `barred` gives the
/// reason a definition cannot take its name (Kimi Code: a file named like a built-in
/// without `override: true`). Each tier's own pick is made first (the first or last
/// one read there), so a barred pick still hides the others of its tier; the winner
/// is the highest pick not barred.
pub fn rank_with(ladder: &Ladder, candidates: Vec<Candidate>, barred: &dyn Fn(&Agent) -> Option<String>) -> Vec<Agent> {
    // Each name's definitions that take part, in precedence order.
    let mut groups: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    let mut read_order: Vec<(usize, Agent)> = Vec::with_capacity(candidates.len());
    for (i, c) in candidates.into_iter().enumerate() {
        if takes_part(c.agent.status) {
            groups.entry(ladder.key(&c.agent.name)).or_default().push((c.tier, i));
        }
        read_order.push((c.tier, c.agent));
    }
    for members in groups.values_mut() {
        // Tier first; inside a tier, read order, reversed where the last one wins.
        members.sort_by_key(|&(tier, i)| {
            let last = ladder.tiers.get(tier).is_some_and(|t| t.within == Within::Last);
            (tier, if last { usize::MAX - i } else { i })
        });
        // The winner first: the highest tier pick that is not barred.
        let picks = members.iter().enumerate().filter(|&(k, &(t, _))| k == 0 || members[k - 1].0 != t);
        let winner = picks.map(|(k, _)| k).find(|&k| barred(&read_order[members[k].1].1).is_none());
        if let Some(k) = winner.filter(|&k| k > 0) {
            let w = members.remove(k);
            members.insert(0, w);
        }
    }
    let mut ranked: Vec<Option<Agent>> = read_order.iter().map(|(_, a)| Some(a.clone())).collect();
    for members in groups.values() {
        let (wt, w) = members[0];
        let same_tier = members.iter().filter(|&&(t, _)| t == wt).count();
        let winner_key = read_order[w].1.source.key();
        let label = |t: usize| ladder.tiers.get(t).map_or("", |t| t.label.as_str());
        let passed_over = members[1..].iter().filter(|&&(t, _)| t < wt).count();
        {
            let agent = ranked[w].as_mut().expect("ranked once");
            agent.status = Status::Wins;
            agent.shadowed_by = None;
            agent.rule = if passed_over > 0 {
                let below = members.len() - 1 - passed_over;
                let mut rule = format!(
                    "{} takes `{}`: the {passed_over} definition(s) in higher places are passed over",
                    label(wt),
                    agent.name
                );
                if below > 0 {
                    rule.push_str(&format!(" ({below} more in lower places)"));
                }
                rule
            } else {
                winner_rule(ladder, members, &agent.name)
            };
            if same_tier > 1 {
                agent.undocumented_order = ladder.tiers.get(wt).and_then(|t| t.undocumented.as_deref()).map(Into::into);
            }
        }
        for (k, &(lt, l)) in members.iter().enumerate().skip(1) {
            let equivalent = ladder.equivalents && same_resolution(&read_order[l].1, &read_order[w].1);
            let pick = members[..k].iter().all(|&(t, _)| t != lt);
            let reason = barred(&read_order[l].1);
            let agent = ranked[l].as_mut().expect("ranked once");
            agent.status = if equivalent { Status::Equivalent } else { Status::Shadowed };
            agent.shadowed_by = Some(winner_key.clone());
            agent.rule = match (lt < wt, pick, reason) {
                (true, true, Some(reason)) => format!("passed over: {reason}; {} wins", label(wt)),
                (true, _, _) => format!(
                    "shadowed: a definition read before it in {} takes the name there, and {} wins",
                    label(lt),
                    label(wt)
                ),
                _ if lt == wt => {
                    let order = match ladder.tiers.get(wt).map(|t| &t.within) {
                        Some(Within::Last) => "a file read later in the same place replaces it (the last one read wins)",
                        _ => "a file read earlier in the same place wins (the first one read wins)",
                    };
                    format!("shadowed: {order}; {}", label(wt))
                }
                _ => format!("shadowed: {} ranks above {}", label(wt), label(lt)),
            };
            if equivalent {
                agent.rule.push_str(" (it resolves to exactly what the winner does)");
            }
        }
    }
    // Output: by name, the ranked ones in precedence order, then the rest by read order.
    let mut order: Vec<(String, usize, usize)> = Vec::with_capacity(ranked.len());
    for members in groups.values() {
        for (rank, &(_, i)) in members.iter().enumerate() {
            order.push((read_order[i].1.name.clone(), rank, i));
        }
    }
    for (i, (_, agent)) in read_order.iter().enumerate() {
        if !takes_part(agent.status) {
            order.push((agent.name.clone(), usize::MAX, i));
        }
    }
    order.sort();
    order.into_iter().filter_map(|(_, _, i)| ranked[i].take()).collect()
}

fn takes_part(status: Status) -> bool {
    !status.is_unloaded() && status != Status::Held
}

fn winner_rule(ladder: &Ladder, members: &[(usize, usize)], name: &str) -> String {
    let (wt, _) = members[0];
    let label = ladder.tiers.get(wt).map_or("", |t| t.label.as_str());
    let same = members.iter().filter(|&&(t, _)| t == wt).count();
    let others = members.len() - 1;
    if others == 0 {
        return format!("the only definition of `{name}`: {label}");
    }
    let mut rule = if same > 1 {
        let which = match ladder.tiers.get(wt).map(|t| &t.within) {
            Some(Within::Last) => "last",
            _ => "first",
        };
        format!("the {which} of {same} definitions of `{name}` read in {label} wins")
    } else {
        format!("{label} ranks above the other definitions of `{name}`")
    };
    if same < members.len() {
        let below = members.len() - same;
        rule.push_str(&format!(" ({below} more in lower places)"));
    }
    rule
}

/// Whether two definitions resolve to the same thing: fields and prompt.
fn same_resolution(a: &Agent, b: &Agent) -> bool {
    a.system_prompt == b.system_prompt && a.messages == b.messages && a.fields.same(&b.fields)
}

/// One source's contribution to a merged definition: the fields it sets, each with
/// the line it is set on.
pub struct Layer<'a> {
    /// The source key (`project:opencode.json`).
    pub source: &'a str,
    /// How the source is named in rules ("project opencode.json").
    pub label: &'a str,
    pub fields: Vec<(String, serde_json::Value, Option<u32>)>,
}

/// Fields merged across `layers` (given from the lowest precedence up): a later layer
/// wins per field, and each field names the layer that set it; a field set by more
/// than one layer is `merged`.
pub fn merge_fields(layers: &[Layer<'_>]) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for layer in layers {
        let source: std::sync::Arc<str> = layer.source.into();
        for (key, value, line) in &layer.fields {
            let origin = |provenance| FieldOrigin {
                provenance,
                sites: Box::new([Site::new(&source, *line)]),
                rule: format!("merged: later source wins per field; set by {}", layer.label).into(),
            };
            match out.iter_mut().find(|f| f.key == key.as_str()) {
                Some(f) => {
                    f.value = value.clone().into();
                    f.origin = origin(Provenance::Merged);
                }
                None => out.push(Field::new(key.clone(), value.clone(), origin(Provenance::Own))),
            }
        }
    }
    out
}

/// Fields of the top layer (`layers[0]`), each missing one filled from the first
/// layer below that sets it (Codex: a role's fields from the layers below).
pub fn fill_fields(layers: &[Layer<'_>]) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for (depth, layer) in layers.iter().enumerate() {
        let source: std::sync::Arc<str> = layer.source.into();
        for (key, value, line) in &layer.fields {
            if out.iter().any(|f| f.key == key.as_str()) {
                continue;
            }
            let (provenance, rule) = if depth == 0 {
                (Provenance::Own, format!("set by {}", layer.label))
            } else {
                (Provenance::Inherited, format!("filled from {}", layer.label))
            };
            let origin = FieldOrigin { provenance, sites: Box::new([Site::new(&source, *line)]), rule: rule.into() };
            out.push(Field::new(key.clone(), value.clone(), origin));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Scope, Source};
    use std::path::PathBuf;

    fn agent(name: &str, file: &str) -> Agent {
        let source = Source::new(Scope::Project, &PathBuf::from("/p"), PathBuf::from(format!("/p/{file}")));
        Agent::new("toy", name.into(), source, Status::Wins, String::new())
    }

    #[test]
    fn first_tier_wins_and_last_read_wins_inside_a_last_tier() {
        let ladder = Ladder::new(vec![Tier::last("near").undocumented("readdir order"), Tier::first("far")]);
        let cands = vec![
            Candidate { tier: 1, agent: agent("a", "far/a.md") },
            Candidate { tier: 0, agent: agent("a", "near/a1.md") },
            Candidate { tier: 0, agent: agent("a", "near/a2.md") },
            Candidate { tier: 1, agent: agent("b", "far/b.md") },
        ];
        let out = rank(&ladder, cands);
        let got: Vec<(&str, &str, Status)> =
            out.iter().map(|a| (a.name.as_str(), a.source.rel.as_str(), a.status)).collect();
        // Every definition of `a` resolves alike (nothing resolved): the losers are equivalent.
        assert_eq!(
            got,
            vec![
                ("a", "near/a2.md", Status::Wins),
                ("a", "near/a1.md", Status::Equivalent),
                ("a", "far/a.md", Status::Equivalent),
                ("b", "far/b.md", Status::Wins),
            ]
        );
        assert_eq!(out[0].undocumented_order.as_deref(), Some("readdir order"));
        assert_eq!(out[1].shadowed_by.as_deref(), Some("project:near/a2.md"));
        assert!(out[3].undocumented_order.is_none());
    }

    #[test]
    fn a_barred_pick_is_passed_over_but_still_hides_its_tier() {
        let ladder = Ladder::new(vec![Tier::first("project"), Tier::first("user"), Tier::first("built-in")]);
        let builtin = Agent::new("toy", "plan".into(), Source::builtin("plan"), Status::Wins, String::new());
        let cands = vec![
            Candidate { tier: 0, agent: agent("plan", "p/plan.md") },
            Candidate { tier: 1, agent: agent("plan", "u/a/plan.md") },
            Candidate { tier: 1, agent: agent("plan", "u/b/plan.md") },
            Candidate { tier: 2, agent: builtin },
            Candidate { tier: 0, agent: agent("x", "p/x.md") },
        ];
        // Only `u/b/plan.md` may replace the built-in, but `u/a/plan.md` is its tier's pick.
        let barred = |a: &Agent| (a.name == "plan" && !a.source.rel.ends_with("u/b/plan.md") && !a.source.is_compiled_in()).then(|| "no override".to_string());
        let out = rank_with(&ladder, cands, &barred);
        let got: Vec<(&str, Status)> = out.iter().map(|a| (a.source.rel.as_str(), a.status)).collect();
        assert_eq!(got[0], ("plan", Status::Wins));
        assert_eq!(got[1].0, "p/plan.md");
        assert!(out[1].rule.starts_with("passed over: no override"), "{}", out[1].rule);
        assert_eq!(got[2].0, "u/a/plan.md");
        assert_eq!(got[3].0, "u/b/plan.md");
        assert!(out[3].rule.contains("takes the name there"), "{}", out[3].rule);
        assert_eq!(got[4], ("p/x.md", Status::Wins));
    }

    #[test]
    fn merged_fields_name_the_source_that_set_each() {
        let layers = [
            Layer { source: "user:a.json", label: "user", fields: vec![("model".into(), "x".into(), Some(2)), ("steps".into(), 3.into(), Some(3))] },
            Layer { source: "project:b.md", label: "project", fields: vec![("model".into(), "y".into(), Some(1))] },
        ];
        let merged = merge_fields(&layers);
        assert_eq!(merged[0].value, serde_json::Value::from("y").into());
        assert_eq!(&*merged[0].origin.sites[0].source, "project:b.md");
        assert_eq!(&*merged[1].origin.sites[0].source, "user:a.json");
        let filled = fill_fields(&[layers[1].clone_ref(), layers[0].clone_ref()]);
        assert_eq!(filled.len(), 2);
        assert_eq!(filled[1].origin.provenance, Provenance::Inherited);
    }

    impl Layer<'_> {
        fn clone_ref(&self) -> Layer<'_> {
            Layer { source: self.source, label: self.label, fields: self.fields.clone() }
        }
    }
}
