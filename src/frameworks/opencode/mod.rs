//! OpenCode agents (npm `opencode-ai` 1.18.33, the V1 config loader).
//!
//! OpenCode does not pick one file per name: it deep-merges every source's entry of a
//! name, field by field, later source wins (`Config.state` with remeda `mergeDeep`,
//! `config/config.ts`), then applies the result over the built-in agent of that name
//! (`Agent.state`, `agent/agent.ts`: `value.x ?? builtin.x`), and deletes a name whose
//! merged `disable` is true. Sources and their order are in [`sources`]; Markdown files
//! are read as `ConfigMarkdown.parse` does ([`markdown`]), JSON(C) as `jsonc-parser`
//! ([`jsonc`]), every entry checked and normalised as `ConfigAgentV1.Info` ([`schema`]).
//! A wrong type anywhere but a `mode/` folder stops OpenCode altogether: those errors
//! are `fatal` (the report's [`EcosystemReport::refusal`]); every definition keeps the
//! status it has once that file is fixed.
//!
//! agentry reports each name's merged result on its highest source (`active`), with
//! each effective field naming the file and line that set it; every other source is
//! `shadowed` with its own fields, and the chain lists every contributing source.

pub(crate) mod jsonc;
pub(crate) mod markdown;
pub(crate) mod schema;
mod skill_scan;
pub(crate) mod skills;
mod sources;

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value as Json};

use super::precedence::{self, Candidate, Ladder, Layer, Tier};
use super::{Framework, LoadContext};
use crate::model::{Agent, AgentRecord, EcosystemReport, Field, FieldOrigin, Source, Status, Text};
use sources::Entry;

pub struct OpenCode;

pub(crate) const ID: &str = "opencode";

/// OpenCode 1.18.33's built-in agents (names only): mode, hidden, temperature.
const BUILTINS: [(&str, &str, bool, Option<f64>); 7] = [
    ("build", "primary", false, None),
    ("plan", "primary", false, None),
    ("general", "subagent", false, None),
    ("explore", "subagent", false, None),
    ("compaction", "primary", true, None),
    ("title", "primary", true, Some(0.5)),
    ("summary", "primary", true, None),
];

const MERGE_RULE: &str = "merged: later source wins per field";

fn builtin(name: &str) -> Option<&'static (&'static str, &'static str, bool, Option<f64>)> {
    BUILTINS.iter().find(|b| b.0 == name)
}

/// A file's own entry as an agent (before ranking): its fields as it sets them.
fn own_agent(e: &Entry) -> Agent {
    let key: Arc<str> = e.source.key().into();
    let fields: Vec<Field> = e
        .fields
        .iter()
        .map(|(k, v)| Field::new(k.clone(), v.clone(), FieldOrigin::own(&key, e.line(k), "set by this source")))
        .collect();
    let mut attributes = crate::model::AttributesBuilder::default();
    for (k, line) in &e.lines {
        if let Some(v) = e.fields.get(k) {
            attributes.push(k, *line, v);
        }
    }
    AgentRecord {
        description: e.fields.get("description").and_then(Json::as_str).unwrap_or_default().into(),
        fields: fields.into(),
        attributes: attributes.finish(),
        system_prompt: e.fields.get("prompt").and_then(Json::as_str).map(Text::held),
        ..AgentRecord::new(ID, e.name.clone(), e.source.clone(), Status::Wins, String::new())
    }
    .into()
}

/// A name's merged result: effective fields (each with its origin), chain (highest
/// first), prompt, and whether it is disabled.
struct Merged {
    fields: Vec<Field>,
    chain: Vec<String>,
    prompt: Option<String>,
    disabled: bool,
    description: String,
}

