//! One `SKILL.md` as Qwen Code 0.24.4's `SkillManager.parseSkillContent` reads it
//! (and `skill-load.ts`'s copy for extension skills, which reads no `hooks`):
//! `normalizeContent`, the front-matter regex, the `yaml` package with the line
//! parser behind it (nulls stripped), the required `name` and `description`, the
//! name rule and the `SkillConfig` field parsers of `skills/types.ts`.

use std::sync::LazyLock;

use serde_json::{Map, Value as Json};

use super::definition::{key_line, Cause};
use super::js::{self, Js};
use super::yaml;

/// A skill as the loader returns it.
#[derive(Debug)]
pub struct SkillFile {
    pub name: String,
    pub description: String,
    /// The `SkillConfig` keys the oracle reports, null when unset, with their lines.
    pub fields: Vec<(&'static str, Json, Option<u32>)>,
    pub body: String,
    /// `disable-model-invocation`: the model is not told of it.
    pub user_only: bool,
    /// `paths:`: listed only once a tool touches a matching file.
    pub conditional: bool,
}

#[derive(Debug)]
pub struct Failure {
    pub cause: Cause,
    pub message: String,
    pub line: Option<u32>,
}

/// `SKILL_NAME_PATTERN`.
static NAME: LazyLock<Option<regex::Regex>> = LazyLock::new(|| regex::Regex::new(r"^[\p{L}\p{N}_:.-]+$").ok());

/// The hook events Qwen Code knows (`HookEventName`).
const EVENTS: [&str; 22] = [
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "UserPromptSubmit", "UserPromptExpansion",
    "SessionStart", "Stop", "MessageDisplay", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
    "SessionDelete", "PermissionRequest", "PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted", "InstructionsLoaded",
];

/// `normalizeContent` (one BOM dropped, CRLF and CR made LF), then
/// `^---\n([\s\S]*?)\n---(?:\n|$)([\s\S]*)$`: the front matter and the body.
pub fn split(content: &str) -> Option<(String, String)> {
    let text = content.strip_prefix('\u{feff}').unwrap_or(content).replace("\r\n", "\n").replace('\r', "\n");
    let rest = text.strip_prefix("---\n")?;
    let mut from = 0;
    loop {
        let at = from + rest[from..].find("\n---")?;
        let after = &rest[at + 4..];
        if after.is_empty() || after.starts_with('\n') {
            return Some((rest[..at].to_string(), after.strip_prefix('\n').unwrap_or(after).to_string()));
        }
        from = at + 1;
    }
}

fn fail(cause: Cause, message: impl Into<String>, line: Option<u32>) -> Failure {
    Failure { cause, message: format!("Failed to parse skill file: {}", message.into()), line }
}

/// The file's bytes (read as UTF-8, invalid bytes replaced), as the loader of an
/// extension's skills (`extension`) or of the other levels parses them.
pub fn parse(bytes: &[u8], extension: bool) -> Result<SkillFile, Failure> {
    let content = String::from_utf8_lossy(bytes);
    let Some((front, body)) = split(&content) else {
        return Err(fail(Cause::Parse, "Invalid format: missing YAML frontmatter", Some(1)));
    };
    let fm = Js::Map(yaml::parse(&front).object);
    let line = |key: &str| key_line(&front, key);
    let invalid = |message: String, key: &str| fail(Cause::Validation, message, line(key));
    let present = |key: &str| fm.get(key).filter(|v| **v != Js::Str(String::new()));
    let name = present("name").ok_or_else(|| invalid("Missing \"name\" in frontmatter".into(), "name"))?.to_js_string();
    let description = present("description").ok_or_else(|| invalid("Missing \"description\" in frontmatter".into(), "description"))?.to_js_string();
    if !NAME.as_ref().is_some_and(|re| re.is_match(&name)) {
        return Err(invalid(format!("\"name\" must match /^[\\p{{L}}\\p{{N}}_:.-]+$/u (letters, digits, _, :, ., -); got \"{name}\""), "name"));
    }
    let allowed_tools = match fm.get("allowedTools") {
        None => Json::Null,
        Some(Js::Seq(items)) => Json::from(items.iter().map(Js::to_js_string).collect::<Vec<_>>()),
        Some(_) => return Err(invalid("\"allowedTools\" must be an array".into(), "allowedTools")),
    };
    let hooks = match fm.get("hooks") {
        Some(Js::Map(events)) if !extension => Json::Object(hooks_of(events)),
        _ => Json::Null,
    };
    let model = match fm.get("model") {
        None => Json::Null,
        Some(Js::Str(m)) => match js::trim(m) {
            "" | "inherit" => Json::Null,
            m => Json::from(m),
        },
        Some(_) => return Err(invalid("\"model\" must be a string".into(), "model")),
    };
    let string = |key: &str| fm.get(key).and_then(Js::as_str).map_or(Json::Null, Json::from);
    let user_only = matches!(fm.get("disable-model-invocation"), Some(Js::Bool(true))) || fm.get("disable-model-invocation").and_then(Js::as_str) == Some("true");
    let user_invocable = match fm.get("user-invocable") {
        Some(Js::Bool(b)) => Json::Bool(*b),
        Some(Js::Str(s)) if s == "true" || s == "false" => Json::Bool(s == "true"),
        _ => Json::Null,
    };
    let paths = paths(fm.get("paths")).map_err(|m| invalid(m, "paths"))?;
    // A priority that is not a finite number is ignored (a warning in the debug log).
    let priority = match fm.get("priority") {
        Some(Js::Num(n)) if n.is_finite() => Js::Num(*n).to_json(),
        _ => Json::Null,
    };
    if js::trim(&description).is_empty() {
        return Err(invalid("Validation failed: \"description\" cannot be empty".into(), "description"));
    }
    let conditional = !paths.is_null();
    let fields = vec![
        ("description", Json::from(description.as_str()), line("description")),
        ("whenToUse", string("when_to_use"), line("when_to_use")),
        ("allowedTools", allowed_tools, line("allowedTools")),
        ("model", model, line("model")),
        ("argumentHint", string("argument-hint"), line("argument-hint")),
        ("disableModelInvocation", if user_only { Json::Bool(true) } else { Json::Null }, line("disable-model-invocation")),
        ("userInvocable", user_invocable, line("user-invocable")),
        ("paths", paths, line("paths")),
        ("priority", priority, line("priority")),
        ("hooks", hooks, line("hooks")),
    ];
    Ok(SkillFile { name, description, fields, body: js::trim(&body).to_string(), user_only, conditional })
}

/// `parsePathsField`: project-relative glob patterns, trimmed; an empty list is none.
fn paths(raw: Option<&Js>) -> Result<Json, String> {
    let items = match raw {
        None | Some(Js::Null) => return Ok(Json::Null),
        Some(Js::Seq(items)) => items,
        Some(_) => return Err("\"paths\" must be an array of glob patterns".into()),
    };
    let cleaned: Vec<String> = items.iter().map(|p| js::trim(&p.to_js_string()).to_string()).filter(|p| !p.is_empty()).collect();
    for pattern in &cleaned {
        let normalized = pattern.replace('\\', "/");
        let b = normalized.as_bytes();
        if normalized.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':') {
            return Err(format!("\"paths\" entry \"{pattern}\" looks absolute; patterns are project-root-relative \u{2014} drop the leading slash / drive letter"));
        }
        if normalized.split('/').any(|s| s == "..") {
            return Err(format!("\"paths\" entry \"{pattern}\" contains a \"..\" segment that escapes the project root; patterns must stay within the project"));
        }
    }
    Ok(if cleaned.is_empty() { Json::Null } else { Json::from(cleaned) })
}

