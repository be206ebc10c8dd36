//! YAML as Kimi Code 2.1.0 reads front matter: js-yaml 4.1.1 `load` with its default
//! schema (YAML 1.2 core — `yes`/`on` are strings, `0x10`/`0o17`/`1_000` numbers —
//! plus timestamps, merge keys `<<`, anchors), one document only, a duplicated key an
//! error. The text is tokenised by `yaml-rust`'s event parser (safe, iterative: deep
//! nesting cannot overflow the stack); what js-yaml does differently is done here:
//! scalar resolution and tags (`resolveYamlInteger`, `YAML_FLOAT_PATTERN`,
//! `YAML_TIMESTAMP_REGEXP`), `storeMappingPair` (keys made strings, duplicates,
//! `mergeMappings`), tab indentation and the single-document rule. Proved against
//! js-yaml itself by `tests/goldens/kimi-code-yaml/`.

use std::sync::Arc;

use yaml_rust::parser::{Event, Parser};
use yaml_rust::scanner::{TScalarStyle, TokenType};

/// A loaded value, as JavaScript sees it (numbers are doubles).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    /// A timestamp (`2024-05-01`): a JavaScript `Date`, as ISO text (UTC).
    Date(String),
    /// `!!binary`: bytes (only their count is kept).
    Binary(usize),
    Seq(Arc<Vec<Value>>),
    /// Keys as js-yaml stores them: made strings, in insertion order.
    Map(Arc<Vec<(String, Value)>>),
}

/// A load error: js-yaml's reason and the 1-based line it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub message: String,
    pub line: Option<u32>,
}

/// Nesting agentry builds at most: its values are dropped and shown recursively.
const MAX_DEPTH: usize = 500;

/// The top-level keys of a mapping document and the 1-based line of each.
pub type KeyLines = Vec<(String, u32)>;

enum Frame {
    Seq { items: Vec<Value>, anchor: usize },
    Map { entries: Vec<(String, Value)>, overridable: Vec<String>, key: Option<(Value, bool, u32)>, anchor: usize },
}

/// js-yaml's `load(text)`: `Ok(Value::Null)` for an empty stream.
pub fn load(text: &str) -> Result<(Value, KeyLines), Error> {
    // js-yaml drops a leading byte-order mark and refuses NUL anywhere.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() as u32 + 1;
        return Err(Error { message: "null byte is not allowed in input".into(), line: Some(line) });
    }
    let prepared = prepass(text)?;
    let text: &str = &prepared;
    // A lone CR breaks lines for js-yaml; yaml-rust only knows LF and CRLF.
    let normalized;
    let text = if text.contains('\r') {
        normalized = text.replace("\r\n", "\n").replace('\r', "\n");
        normalized.as_str()
    } else {
        text
    };
    let mut parser = Parser::new(text.chars());
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: std::collections::HashMap<usize, Value> = std::collections::HashMap::new();
    let mut documents = 0usize;
    let mut result: Option<Value> = None;
    let mut key_lines: KeyLines = Vec::new();
    loop {
        let (event, mark) = parser.next().map_err(|e| {
            let message = e.to_string().split(" at line ").next().unwrap_or_default().to_string();
            // js-yaml points an unexpected end at the end of the text.
            let line = if message.contains("end of stream") {
                text.matches('\n').count() as u32 + 1
            } else {
                e.marker().line() as u32
            };
            Error { message, line: Some(line) }
        })?;
        let line = mark.line() as u32;
        // A merge key is only a merge key when written plain and untagged.
        let mut merge_key = false;
        let node = match event {
            Event::StreamEnd => break,
            Event::StreamStart | Event::Nothing | Event::DocumentEnd => continue,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(Error { message: "expected a single document in the stream, but found more".into(), line: None });
                }
                continue;
            }
            Event::SequenceStart(_) | Event::MappingStart(_) if stack.len() >= MAX_DEPTH => {
                return Err(Error { message: format!("nesting deeper than {MAX_DEPTH} levels (agentry stops here; js-yaml would run out of stack and Kimi Code skip the file)"), line: Some(line) });
            }
            Event::SequenceStart(anchor) => {
                stack.push(Frame::Seq { items: Vec::new(), anchor });
                continue;
            }
            Event::MappingStart(anchor) => {
                stack.push(Frame::Map { entries: Vec::new(), overridable: Vec::new(), key: None, anchor });
                continue;
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq { items, anchor }) => remember(&mut anchors, anchor, Value::Seq(Arc::new(items))),
                _ => return Err(Error { message: "unbalanced sequence".into(), line: Some(line) }),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map { entries, anchor, .. }) => remember(&mut anchors, anchor, Value::Map(Arc::new(entries))),
                _ => return Err(Error { message: "unbalanced mapping".into(), line: Some(line) }),
            },
            Event::Alias(id) => match anchors.get(&id) {
                Some(v) => v.clone(),
                None => return Err(Error { message: "unidentified alias".into(), line: Some(line) }),
            },
            Event::Scalar(mut text, style, anchor, tag) => {
                // A plain scalar never starts with a blank: yaml-rust keeps a tab that
                // follows `- ` or `: `, which js-yaml reads as separation.
                if style == TScalarStyle::Plain && text.starts_with([' ', '\t']) {
                    text = text.trim_start_matches([' ', '\t']).to_string();
                }
                merge_key = style == TScalarStyle::Plain && tag.is_none() && text == "<<";
                let v = scalar(text, style, tag.as_ref()).map_err(|message| Error { message, line: Some(line) })?;
                remember(&mut anchors, anchor, v)
            }
        };
        let depth = stack.len();
        match stack.last_mut() {
            None => result = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, overridable, key, .. }) => match key.take() {
                None => *key = Some((node, merge_key, line)),
                Some((k, merge, key_line)) => {
                    let stored = store(entries, overridable, k, node, merge)
                        .map_err(|message| Error { message, line: Some(key_line) })?;
                    if let (1, Some(k)) = (depth, stored) {
                        key_lines.retain(|(x, _)| *x != k);
                        key_lines.push((k, key_line));
                    }
                }
            },
        }
    }
    Ok((result.unwrap_or(Value::Null), key_lines))
}

