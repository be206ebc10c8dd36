//! One OpenHands skill file → the skill `Skill.load` builds (openhands-sdk 1.58.2,
//! `skills/skill.py`): the AgentSkills form (`SKILL.md`, strict name equal to its
//! folder, MCP servers from the folder's `.mcp.json`), the legacy form (any other
//! `.md`, free name, `mcp_tools` in the front matter), third-party files (`AGENTS.md`
//! …: whole text, fixed name) and nested third-party files (path rules).

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::super::definition::{self, Front};
use super::super::validators;
use crate::frameworks::Prompts;
use crate::model::{Attributes, AttributesBuilder, DiagKind, Failure, Field, FieldOrigin, Text};
use crate::py;
use crate::yaml::{Map, Value};

/// `PATH_TO_THIRD_PARTY_SKILL_NAME`: file names (any case) read as third-party files.
pub const THIRD_PARTY: [(&str, &str); 5] =
    [(".cursorrules", "cursorrules"), ("agents.md", "agents"), ("agent.md", "agents"), ("claude.md", "claude"), ("gemini.md", "gemini")];

/// The skill name of a third-party file name, compared without case.
pub fn third_party_name(file_name: &str) -> Option<&'static str> {
    let lower = file_name.to_lowercase();
    THIRD_PARTY.iter().find(|(f, _)| *f == lower).map(|(_, n)| *n)
}

/// How a file is read.
pub enum Form<'a> {
    /// A `SKILL.md` (any case) in a direct subfolder of a skills folder.
    AgentSkills,
    /// Any other `.md` below a skills folder: the name falls back to its path from it.
    Legacy { skills_dir: &'a Path },
    /// `AGENTS.md`, `.cursorrules` … in the working folder or the git root.
    ThirdParty,
    /// A third-party file below the working folder, `rel_dir` from it.
    Nested { rel_dir: &'a str },
}

/// The three maps a skills folder is loaded into (`load_and_categorize`), in the
/// order they are merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Map3 {
    Repo,
    Knowledge,
    AgentSkills,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    Keyword,
    Task,
    Path,
}

/// A skill that loaded.
pub struct Skill {
    pub name: String,
    /// What `invoke_skill` or the injection gives the model.
    pub content: Text,
    pub content_str: Arc<str>,
    pub trigger: Option<Trigger>,
    pub agentskills: bool,
    pub disable_model_invocation: bool,
    pub description: Option<String>,
    pub fields: Vec<Field>,
    pub attributes: Attributes,
}

impl Skill {
    pub fn map(&self) -> Map3 {
        match (self.agentskills, self.trigger) {
            (true, _) => Map3::AgentSkills,
            (false, None) => Map3::Repo,
            (false, Some(_)) => Map3::Knowledge,
        }
    }
}

/// What was found beside a `SKILL.md`: its folder's `.mcp.json`, read or failing.
pub enum McpJson {
    None,
    Read(Arc<[u8]>),
    Unreadable(String),
}

/// A file that cannot be read, as Python's `open` fails (`io`).
pub fn read_failure(e: &crate::discover::ReadError) -> Failure {
    use crate::discover::ReadError;
    let message = match e {
        ReadError::NotFound => "FileNotFoundError: no such file (a dangling symlink?)".to_string(),
        ReadError::IsDir => "IsADirectoryError: Is a directory".to_string(),
        other => format!("OSError: {other}"),
    };
    Failure { kind: DiagKind::Io, message, line: None, col: None }
}

fn invalid(message: impl Into<String>, line: Option<u32>) -> Failure {
    Failure { kind: DiagKind::Validation, message: message.into(), line, col: None }
}

