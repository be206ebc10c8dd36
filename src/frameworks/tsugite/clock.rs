//! The clock of tsugite's template helpers: Python `datetime` values as far as agent
//! templates use them (`isoformat`, `strftime`, `weekday`, `fromisoformat`), in UTC,
//! from a time given by the caller (the export's fixed clock or the real one).

use std::fmt::Write as _;
use std::sync::Arc;

use minijinja::value::{Object, ObjectRepr, Value};
use minijinja::{Error, ErrorKind, State};

use super::jinja::arg_str;

/// A calendar datetime in UTC (what `days_ago` returns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DateTime {
    pub secs: i64,
    pub micros: u32,
    /// Printed with `+00:00` (an aware datetime) or without (a naive one).
    pub aware: bool,
}

use crate::py::calendar::civil_from_days as civil;

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl DateTime {
    fn parts(&self) -> (i64, u32, u32, i64, i64, i64) {
        let days = self.secs.div_euclid(86_400);
        let rem = self.secs.rem_euclid(86_400);
        let (y, m, d) = civil(days);
        (y, m, d, rem / 3600, rem / 60 % 60, rem % 60)
    }

    /// Monday = 0, as Python's `weekday()`.
    pub fn weekday(&self) -> i64 {
        (self.secs.div_euclid(86_400) + 3).rem_euclid(7)
    }

    pub fn isoformat(&self, sep: char) -> String {
        let (y, m, d, hh, mm, ss) = self.parts();
        let mut s = format!("{y:04}-{m:02}-{d:02}{sep}{hh:02}:{mm:02}:{ss:02}");
        if self.micros != 0 {
            let _ = write!(s, ".{:06}", self.micros);
        }
        if self.aware {
            s.push_str("+00:00");
        }
        s
    }

    /// `strftime` for the directives agent templates use.
    pub fn strftime(&self, fmt: &str) -> String {
        let (y, m, d, hh, mm, ss) = self.parts();
        let mut out = String::new();
        let mut chars = fmt.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('Y') => {
                    let _ = write!(out, "{y:04}");
                }
                Some('y') => {
                    let _ = write!(out, "{:02}", y.rem_euclid(100));
                }
                Some('m') => {
                    let _ = write!(out, "{m:02}");
                }
                Some('d') => {
                    let _ = write!(out, "{d:02}");
                }
                Some('H') => {
                    let _ = write!(out, "{hh:02}");
                }
                Some('I') => {
                    let _ = write!(out, "{:02}", if hh % 12 == 0 { 12 } else { hh % 12 });
                }
                Some('p') => out.push_str(if hh < 12 { "AM" } else { "PM" }),
                Some('M') => {
                    let _ = write!(out, "{mm:02}");
                }
                Some('S') => {
                    let _ = write!(out, "{ss:02}");
                }
                Some('f') => {
                    let _ = write!(out, "{:06}", self.micros);
                }
                Some('A') => out.push_str(DAYS[self.weekday() as usize]),
                Some('a') => out.push_str(&DAYS[self.weekday() as usize][..3]),
                Some('B') => out.push_str(MONTHS[(m - 1) as usize]),
                Some('b') => out.push_str(&MONTHS[(m - 1) as usize][..3]),
                Some('j') => {
                    let jan1 = DateTime {
                        secs: self.secs
                            - ((self.secs.div_euclid(86_400) - days_from_civil(y, 1, 1)) * 86_400),
                        ..*self
                    };
                    let _ = write!(
                        out,
                        "{:03}",
                        (self.secs.div_euclid(86_400) - jan1.secs.div_euclid(86_400)) + 1
                    );
                }
                Some('Z') => out.push_str(if self.aware { "UTC" } else { "" }),
                Some('z') => out.push_str(if self.aware { "+0000" } else { "" }),
                Some('%') => out.push('%'),
                Some(other) => {
                    out.push('%');
                    out.push(other);
                }
                None => out.push('%'),
            }
        }
        out
    }
}

pub use crate::py::calendar::days_from_civil;

impl std::fmt::Display for DateTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.isoformat(' '))
    }
}

impl Object for DateTime {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn call_method(
        self: &Arc<Self>,
        _: &State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        match method {
            "strftime" => Ok(Value::from(self.strftime(&arg_str(args, 0)?))),
            "isoformat" => Ok(Value::from(self.isoformat('T'))),
            "weekday" => Ok(Value::from(self.weekday())),
            "timestamp" => Ok(Value::from(self.secs as f64 + self.micros as f64 / 1e6)),
            _ => Err(Error::new(
                ErrorKind::UnknownMethod,
                format!("datetime has no method {method}"),
            )),
        }
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let (y, m, d, hh, mm, ss) = self.parts();
        match key.as_str()? {
            "year" => Some(Value::from(y)),
            "month" => Some(Value::from(m)),
            "day" => Some(Value::from(d)),
            "hour" => Some(Value::from(hh)),
            "minute" => Some(Value::from(mm)),
            "second" => Some(Value::from(ss)),
            _ => None,
        }
    }

    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&**self, f)
    }

    fn custom_cmp(self: &Arc<Self>, other: &minijinja::value::DynObject) -> Option<std::cmp::Ordering> {
        let other = other.downcast_ref::<Self>()?;
        Some((self.secs, self.micros).cmp(&(other.secs, other.micros)))
    }
}

/// `datetime.fromisoformat` for `YYYY-MM-DD[( |T)HH:MM[:SS]]`.
pub fn parse_iso(text: &str) -> Option<DateTime> {
    let num = |s: &str| s.parse::<i64>().ok();
    let (date, time) = match text.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (text, None),
    };
    let mut dp = date.split('-');
    let (y, m, d) = (num(dp.next()?)?, num(dp.next()?)?, num(dp.next()?)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let mut secs = days_from_civil(y, m as u32, d as u32) * 86_400;
    if let Some(t) = time {
        let t = t.split(['+', 'Z']).next()?;
        let mut tp = t.split(':');
        secs += num(tp.next()?)? * 3600 + tp.next().and_then(num).unwrap_or(0) * 60;
        secs += tp
            .next()
            .and_then(|s| s.split('.').next())
            .and_then(num)
            .unwrap_or(0);
    }
    Some(DateTime {
        secs,
        micros: 0,
        aware: false,
    })
}

/// The `datetime` class the package exposes as a template global, as far as
/// templates call it: `datetime.now()`, `datetime.utcnow()`, `datetime.today()`
/// (naive, the caller's clock) and `datetime.fromisoformat(text)`.
#[derive(Debug)]
pub struct DatetimeClass {
    pub now: DateTime,
}

impl Object for DatetimeClass {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn call_method(
        self: &Arc<Self>,
        _: &State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        match method {
            "now" | "utcnow" | "today" => {
                crate::discover::untracked_access();
                Ok(Value::from_object(self.now))
            }
            "fromisoformat" => {
                let text = arg_str(args, 0)?;
                parse_iso(&text).map(Value::from_object).ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidOperation,
                        format!("Invalid isoformat string: {text:?}"),
                    )
                })
            }
            _ => Err(Error::new(
                ErrorKind::UnknownMethod,
                format!("type object 'datetime' has no attribute '{method}'"),
            )),
        }
    }

    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<class 'datetime.datetime'>")
    }
}
