//! `_build_card_from_data` of fast-agent-mcp 0.10.48: the checks in the package's
//! order (the first failure rejects the card), name and instruction resolution, and
//! the stored `AgentCardData` rendered as the oracle prints it (`fields`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map as JsonMap, Value as Json};

use super::raw::{str_to_none, strip_to_none, Failure, RawCard};
use super::rules::{self, CardType};
use super::values;
use crate::model::{Attributes, AttributesBuilder, DiagKind, Text};
use crate::frameworks::Prompts;
use crate::py;
use crate::yaml::Value;

/// `constants.DEFAULT_AGENT_INSTRUCTION`, kept unexpanded as the loader stores it.
pub const DEFAULT_INSTRUCTION: &str = "You are a helpful AI Agent.\n\n{{serverInstructions}}\n{{agentSkills}}\n{{file_silent:AGENTS.md}}\n{{env}}\n\nMermaid diagrams between code fences are supported.\n\n{{model_specific}}\n\nThe current date is {{currentDate}}.";

/// Which dialect's instruction rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstructionRule {
    /// fast-agent 0.10.48: attribute and body exclude each other; inline history rejected.
    Released,
    /// AgentCard RFC: attribute, then body prelude and `---SYSTEM` blocks, joined by `\n`.
    Rfc,
}

/// What validation needs besides the card: where it lives and how to expand paths.
pub struct CardContext<'a> {
    pub path: &'a Path,
    /// The file's contents, where an instruction found verbatim is kept as `prompts` makes texts.
    pub bytes: &'a [u8],
    pub prompts: Prompts,
    /// `HOME` for `~` expansion.
    pub home: &'a Path,
    /// `{{currentDate}}` as the loader would expand it.
    pub date: &'a str,
    pub rule: InstructionRule,
    /// Does a history file exist? (`Path.exists()`)
    pub exists: &'a dyn Fn(&Path) -> bool,
    /// `Path.resolve()` of an existing path (`None` when it fails).
    pub resolve: &'a dyn Fn(&Path) -> Option<PathBuf>,
    /// The report's `SCOPE:PATH` for an absolute path.
    pub source_key: &'a dyn Fn(&Path) -> String,
}

/// A name another card refers to, and what the package does with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// The attribute it was written in (`sequence`, `agents`, ...).
    pub attribute: &'static str,
    pub name: String,
    pub line: Option<u32>,
    /// Checked by `validate_workflow_references` at start-up (basic agents' children
    /// are not).
    pub checked: bool,
}

/// What the oracle stores of a card besides its instruction: made into the agent's
/// fields ([`super::agents::card_fields`]) as soon as the card's source is known, and
/// not kept beside them.
pub struct Stored {
    /// The stored `AgentCardData` minus `config`, as the oracle renders it.
    pub data: JsonMap<String, Json>,
    /// The `AgentConfig` fields the card decides.
    pub config: JsonMap<String, Json>,
}

/// A card that passed validation.
#[derive(Clone, Debug)]
pub struct Card {
    pub name: String,
    pub name_line: Option<u32>,
    pub card_type: CardType,
    /// Shared with the agent built from the card (see `Agent`).
    pub instruction: Text,
    /// The instruction's first line that is not blank: the agent's description when
    /// the card has none.
    pub headline: Arc<str>,
    /// Shared, as `headline`, with the agent built from the card.
    pub description: Option<Arc<str>>,
    pub attributes: Attributes,
    pub message_files: Vec<PathBuf>,
    pub references: Vec<Reference>,
    pub inline_history: Vec<super::raw::Message>,
}