/// Loads one file (`bytes`, at `path`, source key `source`).
pub fn load(bytes: &[u8], path: &Path, form: Form<'_>, source: &str, mcp: McpJson, env: &std::collections::BTreeMap<String, String>, prompts: Prompts) -> Result<Skill, Failure> {
    let text = definition::decode(bytes)?;
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let whole = |name: String, trigger: Option<(Trigger, Json)>| {
        let disable = trigger.is_some();
        let mut fields = defaults();
        if let Some((_, t)) = &trigger {
            set(&mut fields, "trigger", t.clone(), FieldOrigin::default("a file below the working folder: injected when a file under its folder is touched"));
            set(&mut fields, "disable_model_invocation", json!(true), FieldOrigin::default("path rules are never offered to the model"));
        }
        Skill {
            name,
            content: prompts.from_file(path, bytes, &text),
            content_str: Arc::from(&*text),
            trigger: trigger.map(|(t, _)| t),
            agentskills: false,
            disable_model_invocation: disable,
            description: None,
            fields,
            attributes: Attributes::default(),
        }
    };
    match form {
        Form::ThirdParty => return Ok(whole(third_party_name(&file_name).unwrap_or_default().to_string(), None)),
        Form::Nested { rel_dir } => {
            let base = third_party_name(&file_name).unwrap_or_default();
            let paths = json!({"paths": [format!("{rel_dir}/**")], "type": "path"});
            return Ok(whole(format!("{base}:{rel_dir}"), Some((Trigger::Path, paths))));
        }
        Form::Legacy { .. } if third_party_name(&file_name).is_some() => {
            return Ok(whole(third_party_name(&file_name).unwrap_or_default().to_string(), None))
        }
        _ => {}
    }
    let split = crate::frontmatter::split(&text);
    let front = definition::front_matter(&split)?;
    let empty = Front { map: Map::default(), line_offset: 0 };
    let fm = front.as_ref().unwrap_or(&empty);
    let agentskills = matches!(form, Form::AgentSkills);
    let fallback = match form {
        Form::AgentSkills => path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        Form::Legacy { skills_dir } => {
            let rel = path.strip_prefix(skills_dir).unwrap_or(path).with_extension("");
            rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
        }
        _ => String::new(),
    };
    let name = fm.get("name").map(py::str_of).unwrap_or_else(|| fallback.clone());
    if agentskills {
        let errors = name_errors(&name, &fallback);
        if !errors.is_empty() {
            return Err(invalid(format!("SkillValidationError: Invalid skill name '{name}': {}", errors.join("; ")), fm.line("name")));
        }
    }
    let mcp_tools = if agentskills { mcp_json(mcp, path, env)? } else { legacy_mcp(fm)? };
    let mut skill = build(fm, name, split.body, source, mcp_tools, agentskills)?;
    skill.content = if *skill.content_str == *split.body { prompts.from_file(path, bytes, split.body) } else { Text::held(skill.content_str.clone()) };
    let mut attributes = AttributesBuilder::default();
    for (k, v) in &fm.map.entries {
        attributes.push(&py::str_of(&k.value), k.span.line + fm.line_offset, &v.value.to_json());
    }
    skill.attributes = attributes.finish();
    // A description over 1024 characters is cut in the middle around a notice naming the file.
    if let Some(d) = &skill.description {
        if d.chars().count() > 1024 {
            let notice = format!(
                "<response clipped><NOTE>Due to the max output limit, only part of the full description is shown. You can view the complete skill content at {}.</NOTE>",
                path.display()
            );
            let cut = maybe_truncate(d, 1024, &notice);
            set(&mut skill.fields, "description", json!(cut), FieldOrigin::own(&Arc::from(source), fm.line("description"), "`description:`, cut to 1024 characters around a notice"));
            skill.description = Some(cut);
        }
    }
    Ok(skill)
}

/// `validate_skill_name`: every rule the name breaks.
fn name_errors(name: &str, folder: &str) -> Vec<String> {
    if name.is_empty() {
        return vec!["Name cannot be empty".into()];
    }
    let mut out = Vec::new();
    let len = name.chars().count();
    if len > 64 {
        out.push(format!("Name exceeds 64 characters: {len}"));
    }
    let ok = !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !ok {
        out.push("Name must be lowercase alphanumeric with single hyphens (e.g., 'my-skill', 'pdf-tools')".into());
    }
    if !folder.is_empty() && name != folder {
        out.push(format!("Name '{name}' does not match directory '{folder}'"));
    }
    out
}

