//! Jinja2's filters and tests on single values where minijinja's answer differs:
//! `capitalize` (Python's `str.capitalize`), `round` (Python's `round`, and
//! `math.floor`/`math.ceil` for the other methods), `float` with its default,
//! `indent` with a string and by name, `format` (printf-style `%`), `escape`
//! (markupsafe's entities), `string` (`str()`), `replace` with a count, and the
//! tests `number`, `sequence`, `lower`, `upper` as Python answers them.

use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{Error, ErrorKind};

use super::{py_str, Tuple};

/// The first character as Python's title case: the four Latin digraphs have a
/// title form of their own; a character whose capital is several (`ß` → `SS`) keeps
/// the first capital and lower-cases the rest (`Ss`).
fn title_char(c: char) -> String {
    match c {
        'Ǆ' | 'ǅ' | 'ǆ' => "ǅ".into(),
        'Ǉ' | 'ǈ' | 'ǉ' => "ǈ".into(),
        'Ǌ' | 'ǋ' | 'ǌ' => "ǋ".into(),
        'Ǳ' | 'ǲ' | 'ǳ' => "ǲ".into(),
        _ => {
            let mut upper = c.to_uppercase();
            let first = upper.next().map_or(String::new(), |f| f.to_string());
            first + &upper.collect::<String>().to_lowercase()
        }
    }
}

/// `str.capitalize()`.
pub fn capitalize(value: Value) -> String {
    let s = value.as_str().map_or_else(|| py_str(&value), str::to_string);
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => title_char(first) + &chars.as_str().to_lowercase(),
        None => String::new(),
    }
}

fn bad(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidOperation, message.into())
}

/// `round(value, precision=0, method='common')`.
pub fn round(value: Value, precision: Option<i64>, method: Option<String>, kwargs: Kwargs) -> Result<Value, Error> {
    let precision = precision.or(kwargs.get("precision")?).unwrap_or(0);
    let method = method.or(kwargs.get("method")?).unwrap_or_else(|| "common".into());
    kwargs.assert_all_used()?;
    if !matches!(method.as_str(), "common" | "ceil" | "floor") {
        return Err(bad("method must be common, ceil or floor"));
    }
    let integer = value.kind() == ValueKind::Number && value.is_integer() || value.kind() == ValueKind::Bool;
    if method == "common" && integer {
        let n = i128::try_from(value.clone())?;
        if precision >= 0 {
            return Ok(Value::from(n));
        }
        // Python rounds an int to tens, hundreds, … half to even.
        let unit = 10i128.checked_pow(u32::try_from(-precision).unwrap_or(u32::MAX)).ok_or_else(|| bad("precision too large"))?;
        let (q, r) = (n.div_euclid(unit), n.rem_euclid(unit));
        let up = 2 * r > unit || 2 * r == unit && q % 2 != 0;
        return Ok(Value::from((q + i128::from(up)) * unit));
    }
    let x = f64::try_from(value.clone()).map_err(|_| bad(format!("type {} doesn't define __round__ method", value.kind())))?;
    if method == "common" {
        if !x.is_finite() || precision > 308 {
            return Ok(Value::from(x));
        }
        if precision >= 0 {
            // The exact binary value rounded half to even at `precision` decimals.
            let text = format!("{x:.*}", precision as usize);
            return Ok(Value::from(text.parse::<f64>().unwrap_or(x)));
        }
        let unit = 10f64.powi(-precision as i32);
        return Ok(Value::from((x / unit).round_ties_even() * unit));
    }
    let scale = 10f64.powi(precision.clamp(-400, 400) as i32);
    let scaled = x * scale;
    if !scaled.is_finite() {
        return Err(bad("OverflowError: cannot convert float infinity to integer"));
    }
    let whole = if method == "floor" { scaled.floor() } else { scaled.ceil() };
    Ok(Value::from(whole / scale))
}

/// `float(value, default=0.0)`: Python's `float()`, or the default where it fails.
pub fn float(value: Value, default: Option<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let default = default.or(kwargs.get("default")?).unwrap_or(Value::from(0.0));
    kwargs.assert_all_used()?;
    let parsed = match value.kind() {
        ValueKind::Bool => Some(if value.is_true() { 1.0 } else { 0.0 }),
        ValueKind::Number => f64::try_from(value).ok(),
        ValueKind::String => value.as_str().and_then(crate::py::float_parse),
        _ => None,
    };
    Ok(parsed.map_or(default, Value::from))
}

/// `indent(s, width=4, first=False, blank=False)`: `width` may be the text to indent
/// with; lines are Python's `splitlines` of the text with a newline added.
pub fn indent(s: Value, width: Option<Value>, first: Option<bool>, blank: Option<bool>, kwargs: Kwargs) -> Result<Value, Error> {
    let width = width.or(kwargs.get("width")?).unwrap_or(Value::from(4));
    let first = first.or(kwargs.get("first")?).unwrap_or(false);
    let blank = blank.or(kwargs.get("blank")?).unwrap_or(false);
    kwargs.assert_all_used()?;
    let indention = match width.as_str() {
        Some(text) if width.kind() == ValueKind::String => text.to_string(),
        _ => match usize::try_from(i64::try_from(width)?.max(0)).unwrap_or(0) {
            n if n > super::python::MAX_TEXT => return Err(super::python::too_large()),
            n => " ".repeat(n),
        },
    };
    let text = format!("{}\n", s.as_str().map_or_else(|| py_str(&s), str::to_string));
    let lines = super::pywrap::splitlines(&text);
    let mut out = if blank {
        lines.join(&format!("\n{indention}"))
    } else {
        let mut out = lines.first().map_or(String::new(), |l| l.to_string());
        for line in lines.iter().skip(1) {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&indention);
            }
            out.push_str(line);
        }
        out
    };
    if first {
        out.insert_str(0, &indention);
    }
    Ok(if s.is_safe() { Value::from_safe_string(out) } else { Value::from(out) })
}