/// Validates one card: the card, and what the oracle stores of it. `raw` is consumed
/// because the legacy `smart` type rewrites it.
pub fn build(mut raw: RawCard, cx: &CardContext) -> Result<(Card, Stored), Failure> {
    let mut attributes = AttributesBuilder::default();
    for e in &raw.entries {
        attributes.push(e.key.as_str(), e.line, &e.written);
    }

    // 1. `type: smart` is a deprecated alias of `agent` with subagents and harness tools.
    if let Some(entry) = raw.get("type") {
        if let Value::Str(t) = &entry.value.value {
            if py::strip(t).to_lowercase() == "smart" {
                let line = entry.line;
                if let Some(e) = raw.entries.iter_mut().find(|e| e.key_is_str && e.key == "type") {
                    e.value.value = Value::Str("agent".into());
                }
                raw.set_default("subagents", Value::Bool(true), line);
                raw.set_default("harness_tools", Value::Bool(true), line);
            }
        }
    }
    // 2-3. type
    let type_line = raw.line("type");
    let card_type = match raw.value("type") {
        None | Some(Value::Null) => CardType::Agent,
        Some(Value::Str(t)) => CardType::parse(t)
            .ok_or_else(|| Failure::validation(format!("Unsupported agent type '{t}'"), type_line))?,
        Some(_) => return Err(Failure::validation("'type' must be a string", type_line)),
    };
    // 4. every key must be allowed for the type
    let mut allowed = rules::allowed_fields(card_type);
    if cx.rule == InstructionRule::Rfc && card_type == CardType::Agent {
        // The RFC's agents-as-tools example sets `history_mode`.
        allowed.push("history_mode");
    }
    let mut unknown: Vec<&super::raw::Entry> =
        raw.entries.iter().filter(|e| !e.key_is_str || !allowed.contains(&e.key.as_str())).collect();
    if !unknown.is_empty() {
        unknown.sort_by(|a, b| a.key.cmp(&b.key));
        let names: Vec<&str> = unknown.iter().map(|e| e.key.as_str()).collect();
        let first_line = unknown.iter().map(|e| e.line).min();
        return Err(Failure::validation(
            format!("Unsupported fields for type '{}': {}", card_type.key(), names.join(", ")),
            first_line,
        ));
    }
    // 5. schema_version
    let schema_version = match raw.value("schema_version") {
        None => json!(1),
        Some(v @ (Value::Int(_) | Value::BigInt(_))) => v.to_json_python(),
        Some(_) => return Err(Failure::validation("'schema_version' must be an integer", raw.line("schema_version"))),
    };
    // 6. name
    let file_name = cx.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match raw.value("name") {
        None | Some(Value::Null) => crate::discover::stem(&file_name).replace(' ', "_"),
        Some(v) => str_to_none(v)
            .ok_or_else(|| Failure::validation("'name' must be a non-empty string", raw.line("name")))?
            .replace(' ', "_"),
    };
    // 7. instruction
    let instruction = resolve_instruction(&raw, cx)?;
    // 8. description
    let description = values::Checker { raw: &raw }.optional_str("description")?;
    // 9. required fields
    for field in rules::required_fields(card_type) {
        if raw.present(field).is_none() {
            return Err(Failure::validation(
                format!("Missing required fields for type '{}': {field}", card_type.key()),
                raw.line(field).or(type_line),
            ));
        }
    }
    // 10. messages
    let message_files = message_files(&raw, card_type, cx)?;
    // 11-13. common attributes, AgentConfig, type-specific data
    let (config, mut data, references) = values::agent_data(&raw, card_type, &name, &instruction, cx)?;
    data.insert("schema_version".into(), schema_version);
    if !message_files.is_empty() {
        let keys: Vec<Json> = message_files.iter().map(|p| Json::String((cx.source_key)(p))).collect();
        data.insert("message_files".into(), Json::Array(keys));
    }
    let mut config = config;
    config.insert("description".into(), description.clone().map(Json::String).unwrap_or(Json::Null));
    let card = Card {
        name,
        name_line: raw.line("name"),
        card_type,
        headline: instruction.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim().into(),
        instruction: cx.prompts.from_file(cx.path, cx.bytes, &instruction),
        description: description.map(Arc::from),
        attributes: attributes.finish(),
        message_files,
        references,
        inline_history: std::mem::take(&mut raw.inline_history),
    };
    Ok((card, Stored { data, config }))
}