/// `dump_mcp_config`: each server without its `None` and default values (`enabled`
/// is true by default).
fn dump_servers(servers: Json) -> Json {
    match servers {
        Json::Object(map) => Json::Object(
            map.into_iter()
                .map(|(name, server)| match server {
                    Json::Object(s) => (name, Json::Object(s.into_iter().filter(|(k, v)| !v.is_null() && !(k == "enabled" && *v == json!(true))).collect())),
                    other => (name, other),
                })
                .collect(),
        ),
        other => other,
    }
}

/// `mcp_tools:` of a legacy file: a mapping of servers (with or without `mcpServers`).
fn legacy_mcp(fm: &Front) -> Result<Option<(Json, Option<u32>)>, Failure> {
    match fm.get("mcp_tools") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Map(m)) => {
            let servers = validators::mcp_config(m).map_err(|e| invalid(format!("SkillValidationError: Invalid MCP config dictionary: {e}"), fm.line("mcp_tools")))?;
            Ok(Some((dump_servers(servers), fm.line("mcp_tools"))))
        }
        Some(_) => Err(invalid("SkillValidationError: mcp_tools must be a dictionary or None", fm.line("mcp_tools"))),
    }
}

/// A `SKILL.md` folder's `.mcp.json` (`load_mcp_config`): a JSON object whose
/// `${SKILL_ROOT}`, `${VAR}` and `${VAR:-default}` are expanded, then its `mcpServers`.
fn mcp_json(mcp: McpJson, path: &Path, env: &std::collections::BTreeMap<String, String>) -> Result<Option<(Json, Option<u32>)>, Failure> {
    let file = path.with_file_name(".mcp.json");
    let bytes = match mcp {
        McpJson::None => return Ok(None),
        McpJson::Unreadable(e) => return Err(invalid(format!("SkillValidationError: Cannot read {}: {e}", file.display()), None)),
        McpJson::Read(b) => b,
    };
    // `open(encoding="utf-8")` + `json.load`: bytes that are not UTF-8 raise
    // UnicodeDecodeError, which `load_mcp_config` does not turn into a
    // SkillValidationError (a `parse` failure of the SKILL.md).
    let text = definition::decode(&bytes)
        .map_err(|f| Failure { message: format!("{} (reading {})", f.message, file.display()), line: None, ..f })?;
    let value: Json = serde_json::from_str(&text)
        .map_err(|e| invalid(format!("SkillValidationError: Invalid JSON in {}: {e}", file.display()), None))?;
    let Json::Object(_) = &value else {
        let kind = match value { Json::Array(_) => "list", Json::String(_) => "str", Json::Bool(_) => "bool", Json::Null => "NoneType", _ => "number" };
        return Err(invalid(format!("SkillValidationError: Invalid .mcp.json format: expected object, got {kind}"), None));
    };
    let root = path.parent().map(|p| p.display().to_string()).unwrap_or_default();
    let expanded = expand(&value, &root, env);
    let servers = expanded.get("mcpServers").cloned().unwrap_or(json!({}));
    let node = definition::json_front(&servers.to_string()).map_err(|e| invalid(e, None))?;
    match node.value {
        Value::Map(m) => validators::mcp_config(&m).map(|j| Some((dump_servers(j), None))).map_err(|e| invalid(format!("SkillValidationError: Invalid MCP configuration: {e}"), None)),
        _ => Err(invalid("SkillValidationError: Invalid MCP configuration: mcpServers must be an object", None)),
    }
}

/// `expand_mcp_variables`: `${VAR}` and `${VAR:-default}` in every string.
fn expand(v: &Json, root: &str, env: &std::collections::BTreeMap<String, String>) -> Json {
    match v {
        Json::String(s) => Json::String(expand_str(s, root, env)),
        Json::Array(a) => Json::Array(a.iter().map(|x| expand(x, root, env)).collect()),
        Json::Object(o) => Json::Object(o.iter().map(|(k, x)| (expand_str(k, root, env), expand(x, root, env))).collect()),
        other => other.clone(),
    }
}

