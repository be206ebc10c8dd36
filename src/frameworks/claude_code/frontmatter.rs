//! Front matter as Claude Code 2.1.337 reads it (its bundle's `ucs`, `irr`, `D`).
//!
//! The splitter is the regular expression `^---\s*\n([\s\S]*?)---\s*\n?` on the
//! text after a BOM, tried only when a second `---` exists: the block closes at the
//! first `---` anywhere, even inside a value. The block is parsed with
//! `Bun.YAML.parse` (YAML 1.2 core schema, Bun 1.4.4); when that fails, once more after
//! quoting every risky `key: value` line and turning leading tabs into two spaces
//! each, and (2.1.337) once more on the text with CRLF turned into LF (`lf_retry`).
//! The YAML itself is read with serde_yaml (libyaml, YAML 1.2 resolution),
//! adjusted where Bun differs (duplicate keys: the last wins; keys become strings;
//! `1_000` stays a string; a tag keeps the value as written) — the goldens in
//! `tests/goldens/claude-code-yaml/` hold Bun's own answers.

use serde::de::{self, Deserializer as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};

/// A file split as Claude Code splits it.
pub struct Split<'a> {
    /// The text between the delimiters, when there is front matter.
    pub block: Option<&'a str>,
    /// The text after the closing delimiter (the whole text when there is none).
    pub body: &'a str,
    /// The 1-based line the block starts on.
    pub first_line: u32,
}

pub use crate::text::js::{is_space as is_js_space, trim as js_trim};

/// Splits `text` (BOM already removed) as `qc` does.
pub fn split(text: &str) -> Split<'_> {
    let none = Split { block: None, body: text, first_line: 1 };
    // `e.indexOf("---", 3) < 0 ? null : e.match(KO)`
    if text.len() < 3 || !text.starts_with("---") || !text[3..].contains("---") {
        return none;
    }
    // `^---\s*\n`: the run of white space after the dashes must hold a line end; the
    // block starts after the last one in the run.
    let after = &text[3..];
    let run = after.len() - after.trim_start_matches(is_js_space).len();
    let Some(nl) = after[..run].rfind('\n') else { return none };
    let start = 3 + nl + 1;
    // `([\s\S]*?)---`: the first `---` after that.
    let Some(close) = text[start..].find("---") else { return none };
    let block = &text[start..start + close];
    // `\s*\n?`: every white space after the closing dashes.
    let rest = &text[start + close + 3..];
    let body = rest.trim_start_matches(is_js_space);
    let first_line = 1 + text[..start].matches('\n').count() as u32;
    Split { block: Some(block), body, first_line }
}

/// What parsing a block gives: Bun's value, or its error; and whether it took the
/// lenient retry.
pub struct Parsed {
    pub value: Result<Json, String>,
    pub retried: bool,
}

/// `irr`: the block parsed; when that fails, once more after the lenient rewrite; when
/// that fails too, the rewrite of the text with CRLF turned into LF (2.1.337), kept
/// only within the limits `lf_retry` states. The error is the last parse's.
pub fn parse_block(block: &str) -> Parsed {
    if let Ok(v) = parse_yaml(block) {
        return Parsed { value: Ok(v), retried: false };
    }
    let mut error = match parse_yaml(&untab(&requote(block))) {
        Ok(v) => return Parsed { value: Ok(v), retried: true },
        Err(e) => e,
    };
    if super::lf_retry::applies(block) {
        let lf = block.replace("\r\n", "\n");
        let rewritten = untab(&requote(&lf));
        match parse_yaml(&rewritten) {
            Ok(v) if super::lf_retry::accepted(block, &lf, &rewritten) => return Parsed { value: Ok(v), retried: true },
            Ok(_) => {}
            Err(e) => error = e,
        }
    }
    Parsed { value: Err(error), retried: true }
}

/// `nu`: each line `key: value` (key `[a-zA-Z_-]+`, matched without the multiline
/// flag, so a line ending in `\r` never matches) whose value is not already quoted,
/// nor a flow list that parses, and holds one of ``{}[]*&#!|>%@` `` or `": "`, gets the
/// value double-quoted.
pub fn requote(block: &str) -> String {
    let lines: Vec<String> = block.split('\n').map(requote_line).collect();
    lines.join("\n")
}

