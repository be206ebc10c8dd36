//! Markdown front matter, split the way python-frontmatter 1.3.0 does it (the library
//! OpenHands and fast-agent use): the text is stripped with Python's whitespace rules,
//! a YAML block opens with a line of three or more dashes (`^-{3,}\s*$`, where `\s`
//! may run over blank lines), a JSON block with a line that is exactly `{`, and a
//! block that is never closed leaves the whole text as the body.

use crate::py;

/// Which kind of block opened the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

/// The front matter of a file, and where it sits in the text given to [`split`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Front {
    pub format: Format,
    /// The block's text (for JSON, with the braces put back, as the library does).
    pub text: String,
    /// How many lines of the original text come before the block's first line, so
    /// that a position inside `text` can be turned into a file position.
    pub line_offset: u32,
}

/// A file split into front matter and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split<'a> {
    pub front: Option<Front>,
    /// The body, stripped (python-frontmatter's `content.strip()`). Borrowed: the
    /// caller keeps it as it needs it, and a prompt is most of a file.
    pub body: &'a str,
    /// The 1-based line of the original text where the body's first character is.
    pub body_line: u32,
}

/// Splits `text` (already decoded, with newlines as the framework reads them).
pub fn split(text: &str) -> Split<'_> {
    let stripped = py::strip(text);
    let base = text.len() - text.trim_start_matches(py::is_space).len();
    let line_at = |offset: usize| 1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..base + offset]).count() as u32;
    let whole = |s| Split { front: None, body: s, body_line: line_at(0) };

    let format = if yaml_boundary(stripped, 0).is_some() {
        Format::Yaml
    } else if json_boundary(stripped, 0).is_some() {
        Format::Json
    } else {
        return whole(stripped);
    };
    let boundary = |at| match format {
        Format::Yaml => yaml_boundary(stripped, at),
        Format::Json => json_boundary(stripped, at),
    };
    let Some((open_start, open_end)) = find(stripped, 0, boundary) else { return whole(stripped) };
    debug_assert_eq!(open_start, 0);
    let Some((close_start, close_end)) = find(stripped, open_end, boundary) else { return whole(stripped) };
    let block = &stripped[open_end..close_start];
    let content = &stripped[close_end..];
    let body = py::strip(content);
    let body_start = close_end + (content.len() - content.trim_start_matches(py::is_space).len());
    let text = match format {
        Format::Yaml => block.to_string(),
        Format::Json => format!("{{{block}}}"),
    };
    Split {
        front: Some(Front { format, text, line_offset: line_at(open_end) - 1 }),
        body,
        body_line: line_at(body_start),
    }
}

/// The first boundary match at a line start at or after `from` (regex `split`
/// semantics with `re.MULTILINE`).
fn find(s: &str, from: usize, boundary: impl Fn(usize) -> Option<usize>) -> Option<(usize, usize)> {
    let mut at = from;
    loop {
        let line_start = at == 0 || s.as_bytes()[at - 1] == b'\n';
        if line_start {
            if let Some(end) = boundary(at) {
                return Some((at, end));
            }
        }
        at += memchr::memchr(b'\n', &s.as_bytes()[at..])? + 1;
    }
}

/// `^-{3,}\s*$` at `at`: the end of the longest match, if any.
fn yaml_boundary(s: &str, at: usize) -> Option<usize> {
    let rest = &s[at..];
    let dashes = rest.len() - rest.trim_start_matches('-').len();
    if dashes < 3 {
        return None;
    }
    let after = at + dashes;
    let mut best = None;
    let mut pos = after;
    // Greedy `\s*` then `$`: the furthest end that is end-of-text or before a newline.
    loop {
        if pos == s.len() || s.as_bytes()[pos] == b'\n' {
            best = Some(pos);
        }
        match s[pos..].chars().next() {
            Some(c) if py::is_space(c) => pos += c.len_utf8(),
            _ => break,
        }
    }
    best
}

/// `^(?:{|})$` at `at`.
fn json_boundary(s: &str, at: usize) -> Option<usize> {
    let c = *s.as_bytes().get(at)?;
    if c != b'{' && c != b'}' {
        return None;
    }
    let end = at + 1;
    (end == s.len() || s.as_bytes()[end] == b'\n').then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front<'a>(s: &'a Split<'_>) -> Option<&'a str> {
        s.front.as_ref().map(|f| f.text.as_str())
    }

    #[test]
    fn plain_block() {
        let s = split("---\nname: a\n---\n\nHello\n");
        assert_eq!(front(&s), Some("\nname: a\n"));
        assert_eq!(s.front.as_ref().unwrap().line_offset, 0);
        assert_eq!(s.body, "Hello");
        assert_eq!(s.body_line, 5);
    }

    #[test]
    fn leading_blank_lines_and_long_delimiters() {
        let s = split("\n\n  -----  \nname: a\n-----\nbody");
        assert_eq!(front(&s), Some("\nname: a\n"));
        assert_eq!(s.front.as_ref().unwrap().line_offset, 2);
        assert_eq!(s.body, "body");
        assert_eq!(s.body_line, 6);
    }

    #[test]
    fn unclosed_block_is_all_body() {
        let s = split("---\nname: a\nbody\n");
        assert_eq!(s.front, None);
        assert_eq!(s.body, "---\nname: a\nbody");
        assert_eq!(split("---").body, "---");
    }

    #[test]
    fn comment_after_opener_or_bom_is_not_front_matter() {
        assert_eq!(split("--- # x\na: 1\n---\nb").front, None);
        let s = split("\u{feff}---\na: 1\n---\nb");
        assert_eq!(s.front, None);
        assert!(s.body.starts_with('\u{feff}'));
    }

    #[test]
    fn empty_block_then_body() {
        let s = split("---\n---\nbody");
        assert_eq!(front(&s), Some("\n"));
        assert_eq!(s.body, "body");
    }

    #[test]
    fn later_dash_lines_stay_in_the_body() {
        let s = split("---\na: 1\n---\none\n---\ntwo");
        assert_eq!(s.body, "one\n---\ntwo");
    }

    #[test]
    fn json_block() {
        let s = split("{\n\"name\": \"j\"\n}\nbody");
        assert_eq!(s.front.as_ref().map(|f| f.format), Some(Format::Json));
        assert_eq!(front(&s), Some("{\n\"name\": \"j\"\n}"));
        assert_eq!(s.body, "body");
    }

    #[test]
    fn toml_is_body() {
        assert_eq!(split("+++\na = 1\n+++\nb").front, None);
    }
}
