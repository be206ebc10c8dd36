//! A compact PyYAML-style `safe_load` over saphyr-parser events, used by the
//! fast-agent branch until the full YAML layer (branch `yaml`) is merged; that layer
//! replaces this file. It resolves YAML 1.1 plain scalars (null, bool, int with
//! base prefixes and `_`, float with a dot, `.inf`, `.nan`), the core tags, anchors,
//! merge keys and duplicate keys (last value, first position).

use saphyr_parser::{Event, Parser, ScalarStyle, Span as PSpan};

use super::value::{Map, Node, Span, Value, YamlError};

fn span_of(s: &PSpan) -> Span {
    Span { line: s.start.line() as u32, col: s.start.col() as u32 + 1, offset: s.start.index() }
}

enum Frame {
    Seq(Vec<Node>, Span, usize),
    Map(Map, Option<Node>, Span, usize),
}

/// Every document of the stream (`yaml.safe_load_all`); an empty document is `None`.
pub fn load_all(text: &str) -> Result<Vec<Option<Node>>, YamlError> {
    let mut docs = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: std::collections::HashMap<usize, Node> = std::collections::HashMap::new();
    let mut current: Option<Node> = None;
    let mut in_doc = false;
    for item in Parser::new_from_str(text) {
        let (event, span) = item.map_err(|e| YamlError {
            line: e.marker().line() as u32,
            col: e.marker().col() as u32 + 1,
            message: e.info().to_string(),
        })?;
        let at = span_of(&span);
        let mut done: Option<(Node, usize)> = None;
        match event {
            Event::DocumentStart(_) => {
                in_doc = true;
                current = None;
            }
            Event::DocumentEnd => {
                if in_doc {
                    docs.push(current.take());
                }
                in_doc = false;
            }
            Event::Scalar(v, style, anchor, tag) => {
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                let value = resolve(&v, style, tag.as_deref()).map_err(|m| YamlError { line: at.line, col: at.col, message: m })?;
                done = Some((Node { value, span: at }, anchor));
            }
            Event::Alias(id) => {
                let node = anchors.get(&id).cloned().ok_or(YamlError { line: at.line, col: at.col, message: "found undefined alias".into() })?;
                done = Some((Node { value: node.value, span: at }, 0));
            }
            Event::SequenceStart(anchor, _) => stack.push(Frame::Seq(Vec::new(), at, anchor)),
            Event::MappingStart(anchor, _) => stack.push(Frame::Map(Map::default(), None, at, anchor)),
            Event::SequenceEnd => {
                if let Some(Frame::Seq(items, s, anchor)) = stack.pop() {
                    done = Some((Node { value: Value::Seq(items), span: s }, anchor));
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map(map, _, s, anchor)) = stack.pop() {
                    done = Some((Node { value: Value::Map(map), span: s }, anchor));
                }
            }
            _ => {}
        }
        if let Some((node, anchor)) = done {
            if anchor != 0 {
                anchors.insert(anchor, node.clone());
            }
            match stack.last_mut() {
                None => current = Some(node),
                Some(Frame::Seq(items, _, _)) => items.push(node),
                Some(Frame::Map(map, key, _, _)) => match key.take() {
                    None => *key = Some(node),
                    Some(k) => insert(map, k, node).map_err(|m| YamlError { line: at.line, col: at.col, message: m })?,
                },
            }
        }
    }
    Ok(docs)
}

/// `yaml.safe_load`: one document; a second one is an error, as in PyYAML.
pub fn load(text: &str) -> Result<Option<Node>, YamlError> {
    let mut docs = load_all(text)?;
    if docs.len() > 1 {
        return Err(YamlError { line: 1, col: 1, message: "expected a single document in the stream".into() });
    }
    Ok(docs.pop().flatten())
}

fn insert(map: &mut Map, key: Node, value: Node) -> Result<(), String> {
    if key.value == Value::Str("<<".into()) {
        let sources: Vec<Node> = match value.value {
            Value::Map(_) => vec![value],
            Value::Seq(items) => items,
            _ => return Err("expected a mapping or list of mappings for merging".into()),
        };
        for source in sources.into_iter().rev() {
            let Value::Map(m) = source.value else { return Err("expected a mapping for merging".into()) };
            for (k, v) in m.entries {
                if !map.entries.iter().any(|(e, _)| e.value == k.value) {
                    map.entries.push((k, v));
                }
            }
        }
        return Ok(());
    }
    if matches!(key.value, Value::Map(_) | Value::Seq(_)) {
        return Err("found unhashable key".into());
    }
    match map.entries.iter_mut().find(|(k, _)| k.value == key.value) {
        Some(slot) => slot.1 = value,
        None => map.entries.push((key, value)),
    }
    Ok(())
}

