use std::borrow::Cow;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value as Json;

use super::{Attributes, CompactJson, Fields, Source, Text, TextError};

/// What became of one definition. `Equivalent` is a shadowed definition that resolves
/// to exactly what the winner resolves to; `Invalid` is a definition the framework
/// could not load (it does not take part in precedence unless the framework says so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    Wins,
    Shadowed,
    Equivalent,
    Invalid,
    /// Found, but not loaded: the project is untrusted or the definition not
    /// acknowledged (the tool would load it once the user says yes).
    Held,
    /// In a place the tool scans, but ignored without telling the user; the reason is
    /// the definition's diagnostic (kind `skipped`).
    Skipped,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Wins => "WINS",
            Status::Shadowed => "SHADOWED",
            Status::Equivalent => "EQUIVALENT",
            Status::Invalid => "INVALID",
            Status::Held => "HELD",
            Status::Skipped => "SKIPPED",
        }
    }

    /// Every status word with one line of meaning (the explorer's `?` legend).
    pub const LEGEND: &'static [(&'static str, &'static str)] = &[
        ("WINS", "the definition the tool uses for this name"),
        ("SHADOWED", "another definition of the name wins over this one"),
        ("EQUIVALENT", "loses to a definition with the same content: nothing changes"),
        ("INVALID", "the tool cannot load this file (see its diagnostic)"),
        ("HELD", "loaded once the project is trusted (acknowledged)"),
        ("SKIPPED", "in a place the tool scans, but ignored without a word"),
    ];

    /// The framework's view: the one it uses for the name, or one it does not.
    pub fn is_active(self) -> bool {
        self == Status::Wins
    }

    /// A definition the tool did not load at all (it takes no part in precedence).
    pub fn is_unloaded(self) -> bool {
        matches!(self, Status::Invalid | Status::Skipped)
    }
}

/// What a definition defines: an agent, or a skill (a `SKILL.md` folder, a command
/// file) the model is told about and loads when it needs it. Both kinds rank on the
/// same engine and show in the same views; a name is shared only within a kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    #[default]
    Agent,
    Skill,
}

impl Kind {
    pub fn word(self) -> &'static str {
        match self {
            Kind::Agent => "agent",
            Kind::Skill => "skill",
        }
    }

    pub fn is_agent(&self) -> bool {
        *self == Kind::Agent
    }

    /// `agent` or `skill`, as `--kind` takes it.
    pub fn parse(word: &str) -> Option<Kind> {
        match word.to_ascii_lowercase().trim_end_matches('s') {
            "agent" => Some(Kind::Agent),
            "skill" => Some(Kind::Skill),
            _ => None,
        }
    }
}

/// One file position that contributed to a field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Site {
    /// The source key of the file (`project:agents/a.md`), one for all the sites
    /// of the file's fields.
    pub source: Arc<str>,
    /// 1-based line of the key, when the value came from a file.
    pub line: Option<u32>,
}

impl Site {
    pub fn new(source: &Arc<str>, line: Option<u32>) -> Site {
        Site { source: Arc::clone(source), line }
    }
}

/// `project:a.md:4`, or the source key alone when there is no line.
impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}", self.source),
            None => f.write_str(&self.source),
        }
    }
}

/// How a field got its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    /// Set by the definition itself.
    Own,
    /// Taken unchanged from an ancestor.
    Inherited,
    /// Combined from several files of the chain.
    Merged,
    /// Not written anywhere: the framework's default.
    Default,
}

impl Provenance {
    pub fn word(self) -> &'static str {
        match self {
            Provenance::Own => "own",
            Provenance::Inherited => "inherited",
            Provenance::Merged => "merged",
            Provenance::Default => "default",
        }
    }
}

/// Where an effective field came from: the files and lines, and the rule in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldOrigin {
    pub provenance: Provenance,
    /// Mostly none or one: a boxed slice has no room to spare.
    pub sites: Box<[Site]>,
    /// Most rules are fixed words ("framework default"), borrowed rather than
    /// copied into each of the many fields that share them.
    pub rule: Cow<'static, str>,
}