fn requote_line(line: &str) -> String {
    let Some((key, value)) = key_value(line) else { return line.to_string() };
    let quoted = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q) || value == q.to_string();
    if quoted('"') || quoted('\'') {
        return line.to_string();
    }
    if value.starts_with('[') && value.ends_with(']') && matches!(parse_yaml(value), Ok(Json::Array(_))) {
        return line.to_string();
    }
    let risky = value.contains(['{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`']) || value.contains(": ");
    if !risky {
        return line.to_string();
    }
    format!("{key}: \"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `/^([a-zA-Z_-]+):\s+(\S.*)$/` on one line: `.` stops at line ends (`\r`, U+2028,
/// U+2029), and `$` is the end of the line.
pub(super) fn key_value(line: &str) -> Option<(&str, &str)> {
    let key_len = line.bytes().take_while(|b| b.is_ascii_alphabetic() || *b == b'_' || *b == b'-').count();
    if key_len == 0 || line.as_bytes().get(key_len) != Some(&b':') {
        return None;
    }
    let rest = &line[key_len + 1..];
    let value = rest.trim_start_matches(is_js_space);
    if value.len() == rest.len() || value.is_empty() {
        return None;
    }
    // `\s+` backtracks to leave `\S`: the value starts at the first non-space.
    if value.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some((&line[..key_len], value))
}

/// `.replace(/^\t+/gm, t => "  ".repeat(t.length))`; `^` with the `m` flag is after
/// `\n`, `\r`, U+2028 and U+2029.
fn untab(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at_line_start = true;
    for c in text.chars() {
        if at_line_start && c == '\t' {
            out.push_str("  ");
            continue;
        }
        at_line_start = matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}');
        out.push(c);
    }
    out
}

/// One YAML document as `Bun.YAML.parse` gives it, as JSON (`null` for an empty one).
pub fn parse_yaml(text: &str) -> Result<Json, String> {
    // libyaml's scanner slows to a crawl on thousands of open flow brackets (it
    // revisits every open level at each token); serde_yaml stops at 128 levels anyway.
    if flow_depth(text) > MAX_FLOW_DEPTH {
        return Err(format!("YAML Parse error: nesting deeper than {MAX_FLOW_DEPTH} levels (agentry's bound)"));
    }
    if let Some(line) = super::bun_indent::under_indented(text) {
        return Err(format!("YAML Parse error: Unexpected character (line {line} continues a quoted or flow value left of its key)"));
    }
    match leading_zero_decimals(text) {
        Some(rewritten) => parse_docs(&rewritten),
        None => parse_docs(text),
    }
}

/// Every document of `text`: one as it is, several as a list (as Bun gives them).
fn parse_docs(text: &str) -> Result<Json, String> {
    let mut docs = serde_yaml::Deserializer::from_str(text);
    let Some(first) = docs.next() else { return Ok(Json::Null) };
    let value = first.deserialize_any(JsVisitor).map_err(|e| format!("YAML Parse error: {e}"))?;
    // Several documents make an array in Bun; Claude Code then sees no table.
    match docs.next() {
        None => Ok(value),
        Some(second) => {
            let mut all = vec![value, second.deserialize_any(JsVisitor).map_err(|e| format!("YAML Parse error: {e}"))?];
            for doc in docs {
                all.push(doc.deserialize_any(JsVisitor).map_err(|e| format!("YAML Parse error: {e}"))?);
            }
            Ok(Json::Array(all))
        }
    }
}

/// Bun reads a plain `0123` as the integer 123 (YAML 1.2 core: `[-+]?[0-9]+`), where
/// serde_yaml keeps a string; a plain value of that form at the end of a block
/// mapping or list line is rewritten without its leading zeros. `None` when no
/// line has one, or when a block scalar (`|`, `>`) could hold such a line as text.
fn leading_zero_decimals(text: &str) -> Option<String> {
    static BLOCK: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let block = BLOCK.get_or_init(|| regex::Regex::new(r"(?m)(?:^|[:\-][ \t]+)[|>][-+0-9]*[ \t]*(?:#.*)?\r?$").expect("pattern"));
    if block.is_match(text) {
        return None;
    }
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"(?m)^([ \t]*(?:-[ \t]+)*(?:[^\s#'\x22\[\]{},:][^:#\n]*:[ \t]+|-[ \t]+))([-+]?)0+([0-9]+)([ \t]*(?:#.*)?)$")
            .expect("pattern")
    });
    if !re.is_match(text) {
        return None;
    }
    Some(re.replace_all(text, "${1}${2}${3}${4}").into_owned())
}

/// How many flow collections (`[`, `{`) agentry lets libyaml open at once.
const MAX_FLOW_DEPTH: usize = 256;

