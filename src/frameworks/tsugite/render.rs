//! `AgentPreparer.prepare(skip_tool_directives=True, skip_exec_directives=True)`, the
//! `tsugite render --no-exec` path, with nothing run: prefetch and attachment
//! variables get the package's validation mocks, tool and exec directives its
//! render-mode placeholders, steps `mock_step_result`; `run_if` may skip the agent;
//! tools are expanded over the registry; then the body (the user message) and the
//! instructions (the agent's part of the system message) are rendered.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use minijinja::{Environment, Value};
use serde_json::{json, Map as JsonMap, Value as Json};

use super::directives;
use super::jinja::{self, World};
use super::parse::Config;
use super::tools;

/// The fixed inputs of one render.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub user_prompt: String,
    /// The `CWD` template variable.
    pub cwd: String,
    pub interactive: bool,
    pub world: World,
}

/// What tsugite would send, for an agent that is not skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// `combined_instructions`: the rendered, stripped `instructions`.
    pub instructions: String,
    /// The rendered body, sent as the first user message: the body itself (shared)
    /// when it renders to itself.
    pub user_message: Arc<str>,
    /// The body's `tsu:step` sections, by name (empty for single-step agents).
    pub steps: Vec<(String, String)>,
}

/// Why rendering failed: which template, the line inside it, the message.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderError {
    pub part: Part,
    pub line: Option<u32>,
    pub message: String,
    /// Fuel or output cap reached (agentry's bound, not a tsugite error).
    pub bounded: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Body,
    Instructions,
    Tools,
    /// The template context itself (a prefetch `assign` Python cannot use as a key).
    Prefetch,
}

fn strings(v: &Json) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}

/// `build_validation_test_context(agent)`: the stand-ins tsugite uses when it
/// validates a template, which the oracle uses instead of running prefetch tools.
fn validation_mocks(config: &Config) -> JsonMap<String, Json> {
    let name = config
        .str_of("name")
        .filter(|n| !n.is_empty())
        .unwrap_or("test");
    let mut m = JsonMap::new();
    m.insert("user_prompt".into(), json!("test"));
    m.insert("agent_name".into(), json!(name));
    for key in [
        "is_interactive",
        "is_daemon",
        "is_scheduled",
        "has_notify_tool",
        "is_subagent",
    ] {
        m.insert(key.into(), json!(false));
    }
    m.insert("schedule_id".into(), json!(""));
    m.insert("conversation_id".into(), json!(""));
    m.insert("tools".into(), config.get("tools").clone());
    m.insert("parent_agent".into(), Json::Null);
    m.insert("chat_history".into(), json!([]));
    for item in config.get("prefetch").as_array().into_iter().flatten() {
        let Some(assign) = item.get("assign").filter(|a| py_truthy(a)).and_then(Json::as_str) else {
            continue;
        };
        let mock = match assign {
            "available_skills" => {
                json!([{"name": "mock_skill", "description": "Mock skill for validation"}])
            }
            "failed_skills" => json!([{
                "name": "mock_failed", "source": "scan", "path": "/tmp/SKILL.md",
                "severity": "warning", "message": "Mock failure for validation"
            }]),
            "available_agents" => json!(AGENTS_MOCK),
            _ => json!("mock_prefetch_data"),
        };
        m.insert(assign.into(), mock);
    }
    for (name, value) in attachment_mocks(config) {
        m.insert(name, value);
    }
    m
}

const AGENTS_MOCK: &str = "- **mock_agent**: Mock agent for validation";

fn attachment_mocks(config: &Config) -> Vec<(String, Json)> {
    let mut out = Vec::new();
    for item in config.get("attachments").as_array().into_iter().flatten() {
        let Some(assign) = item.get("assign").and_then(Json::as_str) else {
            continue;
        };
        let path = item.get("path").and_then(Json::as_str).unwrap_or_default();
        let value = if item.get("mode").and_then(Json::as_str) == Some("index") {
            json!([{"path": "mock/path.md", "heading": "Mock", "size_bytes": 0, "mtime": 0}])
        } else if path.contains(['*', '?', '[']) {
            json!([{"path": "mock/path.md", "content": "mock content"}])
        } else {
            json!("mock attachment content")
        };
        out.push((assign.to_string(), value));
    }
    out
}

/// Python's truth value of a YAML value as tsugite holds it.
fn py_truthy(v: &Json) -> bool {
    match v {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(n) => n.as_f64() != Some(0.0),
        Json::String(s) => !s.is_empty(),
        Json::Array(a) => !a.is_empty(),
        Json::Object(o) => !o.is_empty(),
    }
}