impl FieldOrigin {
    pub fn own(source: &Arc<str>, line: Option<u32>, rule: impl Into<Cow<'static, str>>) -> FieldOrigin {
        FieldOrigin {
            provenance: Provenance::Own,
            sites: Box::new([Site::new(source, line)]),
            rule: rule.into(),
        }
    }

    pub fn inherited(source: &Arc<str>, line: Option<u32>, rule: impl Into<Cow<'static, str>>) -> FieldOrigin {
        FieldOrigin { provenance: Provenance::Inherited, ..FieldOrigin::own(source, line, rule) }
    }

    pub fn default(rule: impl Into<Cow<'static, str>>) -> FieldOrigin {
        FieldOrigin { provenance: Provenance::Default, sites: Box::default(), rule: rule.into() }
    }
}

/// An effective field, with the framework's own key name and JSON type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    /// Mostly one of the framework's fixed names, borrowed.
    pub key: Cow<'static, str>,
    pub value: CompactJson,
    pub origin: FieldOrigin,
}

impl Field {
    pub fn new(key: impl Into<Cow<'static, str>>, value: Json, origin: FieldOrigin) -> Field {
        Field { key: key.into(), value: value.into(), origin }
    }
}

/// A key as written in the definition's own file, before any coercion.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attribute {
    pub key: Arc<str>,
    pub line: u32,
    pub value: CompactJson,
}

impl Attribute {
    pub fn new(key: &str, line: u32, value: Json) -> Attribute {
        Attribute { key: key.into(), line, value: value.into() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// Inherits from the target (tsugite `extends`, kimi `extend`).
    Extends,
    /// Delegates to the target (kimi subagents).
    Subagent,
    /// Calls the target as a step of a workflow (fast-agent workflow cards).
    Workflow,
    /// Preloads the target skill (a subagent's `skills:` list); the target is the
    /// skill definition the name resolves to, `None` when it resolves to none.
    Skill,
}

/// A link from one agent to another, for the hierarchy tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Edge {
    pub kind: EdgeKind,
    /// The name as written in the definition.
    pub name: String,
    /// The source key of the definition it reaches, when one was found.
    pub target: Option<String>,
}

/// A message the model reads besides the system prompt: a history entry, the first
/// user message, or one named step of a multi-step agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Message {
    /// `user`, `assistant`, … as the framework names it.
    pub role: String,
    /// A name for a part of a larger prompt (a step), when there is one.
    pub label: Option<String>,
    /// Held shared: tsugite's first user message is mostly its file's body as
    /// parsed, which the loader keeps for refresh. The explorer leaves a rendered one
    /// on disk in pieces ([`Text::from_rendering`]).
    pub text: Text,
}

/// One definition of an agent, resolved: a shared handle on its [`AgentRecord`].
///
/// Shared because the same definition is held by a framework's memo, the report
/// built from it and every snapshot after: each of them holds a pointer, not a copy
/// of the record with its name, paths, rule and description (a copy per holder was
/// about a tenth of the memory after loading a large workspace). Reading goes
/// through `Deref`; writing (`DerefMut`) copies the record first when another holder
/// shares it, so no holder sees another's change.
#[derive(Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Agent(Arc<AgentRecord>);

impl std::ops::Deref for Agent {
    type Target = AgentRecord;
    fn deref(&self) -> &AgentRecord {
        &self.0
    }
}

impl std::ops::DerefMut for Agent {
    fn deref_mut(&mut self) -> &mut AgentRecord {
        Arc::make_mut(&mut self.0)
    }
}

