//! Python's `str()`/`repr()` of minijinja values, and the `center` filter.

use std::sync::Arc;

use minijinja::value::{Enumerator, Object, ObjectRepr, Value, ValueKind};

use crate::py;

/// Containers nested deeper than this print as `...`: a template cannot build an
/// unbounded structure, but a self-referencing one must not recurse forever.
const MAX_DEPTH: usize = 64;

/// A Python tuple: a sequence that prints with parentheses (`dict.items()` pairs,
/// `dictsort` results).
#[derive(Debug)]
pub struct Tuple(pub Vec<Value>);

impl Object for Tuple {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let i = key.as_i64()?;
        let i = if i < 0 { self.0.len() as i64 + i } else { i };
        self.0.get(usize::try_from(i).ok()?).cloned()
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(self.0.len())
    }
}

/// `repr()` of a tuple, given the repr of its items.
pub fn tuple_repr(items: &[String]) -> String {
    match items {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// Python's `repr()` of a template value (how items print inside containers).
pub fn py_repr(v: &Value) -> String {
    repr_at(v, 0)
}

fn repr_at(v: &Value, depth: usize) -> String {
    match v.kind() {
        ValueKind::String => py::repr_str(v.as_str().unwrap_or_default()),
        _ => str_at(v, depth),
    }
}

/// Python's `str()` of a template value: what `{{ value }}` prints in Jinja2.
pub fn py_str(v: &Value) -> String {
    str_at(v, 0)
}

fn str_at(v: &Value, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return "...".into();
    }
    match v.kind() {
        ValueKind::Undefined | ValueKind::None => "None".into(),
        ValueKind::Bool => if v.is_true() { "True" } else { "False" }.into(),
        ValueKind::Number => match f64::try_from(v.clone()) {
            Ok(f) if v.as_i64().is_none() && !v.is_integer() => py::float_repr(f),
            _ => v.to_string(),
        },
        ValueKind::String | ValueKind::Bytes => v.to_string(),
        ValueKind::Seq | ValueKind::Iterable => {
            let items: Vec<String> =
                v.try_iter().map(|it| it.map(|x| repr_at(&x, depth + 1)).collect()).unwrap_or_default();
            if v.downcast_object_ref::<Tuple>().is_some() {
                tuple_repr(&items)
            } else {
                format!("[{}]", items.join(", "))
            }
        }
        ValueKind::Map if v.as_object().is_none_or(|o| o.repr() == ObjectRepr::Map) => {
            let mut items = Vec::new();
            if let Ok(keys) = v.try_iter() {
                for k in keys {
                    let val = v.get_item(&k).unwrap_or_default();
                    items.push(format!("{}: {}", repr_at(&k, depth + 1), repr_at(&val, depth + 1)));
                }
            }
            format!("{{{}}}", items.join(", "))
        }
        _ => v.to_string(),
    }
}

/// A formatter printing containers as Python reprs (`['a', 1]`, `{'k': 'v'}`), not as
/// minijinja's JSON-like text; scalars as minijinja prints them.
pub fn python_formatter(
    out: &mut minijinja::Output,
    state: &minijinja::State,
    value: &minijinja::Value,
) -> Result<(), minijinja::Error> {
    match value.kind() {
        ValueKind::Seq | ValueKind::Map => out
            .write_str(&py_str(value))
            .map_err(|_| minijinja::Error::new(minijinja::ErrorKind::WriteFailure, "the rendered prompt is too large")),
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// Jinja2's `center` filter: Python's `str.center(width)` (default 80), the odd
/// padding character going where CPython puts it.
pub fn center(value: String, width: Option<usize>) -> String {
    let width = width.unwrap_or(80);
    let len = value.chars().count();
    if width <= len {
        return value;
    }
    let pad = width - len;
    // CPython: left = pad / 2 + (pad & width & 1).
    let left = pad / 2 + (pad & width & 1);
    format!("{}{value}{}", " ".repeat(left), " ".repeat(pad - left))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn center_pads_like_python() {
        assert_eq!(center("ab c".into(), Some(10)), "   ab c   ");
        assert_eq!(center("abc".into(), Some(6)), " abc  ");
        assert_eq!(center("abc".into(), Some(2)), "abc");
    }

    #[test]
    fn values_print_as_python_does() {
        let v = Value::from_serialize(serde_json::json!({"a": [1, "x'y", "q\n", null, true, 1.5]}));
        assert_eq!(py_str(&v), "{'a': [1, \"x'y\", 'q\\n', None, True, 1.5]}");
        assert_eq!(py_str(&Value::from(vec!["a", "b'"])), "['a', \"b'\"]");
        assert_eq!(py_str(&Value::from(())), "None");
        assert_eq!(py_str(&Value::from(1e20)), "1e+20");
        assert_eq!(py_str(&Value::from(1.0)), "1.0");
        let t = Value::from_object(Tuple(vec![Value::from("a"), Value::from(1)]));
        assert_eq!(py_str(&t), "('a', 1)");
        assert_eq!(tuple_repr(&["'a'".into()]), "('a',)");
    }
}
