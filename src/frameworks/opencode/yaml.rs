//! YAML as js-yaml 3's `safeLoad` reads it (the frontmatter engine of gray-matter 4,
//! which OpenCode 1.18.33 bundles): the DEFAULT_SAFE schema's implicit types (null,
//! bool, int with `0x`/`0b`/leading-zero octal/`_`/base 60, float with `.inf`/`.nan`,
//! timestamps as Dates), merge keys, duplicate keys rejected, one document only.
//! Events come from `yaml-rust` (already built for syntect), which keeps each
//! scalar's style: only plain scalars are resolved to non-strings.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value as Json};
use yaml_rust::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust::scanner::{Marker, TScalarStyle, TokenType};

use crate::py::calendar;

/// Deeper than this, the input is refused (a hostile file cannot exhaust the stack
/// of whoever drops the value).
const MAX_DEPTH: usize = 512;

/// How many values aliases may copy in all: js-yaml shares an alias's value, agentry
/// copies it, so a chain of doubling aliases must stop (the input is then refused).
const ALIAS_BUDGET: usize = 1_000_000;

/// A loaded document: the value (Dates as ISO strings, as `JSON.stringify` writes
/// them) and the top-level keys whose value is a Date.
pub struct Loaded {
    pub value: Json,
    pub dates: Vec<String>,
}

enum Frame {
    Seq { items: Vec<Json>, anchor: usize },
    Map { map: Map<String, Json>, key: Option<Key>, anchor: usize, overridable: HashSet<String> },
}

enum Key {
    Plain(String),
    Merge,
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    anchors: HashMap<usize, Json>,
    docs: Vec<Json>,
    dates: Vec<String>,
    error: Option<(String, Option<u32>)>,
    /// Values aliases have copied so far.
    copied: usize,
}

/// Err: the message and the line (1-based) of the problem.
pub fn load(text: &str) -> Result<Loaded, (String, Option<u32>)> {
    let mut b = Builder::default();
    // js-yaml ends the input with a line break when it has none (a block scalar at
    // the end keeps its last line break).
    let text = if text.ends_with('\n') { std::borrow::Cow::Borrowed(text) } else { std::borrow::Cow::Owned(format!("{text}\n")) };
    let mut parser = Parser::new(text.chars());
    parser.load(&mut b, true).map_err(|e| (e.to_string(), Some(e.marker().line() as u32)))?;
    if let Some(e) = b.error {
        return Err(e);
    }
    if b.docs.len() > 1 {
        return Err(("expected a single document in the stream, but found more".into(), None));
    }
    Ok(Loaded { value: b.docs.pop().unwrap_or(Json::Null), dates: b.dates })
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        let result = match ev {
            Event::Scalar(value, style, anchor, tag) => {
                let merge = style == TScalarStyle::Plain && tag.is_none() && value == "<<";
                match resolve(&value, style, tag.as_ref()) {
                    Ok((v, date)) => {
                        if anchor > 0 {
                            self.anchors.insert(anchor, v.clone());
                        }
                        self.push(v, merge, date)
                    }
                    Err(e) => Err(e),
                }
            }
            Event::SequenceStart(anchor) => self.open(Frame::Seq { items: Vec::new(), anchor }),
            Event::MappingStart(anchor) => {
                self.open(Frame::Map { map: Map::new(), key: None, anchor, overridable: HashSet::new() })
            }
            Event::SequenceEnd | Event::MappingEnd => match self.stack.pop() {
                Some(Frame::Seq { items, anchor }) => self.close(Json::Array(items), anchor),
                Some(Frame::Map { map, anchor, .. }) => self.close(Json::Object(map), anchor),
                None => Ok(()),
            },
            Event::Alias(id) => match self.anchors.get(&id) {
                Some(v) => {
                    self.copied += size(v, ALIAS_BUDGET - self.copied.min(ALIAS_BUDGET) + 1);
                    if self.copied > ALIAS_BUDGET {
                        Err("aliases expand to too many values".into())
                    } else {
                        let v = v.clone();
                        self.push(v, false, false)
                    }
                }
                None => Err("unidentified alias".into()),
            },
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.error = Some((format!("{e} at line {}, column {}", mark.line(), mark.col() + 1), Some(mark.line() as u32)));
        }
    }
}

impl Builder {
    fn open(&mut self, frame: Frame) -> Result<(), String> {
        if self.stack.len() >= MAX_DEPTH {
            return Err("nesting too deep".into());
        }
        self.stack.push(frame);
        Ok(())
    }

    fn close(&mut self, value: Json, anchor: usize) -> Result<(), String> {
        if anchor > 0 {
            self.anchors.insert(anchor, value.clone());
        }
        self.push(value, false, false)
    }

