//! Python's rules for single strings and numbers, on plain Rust types: `repr()` of a
//! `str`, `bytes` or `timedelta`, `str.isprintable()`, `str.isspace()`, `int()` and
//! `float()` of text, `repr(float)`, and the calendar of `datetime` ([`calendar`]). Below both [`crate::yaml`] (PyYAML's scalars and
//! messages) and [`crate::py`] (the same rules for the values PyYAML builds), so
//! neither depends on the other's callers.

pub mod calendar;
pub mod num;
mod repr;
mod unprintable;

pub use num::{float_parse, float_repr};
pub use repr::{is_printable, repr_bytes, repr_str, timedelta_repr};

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
