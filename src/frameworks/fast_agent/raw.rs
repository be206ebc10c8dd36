//! A card before validation: its mapping with `${VAR}` substituted (keys and their lines
//! kept), its Markdown body, and the small Python text rules the loader applies
//! (`str.strip()`, `str.splitlines()`, `${VAR}` substitution, load-time templates).

use std::collections::BTreeMap;

use crate::model::DiagKind;
use crate::py;
use crate::yaml::{Node, Value};

/// One key of a card's mapping, as written.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key as Python's `str()` shows it.
    pub key: String,
    /// `false` for keys that are not strings (`1:`, `true:`), which no type allows.
    pub key_is_str: bool,
    /// 1-based line of the key in the card's file.
    pub line: u32,
    /// The value after `${VAR}` substitution, as the loader sees it.
    pub value: Node,
    /// The value as written in the file (before substitution).
    pub written: serde_json::Value,
}

/// A card's mapping and body, before validation.
#[derive(Clone, Debug, Default)]
pub struct RawCard {
    pub entries: Vec<Entry>,
    /// The Markdown body (`None` for YAML cards, which have none).
    pub body: Option<String>,
    /// 1-based file line of the body's first character.
    pub body_line: u32,
    /// Messages from inline `---USER`/`---ASSISTANT` blocks (AgentCard RFC only).
    pub inline_history: Vec<Message>,
}

impl RawCard {
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key_is_str && e.key == key)
    }

    /// `raw.get(key)`: the value, `None` when absent.
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.get(key).map(|e| &e.value.value)
    }

    /// `raw.get(key)` treating an explicit null like an absent key.
    pub fn present(&self, key: &str) -> Option<&Value> {
        self.value(key).filter(|v| !matches!(v, Value::Null))
    }

    pub fn line(&self, key: &str) -> Option<u32> {
        self.get(key).map(|e| e.line)
    }

    pub fn set_default(&mut self, key: &str, value: Value, line: u32) {
        if self.get(key).is_none() {
            self.entries.push(Entry {
                key: key.into(),
                key_is_str: true,
                line,
                written: value.to_json_python(),
                value: Node { value, span: Default::default() },
            });
        }
    }
}

/// One history message: a role and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub role: String,
    pub text: String,
}

/// Why a card (or a file) failed, with the kind the resolution report uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: DiagKind,
    pub message: String,
    pub line: Option<u32>,
}

impl Failure {
    pub fn new(kind: DiagKind, message: impl Into<String>, line: Option<u32>) -> Failure {
        Failure { kind, message: message.into(), line }
    }

    pub fn parse(message: impl Into<String>, line: Option<u32>) -> Failure {
        Failure::new(DiagKind::Parse, message, line)
    }

    pub fn validation(message: impl Into<String>, line: Option<u32>) -> Failure {
        Failure::new(DiagKind::Validation, message, line)
    }
}

/// Builds the entries of a top-level mapping, shifting node lines by `line_offset`
/// (the lines before the YAML text in its file) and substituting `${VAR}` in values.
pub fn entries_of(map: &crate::yaml::Map, line_offset: u32, env: &Env) -> Vec<Entry> {
    map.entries
        .iter()
        .map(|(k, v)| {
            let mut value = v.clone();
            shift_lines(&mut value, line_offset);
            let written = value.value.to_json_python();
            substitute_env(&mut value, env);
            Entry {
                key: match &k.value {
                    Value::Str(s) => s.clone(),
                    other => crate::py::str_of(other),
                },
                key_is_str: matches!(k.value, Value::Str(_)),
                line: k.span.line + line_offset,
                value,
                written,
            }
        })
        .collect()
}

fn shift_lines(node: &mut Node, by: u32) {
    node.span.line += by;
    match &mut node.value {
        Value::Seq(items) | Value::Set(items) => items.iter_mut().for_each(|n| shift_lines(n, by)),
        Value::Map(m) => m.entries.iter_mut().for_each(|(k, v)| {
            shift_lines(k, by);
            shift_lines(v, by);
        }),
        _ => {}
    }
}

