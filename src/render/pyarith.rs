//! Binary `+` and `-` handed to a filter, for an environment whose values carry
//! Python's own arithmetic (Tsugite's `datetime - timedelta(days=7)`; minijinja's
//! operators know numbers, strings and lists only): `a - b` becomes
//! `((a)|__py_sub(b))`, `a + b` `((a)|__py_add(b))`. The filters are the caller's;
//! they fall back to the ordinary operator for other values. Jinja2 binds `+` and
//! `-` left to right, looser than `*`, `/`, `//`, `%`, `**`, signs, filters and
//! attribute access, tighter than `~`, comparisons and the rest. No newline is added,
//! so error lines stay the file's lines.

use std::borrow::Cow;

use super::pysource::{is_raw, matching_open, past, tokens, Edits, Tok, KEYWORDS};

/// `source` (already through [`super::pythonize`]) with binary `+`/`-` rewritten,
/// for a template whose variables are written `var_start … var_end`.
pub fn python_additions<'a>(source: &'a str, var_start: &str, var_end: &str) -> Cow<'a, str> {
    if !source.contains('+') && !source.contains('-') {
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
            let (toks, stop) = tokens(source, i + open, if block { "%}" } else { var_end });
            if block && is_raw(source, &toks) {
                i = source[stop..].find("endraw").map_or(b.len(), |e| stop + e);
                continue;
            }
            // A sign right after the delimiter is whitespace control (`{{-`, `{%-`).
            let control = toks.first().is_some_and(|t| t.1 == i + open && matches!(&source[t.1..t.2], "-" | "+"));
            rewrite(source, &toks, usize::from(block) + usize::from(control), &mut edits);
            i = stop.max(i + 1);
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    edits.apply(source)
}

fn rewrite(source: &str, toks: &[(Tok, usize, usize)], lo: usize, edits: &mut Edits) {
    let word = |j: usize| &source[toks[j].1..toks[j].2];
    let is_op = |j: usize, op: &str| toks.get(j).is_some_and(|t| t.0 == Tok::Op && word(j) == op);
    let operand_end = |j: usize| match toks[j].0 {
        Tok::Name => !KEYWORDS.contains(&word(j)),
        Tok::Lit | Tok::Close => true,
        _ => false,
    };
    // `1e-3` is one number.
    let exponent = |j: usize| {
        toks[j].0 == Tok::Lit && toks[j].2 == toks[j + 1].1 && word(j).starts_with(|c: char| c.is_ascii_digit()) && word(j).ends_with(['e', 'E'])
    };
    let binary = |j: usize| (is_op(j, "+") || is_op(j, "-")) && j > lo && operand_end(j - 1) && !exponent(j - 1);
    let matching_open = |close: usize| matching_open(toks, lo, close);
    let past = |j: usize| past(toks, j);
    // The end (exclusive) of the unary operand (signs, a primary, its postfixes) at `j`.
    let unary_end = |mut j: usize| -> Option<usize> {
        while is_op(j, "-") || is_op(j, "+") {
            j += 1;
        }
        j = match toks.get(j).map(|t| t.0) {
            Some(Tok::Name) if !KEYWORDS.contains(&word(j)) => j + 1,
            Some(Tok::Lit) => j + 1,
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
    let mut previous: Option<(usize, usize)> = None; // (left start, right end) of the last rewrite
    for k in lo + 1..toks.len() {
        if !binary(k) {
            continue;
        }
        // The left operand: back over the multiplicative chain it ends.
        let mut j = k;
        while j > lo {
            let t = &toks[j - 1];
            match t.0 {
                Tok::Close => j = matching_open(j - 1),
                Tok::Name if KEYWORDS.contains(&word(j - 1)) => break,
                Tok::Name | Tok::Lit => j -= 1,
                Tok::Op if matches!(word(j - 1), "." | "|" | "*" | "/" | "%") => j -= 1,
                Tok::Op if matches!(word(j - 1), "-" | "+") && !binary(j - 1) => j -= 1,
                _ => break,
            }
        }
        // A chain `a - b + c`: the left operand of the second is the first's rewriting.
        let chained = previous.is_some_and(|(_, end)| end == k) && j > lo && binary(j - 1);
        let start = if chained { previous.map_or(j, |(s, _)| s) } else { j };
        if start == k {
            continue;
        }
        // The right operand: a term (`*`, `/`, `//`, `%`, `**` between unary operands).
        let Some(mut end) = unary_end(k + 1) else { continue };
        while is_op(end, "*") || is_op(end, "/") || is_op(end, "%") {
            let next = if (is_op(end + 1, "*") || is_op(end + 1, "/")) && toks[end].2 == toks[end + 1].1 { end + 2 } else { end + 1 };
            match unary_end(next) {
                Some(e) => end = e,
                None => break,
            }
        }
        edits.wrap(toks[start].1, toks[end - 1].2, "(", "))");
        if !chained {
            edits.wrap(toks[start].1, toks[k - 1].2, "(", ")");
        }
        edits.replace(toks[k].1, toks[k].2, if word(k) == "+" { "|__py_add(" } else { "|__py_sub(" });
        previous = Some((start, end));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn additions_become_filters() {
        let r = |s| python_additions(s, "{{", "}}").into_owned();
        assert_eq!(r("{{ a - b }}"), "{{ ((a) |__py_sub( b)) }}");
        assert_eq!(r("{{ (now() - t(days=7)).x() }}"), "{{ (((now()) |__py_sub( t(days=7)))).x() }}");
        assert_eq!(r("{{ a - b + c }}"), "{{ (((a) |__py_sub( b)) |__py_add( c)) }}");
        assert_eq!(r("{{ a * 2 - b / 3 ~ 'x' }}"), "{{ ((a * 2) |__py_sub( b / 3)) ~ 'x' }}");
        assert_eq!(r("{{ -a + -b }}"), "{{ ((-a) |__py_add( -b)) }}");
        assert_eq!(r("{% set x = d - t %}{% if d > e - t %}"), "{% set x = ((d) |__py_sub( t)) %}{% if d > ((e) |__py_sub( t)) %}");
        assert_eq!(r("{{ x|f(1) + y.z[0] }}{{- a -}}"), "{{ ((x|f(1)) |__py_add( y.z[0])) }}{{- a -}}");
        assert_eq!(r("{{ 'a-b' }}{# a - b #}{{ 1e-3 }}"), "{{ 'a-b' }}{# a - b #}{{ 1e-3 }}");
        assert_eq!(r("{{- a - b -}}{%- set c = a + 1 -%}"), "{{- ((a) |__py_sub( b)) -}}{%- set c = ((a) |__py_add( 1)) -%}");
    }
}