fn merge(name: &str, group: &[&Entry]) -> Merged {
    let keys: Vec<String> = group.iter().map(|e| e.source.key()).collect();
    let layers: Vec<Layer<'_>> = group
        .iter()
        .zip(&keys)
        .map(|(e, key)| Layer {
            source: key,
            label: &e.label,
            fields: e.fields.iter().map(|(k, v)| (k.clone(), v.clone(), e.line(k))).collect(),
        })
        .collect();
    let mut fields = precedence::merge_fields(&layers);
    let mut merged = Json::Object(Map::new());
    for e in group {
        super::node::merge_deep(&mut merged, &Json::Object(e.fields.clone()));
    }
    let merged = match merged {
        Json::Object(m) => m,
        _ => Map::new(),
    };
    for f in &mut fields {
        let Some(v) = merged.get(f.key.as_ref()) else { continue };
        f.value = v.clone().into();
        // An object is merged key by key: every source that sets it contributed. The
        // empty `options` and `permission` OpenCode's schema gives every entry count
        // only where the file wrote them.
        if !v.is_object() {
            continue;
        }
        let setters: Vec<(&Entry, &String)> = group
            .iter()
            .copied()
            .zip(&keys)
            .filter(|(e, _)| {
                e.line(&f.key).is_some() || e.fields.get(f.key.as_ref()).is_some_and(|v| v.as_object().is_some_and(|m| !m.is_empty()))
            })
            .collect();
        f.origin = match setters.len() {
            0 => FieldOrigin::default("OpenCode's schema gives every entry this map (empty)"),
            n => FieldOrigin {
                provenance: if n > 1 { crate::model::Provenance::Merged } else { crate::model::Provenance::Own },
                sites: setters
                    .iter()
                    .rev()
                    .map(|(e, key)| crate::model::Site::new(&Arc::from(key.as_str()), e.line(&f.key)))
                    .collect(),
                rule: if n > 1 {
                    format!("{MERGE_RULE}; an object merges key by key across {n} sources (later wins per key)").into()
                } else {
                    format!("{MERGE_RULE}; set by {}", setters[0].0.label).into()
                },
            },
        };
    }
    let disabled = merged.get("disable").and_then(Json::as_bool) == Some(true);
    if !disabled {
        let base = builtin(name);
        let mut effective = |key: &'static str, value: Json, rule: &'static str| {
            if !merged.contains_key(key) {
                fields.push(Field::new(key, value, FieldOrigin::default(rule)));
            }
        };
        match base {
            Some(&(_, mode, hidden, temperature)) => {
                effective("mode", Json::from(mode), "from the built-in agent (value ?? built-in)");
                if hidden {
                    effective("hidden", Json::Bool(true), "from the built-in agent (value ?? built-in)");
                }
                if let Some(t) = temperature {
                    effective("temperature", Json::from(t), "from the built-in agent (value ?? built-in)");
                }
            }
            None => effective("mode", Json::from("all"), "OpenCode's default for a new agent"),
        }
        effective("name", Json::from(name), "the agent's key");
        fields.push(Field::new(
            "native",
            Json::Bool(base.is_some()),
            FieldOrigin::default(if base.is_some() { "a built-in name" } else { "not a built-in name" }),
        ));
    }
    let prompt = merged.get("prompt").and_then(Json::as_str).filter(|p| !p.is_empty() && !disabled).map(str::to_string);
    let mut chain: Vec<String> = keys.into_iter().rev().collect();
    if builtin(name).is_some() {
        chain.push(format!("builtin:{name}"));
    }
    Merged {
        fields,
        chain,
        prompt,
        disabled,
        description: merged.get("description").and_then(Json::as_str).unwrap_or_default().to_string(),
    }
}

/// One input as every parser of this reader sees it (the fuzz target): as a
/// Markdown agent file (frontmatter, fallback, schema) and as a JSON(C) config.
pub fn parse_for_fuzzing(data: &[u8]) {
    if let Ok(parsed) = markdown::parse(data) {
        let mut config = parsed.data;
        config.insert("prompt".into(), Json::from(parsed.body));
        let _ = schema::normalise(&config);
    }
    if let Ok(Json::Object(config)) = jsonc::parse(&String::from_utf8_lossy(data)) {
        for section in ["agent", "mode"] {
            for entry in config.get(section).and_then(Json::as_object).into_iter().flat_map(|m| m.values()) {
                if let Some(entry) = entry.as_object() {
                    let _ = schema::normalise(entry);
                }
            }
        }
        for entry in config.get("agents").and_then(Json::as_object).into_iter().flat_map(|m| m.values()) {
            let _ = schema::from_v2(entry);
        }
    }
}