fn expand_str(s: &str, root: &str, env: &std::collections::BTreeMap<String, String>) -> String {
    static VAR: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let Some(re) = VAR.get_or_init(|| regex::Regex::new(r"\$\{([a-zA-Z_][a-zA-Z0-9_]*)(?::-([^}]*))?\}").ok()) else { return s.to_string() };
    re.replace_all(s, |c: &regex::Captures<'_>| {
        let name = &c[1];
        if name == "SKILL_ROOT" {
            return root.to_string();
        }
        env.get(name).cloned().or_else(|| c.get(2).map(|d| d.as_str().to_string())).unwrap_or_else(|| c[0].to_string())
    })
    .into_owned()
}

/// `_create_skill_from_metadata` and the `Skill` model's validators.
fn build(fm: &Front, name: String, body: &str, source: &str, mcp: Option<(Json, Option<u32>)>, agentskills: bool) -> Result<Skill, Failure> {
    let src: Arc<str> = source.into();
    let own = |key: &str, rule: &'static str| FieldOrigin::own(&src, fm.line(key), rule);
    // `get("a", get("b"))`: the first key wins even when null.
    let either = |a: &str, b: &str| if fm.entry(a).is_some() { (a.to_string(), fm.get(a)) } else { (b.to_string(), fm.get(b)) };
    let mut fields = defaults();
    let text = |key: &str| -> Result<Option<String>, Failure> {
        match fm.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => py::lax::str_(v).map(Some).map_err(|e| invalid(format!("ValidationError: 1 validation error for Skill | {key} | {e}"), fm.line(key))),
        }
    };
    let description = text("description")?;
    for (key, value) in [("description", description.clone()), ("license", text("license")?), ("compatibility", text("compatibility")?)] {
        if let Some(v) = value {
            set(&mut fields, key, json!(v), own(key, "read from the front matter"));
        }
    }
    match fm.get("metadata") {
        None | Some(Value::Null) => {}
        Some(Value::Map(m)) => {
            let map: serde_json::Map<String, Json> = m.entries.iter().map(|(k, v)| (py::str_of(&k.value), json!(py::str_of(&v.value)))).collect();
            set(&mut fields, "metadata", Json::Object(map), own("metadata", "`metadata:`, each value as a string"));
        }
        Some(_) => return Err(invalid("SkillValidationError: metadata must be a dictionary", fm.line("metadata"))),
    }
    let (tools_key, tools) = either("allowed-tools", "allowed_tools");
    match tools {
        None | Some(Value::Null) => {}
        Some(Value::Str(s)) => set(&mut fields, "allowed_tools", json!(s.split_whitespace().collect::<Vec<_>>()), FieldOrigin::own(&src, fm.line(&tools_key), "split on whitespace")),
        Some(Value::Seq(items)) => set(&mut fields, "allowed_tools", json!(items.iter().map(|n| py::str_of(&n.value)).collect::<Vec<_>>()), FieldOrigin::own(&src, fm.line(&tools_key), "read from the front matter")),
        Some(_) => return Err(invalid("SkillValidationError: allowed-tools must be a string or list", fm.line(&tools_key))),
    }
    let (flag_key, flag) = either("disable-model-invocation", "disable_model_invocation");
    let mut disable = match flag {
        None | Some(Value::Null) => false,
        Some(v) => py::lax::bool_(v).map_err(|e| invalid(format!("ValidationError: 1 validation error for Skill | disable_model_invocation | {e}"), fm.line(&flag_key)))?,
    };
    if fm.line(&flag_key).is_some() && flag.is_some_and(|v| !matches!(v, Value::Null)) {
        set(&mut fields, "disable_model_invocation", json!(disable), FieldOrigin::own(&src, fm.line(&flag_key), "read from the front matter"));
    }
    if let Some((servers, line)) = mcp {
        let origin = match line {
            Some(l) => FieldOrigin::own(&src, Some(l), "`mcp_tools:` in the front matter"),
            None => FieldOrigin::default("the skill folder's .mcp.json"),
        };
        set(&mut fields, "mcp_tools", servers, origin);
    }
    let keywords: Vec<Value> = match fm.get("triggers") {
        None => Vec::new(),
        Some(Value::Seq(items)) => items.iter().map(|n| n.value.clone()).collect(),
        Some(_) => return Err(invalid("SkillValidationError: Triggers must be a list of strings", fm.line("triggers"))),
    };
    let strings = |items: &[Value], what: &str| -> Result<Vec<String>, Failure> {
        items.iter().map(|v| py::lax::str_(v).map_err(|e| invalid(format!("ValidationError: 1 validation error for {what} | {e}"), fm.line("triggers")))).collect()
    };
    let paths: Vec<String> = match fm.get("paths") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Str(s)) => s.split(',').map(|p| py::strip(p).to_string()).filter(|p| !p.is_empty()).collect(),
        Some(Value::Seq(items)) => items.iter().map(|n| py::strip(&py::str_of(&n.value)).to_string()).filter(|p| !p.is_empty()).collect(),
        Some(_) => return Err(invalid("SkillValidationError: paths must be a string or list", fm.line("paths"))),
    };
    let mut content = body.to_string();
    let trigger = if !paths.is_empty() {
        disable = true;
        set(&mut fields, "disable_model_invocation", json!(true), FieldOrigin::default("path rules are never offered to the model"));
        set(&mut fields, "trigger", json!({"paths": paths, "type": "path"}), own("paths", "`paths:`: injected when a matching file is touched (`triggers` and `inputs` ignored)"));
        Some(Trigger::Path)
    } else if fm.entry("inputs").is_some() {
        let mut words = strings(&keywords, "TaskTrigger")?;
        let slash = format!("/{name}");
        if !words.contains(&slash) {
            words.push(slash);
        }
        let Some(Value::Seq(raw)) = fm.get("inputs") else { return Err(invalid("SkillValidationError: inputs must be a list", fm.line("inputs"))) };
        let inputs = raw.iter().map(|n| input(&n.value).map_err(|e| invalid(format!("ValidationError: 1 validation error for InputMetadata | {e}"), fm.line("inputs")))).collect::<Result<Vec<_>, _>>()?;
        let variables = regex::Regex::new(r"\$\{[a-zA-Z_][a-zA-Z0-9_]*\}").map(|re| re.is_match(&content)).unwrap_or(false);
        const ASK: &str = "\n\nIf the user didn't provide any of these variables, ask the user to provide them first before the agent can proceed with the task.";
        if (variables || !inputs.is_empty()) && !content.is_empty() && !content.contains(ASK) {
            content.push_str(ASK);
        }
        set(&mut fields, "inputs", Json::Array(inputs), own("inputs", "`inputs:` (a task skill)"));
        set(&mut fields, "trigger", json!({"triggers": words, "type": "task"}), own("inputs", "`inputs:` makes a task skill, called by `/NAME` or its triggers"));
        Some(Trigger::Task)
    } else if !keywords.is_empty() {
        let words = strings(&keywords, "KeywordTrigger")?;
        set(&mut fields, "trigger", json!({"keywords": words, "type": "keyword"}), own("triggers", "`triggers:`: injected when a keyword appears in a message"));
        Some(Trigger::Keyword)
    } else {
        None
    };
    if agentskills {
        set(&mut fields, "is_agentskills_format", json!(true), FieldOrigin::default("a SKILL.md folder"));
    }
    let content_str: Arc<str> = content.into();
    Ok(Skill {
        name,
        content: Text::held(content_str.clone()),
        content_str,
        trigger,
        agentskills,
        disable_model_invocation: disable,
        description,
        fields,
        attributes: Attributes::default(),
    })
}

