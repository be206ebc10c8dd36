//! One skill file as Kimi Code 2.1.0 reads it: `parseSkillText` over
//! `parseFrontmatter` (`features/skill/catalog/parser.ts`, `_base/text/frontmatter.ts`).
//! A `SKILL.md` needs front matter with string `name` and `description`; a flat
//! `NAME.md` needs nothing (its stem, its first body line).

use crate::jsyaml::{self, Js};
use crate::model::DiagKind;
use crate::text::js::trim as js_trim;

/// What a skill file defines.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillDef {
    pub name: String,
    pub description: String,
    /// `whenToUse` (or an alias): a string as written, kept when not empty.
    pub when_to_use: Option<String>,
    /// `disableModelInvocation`: only the boolean `true` counts.
    pub disable_model_invocation: bool,
    /// `type` as written (`prompt`, `inline`, `flow`, `reference`); `None` when absent.
    pub kind: Option<String>,
    /// The `arguments` names the body's `$name` placeholders take.
    pub arguments: Vec<String>,
    /// `has-sub-skill` / `hasSubSkill` (top level or under `metadata`) is `true`.
    pub has_sub_skill: bool,
    /// The body, trimmed.
    pub content: String,
    /// 1-based file lines of the keys read.
    pub lines: Vec<(String, u32)>,
}

impl SkillDef {
    /// Inline skills (no type, `prompt`, `inline`) are the ones the model may start.
    pub fn is_inline(&self) -> bool {
        matches!(self.kind.as_deref(), None | Some("prompt") | Some("inline"))
    }
}

/// Why a file did not load: `parse`, `validation`, or `skipped` for a type Kimi
/// Code does not support (dropped without a log line).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub kind: DiagKind,
    pub message: String,
    pub line: Option<u32>,
}

/// `METADATA_ALIASES`.
fn canonical(key: &str) -> &str {
    match key {
        "when-to-use" | "when_to_use" => "whenToUse",
        "disable-model-invocation" | "disable_model_invocation" => "disableModelInvocation",
        other => other,
    }
}