/// `parseHooksConfig`: known events with matcher lists; a matcher keeps its command
/// and http hooks (unknown types dropped) and is dropped when none is left.
fn hooks_of(events: &[(String, Js, u32)]) -> Map<String, Json> {
    let mut out = Map::new();
    for (event, matchers, _) in events {
        let Js::Seq(matchers) = matchers else { continue };
        if !EVENTS.contains(&event.as_str()) {
            continue;
        }
        let kept: Vec<Json> = matchers.iter().filter_map(matcher_of).collect();
        if !kept.is_empty() {
            out.insert(event.clone(), Json::from(kept));
        }
    }
    out
}

fn matcher_of(matcher: &Js) -> Option<Json> {
    let Some(Js::Seq(hooks)) = matcher.get("hooks") else { return None };
    let keys: &[&str] = &[];
    let kept: Vec<Json> = hooks
        .iter()
        .filter_map(|h| {
            let keys = match h.get("type").and_then(Js::as_str) {
                Some("command") => ["command", "timeout", "statusMessage", "shell"].as_slice(),
                Some("http") => ["url", "headers", "allowedEnvVars", "timeout", "statusMessage"].as_slice(),
                _ => keys,
            };
            if keys.is_empty() {
                return None;
            }
            let mut hook = Map::new();
            hook.insert("type".into(), h.get("type").map_or(Json::Null, Js::to_json));
            for k in keys {
                if let Some(v) = h.get(k) {
                    hook.insert((*k).into(), v.to_json());
                }
            }
            Some(Json::Object(hook))
        })
        .collect();
    if kept.is_empty() {
        return None;
    }
    let mut out = Map::new();
    if let Some(m) = matcher.get("matcher") {
        out.insert("matcher".into(), m.to_json());
    }
    out.insert("hooks".into(), Json::from(kept));
    Some(Json::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(text: &str) -> Result<SkillFile, Failure> {
        parse(text.as_bytes(), false)
    }

    #[test]
    fn the_closing_line_is_exactly_three_dashes() {
        assert_eq!(split("\u{feff}---\r\nname: a\r---\rbody").map(|s| s.1), Some("body".into()));
        assert!(split("---\nname: a\n--- end\nbody").is_none());
        assert_eq!(split("---\nname: a\n----\n---").map(|s| s.0), Some("name: a\n----".into()));
    }

    #[test]
    fn names_are_strings_of_letters_digits_and_marks() {
        assert_eq!(skill("---\nname: [a, b]\ndescription: d\n---\n").map(|s| s.name).ok(), None);
        assert_eq!(skill("---\nname: 42\ndescription: 7\n---\nB").unwrap().description, "7");
        assert!(skill("---\nname: a b\ndescription: d\n---\n").is_err());
        assert!(skill("---\nname: x\ndescription: \"  \"\n---\n").is_err());
    }

    #[test]
    fn fields_follow_their_parsers() {
        let s = skill("---\nname: x\ndescription: d\nallowedTools: [a, 3]\nmodel: inherit\npriority: high\npaths: []\n---\n").unwrap();
        let get = |k: &str| s.fields.iter().find(|f| f.0 == k).map(|f| f.1.clone()).unwrap();
        assert_eq!(get("allowedTools"), serde_json::json!(["a", "3"]));
        assert_eq!((get("model"), get("priority"), get("paths")), (Json::Null, Json::Null, Json::Null));
        assert!(skill("---\nname: x\ndescription: d\nmodel: 3\n---\n").is_err());
        assert!(skill("---\nname: x\ndescription: d\npaths: [../a]\n---\n").is_err());
    }
}
