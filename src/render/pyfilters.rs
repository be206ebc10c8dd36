//! Where Jinja2 (as Tsugite and Kimi run it) and minijinja print or filter differently, the
//! Jinja2 behaviour: tuples (`dict.items()`, `dictsort`) print as `('a', 1)`,
//! `tojson` sorts keys and uses Python's separators and HTML-safe escapes, and the
//! Jinja2 filters minijinja lacks (`truncate`, `wordcount`).

use std::fmt::Write as _;

use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind, State};
use serde_json::Value as Json;

use super::Tuple;

fn pair(k: Value, v: Value) -> Value {
    Value::from_object(Tuple(vec![k, v]))
}

/// The `(key, value)` pairs of a mapping, in its order.
fn items_of(v: &Value) -> Result<Vec<(Value, Value)>, Error> {
    if v.kind() != ValueKind::Map {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "items() needs a mapping",
        ));
    }
    let mut out = Vec::new();
    for k in v.try_iter()? {
        let val = v.get_item(&k)?;
        out.push((k, val));
    }
    Ok(out)
}

/// Python's `json.dumps(value, sort_keys=True)` followed by Jinja2's `htmlsafe` escapes.
/// `json.dumps(v, sort_keys=True, indent=indent)` at nesting `level`: with an
/// indent, each item on a line of its own and `,` between them.
fn dumps_at(v: &Json, out: &mut String, indent: Option<&str>, level: usize) {
    let separate = |out: &mut String, i: usize, level: usize| {
        match indent {
            Some(unit) => {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                out.push_str(&unit.repeat(level));
            }
            None if i > 0 => out.push_str(", "),
            None => {}
        }
    };
    let close = |out: &mut String, count: usize, bracket: char| {
        if let (Some(unit), true) = (indent, count > 0) {
            out.push('\n');
            out.push_str(&unit.repeat(level));
        }
        out.push(bracket);
    };
    match v {
        Json::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                separate(out, i, level + 1);
                dumps_at(&Json::String((*k).clone()), out, indent, level + 1);
                out.push_str(": ");
                dumps_at(&map[*k], out, indent, level + 1);
            }
            close(out, keys.len(), '}');
        }
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                separate(out, i, level + 1);
                dumps_at(item, out, indent, level + 1);
            }
            close(out, items.len(), ']');
        }
        Json::String(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    '<' | '>' | '&' | '\'' => {
                        let _ = write!(out, "\\u{:04x}", c as u32);
                    }
                    c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                        let mut buf = [0u16; 2];
                        for unit in c.encode_utf16(&mut buf) {
                            let _ = write!(out, "\\u{unit:04x}");
                        }
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        Json::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => {
                out.push_str(&crate::py::float_repr(f).replace("inf", "Infinity"))
            }
            _ => out.push_str(&n.to_string()),
        },
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Null => out.push_str("null"),
    }
}

fn tojson(value: Value, indent: Option<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let indent = indent.or(kwargs.get("indent")?).filter(|v| !v.is_none());
    kwargs.assert_all_used()?;
    let json = serde_json::to_value(&value).map_err(|e| {
        Error::new(
            ErrorKind::InvalidOperation,
            format!("Object of this type is not JSON serializable: {e}"),
        )
    })?;
    // `json.dumps`'s indent: a number of spaces, or the text itself.
    let unit = match &indent {
        None => None,
        Some(v) if v.kind() == ValueKind::String => Some(v.as_str().unwrap_or_default().to_string()),
        Some(v) => match usize::try_from(i64::try_from(v.clone())?.max(0)).unwrap_or(0) {
            n if n > super::python::MAX_TEXT => return Err(super::python::too_large()),
            n => Some(" ".repeat(n)),
        },
    };
    let mut out = String::new();
    dumps_at(&json, &mut out, unit.as_deref(), 0);
    Ok(Value::from_safe_string(out))
}

