//! One file found in a place, turned into agentry's record: what the tool makes of
//! it (a definition, a silent skip, a logged rejection), its fields with their lines,
//! and the diagnostics that explain it.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::definition::{self, Definition, Outcome, Rejection};
use super::scan::{Found, Problem};
use super::{tools, ID};
use crate::discover::{self, Hold, ReadError};
use crate::frameworks::LoadContext;
use crate::model::{Agent, AgentRecord, DiagKind, Diagnostic, Field, FieldOrigin, Source, Status, Text};

/// What the builder needs of the place a file was found in.
pub struct PlaceView<'a> {
    pub held: bool,
    /// The plugin's name and folder, for a plugin's agent.
    pub plugin: Option<(&'a str, &'a Path)>,
}

/// A file that does not load: named by its file name.
pub fn unloaded(f: &Found, source: Source, status: Status, rule: &str) -> Agent {
    Agent::new(ID, f.stem.clone(), source, status, rule.to_string())
}

/// A file's parse, kept per version of the file.
struct Parsed {
    outcome: Outcome,
    prompt: Option<Text>,
}

/// A file's agent, its diagnostics, and (for one that loads) its line in the model's
/// listing of agents, after `- NAME: `.
pub fn from_file(cx: &LoadContext, place: PlaceView, f: &Found, source: Source) -> (Agent, Vec<Diagnostic>, Option<String>) {
    let key = source.key();
    let path: &Path = &f.path;
    let io = |message: String| {
        let d = Diagnostic::error(ID, DiagKind::Io, path, message).failing(key.clone());
        (unloaded(f, source.clone(), Status::Invalid, "failed to load: Claude Code cannot read the file and skips it"), vec![d], None)
    };
    match &f.problem {
        Some(Problem::Dangling) => return io(format!("Failed to follow symlink {}: it leads nowhere", path.display())),
        Some(Problem::NotRegular) => return io("not a regular file: Claude Code skips it".into()),
        Some(Problem::PluginFolderPassedOver) => {
            let why = "inside a linked folder, `node_modules` or `.mcpb-cache`: Claude Code's plugin walk does not enter those folders and says nothing";
            let d = Diagnostic::skipped(ID, path, why).failing(key);
            return (unloaded(f, source, Status::Skipped, &format!("skipped: {why}")), vec![d], None);
        }
        Some(Problem::PluginLink) => {
            let why = "a symlink or not a regular file: Claude Code's plugin walk reads only regular files and passes over links without a word";
            let d = Diagnostic::skipped(ID, path, why).failing(key);
            return (unloaded(f, source, Status::Skipped, &format!("skipped: {why}")), vec![d], None);
        }
        None => {}
    }
    let plugin = place.plugin.map(|(n, r)| (n.to_string(), r.to_path_buf()));
    let namespace = f.namespace.clone();
    let stem = f.stem.clone();
    let prompts = cx.prompts;
    let context = discover::hash_key((ID, plugin.as_ref().map(|(n, r)| (n.clone(), r.clone())), &namespace, &stem, format!("{prompts:?}")));
    let too_large = |n: u64| format!("skipping: {n} bytes exceeds the {} byte limit Claude Code reads", definition::MAX_BYTES);
    let parsed = cx.files.parse(path, Hold::Not, context, |bytes| {
        if bytes.len() as u64 > definition::MAX_BYTES {
            return Parsed { outcome: Outcome::TooLarge(bytes.len() as u64), prompt: None };
        }
        let mut outcome = match &plugin {
            Some((name, root)) => {
                Outcome::Agent(Box::new(definition::parse_plugin_file(bytes, name, &namespace, &stem, &root.to_string_lossy())))
            }
            None => definition::parse_file(bytes),
        };
        let prompt = match &mut outcome {
            // The body is kept only as the prompt text (on disk in the explorer).
            Outcome::Agent(d) => Some(prompts.from_file(path, bytes, &std::mem::take(&mut d.prompt))),
            _ => None,
        };
        Parsed { outcome, prompt }
    });
    let parsed = match parsed {
        Ok(p) => p,
        Err(ReadError::NotFound) => return io(format!("Failed to follow symlink {}: no such file", path.display())),
        Err(ReadError::TooLarge(n)) => return io(too_large(n)),
        Err(e) => return io(format!("Failed to read {}: {e}", path.display())),
    };
    match &parsed.outcome {
        Outcome::TooLarge(n) => io(too_large(*n)),
        Outcome::Silent(why) => {
            let d = Diagnostic::ignored_definition(ID, path, why.clone()).failing(key);
            (unloaded(f, source, Status::Skipped, &format!("skipped: {why}")), vec![d], None)
        }
        Outcome::Rejected { kind, message, line } => {
            let kind = match kind {
                Rejection::Parse => DiagKind::Parse,
                Rejection::Validation => DiagKind::Validation,
            };
            let d = Diagnostic::error(ID, kind, path, message.clone()).at(*line, None).failing(key);
            (unloaded(f, source, Status::Invalid, "failed to load: Claude Code logs the reason in its debug log and skips the file"), vec![d], None)
        }
        Outcome::Agent(def) => {
            let diags = def
                .warnings
                .iter()
                .map(|(m, line)| {
                    let kind = if m.contains("lenient retry") { DiagKind::Ambiguous } else { DiagKind::Validation };
                    Diagnostic::warning(ID, kind, path, m.clone()).at(*line, None)
                })
                .collect();
            let mut diags: Vec<Diagnostic> = diags;
            let plan = place.plugin.is_none() && def.permission_mode.as_deref() == Some("plan");
            let eff = tools::effective(&def.name, &def.tools, def.disallowed.as_deref(), plan);
            if !eff.unknown.is_empty() && eff.refused.is_none() {
                let mcp = eff.unknown.iter().any(|t| t.starts_with("mcp__"));
                let why = if mcp { " (MCP tools depend on the configured servers, which agentry does not read)" } else { "" };
                let msg = format!("`tools` names tools Claude Code does not know, which it drops: {}{why}", eff.unknown.join(", "));
                diags.push(Diagnostic::warning(ID, DiagKind::Validation, path, msg).at(definition_line(def, "tools"), None));
            }
            let line = super::listing::line(&def.description, &def.tools, def.disallowed.as_deref());
            (loaded(def, parsed.prompt.clone(), source, &place), diags, Some(line))
        }
    }
}

