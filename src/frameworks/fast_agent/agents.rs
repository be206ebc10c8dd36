//! Registered cards as [`Agent`]s: the oracle's `fields` (the stored card data, the
//! card's `AgentConfig` and the history) each with where it came from, why the card
//! wins or is shadowed, and the edges of the hierarchy.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::raw::Failure;
use super::registry::Entry;
use super::validate::{Card, Stored};
use super::ID;
use crate::frameworks::precedence::{self, Contest};
use crate::model::{Agent, AgentRecord, Edge, EdgeKind, Field, FieldOrigin, Fields, Message, Provenance, Site, Source, Status};

/// The attribute a stored key comes from, when it is not the key itself.
fn attribute_of(key: &str) -> &[&str] {
    match key {
        "child_agents" | "router_agents" => &["agents"],
        "message_files" => &["messages"],
        "agents_as_tools_options" => &["history_source", "history_merge_target", "max_parallel", "child_timeout_sec", "max_display_instances"],
        "a2a" => &[
            "url", "transport", "streaming", "polling", "accepted_output_modes", "headers", "auth", "relative_card_path",
            "request_timeout_seconds",
        ],
        _ => &[],
    }
}

/// Keys of the card that end up in `AgentConfig`.
const CONFIG_ATTRIBUTES: &[&str] = &[
    "description", "servers", "mcp_connect", "tools", "resources", "prompts", "model", "use_history", "save_trajectory",
    "request_params", "human_input", "default", "tool_only", "subagents", "subagent_model", "harness_tools", "api_key",
    "tool_input_schema", "function_tools", "shell", "cwd", "tool_hooks", "lifecycle_hooks", "commands",
    "trim_tool_history", "skills", "type",
];

fn origin(card: &Card, source: &Arc<str>, key: &str) -> FieldOrigin {
    let line_of = |k: &str| card.attributes.lines().find(|&(key, _)| key == k).map(|(_, line)| line);
    let own_keys: Vec<&str> = match attribute_of(key) {
        [] => vec![key],
        keys => keys.to_vec(),
    };
    let sites: Box<[Site]> = own_keys.iter().filter_map(|k| line_of(k)).map(|line| Site::new(source, Some(line))).collect();
    if sites.is_empty() {
        let rule = match key {
            "type" => "no `type`: an `agent` card (stored as `basic`)",
            "schema_version" => "framework default (1)",
            _ => "framework default",
        };
        return FieldOrigin::default(rule);
    }
    let rule = if own_keys.len() == 1 && own_keys[0] == key {
        "set by the card".into()
    } else {
        format!("from the card's {}", own_keys.iter().filter(|k| line_of(k).is_some()).map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")).into()
    };
    FieldOrigin { provenance: Provenance::Own, sites, rule }
}

fn config_origin(card: &Card, source: &Arc<str>) -> FieldOrigin {
    let given: Vec<(&str, u32)> = card.attributes.lines().filter(|(key, _)| CONFIG_ATTRIBUTES.contains(key)).collect();
    if given.is_empty() {
        return FieldOrigin::default("every AgentConfig setting is fast-agent's default");
    }
    FieldOrigin {
        provenance: Provenance::Own,
        sites: given.iter().map(|&(_, line)| Site::new(source, Some(line))).collect(),
        rule: format!(
            "AgentConfig from the card's {}; everything else is fast-agent's default",
            given.iter().map(|(key, _)| format!("`{key}`")).collect::<Vec<_>>().join(", ")
        )
        .into(),
    }
}

fn history_origin(card: &Card, source: &Arc<str>) -> FieldOrigin {
    let mut sites = Vec::new();
    if let Some((_, line)) = card.attributes.lines().find(|&(key, _)| key == "messages") {
        sites.push(Site::new(source, Some(line)));
    }
    if !card.inline_history.is_empty() {
        sites.push(Site::new(source, None));
    }
    if sites.is_empty() {
        return FieldOrigin::default("no `messages:` files: empty history");
    }
    let rule = if card.inline_history.is_empty() {
        "the `messages:` files, in listed order".into()
    } else {
        "the `messages:` files in listed order, then the inline ---USER/---ASSISTANT blocks (AgentCard RFC)".into()
    };
    FieldOrigin { provenance: if sites.len() > 1 { Provenance::Merged } else { Provenance::Own }, sites: sites.into(), rule }
}

/// The oracle's fields of a card from `source` with an empty history: the stored
/// card data, the card's `AgentConfig`, the history. The values move in; the card's
/// memo and the agents built from it share these fields.
pub fn card_fields(card: &Card, source: &str, stored: Stored) -> Fields {
    // One key for all the sites of the card's fields.
    let source: Arc<str> = source.into();
    let mut fields: Vec<Field> = Vec::with_capacity(stored.data.len() + 2);
    for (key, value) in stored.data {
        let origin = origin(card, &source, &key);
        fields.push(Field::new(key, value, origin));
    }
    fields.push(Field::new("config", Json::Object(stored.config), config_origin(card, &source)));
    fields.push(Field::new("history", Json::Array(Vec::new()), history_origin(card, &source)));
    fields.into()
}

/// The entry's fields: the card's, with the history the registry gave it.
fn fields_of(entry: &Entry) -> Fields {
    let l = &entry.loaded;
    if entry.history.is_empty() {
        return l.card_fields.clone();
    }
    if let Some((history, fields)) = l.fields.get() {
        if *history == entry.history {
            return fields.clone();
        }
    }
    let history: Vec<Json> = entry.history.iter().map(|m| json!({"role": m.role, "text": m.text})).collect();
    let mut fields: Vec<Field> = l.card_fields.iter().collect();
    if let Some(last) = fields.last_mut() {
        last.value = Json::Array(history).into();
    }
    let fields = Fields::from(fields);
    // The first history wins the cache; another (a refresh that changed only a
    // history file) builds its own.
    let _ = l.fields.set((entry.history.clone(), fields.clone()));
    fields
}

/// Whether two cards store the same data and `AgentConfig` (their fields' origins
/// aside): compared by key, in any order, as the oracle compares its dicts.
fn same_stored(a: &Fields, b: &Fields) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let b: Vec<Field> = b.iter().collect();
    a.iter().all(|x| b.iter().any(|y| y.key == x.key && y.value == x.value))
}

