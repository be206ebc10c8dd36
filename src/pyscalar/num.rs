//! Python number rules: `int(str)`, `float(str)`, `repr(float)`, and the small
//! arbitrary-precision integer arithmetic they need (Python ints are unbounded; values
//! past `i64` are carried as decimal text by the value types above this module).

/// Python refuses `int()` of more than 4300 decimal digits (`sys.get_int_max_str_digits`).
pub const INT_MAX_STR_DIGITS: usize = 4300;

/// An unsigned magnitude in base 10⁹, least significant limb first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Big(Vec<u32>);

const LIMB: u64 = 1_000_000_000;

impl Big {
    pub fn zero() -> Big {
        Big(Vec::new())
    }
    pub fn from_u64(mut v: u64) -> Big {
        let mut limbs = Vec::new();
        while v > 0 {
            limbs.push((v % LIMB) as u32);
            v /= LIMB;
        }
        Big(limbs)
    }
    /// `self = self * m + a`
    pub fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = a as u64;
        for l in self.0.iter_mut() {
            let v = *l as u64 * m as u64 + carry;
            *l = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }
    pub fn add(&mut self, other: &Big) {
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            if i == self.0.len() {
                self.0.push(0);
            }
            let v = self.0[i] as u64 + other.0.get(i).copied().unwrap_or(0) as u64 + carry;
            self.0[i] = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }
    pub fn to_decimal(&self) -> String {
        let mut limbs = self.0.clone();
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        let Some(top) = limbs.last() else { return "0".to_string() };
        let mut s = top.to_string();
        for l in limbs.iter().rev().skip(1) {
            s.push_str(&format!("{l:09}"));
        }
        s
    }
}

/// The whitespace `int()`/`float()` strip: ASCII ` \t\n\v\f\r` and the non-ASCII
/// characters of `str.isspace()` (unlike `str.strip()`, not `\x1c`–`\x1f`).
fn num_strip(s: &str) -> &str {
    s.trim_matches(|c: char| {
        if c.is_ascii() {
            matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
        } else {
            super::is_space(c)
        }
    })
}

/// Python `int(s, base)` for base 2, 8, 10 or 16: surrounding whitespace, one sign,
/// the matching base prefix (`0x`, `0o`, `0b`), `_` only between digits (or after the
/// prefix). Returns (negative, magnitude). Decimal text of more than 4300 digits fails
/// as in Python; other bases are capped so the result stays under ~4300 digits.
pub fn parse_int_radix(s: &str, radix: u32) -> Option<(bool, Big)> {
    let s = num_strip(s);
    let (neg, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let prefix = match radix {
        2 => Some("0b"),
        8 => Some("0o"),
        16 => Some("0x"),
        _ => None,
    };
    let mut body = s;
    let mut after_prefix = false;
    if let Some(p) = prefix {
        // `get`, not `[..2]`: the second character may be multi-byte (`0é`).
        if body.get(..2).is_some_and(|head| head.eq_ignore_ascii_case(p)) {
            body = &body[2..];
            after_prefix = true;
        }
    }
    let b = body.as_bytes();
    if b.is_empty() {
        return None;
    }
    // underscores: single, between digits; allowed right after a base prefix
    if b[b.len() - 1] == b'_' || (b[0] == b'_' && !after_prefix) || body.contains("__") {
        return None;
    }
    let digits: Vec<u32> = body.chars().filter(|&c| c != '_').map(|c| c.to_digit(radix)).collect::<Option<_>>()?;
    if digits.is_empty() {
        return None;
    }
    let cap = match radix {
        10 => INT_MAX_STR_DIGITS,
        16 => 3600,
        8 => 4800,
        _ => 14400,
    };
    if digits.len() > cap {
        return None;
    }
    let mut big = Big::zero();
    for d in digits {
        big.mul_add(radix, d);
    }
    Some((neg, big))
}


/// Python `float(s)`: surrounding whitespace, a sign, `inf`/`infinity`/`nan` in any
/// case, decimal literals with optional fraction and exponent (`"1e3"`, `".5"`, `"5."`),
/// `_` only between digits. Correctly rounded, like CPython.
pub fn float_parse(s: &str) -> Option<f64> {
    let s = num_strip(s);
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let v = match lower.as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => {
            if !valid_decimal(body) {
                return None;
            }
            body.replace('_', "").parse::<f64>().ok()?
        }
    };
    Some(if neg { -v } else { v })
}

