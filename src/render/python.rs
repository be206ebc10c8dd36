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

/// Whether `v` prints as a Python tuple (a [`Tuple`], a `groupby` group).
pub fn is_tuple(v: &Value) -> bool {
    v.downcast_object_ref::<Tuple>().is_some() || v.downcast_object_ref::<super::pycollect::GroupTuple>().is_some()
}

/// `repr()` of a tuple, given the repr of its items.
pub fn tuple_repr(items: &[String]) -> String {
    match items {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// The longest text agentry builds for one value or filter: longer than any prompt it
/// renders (each framework bounds its output well below), so a text cut here is never
/// printed whole: printing it runs into that bound and its error. A template can ask
/// for far more at little cost (`[1] * 10**8` is a lazy sequence of 10**8 items,
/// `'x'|center(10**9)` a width): building that whole would hang agentry or exhaust memory.
pub const MAX_TEXT: usize = 8 << 20;

/// The error a filter gives for a text longer than [`MAX_TEXT`].
pub fn too_large() -> minijinja::Error {
    minijinja::Error::new(minijinja::ErrorKind::WriteFailure, format!("the text would exceed {MAX_TEXT} bytes"))
}

/// Python's `repr()` of a template value (how items print inside containers), cut
/// after [`MAX_TEXT`] bytes.
pub fn py_repr(v: &Value) -> String {
    let mut out = String::new();
    repr_into(&mut out, v, 0);
    out
}

fn repr_into(out: &mut String, v: &Value, depth: usize) {
    match v.kind() {
        ValueKind::String => out.push_str(&py::repr_str(v.as_str().unwrap_or_default())),
        _ => str_into(out, v, depth),
    }
}

/// Python's `str()` of a template value: what `{{ value }}` prints in Jinja2, cut
/// after [`MAX_TEXT`] bytes (see there).
pub fn py_str(v: &Value) -> String {
    let mut out = String::new();
    str_into(&mut out, v, 0);
    out
}

/// Appends `str()` of `v` to `out`; a container stops adding items once `out` is
/// longer than [`MAX_TEXT`].
fn str_into(out: &mut String, v: &Value, depth: usize) {
    if depth > MAX_DEPTH {
        return out.push_str("...");
    }
    let full = |out: &String| out.len() > MAX_TEXT;
    match v.kind() {
        ValueKind::Undefined | ValueKind::None => out.push_str("None"),
        ValueKind::Bool => out.push_str(if v.is_true() { "True" } else { "False" }),
        ValueKind::Number => match f64::try_from(v.clone()) {
            Ok(f) if v.as_i64().is_none() && !v.is_integer() => out.push_str(&py::float_repr(f)),
            _ => out.push_str(&v.to_string()),
        },
        ValueKind::String | ValueKind::Bytes => out.push_str(&v.to_string()),
        ValueKind::Seq | ValueKind::Iterable => {
            let tuple = is_tuple(v);
            out.push(if tuple { '(' } else { '[' });
            let mut count = 0;
            if let Ok(items) = v.try_iter() {
                for item in items {
                    if full(out) {
                        break;
                    }
                    if count > 0 {
                        out.push_str(", ");
                    }
                    repr_into(out, &item, depth + 1);
                    count += 1;
                }
            }
            out.push_str(match (tuple, count) {
                (true, 1) => ",)",
                (true, _) => ")",
                _ => "]",
            });
        }
        ValueKind::Map if v.as_object().is_none_or(|o| o.repr() == ObjectRepr::Map) => {
            out.push('{');
            if let Ok(keys) = v.try_iter() {
                for (i, k) in keys.enumerate() {
                    if full(out) {
                        break;
                    }
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let val = v.get_item(&k).unwrap_or_default();
                    repr_into(out, &k, depth + 1);
                    out.push_str(": ");
                    repr_into(out, &val, depth + 1);
                }
            }
            out.push('}');
        }
        _ => out.push_str(&v.to_string()),
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
        ValueKind::Seq | ValueKind::Iterable | ValueKind::Map => out
            .write_str(&py_str(value))
            .map_err(|_| minijinja::Error::new(minijinja::ErrorKind::WriteFailure, "the rendered prompt is too large")),
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// Jinja2's `center` filter: Python's `str.center(width)` (default 80), the odd
/// padding character going where CPython puts it.
pub fn center(value: String, width: Option<usize>) -> Result<String, minijinja::Error> {
    let width = width.unwrap_or(80);
    let len = value.chars().count();
    if width <= len {
        return Ok(value);
    }
    if width > MAX_TEXT {
        return Err(too_large());
    }
    let pad = width - len;
    // CPython: left = pad / 2 + (pad & width & 1).
    let left = pad / 2 + (pad & width & 1);
    Ok(format!("{}{value}{}", " ".repeat(left), " ".repeat(pad - left)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn center_pads_like_python() {
        assert_eq!(center("ab c".into(), Some(10)).unwrap(), "   ab c   ");
        assert_eq!(center("abc".into(), Some(6)).unwrap(), " abc  ");
        assert_eq!(center("abc".into(), Some(2)).unwrap(), "abc");
        assert!(center("abc".into(), Some(1 << 30)).is_err());
    }

    /// A lazy sequence of 10**8 items (`[1] * 10**8`) prints only up to the bound,
    /// at once, where printing it whole hung agentry.
    #[test]
    fn a_huge_lazy_sequence_prints_only_up_to_the_bound() {
        let env = minijinja::Environment::new();
        let huge = env.compile_expression("[1] * 100000000").unwrap().eval(()).unwrap();
        let text = py_str(&huge);
        assert!(text.len() > MAX_TEXT && text.len() < MAX_TEXT + 16, "{}", text.len());
        assert!(text.starts_with("[1, 1, ") && text.ends_with(", 1]"));
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
