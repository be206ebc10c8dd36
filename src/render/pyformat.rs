//! Python's `str % args` (printf-style formatting), which Jinja2 templates reach with
//! `'%s-%d' % ('a', 3)`; minijinja has no `%` on strings. The rewritten source calls
//! it as the filter `__py_mod` (see `pysource`).

use minijinja::value::{Value, ValueKind};
use minijinja::{Error, ErrorKind};

use super::python::{py_repr, py_str, Tuple};

fn type_error(msg: &str) -> Error {
    Error::new(ErrorKind::InvalidOperation, format!("TypeError: {msg}"))
}

/// `fmt % args`: a tuple gives the arguments, anything else is the one argument.
pub fn percent_format(fmt: &str, args: Value) -> Result<String, Error> {
    let mapping = if args.downcast_object_ref::<Tuple>().is_some() { Value::UNDEFINED } else { args.clone() };
    let args: Vec<Value> = match args.downcast_object_ref::<Tuple>() {
        Some(t) => t.0.clone(),
        None => vec![args.clone()],
    };
    let mut next = args.iter();
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // `%(key)s`: the argument is looked up in a mapping right operand.
        let mut keyed = None;
        if chars.peek() == Some(&'(') {
            chars.next();
            let (mut key, mut depth) = (String::new(), 1);
            for k in chars.by_ref() {
                depth += i32::from(k == '(') - i32::from(k == ')');
                if depth == 0 {
                    break;
                }
                key.push(k);
            }
            if depth != 0 {
                return Err(Error::new(ErrorKind::InvalidOperation, "ValueError: incomplete format key"));
            }
            if mapping.kind() != ValueKind::Map {
                return Err(type_error("format requires a mapping"));
            }
            keyed = Some(mapping.get_item(&Value::from(key.clone())).ok().filter(|v| !v.is_undefined()).ok_or_else(|| {
                Error::new(ErrorKind::InvalidOperation, format!("KeyError: {}", crate::py::repr_str(&key)))
            })?);
        }
        let mut flags = String::new();
        while let Some(&f) = chars.peek().filter(|f| "-+ 0#".contains(**f)) {
            flags.push(f);
            chars.next();
        }
        let mut number = |chars: &mut std::iter::Peekable<std::str::Chars>| -> Result<Option<usize>, Error> {
            if chars.peek() == Some(&'*') {
                chars.next();
                let v = next.next().ok_or_else(|| type_error("not enough arguments for format string"))?;
                return within_bound(usize::try_from(v.as_i64().unwrap_or(0)).unwrap_or(0)).map(Some);
            }
            let mut digits = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(d);
                chars.next();
            }
            if digits.is_empty() {
                return Ok(None);
            }
            within_bound(digits.parse::<usize>().unwrap_or(usize::MAX)).map(Some)
        };
        let width = number(&mut chars)?;
        let precision = if chars.peek() == Some(&'.') {
            chars.next();
            Some(number(&mut chars)?.unwrap_or(0))
        } else {
            None
        };
        while matches!(chars.peek(), Some('h' | 'l' | 'L')) {
            chars.next();
        }
        let conv = chars.next().ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "ValueError: incomplete format"))?;
        if conv == '%' {
            out.push('%');
            continue;
        }
        let arg = match &keyed {
            Some(v) => v,
            None => next.next().ok_or_else(|| type_error("not enough arguments for format string"))?,
        };
        let number_of = |v: &Value| -> Result<f64, Error> {
            match v.kind() {
                ValueKind::Number | ValueKind::Bool => f64::try_from(v.clone()).map_err(|_| type_error("a real number is required")),
                _ => Err(type_error(&format!("%{conv} format: a real number is required, not {}", py_type(v)))),
            }
        };
        let body = match conv {
            's' => py_str(arg),
            'r' | 'a' => py_repr(arg),
            'd' | 'i' | 'u' => {
                let f = number_of(arg)?;
                let i = f.trunc();
                let s = if i.abs() < 1e18 { format!("{}", i as i64) } else { format!("{i:.0}") };
                sign(&flags, s)
            }
            'f' | 'F' => sign(&flags, format!("{:.*}", precision.unwrap_or(6), number_of(arg)?)),
            'e' | 'E' => {
                let s = python_exp(number_of(arg)?, precision.unwrap_or(6));
                sign(&flags, if conv == 'E' { s.to_uppercase() } else { s })
            }
            'x' | 'X' | 'o' => {
                let f = number_of(arg)?;
                if f.fract() != 0.0 {
                    return Err(type_error(&format!("%{conv} format: an integer is required")));
                }
                let i = f as i64;
                let (neg, m) = (i < 0, i.unsigned_abs());
                let mut s = match conv {
                    'x' => format!("{m:x}"),
                    'X' => format!("{m:X}"),
                    _ => format!("{m:o}"),
                };
                if flags.contains('#') {
                    s = format!("{}{s}", match conv { 'x' => "0x", 'X' => "0X", _ => "0o" });
                }
                sign(&flags, if neg { format!("-{s}") } else { s })
            }
            'c' => match (arg.as_str(), arg.as_i64()) {
                (Some(s), _) if s.chars().count() == 1 => s.to_string(),
                (_, Some(n)) => char::from_u32(u32::try_from(n).unwrap_or(u32::MAX))
                    .ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "OverflowError: %c arg not in range"))?
                    .to_string(),
                _ => return Err(type_error("%c requires an int or a unicode character")),
            },
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidOperation,
                    format!("ValueError: unsupported format character '{other}'"),
                ))
            }
        };
        let body = match (conv, precision) {
            ('s' | 'r' | 'a', Some(p)) => body.chars().take(p).collect(),
            _ => body,
        };
        out.push_str(&pad(body, width.unwrap_or(0), &flags, matches!(conv, 's' | 'r' | 'a' | 'c')));
    }
    // A mapping operand is never "not all converted" (Python checks only sequences).
    if next.next().is_some() && mapping.kind() != ValueKind::Map {
        return Err(type_error("not all arguments converted during string formatting"));
    }
    Ok(out)
}

