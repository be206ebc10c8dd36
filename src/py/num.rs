//! Python `int(str)` as a value ([`Value::Int`], or [`Value::BigInt`] past `i64`); the
//! rest of Python's number rules are [`crate::pyscalar::num`].

pub use crate::pyscalar::num::{float_parse, float_repr, INT_MAX_STR_DIGITS};
use crate::pyscalar::num::parse_int_radix;
use crate::yaml::Value;

/// Python `int(s)` (base 10): `" 42 "`, `"+7"`, `"1_000"` parse; `"7.0"`, `"1__0"`,
/// `"_1"`, `""` do not. Returns [`Value::Int`] or, past 64 bits, [`Value::BigInt`].
/// (Python also accepts non-ASCII Unicode decimal digits; this does not.)
pub fn int_parse(s: &str) -> Option<Value> {
    parse_int_radix(s, 10).map(|(neg, big)| Value::from_big(&big, neg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_parse_matches_python() {
        assert_eq!(int_parse(" 42 "), Some(Value::Int(42)));
        assert_eq!(int_parse("+7"), Some(Value::Int(7)));
        assert_eq!(int_parse("-1_000"), Some(Value::Int(-1000)));
        assert_eq!(int_parse("007"), Some(Value::Int(7)));
        assert_eq!(int_parse("99999999999999999999"), Some(Value::BigInt("99999999999999999999".into())));
        assert_eq!(int_parse("-9223372036854775808"), Some(Value::Int(i64::MIN)));
        for bad in ["7.0", "many", "", "_1", "1_", "1__0", "+", "0x10", " - 1", "\x1c7"] {
            assert_eq!(int_parse(bad), None, "{bad:?}");
        }
        assert_eq!(parse_int_radix("0x_1f", 16).map(|(n, b)| Value::from_big(&b, n)), Some(Value::Int(31)));
    }
}