/// `InputMetadata.model_validate`: a mapping with string `name` and `description`.
fn input(v: &Value) -> Result<Json, String> {
    let Value::Map(m) = v else { return Err(format!("Input should be a valid dictionary or instance of InputMetadata, got {}", v.type_name())) };
    let get = |k: &str| m.entries.iter().find(|(key, _)| matches!(&key.value, Value::Str(s) if s == k)).map(|(_, v)| &v.value);
    let field = |k: &str| match get(k) {
        None => Err(format!("{k} | Field required")),
        Some(v) => py::lax::str_(v).map_err(|e| format!("{k} | {e}")),
    };
    Ok(json!({"description": field("description")?, "name": field("name")?}))
}

/// The model's fields at their defaults, in `model_dump`'s order.
fn defaults() -> Vec<Field> {
    let d = |k: &'static str, v: Json, why: &'static str| Field::new(k, v, FieldOrigin::default(why));
    vec![
        d("trigger", Json::Null, "default: none (always in the context for a legacy file, read on demand for a SKILL.md)"),
        d("mcp_tools", Json::Null, "default: none"),
        d("inputs", json!([]), "default: none"),
        d("is_agentskills_format", json!(false), "default: a legacy OpenHands skill"),
        d("description", Json::Null, "default: none"),
        d("license", Json::Null, "default: none"),
        d("compatibility", Json::Null, "default: none"),
        d("metadata", Json::Null, "default: none"),
        d("allowed_tools", Json::Null, "default: none"),
        d("disable_model_invocation", json!(false), "default: the model may invoke it"),
    ]
}

