//! Where Jinja's Python roots show in a rendered prompt and minijinja differs:
//! values print with Python's `str()` (lists and dicts as their `repr`), and the
//! `center` filter, which minijinja lacks.

/// Jinja prints a value with Python's `str()`: lists and dicts as their `repr`
/// (`['a', 1]`, `{'k': 'v'}`), not as minijinja's JSON-like text.
pub fn python_formatter(out: &mut minijinja::Output, state: &minijinja::State, value: &minijinja::Value) -> Result<(), minijinja::Error> {
    use minijinja::value::ValueKind;
    match value.kind() {
        ValueKind::Seq | ValueKind::Map => out.write_str(&python_repr(value, 0)).map_err(|_| {
            minijinja::Error::new(minijinja::ErrorKind::WriteFailure, "the rendered prompt is too large")
        }),
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// Python's `repr()` of a template value, nested at most a few levels deep.
fn python_repr(value: &minijinja::Value, depth: usize) -> String {
    use minijinja::value::ValueKind;
    if depth > 32 {
        return "...".into();
    }
    match value.kind() {
        ValueKind::None | ValueKind::Undefined => "None".into(),
        ValueKind::Bool => if value.is_true() { "True" } else { "False" }.into(),
        ValueKind::String => {
            let s = value.as_str().unwrap_or_default();
            let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
            let mut out = String::from(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        ValueKind::Seq => {
            let items: Vec<String> =
                value.try_iter().map(|it| it.map(|v| python_repr(&v, depth + 1)).collect()).unwrap_or_default();
            format!("[{}]", items.join(", "))
        }
        ValueKind::Map => {
            let items: Vec<String> = value
                .try_iter()
                .map(|it| {
                    it.map(|k| {
                        let v = value.get_item(&k).unwrap_or_default();
                        format!("{}: {}", python_repr(&k, depth + 1), python_repr(&v, depth + 1))
                    })
                    .collect()
                })
                .unwrap_or_default();
            format!("{{{}}}", items.join(", "))
        }
        _ => value.to_string(),
    }
}

/// Jinja's `center` filter: Python's `str.center(width)` (default 80), the odd
/// padding character going to the right when the string is odd-sized.
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
    fn containers_print_as_python_reprs() {
        let v = minijinja::Value::from_serialize(serde_json::json!({"a": [1, "x'y", "q\n", null, true]}));
        assert_eq!(python_repr(&v, 0), "{'a': [1, \"x'y\", 'q\\n', None, True]}");
    }
}
