//! One agent file as Gemini CLI 0.61.0 parses it: `parseAgentMarkdown` (the
//! `FRONTMATTER_REGEX` splitter, js-yaml `load`, the Zod schemas `localAgentSchema`,
//! `remoteAgentUrlSchema`, `remoteAgentJsonSchema`, `remoteAgentsListSchema` and their
//! `formatZodError` messages) and `markdownToAgentDefinition` (the registry's fields
//! and defaults).

use serde_json::{json, Map, Value as Json};

use crate::jsyaml::{self, Js};

/// A definition as the loader returns it, before registration.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub name: String,
    pub remote: bool,
    /// The registry's fields (`kind`, `description`, `displayName`, `modelConfig`, …).
    pub fields: Vec<(&'static str, Json)>,
    /// Lines of the front matter keys the fields come from (1-based, in the file).
    pub lines: Vec<(&'static str, u32)>,
    /// Keys as written, with their lines (local agents' and single remote agents').
    pub attributes: Vec<(String, u32, Json)>,
    /// `promptConfig.systemPrompt`; `None` for remote agents.
    pub prompt: Option<String>,
}

/// Why a file did not load: the loader's error kind and message.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub parse: bool,
    pub message: String,
    pub line: Option<u32>,
    pub col: Option<u32>,
}

const MISSING_FRONTMATTER: &str = "Invalid agent definition: Missing mandatory YAML frontmatter. Agent Markdown files MUST start with YAML frontmatter enclosed in triple-dashes \"---\" (e.g., ---\nname: my-agent\n---).";

/// `content.match(/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/)`: the front matter
/// and the body (empty when the closing line has text after its dashes).
pub fn split(text: &str) -> Option<(&str, &str)> {
    let start = if text.starts_with("---\r\n") {
        5
    } else if text.starts_with("---\n") {
        4
    } else {
        return None;
    };
    let rest = &text[start..];
    let bytes = rest.as_bytes();
    let mut p = 0;
    let close = loop {
        let at = rest[p..].find('\n')? + p;
        // The lazy group ends before `\r\n---` or `\n---`, whichever starts first.
        if rest[at + 1..].starts_with("---") {
            break if at > 0 && bytes[at - 1] == b'\r' { (at - 1, at + 4) } else { (at, at + 4) };
        }
        p = at + 1;
    };
    let front = &rest[..close.0];
    let after = &rest[close.1..];
    let body = after.strip_prefix("\r\n").or_else(|| after.strip_prefix('\n')).unwrap_or("");
    Some((front, body))
}

/// Parses one file's bytes, read as Node's `readFile(path, "utf-8")` reads them.
pub fn parse(bytes: &[u8]) -> Result<Vec<Definition>, Failure> {
    let text = String::from_utf8_lossy(bytes);
    let Some((front, body)) = split(&text) else {
        return Err(Failure { parse: true, message: MISSING_FRONTMATTER.into(), line: Some(1), col: None });
    };
    let raw = jsyaml::load(front, jsyaml::Version::V4).map_err(|e| {
        let (line, col) = e.at.unwrap_or((1, 1));
        Failure { parse: true, message: format!("YAML frontmatter parsing failed: {} ({line}:{col})", e.message), line: Some(line + 1), col: Some(col) }
    })?;
    let fail = |message: String| Failure { parse: false, message, line: Some(2), col: None };
    match raw {
        Js::Seq(items) => {
            let mut defs = Vec::new();
            let mut issues = Vec::new();
            for (i, item) in items.iter().enumerate() {
                match remote(item) {
                    Ok(d) => defs.push(d),
                    Err(e) => issues.extend(e.into_iter().map(|x| x.under(&i.to_string()).text(None))),
                }
            }
            if !issues.is_empty() {
                return Err(fail(format!("Validation failed: Remote Agents List:\n{}", dedup(issues).join("\n"))));
            }
            Ok(defs)
        }
        value => {
            let undefined = matches!(value, Js::Null) && front.trim().is_empty();
            let mut def = definition(&value, undefined).map_err(|m| fail(format!("Validation failed: Agent Definition:\n{m}")))?;
            if let Js::Map(entries) = &value {
                def.attributes = entries.iter().map(|(k, v, l)| (k.clone(), *l + 1, v.to_json())).collect();
                for l in def.lines.iter_mut() {
                    l.1 += 1;
                }
            }
            if !def.remote {
                def.prompt = Some(js_trim(body).to_string());
            }
            Ok(vec![def])
        }
    }
}