/// The registry's rules in fast-agent's words: the last card registered under a name
/// is the one kept (a tool card replaces an agent card); `registered` is the read order.
pub struct Registry<'a> {
    pub registered: &'a [Entry],
}

impl precedence::Rules for Registry<'_> {
    fn equivalent(&self, contest: &Contest<'_>, loser: usize) -> bool {
        let (w, l) = (&self.registered[contest.members[0].read], &self.registered[contest.members[loser].read]);
        same_stored(&w.loaded.card_fields, &l.loaded.card_fields) && w.loaded.card.instruction == l.loaded.card.instruction && w.history == l.history
    }

    fn winner_rule(&self, contest: &Contest<'_>) -> Option<String> {
        let entry = &self.registered[contest.members[0].read];
        let name = &entry.loaded.card.name;
        Some(if let Some(replaced) = &entry.replaced {
            format!("tool-cards/ is loaded after agent-cards/, and this tool card replaces the agent card {replaced} of the same name")
        } else if entry.loaded.is_tool {
            format!("the only card named `{name}` (from tool-cards/)")
        } else {
            format!("the only card named `{name}`")
        })
    }

    fn loser_rule(&self, contest: &Contest<'_>, _loser: usize, _equivalent: bool) -> Option<String> {
        Some(format!(
            "replaced by the tool card {}: tool-cards/ is loaded after agent-cards/ and fast-agent keeps the tool card",
            contest.winner().source.key()
        ))
    }
}

/// The agent for one registered card, before it is ranked: a winner with no rule yet.
pub fn build(entry: &Entry, winners: &HashMap<&str, (String, bool)>) -> Agent {
    let l = &entry.loaded;
    let card = &l.card;
    let fields = fields_of(entry);
    let edges: Vec<Edge> = card
        .references
        .iter()
        .map(|r| Edge {
            kind: if card.card_type.is_workflow() { EdgeKind::Workflow } else { EdgeKind::Subagent },
            name: r.name.clone(),
            target: winners.get(r.name.as_str()).map(|(k, _)| k.clone()),
        })
        .collect();
    let description = card
        .description
        .clone()
        .unwrap_or_else(|| card.headline.clone());
    AgentRecord {
        description,
        fields,
        attributes: card.attributes.clone(),
        system_prompt: Some(card.instruction.clone()),
        messages: entry.history.iter().map(|m| Message { role: m.role.clone(), label: None, text: m.text.as_str().into() }).collect(),
        edges: edges.into(),
        ..AgentRecord::new(ID, card.name.clone(), l.source.clone(), Status::Wins, String::new())
    }
    .into()
}

/// A file that failed to load: listed as `Invalid` so the explorer can show it; the
/// matching error diagnostic carries the reason.
pub fn invalid(path: &Path, source: Source, failure: &Failure) -> Agent {
    let name = path.file_name().map(|n| crate::discover::stem(&n.to_string_lossy()).replace(' ', "_")).unwrap_or_default();
    let rule = format!("fast-agent rejects this file: {}", failure.message);
    AgentRecord { description: failure.message.clone().into(), ..AgentRecord::new(ID, name, source, Status::Invalid, rule) }.into()
}
