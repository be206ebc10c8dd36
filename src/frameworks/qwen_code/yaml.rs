//! Qwen Code's front-matter YAML (`packages/core/src/utils/yaml-parser.ts`,
//! `parse`): the `yaml` package (eemeli/yaml 2) with the YAML 1.2 core schema,
//! then — when it throws or gives no mapping — the tool's own line parser
//! (`parseSimple`); nulls are stripped either way (`stripNullValues`).
//!
//! The full parse runs on yaml-rust's event parser (a YAML 1.2 parser, already in the
//! dependency tree through syntect), with the core schema's scalar resolution, the
//! `yaml` package's refusal of repeated keys and of several documents, and `<<` as a
//! plain key (merge keys are off in YAML 1.2). `tests/goldens/qwen-code-yaml/` holds
//! the tool's own answers for tricky inputs.

use yaml_rust::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust::scanner::{Marker, TScalarStyle, TokenType};

use super::js::{self, Js};

/// Nesting deeper than this is refused (and falls back) rather than risk the stack.
const MAX_DEPTH: usize = 512;

/// What the YAML text gave.
pub struct Parsed {
    /// The object `parse` returns (nulls stripped).
    pub object: Vec<(String, Js)>,
    /// The full parser's document as `toJS` gives it (nulls kept), when it parsed
    /// without error; `None` when the line parser was used because of an error.
    pub document: Option<Js>,
    /// Why the full parser failed (it then fell back), with the line (1-based,
    /// within the front matter).
    pub error: Option<(String, usize)>,
}

/// Qwen's `parse(yamlString)`.
pub fn parse(text: &str) -> Parsed {
    match full(text) {
        Ok(doc) => match &doc {
            Js::Obj(entries) => Parsed { object: strip_nulls(entries), document: Some(doc.clone()), error: None },
            _ => Parsed { object: strip_nulls(&parse_simple(text)), document: Some(doc), error: None },
        },
        Err(e) => Parsed { object: strip_nulls(&parse_simple(text)), document: None, error: Some(e) },
    }
}

/// The `yaml` package's `parse(text, { schema: "core" })`: the first document's
/// value, or the first error.
pub fn full(text: &str) -> Result<Js, (String, usize)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // yaml-rust's block parser recurses once per level, and a block level needs one
    // more space of indentation: deeper text is refused (and falls back) before it
    // can exhaust the stack.
    if let Some(i) = text.split('\n').position(|l| l.bytes().take_while(|&b| b == b' ').count() >= MAX_DEPTH) {
        return Err(("nesting too deep".into(), i + 1));
    }
    let text = match tab_indented_line(text) {
        Err(line) => return Err(("Tabs are not allowed as indentation".into(), line)),
        Ok(text) => text,
    };
    // The `yaml` package ends the last line of a block scalar with a line break
    // even at the end of the text (the front matter never has one).
    let text = if text.ends_with('\n') { text } else { std::borrow::Cow::Owned(format!("{text}\n")) };
    let mut builder = Builder::default();
    let mut parser = Parser::new(text.chars());
    if let Err(e) = parser.load(&mut builder, true) {
        return Err((e.to_string(), e.marker().line()));
    }
    if let Some(e) = builder.error {
        return Err(e);
    }
    if builder.documents > 1 {
        return Err(("Source contains multiple documents".into(), 1));
    }
    Ok(builder.root.unwrap_or(Js::Null))
}

enum Frame {
    Seq { anchor: usize, items: Vec<Js> },
    Map { anchor: usize, entries: Vec<(String, Js)>, keys: Vec<Js>, pending: Option<Js> },
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    anchors: Vec<(usize, Js)>,
    root: Option<Js>,
    documents: usize,
    error: Option<(String, usize)>,
}

impl Builder {
    fn fail(&mut self, message: impl Into<String>, mark: Marker) {
        if self.error.is_none() {
            self.error = Some((message.into(), mark.line()));
        }
    }

    fn anchor(&mut self, id: usize, value: &Js) {
        if id > 0 {
            self.anchors.retain(|(a, _)| *a != id);
            self.anchors.push((id, value.clone()));
        }
    }

