//! Python's `timedelta` as tsugite's templates meet it: the `timedelta` global
//! (`timedelta(days=7)`), `+` and `-` between datetimes and timedeltas, their
//! comparisons, and the two helpers built on them (`humanize_relative`,
//! `humanize_mtime`). A timedelta is a count of microseconds within Python's range
//! (±999 999 999 days); a result outside it, or a datetime outside years 1–9999, is
//! Python's `OverflowError`.

use std::cmp::Ordering;
use std::sync::Arc;

use minijinja::value::{DynObject, Kwargs, Object, ObjectRepr, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};

use super::clock::DateTime;

const MICROS_PER_DAY: i128 = 86_400_000_000;
const MAX_DAYS: i128 = 999_999_999;
/// Python's `datetime` range, years 1 to 9999, in seconds since the epoch.
const DATETIME_SECS: std::ops::RangeInclusive<i64> = -62_135_596_800..=253_402_300_799;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimeDelta {
    pub micros: i128,
}

fn overflow(what: &str) -> Error {
    Error::new(ErrorKind::InvalidOperation, format!("OverflowError: {what}"))
}

impl TimeDelta {
    fn checked(micros: i128) -> Result<TimeDelta, Error> {
        if micros.div_euclid(MICROS_PER_DAY).abs() > MAX_DAYS {
            return Err(overflow("days out of range"));
        }
        Ok(TimeDelta { micros })
    }

    fn days(&self) -> i128 {
        self.micros.div_euclid(MICROS_PER_DAY)
    }

    fn seconds(&self) -> i128 {
        self.micros.rem_euclid(MICROS_PER_DAY) / 1_000_000
    }

    fn subsec(&self) -> i128 {
        self.micros.rem_euclid(1_000_000)
    }

    /// `timedelta.total_seconds()`.
    pub fn total_seconds(&self) -> f64 {
        self.micros as f64 / 1e6
    }
}

impl std::fmt::Display for TimeDelta {
    /// `str(timedelta)`: `[D day[s], ]H:MM:SS[.ffffff]`, days floored.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let days = self.days();
        if days != 0 {
            write!(f, "{days} day{}, ", if days.abs() != 1 { "s" } else { "" })?;
        }
        let secs = self.seconds();
        write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
        if self.subsec() != 0 {
            write!(f, ".{:06}", self.subsec())?;
        }
        Ok(())
    }
}

impl Object for TimeDelta {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match key.as_str()? {
            "days" => Some(Value::from(self.days() as i64)),
            "seconds" => Some(Value::from(self.seconds() as i64)),
            "microseconds" => Some(Value::from(self.subsec() as i64)),
            _ => None,
        }
    }

    fn call_method(self: &Arc<Self>, _: &State<'_, '_>, method: &str, _: &[Value]) -> Result<Value, Error> {
        match method {
            "total_seconds" => Ok(Value::from(self.total_seconds())),
            _ => Err(Error::new(
                ErrorKind::UnknownMethod,
                format!("'datetime.timedelta' object has no attribute '{method}'"),
            )),
        }
    }

    fn custom_cmp(self: &Arc<Self>, other: &DynObject) -> Option<Ordering> {
        Some(self.micros.cmp(&other.downcast_ref::<Self>()?.micros))
    }

    fn is_true(self: &Arc<Self>) -> bool {
        self.micros != 0
    }

    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&**self, f)
    }
}

/// A number argument of the constructor, in microseconds per `unit`.
fn part(v: &Value, unit: i128) -> Result<Part, Error> {
    match v.kind() {
        ValueKind::Number | ValueKind::Bool => {}
        _ => {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("TypeError: unsupported type for timedelta component: {}", v.kind()),
            ))
        }
    }
    if let Ok(i) = i128::try_from(v.clone()) {
        return i.checked_mul(unit).map(Part::Exact).ok_or_else(|| overflow("days out of range"));
    }
    let f = f64::try_from(v.clone()).map_err(|_| overflow("days out of range"))?;
    if !f.is_finite() {
        return Err(Error::new(ErrorKind::InvalidOperation, "ValueError: cannot convert float NaN or infinity to integer"));
    }
    Ok(Part::Float(f * unit as f64))
}

enum Part {
    Exact(i128),
    Float(f64),
}

