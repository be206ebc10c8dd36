//! One agent file as Qwen Code's `parseSubagentContent` reads it
//! (`packages/core/src/subagents/subagent-manager.ts`), then checks it
//! (`SubagentValidator.validateConfig`, `validation.ts`).

use serde_json::Value as Json;

use super::js::{self, Js};
use crate::frameworks::Prompts;
use crate::model::Text;
use std::path::Path;
use super::yaml;

/// Why a file was dropped: the three causes the oracle tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Io,
    Parse,
    Validation,
}

impl Cause {
    pub fn word(self) -> &'static str {
        match self {
            Cause::Io => "io",
            Cause::Parse => "parse",
            Cause::Validation => "validation",
        }
    }
}

#[derive(Debug)]
pub struct Failure {
    pub cause: Cause,
    pub message: String,
    pub line: Option<u32>,
    /// The names whose dispatch Qwen Code refuses because of this file (an
    /// executor or execution backend it declares but cannot honour), lower-case.
    pub refuses: Vec<String>,
    /// The failure is itself a refusal of the executor or backend block.
    executor_block: bool,
}

/// A loaded definition: the SubagentConfig without name, prompt and paths.
#[derive(Debug)]
pub struct Definition {
    pub name: String,
    pub description: String,
    /// Fields in the oracle's order, each with the line of the key that set it.
    pub fields: Vec<(&'static str, Json, Option<u32>)>,
    /// Keys as written in the front matter, with their lines.
    pub attributes: Vec<(String, u32, Json)>,
    /// The trimmed body, as the load makes prompt texts ([`Prompts`]).
    pub prompt: Text,
    /// Whether the front matter needed the line parser (the YAML did not parse).
    pub lenient: Option<(String, usize)>,
}

const COLORS: [&str; 9] = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan", "auto"];
const PERMISSION_MODES: [&str; 6] = ["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];
const APPROVAL_MODES: [&str; 6] = ["plan", "default", "auto-edit", "auto", "yolo", "bubble"];
const AUTH_TYPES: [&str; 6] = ["openai", "openai-responses", "qwen-oauth", "gemini", "vertex-ai", "anthropic"];
const RESERVED: [&str; 8] = ["self", "system", "user", "model", "tool", "config", "default", "main"];

/// `normalizeContent` then the front-matter regex `^---\n([\s\S]*?)\n---\n([\s\S]*)$`:
/// the front matter and the body.
pub fn split(content: &str) -> Option<(String, String)> {
    let text = content.strip_prefix('\u{feff}').unwrap_or(content);
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    Some((rest[..end].to_string(), rest[end + 5..].to_string()))
}

/// The subagent file at `path`, whose contents are `bytes`, its prompt made by `prompts`.
pub fn parse(bytes: &[u8], path: &Path, prompts: Prompts) -> Result<Definition, Failure> {
    let mut result = parse_content(bytes, path, prompts);
    if let Err(f) = &mut result {
        if f.cause == Cause::Validation {
            f.refuses = refused_names(bytes, f.executor_block);
        }
    }
    result
}

/// The names a dropped file makes Qwen Code refuse to dispatch (`recordExecutionRefusal`):
/// its declared name when the file failed over its executor or backend block, or
/// failed otherwise while declaring a valid backend or an executor.
fn refused_names(bytes: &[u8], executor_block: bool) -> Vec<String> {
    let Some((front, _)) = split(&String::from_utf8_lossy(bytes)) else { return Vec::new() };
    let parsed = yaml::parse(&front);
    let declared = match &parsed.document {
        Some(doc @ Js::Map(_)) => doc.get("name").filter(|n| **n != Js::Null).map(Js::to_js_string),
        _ => parsed.object.iter().find(|(k, _, _)| k == "name").map(|(_, v, _)| v.to_js_string()),
    };
    let Some(declared) = declared.filter(|n| !n.is_empty()) else { return Vec::new() };
    let doc_has = |key: &str| parsed.error.is_none() && parsed.document.as_ref().and_then(|d| d.get(key)).is_some();
    let backend_valid = parsed.error.is_none()
        && parsed.document.as_ref().and_then(|d| d.get("executionBackend")).and_then(Js::as_str) == Some("container");
    let claims_executor = doc_has("executor") || yaml::claims_outside_block_scalars(&front, "executor");
    if executor_block || backend_valid || claims_executor {
        vec![declared.to_lowercase()]
    } else {
        Vec::new()
    }
}

fn parse_content(bytes: &[u8], path: &Path, prompts: Prompts) -> Result<Definition, Failure> {
    // `readFile(path, "utf8")`: invalid bytes become U+FFFD.
    let content = String::from_utf8_lossy(bytes);
    let Some((front, body)) = split(&content) else {
        return Err(fail(Cause::Parse, "Invalid format: missing YAML frontmatter", Some(1)));
    };
    let parsed = yaml::parse(&front);
    let fm = Js::Map(parsed.object.clone());
    let line_of = |key: &str| key_line(&front, key);
    let get = |key: &str| fm.get(key);

    // The raw document's view (`parseDocument`): refusals of executor and backend
    // blocks. Both need a document that parsed.
    let claims = |key: &str| yaml::claims_outside_block_scalars(&front, key);
    let refusal = |message: String, line| Failure { executor_block: true, ..fail(Cause::Validation, message, line) };
    let has = |key: &str| parsed.document.as_ref().and_then(|d| d.get(key)).is_some();
    let mut execution_backend = None;
    if has("executionBackend") || claims("executionBackend") {
        let line = line_of("executionBackend");
        match (&parsed.document, &parsed.error) {
            (_, Some((e, _))) => return Err(refusal(format!("invalid executionBackend declaration: {e}"), line)),
            (Some(doc), None) if has("executionBackend") => match doc.get("executionBackend") {
                Some(Js::Str(s)) if s == "container" => execution_backend = Some(Json::from("container")),
                _ => return Err(refusal("invalid executionBackend declaration: expected \"container\"".into(), line)),
            },
            _ => {}
        }
    }

    let name_raw = get("name").filter(|v| **v != Js::Str(String::new()));
    let description_raw = get("description").filter(|v| **v != Js::Str(String::new()));
    let Some(name_raw) = name_raw else {
        return Err(fail(Cause::Validation, "Missing \"name\" in frontmatter", line_of("name").or(Some(1))));
    };
    let Some(description_raw) = description_raw else {
        return Err(fail(Cause::Validation, "Missing \"description\" in frontmatter", line_of("description").or(Some(1))));
    };
    let name = name_raw.to_js_string();
    let description = description_raw.to_js_string();
    let tool_list = |v: Option<&Js>| -> Option<Vec<String>> {
        match v? {
            Js::Seq(items) => Some(items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect()),
            Js::Str(s) => Some(s.split(',').map(|t| js::trim(t).to_string()).filter(|t| !t.is_empty()).collect()),
            _ => None,
        }
    };
    let tools = tool_list(get("tools"));
    let disallowed = tool_list(get("disallowedTools"));
    let color = get("color").and_then(Js::as_str).filter(|c| COLORS.contains(c)).map(str::to_string);

    let approval_raw = get("approvalMode");
    let approval = match approval_raw {
        None => None,
        Some(Js::Str(s)) if s.is_empty() => None,
        Some(Js::Str(s)) if APPROVAL_MODES.contains(&s.as_str()) => Some(s.clone()),
        Some(Js::Str(s)) => {
            return Err(fail(Cause::Validation, format!("Invalid \"approvalMode\" value \"{s}\""), line_of("approvalMode")))
        }
        Some(_) => {
            return Err(fail(Cause::Validation, "Invalid \"approvalMode\" value: expected a string", line_of("approvalMode")))
        }
    };
    let model = match get("model") {
        Some(m) if *m != Js::Str(String::new()) => Some(m.to_js_string()),
        _ => get("modelConfig").and_then(|c| c.get("model")).and_then(Js::as_str).map(str::to_string),
    };
    let background = match get("background") {
        Some(Js::Bool(b)) => Some(*b),
        Some(Js::Str(s)) if s == "true" => Some(true),
        Some(Js::Str(s)) if s == "false" => Some(false),
        _ => None,
    };
    let permission = get("permissionMode").and_then(Js::as_str).filter(|p| PERMISSION_MODES.contains(p)).map(str::to_string);
    let bridged = match (&approval, &permission) {
        (None, Some(p)) => Some(
            match p.as_str() {
                "plan" => "plan",
                "acceptEdits" | "auto" => "auto-edit",
                "bypassPermissions" => "yolo",
                _ => "default",
            }
            .to_string(),
        ),
        _ => None,
    };
    let max_turns = get("maxTurns").and_then(max_turns);
    let mcp_servers = get("mcpServers").and_then(|v| object_of(v, |s| matches!(s, Js::Map(_))));
    let hooks = get("hooks").and_then(|v| object_of(v, |s| matches!(s, Js::Seq(_))));

    // Executor: read from the raw document; a claim the YAML cannot back is refused.
    let mut executor = None;
    if has("executor") || claims("executor") {
        let line = line_of("executor");
        // With YAML errors the `yaml` package still builds the document; the claim is
        // refused when an error reaches the executor line or the block is lost. The
        // block is then read on its own, as that document holds it.
        let mut recovered = None;
        if let Some((e, error_line)) = &parsed.error {
            let segment = line.and_then(|l| executor_segment(&front, l as usize - 2));
            match segment.and_then(|text| yaml::full(&text).ok()) {
                Some(doc) if (*error_line as u32) + 1 < line.unwrap_or(0) && doc.get("executor").is_some() => recovered = Some(doc),
                _ => return Err(refusal(format!("invalid executor block: its frontmatter YAML does not parse ({e})"), line)),
            }
        }
        let document = recovered.as_ref().or(parsed.document.as_ref());
        if document.and_then(|d| d.get("executor")).is_some() {
            match document.and_then(|d| d.get("executor")).and_then(parse_executor) {
                Some(e) => executor = Some(e),
                None => {
                    return Err(refusal(
                        "invalid executor block (expected { kind: 'acp' | 'codex', command: string, args?: string[] })".into(),
                        line,
                    ))
                }
            }
        }
    }

    let prompt = js::trim(&body).to_string();
    let run_config = get("runConfig").cloned();

    // SubagentValidator.validateConfig: every error, each at the line it is about.
    let body_line = Some(front.split('\n').count() as u32 + 3);
    let mut errors: Vec<(String, Option<u32>)> = Vec::new();
    errors.extend(name_errors(&name).into_iter().map(|e| (e, line_of("name"))));
    if js::trim(&description).is_empty() {
        errors.push(("Description is required and cannot be empty".into(), line_of("description")));
    }
    if prompt.is_empty() {
        errors.push(("System prompt is required and cannot be empty".into(), body_line));
    } else if js::js_len(&prompt) < 10 {
        errors.push(("System prompt must be at least 10 characters long".into(), body_line));
    }
    for (key, list) in [("tools", &tools), ("disallowedTools", &disallowed)] {
        if list.as_ref().is_some_and(|l| l.iter().any(|t| js::trim(t).is_empty())) {
            errors.push(("Tool name cannot be empty".into(), line_of(key)));
        }
    }
    if let Some(m) = model.as_deref().filter(|m| !m.is_empty()) {
        if let Some(e) = model_error(m) {
            errors.push((e.into(), line_of("model").or_else(|| line_of("modelConfig"))));
        }
    }
    if let Some(rc) = run_config.as_ref().filter(|r| r.truthy()) {
        errors.extend(run_config_errors(rc).into_iter().map(|e| (e, line_of("runConfig"))));
    }
    if let Some((_, line)) = errors.first() {
        let line = *line;
        let all: Vec<&str> = errors.iter().map(|(e, _)| e.as_str()).collect();
        return Err(fail(Cause::Validation, format!("Validation failed: {}", all.join(", ")), line));
    }

    let list_json = |l: &Option<Vec<String>>| l.as_ref().map_or(Json::Null, |l| Json::from(l.clone()));
    let opt_str = |s: &Option<String>| s.as_ref().map_or(Json::Null, |s| Json::from(s.as_str()));
    let approval_line = if approval.is_some() { line_of("approvalMode") } else { line_of("permissionMode") };
    let model_line = line_of("model").or_else(|| line_of("modelConfig"));
    let mut fields: Vec<(&'static str, Json, Option<u32>)> = vec![
        ("description", Json::from(description.as_str()), line_of("description")),
        ("tools", list_json(&tools), line_of("tools")),
        ("disallowedTools", list_json(&disallowed), line_of("disallowedTools")),
        ("approvalMode", opt_str(&approval.or(bridged)), approval_line),
        ("model", opt_str(&model), model_line),
        ("runConfig", run_config.as_ref().map_or(Json::Null, Js::to_json), line_of("runConfig")),
        ("color", opt_str(&color), line_of("color")),
    ];
    let mut optional = |key: &'static str, value: Option<Json>| {
        if let Some(v) = value {
            fields.push((key, v, key_line(&front, key)));
        }
    };
    optional("background", background.map(Json::from));
    optional("permissionMode", permission.map(Json::from));
    optional("maxTurns", max_turns.map(|n| Js::Num(n).to_json()));
    optional("mcpServers", mcp_servers.map(|v| v.to_json()));
    optional("hooks", hooks.map(|v| v.to_json()));
    optional("executor", executor);
    optional("executionBackend", execution_backend);

    let attributes = parsed
        .object
        .iter()
        .map(|(k, v, _)| (k.clone(), line_of(k).unwrap_or(2), v.to_json()))
        .collect();
    let prompt = prompts.from_file(path, bytes, &prompt);
    Ok(Definition { name, description, fields, attributes, prompt, lenient: parsed.error })
}

/// A file that could not be read.
pub fn io_failure(message: String) -> Failure {
    fail(Cause::Io, message, None)
}

fn fail(cause: Cause, message: impl Into<String>, line: Option<u32>) -> Failure {
    Failure { cause, message: message.into(), line, refuses: Vec::new(), executor_block: false }
}

/// The file line of a top-level `key:` in the front matter (which starts on line 2).
pub(super) fn key_line(front: &str, key: &str) -> Option<u32> {
    front.split('\n').position(|l| {
        let l = l.strip_prefix(['"', '\'']).unwrap_or(l);
        l.strip_prefix(key).is_some_and(|rest| {
            let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
            rest.trim_start_matches([' ', '\t']).starts_with(':')
        })
    })
    .map(|i| i as u32 + 2)
}

/// The top-level `executor:` entry starting on line `first` (0-based) of the front
/// matter, down to the next top-level line.
fn executor_segment(front: &str, first: usize) -> Option<String> {
    let lines: Vec<&str> = front.split('\n').collect();
    let start = *lines.get(first)?;
    let rest = lines[first + 1..]
        .iter()
        .take_while(|l| l.is_empty() || l.starts_with([' ', '\t', '#']))
        .copied();
    Some(std::iter::once(start).chain(rest).collect::<Vec<_>>().join("\n"))
}

/// `parseMaxTurns`: a positive integer, numeric strings accepted.
fn max_turns(v: &Js) -> Option<f64> {
    let n = match v {
        Js::Num(n) => *n,
        Js::Str(s) if !s.is_empty() => js::string_to_number(s)?,
        _ => return None,
    };
    (n.is_finite() && n.fract() == 0.0 && n > 0.0).then_some(n)
}

/// `parseAgentMcpServers` / `parseAgentHooks`: an object's entries that `keep`,
/// when there are any.
fn object_of(v: &Js, keep: impl Fn(&Js) -> bool) -> Option<Js> {
    let Js::Map(entries) = v else { return None };
    let kept: Vec<_> = entries.iter().filter(|(_, s, _)| keep(s)).cloned().collect();
    (!kept.is_empty()).then_some(Js::Map(kept))
}

/// `parseAgentExecutor`.
fn parse_executor(v: &Js) -> Option<Json> {
    let kind = v.get("kind")?.as_str().filter(|k| *k == "acp" || *k == "codex")?;
    let command = js::trim(v.get("command")?.as_str()?);
    if command.is_empty() {
        return None;
    }
    let mut out = serde_json::Map::new();
    out.insert("kind".into(), kind.into());
    out.insert("command".into(), command.into());
    match v.get("args") {
        None => {}
        Some(Js::Seq(items)) => {
            let args: Option<Vec<Json>> = items.iter().map(|a| a.as_str().map(Json::from)).collect();
            out.insert("args".into(), Json::Array(args?));
        }
        Some(_) => return None,
    }
    Some(Json::Object(out))
}

/// `validateName`.
fn name_errors(name: &str) -> Vec<String> {
    let t = js::trim(name);
    if t.is_empty() {
        return vec!["Name is required and cannot be empty".into()];
    }
    let mut errors = Vec::new();
    let len = js::js_len(t);
    if len < 2 {
        errors.push("Name must be at least 2 characters long".into());
    }
    if len > 50 {
        errors.push("Name must be 50 characters or less".into());
    }
    if !t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        errors.push("Name can only contain letters, numbers, hyphens, and underscores".into());
    }
    if t.starts_with(['-', '_']) {
        errors.push("Name cannot start with a hyphen or underscore".into());
    }
    if t.ends_with(['-', '_']) {
        errors.push("Name cannot end with a hyphen or underscore".into());
    }
    if RESERVED.contains(&t.to_lowercase().as_str()) {
        errors.push(format!("\"{t}\" is a reserved name and cannot be used"));
    }
    errors
}

