//! The JavaScript values Qwen Code's front matter becomes, and the few JavaScript
//! conversions its loader applies to them (`String()`, `Number()`, `trim()`), so a
//! value reads here exactly as it does in the tool.

use serde_json::Value as Json;

/// A JavaScript value as `yaml`'s `toJS` or the fallback line parser gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum Js {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Js>),
    /// A plain object: keys in insertion order, a repeated key keeps its first
    /// place and its last value.
    Obj(Vec<(String, Js)>),
}

impl Js {
    pub fn get(&self, key: &str) -> Option<&Js> {
        match self {
            Js::Obj(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// `obj[key] = value`.
    pub fn set(entries: &mut Vec<(String, Js)>, key: String, value: Js) {
        match entries.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => entries.push((key, value)),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Js::Str(s) => Some(s),
            _ => None,
        }
    }

    /// JavaScript truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Js::Null => false,
            Js::Bool(b) => *b,
            Js::Num(n) => *n != 0.0 && !n.is_nan(),
            Js::Str(s) => !s.is_empty(),
            Js::Arr(_) | Js::Obj(_) => true,
        }
    }

    /// `String(value)`.
    pub fn to_js_string(&self) -> String {
        match self {
            Js::Null => "null".into(),
            Js::Bool(b) => b.to_string(),
            Js::Num(n) => number_to_string(*n),
            Js::Str(s) => s.clone(),
            Js::Arr(items) => items
                .iter()
                .map(|v| if *v == Js::Null { String::new() } else { v.to_js_string() })
                .collect::<Vec<_>>()
                .join(","),
            Js::Obj(_) => "[object Object]".into(),
        }
    }

    /// `JSON.stringify`'s view of the value (non-finite numbers become `null`;
    /// integral numbers are written without a fraction).
    pub fn to_json(&self) -> Json {
        match self {
            Js::Null => Json::Null,
            Js::Bool(b) => Json::Bool(*b),
            Js::Num(n) => number_json(*n),
            Js::Str(s) => Json::String(s.clone()),
            Js::Arr(items) => Json::Array(items.iter().map(Js::to_json).collect()),
            Js::Obj(entries) => Json::Object(entries.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()),
        }
    }
}

fn number_json(n: f64) -> Json {
    if !n.is_finite() {
        return Json::Null;
    }
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        return Json::from(n as i64);
    }
    serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number)
}

/// `Number.prototype.toString()`: the shortest digits that read back as `n`, in
/// decimal notation from 1e-7 up to 1e21, else as `1.5e+21`.
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if n == 0.0 {
        return "0".into();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddde±x`.
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let k = digits.len() as i32;
    // The value is 0.DIGITS × 10^point.
    let point = exp + 1;
    let body = if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let e = point - 1;
        let e = if e >= 0 { format!("+{e}") } else { e.to_string() };
        if k == 1 {
            format!("{digits}e{e}")
        } else {
            format!("{}.{}e{e}", &digits[..1], &digits[1..])
        }
    };
    format!("{sign}{body}")
}

/// JavaScript's white space and line terminators (what `trim()` removes).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}'
            | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// `String.prototype.trim()`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// `string.length`: UTF-16 code units.
pub fn js_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `Number(string)`: `None` for `NaN`.
pub fn string_to_number(s: &str) -> Option<f64> {
    let t = trim(s);
    if t.is_empty() {
        return Some(0.0);
    }
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] {
        if let Some(rest) = t.strip_prefix(prefix) {
            if rest.is_empty() || !rest.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            // Digits beyond u128 are rare; fold into a float as JavaScript does.
            return Some(rest.chars().fold(0.0f64, |acc, c| acc * radix as f64 + c.to_digit(radix).unwrap_or(0) as f64));
        }
    }
    let (sign, unsigned) = match t.as_bytes()[0] {
        b'+' => (1.0, &t[1..]),
        b'-' => (-1.0, &t[1..]),
        _ => (1.0, t),
    };
    if unsigned == "Infinity" {
        return Some(sign * f64::INFINITY);
    }
    if !is_decimal_literal(unsigned) {
        return None;
    }
    unsigned.parse::<f64>().ok().map(|v| sign * v)
}

/// `StrUnsignedDecimalLiteral`: digits with an optional fraction, or a fraction
/// alone, then an optional exponent.
fn is_decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let exp_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp_digits == 0 {
            return false;
        }
        i += exp_digits;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (n, s) in [
            (42.0, "42"),
            (1.5, "1.5"),
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.1 + 0.2, "0.30000000000000004"),
        ] {
            assert_eq!(number_to_string(n), s, "{n}");
        }
    }

    #[test]
    fn strings_convert_as_number_does() {
        assert_eq!(string_to_number("0x10"), Some(16.0));
        assert_eq!(string_to_number(" 12 "), Some(12.0));
        assert_eq!(string_to_number("1e3"), Some(1000.0));
        assert_eq!(string_to_number(".5"), Some(0.5));
        assert_eq!(string_to_number("5."), Some(5.0));
        assert_eq!(string_to_number("-0x10"), None);
        assert_eq!(string_to_number("1_000"), None);
        assert_eq!(string_to_number("inf"), None);
        assert_eq!(string_to_number("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(string_to_number("."), None);
    }
}
