//! Scalars as the `yaml` package's core schema resolves them (`schema/core`), with
//! the explicit tags Qwen Code's parser meets (`!!timestamp` and `!!binary` become
//! strings through its `sanitizeValue`).

use yaml_rust::scanner::{TScalarStyle, TokenType};

use super::js::Js;

/// A scalar as the core schema reads it.
pub fn resolve(text: &str, style: TScalarStyle, tag: Option<&TokenType>) -> Js {
    if let Some(TokenType::Tag(handle, suffix)) = tag {
        let core = if handle == "!!" { suffix.as_str() } else { "" };
        // An explicit tag resolves only by its own type's test; else the text stays
        // a string ("Unresolved tag", a warning).
        let value = plain(text);
        let fits = match (core, &value) {
            ("null", Js::Null) | ("bool", Js::Bool(_)) => true,
            ("int", Js::Num(_)) => is_core_int(text),
            ("float", Js::Num(_)) => !is_core_int(text),
            _ => false,
        };
        return match core {
            _ if fits => value,
            "timestamp" => timestamp(text).map_or_else(|| Js::Str(text.to_string()), Js::Str),
            "binary" => Js::Str(String::from_utf8_lossy(&base64(text)).into_owned()),
            _ => Js::Str(text.to_string()),
        };
    }
    if style != TScalarStyle::Plain {
        return Js::Str(text.to_string());
    }
    plain(text)
}

/// The core schema's tests for a plain scalar (`yaml`'s `schema/core`).
pub fn plain(s: &str) -> Js {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Js::Null,
        "true" | "True" | "TRUE" => return Js::Bool(true),
        "false" | "False" | "FALSE" => return Js::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Js::Num(f64::NAN),
        _ => {}
    }
    let (sign, unsigned) = match s.as_bytes().first() {
        Some(b'+') => (1.0, &s[1..]),
        Some(b'-') => (-1.0, &s[1..]),
        _ => (1.0, s),
    };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Js::Num(sign * f64::INFINITY);
    }
    let radix = |rest: &str, r: u32| {
        (!rest.is_empty() && rest.chars().all(|c| c.is_digit(r)))
            .then(|| rest.chars().fold(0.0f64, |acc, c| acc * r as f64 + c.to_digit(r).unwrap_or(0) as f64))
    };
    if let Some(v) = s.strip_prefix("0o").and_then(|r| radix(r, 8)) {
        return Js::Num(v);
    }
    if let Some(v) = s.strip_prefix("0x").and_then(|r| radix(r, 16)) {
        return Js::Num(v);
    }
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return Js::Num(sign * unsigned.parse::<f64>().unwrap_or(0.0));
    }
    if is_core_float(unsigned) {
        if let Ok(v) = unsigned.parse::<f64>() {
            return Js::Num(sign * v);
        }
    }
    Js::Str(s.to_string())
}

/// The core schema's integer forms (decimal, `0o`, `0x`).
fn is_core_int(s: &str) -> bool {
    let digits = |r: &str, radix: u32| !r.is_empty() && r.chars().all(|c| c.is_digit(radix));
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    digits(unsigned, 10) || s.strip_prefix("0o").is_some_and(|r| digits(r, 8)) || s.strip_prefix("0x").is_some_and(|r| digits(r, 16))
}


/// `!!timestamp` as `Date.toISOString()` gives it.
fn timestamp(s: &str) -> Option<String> {
    let b = s.trim().as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        (!part.is_empty() && part.iter().all(u8::is_ascii_digit)).then(|| std::str::from_utf8(part).ok()?.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let (mut h, mut mi, mut sec, mut ms, mut offset) = (0, 0, 0, 0, 0);
    if b.len() > 10 {
        let rest = std::str::from_utf8(&b[11..]).ok()?.trim_start();
        let rb = rest.as_bytes();
        let n = |r: std::ops::Range<usize>| -> Option<i64> { std::str::from_utf8(rb.get(r)?).ok()?.parse().ok() };
        let hl = if rb.get(1) == Some(&b':') { 1 } else { 2 };
        h = n(0..hl)?;
        mi = n(hl + 1..hl + 3)?;
        sec = n(hl + 4..hl + 6)?;
        let mut i = hl + 6;
        if rb.get(i) == Some(&b'.') {
            let frac: String = rest[i + 1..].chars().take_while(char::is_ascii_digit).collect();
            i += 1 + frac.len();
            ms = format!("{frac:0<3}")[..3].parse().ok()?;
        }
        let tz = rest[i..].trim_start();
        if let Some(sign) = tz.chars().next().filter(|c| *c == '+' || *c == '-') {
            let (th, tm) = tz[1..].split_once(':').unwrap_or((&tz[1..], "0"));
            let minutes = th.parse::<i64>().ok()? * 60 + tm.parse::<i64>().ok()?;
            offset = if sign == '-' { -minutes } else { minutes };
        }
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (yy, mm) = if mo <= 2 { (y - 1, mo + 9) } else { (y, mo - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    let days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
    let total = ((days * 24 + h) * 60 + mi - offset) * 60 + sec;
    Some(crate::py::calendar::js_iso_string(total * 1000 + ms))
}

/// `!!binary`: base64, white space ignored.
fn base64(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, with either a point or an exponent.
fn is_core_float(s: &str) -> bool {
    let b = s.as_bytes();
    let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = int;
    let mut point = false;
    let mut frac = 0;
    if i < b.len() && b[i] == b'.' {
        point = true;
        i += 1;
        frac = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac;
    }
    if int == 0 && frac == 0 {
        return false;
    }
    let mut exp = false;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let d = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if d == 0 {
            return false;
        }
        i += d;
        exp = true;
    }
    i == b.len() && (point || exp)
}

