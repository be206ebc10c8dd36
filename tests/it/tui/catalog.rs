//! A hand-made catalog covering what the panes show: three frameworks, a winner
//! with a shadowed and an equivalent duplicate, an invalid definition, an
//! inheritance chain with inherited, merged and default fields, subagent edges (one
//! unresolved), a template error, warnings, and a prompt with escape sequences.

use std::path::PathBuf;
use std::sync::Arc;

use agentry::model::*;
use serde_json::json;

pub const PROJECT: &str = "/work/demo/project";

fn source(scope: Scope, rel: &str) -> Source {
    let root = match scope {
        Scope::Project => PROJECT.to_string(),
        Scope::User => "/home/ada".to_string(),
        Scope::Xdg => "/home/ada/.config".to_string(),
        Scope::Builtin => "/opt/venv/site-packages/fw/agents".to_string(),
    };
    Source { scope, path: PathBuf::from(format!("{root}/{rel}")).into(), rel: rel.to_string(), card: None }
}

fn field(key: &str, value: serde_json::Value, provenance: Provenance, sites: &[(&str, u32)], rule: &str) -> Arc<Field> {
    Arc::new(Field {
        key: key.to_string().into(),
        value: value.into(),
        origin: FieldOrigin {
            provenance,
            sites: sites.iter().map(|(s, l)| Site::new(&Arc::from(*s), Some(*l))).collect(),
            rule: rule.to_string().into(),
        },
    })
}

pub fn agent(eco: &'static str, name: &str, scope: Scope, rel: &str, status: Status) -> Agent {
    let src = source(scope, rel);
    let key = src.key();
    AgentRecord {
        undocumented_order: None,
        ecosystem: eco,
        kind: Default::default(),
        listed: None,
        name: name.into(),
        source: src,
        status,
        shadowed_by: None,
        rule: match status {
            Status::Wins => "project folders are searched before the user's".into(),
            Status::Shadowed => "the project definition of the same name is found first".into(),
            Status::Equivalent => "shadowed, but resolves to the same fields and prompt".into(),
            Status::Invalid => "failed to load".into(),
            Status::Held => "the project is not trusted".into(),
            Status::Skipped => "no `name` in the front matter".into(),
        },
        chain: Arc::new([key.clone()]),
        description: format!("{name} agent").into(),
        fields: vec![
            field("name", json!(name), Provenance::Own, &[(&key, 2)], "set in the file"),
            field("model", json!("gpt-5"), Provenance::Own, &[(&key, 3)], "set in the file"),
        ]
        .into(),
        attributes: vec![Attribute::new("name", 2, json!(name))].into(),
        system_prompt: Some(format!("# {name}\n\nYou review code.\n- be kind\n- be precise\n").into()),
        messages: Arc::default(),
        edges: Arc::default(),
    }
    .into()
}

/// The catalog; `extra` agents are added to the front of the OpenHands report (to
/// test that a selection survives a snapshot where positions move).
/// Appends to one of an agent's shared lists (built once here, so no copy is shared).
fn push<T: Clone>(list: &mut Arc<[T]>, item: T) {
    let mut items = list.to_vec();
    items.push(item);
    *list = items.into();
}

/// Appends to an agent's packed fields.
fn push_field(fields: &mut Fields, field: Arc<Field>) {
    *fields = fields.iter().chain([Field::clone(&field)]).collect();
}