/// Python's name of a value's type, for error messages.
/// Python's `a % b` on numbers (`bool` is an int): the remainder takes the sign of
/// the divisor; by zero it fails as Python does.
pub fn modulo(a: &Value, b: &Value) -> Result<Value, Error> {
    let int = |v: &Value| match v.kind() {
        ValueKind::Bool => Some(i128::from(v.is_true())),
        ValueKind::Number if v.is_integer() => i128::try_from(v.clone()).ok(),
        _ => None,
    };
    let float = |v: &Value| match v.kind() {
        ValueKind::Number | ValueKind::Bool => f64::try_from(v.clone()).ok().or(int(v).map(|i| i as f64)),
        _ => None,
    };
    if let (Some(x), Some(y)) = (int(a), int(b)) {
        if y == 0 {
            return Err(Error::new(ErrorKind::InvalidOperation, "ZeroDivisionError: integer modulo by zero"));
        }
        // `checked_`: i128::MIN % -1 overflows on the way to its remainder, 0.
        let r = x.checked_rem_euclid(y).unwrap_or(0);
        return Ok(Value::from(if y < 0 && r != 0 { r + y } else { r }));
    }
    match (float(a), float(b)) {
        (Some(_), Some(y)) if y == 0.0 => Err(Error::new(ErrorKind::InvalidOperation, "ZeroDivisionError: float modulo")),
        (Some(x), Some(y)) => {
            let m = x % y;
            Ok(Value::from(match m {
                m if m != 0.0 && (m < 0.0) != (y < 0.0) => m + y,
                m if m == 0.0 => 0.0f64.copysign(y),
                m => m,
            }))
        }
        _ => Err(type_error(&format!(
            "unsupported operand type(s) for %: '{}' and '{}'",
            py_type(a),
            py_type(b)
        ))),
    }
}

fn py_type(v: &Value) -> &'static str {
    match v.kind() {
        ValueKind::String => "str",
        ValueKind::Seq | ValueKind::Iterable => "list",
        ValueKind::Map => "dict",
        ValueKind::None | ValueKind::Undefined => "NoneType",
        _ => "object",
    }
}

fn sign(flags: &str, s: String) -> String {
    if s.starts_with('-') {
        s
    } else if flags.contains('+') {
        format!("+{s}")
    } else if flags.contains(' ') {
        format!(" {s}")
    } else {
        s
    }
}

/// A width or precision a format may ask for: Python builds any, agentry none longer
/// than [`MAX_TEXT`](super::python::MAX_TEXT).
fn within_bound(n: usize) -> Result<usize, Error> {
    if n > super::python::MAX_TEXT {
        return Err(super::python::too_large());
    }
    Ok(n)
}

fn pad(s: String, width: usize, flags: &str, text: bool) -> String {
    let len = s.chars().count();
    if len >= width {
        return s;
    }
    let fill = width - len;
    if flags.contains('-') {
        format!("{s}{}", " ".repeat(fill))
    } else if flags.contains('0') && !text {
        let split = s.find(|c: char| c.is_ascii_alphanumeric()).unwrap_or(0);
        format!("{}{}{}", &s[..split], "0".repeat(fill), &s[split..])
    } else {
        format!("{}{s}", " ".repeat(fill))
    }
}