/// Parses `text` (the file decoded as UTF-8, bad bytes replaced), found at `shown`;
/// `stem` names a flat file (its name less `.md`) or a skill folder.
pub fn parse(text: &str, shown: &str, stem: &str, folder_skill: bool) -> Result<SkillDef, Refusal> {
    let refuse = |kind, message: String, line| Refusal { kind, message, line };
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let fenced = lines.first().map(|l| js_trim(l)) == Some("---");
    if folder_skill && !fenced {
        return Err(refuse(DiagKind::Parse, format!("Missing frontmatter in {shown}"), Some(1)));
    }
    let (entries, body, offset) = if fenced {
        let Some(close) = lines.iter().enumerate().skip(1).find(|(_, l)| js_trim(l) == "---").map(|(i, _)| i) else {
            return Err(refuse(DiagKind::Parse, format!("Invalid frontmatter in {shown}: Missing closing frontmatter fence"), Some(1)));
        };
        let joined = lines[1..close].join("\n");
        let yaml = js_trim(&joined);
        let lead = joined[..joined.len() - joined.trim_start().len()].matches('\n').count() as u32;
        let data = if yaml.is_empty() {
            Js::Map(Vec::new())
        } else {
            match jsyaml::load(yaml, jsyaml::Version::V4) {
                Ok(Js::Null) => Js::Map(Vec::new()),
                Ok(v) => v,
                Err(e) => return Err(refuse(DiagKind::Parse, format!("Invalid frontmatter in {shown}: {}", e.message), e.line().map(|l| l + 1 + lead))),
            }
        };
        let Js::Map(entries) = data else {
            return Err(refuse(DiagKind::Parse, format!("Frontmatter in {shown} must be a mapping at the top level"), Some(2)));
        };
        (entries, lines[close + 1..].join("\n"), 1 + lead)
    } else {
        // Without front matter the body is the raw text (CRLF kept).
        (Vec::new(), text.to_string(), 0)
    };
    // Aliases mapped first; a later key of one meaning replaces an earlier one.
    let mut meta: Vec<(String, &Js, u32)> = Vec::new();
    for (k, v, line) in &entries {
        let key = canonical(k).to_string();
        meta.retain(|(m, _, _)| *m != key);
        meta.push((key, v, line + offset));
    }
    let get = |key: &str| meta.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| *v);
    let line_of = |key: &str| meta.iter().find(|(k, _, _)| k == key).map(|(_, _, l)| *l);
    let string = |key: &str| match get(key) {
        Some(Js::Str(s)) if !js_trim(s).is_empty() => Some(js_trim(s).to_string()),
        _ => None,
    };
    let kind = match get("type") {
        None => None,
        Some(Js::Str(s)) if !js_trim(s).is_empty() => Some(js_trim(s).to_string()),
        Some(other) => {
            let shown_type = match other {
                Js::Str(s) => s.clone(),
                v => js_string(v),
            };
            return Err(unsupported(&shown_type, line_of("type")));
        }
    };
    if let Some(t) = &kind {
        if !matches!(t.as_str(), "prompt" | "inline" | "flow" | "reference") {
            return Err(unsupported(t, line_of("type")));
        }
    }
    let name = string("name");
    let description = string("description");
    if folder_skill && (name.is_none() || description.is_none()) {
        let (field, key) = if name.is_none() { ("\"name\"", "name") } else { ("\"description\"", "description") };
        let message = format!("Missing required frontmatter field {field} in {shown}");
        return Err(refuse(DiagKind::Validation, message, line_of(key).or(Some(2))));
    }
    let content = js_trim(&body).to_string();
    let when_to_use = match get("whenToUse") {
        Some(Js::Str(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    };
    let flag = |v: Option<&Js>| matches!(v, Some(Js::Bool(true)));
    let nested = match get("metadata") {
        Some(Js::Map(m)) => m.iter().any(|(k, v, _)| (k == "has-sub-skill" || k == "hasSubSkill") && matches!(v, Js::Bool(true))),
        _ => false,
    };
    Ok(SkillDef {
        name: name.unwrap_or_else(|| stem.to_string()),
        description: description.unwrap_or_else(|| description_from_body(&content)),
        when_to_use,
        disable_model_invocation: flag(get("disableModelInvocation")),
        kind,
        arguments: argument_names(get("arguments")),
        has_sub_skill: flag(get("has-sub-skill")) || flag(get("hasSubSkill")) || nested,
        content,
        lines: meta.iter().map(|(k, _, l)| (k.clone(), *l)).collect(),
    })
}

fn unsupported(kind: &str, line: Option<u32>) -> Refusal {
    let message = format!("Skill type \"{kind}\" is not supported; only \"prompt\", \"inline\", and \"flow\" are supported.");
    Refusal { kind: DiagKind::Skipped, message, line }
}

/// JavaScript's `String(value)` for the scalars a `type` may be.
fn js_string(v: &Js) -> String {
    match v {
        Js::Null => "null".into(),
        Js::Bool(b) => b.to_string(),
        Js::Num(n) if *n == n.trunc() && n.abs() < 1e21 => format!("{}", *n as i64),
        Js::Num(n) => n.to_string(),
        Js::Str(s) | Js::Date(s) => s.clone(),
        Js::Seq(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Js::Map(_) => "[object Object]".into(),
    }
}

/// `descriptionFromBody`: the first non-blank line, trimmed, cut to 239 UTF-16 units
/// and `…` when longer than 240.
fn description_from_body(body: &str) -> String {
    let Some(first) = body.split('\n').map(|l| js_trim(l.strip_suffix('\r').unwrap_or(l))).find(|l| !l.is_empty()) else {
        return "No description provided.".into();
    };
    let units: Vec<u16> = first.encode_utf16().collect();
    if units.len() <= 240 {
        return first.to_string();
    }
    format!("{}…", String::from_utf16_lossy(&units[..239]))
}

/// `skillArgumentNames`: a string split on blanks, or the strings of a list; blank
/// and all-digit names dropped.
fn argument_names(v: Option<&Js>) -> Vec<String> {
    let valid = |n: &str| !n.trim().is_empty() && !n.bytes().all(|b| b.is_ascii_digit());
    match v {
        Some(Js::Str(s)) => s.split_whitespace().filter(|n| valid(n)).map(str::to_string).collect(),
        Some(Js::Seq(items)) => items.iter().filter_map(|i| if let Js::Str(s) = i { valid(s).then(|| s.clone()) } else { None }).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_skills_need_name_and_description() {
        let e = parse("---\ndescription: d\n---\nB", "p", "x", true).unwrap_err();
        assert_eq!(e.message, "Missing required frontmatter field \"name\" in p");
        let e = parse("no front matter", "p", "x", true).unwrap_err();
        assert_eq!((e.kind, e.message.as_str()), (DiagKind::Parse, "Missing frontmatter in p"));
        let d = parse("\u{feff}---  \r\nname: a\r\ndescription: d\r\n\t---\r\nLine\r\n", "p", "x", true).expect("loads");
        assert_eq!((d.name.as_str(), d.content.as_str()), ("a", "Line"));
    }

    #[test]
    fn flat_files_fall_back_to_stem_and_first_line() {
        let d = parse("  First line   \r\nsecond", "p", "notes", false).expect("loads");
        assert_eq!((d.name.as_str(), d.description.as_str(), d.content.as_str()), ("notes", "First line", "First line   \r\nsecond"));
        assert_eq!(parse("", "p", "blank", false).map(|d| d.description), Ok("No description provided.".into()));
        let long = "x".repeat(300);
        assert_eq!(parse(&long, "p", "l", false).map(|d| d.description.chars().count()), Ok(240));
    }

    #[test]
    fn types_aliases_and_arguments() {
        let e = parse("---\nname: a\ndescription: d\ntype: 5\n---\n", "p", "a", true).unwrap_err();
        assert_eq!((e.kind, e.message.as_str()), (DiagKind::Skipped, "Skill type \"5\" is not supported; only \"prompt\", \"inline\", and \"flow\" are supported."));
        let d = parse("---\nname: a\ndescription: d\nwhen_to_use: w\ndisable-model-invocation: \"true\"\narguments: f 2 g\nmetadata: {hasSubSkill: true}\n---\n", "p", "a", true).expect("loads");
        assert_eq!((d.when_to_use.as_deref(), d.disable_model_invocation, d.arguments.clone(), d.has_sub_skill), (Some("w"), false, vec!["f".to_string(), "g".to_string()], true));
    }
}