pub use crate::text::js::trim as js_trim;

/// One Zod issue: its path, message, and whether it stops the branch (a wrong type)
/// or only marks it dirty (a refinement).
#[derive(Clone, Debug)]
struct Issue {
    path: Vec<String>,
    message: String,
    aborts: bool,
}

impl Issue {
    fn at(path: &str, message: impl Into<String>, aborts: bool) -> Issue {
        Issue { path: if path.is_empty() { vec![] } else { vec![path.to_string()] }, message: message.into(), aborts }
    }

    fn under(mut self, key: &str) -> Issue {
        self.path.insert(0, key.to_string());
        self
    }

    fn text(&self, branch: Option<&str>) -> String {
        let prefix = branch.map(|b| format!("({b}) ")).unwrap_or_default();
        let path = if self.path.is_empty() { String::new() } else { format!("{}: ", self.path.join(".")) };
        format!("{prefix}{path}{}", self.message)
    }
}

fn dedup(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

fn type_issue(path: &str, expected: &str, got: Option<&Js>) -> Issue {
    match got {
        None => Issue::at(path, "Required", true),
        Some(v) => Issue::at(path, format!("Expected {expected}, received {}", v.type_word()), true),
    }
}

/// The checks of one front matter key.
fn string(map: &Js, key: &str, required: bool, issues: &mut Vec<Issue>) -> Option<String> {
    match map.get(key) {
        Some(Js::Str(s)) => Some(s.clone()),
        None if !required => None,
        got => {
            issues.push(type_issue(key, "string", got));
            None
        }
    }
}

fn name_check(map: &Js, issues: &mut Vec<Issue>) -> Option<String> {
    let name = string(map, "name", true, issues)?;
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_') {
        issues.push(Issue::at("name", "Name must be a valid slug", false));
    }
    Some(name)
}

fn strict(map: &Js, known: &[&str], issues: &mut Vec<Issue>) {
    if let Js::Map(entries) = map {
        let unknown: Vec<String> = entries.iter().filter(|(k, _, _)| !known.contains(&k.as_str())).map(|(k, _, _)| format!("'{k}'")).collect();
        if !unknown.is_empty() {
            issues.push(Issue::at("", format!("Unrecognized key(s) in object: {}", unknown.join(", ")), false));
        }
    }
}

fn literal(map: &Js, expected: &str, issues: &mut Vec<Issue>) {
    if let Some(v) = map.get("kind") {
        if *v != Js::Str(expected.into()) {
            issues.push(Issue::at("kind", format!("Invalid literal value, expected \"{expected}\""), true));
        }
    }
}

fn positive_int(map: &Js, key: &str, issues: &mut Vec<Issue>) -> Option<f64> {
    match map.get(key)? {
        Js::Num(n) if !n.is_nan() => {
            if n.fract() != 0.0 || n.is_infinite() {
                issues.push(Issue::at(key, "Expected integer, received float", false));
            }
            if *n <= 0.0 {
                issues.push(Issue::at(key, "Number must be greater than 0", false));
            }
            Some(*n)
        }
        other => {
            issues.push(type_issue(key, "number", Some(other)));
            None
        }
    }
}