fn resolve(text: &str, style: ScalarStyle, tag: Option<&str>) -> Result<Value, String> {
    match tag {
        Some("tag:yaml.org,2002:str") => return Ok(Value::Str(text.into())),
        Some("tag:yaml.org,2002:int") => return int(text).ok_or_else(|| format!("invalid int {text:?}")),
        Some("tag:yaml.org,2002:float") => return float(text).map(Value::Float).ok_or_else(|| format!("invalid float {text:?}")),
        Some("tag:yaml.org,2002:bool") => return boolean(text).ok_or_else(|| format!("invalid bool {text:?}")),
        Some("tag:yaml.org,2002:null") => return Ok(Value::Null),
        Some(t) if !t.is_empty() && t != "!" => return Err(format!("could not determine a constructor for the tag {t}")),
        _ => {}
    }
    if style != ScalarStyle::Plain {
        return Ok(Value::Str(text.into()));
    }
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        return Ok(Value::Null);
    }
    if let Some(b) = boolean(text) {
        return Ok(b);
    }
    if let Some(i) = int(text) {
        return Ok(i);
    }
    if let Some(f) = float(text) {
        return Ok(Value::Float(f));
    }
    Ok(Value::Str(text.into()))
}

fn boolean(t: &str) -> Option<Value> {
    match t {
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Some(Value::Bool(true)),
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Some(Value::Bool(false)),
        _ => None,
    }
}

fn int(t: &str) -> Option<Value> {
    let (neg, body) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if body.is_empty() || body.starts_with('_') {
        return None;
    }
    let digits = body.replace('_', "");
    let parsed = if let Some(b) = digits.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()
    } else if let Some(x) = digits.strip_prefix("0x") {
        i64::from_str_radix(x, 16).ok()
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()
    } else if digits.contains(':') {
        let mut acc: i64 = 0;
        for (i, part) in digits.split(':').enumerate() {
            let v: i64 = part.parse().ok()?;
            if i > 0 && v >= 60 {
                return None;
            }
            acc = acc.checked_mul(60)?.checked_add(v)?;
        }
        Some(acc)
    } else if digits.bytes().all(|b| b.is_ascii_digit()) {
        match digits.parse::<i64>() {
            Ok(v) => Some(v),
            Err(_) => return Some(Value::BigInt(format!("{}{}", if neg { "-" } else { "" }, digits.trim_start_matches('0')))),
        }
    } else {
        None
    };
    parsed.map(|v| Value::Int(if neg { -v } else { v }))
}

fn float(t: &str) -> Option<f64> {
    let lower = t.to_ascii_lowercase();
    match lower.trim_start_matches(['+', '-']) {
        ".inf" => return Some(if t.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY }),
        ".nan" if !t.starts_with(['+', '-']) => return Some(f64::NAN),
        _ => {}
    }
    // PyYAML 1.1: a dot is required (`1e3` is a string).
    let body = t.trim_start_matches(['+', '-']);
    if !body.contains('.') || body.starts_with('_') || !body.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    if !mantissa.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'_') || mantissa.matches('.').count() > 1 {
        return None;
    }
    if let Some(e) = exp {
        if !(e.starts_with(['+', '-']) && e.len() > 1 && e[1..].bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
    }
    t.replace('_', "").parse().ok()
}

impl Value {
    /// The value as JSON, as Python's `json.dumps` would write the loaded object
    /// (dates in ISO form, bytes as their `repr`).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{json, Value as J};
        match self {
            Value::Null => J::Null,
            Value::Bool(b) => json!(b),
            Value::Int(i) => json!(i),
            Value::BigInt(s) => s.parse::<f64>().map(|f| json!(f)).unwrap_or(J::Null),
            Value::Float(f) => serde_json::Number::from_f64(*f).map(J::Number).unwrap_or(J::Null),
            Value::Str(s) => json!(s),
            Value::Bytes(b) => json!(format!("b'{}'", String::from_utf8_lossy(b))),
            Value::Date(d) => json!(format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)),
            Value::DateTime(d) => json!(format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                d.date.year, d.date.month, d.date.day, d.hour, d.minute, d.second
            )),
            Value::Seq(items) | Value::Set(items) => J::Array(items.iter().map(|n| n.value.to_json()).collect()),
            Value::Map(m) => J::Object(m.entries.iter().map(|(k, v)| (crate::py::str_of(&k.value), v.value.to_json())).collect()),
        }
    }

    /// Python's type name of the loaded value (`dict`, `list`, `str`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::BigInt(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Bytes(_) => "bytes",
            Value::Date(_) => "date",
            Value::DateTime(_) => "datetime",
            Value::Seq(_) => "list",
            Value::Map(_) => "dict",
            Value::Set(_) => "set",
        }
    }
}