    fn put(&mut self, value: Js, mark: Marker) {
        match self.stack.last_mut() {
            None => {
                if self.documents <= 1 {
                    self.root = Some(value);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map { entries, keys, pending, .. }) => match pending.take() {
                None => {
                    if keys.iter().any(|k| same_key(k, &value)) {
                        self.error.get_or_insert(("Map keys must be unique".into(), mark.line()));
                    }
                    keys.push(value.clone());
                    *pending = Some(value);
                }
                Some(key) => Js::set(entries, key_string(&key), value),
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
            Event::DocumentStart => self.documents += 1,
            Event::Scalar(text, style, anchor, tag) => {
                let value = resolve(&text, style, tag.as_ref());
                self.anchor(anchor, &value);
                self.put(value, mark);
            }
            Event::Alias(id) => match self.anchors.iter().rev().find(|(a, _)| *a == id) {
                Some((_, v)) => {
                    let v = v.clone();
                    self.put(v, mark)
                }
                None => self.fail("Aliased anchor not found", mark),
            },
            Event::SequenceStart(anchor) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.fail("nesting too deep", mark);
                }
                self.stack.push(Frame::Seq { anchor, items: Vec::new() })
            }
            Event::MappingStart(anchor) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.fail("nesting too deep", mark);
                }
                self.stack.push(Frame::Map { anchor, entries: Vec::new(), keys: Vec::new(), pending: None })
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (anchor, value) = match self.stack.pop() {
                    Some(Frame::Seq { anchor, items }) => (anchor, Js::Arr(items)),
                    Some(Frame::Map { anchor, entries, .. }) => (anchor, Js::Obj(entries)),
                    None => return,
                };
                self.anchor(anchor, &value);
                self.put(value, mark);
            }
            _ => {}
        }
    }
}

/// Whether two keys are the same for the `yaml` package's unique-keys check: equal
/// scalar values.
fn same_key(a: &Js, b: &Js) -> bool {
    match (a, b) {
        (Js::Arr(_) | Js::Obj(_), _) | (_, Js::Arr(_) | Js::Obj(_)) => false,
        (Js::Num(x), Js::Num(y)) => x == y,
        _ => a == b,
    }
}

/// A key as a plain object holds it (`null` becomes the empty string).
fn key_string(key: &Js) -> String {
    match key {
        Js::Null => String::new(),
        Js::Arr(_) | Js::Obj(_) => key.to_json().to_string(),
        other => other.to_js_string(),
    }
}

/// A scalar as the core schema reads it.
fn resolve(text: &str, style: TScalarStyle, tag: Option<&TokenType>) -> Js {
    if let Some(TokenType::Tag(handle, suffix)) = tag {
        let core = if handle == "!!" { suffix.as_str() } else { "" };
        // An explicit tag resolves only by its own type's test; else the text stays
        // a string ("Unresolved tag", a warning).
        let value = plain(text);
        let fits = match (core, &value) {
            ("null", Js::Null) | ("bool", Js::Bool(_)) => true,
            ("int", Js::Num(_)) => is_core_int(text),
            ("float", Js::Num(_)) => !is_core_int(text),
            _ => false,
        };
        return match core {
            _ if fits => value,
            "timestamp" => timestamp(text).map_or_else(|| Js::Str(text.to_string()), Js::Str),
            "binary" => Js::Str(String::from_utf8_lossy(&base64(text)).into_owned()),
            _ => Js::Str(text.to_string()),
        };
    }
    if style != TScalarStyle::Plain {
        return Js::Str(text.to_string());
    }
    plain(text)
}

/// The core schema's tests for a plain scalar (`yaml`'s `schema/core`).
fn plain(s: &str) -> Js {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Js::Null,
        "true" | "True" | "TRUE" => return Js::Bool(true),
        "false" | "False" | "FALSE" => return Js::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Js::Num(f64::NAN),
        _ => {}
    }
    let (sign, unsigned) = match s.as_bytes().first() {
        Some(b'+') => (1.0, &s[1..]),
        Some(b'-') => (-1.0, &s[1..]),
        _ => (1.0, s),
    };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Js::Num(sign * f64::INFINITY);
    }
    let radix = |rest: &str, r: u32| {
        (!rest.is_empty() && rest.chars().all(|c| c.is_digit(r)))
            .then(|| rest.chars().fold(0.0f64, |acc, c| acc * r as f64 + c.to_digit(r).unwrap_or(0) as f64))
    };
    if let Some(v) = s.strip_prefix("0o").and_then(|r| radix(r, 8)) {
        return Js::Num(v);
    }
    if let Some(v) = s.strip_prefix("0x").and_then(|r| radix(r, 16)) {
        return Js::Num(v);
    }
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return Js::Num(sign * unsigned.parse::<f64>().unwrap_or(0.0));
    }
    if is_core_float(unsigned) {
        if let Ok(v) = unsigned.parse::<f64>() {
            return Js::Num(sign * v);
        }
    }
    Js::Str(s.to_string())
}