/// The deepest run of open `[` and `{` outside quoted scalars (a quote counts where
/// a scalar can start: after a space, an indicator or at a line start). An
/// over-estimate only refuses what no agent file holds.
fn flow_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut quote: Option<u8> = None;
    let mut prev = b'\n';
    let mut escaped = false;
    for b in text.bytes() {
        match quote {
            Some(q) => {
                if q == b'"' && b == b'\\' && !escaped {
                    escaped = true;
                    prev = b;
                    continue;
                }
                if b == q && !escaped {
                    quote = None;
                }
                escaped = false;
            }
            None => match b {
                b'"' | b'\'' if matches!(prev, b' ' | b'\t' | b'\n' | b':' | b'[' | b'{' | b',' | b'-') => quote = Some(b),
                b'[' | b'{' => {
                    depth += 1;
                    max = max.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
        prev = b;
    }
    max
}

/// Builds the JavaScript value Bun builds: maps keep the last value of a repeated
/// key at its first place, keys become strings; JSON holds no NaN or Infinity, so
/// NaN is `null` and Infinity the largest number.
struct JsVisitor;

struct Node(Json);

impl<'de> de::Deserialize<'de> for Node {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(JsVisitor).map(Node)
    }
}

/// `String(v)` of a JavaScript value.
pub fn js_string(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => js_number(n),
        Json::Array(items) => items.iter().map(|i| if i.is_null() { String::new() } else { js_string(i) }).collect::<Vec<_>>().join(","),
        Json::Object(_) => "[object Object]".into(),
    }
}

fn js_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == f.trunc() && f.abs() < 1e21 {
        format!("{f:.0}")
    } else {
        let s = format!("{f:e}");
        // Rust `1.2e29` where JavaScript writes `1.2e+29`.
        if s.contains("e-") { s } else { s.replace('e', "e+") }
    }
}

fn float(f: f64) -> Json {
    if f.is_finite() {
        // JavaScript has one number type: an integral float is an integer.
        if f == f.trunc() && f.abs() < 9.007_199_254_740_992e15 {
            return Json::from(f as i64);
        }
        serde_json::Number::from_f64(f).map(Json::Number).unwrap_or(Json::Null)
    } else if f.is_nan() {
        // NaN is falsy and not a string, as `null` is: every check Claude Code makes
        // treats the two alike.
        Json::Null
    } else {
        // Infinity is truthy and not a string: the largest number stands in for it.
        Json::from(if f > 0.0 { f64::MAX } else { f64::MIN })
    }
}

