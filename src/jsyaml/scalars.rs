//! A scalar's value: its tag's type, or for a plain one js-yaml's implicit types in
//! order (null, bool, int, float, timestamp); anything else is a string.

use std::sync::LazyLock;

use regex::Regex;
use yaml_rust::scanner::{TScalarStyle, TokenType};

use super::{Js, Version};
use crate::pyscalar::calendar;

pub fn resolve(text: String, style: TScalarStyle, tag: Option<&TokenType>, version: Version) -> Result<Js, String> {
    let Some(TokenType::Tag(handle, suffix)) = tag else {
        if style != TScalarStyle::Plain {
            return Ok(Js::Str(text));
        }
        return Ok(if is_null(&text) {
            Js::Null
        } else if let Some(b) = bool_of(&text) {
            Js::Bool(b)
        } else if let Some(n) = int_of(&text, version).or_else(|| float_of(&text, version)) {
            Js::Num(n)
        } else if is_timestamp(&text, version) {
            Js::Date(text)
        } else {
            Js::Str(text)
        });
    };
    let name = match handle.as_str() {
        "!!" => format!("tag:yaml.org,2002:{suffix}"),
        // The non-specific tag: a string.
        "!" if suffix.is_empty() => return Ok(Js::Str(text)),
        h => format!("{h}{suffix}"),
    };
    let resolved = match name.strip_prefix("tag:yaml.org,2002:") {
        Some("str") => Some(Js::Str(text)),
        Some("null") => is_null(&text).then_some(Js::Null),
        Some("bool") => bool_of(&text).map(Js::Bool),
        Some("int") => int_of(&text, version).map(Js::Num),
        Some("float") => float_of(&text, version).map(Js::Num),
        Some("timestamp") => is_timestamp(&text, version).then_some(Js::Date(text)),
        // agentry's js-yaml 3 reading has no `!!binary` (gray-matter hands OpenCode a
        // Buffer, whose JSON is not yet emulated): an unknown tag there.
        Some("binary") if version == Version::V4 => binary(&text),
        _ => return Err(format!("unknown tag !<{name}>")),
    };
    resolved.ok_or_else(|| format!("cannot resolve a node with !<{name}> explicit tag"))
}

fn is_null(t: &str) -> bool {
    matches!(t, "" | "~" | "null" | "Null" | "NULL")
}

fn bool_of(t: &str) -> Option<bool> {
    match t {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// The sign and the rest of a number's text.
fn signed(s: &str) -> (f64, &str) {
    match s.as_bytes().first() {
        Some(b'-') => (-1.0, &s[1..]),
        Some(b'+') => (1.0, &s[1..]),
        _ => (1.0, s),
    }
}

/// `resolveYamlInteger` + `constructYamlInteger`: `0b`, `0x`, and `0o` (4) or
/// leading-zero octal and base 60 (3); `_` anywhere but first and last.
fn int_of(s: &str, version: Version) -> Option<f64> {
    let (sign, body) = signed(s);
    if body.is_empty() || body.ends_with('_') {
        return None;
    }
    let digits = |text: &str, radix: u32| -> Option<f64> {
        let clean: String = text.chars().filter(|&c| c != '_').collect();
        if clean.is_empty() || !clean.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        Some(clean.chars().fold(0.0, |acc, c| acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))))
    };
    if body == "0" {
        return Some(0.0);
    }
    if let Some(rest) = body.strip_prefix("0b") {
        return digits(rest, 2).map(|n| sign * n);
    }
    if let Some(rest) = body.strip_prefix("0x") {
        return digits(rest, 16).map(|n| sign * n);
    }
    match version {
        Version::V4 => {
            if let Some(rest) = body.strip_prefix("0o") {
                return digits(rest, 8).map(|n| sign * n);
            }
        }
        Version::V3Safe => {
            if let Some(rest) = body.strip_prefix('0') {
                return digits(rest, 8).map(|n| sign * n);
            }
            if body.contains(':') {
                let mut value = 0.0;
                for (i, part) in body.split(':').enumerate() {
                    let n = digits(part, 10)?;
                    if i > 0 && n >= 60.0 {
                        return None;
                    }
                    value = value * 60.0 + n;
                }
                return Some(sign * value);
            }
        }
    }
    if !body.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    // Decimal: through the double, as `parseInt` reads it.
    let clean: String = body.chars().filter(|&c| c != '_').collect();
    if !clean.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    clean.parse::<f64>().ok().map(|n| sign * n)
}