/// Jinja2's `truncate(s, length=255, killwords=False, end='...', leeway=5)`.
fn truncate(
    s: String,
    length: Option<usize>,
    killwords: Option<bool>,
    end: Option<String>,
    leeway: Option<usize>,
) -> String {
    let (length, end, leeway) = (
        length.unwrap_or(255),
        end.unwrap_or_else(|| "...".into()),
        leeway.unwrap_or(5),
    );
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= length + leeway {
        return s;
    }
    let keep: String = chars[..length.saturating_sub(end.chars().count())]
        .iter()
        .collect();
    if killwords.unwrap_or(false) {
        return keep + &end;
    }
    let cut = keep
        .rsplit_once(' ')
        .map(|(head, _)| head.to_string())
        .unwrap_or(keep);
    cut + &end
}

/// Jinja2's `wordcount`: `len(re.findall(r"\w+", s))`.
fn wordcount(s: String) -> usize {
    let mut count = 0;
    let mut in_word = false;
    for c in s.chars() {
        let word = crate::py::is_word(c);
        if word && !in_word {
            count += 1;
        }
        in_word = word;
    }
    count
}

/// Jinja2's `dictsort(value, case_sensitive=False, by='key', reverse=False)`.
fn dictsort(
    v: Value,
    case_sensitive: Option<bool>,
    by: Option<String>,
    reverse: Option<bool>,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    // Jinja2's arguments may be named too: `dictsort(reverse=true)`.
    let case_sensitive = case_sensitive.or(kwargs.get::<Option<bool>>("case_sensitive")?);
    let by = by.or(kwargs.get::<Option<String>>("by")?);
    let reverse = reverse.or(kwargs.get::<Option<bool>>("reverse")?);
    kwargs.assert_all_used()?;
    if !matches!(by.as_deref(), None | Some("key" | "value")) {
        return Err(Error::new(ErrorKind::InvalidOperation, "You can only sort by either \"key\" or \"value\""));
    }
    let mut items = items_of(&v)?;
    let by_value = by.as_deref() == Some("value");
    let fold = |x: &Value| match (x.as_str(), case_sensitive.unwrap_or(false)) {
        (Some(s), false) => Value::from(s.to_lowercase()),
        _ => x.clone(),
    };
    items.sort_by(|a, b| {
        let (x, y) = if by_value { (&a.1, &b.1) } else { (&a.0, &b.0) };
        fold(x).cmp(&fold(y))
    });
    if reverse.unwrap_or(false) {
        items.reverse();
    }
    Ok(Value::from(
        items
            .into_iter()
            .map(|(k, v)| pair(k, v))
            .collect::<Vec<_>>(),
    ))
}

/// Method calls minijinja does not know: `dict.items()` as tuples, the rest as
/// minijinja-contrib's Python compatibility layer does them.
pub fn unknown_method(
    state: &State,
    value: &Value,
    method: &str,
    args: &[Value],
) -> Result<Value, Error> {
    if method == "items" && args.is_empty() && value.kind() == ValueKind::Map {
        let items = items_of(value)?;
        return Ok(Value::from(
            items
                .into_iter()
                .map(|(k, v)| pair(k, v))
                .collect::<Vec<_>>(),
        ));
    }
    if method == "format" && value.as_str().is_some_and(asks_too_wide) {
        return Err(super::python::too_large());
    }
    if let Some(result) = value.as_str().filter(|_| value.kind() == ValueKind::String).and_then(|text| super::pycollect::string_method(text, method, args)) {
        return result;
    }
    minijinja_contrib::pycompat::unknown_method_callback(state, value, method, args)
}

/// Whether a `str.format` text asks for a width or precision above
/// [`MAX_TEXT`](super::python::MAX_TEXT) in one of its fields (`{:>1000000000}`),
/// which minijinja would build.
fn asks_too_wide(text: &str) -> bool {
    text.split('{')
        .skip(1)
        .filter_map(|field| field.split('}').next()?.split_once(':').map(|(_, spec)| spec))
        .flat_map(|spec| spec.split(|c: char| !c.is_ascii_digit()))
        .any(|digits| !digits.is_empty() && digits.parse::<usize>().map_or(true, |n| n > super::python::MAX_TEXT))
}

