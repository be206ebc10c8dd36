//! Jinja2's `pprint` filter: Python's `pprint.pformat(value)` (width 80, indent 1,
//! dicts sorted by key, not compact): the repr where it fits, else one item a line,
//! long strings cut into chunks at white space.

use minijinja::value::{Value, ValueKind};

use super::python::py_repr;
use crate::py;

const WIDTH: usize = 80;

pub fn pprint(value: Value) -> String {
    let mut out = String::new();
    format(&mut out, &value, 0, 0, 1);
    out
}

fn is_dict(v: &Value) -> bool {
    v.kind() == ValueKind::Map && v.as_object().is_none_or(|o| o.repr() == minijinja::value::ObjectRepr::Map)
}

/// A dict's items sorted by key as `sorted()` sorts them: numbers by value, strings
/// by code point; keys of mixed types by their type's name first, as pprint's
/// `_safe_key` falls back to.
fn sorted_items(v: &Value) -> Vec<(Value, Value)> {
    let mut items: Vec<(Value, Value)> =
        v.try_iter().map(|keys| keys.map(|k| (k.clone(), v.get_item(&k).unwrap_or_default())).collect()).unwrap_or_default();
    items.sort_by(|(a, _), (b, _)| {
        let kind = |x: &Value| match x.kind() {
            ValueKind::Number | ValueKind::Bool => 0,
            ValueKind::String => 1,
            _ => 2,
        };
        kind(a).cmp(&kind(b)).then_with(|| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal))
    });
    items
}

/// `PrettyPrinter._safe_repr`: the repr with dicts' keys sorted.
fn safe_repr(v: &Value) -> String {
    if is_dict(v) {
        let items: Vec<String> = sorted_items(v).iter().map(|(k, x)| format!("{}: {}", safe_repr(k), safe_repr(x))).collect();
        return format!("{{{}}}", items.join(", "));
    }
    if matches!(v.kind(), ValueKind::Seq | ValueKind::Iterable) {
        let items: Vec<String> = v.try_iter().map(|it| it.map(|x| safe_repr(&x)).collect()).unwrap_or_default();
        return if super::python::is_tuple(v) { super::tuple_repr(&items) } else { format!("[{}]", items.join(", ")) };
    }
    py_repr(v)
}

/// `PrettyPrinter._format`.
fn format(out: &mut String, v: &Value, indent: usize, allowance: usize, level: usize) {
    let rep = safe_repr(v);
    if rep.chars().count() <= WIDTH.saturating_sub(indent + allowance) {
        return out.push_str(&rep);
    }
    if is_dict(v) {
        out.push('{');
        let items = sorted_items(v);
        let indent = indent + 1;
        for (i, (k, x)) in items.iter().enumerate() {
            let last = i + 1 == items.len();
            let key = safe_repr(k);
            out.push_str(&key);
            out.push_str(": ");
            format(out, x, indent + key.chars().count() + 2, if last { allowance + 1 } else { 1 }, level + 1);
            if !last {
                out.push_str(",\n");
                out.push_str(&" ".repeat(indent));
            }
        }
        return out.push('}');
    }
    if matches!(v.kind(), ValueKind::Seq | ValueKind::Iterable) {
        let tuple = super::python::is_tuple(v);
        let items: Vec<Value> = v.try_iter().map(Iterator::collect).unwrap_or_default();
        let end = match (tuple, items.len()) {
            (true, 1) => ",)",
            (true, _) => ")",
            _ => "]",
        };
        out.push(if tuple { '(' } else { '[' });
        let indent = indent + 1;
        for (i, x) in items.iter().enumerate() {
            let last = i + 1 == items.len();
            if i > 0 {
                out.push_str(",\n");
                out.push_str(&" ".repeat(indent));
            }
            format(out, x, indent, if last { allowance + end.len() } else { 1 }, level + 1);
        }
        return out.push_str(end);
    }
    match v.as_str().filter(|s| v.kind() == ValueKind::String && !s.is_empty()) {
        Some(text) => long_string(out, text, indent, allowance, level),
        None => out.push_str(&rep),
    }
}

/// `PrettyPrinter._pprint_str`: the string's lines, each cut into chunks at white
/// space that fit, one chunk a line (in parentheses at the top level).
fn long_string(out: &mut String, text: &str, mut indent: usize, mut allowance: usize, level: usize) {
    let rep_len = |s: &str| py::repr_str(s).chars().count();
    let mut chunks = Vec::new();
    let lines = super::pywrap::splitlines_keep(text);
    if level == 1 {
        indent += 1;
        allowance += 1;
    }
    let mut max_width1 = WIDTH as isize - indent as isize;
    let mut max_width = max_width1;
    for (i, line) in lines.iter().enumerate() {
        let rep = py::repr_str(line);
        if i + 1 == lines.len() {
            max_width1 -= allowance as isize;
        }
        if rep.chars().count() as isize <= max_width1 {
            chunks.push(rep);
            continue;
        }
        let parts = words_with_space(line);
        let mut current = String::new();
        for (j, part) in parts.iter().enumerate() {
            let candidate = format!("{current}{part}");
            if j + 1 == parts.len() && i + 1 == lines.len() {
                max_width -= allowance as isize;
            }
            if rep_len(&candidate) as isize > max_width {
                if !current.is_empty() {
                    chunks.push(py::repr_str(&current));
                }
                current = part.to_string();
            } else {
                current = candidate;
            }
        }
        if !current.is_empty() {
            chunks.push(py::repr_str(&current));
        }
    }
    if chunks.len() == 1 {
        return out.push_str(&py::repr_str(text));
    }
    if level == 1 {
        out.push('(');
    }
    for (i, chunk) in chunks.iter().enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
        }
        out.push_str(chunk);
    }
    if level == 1 {
        out.push(')');
    }
}

/// `re.findall(r'\S*\s*', line)`: runs of non-space then space, and the empty match
/// at the end.
fn words_with_space(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let word = rest.find(crate::pyscalar::is_space).unwrap_or(rest.len());
        let space = rest[word..].find(|c: char| !crate::pyscalar::is_space(c)).map_or(rest.len(), |n| word + n);
        parts.push(&rest[..space]);
        rest = &rest[space..];
    }
    parts.push("");
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(json: serde_json::Value) -> String {
        pprint(Value::from_serialize(json))
    }

    /// Outputs of Python 3.11's `pprint.pformat`.
    #[test]
    fn formats_as_pformat_does() {
        assert_eq!(of(serde_json::json!([1, "a", null])), "[1, 'a', None]");
        assert_eq!(of(serde_json::json!({"b": 1, "a": 2})), "{'a': 2, 'b': 1}");
        let long: Vec<String> = (0..12).map(|i| format!("item{i:03}")).collect();
        assert_eq!(
            of(serde_json::json!(long)),
            "['item000',\n 'item001',\n 'item002',\n 'item003',\n 'item004',\n 'item005',\n 'item006',\n 'item007',\n 'item008',\n 'item009',\n 'item010',\n 'item011']"
        );
        assert_eq!(
            of(serde_json::json!({"k": "word ".repeat(20)})),
            "{'k': 'word word word word word word word word word word word word word word '\n      'word word word word word word '}"
        );
        assert_eq!(
            of(serde_json::json!("word ".repeat(30))),
            "('word word word word word word word word word word word word word word word '\n 'word word word word word word word word word word word word word word word ')"
        );
    }
}