/// The `timedelta(days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0,
/// hours=0, weeks=0)` constructor; fractions are rounded half to even at the
/// microsecond, as Python does.
pub fn construct(args: &[Value]) -> Result<Value, Error> {
    const NAMES: [(&str, i128); 7] = [
        ("days", MICROS_PER_DAY),
        ("seconds", 1_000_000),
        ("microseconds", 1),
        ("milliseconds", 1_000),
        ("minutes", 60_000_000),
        ("hours", 3_600_000_000),
        ("weeks", 7 * MICROS_PER_DAY),
    ];
    let (positional, kwargs): (&[Value], Option<Kwargs>) = match args.split_last() {
        Some((last, rest)) if last.is_kwargs() => (rest, Kwargs::try_from(last.clone()).ok()),
        _ => (args, None),
    };
    if positional.len() > NAMES.len() {
        return Err(Error::new(ErrorKind::TooManyArguments, "timedelta takes at most 7 arguments"));
    }
    let mut exact: i128 = 0;
    let mut fraction = 0.0f64;
    let mut add = |p: Part| -> Result<(), Error> {
        match p {
            Part::Exact(i) => exact = exact.checked_add(i).ok_or_else(|| overflow("days out of range"))?,
            Part::Float(f) => fraction += f,
        }
        Ok(())
    };
    for (v, (_, unit)) in positional.iter().zip(NAMES) {
        add(part(v, unit)?)?;
    }
    if let Some(kwargs) = kwargs {
        for (i, (name, unit)) in NAMES.iter().enumerate() {
            if let Some(v) = kwargs.get::<Option<Value>>(name)? {
                if i < positional.len() {
                    return Err(Error::new(
                        ErrorKind::InvalidOperation,
                        format!("TypeError: argument for timedelta given by name ('{name}') and position"),
                    ));
                }
                add(part(&v, *unit)?)?;
            }
        }
        kwargs.assert_all_used()?;
    }
    if fraction.abs() > (MAX_DAYS as f64 + 1.0) * MICROS_PER_DAY as f64 {
        return Err(overflow("days out of range"));
    }
    let rounded = fraction.round_ties_even() as i128;
    let total = exact.checked_add(rounded).ok_or_else(|| overflow("days out of range"))?;
    Ok(Value::from_object(TimeDelta::checked(total)?))
}

fn micros_of(d: &DateTime) -> i128 {
    d.secs as i128 * 1_000_000 + d.micros as i128
}

fn datetime_at(micros: i128, aware: bool) -> Result<DateTime, Error> {
    let secs = micros.div_euclid(1_000_000);
    let secs = i64::try_from(secs).ok().filter(|s| DATETIME_SECS.contains(s)).ok_or_else(|| overflow("date value out of range"))?;
    Ok(DateTime { secs, micros: micros.rem_euclid(1_000_000) as u32, aware })
}

/// `dt - dt`: both naive or both aware, else Python's `TypeError`.
pub fn between(later: &DateTime, earlier: &DateTime) -> Result<TimeDelta, Error> {
    if later.aware != earlier.aware {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "TypeError: can't subtract offset-naive and offset-aware datetimes",
        ));
    }
    TimeDelta::checked(micros_of(later) - micros_of(earlier))
}

/// `left + right` or `left - right` where one side is a datetime or a timedelta;
/// `None` when neither is (the ordinary operator applies).
pub fn arithmetic(left: &Value, right: &Value, subtract: bool) -> Option<Result<Value, Error>> {
    let (ld, rd) = (left.downcast_object_ref::<DateTime>(), right.downcast_object_ref::<DateTime>());
    let (lt, rt) = (left.downcast_object_ref::<TimeDelta>(), right.downcast_object_ref::<TimeDelta>());
    if ld.is_none() && rd.is_none() && lt.is_none() && rt.is_none() {
        return None;
    }
    let sign = if subtract { -1 } else { 1 };
    let result = match (ld, lt, rd, rt) {
        (Some(d), _, _, Some(t)) => datetime_at(micros_of(d) + sign * t.micros, d.aware).map(Value::from_object),
        (_, Some(t), Some(d), _) if !subtract => datetime_at(micros_of(d) + t.micros, d.aware).map(Value::from_object),
        (_, Some(a), _, Some(b)) => TimeDelta::checked(a.micros + sign * b.micros).map(Value::from_object),
        (Some(a), _, Some(b), _) if subtract => between(a, b).map(Value::from_object),
        _ => Err(Error::new(
            ErrorKind::InvalidOperation,
            format!(
                "TypeError: unsupported operand type(s) for {}: '{}' and '{}'",
                if subtract { "-" } else { "+" },
                type_name(left),
                type_name(right)
            ),
        )),
    };
    Some(result)
}

