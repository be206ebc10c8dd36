//! Markdown agent files as OpenCode 1.18.33 reads them (`ConfigMarkdown.parse`):
//! gray-matter's splitter and js-yaml "safe" load, and when that throws, OpenCode's
//! `fallbackSanitization` rewrite (a `key: a: b` value becomes a block scalar) and a
//! second gray-matter call — which, when the rewrite left the text as it was, hits
//! gray-matter's cache of the failed parse and gives no data and the whole text.

use serde_json::{Map, Value as Json};

use crate::jsyaml::{self, Js};

/// What a file gives: its frontmatter data and its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The frontmatter spread into an object (`{...md.data}`: a list gives keys "0", "1").
    pub data: Map<String, Json>,
    /// Line of each top-level key in the file (1-based).
    pub lines: Vec<(String, u32)>,
    /// Top-level keys whose value is a YAML timestamp (a JavaScript Date).
    pub dates: Vec<String>,
    /// The body, trimmed as OpenCode trims it (`md.content.trim()`).
    pub body: String,
    /// The line the trimmed body starts on.
    pub body_line: u32,
    /// Why the frontmatter was not read, when OpenCode took the whole text as the
    /// prompt instead (YAML error and its line).
    pub unread_frontmatter: Option<(String, Option<u32>)>,
}

/// The line (1-based) where `suffix`, a tail of `whole`, starts once trimmed.
fn line_of_tail(whole: &str, suffix: &str) -> u32 {
    let at = whole.len() - suffix.len() + (suffix.len() - js_trim_start(suffix).len());
    1 + whole.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() as u32
}

fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(crate::text::js::is_space)
}

/// `Err` when OpenCode drops the file (the rewrite still fails), with YAML's message.
pub fn parse(bytes: &[u8]) -> Result<Parsed, String> {
    let text = String::from_utf8_lossy(bytes);
    match matter(&text) {
        Ok(p) => Ok(p),
        Err(first_error) => {
            let rewritten = fallback_sanitization(&text);
            if rewritten == *text {
                // gray-matter cached the failed call's file object: no data, whole text.
                let whole = strip_bom(&text);
                return Ok(Parsed { unread_frontmatter: Some(first_error), ..no_data(whole, whole) });
            }
            matter(&rewritten).map_err(|(message, _)| message)
        }
    }
}

/// A file read with no front matter data: `body`, a tail of `content`, trimmed.
fn no_data(content: &str, body: &str) -> Parsed {
    let body_line = line_of_tail(content, body);
    Parsed { data: Map::new(), lines: Vec::new(), dates: Vec::new(), body: js_trim(body).to_string(), body_line, unread_frontmatter: None }
}

fn strip_bom(s: &str) -> &str {
    s.strip_prefix('\u{feff}').unwrap_or(s)
}

pub use crate::text::js::trim as js_trim;

/// gray-matter 4 with its default `---` delimiters and the YAML engine.
fn matter(input: &str) -> Result<Parsed, (String, Option<u32>)> {
    let content = strip_bom(input);
    let empty = |body: &str| no_data(content, body);
    if !content.starts_with("---") || content[3..].starts_with('-') {
        return Ok(empty(content));
    }
    let rest = &content[3..];
    // `---yaml` names the language (`matter.language`: the text before the first
    // `\r?\n`, or with none all but the last character).
    let raw = match rest.find('\n') {
        Some(i) => rest[..i].strip_suffix('\r').unwrap_or(&rest[..i]),
        None => rest.char_indices().next_back().map_or("", |(i, _)| &rest[..i]),
    };
    let language = js_trim(raw);
    let rest = if language.is_empty() { rest } else { &rest[raw.len()..] };
    let (block, body) = match rest.find("\n---") {
        Some(i) => {
            let mut body = &rest[i + 4..];
            body = body.strip_prefix('\r').unwrap_or(body);
            body = body.strip_prefix('\n').unwrap_or(body);
            (&rest[..i], body)
        }
        None => (rest, ""),
    };
    // Block line i is file line 1 + i (the block starts with the rest of `---`'s line).
    let first_line_no = 1;
    let without_comments: String =
        block.split('\n').filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join("\n");
    if without_comments.trim().is_empty() {
        return Ok(empty(body));
    }
    // Only a block that is not empty is handed to the language's engine: anything
    // but YAML has none and throws.
    if !language.is_empty() && language != "yaml" && language != "yml" {
        return Err((format!("gray-matter has no engine for `{language}`"), Some(1)));
    }
    // YAML's lines count from the block's first line, the rest of the `---` line.
    let loaded = jsyaml::load(block, jsyaml::Version::V3Safe).map_err(|e| match e.at {
        Some((line, col)) => (format!("{} at line {line} column {col}", e.message), Some(line + first_line_no - 1)),
        None => (e.message, None),
    })?;
    // The top-level keys whose value is a Date (no schema field takes one).
    let dates = match &loaded {
        Js::Map(entries) => entries.iter().filter(|(_, v, _)| matches!(v, Js::Date(_))).map(|(k, _, _)| k.clone()).collect(),
        _ => Vec::new(),
    };
    let data = spread(loaded.to_json());
    let lines = key_lines(block, first_line_no);
    Ok(Parsed { data, lines, dates, body: js_trim(body).to_string(), body_line: line_of_tail(content, body), unread_frontmatter: None })
}

/// `{...value}`: an object's own keys, an array's or string's indices, else nothing.
fn spread(value: Json) -> Map<String, Json> {
    match value {
        Json::Object(m) => m,
        Json::Array(items) => items.into_iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        Json::String(s) => s.chars().enumerate().map(|(i, c)| (i.to_string(), Json::String(c.to_string()))).collect(),
        _ => Map::new(),
    }
}

