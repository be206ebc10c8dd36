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
//! [`rank_by`] takes a framework's [`Rules`]: a tier's pick passed over across tiers
//! (Kimi Code: a file named like a built-in without `override: true` cannot replace
//! it), what counts as equivalent, and the rules in the framework's own words (the
//! seed readers'). A tier may hold separate entry points that each win (Kimi CLI),
//! and the ladder's [`Order`] says how a name's definitions are listed.
//!
//! [`merge_fields`] covers the frameworks that do not pick one file per name (OpenCode:
//! a name's fields merged across sources, later wins per field, each field's origin
//! kept).

use std::collections::HashMap;

use crate::model::{Agent, Field, FieldOrigin, Place, Provenance, Site, Status};

/// Which definition of a name wins inside one tier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Within {
    /// The first one read (OpenHands, Gemini CLI's user folder).
    First,
    /// The last one read replaces the earlier ones (Claude Code: a map keyed by name).
    Last,
    /// None: each definition is an entry point of its own that wins alone, with the
    /// rule its framework wrote (Kimi CLI loads a file by its path, not by name).
    Separate,
}

/// How names are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKey {
    Exact,
    /// Case-insensitive (Qwen Code).
    CaseInsensitive,
}

/// The order of the ranked definitions: always by name first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The winner, the others from the highest precedence down, then the ones that
    /// take no part, in read order.
    Ranked,
    /// The winner, then every other definition of the name (loaded or not) in read
    /// order (OpenHands, fast-agent).
    WinnerThenRead,
    /// By source: scope, path, card (Kimi CLI).
    Source,
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
    fn new(label: impl Into<String>, within: Within) -> Tier {
        Tier { label: label.into(), within, undocumented: None }
    }

    pub fn first(label: impl Into<String>) -> Tier { Tier::new(label, Within::First) }

    pub fn last(label: impl Into<String>) -> Tier { Tier::new(label, Within::Last) }

    pub fn separate(label: impl Into<String>) -> Tier { Tier::new(label, Within::Separate) }

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
    pub order: Order,
    /// A definition that fails to load still takes its name (Tsugite: the first file
    /// that exists wins, broken or not). It keeps its status (`INVALID`) and is ranked
    /// with the others; otherwise it takes no part.
    pub failures_take_part: bool,
}

impl Ladder {
    pub fn new(tiers: Vec<Tier>) -> Ladder {
        Ladder { tiers, names: NameKey::Exact, equivalents: true, order: Order::Ranked, failures_take_part: false }
    }

    /// One tier per rung of `places` (their `tier`s, from 0 up), named by the first
    /// place of the rung; the same `within` in each.
    pub fn over(places: &[Place], within: Within) -> Ladder {
        let rungs = places.iter().map(|p| p.tier + 1).max().unwrap_or(0);
        let label = |t: usize| places.iter().find(|p| p.tier == t).map_or(String::new(), |p| p.label.clone());
        Ladder::new((0..rungs).map(|t| Tier::new(label(t), within.clone())).collect())
    }

    pub fn ordered(mut self, order: Order) -> Ladder {
        self.order = order;
        self
    }

    fn key(&self, name: &str) -> String {
        match self.names {
            NameKey::Exact => name.to_string(),
            NameKey::CaseInsensitive => name.to_lowercase(),
        }
    }

    fn label(&self, tier: usize) -> &str { self.tiers.get(tier).map_or("", |t| t.label.as_str()) }

    fn within(&self, tier: usize) -> Within { self.tiers.get(tier).map_or(Within::First, |t| t.within.clone()) }
}

/// One definition as read: the tier it was found in, and the agent it resolved to.
/// Candidates are given in read order.
pub struct Candidate {
    pub tier: usize,
    pub agent: Agent,
}

/// One definition taking part in a name's contest.
pub struct Member<'a> {
    pub tier: usize,
    /// Its place in the read order (the candidates as given).
    pub read: usize,
    pub agent: &'a Agent,
}

/// A name's contest: its definitions in precedence order, the winner first.
pub struct Contest<'a> {
    pub ladder: &'a Ladder,
    pub members: Vec<Member<'a>>,
}

impl Contest<'_> {
    pub fn winner(&self) -> &Agent { self.members[0].agent }
}

