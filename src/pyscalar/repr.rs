//! Python's `repr()` of strings, bytes and time deltas, and `str.isprintable()`.

use super::unprintable::UNPRINTABLE;

/// Python `str.isprintable()` for one character.
pub fn is_printable(c: char) -> bool {
    // An even count of boundaries at or below `c`: it is in a printable run.
    UNPRINTABLE.partition_point(|&b| b <= c as u32) % 2 == 0
}

/// Python `repr(str)`: single quotes unless the text has `'` and no `"`; `\\`, the quote,
/// `\t` `\n` `\r` escaped; other non-printable characters as `\xhh`, `\uhhhh` or
/// `\Uhhhhhhhh`; printable non-ASCII kept as is.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if is_printable(c) => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// Python `repr(bytes)`: `b'..'`, quoting like `repr(str)`, bytes outside printable
/// ASCII as `\xhh`.
pub fn repr_bytes(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { b'"' } else { b'\'' };
    let mut out = String::from("b");
    out.push(quote as char);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c as char);
            }
            b' '..=b'~' => out.push(c as char),
            c => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push(quote as char);
    out
}

/// Python `repr(datetime.timedelta(seconds=secs))`: `datetime.timedelta(days=-1,
/// seconds=82800)`, `datetime.timedelta(0)`.
pub fn timedelta_repr(secs: i64) -> String {
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let mut parts = Vec::new();
    if days != 0 {
        parts.push(format!("days={days}"));
    }
    if rest != 0 {
        parts.push(format!("seconds={rest}"));
    }
    if parts.is_empty() {
        parts.push("0".to_string());
    }
    format!("datetime.timedelta({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_repr() {
        assert_eq!(repr_str("x"), "'x'");
        assert_eq!(repr_str("it's"), "\"it's\"");
        assert_eq!(repr_str("it's \"q\""), "'it\\'s \"q\"'");
        assert_eq!(repr_str("a\nb\t\\\x01\x7f"), "'a\\nb\\t\\\\\\x01\\x7f'");
        assert_eq!(repr_str("é€😀\u{85}\u{a0}\u{200b}\u{feff}"), "'é€😀\\x85\\xa0\\u200b\\ufeff'");
        assert_eq!(repr_bytes(b"a'\x00\xff"), "b\"a'\\x00\\xff\"");
    }
}