fn remember(anchors: &mut std::collections::HashMap<usize, Value>, anchor: usize, v: Value) -> Value {
    if anchor > 0 {
        anchors.insert(anchor, v.clone());
    }
    v
}

/// `storeMappingPair`: the key made a string; `<<` merges mappings in; a key seen
/// before is an error unless a merge brought it.
/// Returns the key stored (none for a merge).
fn store(entries: &mut Vec<(String, Value)>, overridable: &mut Vec<String>, key: Value, value: Value, merge: bool) -> Result<Option<String>, String> {
    if merge {
        let sources: Vec<Value> = match value {
            Value::Seq(items) => items.iter().cloned().collect(),
            other => vec![other],
        };
        for source in sources {
            let Value::Map(pairs) = source else {
                return Err("cannot merge mappings; the provided source object is unacceptable".into());
            };
            for (k, v) in pairs.iter() {
                if !entries.iter().any(|(x, _)| x == k) {
                    entries.push((k.clone(), v.clone()));
                    overridable.push(k.clone());
                }
            }
        }
        return Ok(None);
    }
    let key = key_string(&key);
    match entries.iter().position(|(k, _)| *k == key) {
        Some(i) if overridable.contains(&key) => {
            entries[i].1 = value;
            overridable.retain(|k| *k != key);
        }
        Some(_) => return Err("duplicated mapping key".into()),
        None => entries.push((key.clone(), value)),
    }
    Ok(Some(key))
}

/// `String(key)` in JavaScript.
fn key_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => js_number(*n),
        Value::String(s) => s.clone(),
        Value::Date(d) => d.clone(),
        Value::Binary(_) => String::new(),
        Value::Seq(items) => items.iter().map(|i| match i { Value::Null => String::new(), other => key_string(other) }).collect::<Vec<_>>().join(","),
        Value::Map(_) => "[object Object]".into(),
    }
}

/// A double as JavaScript prints it (integers without a fraction).
pub fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity".into() } else { "-Infinity".into() }
    } else if n == n.trunc() && n.abs() < 1e21 {
        format!("{}", n as i128)
    } else {
        format!("{n}")
    }
}

