//! One agent file as Kimi Code 2.1.0 reads it: `parseFrontmatter`
//! (`_base/text/frontmatter.ts`) and `parseAgentFileText` (`agentFile.ts`).

use serde_json::Value as Json;

use crate::jsyaml::{self, Js};
use crate::model::DiagKind;

/// What a file defines, as `parseAgentFileText` returns it.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub name: String,
    pub description: String,
    pub when_to_use: Option<String>,
    pub override_builtin: bool,
    /// `None`: every tool (absent, null, or exactly `*`).
    pub tools: Option<Vec<String>>,
    pub disallowed_tools: Option<Vec<String>>,
    pub subagents: Option<Vec<String>>,
    /// The body, trimmed: the prompt template.
    pub prompt: String,
    /// Every top-level key as written, with its 1-based file line and value.
    pub keys: Vec<(String, u32, Json)>,
    /// The 1-based file line the body starts on.
    pub body_line: u32,
}

impl Definition {
    pub fn line_of(&self, key: &str) -> Option<u32> {
        self.keys.iter().find(|(k, _, _)| k == key).map(|(_, l, _)| *l)
    }
}

/// Why a file was skipped: `parse` or `validation`, the tool's message, and where.
pub use crate::model::Failure;

pub use crate::text::js::trim as js_trim;

/// `AGENT_NAME_PATTERN`: `^[a-z0-9]+(?:-[a-z0-9]+)*$`.
pub fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// `deriveNameFromPath`: the file name without its last `.xxx`.
pub fn stem_of(file_name: &str) -> &str {
    match file_name.rfind('.') {
        Some(i) => &file_name[..i],
        None => file_name,
    }
}

/// Parses `text` (the file decoded as UTF-8, invalid bytes replaced) found at `path`
/// (`shown`: the path as messages write it) whose own file name is `file_name`.
pub fn parse(text: &str, shown: &str, file_name: &str) -> Result<Definition, Failure> {
    let parse_error = |message: String, line: Option<u32>| Failure { kind: DiagKind::Parse, message, line, col: None };
    let lines: Vec<&str> = split_lines(text);
    if lines.first().map(|l| js_trim(l)) != Some("---") {
        return Err(parse_error(format!("Missing frontmatter in {shown}"), Some(1)));
    }
    let Some(close) = lines.iter().enumerate().skip(1).find(|(_, l)| js_trim(l) == "---").map(|(i, _)| i) else {
        return Err(parse_error(format!("Invalid frontmatter in {shown}: Missing closing frontmatter fence"), Some(1)));
    };
    let joined = lines[1..close].join("\n");
    let yaml_text = js_trim(&joined);
    // Lines the trim removed before the YAML, so js-yaml's lines map onto the file.
    let lead = joined[..joined.len() - joined.trim_start_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}').len()]
        .matches('\n')
        .count() as u32;
    let offset = 1 + lead;
    let body_line = close as u32 + 2;
    let body = lines[close + 1..].join("\n");
    let data = match jsyaml::load(yaml_text, jsyaml::Version::V4) {
        Ok(Js::Null) => Js::Map(Vec::new()),
        Ok(loaded) => loaded,
        Err(e) => return Err(parse_error(format!("Invalid frontmatter in {shown}: {}", e.message), e.line().map(|l| l + offset))),
    };
    let Js::Map(entries) = &data else {
        return Err(parse_error(format!("Frontmatter in {shown} must be a mapping at the top level"), Some(2)));
    };
    let get = |key: &str| entries.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v);
    let line_of = |key: &str| entries.iter().find(|(k, _, _)| k == key).map(|(_, _, l)| l + offset).or(Some(2));
    let invalid = |key: &str, message: String| Failure { kind: DiagKind::Validation, message, line: line_of(key), col: None };

    let name = match get("name") {
        None | Some(Js::Null) => None,
        Some(Js::Str(s)) => Some(js_trim(s)).filter(|s| !s.is_empty()).map(str::to_string),
        Some(_) => return Err(invalid("name", format!("Frontmatter field \"name\" in {shown} must be a non-empty string"))),
    };
    let name = match name {
        Some(n) => n,
        None => {
            let derived = stem_of(file_name);
            if derived.is_empty() {
                return Err(invalid("name", format!("Missing required frontmatter field \"name\" in {shown}")));
            }
            derived.to_string()
        }
    };
    if !is_kebab(&name) {
        return Err(invalid("name", format!("Invalid agent name \"{name}\" in {shown}: expected kebab-case (e.g. \"code-reviewer\")")));
    }
    let description = match get("description") {
        None | Some(Js::Null) => None,
        Some(Js::Str(s)) => Some(js_trim(s)).filter(|s| !s.is_empty()).map(str::to_string),
        Some(_) => return Err(invalid("description", format!("Frontmatter field \"description\" in {shown} must be a non-empty string"))),
    };
    let Some(description) = description else {
        return Err(invalid("description", format!("Missing required frontmatter field \"description\" in {shown}")));
    };
    let override_builtin = match get("override") {
        None | Some(Js::Null) => false,
        Some(Js::Bool(b)) => *b,
        Some(_) => return Err(invalid("override", format!("Frontmatter field \"override\" in {shown} must be a boolean"))),
    };
    let list = |key: &str| -> Result<Option<Vec<String>>, Failure> {
        match get(key) {
            None | Some(Js::Null) => Ok(None),
            Some(Js::Str(s)) => {
                Ok(Some(s.split(',').map(js_trim).filter(|i| !i.is_empty()).map(str::to_string).collect()))
            }
            Some(Js::Seq(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items.iter() {
                    match item {
                        Js::Str(s) if !js_trim(s).is_empty() => out.push(js_trim(s).to_string()),
                        _ => return Err(invalid(key, format!("Frontmatter field \"{key}\" in {shown} must be a list of non-empty strings"))),
                    }
                }
                Ok(Some(out))
            }
            Some(_) => Err(invalid(key, format!("Frontmatter field \"{key}\" in {shown} must be a comma-separated string or a list of strings"))),
        }
    };
    let tools = list("tools")?.filter(|t| !(t.len() == 1 && t[0] == "*"));
    let disallowed_tools = list("disallowedTools")?;
    let subagents = list("subagents")?;
    let prompt = js_trim(&body);
    if prompt.is_empty() {
        let line = Some(body_line.min(lines.len() as u32));
        return Err(Failure { kind: DiagKind::Validation, message: format!("Missing prompt body in {shown}"), line, col: None });
    }
    let when_to_use = match get("whenToUse") {
        Some(Js::Str(s)) => Some(js_trim(s)).filter(|s| !s.is_empty()).map(str::to_string),
        _ => None,
    };
    let keys = entries
        .iter()
        .map(|(k, v, _)| (k.clone(), line_of(k).unwrap_or(2), shown_json(v)))
        .collect();
    Ok(Definition {
        name,
        description,
        when_to_use,
        override_builtin,
        tools,
        disallowed_tools,
        subagents,
        prompt: prompt.to_string(),
        keys,
        body_line,
    })
}