const LOCAL_KEYS: &[&str] = &["kind", "name", "description", "display_name", "tools", "mcp_servers", "model", "temperature", "max_turns", "timeout_mins"];
const REMOTE_KEYS: &[&str] = &["kind", "name", "description", "display_name", "auth", "agent_card_url", "agent_card_json"];

/// `localAgentSchema`, then `markdownToAgentDefinition`.
fn local(map: &Js) -> Result<Definition, Vec<Issue>> {
    let mut issues = Vec::new();
    if !matches!(map, Js::Map(_)) {
        return Err(vec![type_issue("", "object", Some(map))]);
    }
    literal(map, "local", &mut issues);
    let name = name_check(map, &mut issues);
    let description = string(map, "description", true, &mut issues);
    if description.as_deref() == Some("") {
        issues.push(Issue::at("description", "String must contain at least 1 character(s)", false));
    }
    let display = string(map, "display_name", false, &mut issues);
    let tools = match map.get("tools") {
        None => None,
        Some(Js::Seq(items)) => {
            let mut names = Vec::new();
            for (i, t) in items.iter().enumerate() {
                match t {
                    Js::Str(s) => {
                        if !super::tools::is_valid_tool_name(s) {
                            issues.push(Issue::at("tools", "Invalid tool name", false).under_index(i));
                        }
                        names.push(Json::String(s.clone()));
                    }
                    other => issues.push(type_issue("tools", "string", Some(other)).under_index(i)),
                }
            }
            Some(names)
        }
        other => {
            issues.push(type_issue("tools", "array", other));
            None
        }
    };
    let mcp = match map.get("mcp_servers") {
        None => None,
        Some(Js::Map(servers)) => {
            let mut out = Map::new();
            for (name, server, _) in servers {
                match super::mcp::server(server) {
                    Ok(v) => {
                        out.insert(name.clone(), v);
                    }
                    Err(list) => issues.extend(list.into_iter().map(|(p, m, a)| Issue { path: vec!["mcp_servers".into(), name.clone(), p], message: m, aborts: a })),
                }
            }
            Some(out)
        }
        other => {
            issues.push(type_issue("mcp_servers", "object", other));
            None
        }
    };
    let model = string(map, "model", false, &mut issues);
    let temperature = match map.get("temperature") {
        None => None,
        Some(Js::Num(n)) if !n.is_nan() => Some(*n),
        other => {
            issues.push(type_issue("temperature", "number", other));
            None
        }
    };
    let max_turns = positive_int(map, "max_turns", &mut issues);
    let timeout = positive_int(map, "timeout_mins", &mut issues);
    strict(map, LOCAL_KEYS, &mut issues);
    if !issues.is_empty() {
        return Err(issues);
    }
    let model = model.filter(|m| !m.is_empty()).unwrap_or_else(|| "inherit".into());
    let fields = vec![
        ("kind", json!("local")),
        ("description", json!(description.unwrap_or_default())),
        ("displayName", display.map_or(Json::Null, Json::String)),
        ("modelConfig", json!({"model": model, "generateContentConfig": {"temperature": jsyaml::number(temperature.unwrap_or(1.0)), "topP": 0.95}})),
        ("runConfig", json!({"maxTurns": jsyaml::number(max_turns.unwrap_or(30.0)), "maxTimeMinutes": jsyaml::number(timeout.unwrap_or(10.0))})),
        ("toolConfig", tools.map_or(Json::Null, |t| json!({ "tools": t }))),
        ("mcpServers", mcp.filter(|m| !m.is_empty()).map_or(Json::Null, Json::Object)),
    ];
    Ok(Definition { name: name.unwrap_or_default(), remote: false, lines: lines_of(map), fields, attributes: Vec::new(), prompt: None })
}

impl Issue {
    fn under_index(mut self, i: usize) -> Issue {
        self.path.push(i.to_string());
        self
    }
}