fn loaded(def: &Definition, prompt: Option<Text>, source: Source, place: &PlaceView) -> Agent {
    let key: Arc<str> = source.key().into();
    let line = |k: &str| definition_line(def, k);
    let own = |k: &str, rule: &'static str| FieldOrigin::own(&key, line(k), rule);
    let mut fields: Vec<Field> = Vec::new();
    let desc_origin = if def.has("description") {
        own("description", "set here (a literal \\n becomes a line break)")
    } else {
        FieldOrigin::default("Claude Code's placeholder for a plugin agent without a description")
    };
    fields.push(Field::new("description", json!(def.description), desc_origin));
    let model = match &def.model {
        Some(m) => Field::new("model", json!(m), own("model", "set here (trimmed; `inherit` in any case is `inherit`)")),
        None => Field::new("model", Json::Null, FieldOrigin::default("none kept: the subagent runs on the parent's model")),
    };
    fields.push(model);
    let plan = place.plugin.is_none() && def.permission_mode.as_deref() == Some("plan");
    let eff = tools::effective(&def.name, &def.tools, def.disallowed.as_deref(), plan);
    let tools_rule = match (&def.tools, def.has("tools")) {
        (tools::ToolList::All, false) => "default: the subagent tool set of Claude Code 2.1.337 (print mode), less `disallowedTools`",
        (tools::ToolList::All, true) => "`*`: the default subagent tool set, less `disallowedTools`",
        _ => "the named tools Claude Code knows (split on commas and spaces; names it does not know are dropped, MCP tools among them since agentry does not read the servers; Grep and Glob are dropped when Bash is granted, as Claude Code does), less `disallowedTools`",
    };
    let tools_origin = if def.has("tools") || def.has("disallowedTools") {
        FieldOrigin::own(&key, line("tools").or_else(|| line("disallowedTools")), tools_rule)
    } else {
        FieldOrigin::default(tools_rule)
    };
    fields.push(Field::new("tools", json!(eff.tools), tools_origin));
    if let Some(refused) = &eff.refused {
        fields.push(Field::new("spawn_error", json!(refused), own("tools", "Claude Code lists the agent but refuses to start it")));
    }
    for k in definition::UNCHECKED {
        if let Some(v) = def.value(k) {
            let rule = if place.plugin.is_some() && ["permissionMode", "hooks", "mcpServers", "initialPrompt"].contains(k) {
                "as written; ignored for plugin agents"
            } else {
                "as written; not checked against the tool (Claude Code never shows what it made of it)"
            };
            fields.push(Field::new(*k, v, own(k, rule)));
        }
    }
    let (status, rule) = if place.held {
        (Status::Held, "held: the project is not trusted, and Claude Code loads plugins from the project's .claude/skills only in a trusted folder".to_string())
    } else {
        (Status::Wins, String::new())
    };
    AgentRecord {
        ecosystem: ID,
        kind: crate::model::Kind::Agent,
        name: def.name.clone(),
        chain: Arc::new([source.key()]),
        source,
        status,
        shadowed_by: None,
        rule,
        undocumented_order: None,
        description: def.description.as_str().into(),
        fields: fields.into(),
        attributes: def.frontmatter.clone(),
        system_prompt: prompt,
        listed: None,
        messages: Arc::default(),
        edges: Arc::default(),
    }
    .into()
}

fn definition_line(def: &Definition, key: &str) -> Option<u32> {
    def.key_line(key)
}
