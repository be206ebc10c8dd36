//! Python's own text rules, where the frameworks' behaviour leaks them into fields:
//! `str()`/`repr()` of values ([`repr`]), `int()`/`float()` of strings and `repr(float)`
//! ([`num`]), `str.isspace()`/`str.strip()` (here).

pub mod num;
pub mod pydantic;
mod repr;
mod unprintable;

pub use num::{float_parse, float_repr, int_parse};
pub use repr::{
    date_iso, datetime_iso, is_printable, repr, repr_bytes, repr_str, str_of, timedelta_repr,
};

pub mod calendar;
pub mod lax;

/// Python's `str.isspace()` for one character. It differs from
/// [`char::is_whitespace`]: it includes the separators `\x1c`–`\x1f` and excludes
/// nothing else that matters here (U+200B and U+FEFF are not spaces for either).
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\x1c'..='\x1f' | ' ' | '\u{85}' | '\u{a0}' | '\u{1680}'
            | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// Python's `\w` in a `str` pattern: letters, digits and `_` of every script.
pub fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Python's `str.strip()` with no argument.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_uses_python_whitespace() {
        assert_eq!(strip("\x1c a \u{3000}"), "a");
        assert_eq!(strip("\u{feff}a\u{200b}"), "\u{feff}a\u{200b}");
    }
}
