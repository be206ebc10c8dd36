//! Python's `str()` and `repr()` of the values PyYAML builds, and the date/time text
//! forms (`isoformat()`, `str(datetime)`). `crate::py` shows them to the frameworks.

use super::{Date, DateTime, Node, Value};
use crate::pyscalar::{float_repr, repr_bytes, repr_str, timedelta_repr};

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