/// The line of each top-level `key:` in the frontmatter block, which starts on the
/// line after `first` (the `---` line).
fn key_lines(block: &str, first: u32) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (i, line) in block.split('\n').enumerate().skip(1) {
        if line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        if let Some(colon) = line.find(':') {
            let key = line[..colon].trim().trim_matches(|c| c == '"' || c == '\'');
            if !key.is_empty() {
                out.push((key.to_string(), first + i as u32));
            }
        }
    }
    out
}

/// OpenCode's `fallbackSanitization`: inside a `---` … `---` block at the very start,
/// a top-level `key: value` whose unquoted value holds a `:` becomes `key: |-` and
/// the value on an indented line.
pub fn fallback_sanitization(content: &str) -> String {
    // /^---\r?\n([\s\S]*?)\r?\n---/
    let Some(after) = content.strip_prefix("---") else { return content.to_string() };
    let after = after.strip_prefix("\r\n").or_else(|| after.strip_prefix('\n'));
    let Some(after) = after else { return content.to_string() };
    let start = content.len() - after.len();
    // The lazy match ends at the first `\r?\n---` (the block may be empty only when
    // that newline belongs to the opening line, which the regex does not allow).
    let Some(end_rel) = after.find("\n---") else { return content.to_string() };
    let mut end = start + end_rel;
    if end > start && content.as_bytes()[end - 1] == b'\r' {
        end -= 1;
    }
    let frontmatter = &content[start..end];
    let mut result: Vec<String> = Vec::new();
    for line in split_crlf(frontmatter) {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || trimmed.is_empty() || line.starts_with(char::is_whitespace) {
            result.push(line.to_string());
            continue;
        }
        let Some((key, value)) = key_value(line) else {
            result.push(line.to_string());
            continue;
        };
        let value = value.trim();
        if value.is_empty() || value == ">" || value == "|" || value.starts_with('"') || value.starts_with('\'') {
            result.push(line.to_string());
            continue;
        }
        if value.contains(':') {
            result.push(format!("{key}: |-"));
            result.push(format!("  {value}"));
            continue;
        }
        result.push(line.to_string());
    }
    let processed = result.join("\n");
    // `content.replace(frontmatter, …)`: the first occurrence of the block's text.
    match content.find(frontmatter) {
        Some(i) => format!("{}{}{}", &content[..i], processed, &content[i + frontmatter.len()..]),
        None => content.to_string(),
    }
}

fn split_crlf(s: &str) -> Vec<&str> {
    s.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()
}

/// `/^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$/`
fn key_value(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    if !bytes.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') {
        return None;
    }
    let key_end = bytes.iter().position(|b| !(b.is_ascii_alphanumeric() || *b == b'_')).unwrap_or(bytes.len());
    let rest = line[key_end..].trim_start();
    let rest = rest.strip_prefix(':')?;
    Some((&line[..key_end], rest.trim_start()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_and_body() {
        let p = parse(b"---\ndescription: Hi\nmode: subagent\n---\nBody.\n").unwrap();
        assert_eq!(p.data["description"], "Hi");
        assert_eq!(p.body, "Body.");
        assert_eq!(p.lines, vec![("description".into(), 2), ("mode".into(), 3)]);
    }

    #[test]
    fn colon_value_is_rescued_and_unclosed_bracket_is_whole_text() {
        let p = parse(b"---\ndescription: Use when: x\n---\nB").unwrap();
        assert_eq!(p.data["description"], "Use when: x");
        let p = parse(b"---\ndescription: [unclosed\n---\nB").unwrap();
        assert!(p.data.is_empty());
        assert_eq!(p.body, "---\ndescription: [unclosed\n---\nB");
        assert!(parse(b"---\ndescription: a: b\nmodel: [oops\n---\nB").is_err());
    }

    #[test]
    fn duplicate_keys_list_and_bom() {
        assert!(parse(b"---\na: 1\na: 2\n---\nB").unwrap().data.is_empty());
        let p = parse(b"---\n- a\n- b\n---\nL").unwrap();
        assert_eq!(p.data["1"], "b");
        let p = parse("\u{feff}---\r\ndescription: x\r\n---\r\nA\r\nB\r\n".as_bytes()).unwrap();
        assert_eq!(p.data["description"], "x");
        assert_eq!(p.body, "A\r\nB");
    }

    /// Every input of `tests/goldens/opencode-yaml` reads as gray-matter 4.0.3 with
    /// js-yaml 3 and OpenCode's fallback read it (`generate.js` wrote the outputs).
    #[test]
    fn goldens_of_gray_matter_and_js_yaml() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/opencode-yaml");
        let mut names: Vec<_> = std::fs::read_dir(dir.join("inputs")).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        assert!(names.len() >= 30);
        // Where yaml-rust's reading differs from js-yaml's (tabs as indentation, which
        // js-yaml tolerates and YAML forbids): these must still differ, so a fix shows.
        const KNOWN_DIFFERENCES: [&str; 1] = ["tabs"];
        let mut failures = Vec::new();
        for input in names {
            let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
            let known = KNOWN_DIFFERENCES.contains(&stem.as_str());
            let expected: Json =
                serde_json::from_slice(&std::fs::read(dir.join("expected").join(format!("{stem}.json"))).unwrap()).unwrap();
            let got = match parse(&std::fs::read(&input).unwrap()) {
                Ok(p) => serde_json::json!({"data": p.data, "body": p.body}),
                Err(_) => serde_json::json!({"dropped": true}),
            };
            if known && got == expected {
                failures.push(format!("{stem}: now agrees; remove it from KNOWN_DIFFERENCES"));
            } else if !known && got != expected {
                failures.push(format!("{stem}: expected {expected}, got {got}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
