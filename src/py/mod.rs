//! Python's own text rules, where the frameworks' behaviour leaks them into fields:
//! `str()`/`repr()` of values ([`repr`]), `int()`/`float()` of strings and `repr(float)`
//! ([`num`]), `str.isspace()`/`str.strip()` (here). The rules for single strings and
//! numbers live below this module and `crate::yaml` ([`crate::pyscalar`]); this one
//! adds them for the values PyYAML builds, so it depends on `yaml` and not back.

pub mod num;
pub mod pydantic;

pub use crate::pyscalar::{float_parse, float_repr, is_printable, is_space, repr_bytes, repr_str, timedelta_repr};
pub use crate::yaml::repr::{date_iso, datetime_iso, repr, str_of};
pub use num::int_parse;

pub mod lax;

// The calendar lives below `yaml` (PyYAML checks its dates with it); named here too.
pub use crate::pyscalar::calendar;

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