/// A pass over the text before yaml-rust reads it, outside quoted scalars, flow
/// collections and block scalars: js-yaml refuses a tab in a content line's
/// indentation (`readBlockMapping`, `skipSeparationSpace`), and takes a line of
/// blanks or a comment indented with tabs as nothing, where yaml-rust fails while
/// scanning the plain scalar before it; such lines are handed over emptied.
fn prepass(text: &str) -> Result<std::borrow::Cow<'_, str>, Error> {
    let mut out = String::new();
    let mut changed = false;
    let (mut single, mut double, mut flow) = (false, false, 0usize);
    let mut block: Option<usize> = None;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let spaces = line.len() - line.trim_start_matches(' ').len();
        if !(single || double || flow > 0) {
            if let Some(indent) = block {
                if line.trim().is_empty() || spaces > indent {
                    out.push_str(line);
                    continue;
                }
                block = None;
            }
            let lead = line.len() - line.trim_start_matches([' ', '\t']).len();
            let rest = line[lead..].trim_end_matches('\r');
            if line[..lead].contains('\t') {
                if rest.is_empty() || rest.starts_with('#') {
                    changed = true;
                    continue;
                }
                if i > 0 {
                    return Err(Error { message: "tab characters must not be used in indentation".into(), line: Some(i as u32 + 1) });
                }
            }
        }
        out.push_str(line);
        // Where quotes and flow collections open and close on this line.
        let chars: Vec<char> = line.chars().collect();
        let mut last = None::<char>; // the last non-blank character outside a scalar
        let mut code_end = chars.len();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            if double {
                if c == '\\' {
                    k += 1;
                } else if c == '"' {
                    double = false;
                    last = Some('"');
                }
            } else if single {
                if c == '\'' {
                    if chars.get(k + 1) == Some(&'\'') {
                        k += 1;
                    } else {
                        single = false;
                        last = Some('\'');
                    }
                }
            } else {
                let starts_token = last.is_none_or(|p| matches!(p, ':' | '-' | '[' | '{' | ',' | '?'));
                match c {
                    '#' if k == 0 || chars[k - 1] == ' ' || chars[k - 1] == '\t' => {
                        code_end = k;
                        break;
                    }
                    '"' if starts_token => double = true,
                    '\'' if starts_token => single = true,
                    '[' | '{' if starts_token || flow > 0 => flow += 1,
                    ']' | '}' if flow > 0 => flow -= 1,
                    _ => {}
                }
                if !(c.is_whitespace() || single || double) {
                    last = Some(c);
                }
            }
            k += 1;
        }
        if !(single || double || flow > 0) {
            let code: String = chars[..code_end].iter().collect();
            let code = code.trim_end();
            let indicator = code.trim_end_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit());
            let opens = |head: &str| head.is_empty() || head.ends_with([':', '-', '?']);
            if (indicator.ends_with('|') || indicator.ends_with('>')) && opens(indicator[..indicator.len() - 1].trim()) {
                block = Some(spaces);
            }
        }
    }
    Ok(if changed { std::borrow::Cow::Owned(out) } else { std::borrow::Cow::Borrowed(text) })
}

/// A scalar: its tag's type, or for a plain one js-yaml's implicit types in order
/// (null, bool, int, float, timestamp); anything else is a string.
fn scalar(text: String, style: TScalarStyle, tag: Option<&TokenType>) -> Result<Value, String> {
    if let Some(TokenType::Tag(handle, suffix)) = tag {
        let name = match handle.as_str() {
            "!!" => format!("tag:yaml.org,2002:{suffix}"),
            "!" if suffix.is_empty() => return Ok(Value::String(text)),
            "!" => format!("!{suffix}"),
            h => format!("{h}{suffix}"),
        };
        let resolved = match name.trim_start_matches("tag:yaml.org,2002:") {
            "str" => Some(Value::String(text.clone())),
            "null" if null(&text) => Some(Value::Null),
            "bool" => boolean(&text).map(Value::Bool),
            "int" => integer(&text).map(Value::Number),
            "float" => float(&text).map(Value::Number),
            "timestamp" => timestamp(&text).map(Value::Date),
            "binary" => Some(Value::Binary(text.bytes().filter(|b| !b.is_ascii_whitespace()).count() * 3 / 4)),
            _ if !name.starts_with("tag:yaml.org,2002:") => return Err(format!("unknown tag !<{name}>")),
            _ => None,
        };
        return resolved.ok_or_else(|| format!("cannot resolve a node with !<{name}> explicit tag"));
    }
    if style != TScalarStyle::Plain {
        return Ok(Value::String(text));
    }
    if null(&text) {
        return Ok(Value::Null);
    }
    if let Some(b) = boolean(&text) {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = integer(&text).or_else(|| float(&text)) {
        return Ok(Value::Number(n));
    }
    if let Some(d) = timestamp(&text) {
        return Ok(Value::Date(d));
    }
    Ok(Value::String(text))
}

fn null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn boolean(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// `resolveYamlInteger` + `constructYamlInteger`.
fn integer(s: &str) -> Option<f64> {
    let (sign, body) = match s.as_bytes().first() {
        Some(b'-') => (-1.0, &s[1..]),
        Some(b'+') => (1.0, &s[1..]),
        _ => (1.0, s),
    };
    if body.is_empty() {
        return None;
    }
    let digits = |rest: &str, radix: u32| -> Option<f64> {
        let clean: String = rest.chars().filter(|&c| c != '_').collect();
        if clean.is_empty() || rest.ends_with('_') || !clean.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        Some(clean.chars().fold(0.0, |acc, c| acc * radix as f64 + c.to_digit(radix).unwrap_or(0) as f64))
    };
    if body == "0" {
        return Some(0.0);
    }
    if let Some(rest) = body.strip_prefix("0b") {
        return digits(rest, 2).map(|n| sign * n);
    }
    if let Some(rest) = body.strip_prefix("0x") {
        return digits(rest, 16).map(|n| sign * n);
    }
    if let Some(rest) = body.strip_prefix("0o") {
        return digits(rest, 8).map(|n| sign * n);
    }
    if body.starts_with('_') {
        return None;
    }
    // Decimal: parsed as JavaScript's parseInt does (through the double).
    let clean: String = body.chars().filter(|&c| c != '_').collect();
    if body.ends_with('_') || clean.is_empty() || !clean.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    clean.parse::<f64>().ok().map(|n| sign * n)
}

/// `YAML_FLOAT_PATTERN` + `constructYamlFloat`.
fn float(s: &str) -> Option<f64> {
    static PATTERN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
            .expect("float pattern")
    });
    if !PATTERN.is_match(s) || s.ends_with('_') {
        return None;
    }
    let value = s.replace('_', "").to_lowercase();
    let (sign, body) = match value.as_bytes().first() {
        Some(b'-') => (-1.0, &value[1..]),
        Some(b'+') => (1.0, &value[1..]),
        _ => (1.0, &value[..]),
    };
    match body {
        ".inf" => Some(sign * f64::INFINITY),
        ".nan" => Some(f64::NAN),
        _ => body.parse::<f64>().ok().or_else(|| format!("{body}0").parse::<f64>().ok()).map(|n| sign * n),
    }
}