fn type_name(v: &Value) -> String {
    if v.downcast_object_ref::<DateTime>().is_some() {
        "datetime.datetime".into()
    } else if v.downcast_object_ref::<TimeDelta>().is_some() {
        "datetime.timedelta".into()
    } else {
        v.kind().to_string()
    }
}

/// `humanize_relative(dt, ref)`: the coarse delta from `dt` to `ref` in words.
pub fn humanize_relative(dt: &DateTime, reference: &DateTime) -> Result<String, Error> {
    let seconds = (between(reference, dt)?.total_seconds()).trunc() as i128;
    let plural = |n: i128, unit: &str| format!("{n} {unit}{} ago", if n != 1 { "s" } else { "" });
    Ok(if seconds < 60 {
        "just now".into()
    } else if seconds / 60 < 60 {
        plural(seconds / 60, "minute")
    } else if seconds / 3600 < 24 {
        plural(seconds / 3600, "hour")
    } else if seconds / 86_400 < 7 {
        plural(seconds / 86_400, "day")
    } else if seconds / 86_400 < 30 {
        plural(seconds / 86_400 / 7, "week")
    } else if seconds / 86_400 < 365 {
        plural(seconds / 86_400 / 30, "month")
    } else {
        plural(seconds / 86_400 / 365, "year")
    })
}

/// `humanize_mtime(epoch)`: `""` for a false value or one `float()` refuses (or a
/// time outside the calendar), else the delta from that moment to `now` in words.
pub fn humanize_mtime(epoch: &Value, now: &DateTime) -> Result<String, Error> {
    if !epoch.is_true() {
        return Ok(String::new());
    }
    let seconds = match epoch.kind() {
        ValueKind::Number | ValueKind::Bool => f64::try_from(epoch.clone()).ok(),
        ValueKind::String => epoch.as_str().and_then(crate::py::float_parse),
        _ => None,
    };
    let Some(seconds) = seconds.filter(|s| !s.is_nan()) else { return Ok(String::new()) };
    if seconds.is_infinite() {
        return Err(overflow("cannot convert float infinity to integer"));
    }
    if !(DATETIME_SECS.start().to_owned() as f64..=*DATETIME_SECS.end() as f64).contains(&seconds) {
        return Ok(String::new());
    }
    let micros = (seconds * 1e6).round_ties_even() as i128;
    let then = datetime_at(micros, true)?;
    humanize_relative(&then, &DateTime { aware: true, ..*now })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn td(args: Vec<Value>) -> String {
        construct(&args).map(|v| v.to_string()).unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn printed_as_python_prints_it() {
        let kw = |k: &str, v: Value| Value::from(Kwargs::from_iter([(k.to_string(), v)]));
        assert_eq!(td(vec![kw("days", Value::from(1))]), "1 day, 0:00:00");
        assert_eq!(td(vec![kw("seconds", Value::from(-1))]), "-1 day, 23:59:59");
        assert_eq!(td(vec![kw("days", Value::from(1.5))]), "1 day, 12:00:00");
        assert_eq!(td(vec![kw("milliseconds", Value::from(1500))]), "0:00:01.500000");
        assert_eq!(td(vec![Value::from(1), Value::from(2), Value::from(3)]), "1 day, 0:00:02.000003");
        assert_eq!(td(vec![]), "0:00:00");
        assert!(td(vec![kw("days", Value::from(1_000_000_000))]).contains("OverflowError"));
    }

    #[test]
    fn humanized_deltas() {
        let now = DateTime { secs: 1_736_942_400, micros: 0, aware: true };
        let ago = |s: i64| humanize_relative(&DateTime { secs: now.secs - s, ..now }, &now).unwrap_or_default();
        assert_eq!(ago(59), "just now");
        assert_eq!(ago(300), "5 minutes ago");
        assert_eq!(ago(3 * 86_400), "3 days ago");
        assert_eq!(ago(40 * 86_400), "1 month ago");
        assert_eq!(humanize_mtime(&Value::from(1_736_900_000), &now).ok().as_deref(), Some("11 hours ago"));
        assert_eq!(humanize_mtime(&Value::from("x"), &now).ok().as_deref(), Some(""));
    }
}