/// Jinja2's `striptags`: tags and comments removed, whitespace runs collapsed.
fn striptags(s: String) -> String {
    static CELL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re =
        CELL.get_or_init(|| regex::Regex::new(r"(?s)<!--.*?-->|<[^>]*>").expect("static pattern"));
    let text = re.replace_all(&s, "");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Jinja2's `filesizeformat(value, binary=False)`.
fn filesizeformat(value: Value, binary: Option<bool>) -> Result<String, Error> {
    let bytes = f64::try_from(value)?;
    let (base, units): (f64, [&str; 8]) = if binary.unwrap_or(false) {
        (
            1024.0,
            ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"],
        )
    } else {
        (1000.0, ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"])
    };
    if bytes == 1.0 {
        return Ok("1 Byte".into());
    }
    if bytes < base {
        return Ok(format!("{} Bytes", bytes as i64));
    }
    let mut unit = base;
    for (i, name) in units.iter().enumerate() {
        unit = base.powi(i as i32 + 2);
        if bytes < unit {
            return Ok(format!("{:.1} {name}", base * bytes / unit));
        }
    }
    Ok(format!("{:.1} {}", base * bytes / unit, units[7]))
}

/// Jinja2's `title`: the text split at runs of `-`, white space and `([{<` (the runs
/// stay as pieces), each piece's first character upper-cased and the rest
/// lower-cased — `kimi_shell` is one word (minijinja splits at every non-letter).
fn title(value: Value) -> String {
    let text = value.as_str().map_or_else(|| super::py_str(&value), str::to_string);
    let boundary = |c: char| matches!(c, '-' | '(' | '{' | '[' | '<') || crate::py::is_space(c);
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(first) = rest.chars().next() {
        let run = boundary(first);
        let end = rest.find(|c: char| boundary(c) != run).unwrap_or(rest.len());
        let (piece, after) = rest.split_at(end);
        out.extend(first.to_uppercase());
        // `str.lower()` of the rest as one string (a final sigma depends on its context).
        out.push_str(&piece[first.len_utf8()..].to_lowercase());
        rest = after;
    }
    out
}

/// Jinja2's `xmlattr(d, autospace=True)`: `key="value"` pairs escaped, `None` values
/// left out, a key holding white space, `/`, `>` or `=` refused.
fn xmlattr(d: Value, autospace: Option<bool>) -> Result<Value, Error> {
    let mut items = Vec::new();
    for (key, value) in items_of(&d)? {
        if value.is_none() || value.is_undefined() {
            continue;
        }
        let Some(name) = key.as_str() else {
            return Err(Error::new(ErrorKind::InvalidOperation, "TypeError: expected string or bytes-like object"));
        };
        if name.chars().any(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '/' | '>' | '=')) {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("Invalid character in attribute name: {}", super::py_repr(&key)),
            ));
        }
        items.push(format!("{}=\"{}\"", html_escape(name), html_escape(&super::py_str(&value))));
    }
    let text = items.join(" ");
    Ok(Value::from(if autospace.unwrap_or(true) && !text.is_empty() { format!(" {text}") } else { text }))
}

/// minijinja filters and tests that Jinja2 does not have: a template using them fails
/// in Jinja2, so it must fail here too.
const NOT_IN_JINJA2_FILTERS: &[&str] = &["split", "lines", "chain", "zip", "bool"];
const NOT_IN_JINJA2_TESTS: &[&str] = &["safe", "int", "startingwith", "endingwith"];

