//! Two places where minijinja's parser loses what Jinja2 keeps, mended by rewriting
//! the template's source before it is compiled (no newline is added, so error lines
//! stay the file's lines):
//! - a parenthesised tuple literal, `(1, 2)`, `(1,)`, `()`, is a list to minijinja;
//!   it is marked `((1, 2)|__py_tuple)` so it prints as Python prints a tuple;
//! - `{% for c in 'abc' %}` iterates a string lazily, so `loop.length`, `loop.last`
//!   and `loop.revindex` are undefined; Jinja2's `LoopContext` makes a list of it.
//!   The iterable becomes `(EXPR)|__py_seq`, which turns a string into its characters
//!   and passes anything else through unchanged.

use std::borrow::Cow;

use minijinja::value::{Value, ValueKind};
use minijinja::Environment;

use super::python::Tuple;

/// Registers the two filters the rewritten source calls.
pub fn add_python_syntax(env: &mut Environment) {
    env.add_filter("__py_tuple", |v: Value| {
        Value::from_object(Tuple(v.try_iter().map(|it| it.collect()).unwrap_or_default()))
    });
    env.add_filter("__py_mod", |left: Value, right: Value| match left.as_str() {
        Some(f) if left.kind() == ValueKind::String => super::pyformat::percent_format(f, right).map(Value::from),
        _ => super::pyformat::modulo(&left, &right),
    });
    // minijinja's `int` takes no default and no base.
    env.add_filter("int", super::pyformat::int_filter);
    env.add_filter("__py_seq", |v: Value| match (v.kind(), v.as_str()) {
        (ValueKind::String, Some(s)) => Value::from(s.chars().map(|c| Value::from(c.to_string())).collect::<Vec<_>>()),
        _ => v,
    });
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Tok {
    Name,
    Lit,
    Open(u8),
    Close,
    Comma,
    Op,
}

/// `source` with tuple literals marked and `for` iterables wrapped, for a template
/// whose variables are written `var_start … var_end` (`{{ }}`, Kimi's `${ }`).
pub fn pythonize<'a>(source: &'a str, var_start: &str, var_end: &str) -> Cow<'a, str> {
    if !source.contains('(') && !source.contains("for") && !source.contains('%') && !source.contains(',') {
        return Cow::Borrowed(source);
    }
    let b = source.as_bytes();
    let mut edits = Edits::default();
    let mut i = 0;
    while i < b.len() {
        let rest = &source[i..];
        if rest.starts_with("{#") {
            i = source[i + 2..].find("#}").map_or(b.len(), |e| i + 2 + e + 2);
        } else if rest.starts_with("{%") || rest.starts_with(var_start) {
            let block = rest.starts_with("{%");
            let open = if block { 2 } else { var_start.len() };
            let end = if block { "%}" } else { var_end };
            let (toks, stop) = tokens(source, i + open, end);
            if block && is_raw(source, &toks) {
                i = source[stop..].find("endraw").map_or(b.len(), |e| stop + e);
                continue;
            }
            rewrite(source, &toks, block, &mut edits);
            i = stop.max(i + 1);
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    edits.apply(source)
}

/// One change to the source: `text` in place of `key.0..to`.
struct Edit {
    /// (where, phase, then): at one place closers come first (inner before outer),
    /// then a replaced operator, then openers (outer before inner).
    key: (usize, u8, isize, isize),
    to: usize,
    text: &'static str,
}

#[derive(Default)]
pub(super) struct Edits(Vec<Edit>);

impl Edits {
    /// `source` with the edits made (borrowed when there are none).
    pub(super) fn apply(mut self, source: &str) -> Cow<'_, str> {
        if self.0.is_empty() {
            return Cow::Borrowed(source);
        }
        self.0.sort_by_key(|e| e.key);
        let mut out = String::with_capacity(source.len() + self.0.len() * 12);
        let mut from = 0;
        for e in self.0 {
            out.push_str(&source[from..e.key.0]);
            out.push_str(e.text);
            from = e.to;
        }
        out.push_str(&source[from..]);
        Cow::Owned(out)
    }

    /// `open` before the bytes `start..end` and `close` after them. Of two wraps of
    /// the same bytes, the one made first is the outer.
    pub(super) fn wrap(&mut self, start: usize, end: usize, open: &'static str, close: &'static str) {
        let seq = self.0.len() as isize;
        self.0.push(Edit { key: (start, 2, -(end as isize), seq), to: start, text: open });
        self.0.push(Edit { key: (end, 0, -(start as isize), -seq), to: end, text: close });
    }

    pub(super) fn replace(&mut self, start: usize, end: usize, text: &'static str) {
        self.0.push(Edit { key: (start, 1, 0, 0), to: end, text });
    }
}

