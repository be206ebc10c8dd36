//! TOML as Codex 0.171.0 reads it: the `toml` crate at the version its binary is
//! built with (0.9.11), a file read as UTF-8 first (`std::fs::read_to_string`), and
//! serde's wording for values of the wrong type.

use toml_codex::Value;

use crate::model::DiagKind;

/// Why a file or a value was refused, in Codex's words where it has them.
pub use crate::model::Failure;

impl Failure {
    pub fn validation(message: impl Into<String>) -> Failure {
        Failure { kind: DiagKind::Validation, message: message.into(), line: None, col: None }
    }

    pub fn at(mut self, line: Option<u32>) -> Failure {
        self.line = line;
        self
    }
}

/// A parsed document and where its keys are written.
#[derive(Debug)]
pub struct Document {
    pub lines: KeyLines,
    pub table: toml_codex::Table,
}

/// Decodes and parses `bytes`. `Err` carries Codex's own message without the
/// prefix it puts before it (the caller knows which file it is).
pub fn parse(bytes: &[u8]) -> Result<Document, Failure> {
    // `read_to_string` refuses bytes that are not UTF-8 before TOML sees them.
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.to_string(),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count() as u32;
            return Err(Failure { kind: DiagKind::Parse, message: utf8_message(&e), line: Some(line), col: None });
        }
    };
    match toml_codex::from_str::<toml_codex::Table>(&text) {
        Ok(table) => Ok(Document { lines: KeyLines::new(&text), table }),
        Err(e) => {
            let (line, col) = e.span().map(|s| line_col(&text, s.start)).unzip();
            Err(Failure { kind: DiagKind::Parse, message: e.to_string().trim_end().to_string(), line, col })
        }
    }
}

/// Rust's `Utf8Error` display, which Codex prints.
fn utf8_message(e: &std::str::Utf8Error) -> String {
    match e.error_len() {
        Some(n) => format!("invalid utf-8 sequence of {n} bytes from index {}", e.valid_up_to()),
        None => format!("incomplete utf-8 byte sequence from index {}", e.valid_up_to()),
    }
}

/// 1-based line and column (in characters) of byte `at` of `text`.
pub fn line_col(text: &str, at: usize) -> (u32, u32) {
    let at = floor_boundary(text, at.min(text.len()));
    let before = &text[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() as u32 + 1;
    (line, col)
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Where keys and tables are written, found in one pass over the text: the line of
/// `key = …` by its full dotted path (`[section]` headers and dotted keys both
/// count), and of each table by its header or the first key below it. Lines only:
/// values come from the parser.
#[derive(Debug, Default)]
pub struct KeyLines {
    keys: std::collections::HashMap<Vec<String>, u32>,
    tables: std::collections::HashMap<Vec<String>, u32>,
}

impl KeyLines {
    pub fn new(text: &str) -> KeyLines {
        let mut out = KeyLines::default();
        let mut current: Vec<String> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let n = i as u32 + 1;
            let line = raw.trim_start_matches('\u{feff}').trim();
            if line.starts_with('#') {
                continue;
            }
            if line.starts_with('[') {
                let inner = line.trim_start_matches('[').split(']').next().unwrap_or("");
                current = split_key(inner);
                out.tables.entry(current.clone()).or_insert(n);
                continue;
            }
            let Some((lhs, _)) = line.split_once('=') else { continue };
            let mut path = current.clone();
            path.extend(split_key(lhs));
            for end in current.len() + 1..path.len() {
                out.tables.entry(path[..end].to_vec()).or_insert(n);
            }
            out.keys.entry(path).or_insert(n);
        }
        out
    }

    /// The line of `key` in table `section` (top level when empty).
    pub fn key(&self, section: &[&str], key: &str) -> Option<u32> {
        let path: Vec<String> = section.iter().copied().chain(std::iter::once(key)).map(str::to_string).collect();
        self.keys.get(&path).copied()
    }

    /// The line of table `path`.
    pub fn table(&self, path: &[&str]) -> Option<u32> {
        let path: Vec<String> = path.iter().map(|p| p.to_string()).collect();
        self.tables.get(&path).copied()
    }
}

/// [`KeyLines::key`] of `text`, for one look-up (tests).
#[cfg(test)]
pub fn key_line(text: &str, section: &[&str], key: &str) -> Option<u32> {
    KeyLines::new(text).key(section, key)
}

/// A dotted key's parts, quotes removed (enough to find a line, not a TOML parser).
fn split_key(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut part = String::new();
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => part.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, '.') => parts.push(std::mem::take(&mut part).trim().to_string()),
            (None, c) => part.push(c),
        }
    }
    parts.push(part.trim().to_string());
    parts
}

