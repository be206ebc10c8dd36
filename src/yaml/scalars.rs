//! Scalar constructors of PyYAML's `SafeConstructor`: `!!int`, `!!float`, `!!binary`,
//! `!!timestamp`. Errors are the Python exception text (the caller adds the position).

use super::resolver::parse_timestamp_parts;
use super::{Date, DateTime, Value};
use crate::pyscalar::num::{parse_int_radix, Big};
use crate::pyscalar::calendar;

type R = Result<Value, String>;

/// Bits of a NaN made by Python `float()` (not PyYAML's shared `.nan` object).
pub(crate) const FRESH_NAN: u64 = 0x7ff8_0000_0000_0001;

fn int_error(s: &str, base: u32) -> String {
    format!("ValueError: invalid literal for int() with base {base}: {}", crate::pyscalar::repr_str(s))
}

/// `construct_yaml_int`: `_` removed, sign, `0`, `0b…`, `0x…`, leading-`0` octal,
/// sexagesimal `a:b:c`, else decimal (each through Python `int()`).
pub(crate) fn construct_int(text: &str) -> R {
    // fast path: a plain decimal that fits (no `_`, no leading zero)
    let b = text.as_bytes();
    let digits = b.strip_prefix(b"-").or_else(|| b.strip_prefix(b"+")).unwrap_or(b);
    if !digits.is_empty()
        && digits.len() <= 18
        && digits.iter().all(u8::is_ascii_digit)
        && (digits.len() == 1 || digits[0] != b'0')
    {
        if let Ok(v) = text.parse::<i64>() {
            return Ok(Value::Int(v));
        }
    }
    let value = text.replace('_', "");
    let first = value.chars().next().ok_or("IndexError: string index out of range")?;
    let negative = first == '-';
    let value = if first == '-' || first == '+' { &value[1..] } else { &value[..] };
    let apply = |(neg, big): (bool, Big)| Value::from_big(&big, neg != negative && !big.is_zero());
    if value == "0" {
        return Ok(Value::Int(0));
    }
    if let Some(r) = value.strip_prefix("0b") {
        return parse_int_radix(r, 2).map(apply).ok_or_else(|| int_error(r, 2));
    }
    if let Some(r) = value.strip_prefix("0x") {
        return parse_int_radix(r, 16).map(apply).ok_or_else(|| int_error(r, 16));
    }
    if value.starts_with('0') {
        return parse_int_radix(value, 8).map(apply).ok_or_else(|| int_error(value, 8));
    }
    if value.contains(':') {
        // digits reversed, value += digit*base, base *= 60 — i.e. Horner from the left.
        let parts: Vec<(bool, Big)> =
            value.split(':').map(|p| parse_int_radix(p, 10).ok_or_else(|| int_error(p, 10))).collect::<Result<_, _>>()?;
        if parts.iter().all(|(neg, b)| !neg || b.is_zero()) {
            let mut acc = Big::zero();
            for (_, b) in &parts {
                acc.mul_add(60, 0);
                acc.add(b);
            }
            return Ok(Value::from_big(&acc, negative && !acc.is_zero()));
        }
        let mut acc: i128 = 0;
        for (neg, b) in &parts {
            let v: i128 = b.to_decimal().parse().map_err(|_| "OverflowError: integer too large".to_string())?;
            acc = acc
                .checked_mul(60)
                .and_then(|a| a.checked_add(if *neg { -v } else { v }))
                .ok_or("OverflowError: integer too large")?;
        }
        let acc = if negative { -acc } else { acc };
        let big = Big::from_u64(u64::try_from(acc.unsigned_abs()).map_err(|_| "OverflowError: integer too large")?);
        return Ok(Value::from_big(&big, acc < 0));
    }
    parse_int_radix(value, 10).map(apply).ok_or_else(|| int_error(value, 10))
}

/// `construct_yaml_float`: `_` removed, lower-cased, sign, `.inf`, `.nan`, sexagesimal
/// `a:b.c`, else Python `float()`.
pub(crate) fn construct_float(text: &str) -> R {
    let value = text.replace('_', "").to_lowercase();
    let first = value.chars().next().ok_or("IndexError: string index out of range")?;
    let sign = if first == '-' { -1.0 } else { 1.0 };
    let value = if first == '-' || first == '+' { &value[1..] } else { &value[..] };
    let bad = |s: &str| format!("ValueError: could not convert string to float: {}", crate::pyscalar::repr_str(s));
    if value == ".inf" {
        return Ok(Value::Float(sign * f64::INFINITY));
    }
    if value == ".nan" {
        return Ok(Value::Float(f64::NAN));
    }
    if value.contains(':') {
        let digits: Vec<f64> =
            value.split(':').map(|p| crate::pyscalar::float_parse(p).ok_or_else(|| bad(p))).collect::<Result<_, _>>()?;
        let (mut base, mut acc) = (1.0f64, 0.0f64);
        for d in digits.iter().rev() {
            acc += d * base;
            base *= 60.0;
        }
        return Ok(Value::Float(sign * acc));
    }
    // `.nan` is PyYAML's one shared `nan_value` object (equal to itself as a dict key);
    // `float("nan")` makes a new object each time: mark it with another NaN payload.
    crate::pyscalar::float_parse(value)
        .map(|f| Value::Float(if f.is_nan() { f64::from_bits(FRESH_NAN) } else { sign * f }))
        .ok_or_else(|| bad(value))
}