/// `format(value, *args, **kwargs)`: `value % args` (or `% kwargs`), never both.
pub fn format(value: Value, args: minijinja::value::Rest<Value>) -> Result<Value, Error> {
    let (positional, kwargs) = match args.split_last() {
        Some((last, rest)) if last.is_kwargs() => (rest.to_vec(), Some(last.clone())),
        _ => (args.to_vec(), None),
    };
    let operand = match kwargs {
        Some(_) if !positional.is_empty() => return Err(bad("can't handle positional and keyword arguments at the same time")),
        Some(k) => {
            let k = Kwargs::try_from(k)?;
            let map: Vec<(String, Value)> = k.args().map(|name| (name.to_string(), k.peek::<Value>(name).unwrap_or_default())).collect();
            Value::from_iter(map)
        }
        None => Value::from_object(Tuple(positional)),
    };
    let text = value.as_str().map_or_else(|| py_str(&value), str::to_string);
    super::pyformat::percent_format(&text, operand).map(Value::from)
}

/// markupsafe's `escape`: `&<>"'` as entities, an already safe value unchanged.
pub fn escape(value: Value) -> Value {
    if value.is_safe() {
        return value;
    }
    let text = value.as_str().map_or_else(|| py_str(&value), str::to_string);
    Value::from_safe_string(
        text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&#34;").replace('\'', "&#39;"),
    )
}

/// `string(value)`: `str()`, a safe value kept safe.
pub fn string(value: Value) -> Value {
    if value.is_safe() || value.kind() == ValueKind::String {
        return value;
    }
    Value::from(py_str(&value))
}

/// `replace(s, old, new, count=None)`: Python's `str.replace`.
pub fn replace(s: Value, old: String, new: String, count: Option<i64>, kwargs: Kwargs) -> Result<Value, Error> {
    let count = count.or(kwargs.get("count")?);
    kwargs.assert_all_used()?;
    let text = s.as_str().map_or_else(|| py_str(&s), str::to_string);
    let limit = count.filter(|&c| c >= 0).map(|c| usize::try_from(c).unwrap_or(usize::MAX));
    let out = if old.is_empty() {
        // Python inserts `new` before every character and at the end, up to `count`.
        let mut out = String::new();
        let mut made = 0usize;
        for c in text.chars() {
            if limit.is_none_or(|l| made < l) {
                out.push_str(&new);
                made += 1;
            }
            out.push(c);
        }
        if limit.is_none_or(|l| made < l) {
            out.push_str(&new);
        }
        out
    } else {
        match limit {
            Some(l) => text.replacen(&old, &new, l),
            None => text.replace(&old, &new),
        }
    };
    Ok(Value::from(out))
}

/// `str.islower()` / `str.isupper()`: some cased character, none of the other case.
pub fn is_lower(value: Value) -> bool {
    cased(&value, char::is_lowercase, char::is_uppercase)
}

pub fn is_upper(value: Value) -> bool {
    cased(&value, char::is_uppercase, char::is_lowercase)
}

fn cased(value: &Value, this: fn(char) -> bool, other: fn(char) -> bool) -> bool {
    let Some(s) = value.as_str() else { return false };
    s.chars().any(this) && !s.chars().any(|c| other(c) || c.is_uppercase() && c.is_lowercase())
}

/// `number`: a Python `Number`, `bool` included.
pub fn is_number(value: Value) -> bool {
    matches!(value.kind(), ValueKind::Number | ValueKind::Bool)
}

/// `sequence`: anything with a length and items (strings and dicts too).
pub fn is_sequence(value: Value) -> bool {
    matches!(value.kind(), ValueKind::String | ValueKind::Seq | ValueKind::Map | ValueKind::Bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_rounding_and_case() {
        let r = |v: Value, p: i64| round(v, Some(p), None, Kwargs::from_iter(Vec::<(String, Value)>::new())).map(|v| py_str(&v)).unwrap_or_default();
        assert_eq!(r(Value::from(2.5), 0), "2.0");
        assert_eq!(r(Value::from(3.5), 0), "4.0");
        assert_eq!(r(Value::from(2.675), 2), "2.67");
        assert_eq!(r(Value::from(7), -1), "10");
        assert_eq!(r(Value::from(25), -1), "20");
        assert_eq!(r(Value::from(3), 0), "3");
        assert_eq!(capitalize(Value::from("ǆa")), "ǅa");
        assert_eq!(capitalize(Value::from("ßA")), "Ssa");
        assert!(is_lower(Value::from("a1")) && !is_lower(Value::from("1")) && is_upper(Value::from("A")));
    }
}