impl<'de> Visitor<'de> for JsVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(float_or_int(v as f64, Json::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(float_or_int(v as f64, Json::from(v)))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Json, E> {
        Ok(float(v as f64))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Json, E> {
        Ok(float(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut out = Vec::new();
        while let Some(Node(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Json::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut out = Map::new();
        let mut merges = Vec::new();
        while let Some(Node(k)) = map.next_key()? {
            let Node(v) = map.next_value()?;
            if k.as_str() == Some("<<") {
                merges.push(v);
                continue;
            }
            // `insert` keeps a repeated key at its first place (a JavaScript object).
            out.insert(js_string(&k), v);
        }
        // Merge keys: the map's own keys win; later merged maps do not override.
        for m in merges {
            let sources = match m {
                Json::Array(items) => items,
                other => vec![other],
            };
            for src in sources {
                if let Json::Object(src) = src {
                    for (k, v) in src {
                        out.entry(k).or_insert(v);
                    }
                }
            }
        }
        Ok(Json::Object(out))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Json, A::Error> {
        // A value with a tag Bun does not know keeps the value as written.
        // Bun reads a scalar under a tag it does not know as the string written.
        use de::VariantAccess;
        let (_tag, variant): (String, _) = data.variant()?;
        variant.newtype_variant::<Node>().map(|Node(v)| match v {
            Json::Number(_) | Json::Bool(_) => Json::String(js_string(&v)),
            other => other,
        })
    }
}

/// An integer as JavaScript holds it: beyond 2^53 it is a float.
fn float_or_int(f: f64, exact: Json) -> Json {
    if f.abs() < 9.007_199_254_740_992e15 { exact } else { float(f) }
}

/// The 1-based line of each top-level key of `block` written plainly (`key:` at the
/// start of a line), offset to the file.
pub fn key_line(block: &str, first_line: u32, key: &str) -> Option<u32> {
    for (i, line) in block.split('\n').enumerate() {
        let quoted = |q: char| line.strip_prefix(q).and_then(|l| l.strip_prefix(key)).and_then(|l| l.strip_prefix(q));
        let rest = line.strip_prefix(key).or_else(|| quoted('"')).or_else(|| quoted('\''));
        if rest.is_some_and(|r| r.starts_with(':')) {
            return Some(first_line + i as u32);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_closes_at_the_first_dashes_anywhere() {
        let s = split("---\nname: a\ndescription: before---after\n---\nBody.\n");
        assert_eq!(s.block, Some("name: a\ndescription: before"));
        assert_eq!(s.body, "after\n---\nBody.\n");
        let s = split("---  \n\nname: a\n---   \n\n Body");
        assert_eq!(s.block, Some("name: a\n"));
        assert_eq!(s.body, "Body");
        assert_eq!(s.first_line, 3);
        assert!(split("\n---\nname: a\n---\n").block.is_none());
        assert!(split("----\nname: a\n----\n").block.is_none());
        assert!(split("---\nname: a\nno close\n").block.is_none());
    }

    #[test]
    fn the_retry_quotes_risky_values_but_not_crlf_lines() {
        assert_eq!(requote("description: Use this: when\nname: x"), "description: \"Use this: when\"\nname: x");
        assert_eq!(requote("description: Use this: when\r"), "description: Use this: when\r");
        assert_eq!(requote("tools: [Read, Grep]"), "tools: [Read, Grep]");
        assert_eq!(requote("d: [open"), "d: \"[open\"");
        assert_eq!(untab("a:\n\t\t- b"), "a:\n    - b");
    }
}

/// The goldens: what Claude Code's own parser (Bun 1.4.4's `Bun.YAML.parse`, and the
/// tool's retry around it) gives for each input of `tests/goldens/claude-code-yaml/`,
/// written by `golden.js` there.
#[cfg(test)]
mod goldens {
    use super::*;
    use std::path::Path;

    /// A value as the goldens write it: NaN and Infinity by name.
    fn as_golden(v: &Json) -> Json {
        match v {
            Json::Null => Json::Null,
            Json::Number(n) if n.as_f64() == Some(f64::MAX) => Json::from("Infinity"),
            Json::Number(n) if n.as_f64() == Some(f64::MIN) => Json::from("-Infinity"),
            Json::Array(a) => Json::Array(a.iter().map(as_golden).collect()),
            Json::Object(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), as_golden(v))).collect()),
            other => other.clone(),
        }
    }

    fn same(ours: &Result<Json, String>, golden: &Json) -> bool {
        match (ours, golden.get("ok"), golden.get("error")) {
            (Ok(v), Some(g), _) => {
                let g = if g.as_str() == Some("NaN") { Json::Null } else { g.clone() };
                json_eq(&as_golden(v), &nan_as_null(&g))
            }
            (Err(_), None, Some(_)) => true,
            _ => false,
        }
    }

    /// JSON equality as JavaScript numbers compare (`1 == 1.0`).
    fn json_eq(a: &Json, b: &Json) -> bool {
        match (a, b) {
            (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
            (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q)),
            (Json::Object(x), Json::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w))),
            _ => a == b,
        }
    }

    fn nan_as_null(v: &Json) -> Json {
        match v {
            Json::String(s) if s == "NaN" => Json::Null,
            Json::Array(a) => Json::Array(a.iter().map(nan_as_null).collect()),
            Json::Object(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), nan_as_null(v))).collect()),
            other => other.clone(),
        }
    }

    /// Inputs where agentry's reading is known to differ from Bun's (serde_yaml gives
    /// no way to tell a plain scalar from a quoted one): a core tag on a quoted value
    /// (`!!int "7"`, Bun keeps the string), and leading-zero integers (`0123`, Bun
    /// reads 123) inside flow collections or in a block that also holds a block
    /// scalar. The test fails when one of them starts to agree, or another differs.
    const KNOWN_DIFFERENCES: &[&str] = &["explicit_tags", "known_tag_and_flow_zeros", "zeros_in_block_scalar"];

    #[test]
    fn every_golden_parses_as_claude_code_parses_it() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/claude-code-yaml");
        let mut names: Vec<_> = std::fs::read_dir(dir.join("inputs")).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        let mut failures = Vec::new();
        let mut differing = Vec::new();
        for input in &names {
            let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(input).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let golden: Json = serde_json::from_slice(&std::fs::read(dir.join("expected").join(format!("{stem}.json"))).unwrap()).unwrap();
            let plain = parse_yaml(text);
            let claude = parse_block(text).value;
            let agree = same(&plain, &golden["plain"]) && same(&claude, &golden["claude"]);
            if !agree {
                differing.push(stem.clone());
            }
            if agree == KNOWN_DIFFERENCES.contains(&stem.as_str()) {
                failures.push(format!(
                    "{stem}: ours {plain:?} / {claude:?}; Bun {} / Claude Code {}{}",
                    golden["plain"],
                    golden["claude"],
                    if agree { " (a known difference now agrees: take it off the list)" } else { "" }
                ));
            }
        }
        assert!(names.len() >= 50, "goldens missing");
        assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
        assert_eq!(differing, KNOWN_DIFFERENCES);
    }
}