/// `_resolve_instruction_field` (and, for the RFC, the concatenation rule).
fn resolve_instruction(raw: &RawCard, cx: &CardContext) -> Result<String, Failure> {
    let attr_line = raw.line("instruction");
    let body = body_instruction(raw, cx.rule)?;
    let attr_value = raw.present("instruction");
    if cx.rule == InstructionRule::Released && attr_value.is_some() && !body.is_empty() {
        return Err(Failure::validation("Instruction cannot be provided in both body and 'instruction' field", attr_line));
    }
    let attribute = match attr_value {
        None => None,
        Some(Value::Str(s)) => Some(s.as_str()),
        Some(_) => return Err(Failure::validation("'instruction' must be a string", attr_line)),
    };
    let template = |text: &str, line: Option<u32>| {
        super::raw::apply_templates(text, cx.date).map_err(|url| {
            Failure::new(
                DiagKind::Io,
                format!("the instruction includes {{{{url:{url}}}}}, which fast-agent fetches over the network when loading; agentry never fetches"),
                line,
            )
        })
    };
    match cx.rule {
        InstructionRule::Released => {
            if let Some(text) = attribute {
                let resolved = template(strip_to_none(text).unwrap_or(""), attr_line)?;
                if strip_to_none(&resolved).is_none() {
                    return Err(Failure::validation("'instruction' must not be empty", attr_line));
                }
                return Ok(resolved);
            }
            if !body.is_empty() {
                return template(&body, Some(raw.body_line));
            }
            Ok(DEFAULT_INSTRUCTION.to_string())
        }
        InstructionRule::Rfc => {
            // The attribute first, then the body's system instruction, joined by a newline.
            let parts: Vec<&str> = attribute.and_then(strip_to_none).into_iter().chain((!body.is_empty()).then_some(body.as_str())).collect();
            if parts.is_empty() {
                return Ok(DEFAULT_INSTRUCTION.to_string());
            }
            template(&parts.join("\n"), attr_line.or(Some(raw.body_line)))
        }
    }
}

/// `_extract_body_instruction`: one leading `---SYSTEM` line is dropped; history
/// delimiters anywhere reject the card. Under the RFC the body was already split into
/// its system part by the bundle parser.
fn body_instruction(raw: &RawCard, rule: InstructionRule) -> Result<String, Failure> {
    let Some(body) = raw.body.as_deref() else { return Ok(String::new()) };
    if rule == InstructionRule::Rfc {
        return Ok(py::strip(body).to_string());
    }
    let lines = super::raw::splitlines(body);
    let Some(first) = lines.iter().position(|l| strip_to_none(l).is_some()) else { return Ok(String::new()) };
    let rest = if strip_to_none(lines[first]) == Some("---SYSTEM") { &lines[first + 1..] } else { &lines[first..] };
    if let Some(i) = rest.iter().position(|l| matches!(strip_to_none(l), Some("---USER" | "---ASSISTANT" | "---RESOURCE"))) {
        let offset = (lines.len() - rest.len() + i) as u32;
        return Err(Failure::validation(
            "Inline history blocks are not supported inside AgentCard body (fast-agent 0.10.48; the AgentCard RFC allows them)",
            Some(raw.body_line + offset),
        ));
    }
    Ok(py::strip(&rest.join("\n")).to_string())
}

/// `_resolve_message_files`: paths relative to the card's folder, which must exist.
fn message_files(raw: &RawCard, card_type: CardType, cx: &CardContext) -> Result<Vec<PathBuf>, Failure> {
    let line = raw.line("messages");
    let entries: Vec<&Value> = match raw.value("messages") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(v @ Value::Str(_)) => vec![v],
        Some(Value::Seq(items)) => items.iter().map(|n| &n.value).collect(),
        Some(_) => return Err(Failure::validation("'messages' must be a string or list", line)),
    };
    let folder = cx.path.parent().unwrap_or(Path::new("/"));
    let mut out = Vec::new();
    for entry in entries {
        let Value::Str(text) = entry else { return Err(Failure::validation("'messages' entries must be strings", line)) };
        if strip_to_none(text).is_none() {
            return Err(Failure::validation("'messages' entries must be strings", line));
        }
        // `Path.expanduser()` raises for `~name` when no such user is known (the
        // loader reports it as a failed card); agentry knows no other user's home.
        let first = text.split('/').next().unwrap_or("");
        if first.starts_with('~') && first != "~" {
            return Err(Failure::validation(format!("cannot expand {first:?} in 'messages' {text:?}: Could not determine home directory"), line));
        }
        let expanded = expand_user(text, cx.home);
        let candidate = if expanded.is_absolute() {
            expanded
        } else {
            let joined = crate::model::normalize(&folder.join(expanded));
            (cx.resolve)(&joined).unwrap_or(joined)
        };
        if !(cx.exists)(&candidate) {
            return Err(Failure::new(
                DiagKind::Missing,
                format!("History file not found for AgentCard '{}': {}", card_type.key(), candidate.display()),
                line,
            ));
        }
        out.push(candidate);
    }
    Ok(out)
}

/// `Path.expanduser()`: a leading `~` or `~/` becomes `home`.
pub fn expand_user(text: &str, home: &Path) -> PathBuf {
    if text == "~" {
        home.to_path_buf()
    } else if let Some(rest) = text.strip_prefix("~/") {
        home.join(rest)
    } else {
        PathBuf::from(text)
    }
}