    fn push(&mut self, value: Json, merge: bool, date: bool) -> Result<(), String> {
        let top_level = self.stack.len() == 1;
        match self.stack.last_mut() {
            None => self.docs.push(value),
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map { map, key, overridable, .. }) => match key.take() {
                None => *key = Some(if merge { Key::Merge } else { Key::Plain(js_string(&value)) }),
                Some(Key::Merge) => {
                    let sources = match value {
                        Json::Array(items) => items,
                        other => vec![other],
                    };
                    for source in sources {
                        let Json::Object(source) = source else {
                            return Err("cannot merge mappings; the provided source object is unacceptable".into());
                        };
                        for (k, v) in source {
                            if !map.contains_key(&k) {
                                overridable.insert(k.clone());
                                map.insert(k, v);
                            }
                        }
                    }
                }
                Some(Key::Plain(k)) => {
                    if map.contains_key(&k) && !overridable.remove(&k) {
                        return Err(format!("duplicated mapping key `{k}`"));
                    }
                    if date && top_level {
                        self.dates.push(k.clone());
                    }
                    map.insert(k, value);
                }
            },
        }
        Ok(())
    }
}

/// How many values `v` holds, counting at most `limit`.
fn size(v: &Json, limit: usize) -> usize {
    let mut count = 0;
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        count += 1;
        if count >= limit {
            return count;
        }
        match v {
            Json::Array(items) => todo.extend(items),
            Json::Object(map) => todo.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// `String(value)` in JavaScript, for a mapping key.
fn js_string(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Json::Object(_) => "[object Object]".into(),
    }
}

/// A scalar's value, and whether it is a Date.
fn resolve(raw: &str, style: TScalarStyle, tag: Option<&TokenType>) -> Result<(Json, bool), String> {
    let tag = match tag {
        Some(TokenType::Tag(handle, suffix)) if handle == "!!" => Some(suffix.as_str()),
        Some(TokenType::Tag(handle, suffix)) if handle == "!" && suffix.is_empty() => Some("str"),
        Some(TokenType::Tag(handle, suffix)) => return Err(format!("unknown tag !<{handle}{suffix}>")),
        _ => None,
    };
    let plain = style == TScalarStyle::Plain;
    let fail = |what: &str| Err(format!("cannot resolve a node with !<tag:yaml.org,2002:{what}> explicit tag"));
    match tag {
        Some("str") => Ok((Json::String(raw.into()), false)),
        Some("null") => if is_null(raw) { Ok((Json::Null, false)) } else { fail("null") },
        Some("bool") => bool_of(raw).map(|b| (Json::Bool(b), false)).map_or_else(|| fail("bool"), Ok),
        Some("int") => int_of(raw).map(|n| (number(n), false)).map_or_else(|| fail("int"), Ok),
        Some("float") => float_of(raw).or_else(|| int_of(raw)).map(|n| (number(n), false)).map_or_else(|| fail("float"), Ok),
        Some("timestamp") => timestamp(raw).map(|s| (Json::String(s), true)).map_or_else(|| fail("timestamp"), Ok),
        Some(other) => Err(format!("unknown tag !<tag:yaml.org,2002:{other}>")),
        None if !plain => Ok((Json::String(raw.into()), false)),
        None => Ok(if is_null(raw) {
            (Json::Null, false)
        } else if let Some(b) = bool_of(raw) {
            (Json::Bool(b), false)
        } else if let Some(n) = int_of(raw).or_else(|| float_of(raw)) {
            (number(n), false)
        } else if let Some(iso) = timestamp(raw) {
            (Json::String(iso), true)
        } else {
            (Json::String(raw.into()), false)
        }),
    }
}

fn is_null(s: &str) -> bool {
    matches!(s, "~" | "null" | "Null" | "NULL" | "")
}

fn bool_of(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// A JavaScript number as JSON (`JSON.stringify`: the infinities and NaN are null).
fn number(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        Json::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number)
    }
}

