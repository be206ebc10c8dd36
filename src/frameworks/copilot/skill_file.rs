//! One skill file (`SKILL.md`, or a `.claude/commands/*.md` file) as Copilot CLI
//! 1.0.102's native skill loader reads it (spec "Skills" K2–K4, observed): bytes
//! read lossily (invalid UTF-8 becomes U+FFFD, no error), a BOM dropped, CRLF read
//! as LF; front matter between a `---` first line and the next `---` line, parsed
//! by serde_yaml (empty or not a mapping: no keys); the name from `name` or the
//! folder; the description from `description` or the body's first lines.

use serde_yaml::Value;

use super::frontmatter::{parse_yaml, Failure};
use crate::model::DiagKind;

/// What kind of file a skill comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A `SKILL.md`: front matter required, the name defaults to its folder's.
    Skill,
    /// A `.claude/commands/*.md` file: front matter optional, the name defaults to
    /// the file stem.
    Command,
}

/// A skill file that loaded.
#[derive(Debug)]
pub struct SkillDef {
    pub name: String,
    pub description: String,
    /// Whether `description` was written (else it comes from the body).
    pub described: bool,
    pub user_invocable: bool,
    pub disable_model_invocation: bool,
    /// `allowed-tools` as written (a string or a list of strings).
    pub allowed_tools: Option<serde_json::Value>,
    /// The text after the front matter, leading blank lines removed (unmasked).
    pub body: String,
    /// Top-level keys and their file lines.
    pub lines: Vec<(String, u32)>,
}

impl SkillDef {
    pub fn line(&self, key: &str) -> Option<u32> {
        self.lines.iter().find(|(k, _)| k == key).map(|&(_, l)| l)
    }
}

const MISSING: &str = "missing or malformed YAML frontmatter";
/// The message when there is no `name` and the folder (or file stem) gives no valid
/// one: an error for a `SKILL.md`, a silent drop for a command file.
pub const UNDERIVABLE: &str = "could not derive a valid skill name from the folder path";
const NAME_RULE: &str = "Skill name must start with an ASCII letter or number and contain only ASCII letters (a-z, A-Z), numbers, hyphens, underscores, dots, colons, and spaces";
/// The longest name and description the loader takes.
pub const MAX_NAME: usize = 64;
pub const MAX_DESCRIPTION: usize = 1024;

fn validation(message: impl Into<String>, line: Option<u32>) -> Failure {
    Failure { kind: DiagKind::Validation, message: message.into(), line, col: None }
}

/// A name as the loader takes it: trimmed, spaces turned into `-`; `None` when it
/// breaks the character rule.
fn normalize_name(raw: &str) -> Result<String, &'static str> {
    let name = raw.trim().replace(' ', "-");
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c)) {
        return Err(NAME_RULE);
    }
    if name.chars().count() > MAX_NAME {
        return Err("Skill name must be at most 64 characters");
    }
    Ok(name)
}

/// Reads `bytes` as a skill file of `form`; `fallback` is the folder name or the
/// command file's stem, used when there is no `name` key.
pub fn parse(bytes: &[u8], form: Form, fallback: &str) -> Result<SkillDef, Failure> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).replace("\r\n", "\n");
    let missing = || Failure::parse(MISSING, Some(1), None);
    let mut lines = text.split_inclusive('\n');
    let opens = text.split('\n').next().is_some_and(|l| l.trim_end() == "---");
    let (yaml_text, rest): (String, String) = if opens {
        lines.next();
        let mut yaml = Vec::new();
        let mut closed = false;
        for line in lines.by_ref() {
            if line.trim_end() == "---" {
                closed = true;
                break;
            }
            yaml.push(line);
        }
        if !closed {
            return Err(missing());
        }
        // Without the last line end: a folded or literal block at the end keeps none.
        let yaml = yaml.concat();
        (yaml.strip_suffix('\n').unwrap_or(&yaml).to_string(), lines.collect())
    } else if form == Form::Command {
        (String::new(), text.clone())
    } else {
        return Err(missing());
    };
    let yaml = parse_yaml(&yaml_text).map_err(|e| {
        let loc = e.location();
        Failure::parse(format!("failed to parse YAML frontmatter: {e}"), Some(loc.map_or(1, |(l, _)| l as u32 + 1)), loc.map(|(_, c)| c as u32))
    })?;
    let body = rest.trim_start_matches('\n').to_string();
    let map = match &yaml {
        Value::Mapping(m) => Some(m),
        _ => None,
    };
    let key_lines: Vec<(String, u32)> = map
        .into_iter()
        .flatten()
        .filter_map(|(k, _)| k.as_str().map(|k| (k.to_string(), key_line(&yaml_text, k))))
        .collect();
    let get = |key: &str| map.and_then(|m| m.get(key));
    let line_of = |key: &str| key_lines.iter().find(|(k, _)| k == key).map(|&(_, l)| l);
    let name = match get("name") {
        Some(v) => {
            let raw = v.as_str().ok_or_else(|| validation("Skill name must be a string", line_of("name")))?;
            normalize_name(raw).map_err(|m| validation(m, line_of("name")))?
        }
        None => normalize_name(fallback).map_err(|_| validation(UNDERIVABLE, None))?,
    };
    let (description, described) = match get("description") {
        Some(v) => {
            let d = v.as_str().ok_or_else(|| validation("Skill description must be a string", line_of("description")))?;
            if d.chars().count() > MAX_DESCRIPTION {
                return Err(validation("Skill description must be at most 1024 characters", line_of("description")));
            }
            (d.to_string(), true)
        }
        None => (description_from_body(&body), false),
    };
    let flag = |key: &str, default: bool| match get(key) {
        None => Ok(default),
        Some(v) => v.as_bool().ok_or_else(|| validation(format!("{key} must be a boolean"), line_of(key))),
    };
    // `argument-hint` is not used by the loader, but its type is checked (observed:
    // a list, a number or a boolean fails; null or a string passes).
    if get("argument-hint").is_some_and(|v| !v.is_null() && !v.is_string()) {
        return Err(validation("argument-hint must be a string", line_of("argument-hint")));
    }
    let user_invocable = flag("user-invocable", true)?;
    let disable_model_invocation = flag("disable-model-invocation", false)?;
    let allowed_tools = match get("allowed-tools") {
        None => None,
        Some(Value::String(s)) => Some(serde_json::Value::from(s.as_str())),
        Some(Value::Sequence(items)) if items.iter().all(Value::is_string) => {
            Some(items.iter().filter_map(Value::as_str).collect::<Vec<_>>().into())
        }
        Some(_) => return Err(validation("allowed-tools must be a string or array of strings", line_of("allowed-tools"))),
    };
    Ok(SkillDef { name, description, described, user_invocable, disable_model_invocation, allowed_tools, body, lines: key_lines })
}