pub(super) fn is_raw(source: &str, toks: &[(Tok, usize, usize)]) -> bool {
    matches!(toks.first(), Some(&(Tok::Name, s, e)) if &source[s..e] == "raw")
}

/// The tokens of one tag from `at` up to its end delimiter (outside brackets), and
/// where scanning goes on after the tag.
pub(super) fn tokens(source: &str, at: usize, end: &str) -> (Vec<(Tok, usize, usize)>, usize) {
    let b = source.as_bytes();
    let mut toks = Vec::new();
    let mut depth = 0usize;
    let mut i = at;
    while i < b.len() {
        let c = b[i];
        if depth == 0 && source[i..].starts_with(end) {
            return (toks, i + end.len());
        }
        if depth == 0 && (c == b'-' || c == b'+') && source[i + 1..].starts_with(end) {
            return (toks, i + 1 + end.len());
        }
        let start = i;
        let kind = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if c == b'_' || c.is_ascii_alphabetic() {
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            Tok::Name
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i] == b'_' || b[i] == b'.' || b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            Tok::Lit
        } else if c == b'\'' || c == b'"' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            Tok::Lit
        } else if matches!(c, b'(' | b'[' | b'{') {
            depth += 1;
            i += 1;
            Tok::Open(c)
        } else if matches!(c, b')' | b']' | b'}') {
            depth = depth.saturating_sub(1);
            i += 1;
            Tok::Close
        } else if c == b',' {
            i += 1;
            Tok::Comma
        } else {
            i += source[i..].chars().next().map_or(1, char::len_utf8);
            Tok::Op
        };
        toks.push((kind, start, i));
    }
    (toks, b.len())
}

/// The token that opens the bracket closed at `close` (`lo` when none in `lo..` does).
pub(super) fn matching_open(toks: &[(Tok, usize, usize)], lo: usize, close: usize) -> usize {
    let mut depth = 0i32;
    for m in (lo..=close).rev() {
        match toks[m].0 {
            Tok::Close => depth += 1,
            Tok::Open(_) => {
                depth -= 1;
                if depth == 0 {
                    return m;
                }
            }
            _ => {}
        }
    }
    lo
}