/// What a prefetch `assign` that is not a name does to the template context:
/// `build_validation_test_context` stores every truthy `assign` as a dict key, so a
/// list or a map raises `TypeError: unhashable type` (the agent fails to load), and
/// a number or `true` becomes a key that is not a string, which
/// `template.render(**context)` refuses (every render fails).
#[derive(Debug, PartialEq)]
enum OddAssign {
    Unhashable(&'static str),
    NotAString,
}

fn odd_prefetch_assign(config: &Config) -> Option<OddAssign> {
    let mut odd = config.odd_assign.then_some(OddAssign::NotAString);
    for assign in config.get("prefetch").as_array().into_iter().flatten().filter_map(|i| i.get("assign")) {
        match assign {
            Json::Array(a) if !a.is_empty() => return Some(OddAssign::Unhashable("list")),
            Json::Object(o) if !o.is_empty() => return Some(OddAssign::Unhashable("dict")),
            Json::Bool(_) | Json::Number(_) if py_truthy(assign) => odd = Some(OddAssign::NotAString),
            _ => {}
        }
    }
    odd
}

/// The stubbed `_run_prefetch`.
fn prefetch_context(config: &Config) -> Vec<(String, Json)> {
    let mut out: Vec<(String, Json)> = Vec::new();
    let prefetch = config.get("prefetch").as_array().filter(|p| !p.is_empty());
    // Made only for an agent that prefetches: most do not.
    let mocks = prefetch.map(|_| validation_mocks(config)).unwrap_or_default();
    for item in prefetch.into_iter().flatten() {
        let Some(name) = item
            .get("assign")
            .and_then(Json::as_str)
            .filter(|a| !a.is_empty())
        else {
            continue;
        };
        if let Some(v) = mocks.get(name) {
            out.retain(|(k, _)| k != name);
            out.push((name.to_string(), v.clone()));
        }
    }
    let wants_agents = config.get("auto_load_agent_list") == &json!(true)
        || !strings(config.get("auto_load_agents")).is_empty();
    if wants_agents && !out.iter().any(|(k, _)| k == "available_agents") {
        out.push(("available_agents".into(), json!(AGENTS_MOCK)));
    }
    out
}

/// Runs the preparation. `Ok(None)`: `run_if` skipped the agent.
pub fn prepare(
    config: &Config,
    body: &Arc<str>,
    inputs: &Inputs,
) -> Result<Option<Prepared>, RenderError> {
    let odd_assign = odd_prefetch_assign(config);
    if let Some(OddAssign::Unhashable(type_name)) = odd_assign {
        return Err(RenderError {
            part: Part::Prefetch,
            line: None,
            message: format!("TypeError: unhashable type: '{type_name}'"),
            bounded: false,
        });
    }
    let mut context: Vec<(String, Value)> = Vec::new();
    let mut set = |k: String, v: Value| {
        context.retain(|(key, _)| *key != k);
        context.push((k, v));
    };
    for (k, v) in directives::step_mocks(body) {
        set(k, Value::from(v));
    }
    for (k, v) in prefetch_context(config) {
        set(k, Value::from_serialize(&v));
    }
    for (k, v) in directives::tool_placeholders(body) {
        set(k, Value::from(v));
    }
    let (replaced, exec_vars) = directives::exec_placeholders(body);
    let body = match replaced {
        std::borrow::Cow::Borrowed(_) => Arc::clone(body),
        std::borrow::Cow::Owned(text) => Arc::from(text),
    };
    for (k, v) in exec_vars {
        set(k, Value::from(v));
    }
    let name = config.get("name").clone();
    let fixed: Vec<(&str, Value)> = vec![
        ("user_prompt", Value::from(inputs.user_prompt.clone())),
        ("agent_name", Value::from_serialize(&name)),
        ("is_interactive", Value::from(inputs.interactive)),
        ("is_daemon", Value::from(false)),
        ("is_scheduled", Value::from(false)),
        ("schedule_id", Value::from("")),
        ("conversation_id", Value::from("")),
        ("has_notify_tool", Value::from(false)),
        ("running_tasks", Value::from(Vec::<Value>::new())),
        ("tsugite_url", Value::from("")),
        ("tsugite_token", Value::from("")),
        ("tools", Value::from_serialize(config.get("tools"))),
        ("available_tools", available_tools()),
        ("is_subagent", Value::from(false)),
        ("parent_agent", Value::from(())),
        ("chat_history", Value::from(Vec::<Value>::new())),
        ("CWD", Value::from(inputs.cwd.clone())),
        ("INVOKED_FROM", Value::from(())),
        ("WORKSPACE_DIR", Value::from(())),
    ];
    for (k, v) in fixed {
        set(k.to_string(), v);
    }
    for (k, v) in attachment_mocks(config) {
        set(k, Value::from_serialize(&v));
    }
    let refused = (odd_assign == Some(OddAssign::NotAString)).then_some("keywords must be strings");
    jinja::with_environment(&inputs.world, |env| render_prompt(env, config, &body, context, inputs, refused))
}

/// The registry's tool names, the same for every agent.
fn available_tools() -> Value {
    static NAMES: OnceLock<Value> = OnceLock::new();
    NAMES.get_or_init(|| Value::from(tools::names())).clone()
}

/// The part of [`prepare`] that renders: `run_if`, the tools, the body and the
/// instructions over `context`.
fn render_prompt(
    env: &Environment<'static>,
    config: &Config,
    body: &Arc<str>,
    mut context: Vec<(String, Value)>,
    inputs: &Inputs,
    refused: Option<&str>,
) -> Result<Option<Prepared>, RenderError> {
    let render = |text: &str, ctx: &dyn Fn() -> Value, part: Part| -> Result<String, RenderError> {
        if let Some(why) = refused {
            return Err(RenderError { part, line: None, message: why.to_string(), bounded: false });
        }
        let source = directives::strip_ignored(text);
        jinja::reject_loop_controls(&source)
            .and_then(|_| jinja::render_bounded(env, &source, ctx))
            .map_err(|e| RenderError {
                part,
                // A write failure carries no line: point at the template's first.
                line: e.line().or((e.kind() == minijinja::ErrorKind::WriteFailure).then_some(1)).map(|l| l as u32),
                bounded: matches!(e.kind(), minijinja::ErrorKind::OutOfFuel | minijinja::ErrorKind::WriteFailure)
                    || e.to_string().contains("output larger than"),
                message: describe(&e, &source),
            })
    };

    if let Some(guard) = config.str_of("run_if").filter(|g| !g.is_empty()) {
        let verdict = render(&format!("{{{{ {guard} }}}}"), &|| as_value(&context), Part::Body);
        let skip = match verdict {
            Ok(out) => {
                ["", "false", "none", "0"].contains(&crate::py::strip(&out).to_lowercase().as_str())
            }
            Err(_) => true,
        };
        if skip {
            return Ok(None);
        }
    }

    let strict = config.get("strict_tools") == &json!(true);
    let mut expanded =
        tools::expand(&strings(config.get("tools")), strict).map_err(|m| RenderError {
            part: Part::Tools,
            line: None,
            message: format!("Failed to create tools: {m}"),
            bounded: false,
        })?;
    if inputs.interactive {
        for t in tools::INTERACTIVE {
            if !expanded.iter().any(|e| e == t) {
                expanded.push(t.to_string());
            }
        }
    } else {
        expanded.retain(|t| !tools::INTERACTIVE.contains(&t.as_str()));
    }
    context.retain(|(k, _)| k != "tools");
    context.push(("tools".into(), Value::from(expanded)));

    // Made once for the body and the instructions, and only if one of them is more
    // than plain text.
    let made = OnceCell::new();
    let ctx = || made.get_or_init(|| as_value(&context)).clone();
    let rendered = render(body, &ctx, Part::Body)?;
    let user_message: Arc<str> = if rendered == **body { Arc::clone(body) } else { rendered.into() };
    let instructions = config.str_of("instructions").unwrap_or_default();
    let instructions = if instructions.is_empty() {
        String::new()
    } else {
        render(instructions, &ctx, Part::Instructions)?
    };
    let steps = match directives::steps(&user_message) {
        Some((_, steps)) => steps.into_iter().map(|s| (s.name, s.content)).collect(),
        None => Vec::new(),
    };
    Ok(Some(Prepared {
        instructions: crate::py::strip(&instructions).to_string(),
        user_message,
        steps,
    }))
}

/// The context as the template's root value, keys in sorted order: the map that
/// serializing a `BTreeMap` would make, without the round trip through serde.
fn as_value(context: &[(String, Value)]) -> Value {
    let map: BTreeMap<&str, &Value> = context.iter().map(|(k, v)| (k.as_str(), v)).collect();
    map.into_iter().map(|(k, v)| (k, v.clone())).collect()
}

/// A template error in Jinja2's words where they differ only in spelling.
fn describe(e: &minijinja::Error, source: &str) -> String {
    let detail = e
        .detail()
        .map(str::to_string)
        .unwrap_or_else(|| e.kind().to_string());
    match e.kind() {
        minijinja::ErrorKind::UndefinedError => {
            // Jinja2 names the variable; minijinja gives the span of the expression.
            let what = e.range().and_then(|r| source.get(r)).unwrap_or("a value");
            format!("Template rendering failed: '{what}' is undefined")
        }
        // Only the output bound makes the writer fail (`jinja::render_bounded`).
        minijinja::ErrorKind::WriteFailure => {
            format!("Template rendering failed: output larger than {} bytes", jinja::MAX_OUTPUT)
        }
        minijinja::ErrorKind::OutOfFuel => format!(
            "the template ran longer than agentry allows ({} steps): {detail}",
            jinja::FUEL
        ),
        _ => format!("Template rendering failed: {detail}"),
    }
}