/// What a framework decides beyond its ladder; every default is the engine's.
pub trait Rules {
    /// Why `agent` cannot take its name though it is its tier's pick (Kimi Code: a
    /// file named like a built-in without `override: true`).
    fn barred(&self, _agent: &Agent) -> Option<String> { None }

    /// Whether member `loser` resolves to exactly what the winner does (`EQUIVALENT`):
    /// fields and prompt.
    fn equivalent(&self, contest: &Contest<'_>, loser: usize) -> bool {
        contest.ladder.equivalents && same_resolution(contest.members[loser].agent, contest.winner())
    }

    /// The winner's rule in the framework's words, where they are not the engine's.
    fn winner_rule(&self, _contest: &Contest<'_>) -> Option<String> { None }

    /// Member `loser`'s rule in the framework's words (the whole rule: `equivalent`
    /// says whether it is marked `EQUIVALENT`).
    fn loser_rule(&self, _contest: &Contest<'_>, _loser: usize, _equivalent: bool) -> Option<String> { None }
}

/// The engine's own rules, with a framework's `barred`.
struct Barring<'a>(&'a dyn Fn(&Agent) -> Option<String>);

impl Rules for Barring<'_> {
    fn barred(&self, agent: &Agent) -> Option<String> { (self.0)(agent) }
}

/// Ranks `candidates` on `ladder`. Returns every definition, grouped by name (names
/// in sorted order), in the ladder's [`Order`].
pub fn rank(ladder: &Ladder, candidates: Vec<Candidate>) -> Vec<Agent> {
    rank_with(ladder, candidates, &|_| None)
}

/// [`rank`], where a tier's pick may be passed over across tiers: `barred` gives the
/// reason a definition cannot take its name (Kimi Code: a file named like a built-in
/// without `override: true`). Each tier's own pick is made first (the first or last
/// one read there), so a barred pick still hides the others of its tier; the winner
/// is the highest pick not barred.
pub fn rank_with(ladder: &Ladder, candidates: Vec<Candidate>, barred: &dyn Fn(&Agent) -> Option<String>) -> Vec<Agent> {
    rank_by(ladder, candidates, &Barring(barred))
}

/// [`rank`] with a framework's [`Rules`].
pub fn rank_by(ladder: &Ladder, candidates: Vec<Candidate>, rules: &dyn Rules) -> Vec<Agent> {
    let (tiers, mut agents): (Vec<usize>, Vec<Agent>) = candidates.into_iter().map(|c| (c.tier, c.agent)).unzip();
    // Each name's definitions that take part, in precedence order; each one's place there.
    let mut groups: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    let mut ranks = vec![usize::MAX; agents.len()];
    for (i, agent) in agents.iter_mut().enumerate() {
        if !takes_part(ladder, agent.status) {
            continue;
        }
        if ladder.within(tiers[i]) == Within::Separate {
            ranks[i] = 0;
            if agent.status != Status::Wins {
                (agent.status, agent.shadowed_by) = (Status::Wins, None);
            }
        } else {
            groups.entry(ladder.key(&agent.name)).or_default().push((tiers[i], i));
        }
    }
    for members in groups.values_mut() {
        // Tier first; inside a tier, read order, reversed where the last one wins.
        members.sort_by_key(|&(tier, i)| (tier, if ladder.within(tier) == Within::Last { usize::MAX - i } else { i }));
        // The winner first: the highest tier pick that is not barred.
        let picks = members.iter().enumerate().filter(|&(k, &(t, _))| k == 0 || members[k - 1].0 != t);
        let winner = picks.map(|(k, _)| k).find(|&k| rules.barred(&agents[members[k].1]).is_none());
        if let Some(k) = winner.filter(|&k| k > 0) {
            let w = members.remove(k);
            members.insert(0, w);
        }
        let (wt, w) = members[0];
        // Each member's status and rule, the winner's first.
        let decided: Vec<(Status, String)> = {
            let contest = Contest { ladder, members: members.iter().map(|&(tier, read)| Member { tier, read, agent: &agents[read] }).collect() };
            let winner = rules.winner_rule(&contest).unwrap_or_else(|| winner_rule(&contest));
            let losers = (1..members.len()).map(|k| {
                let loaded = !agents[members[k].1].status.is_unloaded() && !agents[w].status.is_unloaded();
                let equivalent = loaded && rules.equivalent(&contest, k);
                let rule = rules.loser_rule(&contest, k, equivalent).unwrap_or_else(|| loser_rule(&contest, rules, k, equivalent));
                (if equivalent { Status::Equivalent } else { Status::Shadowed }, rule)
            });
            std::iter::once((Status::Wins, winner)).chain(losers).collect()
        };
        let winner_key = agents[w].source.key();
        for (k, (&(_, i), (status, rule))) in members.iter().zip(decided).enumerate() {
            ranks[i] = k;
            let agent = &mut agents[i];
            // A failure that takes part keeps its status.
            if !agent.status.is_unloaded() {
                agent.status = status;
            }
            agent.shadowed_by = (k > 0).then(|| winner_key.clone());
            agent.rule = rule;
        }
        if members.iter().filter(|&&(t, _)| t == wt).count() > 1 {
            agents[w].undocumented_order = ladder.tiers.get(wt).and_then(|t| t.undocumented.as_deref()).map(Into::into);
        }
    }
    let mut order: Vec<usize> = (0..agents.len()).collect();
    match ladder.order {
        Order::Ranked => order.sort_by_key(|&i| (&agents[i].name, ranks[i], i)),
        Order::WinnerThenRead => order.sort_by_key(|&i| (&agents[i].name, ranks[i] != 0, i)),
        Order::Source => order.sort_by_key(|&i| {
            let (a, s) = (&agents[i], &agents[i].source);
            (a.name.as_str(), s.scope.as_str(), s.rel.as_str(), s.card.as_deref())
        }),
    }
    let mut slots: Vec<Option<Agent>> = agents.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    out.extend(order.into_iter().filter_map(|i| slots[i].take()));
    out
}