impl Framework for OpenCode {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project("opencode.json"), E::project("opencode.jsonc"), E::project(".opencode"), E::home(".opencode"), E::xdg("opencode")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "OpenCode"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::npm("OpenCode", "1.18.33", &["opencode-ai"]).brew(&["opencode"]).commands(&["opencode"]))
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        report.places = sources::places(cx);
        let read = sources::Reader::read_all(cx, &report.places);
        for file in read.reached.take() {
            let (scope, _) = cx.roots.locate(&file, None);
            let base = match scope {
                crate::model::Scope::Project => &cx.roots.project,
                crate::model::Scope::Xdg => &cx.roots.xdg,
                _ => &cx.roots.home,
            };
            report.places.push(crate::model::Place::reached(scope, base, file, crate::model::Reach::FILE, "a file a config's {file:} reads"));
        }
        let entries = read.entries;
        report.diagnostics = read.diagnostics;

        // One tier per merged entry, the last merged highest; a file another file of
        // its folder scan replaced sits on its winner's tier, after it.
        let merged_at: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].replaced.is_none()).collect();
        let n = merged_at.len();
        let mut tiers: Vec<Tier> = merged_at.iter().rev().map(|&i| Tier::first(entries[i].label.clone())).collect();
        tiers.push(Tier::first("OpenCode's built-in agents"));
        // Lookups by position, name and source key: workspaces may hold thousands.
        let mut rank_of = vec![0; entries.len()];
        for (r, &i) in merged_at.iter().enumerate() {
            rank_of[i] = r;
        }
        let tier_of = |i: usize| n - 1 - rank_of[i];
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for &i in &merged_at {
            by_name.entry(entries[i].name.as_str()).or_default().push(i);
        }
        let by_key: HashMap<String, usize> = entries.iter().enumerate().map(|(i, e)| (e.source.key(), i)).collect();
        let mut candidates: Vec<Candidate> = Vec::with_capacity(entries.len() + BUILTINS.len());
        for &i in &merged_at {
            candidates.push(Candidate { tier: tier_of(i), agent: own_agent(&entries[i]) });
        }
        for (i, e) in entries.iter().enumerate().filter(|(_, e)| e.replaced.is_some()) {
            let winner = by_name
                .get(e.name.as_str())
                .and_then(|ws| ws.iter().copied().find(|&w| entries[w].scan == e.scan))
                .unwrap_or(i);
            candidates.push(Candidate { tier: tier_of(winner), agent: own_agent(e) });
        }
        for (name, ..) in BUILTINS {
            let agent = Agent::new(ID, name.to_string(), Source::builtin(name), Status::Wins, String::new());
            candidates.push(Candidate { tier: n, agent });
        }
        let mut ladder = Ladder::new(tiers);
        ladder.equivalents = false;
        let mut agents = precedence::rank(&ladder, candidates);

        for agent in &mut agents {
            let group: Vec<&Entry> =
                by_name.get(agent.name.as_str()).into_iter().flatten().map(|&i| &entries[i]).collect();
            let own = by_key.get(&agent.source.key()).map(|&i| &entries[i]);
            match (agent.status, own) {
                (Status::Wins, None) => {
                    agent.rule = "a built-in agent of OpenCode (compiled in); nothing configures it".into();
                }
                (Status::Wins, Some(_)) => {
                    let m = merge(&agent.name, &group);
                    let a = &mut **agent;
                    a.rule = if m.chain.len() > 1 {
                        format!(
                            "{MERGE_RULE}: {} sources merged, this one last{}",
                            m.chain.len(),
                            if m.disabled { "; disable: true, so OpenCode removes the agent" } else { "" }
                        )
                    } else if m.disabled {
                        "the only definition; disable: true, so OpenCode removes the agent".into()
                    } else {
                        "the only definition of this name".into()
                    };
                    if group.iter().any(|e| e.raced) {
                        a.undocumented_order = Some(
                            "files in sibling folders of one scan race: OpenCode keeps whichever it reads last".into(),
                        );
                    }
                    a.chain = m.chain.into();
                    a.fields = m.fields.into();
                    a.system_prompt = m.prompt.map(Text::held);
                    a.description = m.description.into();
                }
                (_, None) => {
                    agent.rule = format!(
                        "built-in agent: {} is merged over it field by field (a field it does not set keeps the built-in's)",
                        agent.shadowed_by.as_deref().unwrap_or("the configured entry")
                    );
                }
                (_, Some(e)) => {
                    agent.rule = match &e.replaced {
                        Some(rule) => rule.clone(),
                        None => format!(
                            "{MERGE_RULE}: one of {} sources merged into {} ({}); its fields count where no later source sets them",
                            group.len(),
                            agent.shadowed_by.as_deref().unwrap_or("the winner"),
                            e.label
                        ),
                    };
                }
            }
        }
        report.agents = agents;
        skills::load(cx, &mut report);
        report
    }
}
