//! Python's `str()` and `repr()` of the values PyYAML builds, and the date/time text
//! forms (`isoformat()`, `str(datetime)`).

use super::num::float_repr;
use super::unprintable::UNPRINTABLE;
use crate::yaml::{Date, DateTime, Node, Value};

/// Python `str.isprintable()` for one character.
pub fn is_printable(c: char) -> bool {
    let cp = c as u32;
    UNPRINTABLE
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_err()
}

/// Python `repr(str)`: single quotes unless the text has `'` and no `"`; `\\`, the quote,
/// `\t` `\n` `\r` escaped; other non-printable characters as `\xhh`, `\uhhhh` or
/// `\Uhhhhhhhh`; printable non-ASCII kept as is.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if is_printable(c) => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// Python `repr(bytes)`: `b'..'`, quoting like `repr(str)`, bytes outside printable
/// ASCII as `\xhh`.
pub fn repr_bytes(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { b'"' } else { b'\'' };
    let mut out = String::from("b");
    out.push(quote as char);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c as char);
            }
            b' '..=b'~' => out.push(c as char),
            c => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push(quote as char);
    out
}

/// `date.isoformat()` = `str(date)`: `2024-05-06`.
pub fn date_iso(d: &Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
}

/// `datetime.isoformat(sep)`: `str()` uses `' '`, `isoformat()` uses `'T'`;
/// microseconds only when non-zero; `+HH:MM` for aware values.
pub fn datetime_iso(dt: &DateTime, sep: char) -> String {
    let mut s = format!("{}{sep}{:02}:{:02}:{:02}", date_iso(&dt.date), dt.hour, dt.minute, dt.second);
    if dt.micros != 0 {
        s.push_str(&format!(".{:06}", dt.micros));
    }
    if let Some(off) = dt.offset_minutes {
        let sign = if off < 0 { '-' } else { '+' };
        s.push_str(&format!("{sign}{:02}:{:02}", off.abs() / 60, off.abs() % 60));
    }
    s
}

fn repr_datetime(dt: &DateTime) -> String {
    let d = &dt.date;
    let mut s = format!("datetime.datetime({}, {}, {}, {}, {}", d.year, d.month, d.day, dt.hour, dt.minute);
    if dt.micros != 0 {
        s.push_str(&format!(", {}, {}", dt.second, dt.micros));
    } else if dt.second != 0 {
        s.push_str(&format!(", {}", dt.second));
    }
    match dt.offset_minutes {
        None => {}
        Some(0) => s.push_str(", tzinfo=datetime.timezone.utc"),
        Some(m) => s.push_str(&format!(", tzinfo=datetime.timezone({})", timedelta_repr(i64::from(m) * 60))),
    }
    s.push(')');
    s
}

/// Python `repr(datetime.timedelta(seconds=secs))`: `datetime.timedelta(days=-1,
/// seconds=82800)`, `datetime.timedelta(0)`.
pub fn timedelta_repr(secs: i64) -> String {
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let mut parts = Vec::new();
    if days != 0 {
        parts.push(format!("days={days}"));
    }
    if rest != 0 {
        parts.push(format!("seconds={rest}"));
    }
    if parts.is_empty() {
        parts.push("0".to_string());
    }
    format!("datetime.timedelta({})", parts.join(", "))
}

fn join(items: &[Node]) -> String {
    items.iter().map(|n| repr(&n.value)).collect::<Vec<_>>().join(", ")
}

/// Python `repr()` of a value: `'x'`, `1.5`, `True`, `None`, `['a', 1]`, `{'a': 1}`,
/// `{'a'}` / `set()`, `b'..'`, `datetime.date(2024, 5, 6)`,
/// `datetime.datetime(2024, 2, 29, 8, 15[, s[, us]][, tzinfo=…])`.
/// `!!omap`/`!!pairs` tuples are lists here, so they print as `['k', 'v']`, not `('k', 'v')`.
pub fn repr(v: &Value) -> String {
    match v {
        Value::Null => "None".to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::Int(i) => i.to_string(),
        Value::BigInt(s) => s.clone(),
        Value::Float(f) => float_repr(*f),
        Value::Str(s) => repr_str(s),
        Value::Bytes(b) => repr_bytes(b),
        Value::Date(d) => format!("datetime.date({}, {}, {})", d.year, d.month, d.day),
        Value::DateTime(dt) => repr_datetime(dt),
        Value::Seq(items) => format!("[{}]", join(items)),
        Value::Set(items) if items.is_empty() => "set()".to_string(),
        Value::Set(items) => format!("{{{}}}", join(items)),
        Value::Map(m) => {
            let parts: Vec<String> =
                m.entries.iter().map(|(k, v)| format!("{}: {}", repr(&k.value), repr(&v.value))).collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Python `str()` of a value: strings unchanged, dates as `2024-05-06`, datetimes as
/// `2024-02-29 08:15:00[.ffffff][+00:00]`, everything else as [`repr`] (`None`, `True`,
/// float repr, big ints exact, `b'..'`, containers with their items' reprs).
pub fn str_of(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        Value::Date(d) => date_iso(d),
        Value::DateTime(dt) => datetime_iso(dt, ' '),
        other => repr(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_repr() {
        assert_eq!(repr_str("x"), "'x'");
        assert_eq!(repr_str("it's"), "\"it's\"");
        assert_eq!(repr_str("it's \"q\""), "'it\\'s \"q\"'");
        assert_eq!(repr_str("a\nb\t\\\x01\x7f"), "'a\\nb\\t\\\\\\x01\\x7f'");
        assert_eq!(repr_str("é€😀\u{85}\u{a0}\u{200b}\u{feff}"), "'é€😀\\x85\\xa0\\u200b\\ufeff'");
        assert_eq!(repr_bytes(b"a'\x00\xff"), "b\"a'\\x00\\xff\"");
    }
}