fn takes_part(ladder: &Ladder, status: Status) -> bool {
    (ladder.failures_take_part || !status.is_unloaded()) && status != Status::Held
}

/// The engine's words for why the winner wins.
fn winner_rule(contest: &Contest<'_>) -> String {
    let ladder = contest.ladder;
    let members = &contest.members;
    let (wt, name) = (members[0].tier, &contest.winner().name);
    let label = ladder.label(wt);
    let passed_over = members[1..].iter().filter(|m| m.tier < wt).count();
    if passed_over > 0 {
        let below = members.len() - 1 - passed_over;
        let mut rule = format!("{label} takes `{name}`: the {passed_over} definition(s) in higher places are passed over");
        if below > 0 {
            rule.push_str(&format!(" ({below} more in lower places)"));
        }
        return rule;
    }
    let same = members.iter().filter(|m| m.tier == wt).count();
    if members.len() == 1 {
        return format!("the only definition of `{name}`: {label}");
    }
    let mut rule = if same > 1 {
        let which = if ladder.within(wt) == Within::Last { "last" } else { "first" };
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

/// The engine's words for why member `k` loses.
fn loser_rule(contest: &Contest<'_>, rules: &dyn Rules, k: usize, equivalent: bool) -> String {
    let ladder = contest.ladder;
    let (wt, lt) = (contest.members[0].tier, contest.members[k].tier);
    let pick = contest.members[..k].iter().all(|m| m.tier != lt);
    let mut rule = match (lt < wt, pick, rules.barred(contest.members[k].agent)) {
        (true, true, Some(reason)) => format!("passed over: {reason}; {} wins", ladder.label(wt)),
        (true, _, _) => format!(
            "shadowed: a definition read before it in {} takes the name there, and {} wins",
            ladder.label(lt),
            ladder.label(wt)
        ),
        _ if lt == wt => {
            let order = match ladder.within(wt) {
                Within::Last => "a file read later in the same place replaces it (the last one read wins)",
                _ => "a file read earlier in the same place wins (the first one read wins)",
            };
            format!("shadowed: {order}; {}", ladder.label(wt))
        }
        _ => format!("shadowed: {} ranks above {}", ladder.label(wt), ladder.label(lt)),
    };
    if equivalent {
        rule.push_str(EQUIVALENT);
    }
    rule
}

/// Said of a shadowed definition marked `EQUIVALENT`.
pub const EQUIVALENT: &str = " (it resolves to exactly what the winner does)";

/// Whether two definitions resolve to the same thing: fields and prompt.
fn same_resolution(a: &Agent, b: &Agent) -> bool {
    a.system_prompt == b.system_prompt && a.messages == b.messages && a.fields.same(&b.fields)
}

/// Whether two definitions have the same prompt and the same field values in the same
/// order, wherever each field came from (OpenHands compares two loaded definitions).
pub fn same_prompt_and_values(a: &Agent, b: &Agent) -> bool {
    a.system_prompt == b.system_prompt
        && a.fields.len() == b.fields.len()
        && a.fields.iter().zip(b.fields.iter()).all(|(x, y)| x.key == y.key && x.value == y.value)
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

    /// A framework's words and equivalence; the winner, then every other definition
    /// in read order; a failure that takes part keeps its status and takes the name.
    #[test]
    fn rules_words_read_order_and_failures_that_take_part() {
        struct Words;
        impl Rules for Words {
            fn equivalent(&self, contest: &Contest<'_>, loser: usize) -> bool { contest.members[loser].read == 3 }
            fn winner_rule(&self, contest: &Contest<'_>) -> Option<String> { Some(format!("{} wins", contest.winner().source.rel)) }
            fn loser_rule(&self, contest: &Contest<'_>, loser: usize, eq: bool) -> Option<String> {
                Some(format!("{} loses ({eq})", contest.members[loser].agent.source.rel))
            }
        }
        let mut ladder = Ladder::new(vec![Tier::first("near"), Tier::first("far")]).ordered(Order::WinnerThenRead);
        let cands = || {
            let mut broken = agent("a", "near/broken.md");
            broken.status = Status::Invalid;
            let tiers = [(1, agent("a", "far/a.md")), (0, broken), (0, agent("a", "near/a.md")), (1, agent("a", "far/a2.md"))];
            tiers.into_iter().map(|(tier, agent)| Candidate { tier, agent }).collect()
        };
        let got = |out: Vec<Agent>| -> Vec<(String, Status, String)> { out.iter().map(|a| (a.source.rel.clone(), a.status, a.rule.clone())).collect() };
        let row = |rel: &str, status, rule: &str| (rel.to_string(), status, rule.to_string());
        assert_eq!(
            got(rank_by(&ladder, cands(), &Words)),
            vec![
                row("near/a.md", Status::Wins, "near/a.md wins"),
                row("far/a.md", Status::Shadowed, "far/a.md loses (false)"),
                row("near/broken.md", Status::Invalid, ""),
                row("far/a2.md", Status::Equivalent, "far/a2.md loses (true)"),
            ]
        );
        ladder.failures_take_part = true;
        let out = rank_by(&ladder, cands(), &Words);
        assert_eq!(out[2].shadowed_by.as_deref(), Some("project:near/broken.md"));
        assert_eq!(
            got(out),
            vec![
                row("near/broken.md", Status::Invalid, "near/broken.md wins"),
                row("far/a.md", Status::Shadowed, "far/a.md loses (false)"),
                row("near/a.md", Status::Shadowed, "near/a.md loses (false)"),
                row("far/a2.md", Status::Shadowed, "far/a2.md loses (false)"),
            ]
        );
    }

    /// Separate entry points each win with their own rule, listed by source.
    #[test]
    fn separate_entry_points_each_win_in_source_order() {
        let ladder = Ladder::new(vec![Tier::separate("entry points")]).ordered(Order::Source);
        let mut own = agent("a", "z/a.yaml");
        own.rule = "its own rule".into();
        let cands = [own, agent("b", "a/b.yaml"), agent("a", "b/a.yaml")].into_iter().map(|agent| Candidate { tier: 0, agent }).collect();
        let out = rank(&ladder, cands);
        let got: Vec<(&str, Status, &str)> = out.iter().map(|a| (a.source.rel.as_str(), a.status, a.rule.as_str())).collect();
        assert_eq!(got, vec![("b/a.yaml", Status::Wins, ""), ("z/a.yaml", Status::Wins, "its own rule"), ("a/b.yaml", Status::Wins, "")]);
        assert!(out.iter().all(|a| a.shadowed_by.is_none()));
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
    }
}