/// Installs the Jinja2 versions of the filters above.
pub fn install(env: &mut Environment<'static>) {
    for name in NOT_IN_JINJA2_FILTERS {
        env.remove_filter(name);
    }
    for name in NOT_IN_JINJA2_TESTS {
        env.remove_test(name);
    }
    // Jinja2's default namespace: `range`, `dict`, `namespace` (minijinja's own),
    // `cycler` and `joiner`; no `debug`.
    env.remove_global("debug");
    env.add_function("joiner", minijinja_contrib::globals::joiner);
    env.add_filter("center", super::center);
    env.add_filter("title", title);
    env.add_filter("capitalize", super::pyscalars::capitalize);
    env.add_filter("round", super::pyscalars::round);
    env.add_filter("float", super::pyscalars::float);
    env.add_filter("indent", super::pyscalars::indent);
    env.add_filter("format", super::pyscalars::format);
    env.add_filter("escape", super::pyscalars::escape);
    env.add_filter("e", super::pyscalars::escape);
    env.add_filter("string", super::pyscalars::string);
    env.add_filter("replace", super::pyscalars::replace);
    env.add_test("lower", super::pyscalars::is_lower);
    env.add_test("upper", super::pyscalars::is_upper);
    env.add_test("number", super::pyscalars::is_number);
    env.add_test("sequence", super::pyscalars::is_sequence);
    env.add_filter("xmlattr", xmlattr);
    env.add_filter("wordwrap", super::pywrap::wordwrap);
    env.add_filter("urlize", super::pyurlize::urlize);
    env.add_filter("pprint", super::pypprint::pprint);
    env.add_filter("striptags", striptags);
    env.add_filter("filesizeformat", filesizeformat);
    env.add_filter("forceescape", |s: String| {
        Value::from_safe_string(html_escape(&s))
    });
    // Python's `value % num == 0`: by zero it raises.
    env.add_test("divisibleby", |a: i64, b: i64| -> Result<bool, Error> {
        if b == 0 {
            return Err(Error::new(ErrorKind::InvalidOperation, "ZeroDivisionError: integer modulo by zero"));
        }
        Ok(a.rem_euclid(b) == 0)
    });
    env.add_test("undefined", |v: Value| v.is_undefined());
    env.add_test("callable", |v: Value| {
        v.kind() == ValueKind::Plain && v.as_object().is_some()
    });
    env.add_filter("tojson", tojson);
    env.add_filter("truncate", truncate);
    env.add_filter("wordcount", wordcount);
    env.add_filter("dictsort", dictsort);
    env.add_filter("items", |v: Value| -> Result<Value, Error> {
        Ok(Value::from(
            items_of(&v)?
                .into_iter()
                .map(|(k, v)| pair(k, v))
                .collect::<Vec<_>>(),
        ))
    });
    // The filters that walk a whole sequence, refused one too long to walk at once.
    use super::pycollect::{self, walkable};
    env.add_filter("join", pycollect::join);
    env.add_filter("sum", pycollect::sum);
    env.add_filter("min", pycollect::min);
    env.add_filter("max", pycollect::max);
    env.add_filter("groupby", pycollect::groupby);
    env.add_filter("urlencode", pycollect::urlencode);
    env.add_filter("attr", pycollect::attr);
    env.add_function("cycler", pycollect::cycler);
    env.add_filter("list", |state: &State, v: Value| walkable(&v).and_then(|()| minijinja::filters::list(state, v)));
    env.add_filter("reverse", |v: Value| walkable(&v).and_then(|()| minijinja::filters::reverse(&v)));
    env.add_filter("sort", |state: &State, v: Value, kwargs: Kwargs| walkable(&v).and_then(|()| minijinja::filters::sort(state, v, kwargs)));
    env.add_filter("unique", |state: &State, v: Value, kwargs: Kwargs| walkable(&v).and_then(|()| minijinja::filters::unique(state, v, kwargs)));
    env.set_unknown_method_callback(unknown_method);
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_and_wordcount_follow_jinja2() {
        assert_eq!(
            truncate(
                "the quick brown fox jumps".into(),
                Some(12),
                None,
                None,
                None
            ),
            "the..."
        );
        assert_eq!(truncate("short".into(), Some(3), None, None, None), "short");
        assert_eq!(wordcount("a b_c, d".into()), 3);
        let t = |s: &str| title(Value::from(s));
        assert_eq!(t("kimi_shell"), "Kimi_shell");
        assert_eq!(t("a-b c(d[e{f<g>h.i_j"), "A-B C(D[E{F<G>h.i_j");
        assert_eq!(t("x\u{a0}y\u{2003}z"), "X\u{a0}Y\u{2003}Z");
        assert_eq!(t("o'neil mc-DONALD"), "O'neil Mc-Donald");
    }

    #[test]
    fn json_like_python() {
        let mut out = String::new();
        dumps_at(&serde_json::json!({"b": [1, 2.5], "a": "<é'>"}), &mut out, None, 0);
        assert_eq!(out, r#"{"a": "\u003c\u00e9\u0027\u003e", "b": [1, 2.5]}"#);
        out.clear();
        dumps_at(&serde_json::json!({"a": [1, {}], "b": []}), &mut out, Some("  "), 0);
        assert_eq!(out, "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}");
    }
}
