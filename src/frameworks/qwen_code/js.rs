//! The few JavaScript conversions Qwen Code's loader applies to its front matter's
//! values (`Number()`, `trim()`, `length`), so a value reads here exactly as it does in
//! the tool; the values themselves are [`Js`], as `toJS` gives them.

pub use crate::jsyaml::{number_to_string, Js};

pub use crate::text::js::trim;

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
