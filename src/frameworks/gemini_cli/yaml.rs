//! Front matter YAML as Gemini CLI 0.61.0 reads it: js-yaml 4.1.1 `load` with its
//! default schema (YAML 1.2 core scalars plus timestamps and `<<` merges).
//!
//! The structure comes from `yaml-rust`'s event parser; every scalar is then resolved
//! by js-yaml's own rules (`resolveYamlNull|Boolean|Integer|Float|Timestamp`), not
//! YAML 1.1's: `yes`/`on` stay strings, `0x1F` is 31, `2024-05-01` is a Date. What
//! js-yaml rejects and yaml-rust accepts is checked here too: duplicate keys, tabs
//! in indentation, more than one document, unknown tags.

use yaml_rust::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust::scanner::{Marker, TScalarStyle, TokenType};

/// A value as js-yaml hands it to JavaScript.
#[derive(Clone, Debug, PartialEq)]
pub enum Js {
    Null,
    Bool(bool),
    /// Every JavaScript number is a double.
    Num(f64),
    Str(String),
    /// A timestamp (a JavaScript `Date`): no schema field accepts one, so only its
    /// text is kept.
    Date(String),
    Seq(Vec<Js>),
    /// Keys in order, each with the 1-based line it is written on.
    Map(Vec<(String, Js, u32)>),
}

impl Js {
    /// The type word Zod uses in "Expected string, received number".
    pub fn type_word(&self) -> &'static str {
        match self {
            Js::Null => "null",
            Js::Bool(_) => "boolean",
            Js::Num(n) if n.is_nan() => "nan",
            Js::Num(_) => "number",
            Js::Str(_) => "string",
            Js::Date(_) => "date",
            Js::Seq(_) => "array",
            Js::Map(_) => "object",
        }
    }

    pub fn get(&self, key: &str) -> Option<&Js> {
        match self {
            Js::Map(entries) => entries.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v),
            _ => None,
        }
    }

    /// `JSON.stringify` of the value (a Date as its text; NaN and infinities null).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Js::Null => J::Null,
            Js::Bool(b) => J::Bool(*b),
            Js::Num(n) => number(*n),
            Js::Str(s) | Js::Date(s) => J::String(s.clone()),
            Js::Seq(items) => J::Array(items.iter().map(Js::to_json).collect()),
            Js::Map(entries) => J::Object(entries.iter().map(|(k, v, _)| (k.clone(), v.to_json())).collect()),
        }
    }

    /// `String(value)` as JavaScript writes a value used as an object key.
    fn key_text(&self) -> String {
        match self {
            Js::Null => "null".into(),
            Js::Bool(b) => b.to_string(),
            Js::Num(n) => js_number_text(*n),
            Js::Str(s) | Js::Date(s) => s.clone(),
            Js::Seq(items) => items.iter().map(|i| if *i == Js::Null { String::new() } else { i.key_text() }).collect::<Vec<_>>().join(","),
            Js::Map(_) => "[object Object]".into(),
        }
    }
}

/// A JSON number for a double: an integer where JavaScript would print one.
pub fn number(n: f64) -> serde_json::Value {
    // JavaScript prints every integral double below 1e21 without a fraction.
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 9.2e18 {
        serde_json::Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

fn js_number_text(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity".into() } else { "-Infinity".into() }
    } else if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i128)
    } else {
        format!("{n}")
    }
}

/// Why js-yaml refused the text, and where (1-based line and column of the front
/// matter text).
#[derive(Clone, Debug, PartialEq)]
pub struct YamlError {
    pub message: String,
    pub line: u32,
    pub col: u32,
}

/// Deeper than this, js-yaml's recursive reader runs out of stack ("Maximum call
/// stack size exceeded"); agentry stops before its own drop recursion could.
const MAX_DEPTH: usize = 1000;

/// `load(text)`: `Ok(None)` for an empty stream (`undefined`).
pub fn load(text: &str) -> Result<Option<Js>, YamlError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // js-yaml ends the input with a line break when it has none (a block scalar at
    // the end keeps its final newline).
    let owned;
    let text = if text.is_empty() || text.ends_with(['\n', '\r']) {
        text
    } else {
        owned = format!("{text}\n");
        owned.as_str()
    };
    check_tabs(text)?;
    let mut builder = Builder::default();
    let mut parser = Parser::new(text.chars());
    if let Err(e) = parser.load(&mut builder, true) {
        let m = e.marker();
        return Err(YamlError { message: scan_message(&e.to_string()), line: m.line() as u32, col: m.col() as u32 + 1 });
    }
    if let Some(err) = builder.error {
        return Err(err);
    }
    if builder.documents.len() > 1 {
        return Err(YamlError { message: "expected a single document in the stream, but found more".into(), line: 1, col: 1 });
    }
    if builder.documents.is_empty() && has_document(text) {
        // A stream of comments or blank lines still holds one (empty) document.
        return Ok(Some(Js::Null));
    }
    Ok(builder.documents.pop())
}