/// The core schema's integer forms (decimal, `0o`, `0x`).
fn is_core_int(s: &str) -> bool {
    let digits = |r: &str, radix: u32| !r.is_empty() && r.chars().all(|c| c.is_digit(radix));
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    digits(unsigned, 10) || s.strip_prefix("0o").is_some_and(|r| digits(r, 8)) || s.strip_prefix("0x").is_some_and(|r| digits(r, 16))
}

/// The first line (1-based) the `yaml` package refuses for a tab in its
/// indentation: leading white space holding a tab, then content that is not a
/// comment, outside the body of a block scalar. Otherwise the text with the tabs
/// that lead blank and comment lines outside block scalars removed (the `yaml`
/// package takes them; yaml-rust does not).
fn tab_indented_line(text: &str) -> Result<std::borrow::Cow<'_, str>, usize> {
    let mut cleaned: Option<Vec<String>> = None;
    let all: Vec<&str> = text.split('\n').collect();
    // (indentation of the line that opened it, indentation of its content once seen)
    let mut block: Option<(usize, Option<usize>)> = None;
    for (i, line) in all.iter().enumerate() {
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        let content = line.trim_start_matches([' ', '\t']);
        if let Some((parent, inner)) = block {
            if content.is_empty() {
                continue;
            }
            match inner {
                None if spaces > parent => {
                    block = Some((parent, Some(spaces)));
                    continue;
                }
                Some(m) if spaces >= m => continue,
                _ => block = None,
            }
        }
        let lead = &line[..line.len() - content.len()];
        if lead.contains('\t') {
            if !content.is_empty() && !content.starts_with('#') {
                return Err(i + 1);
            }
            let lines = cleaned.get_or_insert_with(|| all.iter().map(|l| l.to_string()).collect());
            lines[i] = content.to_string();
            continue;
        }
        if content.is_empty() {
            continue;
        }
        if opens_block_scalar(content) {
            block = Some((spaces, None));
        }
    }
    Ok(match cleaned {
        Some(lines) => std::borrow::Cow::Owned(lines.join("\n")),
        None => std::borrow::Cow::Borrowed(text),
    })
}

/// `^[ \t]*["']?KEY["']?[ \t]*:` on a line outside the body of a block scalar
/// (`probeMatchInsideBlockScalar`): the front matter claims the key.
pub fn claims_outside_block_scalars(text: &str, key: &str) -> bool {
    let claims = |line: &str| {
        let l = line.trim_start_matches([' ', '\t']);
        let l = l.strip_prefix(['"', '\'']).unwrap_or(l);
        l.strip_prefix(key).is_some_and(|rest| {
            let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
            rest.trim_start_matches([' ', '\t']).starts_with(':')
        })
    };
    let mut block: Option<(usize, Option<usize>)> = None;
    for line in text.split('\n') {
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        let content = line.trim_start_matches([' ', '\t']);
        if let Some((parent, inner)) = block {
            if content.is_empty() {
                continue;
            }
            match inner {
                None if spaces > parent => {
                    block = Some((parent, Some(spaces)));
                    continue;
                }
                Some(m) if spaces >= m => continue,
                _ => block = None,
            }
        }
        if claims(line) {
            return true;
        }
        if opens_block_scalar(content) {
            block = Some((spaces, None));
        }
    }
    false
}

/// Whether a line ends with a block scalar header (`key: |`, `- >-`, `|2 # c`).
fn opens_block_scalar(content: &str) -> bool {
    let code = match content.find(" #") {
        Some(i) => &content[..i],
        None => content,
    };
    let code = code.trim_end_matches([' ', '\t']);
    let header_start = code.rfind(['|', '>']);
    let Some(at) = header_start else { return false };
    let indicators = &code[at + 1..];
    indicators.len() <= 2
        && indicators.chars().all(|c| c == '-' || c == '+' || c.is_ascii_digit())
        && (at == 0 || code[..at].ends_with([' ', '\t']))
}