/// The token after the bracket that opens at `j` closes (the end when it never does).
pub(super) fn past(toks: &[(Tok, usize, usize)], j: usize) -> usize {
    let mut depth = 0i32;
    for (m, t) in toks.iter().enumerate().skip(j) {
        match t.0 {
            Tok::Open(_) => depth += 1,
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    return m + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

pub(super) const KEYWORDS: [&str; 8] = ["in", "not", "and", "or", "if", "else", "elif", "is"];

fn rewrite(source: &str, toks: &[(Tok, usize, usize)], block: bool, edits: &mut Edits) {
    let text = |k: usize| &source[toks[k].1..toks[k].2];
    let keyword = if block && !toks.is_empty() && toks[0].0 == Tok::Name { text(0) } else { "" };
    // Assignment targets (`for (k, v) in`, `set (a, b) =`) are not tuple literals.
    let mut first = 0;
    if keyword == "for" || keyword == "set" {
        let mut depth = 0i32;
        for k in 1..toks.len() {
            match toks[k].0 {
                Tok::Open(_) => depth += 1,
                Tok::Close => depth -= 1,
                Tok::Name if depth == 0 && keyword == "for" && text(k) == "in" => {
                    first = k + 1;
                    break;
                }
                Tok::Op if depth == 0 && keyword == "set" && text(k) == "=" => {
                    first = k + 1;
                    break;
                }
                _ => {}
            }
        }
        if first == 0 {
            return;
        }
    }
    if keyword == "for" {
        let mut depth = 0i32;
        let mut last = toks.len();
        for k in first..toks.len() {
            match toks[k].0 {
                Tok::Open(_) => depth += 1,
                Tok::Close => depth -= 1,
                Tok::Name if depth == 0 && (text(k) == "if" || text(k) == "recursive") => {
                    last = k;
                    break;
                }
                _ => {}
            }
        }
        if last > first {
            edits.wrap(toks[first].1, toks[last - 1].2, "(", ")|__py_seq");
        }
    } else if !block || keyword == "set" || keyword == "if" || keyword == "elif" {
        // Jinja2 parses these as `parse_tuple`: `{{ 1, 2 }}`, `{% set t = 1, 2 %}`
        // are tuples without brackets.
        let from = if block { first.max(1) } else { 0 };
        let mut depth = 0i32;
        let comma = toks[from.min(toks.len())..].iter().any(|t| {
            depth += i32::from(matches!(t.0, Tok::Open(_))) - i32::from(t.0 == Tok::Close);
            t.0 == Tok::Comma && depth == 0
        });
        if comma {
            edits.wrap(toks[from].1, toks[toks.len() - 1].2, "((", ")|__py_tuple)");
        }
    }
    for k in first.max(usize::from(block))..toks.len() {
        if toks[k].0 != Tok::Open(b'(') {
            continue;
        }
        let call = k > first
            && match toks[k - 1].0 {
                Tok::Name => !KEYWORDS.contains(&text(k - 1)),
                Tok::Lit | Tok::Close => true,
                _ => false,
            };
        if call {
            continue;
        }
        let (mut depth, mut comma, mut close) = (0i32, false, None);
        for (m, t) in toks.iter().enumerate().skip(k) {
            match t.0 {
                Tok::Open(_) => depth += 1,
                Tok::Close => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(m);
                        break;
                    }
                }
                Tok::Comma if depth == 1 => comma = true,
                _ => {}
            }
        }
        if let Some(m) = close {
            if comma || m == k + 1 {
                edits.wrap(toks[k].1, toks[m].2, "(", "|__py_tuple)");
            }
        }
    }
    // `a % b`: Python's `%` (printf-style formatting of a string, the floored
    // modulo of numbers), as `((a)|__py_mod(b))`. Jinja2 binds `%` as it binds `*`,
    // `/` and `//` (left to right), tighter than `+`, `-`, `~` and comparisons, looser
    // than `**`, unary signs, filters and attribute access.
    let lo = first.max(usize::from(block));
    let operand_end = |t: &(Tok, usize, usize)| match t.0 {
        Tok::Name => !KEYWORDS.contains(&&source[t.1..t.2]),
        Tok::Lit | Tok::Close => true,
        _ => false,
    };
    let matching_open = |close: usize| matching_open(toks, lo, close);
    let past = |j: usize| past(toks, j);
    let is_op = |j: usize, op: &str| toks.get(j).is_some_and(|t| t.0 == Tok::Op && &source[t.1..t.2] == op);
    // The end (exclusive) of the `parse_unary` operand that starts at `j`.
    let unary_end = |mut j: usize| -> Option<usize> {
        while is_op(j, "-") || is_op(j, "+") {
            j += 1;
        }
        j = match toks.get(j).map(|t| t.0) {
            Some(Tok::Name | Tok::Lit) => j + 1,
            Some(Tok::Open(_)) => past(j),
            _ => return None,
        };
        loop {
            match toks.get(j).map(|t| t.0) {
                Some(Tok::Op) if is_op(j, ".") && toks.get(j + 1).is_some_and(|t| t.0 == Tok::Name) => j += 2,
                Some(Tok::Open(b'[' | b'(')) => j = past(j),
                Some(Tok::Op) if is_op(j, "|") && toks.get(j + 1).is_some_and(|t| t.0 == Tok::Name) => {
                    j += 2;
                    if toks.get(j).is_some_and(|t| t.0 == Tok::Open(b'(')) {
                        j = past(j);
                    }
                }
                _ => return Some(j),
            }
        }
    };
    let mut chain_start: Option<(usize, usize)> = None; // (first token, end of the last `%` rewritten)
    for k in lo + 1..toks.len() {
        if !is_op(k, "%") || !operand_end(&toks[k - 1]) {
            continue;
        }
        // The left operand: back over the `*`, `/`, `//`, `%`, `**` chain it ends.
        let mut j = k;
        while j > lo {
            let t = &toks[j - 1];
            let word = &source[t.1..t.2];
            match t.0 {
                Tok::Close => j = matching_open(j - 1),
                Tok::Name if KEYWORDS.contains(&word) => break,
                Tok::Name | Tok::Lit => j -= 1,
                Tok::Op if matches!(word, "." | "|" | "*" | "/" | "%") => j -= 1,
                // A sign is unary where no operand ends before it.
                Tok::Op if matches!(word, "-" | "+") && (j - 1 == lo || !operand_end(&toks[j - 2])) => j -= 1,
                _ => break,
            }
        }
        // The right operand: a unary operand, and any `** operand` after it.
        let Some(mut end) = unary_end(k + 1) else { continue };
        while is_op(end, "*") && is_op(end + 1, "*") && toks[end].2 == toks[end + 1].1 {
            match unary_end(end + 2) {
                Some(e) => end = e,
                None => break,
            }
        }
        let (start, stop) = (toks[j].1, toks[k - 1].2);
        // The left operand of a second `%` of a chain is the first's rewriting, a
        // bracketed primary already.
        let chained = chain_start.is_some_and(|(s, e)| s == j && e == k - 1);
        edits.wrap(start, toks[end - 1].2, "(", "))");
        if !chained {
            edits.wrap(start, stop, "(", ")");
        }
        edits.replace(toks[k].1, toks[k].2, "|__py_mod(");
        chain_start = Some((j, end - 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_and_string_loops_are_rewritten() {
        let r = |s| pythonize(s, "{{", "}}").into_owned();
        assert_eq!(r("{{ (1, 2) }}"), "{{ ((1, 2)|__py_tuple) }}");
        assert_eq!(r("{{ f(1, 2) }}{{ (a) }}"), "{{ f(1, 2) }}{{ (a) }}");
        assert_eq!(r("{{ () }}"), "{{ (()|__py_tuple) }}");
        assert_eq!(r("{% for (k, v) in x if k -%}"), "{% for (k, v) in (x)|__py_seq if k -%}");
        assert_eq!(r("{% raw %}{{ (1, 2) }}{% endraw %}"), "{% raw %}{{ (1, 2) }}{% endraw %}");
        assert_eq!(r("{# (1, 2) #}{{ {'a': (1,)} }}"), "{# (1, 2) #}{{ {'a': ((1,)|__py_tuple)} }}");
        assert_eq!(r("{{ '%s' % x.y|upper ~ 'z' }}"), "{{ (('%s') |__py_mod( x.y|upper)) ~ 'z' }}");
        assert_eq!(r("{{ a * -b % c ** 2 + 1 }}"), "{{ ((a * -b) |__py_mod( c ** 2)) + 1 }}");
        assert_eq!(r("{{ a % b % c }}"), "{{ (((a) |__py_mod( b)) |__py_mod( c)) }}");
        assert_eq!(r("{{ a % b * c % d }}"), "{{ ((((a) |__py_mod( b)) * c) |__py_mod( d)) }}");
        assert_eq!(r("{% if n % 2 %}"), "{% if ((n) |__py_mod( 2)) %}");
        assert_eq!(r("{% set t = 1, f(2, 3) %}"), "{% set t = ((1, f(2, 3))|__py_tuple) %}");
        assert_eq!(r("{{ 1, }}{% set a, b = c %}"), "{{ ((1,)|__py_tuple) }}{% set a, b = c %}");
        assert_eq!(r("{% for x in 1, 2 %}"), "{% for x in (1, 2)|__py_seq %}");
        assert_eq!(r("{{ (1, 2) % x }}"), "{{ ((((1, 2))|__py_tuple) |__py_mod( x)) }}");
        assert_eq!(pythonize("${ x in (1, 2) }", "${", "}"), "${ x in ((1, 2)|__py_tuple) }");
    }
}