/// Which front matter key each field comes from, for the field's line.
fn lines_of(map: &Js) -> Vec<(&'static str, u32)> {
    const FROM: &[(&str, &str)] = &[
        ("kind", "kind"),
        ("description", "description"),
        ("displayName", "display_name"),
        ("modelConfig", "model"),
        ("runConfig", "max_turns"),
        ("toolConfig", "tools"),
        ("mcpServers", "mcp_servers"),
        ("agentCardUrl", "agent_card_url"),
        ("agentCardJson", "agent_card_json"),
        ("auth", "auth"),
    ];
    let Js::Map(entries) = map else { return Vec::new() };
    FROM.iter()
        .filter_map(|(field, key)| entries.iter().find(|(k, _, _)| k == key).map(|(_, _, l)| (*field, *l)))
        .collect()
}

/// `remoteAgentUrlSchema`, then `remoteAgentJsonSchema` (a union); then the registry's
/// fields.
fn remote(map: &Js) -> Result<Definition, Vec<Issue>> {
    let by_url = remote_branch(map, true);
    let by_json = remote_branch(map, false);
    match (by_url, by_json) {
        (Ok(d), _) | (_, Ok(d)) => Ok(d),
        (Err(a), Err(b)) => Err(union(vec![("Remote Agent", a), ("Remote Agent", b)], None)),
    }
}

fn remote_branch(map: &Js, url: bool) -> Result<Definition, Vec<Issue>> {
    let mut issues = Vec::new();
    if !matches!(map, Js::Map(_)) {
        return Err(vec![type_issue("", "object", Some(map))]);
    }
    literal(map, "remote", &mut issues);
    let name = name_check(map, &mut issues);
    let description = string(map, "description", false, &mut issues);
    let display = string(map, "display_name", false, &mut issues);
    let auth = match map.get("auth") {
        None => None,
        Some(a) => match super::mcp::remote_auth(a) {
            Ok(v) => Some(v),
            Err(list) => {
                issues.extend(list.into_iter().map(|(p, m, ab)| Issue::at(&p, m, ab).under("auth")));
                None
            }
        },
    };
    let (given, absent) = if url { ("agent_card_url", "agent_card_json") } else { ("agent_card_json", "agent_card_url") };
    if let Some(v) = map.get(absent) {
        issues.push(Issue::at(absent, format!("Expected undefined, received {}", v.type_word()), true));
    }
    let card = string(map, given, true, &mut issues);
    if let Some(c) = &card {
        if url && !looks_like_url(c) {
            issues.push(Issue::at(given, "Invalid url", false));
        }
        if !url && serde_json::from_str::<Json>(c).is_err() {
            issues.push(Issue::at(given, "agent_card_json must be valid JSON", false));
        }
    }
    strict(map, REMOTE_KEYS, &mut issues);
    if !issues.is_empty() {
        return Err(issues);
    }
    let card = card.unwrap_or_default();
    let fields = vec![
        ("kind", json!("remote")),
        ("description", json!(description.unwrap_or_default())),
        ("displayName", display.map_or(Json::Null, Json::String)),
        ("agentCardUrl", if url { json!(card) } else { Json::Null }),
        ("agentCardJson", if url { Json::Null } else { json!(card) }),
        ("auth", auth.unwrap_or(Json::Null)),
    ];
    Ok(Definition { name: name.unwrap_or_default(), remote: true, lines: lines_of(map), fields, attributes: Vec::new(), prompt: None })
}

/// `new URL(value)` succeeds: a scheme, a colon and something after it.
fn looks_like_url(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !s.chars().any(char::is_whitespace)
}

/// `guessIntendedKind`: which branch's complaints the message keeps.
fn intended_kind(map: &Js) -> Option<&'static str> {
    match map.get("kind") {
        Some(Js::Str(k)) if k == "local" => return Some("local"),
        Some(Js::Str(k)) if k == "remote" => return Some("remote"),
        _ => {}
    }
    let has = |keys: &[&str]| keys.iter().any(|k| map.get(k).is_some());
    let local = has(&["tools", "mcp_servers", "model", "temperature", "max_turns", "timeout_mins"]);
    let remote = has(&["agent_card_url", "auth", "agent_card_json"]);
    match (local, remote) {
        (true, false) => Some("local"),
        (false, true) => Some("remote"),
        _ => None,
    }
}