/// `loadDocuments`: a newline is appended when missing, leading spaces skipped, and
/// a document read while more than the final newline is left.
fn has_document(text: &str) -> bool {
    let len = text.len() + usize::from(!text.is_empty() && !text.ends_with(['\n', '\r']));
    let spaces = text.len() - text.trim_start_matches(' ').len();
    spaces + 1 < len
}

/// yaml-rust's message without its own position suffix.
fn scan_message(text: &str) -> String {
    text.rsplit_once(" at line ").map_or(text, |(m, _)| m).to_string()
}

/// js-yaml: "tab characters must not be used in indentation" — a tab among the
/// spaces that start a line holding block content. Block scalars' lines are text.
fn check_tabs(text: &str) -> Result<(), YamlError> {
    let mut block_scalar: Option<usize> = None;
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let lead = line.len() - line.trim_start_matches([' ', '\t']).len();
        let rest = &line[lead..];
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(parent) = block_scalar {
            if rest.is_empty() || indent > parent {
                continue;
            }
            block_scalar = None;
        }
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        if line[..lead].contains('\t') {
            return Err(YamlError { message: "tab characters must not be used in indentation".into(), line: i as u32 + 1, col: 1 });
        }
        let trimmed = rest.trim_end();
        let header = trimmed.rsplit_once(' ').map_or(trimmed, |(_, h)| h);
        if header.starts_with(['|', '>']) && header[1..].chars().all(|c| matches!(c, '+' | '-' | '0'..='9')) {
            block_scalar = Some(indent);
        }
    }
    Ok(())
}

enum Frame {
    Seq(Vec<Js>, usize),
    /// Entries, the key waiting for its value (with its line), keys a merge may
    /// overwrite, the anchor.
    Map(Vec<(String, Js, u32)>, Option<(Js, u32, bool)>, Vec<String>, usize),
}

/// How many values aliases may copy in: js-yaml shares an alias's value, agentry
/// copies it, so a "billion laughs" document is refused here instead of filling memory.
const MAX_ALIAS_NODES: usize = 1_000_000;

fn size(v: &Js) -> usize {
    match v {
        Js::Seq(items) => 1 + items.iter().map(size).sum::<usize>(),
        Js::Map(entries) => 1 + entries.iter().map(|(_, v, _)| size(v)).sum::<usize>(),
        _ => 1,
    }
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    /// Each anchor's value and its size in values.
    anchors: std::collections::HashMap<usize, (Js, usize)>,
    /// Values copied in by aliases so far.
    aliased: usize,
    documents: Vec<Js>,
    error: Option<YamlError>,
}

impl Builder {
    fn fail(&mut self, message: impl Into<String>, mark: Marker) {
        if self.error.is_none() {
            self.error = Some(YamlError { message: message.into(), line: mark.line() as u32, col: mark.col() as u32 + 1 });
        }
    }

