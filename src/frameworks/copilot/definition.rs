//! One agent file as the CLI loads it: its parse (memoized per version of the
//! file), the fields its `session.custom_agents_updated` event shows, the keys as
//! written, and the sub-agent's tools.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;

use super::frontmatter::{self, Failure};
use super::schema::{self, Definition};
use super::{tools, ID};
use crate::discover::{self, Hold, ReadError};
use crate::frameworks::LoadContext;
use crate::model::{Agent, AgentRecord, DiagKind, Field, FieldOrigin, Source, Status, Text};

/// A file that loaded: what the CLI shows of it, its prompt and its sub-agent's
/// tools.
pub struct Loaded {
    pub def: Definition,
    pub prompt: Text,
    pub effective: Vec<&'static str>,
}

pub type Outcome = Result<Loaded, Failure>;

pub fn parse_file(cx: &LoadContext, path: &Path, id: &str) -> Arc<Outcome> {
    let context = discover::hash_key((cx.key, ID, id));
    cx.files
        .parse(path, Hold::Not, context, |bytes| {
            let split = frontmatter::split(bytes)?;
            let def = schema::check(&split, id)?;
            let prompt = cx.prompts.from_file(path, bytes, &split.body);
            let effective = tools::effective(&def.tools, def.body_is_empty);
            Ok(Loaded { def, prompt, effective })
        })
        .unwrap_or_else(|e| {
            let message = match e {
                ReadError::NotFound => "no such file (it went away while being read)".to_string(),
                other => format!("cannot read the file: {other}"),
            };
            Arc::new(Err(Failure { kind: DiagKind::Io, message, line: None, col: None }))
        })
}

/// One agent file's bytes read as the CLI reads them (front matter, keys, tools),
/// as if it had the ID `id`: the fields it loads with, or the tool's message.
/// For the fuzz target and the tests; the reader goes through the file cache.
#[doc(hidden)]
pub fn read_bytes(bytes: &[u8], id: &str) -> Result<Vec<Field>, String> {
    let split = frontmatter::split(bytes).map_err(|f| f.message)?;
    let def = schema::check(&split, id).map_err(|f| f.message)?;
    let effective = tools::effective(&def.tools, def.body_is_empty);
    let loaded = Loaded { prompt: Text::held(split.body.as_str()), def, effective };
    Ok(fields(&loaded, &Arc::from(format!("project:.github/agents/{id}.agent.md"))))
}

/// The fields the CLI's event shows for a loaded file, plus the sub-agent's tools.
fn fields(loaded: &Loaded, source: &Arc<str>) -> Vec<Field> {
    let def = &loaded.def;
    let line = |key: &str| def.line(key);
    let own = |key: &str, rule: &'static str| FieldOrigin::own(source, line(key), rule);
    let mut out = vec![Field::new("description", json!(def.description), own("description", "set by `description`"))];
    let dmi_origin = match (line("disable-model-invocation"), line("infer")) {
        (Some(l), _) => FieldOrigin::own(source, Some(l), "set by `disable-model-invocation` (it wins over `infer`)"),
        (None, Some(l)) => FieldOrigin::own(source, Some(l), "`infer: false` hides the agent from the model"),
        (None, None) => FieldOrigin::default("default: false (the model may call it)"),
    };
    out.push(Field::new("disableModelInvocation", json!(def.disable_model_invocation), dmi_origin));
    if let Some(models) = &def.models {
        if let Some(first) = models.first() {
            out.push(Field::new("model", json!(first), own("model", "set by `model` (its first entry)")));
        }
        out.push(Field::new("models", json!(models), own("model", "set by `model`, in order")));
    }
    let name_origin = if def.keys.lines().position(|(k, _)| k == "name").and_then(|i| def.keys.get(i)).is_some_and(|k| k.value.as_str().is_some_and(|s| !s.is_empty())) {
        own("name", "set by `name`: the name the model calls it by (the ID stays the path)")
    } else {
        FieldOrigin::default("default: the ID (no `name`, or an empty one)")
    };
    out.push(Field::new("name", json!(def.name), name_origin));
    let tools_origin = if def.tools_given {
        own("tools", "set by `tools` (as written; a string is split at commas)")
    } else {
        FieldOrigin::default("default: `*`, every tool (no `tools`)")
    };
    out.push(Field::new("tools", json!(def.tools), tools_origin));
    let ui_origin = match line("user-invocable") {
        Some(l) => FieldOrigin::own(source, Some(l), "set by `user-invocable`"),
        None => FieldOrigin::default("default: true"),
    };
    out.push(Field::new("userInvocable", json!(def.user_invocable), ui_origin));
    let effective_rule = if def.body_is_empty {
        "the body is empty: the sub-agent gets every tool of the session, whatever `tools` says"
    } else if tools::is_all(&def.tools) {
        "`*`: every tool of the session (offline: no GitHub or web tools)"
    } else {
        "`tools` mapped to the session's tools (aliases and Claude names, any case; unknown names give nothing)"
    };
    let effective_origin = match line("tools") {
        Some(l) => FieldOrigin::own(source, Some(l), effective_rule),
        None => FieldOrigin::default(effective_rule),
    };
    out.push(Field::new("effective_tools", json!(loaded.effective), effective_origin));
    out
}

fn attributes(def: &Definition) -> crate::model::Attributes {
    def.keys.clone()
}

pub fn loaded_agent(id: &str, source: Source, loaded: &Loaded) -> Agent {
    let key: Arc<str> = source.key().into();
    AgentRecord {
        description: loaded.def.description.as_str().into(),
        fields: fields(loaded, &key).into_iter().collect(),
        attributes: attributes(&loaded.def),
        system_prompt: Some(loaded.prompt.clone()),
        ..AgentRecord::new(ID, id.to_string(), source, Status::Wins, String::new())
    }
    .into()
}