/// `YAML_DATE_REGEXP` / `YAML_TIMESTAMP_REGEXP` + `constructYamlTimestamp`: the
/// instant in UTC as `Date.prototype.toISOString` writes it (out-of-range months and
/// days roll over, as `Date.UTC` does).
fn timestamp(s: &str) -> Option<String> {
    static DATE: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})$").expect("date"));
    static STAMP: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?$").expect("timestamp")
    });
    let num = |c: Option<regex::Match>| c.map_or(0i64, |m| m.as_str().parse().unwrap_or(0));
    let (y, mo, d, h, mi, sec, ms, offset_min) = if let Some(c) = DATE.captures(s) {
        (num(c.get(1)), num(c.get(2)), num(c.get(3)), 0, 0, 0, 0, 0)
    } else if let Some(c) = STAMP.captures(s) {
        let ms = c.get(7).map_or(0, |f| {
            let mut digits: String = f.as_str().chars().take(3).collect();
            while digits.len() < 3 {
                digits.push('0');
            }
            digits.parse().unwrap_or(0)
        });
        let offset = if c.get(9).is_some() {
            let m = num(c.get(10)) * 60 + num(c.get(11));
            if c.get(9).map(|x| x.as_str()) == Some("-") { -m } else { m }
        } else {
            0
        };
        (num(c.get(1)), num(c.get(2)), num(c.get(3)), num(c.get(4)), num(c.get(5)), num(c.get(6)), ms, offset)
    } else {
        return None;
    };
    // Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offset.
    let months = y * 12 + (mo - 1);
    let (yy, mm) = (months.div_euclid(12), months.rem_euclid(12) + 1);
    let days = crate::py::calendar::days_from_civil(yy, mm as u32, 1) + (d - 1);
    let millis = (((days * 24 + h) * 60 + mi - offset_min) * 60 + sec) * 1000 + ms;
    Some(crate::py::calendar::js_iso_string(millis))
}

impl Value {
    /// The value as JSON for display; non-JSON values tagged as the goldens tag them.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{json, Value as J};
        match self {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Number(n) if n.is_nan() => json!({"$float": ".nan"}),
            Value::Number(n) if n.is_infinite() => json!({"$float": if *n > 0.0 { ".inf" } else { "-.inf" }}),
            Value::Number(n) if *n == 0.0 && n.is_sign_negative() => json!({"$float": "-0"}),
            Value::Number(n) if *n == n.trunc() && n.abs() < 9.007_199_254_740_992e15 => J::from(*n as i64),
            Value::Number(n) => serde_json::Number::from_f64(*n).map_or(J::Null, J::Number),
            Value::String(s) => J::String(s.clone()),
            Value::Date(d) => json!({"$date": d}),
            Value::Binary(n) => json!({"$binary": n}),
            Value::Seq(items) => J::Array(items.iter().map(Value::to_json).collect()),
            Value::Map(entries) => J::Object(entries.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()),
        }
    }
}
