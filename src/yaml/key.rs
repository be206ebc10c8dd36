//! Python dict-key equality for constructed scalars: `1`, `1.0` and `True` are one key,
//! `0`, `0.0`, `-0.0` and `False` another; aware datetimes are equal when they denote the
//! same instant; a date never equals a datetime; NaN never equals anything.

use std::borrow::Cow;

use super::{DateTime, Value};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PyKey<'a> {
    None,
    Int(i64),
    Big(Cow<'a, str>),
    Float(u64),
    Nan(usize),
    Str(Cow<'a, str>),
    Bytes(Cow<'a, [u8]>),
    Date(super::Date),
    Naive(DateTime),
    Aware(i128),
}

impl<'a> PyKey<'a> {
    /// The key for a hashable value, borrowing its text; `None` for lists, dicts and
    /// sets (unhashable). `nan_id` keeps distinct NaN keys distinct.
    pub fn of(v: &'a Value, nan_id: usize) -> Option<PyKey<'a>> {
        Some(match v {
            Value::Null => PyKey::None,
            Value::Bool(b) => PyKey::Int(i64::from(*b)),
            Value::Int(i) => PyKey::Int(*i),
            Value::BigInt(s) => PyKey::Big(Cow::Borrowed(s)),
            Value::Float(f) if f.is_nan() && f.to_bits() == f64::NAN.to_bits() => PyKey::Nan(usize::MAX),
            Value::Float(f) if f.is_nan() => PyKey::Nan(nan_id),
            Value::Float(f) if f.is_finite() && f.fract() == 0.0 => {
                if *f >= -9.223_372_036_854_776e18 && *f < 9.223_372_036_854_776e18 {
                    PyKey::Int(*f as i64)
                } else {
                    PyKey::Big(Cow::Owned(crate::pyscalar::num::integral_float_decimal(*f)))
                }
            }
            Value::Float(f) => PyKey::Float(f.to_bits()),
            Value::Str(s) => PyKey::Str(Cow::Borrowed(s)),
            Value::Bytes(b) => PyKey::Bytes(Cow::Borrowed(b)),
            Value::Date(d) => PyKey::Date(*d),
            Value::DateTime(dt) => match dt.offset_minutes {
                None => PyKey::Naive(*dt),
                Some(off) => {
                    let (y, m, d) = (dt.date.year.into(), dt.date.month.into(), dt.date.day.into());
                    let days = crate::pyscalar::calendar::days_from_civil(y, m, d) as i128;
                    let secs =
                        days * 86_400 + i128::from(dt.hour) * 3600 + i128::from(dt.minute) * 60 + i128::from(dt.second)
                            - i128::from(off) * 60;
                    PyKey::Aware(secs * 1_000_000 + i128::from(dt.micros))
                }
            },
            Value::Seq(_) | Value::Map(_) | Value::Set(_) => return None,
        })
    }

    /// An owned copy, for keys kept in a hash index.
    pub fn into_owned(self) -> PyKey<'static> {
        match self {
            PyKey::None => PyKey::None,
            PyKey::Int(i) => PyKey::Int(i),
            PyKey::Big(s) => PyKey::Big(Cow::Owned(s.into_owned())),
            PyKey::Float(f) => PyKey::Float(f),
            PyKey::Nan(n) => PyKey::Nan(n),
            PyKey::Str(s) => PyKey::Str(Cow::Owned(s.into_owned())),
            PyKey::Bytes(b) => PyKey::Bytes(Cow::Owned(b.into_owned())),
            PyKey::Date(d) => PyKey::Date(d),
            PyKey::Naive(d) => PyKey::Naive(d),
            PyKey::Aware(a) => PyKey::Aware(a),
        }
    }
}