/// `%e`: Rust writes `1.5e3`, Python `1.500000e+03`.
fn python_exp(f: f64, precision: usize) -> String {
    if !f.is_finite() {
        return super::py_str(&Value::from(f));
    }
    let s = format!("{f:.precision$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    format!("{mantissa}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// Jinja2's `int` filter (`do_int(value, default=0, base=10)`): `int(value, base)`
/// for a string, `int(value)` otherwise, then `int(float(value))`, then `default`.
pub fn int_filter(
    value: Value,
    default: Option<Value>,
    base: Option<u32>,
    kwargs: minijinja::value::Kwargs,
) -> Result<Value, Error> {
    let default = match kwargs.get::<Option<Value>>("default")? {
        Some(v) => v,
        None => default.unwrap_or(Value::from(0)),
    };
    let base = kwargs.get::<Option<u32>>("base")?.or(base);
    kwargs.assert_all_used()?;
    // Jinja2 falls back to the default on OverflowError too (`'inf'|int`).
    let from_float = |f: f64| -> Result<Value, Error> {
        if !f.is_finite() {
            Ok(default.clone())
        } else {
            Ok(Value::from(f.trunc() as i128))
        }
    };
    match value.kind() {
        ValueKind::String => {
            let s = value.as_str().unwrap_or_default();
            if let Some(i) = int_parse(s, base.unwrap_or(10)) {
                return Ok(Value::from(i));
            }
            match crate::py::float_parse(s) {
                Some(f) => from_float(f),
                None => Ok(default),
            }
        }
        ValueKind::Bool => Ok(Value::from(i64::from(value.is_true()))),
        ValueKind::Number => match value.as_i64() {
            Some(i) if value.is_integer() => Ok(Value::from(i)),
            _ => from_float(f64::try_from(value.clone()).unwrap_or(f64::NAN)),
        },
        _ => Ok(default),
    }
}

/// Python's `int(s, base)` for bases 0 and 2..=36: whitespace around, a sign, the
/// base's prefix, `_` between digits.
fn int_parse(s: &str, base: u32) -> Option<i128> {
    let s = s.trim_matches(crate::py::is_space);
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let prefixed = |p: &str| lower.starts_with(p);
    let zero_base = base == 0;
    let (base, digits, after_prefix) = match base {
        0 if prefixed("0x") => (16, &body[2..], true),
        0 if prefixed("0o") => (8, &body[2..], true),
        0 if prefixed("0b") => (2, &body[2..], true),
        0 => (10, body, false),
        16 if prefixed("0x") => (16, &body[2..], true),
        8 if prefixed("0o") => (8, &body[2..], true),
        2 if prefixed("0b") => (2, &body[2..], true),
        b if (2..=36).contains(&b) => (b, body, false),
        _ => return None,
    };
    let digits = if after_prefix { digits.strip_prefix('_').unwrap_or(digits) } else { digits };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    // Base 0 reads `010` as Python source would: an error, not eight or ten.
    if zero_base && !after_prefix && clean.starts_with('0') && clean.chars().any(|c| c != '0') {
        return None;
    }
    let v = i128::from_str_radix(&clean, base).ok()?;
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_style_like_python() {
        let t = |items: Vec<Value>| Value::from_object(Tuple(items));
        assert_eq!(percent_format("%s-%d", t(vec!["a".into(), 3.into()])).unwrap(), "a-3");
        assert_eq!(percent_format("%5.2f|%-3s|%03d|%x|%%", t(vec![3.14159.into(), "a".into(), 7.into(), 255.into()])).unwrap(), " 3.14|a  |007|ff|%");
        assert_eq!(percent_format("%s", Value::from(vec![1, 2])).unwrap(), "[1, 2]");
        assert!(percent_format("%s %s", Value::from(1)).is_err());
        assert!(percent_format("%s", t(vec![1.into(), 2.into()])).is_err());
        let m = Value::from_serialize(serde_json::json!({"a": 1}));
        assert_eq!(percent_format("%(a)s/%(a)03d", m.clone()).unwrap(), "1/001");
        assert!(percent_format("%(b)s", m).is_err());
        let int = |v: Value, b| int_filter(v, None, b, minijinja::value::Kwargs::from_iter(std::iter::empty::<(&str, Value)>())).unwrap().to_string();
        assert_eq!(int("0x1f".into(), Some(16)), "31");
        assert_eq!(int(" 1_000 ".into(), None), "1000");
        assert_eq!(int("3.7".into(), None), "3");
        assert_eq!(int("010".into(), Some(0)), "10");
        assert_eq!(int("x".into(), None), "0");
        assert_eq!(percent_format("%.2e", Value::from(1500.0)).unwrap(), "1.50e+03");
    }
}