/// `construct_yaml_binary`: ASCII only, then `base64.decodebytes` (non-alphabet
/// characters skipped, padding checked like binascii).
pub(crate) fn construct_binary(text: &str) -> R {
    if let Some(start) = text.chars().position(|c| !c.is_ascii()) {
        let run = text.chars().skip(start).take_while(|c| !c.is_ascii()).count();
        let first = text.chars().nth(start).unwrap_or('?');
        let what = if run == 1 {
            let cp = first as u32;
            let esc = match cp {
                0..=0xff => format!("\\x{cp:02x}"),
                0x100..=0xffff => format!("\\u{cp:04x}"),
                _ => format!("\\U{cp:08x}"),
            };
            format!("character '{esc}' in position {start}")
        } else {
            format!("characters in position {start}-{}", start + run - 1)
        };
        return Err(format!(
            "failed to convert base64 data into ascii: 'ascii' codec can't encode {what}: ordinal not in range(128)"
        ));
    }
    let mut out = Vec::new();
    let (mut quad, mut left, mut pads) = (0u8, 0u32, 0u8);
    for c in text.bytes() {
        if c == b'=' {
            if quad >= 2 {
                pads += 1;
                if quad + pads >= 4 {
                    return Ok(Value::Bytes(out));
                }
            }
            continue;
        }
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        } as u32;
        pads = 0;
        match quad {
            0 => {
                left = v;
                quad = 1;
            }
            1 => {
                out.push(((left << 2) | (v >> 4)) as u8);
                left = v & 0x0f;
                quad = 2;
            }
            2 => {
                out.push(((left << 4) | (v >> 2)) as u8);
                left = v & 0x03;
                quad = 3;
            }
            _ => {
                out.push(((left << 6) | v) as u8);
                quad = 0;
            }
        }
    }
    match quad {
        0 => Ok(Value::Bytes(out)),
        1 => Err(format!(
            "failed to decode base64 data: Invalid base64-encoded string: number of data characters ({}) cannot be 1 more than a multiple of 4",
            out.len() / 3 * 4 + 1
        )),
        _ => Err("failed to decode base64 data: Incorrect padding".to_string()),
    }
}

/// `construct_yaml_timestamp`: a `datetime.date`, or a `datetime.datetime` (fraction cut
/// to 6 digits, `Z` → UTC, `±HH[:MM]` → fixed offset), validated like Python's datetime.
pub(crate) fn construct_timestamp(text: &str) -> R {
    let parts = parse_timestamp_parts(text, false)
        .or_else(|| text.strip_suffix('\n').and_then(|t| parse_timestamp_parts(t, false)))
        .ok_or("AttributeError: 'NoneType' object has no attribute 'groupdict'")?;
    let num = |s: &str| s.parse::<i32>().unwrap_or(0);
    let year = num(parts.year);
    let month = num(parts.month);
    let day = num(parts.day);
    if !(1..=9999).contains(&year) {
        return Err(format!("ValueError: year {year} is out of range"));
    }
    if !(1..=12).contains(&month) {
        return Err("ValueError: month must be in 1..12".to_string());
    }
    // A day past the month's end comes back from the calendar in the next month.
    let ymd = (i64::from(year), month as u32, day as u32);
    if day < 1 || calendar::civil_from_days(calendar::days_from_civil(ymd.0, ymd.1, ymd.2)) != ymd {
        return Err("ValueError: day is out of range for month".to_string());
    }
    let date = Date { year, month: month as u8, day: day as u8 };
    let Some(hour) = parts.hour else { return Ok(Value::Date(date)) };
    let (hour, minute, second) = (num(hour), num(parts.minute), num(parts.second));
    if hour > 23 {
        return Err("ValueError: hour must be in 0..23".to_string());
    }
    if minute > 59 {
        return Err("ValueError: minute must be in 0..59".to_string());
    }
    if second > 59 {
        return Err("ValueError: second must be in 0..59".to_string());
    }
    let micros = match parts.fraction {
        Some(f) if !f.is_empty() => {
            let mut f: String = f.chars().take(6).collect();
            while f.len() < 6 {
                f.push('0');
            }
            f.parse::<u32>().unwrap_or(0)
        }
        _ => 0,
    };
    let offset_minutes = match parts.tz {
        Some((sign, h, m)) => {
            let total = num(h) * 60 + m.map_or(0, num);
            if total >= 24 * 60 {
                let secs = i64::from(if sign == '-' { -total } else { total }) * 60;
                return Err(format!(
                    "ValueError: offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not {}.",
                    crate::pyscalar::timedelta_repr(secs)
                ));
            }
            Some(if sign == '-' { -total } else { total })
        }
        None if parts.tz_z => Some(0),
        None => None,
    };
    Ok(Value::DateTime(DateTime {
        date,
        hour: hour as u8,
        minute: minute as u8,
        second: second as u8,
        micros,
        offset_minutes,
    }))
}