/// js-yaml 3's `int` type: `0b`, `0x`, leading-zero octal, decimal with `_`, base 60.
fn int_of(s: &str) -> Option<f64> {
    let (sign, body) = match s.as_bytes().first()? {
        b'-' => (-1.0, &s[1..]),
        b'+' => (1.0, &s[1..]),
        _ => (1.0, s),
    };
    if body.is_empty() || body.ends_with('_') {
        return None;
    }
    let digits = |text: &str, radix: u32| -> Option<f64> {
        let clean: String = text.chars().filter(|&c| c != '_').collect();
        if clean.is_empty() || !text.chars().all(|c| c == '_' || c.is_digit(radix)) {
            return None;
        }
        Some(clean.chars().fold(0.0, |acc, c| acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))))
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
    if let Some(rest) = body.strip_prefix('0') {
        return digits(rest, 8).map(|n| sign * n);
    }
    if body.contains(':') {
        let mut value = 0.0;
        for (i, part) in body.split(':').enumerate() {
            let n = digits(part, 10)?;
            if i > 0 && n >= 60.0 {
                return None;
            }
            value = value * 60.0 + n;
        }
        return Some(sign * value);
    }
    if !body.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    digits(body, 10).map(|n| sign * n)
}

/// js-yaml 3's `float` type (YAML_FLOAT_PATTERN).
fn float_of(s: &str) -> Option<f64> {
    if s.ends_with('_') {
        return None;
    }
    let (sign, body) = match s.as_bytes().first()? {
        b'-' => (-1.0, &s[1..]),
        b'+' => (1.0, &s[1..]),
        _ => (1.0, s),
    };
    match body {
        ".inf" | ".Inf" | ".INF" => return Some(sign * f64::INFINITY),
        ".nan" | ".NaN" | ".NAN" if s == body => return Some(f64::NAN),
        _ => {}
    }
    let re = regex_float();
    if !re.is_match(s) {
        return None;
    }
    let clean: String = body.chars().filter(|&c| c != '_').collect();
    if clean.contains(':') {
        let (whole, frac) = clean.split_once('.').unwrap_or((&clean, ""));
        let mut value = 0.0;
        for part in whole.split(':') {
            value = value * 60.0 + part.parse::<f64>().ok()?;
        }
        return Some(sign * (value + format!("0.{frac}").parse::<f64>().unwrap_or(0.0)));
    }
    clean.parse::<f64>().ok().map(|n| sign * n)
}

fn regex_float() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*)$",
        )
        .expect("valid pattern")
    })
}

/// js-yaml 3's `timestamp` type, as `Date.prototype.toISOString` writes it.
fn timestamp(s: &str) -> Option<String> {
    static DATE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static TIME: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let date = DATE.get_or_init(|| regex::Regex::new(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})$").expect("valid"));
    let time = TIME.get_or_init(|| {
        regex::Regex::new(
            r"^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?$",
        )
        .expect("valid")
    });
    let num = |m: Option<regex::Match<'_>>| m.map_or(0, |m| m.as_str().parse::<i64>().unwrap_or(0));
    let (y, mo, d, h, mi, sec, ms, offset_min) = if let Some(c) = date.captures(s) {
        (num(c.get(1)), num(c.get(2)), num(c.get(3)), 0, 0, 0, 0, 0)
    } else {
        let c = time.captures(s)?;
        let ms = c.get(7).map_or(0, |f| {
            let f = format!("{:0<3}", &f.as_str()[..f.as_str().len().min(3)]);
            f.parse::<i64>().unwrap_or(0)
        });
        let offset = match c.get(9) {
            Some(sign) => {
                let m = num(c.get(10)) * 60 + num(c.get(11));
                if sign.as_str() == "-" { -m } else { m }
            }
            None => 0,
        };
        (num(c.get(1)), num(c.get(2)), num(c.get(3)), num(c.get(4)), num(c.get(5)), num(c.get(6)), ms, offset)
    };
    // Date.UTC rolls over out-of-range parts; days from the civil date.
    let (yy, mm) = { let m0 = mo - 1; (y + m0.div_euclid(12), m0.rem_euclid(12) + 1) };
    let days = calendar::days_from_civil(yy, mm as u32, 1) + d - 1;
    let total_ms = ((days * 24 + h) * 60 + mi - offset_min) * 60_000 + sec * 1000 + ms;
    let (y, _, _) = calendar::civil_from_days(total_ms.div_euclid(86_400_000));
    if !(0..=9999).contains(&y) {
        return None;
    }
    Some(calendar::js_iso_string(total_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_yaml_scalars() {
        let l = load("a: 0x10\nb: 010\nc: 0o10\nd: 1e3\ne: '5'\nf: 2024-01-15\ng: 1:30\n").unwrap();
        assert_eq!(l.value, serde_json::json!({"a": 16, "b": 8, "c": "0o10", "d": 1000, "e": "5",
            "f": "2024-01-15T00:00:00.000Z", "g": 90}));
        assert_eq!(l.dates, vec!["f".to_string()]);
        assert!(load("a: 1\na: 2\n").is_err());
        let merged = load("b: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n").unwrap();
        assert_eq!(merged.value["d"], serde_json::json!({"x": 1, "y": 3}));
    }
}