/// `!!timestamp` as `Date.toISOString()` gives it.
fn timestamp(s: &str) -> Option<String> {
    let b = s.trim().as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        (!part.is_empty() && part.iter().all(u8::is_ascii_digit)).then(|| std::str::from_utf8(part).ok()?.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let (mut h, mut mi, mut sec, mut ms, mut offset) = (0, 0, 0, 0, 0);
    if b.len() > 10 {
        let rest = std::str::from_utf8(&b[11..]).ok()?.trim_start();
        let rb = rest.as_bytes();
        let n = |r: std::ops::Range<usize>| -> Option<i64> { std::str::from_utf8(rb.get(r)?).ok()?.parse().ok() };
        let hl = if rb.get(1) == Some(&b':') { 1 } else { 2 };
        h = n(0..hl)?;
        mi = n(hl + 1..hl + 3)?;
        sec = n(hl + 4..hl + 6)?;
        let mut i = hl + 6;
        if rb.get(i) == Some(&b'.') {
            let frac: String = rest[i + 1..].chars().take_while(char::is_ascii_digit).collect();
            i += 1 + frac.len();
            ms = format!("{frac:0<3}")[..3].parse().ok()?;
        }
        let tz = rest[i..].trim_start();
        if let Some(sign) = tz.chars().next().filter(|c| *c == '+' || *c == '-') {
            let (th, tm) = tz[1..].split_once(':').unwrap_or((&tz[1..], "0"));
            let minutes = th.parse::<i64>().ok()? * 60 + tm.parse::<i64>().ok()?;
            offset = if sign == '-' { -minutes } else { minutes };
        }
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (yy, mm) = if mo <= 2 { (y - 1, mo + 9) } else { (y, mo - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    let days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
    let total = ((days * 24 + h) * 60 + mi - offset) * 60 + sec;
    let (days, secs) = (total.div_euclid(86400), total.rem_euclid(86400));
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{ms:03}Z", secs / 3600, secs / 60 % 60, secs % 60))
}

/// `!!binary`: base64, white space ignored.
fn base64(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, with either a point or an exponent.
fn is_core_float(s: &str) -> bool {
    let b = s.as_bytes();
    let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = int;
    let mut point = false;
    let mut frac = 0;
    if i < b.len() && b[i] == b'.' {
        point = true;
        i += 1;
        frac = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac;
    }
    if int == 0 && frac == 0 {
        return false;
    }
    let mut exp = false;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let d = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if d == 0 {
            return false;
        }
        i += d;
        exp = true;
    }
    i == b.len() && (point || exp)
}

/// `stripNullValues`: null entries removed, and nulls inside lists.
pub fn strip_nulls(entries: &[(String, Js)]) -> Vec<(String, Js)> {
    entries.iter().filter_map(|(k, v)| sanitize(v).map(|v| (k.clone(), v))).collect()
}

fn sanitize(v: &Js) -> Option<Js> {
    match v {
        Js::Null => None,
        Js::Obj(entries) => Some(Js::Obj(strip_nulls(entries))),
        Js::Arr(items) => Some(Js::Arr(items.iter().filter_map(sanitize).collect())),
        other => Some(other.clone()),
    }
}

/// Qwen's `parseSimple`: `key: value` lines split at the first colon, `  - item`
/// lists and one level of `  key: value` objects.
pub fn parse_simple(text: &str) -> Vec<(String, Js)> {
    let lines: Vec<&str> = text
        .split('\n')
        .filter(|l| {
            let t = js::trim(l);
            !t.is_empty() && !t.starts_with('#')
        })
        .collect();
    let mut result: Vec<(String, Js)> = Vec::new();
    let mut current_key = String::new();
    let mut array: Vec<Js> = Vec::new();
    let mut in_array = false;
    let mut object: Vec<(String, Js)> = Vec::new();
    let mut in_object = false;
    let mut object_key = String::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(item) = line.strip_prefix("  - ") {
            if !in_array {
                in_array = true;
                array = Vec::new();
            }
            array.push(parse_value(js::trim(item)));
            continue;
        }
        if in_array {
            Js::set(&mut result, std::mem::take(&mut current_key), Js::Arr(std::mem::take(&mut array)));
            in_array = false;
        }
        if line.starts_with("  ") && in_object {
            let t = js::trim(line);
            let (key, value) = t.split_once(':').unwrap_or((t, ""));
            Js::set(&mut object, js::trim(key).to_string(), parse_value(js::trim(value)));
            continue;
        }
        if in_object && !line.starts_with("  ") {
            Js::set(&mut result, std::mem::take(&mut object_key), Js::Obj(std::mem::take(&mut object)));
            in_object = false;
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = js::trim(value);
            if value.is_empty() {
                current_key = js::trim(key).to_string();
                if let Some(next) = lines.get(i + 1) {
                    if next.starts_with("  - ") {
                        continue;
                    } else if next.starts_with("  ") {
                        in_object = true;
                        object_key = std::mem::take(&mut current_key);
                        object = Vec::new();
                        continue;
                    }
                }
            } else {
                Js::set(&mut result, js::trim(key).to_string(), parse_value(value));
            }
        }
    }
    if in_array {
        Js::set(&mut result, current_key, Js::Arr(array));
    }
    if in_object {
        Js::set(&mut result, object_key, Js::Obj(object));
    }
    result
}

/// Qwen's `parseValue` for the line parser.
fn parse_value(value: &str) -> Js {
    match value {
        "true" => return Js::Bool(true),
        "false" => return Js::Bool(false),
        "null" => return Js::Null,
        "" => return Js::Str(String::new()),
        _ => {}
    }
    if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') && js::js_len(value) >= 2 {
        let inner = &value[1..value.len() - 1];
        return Js::Str(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    match js::string_to_number(value) {
        Some(n) if n.is_finite() => Js::Num(n),
        _ => Js::Str(value.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_parser_loads_what_yaml_rejects() {
        let p = parse("name: x\ndescription: [unclosed\nodd: a: b: c\n");
        assert!(p.error.is_some());
        let get = |k: &str| p.object.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
        assert_eq!(get("description"), Some(Js::Str("[unclosed".into())));
        assert_eq!(get("odd"), Some(Js::Str("a: b: c".into())));
    }

    #[test]
    fn repeated_keys_fall_back_and_keep_the_last_value() {
        let p = parse("name: a\nname: b\n");
        assert!(p.error.is_some());
        assert_eq!(p.object, vec![("name".to_string(), Js::Str("b".into()))]);
    }

    #[test]
    fn deep_nesting_falls_back_without_exhausting_the_stack() {
        let block = (0..2000).map(|i| format!("{}k{i}:", " ".repeat(i))).collect::<Vec<_>>().join("\n");
        assert!(full(&format!("runConfig:\n{block}\n")).is_err());
        let flow = format!("d: {}x{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert!(full(&flow).is_err());
    }

    #[test]
    fn core_schema_scalars() {
        assert_eq!(plain("0x10"), Js::Num(16.0));
        assert_eq!(plain("0o10"), Js::Num(8.0));
        assert_eq!(plain("010"), Js::Num(10.0));
        assert_eq!(plain("1e3"), Js::Num(1000.0));
        assert_eq!(plain("yes"), Js::Str("yes".into()));
        assert_eq!(plain("0b11"), Js::Str("0b11".into()));
        assert_eq!(plain("-.inf"), Js::Num(f64::NEG_INFINITY));
    }
}

/// What `tests/goldens/qwen-code-yaml/golden.mjs` writes for a front matter: the
/// object `parse` returns and whether the full parser accepted the text
/// (non-finite numbers as the strings `Infinity`, `-Infinity`, `NaN`).
pub fn golden(text: &str) -> serde_json::Value {
    fn finite(v: &Js) -> serde_json::Value {
        match v {
            Js::Num(n) if !n.is_finite() => serde_json::Value::from(js::number_to_string(*n)),
            Js::Arr(items) => serde_json::Value::Array(items.iter().map(finite).collect()),
            Js::Obj(entries) => serde_json::Value::Object(entries.iter().map(|(k, v)| (k.clone(), finite(v))).collect()),
            other => other.to_json(),
        }
    }
    let parsed = parse(text);
    serde_json::json!({ "object": finite(&Js::Obj(parsed.object)), "yaml_ok": parsed.error.is_none() })
}