/// The description of a skill without one: the body's first three non-empty lines
/// that are not Markdown headings, joined with spaces.
fn description_from_body(body: &str) -> String {
    let lines: Vec<&str> = body.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).take(3).collect();
    lines.join(" ")
}

/// The file line of top-level `key` (the front matter starts on line 2).
fn key_line(yaml: &str, key: &str) -> u32 {
    for (i, line) in yaml.lines().enumerate() {
        if line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        if line.split_once(':').is_some_and(|(k, _)| k.trim().trim_matches(|c| c == '"' || c == '\'') == key) {
            return i as u32 + 2;
        }
    }
    2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> SkillDef {
        parse(text.as_bytes(), Form::Skill, "folder").expect("loads")
    }

    fn err(text: &[u8], form: Form) -> (DiagKind, String) {
        let f = parse(text, form, "folder").expect_err("fails");
        (f.kind, f.message)
    }

    #[test]
    fn names_come_from_the_key_or_the_folder() {
        assert_eq!(ok("---\nname: '  my skill '\n---\nx\n").name, "my-skill");
        assert_eq!(ok("---\ndescription: d\n---\nx\n").name, "folder");
        assert_eq!(ok("---\nname: ns:tool.v2_x\n---\n").name, "ns:tool.v2_x");
        assert_eq!(err(b"---\nname: 2024\n---\n", Form::Skill).1, "Skill name must be a string");
        assert_eq!(err(b"---\nname: -x\n---\n", Form::Skill).1, NAME_RULE);
        assert_eq!(err(format!("---\nname: {}\n---\n", "n".repeat(65)).as_bytes(), Form::Skill).1, "Skill name must be at most 64 characters");
        assert!(parse(b"---\n---\n", Form::Skill, "bad folder!").is_err());
    }

    #[test]
    fn descriptions_bodies_and_flags() {
        let d = ok("---\n---\n# Title\n\nFirst line\nsecond\n\nthird\nfourth\n");
        assert_eq!((d.description.as_str(), d.described), ("First line second third", false));
        assert_eq!(ok("---\ndescription: ''\n---\nbody\n").description, "");
        assert_eq!(ok("\u{feff}---\r\nname: a\r\n---\r\n\r\n  x  \r\n\r\n").body, "  x  \n\n");
        assert_eq!(ok("---\n- a\n---\nlist fm\n").description, "list fm");
        assert_eq!(ok("---\ndescription: caf\u{e9}\n---\n").description, "café");
        assert_eq!(parse(b"---\ndescription: caf\xe9\n---\n", Form::Skill, "f").expect("lossy").description, "caf\u{fffd}");
        assert_eq!(err(b"---\ndescription: 42\n---\n", Form::Skill).1, "Skill description must be a string");
        assert_eq!(err(b"---\ndisable-model-invocation: yes\n---\n", Form::Skill).1, "disable-model-invocation must be a boolean");
        assert_eq!(err(b"---\nallowed-tools: 5\n---\n", Form::Skill).1, "allowed-tools must be a string or array of strings");
        assert!(!ok("---\nuser-invocable: false\n---\n").user_invocable);
        assert_eq!(err(b"---\nargument-hint: [a]\n---\n", Form::Skill).1, "argument-hint must be a string");
        assert_eq!(err(b"---\nargument-hint: 5\n---\n", Form::Skill).1, "argument-hint must be a string");
        assert_eq!(ok("---\nargument-hint: ~\n---\n").name, "folder");
        assert_eq!(ok("---\nargument-hint: '[file]'\n---\n").name, "folder");
    }

    #[test]
    fn front_matter_shapes() {
        for text in ["", "\n---\nname: a\n---\n", "---\nname: a\n...\n", "---\nname: a\n", "text only\n"] {
            assert_eq!(err(text.as_bytes(), Form::Skill), (DiagKind::Parse, MISSING.to_string()), "{text:?}");
        }
        assert_eq!(err(b"---\ndescription: a\ndescription: b\n---\n", Form::Skill).0, DiagKind::Parse);
        let plain = parse(b"no front matter at all\n", Form::Command, "plain").expect("a command needs none");
        assert_eq!((plain.name.as_str(), plain.body.as_str()), ("plain", "no front matter at all\n"));
    }
}