    fn push_value(&mut self, value: Js, anchor: usize, plain_merge_key: bool, mark: Marker) {
        if anchor > 0 {
            let n = size(&value);
            self.anchors.insert(anchor, (value.clone(), n));
        }
        match self.stack.last_mut() {
            None => self.documents.push(value),
            Some(Frame::Seq(items, _)) => items.push(value),
            Some(Frame::Map(entries, pending, overridable, _)) => match pending.take() {
                None => *pending = Some((value, mark.line() as u32, plain_merge_key)),
                Some((key, line, is_merge)) => {
                    if is_merge {
                        let sources: Vec<Js> = match value {
                            Js::Seq(items) => items,
                            other => vec![other],
                        };
                        for source in sources {
                            let Js::Map(src) = source else {
                                self.error.get_or_insert(YamlError {
                                    message: "cannot merge mappings; the provided source object is unacceptable".into(),
                                    line,
                                    col: 1,
                                });
                                return;
                            };
                            for (k, v, l) in src {
                                if !entries.iter().any(|(e, _, _)| *e == k) {
                                    overridable.push(k.clone());
                                    entries.push((k, v, l));
                                }
                            }
                        }
                        return;
                    }
                    let key = key.key_text();
                    if let Some(i) = entries.iter().position(|(e, _, _)| *e == key) {
                        if let Some(o) = overridable.iter().position(|k| *k == key) {
                            overridable.remove(o);
                            entries[i] = (key, value, line);
                        } else {
                            self.error.get_or_insert(YamlError { message: "duplicated mapping key".into(), line, col: 1 });
                        }
                        return;
                    }
                    entries.push((key, value, line));
                }
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let merge = style == TScalarStyle::Plain && tag.is_none() && text == "<<" && self.waiting_for_key();
                match resolve(&text, style, tag.as_ref()) {
                    Ok(v) => self.push_value(v, anchor, merge, mark),
                    Err(m) => self.fail(m, mark),
                }
            }
            Event::Alias(id) => match self.anchors.get(&id) {
                Some((_, n)) if self.aliased + n > MAX_ALIAS_NODES => {
                    self.fail("aliases expand to too many values (agentry's limit against alias bombs)", mark)
                }
                Some((v, n)) => {
                    self.aliased += n;
                    let v = v.clone();
                    self.push_value(v, 0, false, mark)
                }
                None => self.fail("unidentified alias", mark),
            },
            Event::SequenceStart(anchor) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.fail("nesting too deep (Maximum call stack size exceeded)", mark);
                }
                self.stack.push(Frame::Seq(Vec::new(), anchor))
            }
            Event::MappingStart(anchor) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.fail("nesting too deep (Maximum call stack size exceeded)", mark);
                }
                self.stack.push(Frame::Map(Vec::new(), None, Vec::new(), anchor))
            }
            Event::SequenceEnd | Event::MappingEnd => match self.stack.pop() {
                Some(Frame::Seq(items, anchor)) => self.push_value(Js::Seq(items), anchor, false, mark),
                Some(Frame::Map(entries, _, _, anchor)) => self.push_value(Js::Map(entries), anchor, false, mark),
                None => {}
            },
            Event::DocumentEnd => {}
            Event::DocumentStart | Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
        }
    }
}

impl Builder {
    fn waiting_for_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map(_, None, _, _)))
    }
}

/// A scalar's value under js-yaml's default schema.
fn resolve(text: &str, style: TScalarStyle, tag: Option<&TokenType>) -> Result<Js, String> {
    let explicit = match tag {
        Some(TokenType::Tag(handle, suffix)) => match (handle.as_str(), suffix.as_str()) {
            ("!!", s) => Some(s.to_string()),
            ("!", "") => return Ok(Js::Str(text.into())),
            (h, s) => return Err(format!("unknown tag !<{h}{s}>")),
        },
        _ => None,
    };
    let plain = style == TScalarStyle::Plain;
    match explicit.as_deref() {
        Some("str") => return Ok(Js::Str(text.into())),
        Some("null") => return if is_null(text) { Ok(Js::Null) } else { Err("cannot resolve a node with !<tag:yaml.org,2002:null> explicit tag".to_string()) },
        Some("bool") => return bool_of(text).map(Js::Bool).ok_or_else(|| "cannot resolve a node with !<tag:yaml.org,2002:bool> explicit tag".into()),
        Some("int") => return int_of(text).map(Js::Num).ok_or_else(|| "cannot resolve a node with !<tag:yaml.org,2002:int> explicit tag".into()),
        Some("float") => return float_of(text).or_else(|| int_of(text)).map(Js::Num).ok_or_else(|| "cannot resolve a node with !<tag:yaml.org,2002:float> explicit tag".into()),
        Some("binary") => return binary(text).ok_or_else(|| "cannot resolve a node with !<tag:yaml.org,2002:binary> explicit tag".into()),
        Some("timestamp") => return if is_timestamp(text) { Ok(Js::Date(text.into())) } else { Err("cannot resolve a node with !<tag:yaml.org,2002:timestamp> explicit tag".into()) },
        Some(other) => return Err(format!("unknown tag !<tag:yaml.org,2002:{other}>")),
        None => {}
    }
    if !plain {
        return Ok(Js::Str(text.into()));
    }
    if is_null(text) {
        return Ok(Js::Null);
    }
    if let Some(b) = bool_of(text) {
        return Ok(Js::Bool(b));
    }
    if let Some(n) = int_of(text) {
        return Ok(Js::Num(n));
    }
    if let Some(n) = float_of(text) {
        return Ok(Js::Num(n));
    }
    if is_timestamp(text) {
        return Ok(Js::Date(text.into()));
    }
    Ok(Js::Str(text.into()))
}