impl From<AgentRecord> for Agent {
    fn from(record: AgentRecord) -> Agent {
        Agent(Arc::new(record))
    }
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// What one definition of an agent resolved to (held through [`Agent`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentRecord {
    /// The tool (reader id) the definition is of; `tool` in agentry's JSON.
    #[serde(rename = "tool")]
    pub ecosystem: &'static str,
    /// An agent or a skill: the name is the definition's within its kind.
    pub kind: Kind,
    pub name: String,
    pub source: Source,
    pub status: Status,
    /// The winner's source key, for shadowed definitions.
    pub shadowed_by: Option<String>,
    /// Why this definition wins or loses, in words.
    pub rule: String,
    /// Set when the tool picked the winner by an order its documentation does not
    /// promise (a folder's listing order): that order, in words.
    pub undocumented_order: Option<Arc<str>>,
    // What the definition resolves to is shared (`Arc`), not owned: a framework's
    // memo, the report built from it and every snapshot after hold one copy, so a
    // refresh that rebuilds a report copies pointers, not prompts and fields.
    /// Source keys from this definition up to its root ancestor.
    pub chain: Arc<[String]>,
    /// Shared with the parse it came from, which the loader keeps for refresh.
    pub description: Arc<str>,
    /// Packed: read one by one, they unpack ([`Fields`]).
    pub fields: Fields,
    pub attributes: Attributes,
    /// The effective system prompt (for a skill: the body the model receives when
    /// it invokes the skill), or `None` where it cannot be known without running
    /// tools or a model.
    pub system_prompt: Option<Text>,
    /// Whether the tool tells its model this definition exists (its listing of
    /// agents or skills); `None` where the reader does not know the listing.
    pub listed: Option<bool>,
    /// What else the model reads, in order (history, then the first user message).
    pub messages: Arc<[Message]>,
    pub edges: Arc<[Edge]>,
}

impl Agent {
    /// A definition with nothing resolved yet: no fields, no prompt, no links. The
    /// chain is the definition itself.
    pub fn new(ecosystem: &'static str, name: String, source: Source, status: Status, rule: String) -> Agent {
        AgentRecord::new(ecosystem, name, source, status, rule).into()
    }

    /// A skill with nothing resolved yet ([`Agent::new`] of kind [`Kind::Skill`]).
    pub fn skill(ecosystem: &'static str, name: String, source: Source, status: Status, rule: String) -> Agent {
        AgentRecord { kind: Kind::Skill, ..AgentRecord::new(ecosystem, name, source, status, rule) }.into()
    }
}

impl AgentRecord {
    /// [`Agent::new`]'s record, for filling in before it is shared.
    pub fn new(ecosystem: &'static str, name: String, source: Source, status: Status, rule: String) -> AgentRecord {
        AgentRecord {
            ecosystem,
            kind: Kind::Agent,
            name,
            chain: Arc::new([source.key()]),
            source,
            status,
            shadowed_by: None,
            rule,
            undocumented_order: None,
            description: Arc::default(),
            fields: Fields::default(),
            attributes: Attributes::default(),
            system_prompt: None,
            listed: None,
            messages: Arc::default(),
            edges: Arc::default(),
        }
    }

    pub fn id(&self) -> String {
        format!("{}:{}", self.ecosystem, self.source.key())
    }

    /// The name a row shows: the name as the tool has it, or, when that is empty or
    /// blank (Kimi takes `name: ""` as a label), the file's stem marked as such, so
    /// no row is without a name. The reports keep the name as the tool has it.
    pub fn shown_name(&self) -> std::borrow::Cow<'_, str> {
        if !self.name.trim().is_empty() {
            return self.name.as_str().into();
        }
        let file = self.source.rel.rsplit('/').next().unwrap_or_default();
        format!("{} (file stem: no name)", super::stem(file)).into()
    }

    /// Everything the model reads from this definition, as one text: the system
    /// prompt, then each other message under a `--- ROLE message[: LABEL] ---` heading
    /// (as `agentry show` prints them). `None` when none of it can be known without
    /// running the agent. A prompt or message kept on disk is read here.
    pub fn model_text(&self) -> Result<Option<String>, TextError> {
        if self.system_prompt.is_none() && self.messages.is_empty() {
            return Ok(None);
        }
        let mut text = match &self.system_prompt {
            Some(p) => p.read()?.into_owned(),
            None => String::new(),
        };
        for m in self.messages.iter() {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            match &m.label {
                Some(label) => text.push_str(&format!("--- {} message: {label} ---\n", m.role)),
                None => text.push_str(&format!("--- {} message ---\n", m.role)),
            }
            text.push_str(&m.text.read()?);
        }
        Ok(Some(text))
    }

    pub fn field(&self, key: &str) -> Option<Field> {
        self.fields.find(key)
    }
}