/// A Zod union's outcome: the first branch with only refinement issues ("dirty")
/// gives its own issues; otherwise every branch's, labelled.
fn union(branches: Vec<(&str, Vec<Issue>)>, intended: Option<&str>) -> Vec<Issue> {
    if let Some((_, issues)) = branches.iter().find(|(_, i)| i.iter().all(|x| !x.aborts)) {
        return issues.clone();
    }
    let mut out = Vec::new();
    for (label, issues) in branches {
        if (intended == Some("local") && label == "Remote Agent") || (intended == Some("remote") && label == "Local Agent") {
            continue;
        }
        for i in issues {
            out.push(Issue { message: i.text(Some(label)), path: Vec::new(), aborts: true });
        }
    }
    out
}

/// `markdownFrontmatterSchema` (local, remote by URL, remote by JSON) on a front
/// matter that is not a list; the message as `formatZodError` writes it.
fn definition(value: &Js, undefined: bool) -> Result<Definition, String> {
    if !matches!(value, Js::Map(_)) {
        let got = if undefined { "undefined" } else { value.type_word() };
        return Err(format!("Expected object, received {got}"));
    }
    let local_result = local(value);
    let local_issues = match local_result {
        Ok(d) => return Ok(d),
        Err(i) => i,
    };
    let url = match remote_branch(value, true) {
        Ok(d) => return Ok(d),
        Err(i) => i,
    };
    let by_json = match remote_branch(value, false) {
        Ok(d) => return Ok(d),
        Err(i) => i,
    };
    let issues = union(vec![("Local Agent", local_issues), ("Remote Agent", url), ("Remote Agent", by_json)], intended_kind(value));
    Err(dedup(issues.iter().map(|i| i.text(None)).collect()).join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitter_closes_at_the_first_dashes_line() {
        assert_eq!(split("---\na: 1\n---\nbody\n"), Some(("a: 1", "body\n")));
        assert_eq!(split("---\r\na: 1\r\n---\r\nb"), Some(("a: 1", "b")));
        assert_eq!(split("---\na: 1\n---trailing\nbody"), Some(("a: 1", "")));
        assert_eq!(split("---\na: |\n  x\n----\nbody"), Some(("a: |\n  x", "")));
        assert_eq!(split("\u{feff}---\na: 1\n---\n"), None);
        assert_eq!(split("  ---\na: 1\n---\n"), None);
        assert_eq!(split("--- \na: 1\n---\n"), None);
        assert_eq!(split("---\na: 1\n"), None);
        assert_eq!(split("---\n---\n"), None);
        assert_eq!(split("---\n\n---"), Some(("", "")));
    }

    #[test]
    fn strict_schema_and_defaults() {
        let ok = parse(b"---\nname: a\ndescription: d\nmodel: \"\"\ntemperature: 0\ntools: []\n---\n  Hi  \n").unwrap();
        let f: Map<String, Json> = ok[0].fields.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        assert_eq!(f["modelConfig"], json!({"model": "inherit", "generateContentConfig": {"temperature": 0, "topP": 0.95}}));
        assert_eq!(f["toolConfig"], json!({"tools": []}));
        assert_eq!(ok[0].prompt.as_deref(), Some("Hi"));
        for bad in ["color: blue", "tools: read_file, glob", "tools: [Read]", "max_turns: 0", "name2: x"] {
            let text = format!("---\nname: a\ndescription: d\n{bad}\n---\n");
            assert!(parse(text.as_bytes()).is_err(), "{bad}");
        }
    }
}
