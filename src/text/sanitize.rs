//! The one sanitiser every string from a file passes before it reaches a terminal or
//! plain-text output. Control characters become caret notation (`ESC` → `^[`), C1
//! controls, bidi overrides and zero-width characters become `<U+XXXX>`, and tabs
//! become spaces, so no byte of a file can move the cursor, set a title, write the
//! clipboard or reorder what is shown.

use std::borrow::Cow;

/// Width tabs are expanded to.
pub const TAB_WIDTH: usize = 4;

/// Characters that change how text is ordered or are invisible.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}'
    )
}

fn needs_escape(c: char) -> bool {
    c.is_control() || is_invisible(c)
}

fn push_escaped(out: &mut String, c: char, column: usize) {
    match c {
        '\t' => out.extend(std::iter::repeat_n(' ', TAB_WIDTH - column % TAB_WIDTH)),
        '\x00'..='\x1f' => {
            out.push('^');
            out.push((c as u8 + b'@') as char);
        }
        '\x7f' => out.push_str("^?"),
        _ => out.push_str(&format!("<U+{:04X}>", c as u32)),
    }
}

/// One line of display text: newlines are escaped too.
pub fn line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut column = 0;
    for c in s.chars() {
        if needs_escape(c) {
            let before = out.len();
            push_escaped(&mut out, c, column);
            column += out.len() - before;
        } else {
            out.push(c);
            column += 1;
        }
    }
    Cow::Owned(out)
}

/// Multi-line display text: `\n` is kept, everything else escaped as in `line`. A
/// `\r\n` pair is kept as one line break.
pub fn text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c != '\n' && needs_escape(c)) {
        return Cow::Borrowed(s);
    }
    let lines: Vec<Cow<str>> = s.split('\n').map(|l| line(l.strip_suffix('\r').unwrap_or(l))).collect();
    Cow::Owned(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_reach_the_output_inert() {
        assert_eq!(line("a\x1b]52;c;SGVsbG8=\x07b"), "a^[]52;c;SGVsbG8=^Gb");
        assert_eq!(line("\x1b[2J"), "^[[2J");
        assert_eq!(line("x\u{9b}31m"), "x<U+009B>31m");
        assert_eq!(line("abc\u{202e}fed"), "abc<U+202E>fed");
        assert_eq!(line("zero\u{200b}width"), "zero<U+200B>width");
        assert_eq!(line("del\x7f"), "del^?");
        assert_eq!(line("a\nb"), "a^Jb");
    }

    #[test]
    fn tabs_expand_and_clean_text_is_borrowed() {
        assert_eq!(line("a\tb"), "a   b");
        assert!(matches!(line("plain ünïcode"), Cow::Borrowed(_)));
        assert_eq!(text("one\r\ntwo\x1b\nthree"), "one\ntwo^[\nthree");
    }
}