/// The environment `${VAR}` substitution sees.
pub type Env = BTreeMap<String, String>;

/// `config.resolve_env_vars`: every string value (recursively through lists and
/// mappings, keys untouched) has `${NAME}` / `${NAME:default}` replaced.
pub fn substitute_env(node: &mut Node, env: &Env) {
    match &mut node.value {
        Value::Str(s) if s.contains("${") => *s = resolve_env_text(s, env),
        Value::Seq(items) => items.iter_mut().for_each(|n| substitute_env(n, env)),
        Value::Map(m) => m.entries.iter_mut().for_each(|(_, v)| substitute_env(v, env)),
        _ => {}
    }
}

/// `re.sub(r"\$\{([^}]+)\}", …)`: an unset variable without a default stays as written;
/// an empty but set variable wins over the default.
pub fn resolve_env_text(text: &str, env: &Env) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(end) if end > 0 => {
                out.push_str(&rest[..start]);
                let inner = &after[..end];
                let whole = &rest[start..start + 2 + end + 1];
                match inner.split_once(':') {
                    Some((name, default)) => out.push_str(env.get(name).map(String::as_str).unwrap_or(default)),
                    None => out.push_str(env.get(inner).map(String::as_str).unwrap_or(whole)),
                }
                rest = &after[end + 1..];
            }
            _ => {
                // `${}` or an unclosed `${`: no match here; move past the `$`.
                out.push_str(&rest[..start + 1]);
                rest = &rest[start + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Python's `str.splitlines()` (without the line ends).
pub fn splitlines(text: &str) -> Vec<&str> {
    Lines { text, at: 0 }.collect()
}

/// The lines of [`splitlines`], one at a time (a caller after the first non-blank line
/// stops there). Scans bytes: every line break Python knows is ASCII or starts with
/// the UTF-8 lead byte `0xC2` (U+0085) or `0xE2` (U+2028, U+2029), so no character is
/// decoded.
pub struct Lines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        Lines { text, at: 0 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        let mut i = start;
        while i < bytes.len() {
            let width = match bytes[i] {
                b'\n' | b'\x0b' | b'\x0c' | b'\x1c' | b'\x1d' | b'\x1e' => 1,
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => 2,
                b'\r' => 1,
                0xC2 if bytes.get(i + 1) == Some(&0x85) => 2,
                0xE2 if bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) => 3,
                _ => 0,
            };
            if width > 0 {
                self.at = i + width;
                return Some(&self.text[start..i]);
            }
            i += 1;
        }
        self.at = bytes.len();
        Some(&self.text[start..])
    }
}

/// `strip_to_none`: the stripped text, `None` when blank.
pub fn strip_to_none(s: &str) -> Option<&str> {
    let t = py::strip(s);
    (!t.is_empty()).then_some(t)
}

/// `strip_str_to_none`: like [`strip_to_none`] for strings, `None` for anything else.
pub fn str_to_none(v: &Value) -> Option<&str> {
    match v {
        Value::Str(s) => strip_to_none(s),
        _ => None,
    }
}

/// Decodes a text file the way `Path.read_text(encoding="utf-8")` does: strict UTF-8,
/// universal newlines (`\r\n` and `\r` become `\n`).
pub fn decode_text(bytes: &[u8]) -> Result<String, std::str::Utf8Error> {
    let text = std::str::from_utf8(bytes)?;
    Ok(if text.contains('\r') { text.replace("\r\n", "\n").replace('\r', "\n") } else { text.to_string() })
}