/// serde's "invalid type: …" for `value` where `expected` was wanted.
pub fn invalid_type(value: &Value, expected: &str) -> String {
    format!("invalid type: {}, expected {expected}", unexpected(value))
}

/// The value with every date and time (at any depth) turned into its TOML text.
pub fn datetimes_as_text(value: Value) -> Value {
    match value {
        Value::Datetime(d) => Value::String(d.to_string()),
        Value::Array(items) => Value::Array(items.into_iter().map(datetimes_as_text).collect()),
        Value::Table(t) => Value::Table(t.into_iter().map(|(k, v)| (k, datetimes_as_text(v))).collect()),
        other => other,
    }
}

/// serde's `Unexpected` wording of a TOML value.
fn unexpected(value: &Value) -> String {
    match value {
        Value::String(s) => format!("string {s:?}"),
        Value::Integer(i) => format!("integer `{i}`"),
        Value::Float(f) => format!("floating point `{f}`"),
        Value::Boolean(b) => format!("boolean `{b}`"),
        Value::Datetime(_) => "map".to_string(),
        Value::Array(_) => "sequence".to_string(),
        Value::Table(_) => "map".to_string(),
    }
}

/// The value as JSON, for attributes and fields (dates as their TOML text).
pub fn to_json(value: &Value) -> serde_json::Value {
    match value {
        Value::String(s) => s.clone().into(),
        Value::Integer(i) => (*i).into(),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, Into::into),
        Value::Boolean(b) => (*b).into(),
        Value::Datetime(d) => d.to_string().into(),
        Value::Array(a) => a.iter().map(to_json).collect(),
        Value::Table(t) => t.iter().map(|(k, v)| (k.clone(), to_json(v))).collect::<serde_json::Map<_, _>>().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_and_crlf_are_read_as_codex_reads_them() {
        let doc = parse(b"\xef\xbb\xbfname = \"x\"\r\nd = \"\"\"\r\na\r\nb\"\"\"\r\n").expect("parses");
        assert_eq!(doc.table["name"].as_str(), Some("x"));
        // CRLF inside a multi-line string stays.
        assert_eq!(doc.table["d"].as_str(), Some("a\r\nb"));
    }

    #[test]
    fn duplicate_keys_and_bad_bytes_are_refused_with_a_line() {
        let dup = parse(b"name = \"a\"\nname = \"b\"\n").unwrap_err();
        assert_eq!((dup.kind, dup.line), (DiagKind::Parse, Some(2)));
        assert!(dup.message.contains("duplicate key"), "{}", dup.message);
        let latin1 = parse(b"name = \"x\"\ndescription = \"caf\xe9\"\n").unwrap_err();
        assert_eq!(latin1.message, "invalid utf-8 sequence of 1 bytes from index 29");
        assert_eq!(latin1.line, Some(2));
    }

    #[test]
    fn key_lines_follow_tables_and_dotted_keys() {
        let text = "x = 1\n[agents.rev]\ndescription = \"d\"\n[agents]\nother.config_file = \"f\"\n";
        assert_eq!(key_line(text, &["agents", "rev"], "description"), Some(3));
        assert_eq!(key_line(text, &["agents", "other"], "config_file"), Some(5));
        assert_eq!(key_line(text, &[], "x"), Some(1));
        assert_eq!(key_line(text, &[], "missing"), None);
    }
}
