//! Jinja2's `wordwrap(s, width=79, break_long_words=True, wrapstring=None,
//! break_on_hyphens=True)`: each line of `s` (Python's `splitlines`) wrapped by
//! Python's `textwrap.wrap` (tabs and white space kept, white space dropped at the
//! breaks), the pieces joined with `wrapstring` (the environment's newline, `\n`).
//! Chunks are `TextWrapper.wordsep_re`'s: white space runs, words broken after a
//! hyphen between letters, em-dashes between words.

use minijinja::value::{Kwargs, Rest, Value};
use minijinja::{Error, ErrorKind};

/// `textwrap`'s white space: ASCII only.
fn ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ')
}

/// `[^\d\W]`: a word character that is no digit.
fn letter(c: char) -> bool {
    crate::py::is_word(c) && !c.is_numeric()
}

/// `[\w!"'&.,?]`.
fn word_punct(c: char) -> bool {
    crate::py::is_word(c) || matches!(c, '!' | '"' | '\'' | '&' | '.' | ',' | '?')
}

/// `-{2,}(?=\w)` at `at`: the end of the dashes.
fn em_dash(t: &[char], at: usize) -> Option<usize> {
    let end = at + t[at..].iter().take_while(|&&c| c == '-').count();
    (end >= at + 2 && t.get(end).is_some_and(|&c| crate::py::is_word(c))).then_some(end)
}

/// `wordsep_re.split(text)` without the empty pieces.
fn chunks(t: &[char], hyphens: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let end = if ws(t[i]) {
            i + t[i..].iter().take_while(|&&c| ws(c)).count()
        } else if !hyphens {
            i + t[i..].iter().take_while(|&&c| !ws(c)).count()
        } else if let Some(end) = (i > 0 && word_punct(t[i - 1])).then(|| em_dash(t, i)).flatten() {
            end
        } else {
            word_end(t, i)
        };
        out.push(t[i..end].iter().collect());
        i = end;
    }
    out
}

/// The end of the shortest word chunk from `i`: after a hyphen between letters
/// (`lt{2}-` or `lt-lt-` behind, `lt-?lt` ahead), before white space or the end,
/// or before an em-dash that follows word punctuation.
fn word_end(t: &[char], i: usize) -> usize {
    let is = |k: usize, f: fn(char) -> bool| t.get(k).is_some_and(|&c| f(c));
    let mut j = i + 1;
    loop {
        if j >= t.len() || ws(t[j]) {
            return j;
        }
        if t[j] == '-' {
            let behind = (j >= 2 && is(j - 1, letter) && is(j - 2, letter))
                || (j >= 3 && is(j - 1, letter) && t[j - 2] == '-' && is(j - 3, letter));
            let ahead = is(j + 1, letter) && (is(j + 2, letter) || (t.get(j + 2) == Some(&'-') && is(j + 3, letter)));
            if behind && ahead {
                return j + 1;
            }
        }
        if word_punct(t[j - 1]) && em_dash(t, j).is_some() {
            return j;
        }
        j += 1;
    }
}

fn blank(chunk: &str) -> bool {
    crate::py::strip(chunk).is_empty()
}

/// `TextWrapper._wrap_chunks` (no indents, no line limit).
fn wrap(line: &str, width: usize, break_long: bool, hyphens: bool) -> Vec<String> {
    let t: Vec<char> = line.chars().collect();
    let mut chunks = chunks(&t, hyphens);
    chunks.reverse();
    let len = |s: &str| s.chars().count();
    let mut lines = Vec::new();
    while !chunks.is_empty() {
        let mut cur: Vec<String> = Vec::new();
        let mut cur_len = 0;
        if chunks.last().is_some_and(|c| blank(c)) && !lines.is_empty() {
            chunks.pop();
        }
        while let Some(c) = chunks.last() {
            if cur_len + len(c) > width {
                break;
            }
            cur_len += len(c);
            cur.extend(chunks.pop());
        }
        if let Some(chunk) = chunks.last_mut().filter(|c| len(c) > width) {
            let space_left = width - cur_len;
            if break_long {
                let chars: Vec<char> = chunk.chars().collect();
                let mut end = space_left;
                if hyphens && chars.len() > space_left {
                    // After the last hyphen in reach, if something else comes before it.
                    if let Some(h) = chars[..space_left].iter().rposition(|&c| c == '-') {
                        if h > 0 && chars[..h].iter().any(|&c| c != '-') {
                            end = h + 1;
                        }
                    }
                }
                cur.push(chars[..end].iter().collect());
                *chunk = chars[end..].iter().collect();
            } else if cur.is_empty() {
                cur.extend(chunks.pop());
            }
        }
        if cur.last().is_some_and(|c| blank(c)) {
            cur.pop();
        }
        if !cur.is_empty() {
            lines.push(cur.concat());
        }
    }
    lines
}