pub fn catalog(generation: u64, extra: Vec<Agent>) -> Arc<Catalog> {
    let mut reviewer = agent("openhands", "reviewer", Scope::Project, ".openhands/agents/reviewer.md", Status::Wins);
    let key = reviewer.source.key();
    push_field(&mut reviewer.fields, field(
        "tools",
        json!(["read", "grep"]),
        Provenance::Own,
        &[(&key, 4)],
        "set in the file",
    ));
    let mut shadowed = agent("openhands", "reviewer", Scope::User, ".openhands/agents/reviewer.md", Status::Shadowed);
    shadowed.shadowed_by = Some(reviewer.source.key());
    let mut fields: Vec<Field> = shadowed.fields.iter().collect();
    fields[1].value = json!("gpt-4o").into();
    shadowed.fields = fields.into();
    let key = shadowed.source.key();
    push_field(&mut shadowed.fields, field(
        "tools",
        json!(["read", "bash"]),
        Provenance::Own,
        &[(&key, 4)],
        "set in the file",
    ));
    shadowed.system_prompt = Some("# reviewer\n\nYou review code quickly.\n- be kind\n".into());
    let mut equivalent = agent("openhands", "reviewer", Scope::Builtin, "reviewer.md", Status::Equivalent);
    equivalent.shadowed_by = Some(reviewer.source.key());
    equivalent.fields = reviewer.fields.clone();
    let planner = agent("openhands", "planner", Scope::Project, ".openhands/agents/planner.md", Status::Wins);
    let mut broken = agent("openhands", "broken", Scope::Project, ".openhands/agents/broken.md", Status::Invalid);
    broken.fields = Fields::default();
    broken.system_prompt = None;
    let mut evil =
        agent("openhands", "evil\x1b]0;pwned\x07name", Scope::Project, ".openhands/agents/evil.md", Status::Wins);
    evil.description = "tries \x1b[2J to clear the screen".into();
    evil.system_prompt = Some("hello \x1b]52;c;SGVsbG8=\x07 world\n\u{202e}reversed\n".into());

    let mut oh = EcosystemReport::new("openhands");
    oh.agents = extra;
    oh.agents.extend([reviewer, shadowed, equivalent, planner, broken, evil]);
    oh.diagnostics.push(
        Diagnostic::error(
            "openhands",
            DiagKind::Parse,
            format!("{PROJECT}/.openhands/agents/broken.md"),
            "mapping values are not allowed here",
        )
        .at(Some(3), Some(7))
        .failing("project:.openhands/agents/broken.md"),
    );

    let base = agent("tsugite", "base", Scope::Project, ".tsugite/base.md", Status::Wins);
    let base_key = base.source.key();
    let mut coder = agent("tsugite", "coder", Scope::Project, ".tsugite/coder.md", Status::Wins);
    let coder_key = coder.source.key();
    coder.chain = Arc::new([coder_key.clone(), base_key.clone()]);
    push(&mut coder.edges, Edge { kind: EdgeKind::Extends, name: "base".into(), target: Some(base_key.clone()) });
    push_field(&mut coder.fields, field(
        "tools",
        json!(["read", "write", "run"]),
        Provenance::Merged,
        &[(&base_key, 4), (&coder_key, 6)],
        "union of base.md:4 and coder.md:6",
    ));
    push_field(&mut coder.fields, field(
        "max_turns",
        json!(20),
        Provenance::Inherited,
        &[(&base_key, 5)],
        "inherited: the child does not set it",
    ));
    push_field(&mut coder.fields, Arc::new(Field::new("temperature", json!(0.2), FieldOrigin::default("framework default"))));
    push(&mut coder.messages, Message {
        role: "user".into(),
        label: None,
        text: "Implement the task: <user prompt>\n".into(),
    });
    let mut ts = EcosystemReport::new("tsugite");
    ts.agents = vec![coder, base];
    ts.diagnostics.push(
        Diagnostic::error(
            "tsugite",
            DiagKind::Template,
            format!("{PROJECT}/.tsugite/coder.md"),
            "undefined variable `task`",
        )
        .at(Some(9), None),
    );

    let mut main = agent("kimi", "main", Scope::Project, ".kimi/agent.yaml", Status::Wins);
    push(&mut main.edges, Edge {
        kind: EdgeKind::Subagent,
        name: "helper".into(),
        target: Some("project:.kimi/helper.yaml".into()),
    });
    push(&mut main.edges, Edge { kind: EdgeKind::Subagent, name: "ghost".into(), target: None });
    main.system_prompt = None;
    let helper = agent("kimi", "helper", Scope::Project, ".kimi/helper.yaml", Status::Wins);
    let mut kimi = EcosystemReport::new("kimi");
    kimi.agents = vec![main, helper];
    kimi.diagnostics.push(
        Diagnostic::warning(
            "kimi",
            DiagKind::Missing,
            format!("{PROJECT}/.kimi/agent.yaml"),
            "subagent `ghost` not found",
        )
        .at(Some(12), None),
    );

    Arc::new(Catalog {
        generation,
        roots: Roots::new(PROJECT.into(), "/home/ada".into(), "/home/ada/.config".into(), None),
        reports: vec![std::sync::Arc::new(oh), std::sync::Arc::new(ts), std::sync::Arc::new(kimi)],
    })
}