fn set(fields: &mut [Field], key: &str, value: Json, origin: FieldOrigin) {
    if let Some(f) = fields.iter_mut().find(|f| f.key == key) {
        *f = Field::new(f.key.clone(), value, origin);
    }
}

/// `maybe_truncate(text, limit, notice)`: head and tail kept around the notice.
pub fn maybe_truncate(text: &str, limit: usize, notice: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let notice_len = notice.chars().count();
    if chars.len() <= limit {
        return text.to_string();
    }
    if notice_len >= limit {
        return notice.chars().take(limit).collect();
    }
    let available = limit - notice_len;
    let head = available / 2 + available % 2;
    let tail = available - head;
    let mut out: String = chars[..head].iter().collect();
    out.push_str(notice);
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// `render_content_with_commands` without running anything: `\!`cmd`` loses its
/// backslash; whether an inline `!`cmd`` (which OpenHands runs) is left.
pub fn render_body(content: &str) -> (String, bool) {
    let b = content.as_bytes();
    let (mut out, mut i, mut commands) = (String::with_capacity(content.len()), 0, false);
    let closing = |from: usize| content[from..].find('`').map(|k| from + k).filter(|&k| k > from);
    while i < b.len() {
        if content[i..].starts_with("```") {
            let end = content[i + 3..].find("```").map_or(b.len(), |k| i + 3 + k + 3);
            out.push_str(&content[i..end]);
            i = end;
        } else if content[i..].starts_with("\\!`") && closing(i + 3).is_some() {
            let end = closing(i + 3).unwrap_or(i + 3) + 1;
            out.push_str(&content[i + 1..end]);
            i = end;
        } else if b[i] == b'`' && (i == 0 || b[i - 1] != b'!') && closing(i + 1).is_some() {
            let end = closing(i + 1).unwrap_or(i + 1) + 1;
            out.push_str(&content[i..end]);
            i = end;
        } else if content[i..].starts_with("!`") && closing(i + 2).is_some() {
            commands = true;
            let end = closing(i + 2).unwrap_or(i + 2) + 1;
            out.push_str(&content[i..end]);
            i = end;
        } else {
            let len = content[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&content[i..i + len]);
            i += len;
        }
    }
    (out, commands)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_keeps_code_and_unescapes_commands_it_does_not_run() {
        assert_eq!(render_body("a \\!`ls` b"), ("a !`ls` b".to_string(), false));
        assert_eq!(render_body("`!x` ```\n!`ls`\n```"), ("`!x` ```\n!`ls`\n```".to_string(), false));
        assert_eq!(render_body("run !`date` now"), ("run !`date` now".to_string(), true));
    }

    #[test]
    fn skill_md_names_follow_the_agentskills_rules() {
        assert!(name_errors("pdf-tools", "pdf-tools").is_empty());
        assert_eq!(name_errors("", "x"), vec!["Name cannot be empty".to_string()]);
        assert_eq!(name_errors("a--b", "a--b").len(), 1);
        assert_eq!(name_errors("Upper", "other").len(), 2);
    }
}
