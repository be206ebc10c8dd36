//! JavaScript's white space, as the Node tools' `trim()` and regular expressions'
//! `\s` see it: ECMAScript's WhiteSpace (tab, vertical tab, form feed, the space
//! separators, the byte-order mark U+FEFF) and LineTerminator. Not U+0085, which
//! Rust's `char::is_whitespace` counts.

/// `\s`: one character of JavaScript's white space or a line terminator.
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}'
            | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// `String.prototype.trim`.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

#[cfg(test)]
mod tests {
    #[test]
    fn trim_takes_the_bom_and_unicode_spaces_but_not_nel() {
        assert_eq!(super::trim("\u{feff}\u{3000}--- \t\u{2028}"), "---");
        assert_eq!(super::trim("\u{85}x\u{85}"), "\u{85}x\u{85}");
        // Every Rust white space but NEL is JavaScript's too.
        for c in (0..=0x3000u32).filter_map(char::from_u32).filter(|c| c.is_whitespace()) {
            assert_eq!(super::is_space(c), c != '\u{85}', "{c:?}");
        }
    }
}