/// `text.split(/\r?\n/)`.
fn split_lines(text: &str) -> Vec<&str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()
}

/// A front matter value as agentry shows it (and as the goldens' `make_goldens.mjs`
/// writes it): JSON, with what JSON cannot hold tagged (`$date`, `$float`).
pub fn shown_json(v: &Js) -> Json {
    use serde_json::json;
    match v {
        Js::Num(n) if n.is_nan() => json!({"$float": ".nan"}),
        Js::Num(n) if n.is_infinite() => json!({"$float": if *n > 0.0 { ".inf" } else { "-.inf" }}),
        Js::Num(n) if *n == 0.0 && n.is_sign_negative() => json!({"$float": "-0"}),
        Js::Num(n) if *n == n.trunc() && n.abs() < 9.007_199_254_740_992e15 => Json::from(*n as i64),
        Js::Num(n) => serde_json::Number::from_f64(*n).map_or(Json::Null, Json::Number),
        Js::Date(_) => json!({"$date": v.iso()}),
        Js::Seq(items) => Json::Array(items.iter().map(shown_json).collect()),
        Js::Map(entries) => Json::Object(entries.iter().map(|(k, v, _)| (k.clone(), shown_json(v))).collect()),
        other => other.to_json(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_be_kebab_case() {
        for ok in ["a", "2fast", "code-reviewer", "a1-b2"] {
            assert!(is_kebab(ok), "{ok}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "a b", "v1.2", "é"] {
            assert!(!is_kebab(bad), "{bad}");
        }
    }

    #[test]
    fn bom_crlf_and_spaced_fences_parse() {
        let d = parse("\u{feff}---  \r\ndescription: d\r\n  ---\r\nLine one.\r\nLine two.\r\n", "p", "x.md").unwrap();
        assert_eq!(d.prompt, "Line one.\nLine two.");
        assert_eq!(d.name, "x");
    }

    #[test]
    fn errors_point_at_their_line() {
        let e = parse("---\n\nname: a\ndescription: 2024-05-01\n---\nBody\n", "p", "a.md").unwrap_err();
        assert_eq!((e.kind, e.line), (DiagKind::Validation, Some(4)));
        let e = parse("---\ndescription: one\ndescription: two\n---\nBody\n", "p", "a.md").unwrap_err();
        assert_eq!((e.kind, e.line), (DiagKind::Parse, Some(3)));
    }
}