/// `!!binary`: base64 (white space ignored) into a `Uint8Array`, which JavaScript
/// sees as an object keyed by index.
fn binary(text: &str) -> Option<Js> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits: u32 = 0;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace()) {
        if c == b'=' {
            continue;
        }
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        bits = (bits << 6) | v;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) & 0xff);
        }
    }
    Some(Js::Map(out.into_iter().enumerate().map(|(i, b)| (i.to_string(), Js::Num(b as f64), 0)).collect()))
}

fn is_null(t: &str) -> bool {
    matches!(t, "" | "~" | "null" | "Null" | "NULL")
}

fn bool_of(t: &str) -> Option<bool> {
    match t {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// `resolveYamlInteger` and `constructYamlInteger`.
fn int_of(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    let (sign, body) = match b.first()? {
        b'-' => (-1.0, &t[1..]),
        b'+' => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    let digits = |s: &str, ok: fn(u8) -> bool| -> bool {
        !s.is_empty() && s.bytes().all(|c| c == b'_' || ok(c)) && s.bytes().any(|c| c != b'_') && !s.ends_with('_')
    };
    let radix = |s: &str, r: u32| -> f64 {
        s.bytes().filter(|&c| c != b'_').fold(0.0, |acc, c| acc * r as f64 + (c as char).to_digit(r).unwrap_or(0) as f64)
    };
    if body == "0" {
        return Some(0.0 * sign);
    }
    if let Some(rest) = body.strip_prefix("0b") {
        return digits(rest, |c| c == b'0' || c == b'1').then(|| sign * radix(rest, 2));
    }
    if let Some(rest) = body.strip_prefix("0x") {
        return digits(rest, |c| c.is_ascii_hexdigit()).then(|| sign * radix(rest, 16));
    }
    if let Some(rest) = body.strip_prefix("0o") {
        return digits(rest, |c| (b'0'..=b'7').contains(&c)).then(|| sign * radix(rest, 8));
    }
    if body.starts_with('_') || !digits(body, |c| c.is_ascii_digit()) {
        return None;
    }
    let clean: String = body.chars().filter(|&c| c != '_').collect();
    clean.parse::<f64>().ok().map(|n| sign * n)
}

/// `YAML_FLOAT_PATTERN` and `constructYamlFloat`.
fn float_of(t: &str) -> Option<f64> {
    if t.ends_with('_') {
        return None;
    }
    let (sign, body) = match t.as_bytes().first()? {
        b'-' => (-1.0, &t[1..]),
        b'+' => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    match body {
        ".inf" | ".Inf" | ".INF" => return Some(sign * f64::INFINITY),
        ".nan" | ".NaN" | ".NAN" if body.len() == t.len() => return Some(f64::NAN),
        _ => {}
    }
    let b = body.as_bytes();
    let mut i = 0;
    let unsigned_dot_start = b.first() == Some(&b'.');
    if unsigned_dot_start {
        // `\.[0-9_]+(?:[eE][-+]?[0-9]+)?`, with no sign.
        if body.len() != t.len() {
            return None;
        }
        i = 1;
        let start = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
        if i == start {
            return None;
        }
    } else {
        if !b.first()?.is_ascii_digit() {
            return None;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
                i += 1;
            }
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let clean: String = body.chars().filter(|&c| c != '_').collect();
    // `parseFloat` reads the longest number at the front ("1." is 1).
    let clean = clean.trim_end_matches('.');
    let clean = if clean.starts_with('.') { format!("0{clean}") } else { clean.to_string() };
    let clean = clean.replace(".e", "e").replace(".E", "E");
    clean.parse::<f64>().ok().map(|n| sign * n)
}

/// `YAML_DATE_REGEXP` or `YAML_TIMESTAMP_REGEXP`.
fn is_timestamp(t: &str) -> bool {
    let b = t.as_bytes();
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    if b.len() == 10 && digits(&b[0..4]) && b[4] == b'-' && digits(&b[5..7]) && b[7] == b'-' && digits(&b[8..10]) {
        return true;
    }
    // YYYY-M(M)-D(D)(T|t|[ \t]+)H(H):MM:SS(.f*)?([ \t]*(Z|[-+]H(H)(:MM)?))?
    let mut i = 0;
    let take_digits = |i: &mut usize, min: usize, max: usize| -> bool {
        let start = *i;
        while *i < b.len() && *i - start < max && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start >= min
    };
    let lit = |i: &mut usize, c: u8| -> bool {
        if *i < b.len() && b[*i] == c {
            *i += 1;
            true
        } else {
            false
        }
    };
    if !(take_digits(&mut i, 4, 4) && lit(&mut i, b'-') && take_digits(&mut i, 1, 2) && lit(&mut i, b'-') && take_digits(&mut i, 1, 2)) {
        return false;
    }
    if !(lit(&mut i, b'T') || lit(&mut i, b't')) {
        let start = i;
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if !(take_digits(&mut i, 1, 2) && lit(&mut i, b':') && take_digits(&mut i, 2, 2) && lit(&mut i, b':') && take_digits(&mut i, 2, 2)) {
        return false;
    }
    if lit(&mut i, b'.') {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i == b.len() {
        return true;
    }
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    if lit(&mut i, b'Z') {
        return i == b.len();
    }
    if !(lit(&mut i, b'+') || lit(&mut i, b'-')) {
        return false;
    }
    if !take_digits(&mut i, 1, 2) {
        return false;
    }
    if lit(&mut i, b':') && !take_digits(&mut i, 2, 2) {
        return false;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_scalars() {
        let v = load("a: yes\nb: 0x1F\nc: 2024-05-01\nd: ~\ne: .inf\nf: 1e3\ng: '1'\n").unwrap().unwrap();
        assert_eq!(v.get("a"), Some(&Js::Str("yes".into())));
        assert_eq!(v.get("b"), Some(&Js::Num(31.0)));
        assert_eq!(v.get("c"), Some(&Js::Date("2024-05-01".into())));
        assert_eq!(v.get("d"), Some(&Js::Null));
        assert_eq!(v.get("e"), Some(&Js::Num(f64::INFINITY)));
        assert_eq!(v.get("f"), Some(&Js::Num(1000.0)));
        assert_eq!(v.get("g"), Some(&Js::Str("1".into())));
    }

    #[test]
    fn duplicates_and_tabs_fail_merges_work() {
        assert!(load("a: 1\na: 2\n").is_err());
        assert!(load("a:\n\t- b\n").is_err());
        let v = load("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n").unwrap().unwrap();
        assert_eq!(v.get("m").unwrap().to_json(), serde_json::json!({"x": 1, "y": 3}));
    }

    /// The value in the goldens' form (`gen.mjs`): dates, non-finite numbers and
    /// `undefined` as tagged objects.
    fn typed(v: Option<&Js>) -> serde_json::Value {
        use serde_json::json;
        let Some(v) = v else { return json!({"$undefined": true}) };
        match v {
            Js::Date(_) => json!({"$date": true}),
            Js::Num(n) if n.is_nan() => json!({"$number": "NaN"}),
            Js::Num(n) if n.is_infinite() => json!({"$number": if *n > 0.0 { "Infinity" } else { "-Infinity" }}),
            Js::Seq(items) => serde_json::Value::Array(items.iter().map(|i| typed(Some(i))).collect()),
            Js::Map(entries) => serde_json::Value::Object(entries.iter().map(|(k, v, _)| (k.clone(), typed(Some(v)))).collect()),
            other => other.to_json(),
        }
    }

    /// Every input of `tests/goldens/gemini-cli-yaml/` loads as Gemini CLI's own
    /// js-yaml loads it (the `.json` next to it, written by `gen.mjs`): the same
    /// value, or an error where js-yaml throws one.
    #[test]
    fn agrees_with_the_cli_s_own_js_yaml() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/gemini-cli-yaml");
        let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "yaml")).collect();
        names.sort();
        assert!(names.len() > 30, "goldens missing in {}", dir.display());
        let mut differ = Vec::new();
        for input in names {
            let text = String::from_utf8_lossy(&std::fs::read(&input).unwrap()).into_owned();
            let expected: serde_json::Value = serde_json::from_slice(&std::fs::read(input.with_extension("json")).unwrap()).unwrap();
            let got = match load(&text) {
                Ok(v) => serde_json::json!({"value": typed(v.as_ref())}),
                Err(e) => serde_json::json!({"error": e.message}),
            };
            let agree = match (expected.get("error"), got.get("error")) {
                (Some(_), Some(_)) => true,
                (None, None) => expected == got,
                _ => false,
            };
            if !agree {
                differ.push(format!("{}: js-yaml {expected}, agentry {got}", input.display()));
            }
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
    }
}