/// Python's `str.splitlines(True)`: each line with its line break.
pub(super) fn splitlines_keep(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if matches!(c, '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            let mut next = i + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
                chars.next();
                next += 1;
            }
            out.push(&s[start..next]);
            start = next;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Python's `str.splitlines()`.
pub(super) fn splitlines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if matches!(c, '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            out.push(&s[start..i]);
            let mut next = i + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
                chars.next();
                next += 1;
            }
            start = next;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// The filter; arguments by position or by name.
pub fn wordwrap(s: String, args: Rest<Value>) -> Result<Value, Error> {
    let (positional, kwargs) = match args.split_last() {
        Some((last, rest)) if last.is_kwargs() => (rest, Some(Kwargs::try_from(last.clone())?)),
        _ => (&args[..], None),
    };
    if positional.len() > 4 {
        return Err(Error::new(ErrorKind::TooManyArguments, "wordwrap takes at most 5 arguments"));
    }
    let arg = |i: usize, name: &str| -> Result<Option<Value>, Error> {
        match (positional.get(i), &kwargs) {
            (Some(v), _) => Ok(Some(v.clone())),
            (None, Some(k)) => k.get::<Option<Value>>(name),
            (None, None) => Ok(None),
        }
    };
    let width = arg(0, "width")?.map(i64::try_from).transpose()?.unwrap_or(79);
    let break_long = arg(1, "break_long_words")?.map_or(true, |v| v.is_true());
    let wrapstring = arg(2, "wrapstring")?.filter(|v| !v.is_none()).map_or_else(|| "\n".to_string(), |v| super::py_str(&v));
    let hyphens = arg(3, "break_on_hyphens")?.map_or(true, |v| v.is_true());
    if let Some(k) = &kwargs {
        k.assert_all_used()?;
    }
    let lines = splitlines(&s);
    // `textwrap` refuses a width below 1 once there is text to wrap.
    if width <= 0 && lines.iter().any(|l| !l.is_empty()) {
        return Err(Error::new(ErrorKind::InvalidOperation, format!("invalid width {width} (must be > 0)")));
    }
    let width = usize::try_from(width).unwrap_or(0);
    let wrapped: Vec<String> = lines.iter().map(|l| wrap(l, width, break_long, hyphens).join(&wrapstring)).collect();
    Ok(Value::from(wrapped.join(&wrapstring)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str, width: usize) -> String {
        splitlines(s).iter().map(|l| wrap(l, width, true, true).join("\n")).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn wraps_as_textwrap_does() {
        assert_eq!(
            w("The quick brown fox jumps over the lazy dog and keeps running far", 20),
            "The quick brown fox\njumps over the lazy\ndog and keeps\nrunning far"
        );
        assert_eq!(w("aaaaaaaaaaaaaaaaaaaaaaaaaaaa bb", 10), "aaaaaaaaaa\naaaaaaaaaa\naaaaaaaa\nbb");
        assert_eq!(w("a b\n\nc d", 3), "a b\n\nc d");
        assert_eq!(w("well-known long-winded text", 12), "well-known\nlong-winded\ntext");
        assert_eq!(w("this--that and more", 6), "this--\nthat\nand\nmore");
    }
}