/// `YAML_FLOAT_PATTERN` + `constructYamlFloat` (js-yaml 3's also in base 60).
fn float_of(s: &str, version: Version) -> Option<f64> {
    static V4: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
            .expect("float pattern")
    });
    static V3: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
            .expect("float pattern")
    });
    let pattern = if version == Version::V4 { &V4 } else { &V3 };
    if !pattern.is_match(s) || s.ends_with('_') {
        return None;
    }
    let value = s.replace('_', "").to_lowercase();
    let (sign, body) = signed(&value);
    // `parseFloat` reads the longest number at the front ("1." is 1).
    let parse = |t: &str| t.parse::<f64>().ok().or_else(|| format!("{t}0").parse::<f64>().ok());
    match body {
        ".inf" => Some(sign * f64::INFINITY),
        ".nan" => Some(f64::NAN),
        _ if body.contains(':') => {
            let mut value = 0.0;
            for part in body.split(':') {
                value = value * 60.0 + parse(part)?;
            }
            Some(sign * value)
        }
        _ => parse(body).map(|n| sign * n),
    }
}

static DATE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})$").expect("date"));
static STAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?$")
        .expect("timestamp")
});

/// `YAML_DATE_REGEXP` / `YAML_TIMESTAMP_REGEXP`; agentry's js-yaml 3 reading takes
/// only instants in the years 0 to 9999 as Dates.
fn is_timestamp(s: &str, version: Version) -> bool {
    match timestamp_millis(s) {
        Some(ms) if version == Version::V3Safe => (0..=9999).contains(&calendar::civil_from_days(ms.div_euclid(86_400_000)).0),
        found => found.is_some(),
    }
}

/// `constructYamlTimestamp`: the instant in milliseconds since the epoch (out-of-range
/// months and days roll over, as `Date.UTC` does).
pub fn timestamp_millis(s: &str) -> Option<i64> {
    let num = |c: Option<regex::Match>| c.map_or(0i64, |m| m.as_str().parse().unwrap_or(0));
    let (y, mo, d, h, mi, sec, ms, offset_min) = if let Some(c) = DATE.captures(s) {
        (num(c.get(1)), num(c.get(2)), num(c.get(3)), 0, 0, 0, 0, 0)
    } else {
        let c = STAMP.captures(s)?;
        let ms = c.get(7).map_or(0, |f| format!("{:0<3}", &f.as_str()[..f.as_str().len().min(3)]).parse().unwrap_or(0));
        let offset = match c.get(9) {
            Some(sign) => {
                let m = num(c.get(10)) * 60 + num(c.get(11));
                if sign.as_str() == "-" { -m } else { m }
            }
            None => 0,
        };
        (num(c.get(1)), num(c.get(2)), num(c.get(3)), num(c.get(4)), num(c.get(5)), num(c.get(6)), ms, offset)
    };
    // Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offset.
    let months = y * 12 + (mo - 1);
    let days = calendar::days_from_civil(months.div_euclid(12), months.rem_euclid(12) as u32 + 1, 1) + (d - 1);
    Some((((days * 24 + h) * 60 + mi - offset_min) * 60 + sec) * 1000 + ms)
}

/// `resolveYamlBinary` + `constructYamlBinary`: base64 (line breaks skipped) into a
/// `Uint8Array`, an object keyed by index to JavaScript.
fn binary(text: &str) -> Option<Js> {
    const MAP: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r";
    let index = |c: u8| MAP.iter().position(|&m| m == c);
    let mut bitlen = 0;
    for c in text.bytes() {
        match index(c)? {
            65.. => {}
            _ => bitlen += 6,
        }
    }
    if bitlen % 8 != 0 {
        return None;
    }
    let input: Vec<u32> = text.bytes().filter(|c| !matches!(c, b'\r' | b'\n' | b'=')).map(|c| index(c).unwrap_or(0) as u32).collect();
    let (mut bits, mut out) = (0u32, Vec::new());
    for (i, v) in input.iter().enumerate() {
        if i % 4 == 0 && i > 0 {
            out.extend([bits >> 16, bits >> 8, bits]);
        }
        bits = (bits << 6) | v;
    }
    match input.len() % 4 {
        0 => out.extend([bits >> 16, bits >> 8, bits]),
        3 => out.extend([bits >> 10, bits >> 2]),
        2 => out.push(bits >> 4),
        _ => {}
    }
    Some(Js::Map(out.into_iter().enumerate().map(|(i, b)| (i.to_string(), Js::Num(f64::from(b & 0xff)), 0)).collect()))
}
