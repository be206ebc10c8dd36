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
    env.add_filter("__py_mod", |fmt: Value, args: Value| match fmt.as_str() {
        Some(f) => super::pyformat::percent_format(f, args).map(Value::from),
        None => Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, "unsupported operand for %")),
    });
    // minijinja's `int` takes no default and no base.
    env.add_filter("int", super::pyformat::int_filter);
    env.add_filter("__py_seq", |v: Value| match (v.kind(), v.as_str()) {
        (ValueKind::String, Some(s)) => Value::from(s.chars().map(|c| Value::from(c.to_string())).collect::<Vec<_>>()),
        _ => v,
    });
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Tok {
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
    if !source.contains('(') && !source.contains("for") && !source.contains('%') {
        return Cow::Borrowed(source);
    }
    let b = source.as_bytes();
    let mut inserts: Vec<(usize, usize, &'static str)> = Vec::new();
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
            rewrite(source, &toks, block, &mut inserts);
            i = stop.max(i + 1);
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    if inserts.is_empty() {
        return Cow::Borrowed(source);
    }
    inserts.sort_by_key(|&(at, _, _)| at);
    let mut out = String::with_capacity(source.len() + inserts.len() * 12);
    let mut from = 0;
    for (at, to, text) in inserts {
        out.push_str(&source[from..at]);
        out.push_str(text);
        from = to;
    }
    out.push_str(&source[from..]);
    Cow::Owned(out)
}

fn is_raw(source: &str, toks: &[(Tok, usize, usize)]) -> bool {
    matches!(toks.first(), Some(&(Tok::Name, s, e)) if &source[s..e] == "raw")
}

/// The tokens of one tag from `at` up to its end delimiter (outside brackets), and
/// where scanning goes on after the tag.
fn tokens(source: &str, at: usize, end: &str) -> (Vec<(Tok, usize, usize)>, usize) {
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

const KEYWORDS: [&str; 8] = ["in", "not", "and", "or", "if", "else", "elif", "is"];

fn rewrite(source: &str, toks: &[(Tok, usize, usize)], block: bool, inserts: &mut Vec<(usize, usize, &'static str)>) {
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
            inserts.push((toks[first].1, toks[first].1, "("));
            inserts.push((toks[last - 1].2, toks[last - 1].2, ")|__py_seq"));
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
                inserts.push((toks[k].1, toks[k].1, "("));
                inserts.push((toks[m].2, toks[m].2, "|__py_tuple)"));
            }
        }
    }
    // `'fmt' % args`: Python's printf-style formatting, as `('fmt'|__py_mod(args))`.
    for k in first.max(1)..toks.len() {
        let is_str = |t: &(Tok, usize, usize)| t.0 == Tok::Lit && matches!(source.as_bytes()[t.1], b'\'' | b'"');
        if toks[k].0 != Tok::Op || text(k) != "%" || !is_str(&toks[k - 1]) {
            continue;
        }
        let mut j = k + 1;
        while j < toks.len() && toks[j].0 == Tok::Op && matches!(text(j), "-" | "+") {
            j += 1;
        }
        let past = |j: usize| -> usize {
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
        };
        j = match toks.get(j).map(|t| t.0) {
            Some(Tok::Name | Tok::Lit) => j + 1,
            Some(Tok::Open(_)) => past(j),
            _ => continue,
        };
        loop {
            match toks.get(j).map(|t| t.0) {
                Some(Tok::Op) if text(j) == "." && toks.get(j + 1).is_some_and(|t| t.0 == Tok::Name) => j += 2,
                Some(Tok::Open(b'[' | b'(')) => j = past(j),
                Some(Tok::Op) if text(j) == "|" && toks.get(j + 1).is_some_and(|t| t.0 == Tok::Name) => {
                    j += 2;
                    if toks.get(j).is_some_and(|t| t.0 == Tok::Open(b'(')) {
                        j = past(j);
                    }
                }
                _ => break,
            }
        }
        inserts.push((toks[k - 1].1, toks[k - 1].1, "("));
        inserts.push((toks[k].1, toks[k].2, "|__py_mod("));
        inserts.push((toks[j - 1].2, toks[j - 1].2, "))"));
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
        assert_eq!(r("{{ '%s' % x.y|upper ~ 'z' }}"), "{{ ('%s' |__py_mod( x.y|upper)) ~ 'z' }}");
        assert_eq!(pythonize("${ x in (1, 2) }", "${", "}"), "${ x in ((1, 2)|__py_tuple) }");
    }
}