/// `digits [. digits] [e [sign] digits]` with at least one mantissa digit and `_` only
/// between two digits.
fn valid_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| -> Option<usize> {
        let start = *i;
        let mut n = 0;
        while *i < b.len() {
            if b[*i].is_ascii_digit() {
                n += 1;
                *i += 1;
            } else if b[*i] == b'_'
                && *i > start
                && b[*i - 1].is_ascii_digit()
                && b.get(*i + 1).is_some_and(u8::is_ascii_digit)
            {
                *i += 1;
            } else {
                break;
            }
        }
        Some(n)
    };
    let int_digits = digits(&mut i).unwrap_or(0);
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = digits(&mut i).unwrap_or(0);
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i).unwrap_or(0) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Python `repr(float)` (= `str(float)`): the shortest text that round-trips, written
/// plainly when the decimal exponent is in -4..16 (`1.5`, `1000.0`, `0.0001`) and in
/// scientific form otherwise (`1e+16`, `1.5e-07`, `5e-324`); `inf`, `-inf`, `nan`, `-0.0`.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digit count; among strings of that
    // length Python picks the one nearest the exact value, ties to even, which is what
    // Rust's exact formatting at that precision produces (`1059438285926254.2`, not `.3`).
    let shortest = format!("{:e}", f.abs());
    let n = shortest.split_once('e').map_or(1, |(m, _)| m.chars().filter(char::is_ascii_digit).count());
    let sci = format!("{:.*e}", n.saturating_sub(1), f.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if f < 0.0 { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if exp >= 0 {
            let point = exp + 1;
            if n <= point {
                format!("{digits}{}.0", "0".repeat((point - n) as usize))
            } else {
                format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
            }
        } else {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() > 1 { format!("{}.{}", &digits[..1], &digits[1..]) } else { digits };
        let es = if exp < 0 { "-" } else { "+" };
        format!("{sign}{m}e{es}{:02}", exp.abs())
    }
}

/// The exact integer value of an integral float, as decimal text (for Python equality of
/// `1e20` and `100000000000000000000`).
pub fn integral_float_decimal(f: f64) -> String {
    let bits = f.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = if exp == 0 { (bits & ((1 << 52) - 1)) << 1 } else { (bits & ((1 << 52) - 1)) | (1 << 52) };
    let shift = exp - 1075;
    let mut big = Big::from_u64(if shift < 0 { mant >> (-shift).min(63) } else { mant });
    for _ in 0..shift.max(0) {
        big.mul_add(2, 0);
    }
    let dec = big.to_decimal();
    if f < 0.0 {
        format!("-{dec}")
    } else {
        dec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multibyte_character_after_a_leading_zero_is_not_a_prefix() {
        // Found by the `yaml` fuzz target (`!!int 0\u{FFFD}…`): slicing two bytes
        // panicked inside the character.
        for radix in [2, 8, 10, 16] {
            assert_eq!(parse_int_radix("0\u{FFFD}1", radix), None, "radix {radix}");
            assert_eq!(parse_int_radix("-0é", radix), None, "radix {radix}");
        }
        assert!(parse_int_radix("0x1f", 16).is_some());
    }

    #[test]
    fn float_repr_matches_python() {
        for (f, s) in [
            (1.5, "1.5"),
            (1e16, "1e+16"),
            (1000.0, "1000.0"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (-0.0, "-0.0"),
            (5e-324, "5e-324"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (9999999999999998.0, "9999999999999998.0"),
            (0.1, "0.1"),
            (1e22, "1e+22"),
            (-2.5, "-2.5"),
            (1059438285926254.2, "1059438285926254.2"),
        ] {
            assert_eq!(float_repr(f), s);
        }
    }

    #[test]
    fn float_parse_matches_python() {
        assert_eq!(float_parse("1e3"), Some(1000.0));
        assert_eq!(float_parse(" 2 "), Some(2.0));
        assert_eq!(float_parse("1_000.5"), Some(1000.5));
        assert_eq!(float_parse("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(float_parse("inf"), Some(f64::INFINITY));
        assert!(float_parse("nan").is_some_and(f64::is_nan));
        assert_eq!(float_parse(".5"), Some(0.5));
        assert_eq!(float_parse("5."), Some(5.0));
        for bad in ["lots", "", ".", "1_.5", "1e", "e3", "1__0", "_1", "in f", "0x10"] {
            assert_eq!(float_parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn integral_floats() {
        assert_eq!(integral_float_decimal(1e20), "100000000000000000000");
        assert_eq!(integral_float_decimal(-4.0), "-4");
    }
}