/// `validateModel` through `parseModelIdSelector`.
fn model_error(model: &str) -> Option<&'static str> {
    let t = js::trim(model);
    if t.is_empty() {
        return Some("Model must be a non-empty string");
    }
    let (auth, id) = t.split_once(':')?;
    (AUTH_TYPES.contains(&js::trim(auth)) && js::trim(id).is_empty())
        .then_some("Model selector must include a model ID after the authType")
}

/// `validateRunConfig`.
fn run_config_errors(rc: &Js) -> Vec<String> {
    let mut errors = Vec::new();
    match rc.get("max_time_minutes") {
        None => {}
        Some(Js::Num(n)) if n.is_nan() || *n > 0.0 => {}
        Some(Js::Num(_)) => errors.push("max_time_minutes must be greater than 0".into()),
        Some(_) => errors.push("max_time_minutes must be a number".into()),
    }
    match rc.get("max_turns") {
        None => {}
        Some(Js::Num(n)) if !n.is_nan() && *n <= 0.0 => errors.push("max_turns must be greater than 0".into()),
        Some(Js::Num(n)) if !(n.is_finite() && n.fract() == 0.0) => errors.push("max_turns must be an integer".into()),
        Some(Js::Num(_)) => {}
        Some(_) => errors.push("max_turns must be a number".into()),
    }
    errors
}