/// The load-time templates fast-agent applies to an explicit instruction
/// (`direct_decorators._apply_templates`): `{{currentDate}}` becomes `date`; `\{{` and
/// `\}}` are kept as written. `{{url:…}}` would be fetched over the network at load
/// time; agentry never fetches, so it is an error naming the URL.
pub fn apply_templates(text: &str, date: &str) -> Result<String, String> {
    const OPEN: &str = "\u{0}agentry-open\u{0}";
    const CLOSE: &str = "\u{0}agentry-close\u{0}";
    // Every template starts with `{{`, and neither placeholder contains a brace: text
    // without `{{` comes out as it went in.
    if !text.contains("{{") {
        return Ok(text.to_string());
    }
    let protected = text.replace("\\{{", OPEN).replace("\\}}", CLOSE);
    let dated = protected.replace("{{currentDate}}", date);
    if let Some(url) = url_template(&dated) {
        return Err(url);
    }
    Ok(dated.replace(OPEN, "\\{{").replace(CLOSE, "\\}}"))
}

/// The first `{{url:(https?|hf)://[^}]+}}` in `text`.
fn url_template(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(i) = rest.find("{{url:") {
        let after = &rest[i + 6..];
        let scheme_ok = ["http://", "https://", "hf://"].iter().any(|s| after.starts_with(s));
        if scheme_ok {
            if let Some(end) = after.find('}') {
                let scheme_len = after.find("://").map(|p| p + 3).unwrap_or(0);
                if end > scheme_len && after[end..].starts_with("}}") {
                    return Some(after[..end].to_string());
                }
            }
        }
        rest = &rest[i + 6..];
    }
    None
}

/// `strftime("%d %B %Y")` of a day given as days since 1970-01-01.
pub fn format_date(days_since_epoch: i64) -> String {
    let (year, month, day) = crate::py::calendar::civil_from_days(days_since_epoch);
    const MONTHS: [&str; 12] = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ];
    format!("{day:02} {} {year}", MONTHS[(month - 1) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_substitution_follows_the_regex() {
        let env: Env = [("SET".to_string(), "v".to_string()), ("EMPTY".to_string(), String::new())].into();
        assert_eq!(resolve_env_text("a ${SET} b", &env), "a v b");
        assert_eq!(resolve_env_text("${UNSET}", &env), "${UNSET}");
        assert_eq!(resolve_env_text("${UNSET:dflt}", &env), "dflt");
        assert_eq!(resolve_env_text("${EMPTY:dflt}", &env), "");
        assert_eq!(resolve_env_text("${} ${open", &env), "${} ${open");
        assert_eq!(resolve_env_text("$${SET}", &env), "$v");
    }

    #[test]
    fn templates_expand_the_date_and_refuse_urls() {
        let date = format_date(20_103);
        assert_eq!(date, "15 January 2025");
        assert_eq!(
            apply_templates("On {{currentDate}} \\{{currentDate}} {{file:x}}", &date).unwrap(),
            "On 15 January 2025 \\{{currentDate}} {{file:x}}"
        );
        assert_eq!(apply_templates("{{url:https://e.x/r.md}}", &date), Err("https://e.x/r.md".into()));
        assert!(apply_templates("{{url:ftp://e.x}}", &date).is_ok());
    }

    #[test]
    fn splitlines_and_decoding_follow_python() {
        assert_eq!(splitlines("a\r\nb\rc\n\nd\n"), vec!["a", "b", "c", "", "d"]);
        assert_eq!(splitlines(""), Vec::<&str>::new());
        assert_eq!(splitlines("\n"), vec![""]);
        assert_eq!(splitlines("x\r"), vec!["x"]);
        assert_eq!(splitlines("a\u{85}b\u{2028}c\u{2029}d\x1ce\x0bf\x0cg"), vec!["a", "b", "c", "d", "e", "f", "g"]);
        assert_eq!(splitlines("é\u{2027}ü\u{a0}"), vec!["é\u{2027}ü\u{a0}"]);
        assert_eq!(decode_text(b"a\r\nb\rc").unwrap(), "a\nb\nc");
        assert!(decode_text(b"caf\xe9").is_err());
    }
}
