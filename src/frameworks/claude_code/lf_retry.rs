//! Claude Code 2.1.337's second try of the lenient retry (`irr` in its bundle): when
//! the block holds CRLF, no lone CR, is at most 65,536 UTF-16 units and shows no sign
//! of a YAML bomb (more than 256 flow openers or bare `-`/`?`, a merge key, an escaped
//! `<`, an anchor used by an alias), the retry runs once more on the text with CRLF
//! turned into LF. Its result counts only when every re-quoted line is safe: at most
//! eight of them, the texts' lengths within 65,536, a value that starts no YAML
//! construct (`&`, `!`, `|`, `>`, an alias, a comment, an unclosed bracket or quote),
//! and no line that parses on its own (or in the re-quoted text) to another value.

use super::frontmatter::{is_js_space, key_value, parse_yaml};
use serde_json::Value as Json;

/// `z`: how many re-quoted lines the LF retry accepts.
const MAX_REQUOTED: usize = 8;
/// `$Q` and `W`: the bound on the block's length, and on that length plus the
/// rewritten text's length once per re-quoted line (UTF-16 units).
const MAX_UNITS: usize = 65_536;
/// `X`: flow openers and bare `-`/`?` indicators beyond which the LF retry is not tried.
const MAX_OPENERS: usize = 256;
/// `Z`: how far back an anchor's token is looked at.
const MAX_ANCHOR_TOKEN: usize = 256;

fn units(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Whether the block may be retried with LF line ends (`n.includes("\r\n") &&
/// !/\r(?!\n)/.test(n) && n.length <= $Q && !N(n) && !V(n)`).
pub fn applies(block: &str) -> bool {
    block.contains("\r\n")
        && !block.split("\r\n").any(|part| part.contains('\r'))
        && units(block) <= MAX_UNITS
        && !too_many_openers(block)
        && !merge_or_escape(block)
        && !anchor_with_alias(block)
}

/// The LF retry's check (the `.some(...)` over the LF text's lines): `lf` is the block
/// with LF line ends, `rewritten` the re-quoted, untabbed `lf` that parsed.
pub fn accepted(block: &str, lf: &str, rewritten: &str) -> bool {
    let quoted: Vec<&str> = rewritten.split('\n').collect();
    let (mut count, mut length) = (0usize, units(block));
    for (h, line) in lf.split('\n').enumerate() {
        let Some((key, value)) = key_value(line) else { continue };
        let value = value.trim_end_matches(is_js_space);
        if quoted.get(h) == Some(&line) {
            continue;
        }
        count += 1;
        length += units(rewritten);
        if count > MAX_REQUOTED || length > MAX_UNITS || starts_a_construct(value) {
            return false;
        }
        let restored: Vec<&str> = quoted.iter().enumerate().map(|(g, q)| if g == h { line } else { q }).collect();
        if [line.to_string(), restored.join("\n")].iter().any(|text| reads_otherwise(text, key, value)) {
            return false;
        }
    }
    true
}

/// `_(Mz(y))[f] !== E` inside a `try` that answers false when parsing throws.
fn reads_otherwise(text: &str, key: &str, value: &str) -> bool {
    match parse_yaml(text) {
        Ok(Json::Object(map)) => map.get(key) != Some(&Json::String(value.to_string())),
        Ok(_) => true,
        Err(_) => false,
    }
}

/// `P`: `/^[&!|>]|^\*[\w-]+(?=$|[\s,])|(?:^|\s)#|^\[(?!.*\]$)|^\{(?!.*\})|^"(?!.*"$)|^'(?!.*'$)/`.
fn starts_a_construct(value: &str) -> bool {
    let mut chars = value.chars();
    let first = chars.next();
    let rest = chars.as_str();
    let alias = || {
        let run = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-').len();
        run > 0 && rest[run..].chars().next().is_none_or(|c| is_js_space(c) || c == ',')
    };
    let comment = value.starts_with('#') || value.char_indices().any(|(i, c)| is_js_space(c) && value[i + c.len_utf8()..].starts_with('#'));
    match first {
        Some('&' | '!' | '|' | '>') => true,
        Some('*') if alias() => true,
        _ if comment => true,
        Some('[') => !value.ends_with(']'),
        Some('{') => !rest.contains('}'),
        Some('"') => !rest.ends_with('"'),
        Some('\'') => !rest.ends_with('\''),
        _ => false,
    }
}

/// `N`: more than 256 `[`, `{`, or `-`/`?` between white space (the one before may
/// also be a BOM).
fn too_many_openers(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let mut count = 0;
    for (r, &c) in chars.iter().enumerate() {
        let before = if r == 0 { ' ' } else { chars[r - 1] };
        let after = chars.get(r + 1).copied().unwrap_or(' ');
        let bare = matches!(c, '-' | '?') && matches!(before, ' ' | '\t' | '\r' | '\n' | '\u{feff}') && matches!(after, ' ' | '\t' | '\r' | '\n');
        if c == '[' || c == '{' || bare {
            count += 1;
            if count > MAX_OPENERS {
                return true;
            }
        }
    }
    false
}

/// `U`: a merge key (`<<:`), or `<` written as an escape.
fn merge_or_escape(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r#"(?i)<<["']?[\t\n\x0B\x0C\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]*[:#]|<\\(?:[\r\n]|(?:x|u00|U000000)3c)|\\(?:x|u00|U000000)3c[<\\]"#,
        )
        .expect("pattern")
    });
    re.is_match(text)
}

/// `B`: an anchor (by `v`) that an alias names, looked for in the text and in its
/// lines with every `key: value` value quoted, backslashes read as quotes.
fn anchor_with_alias(text: &str) -> bool {
    if !text.contains('&') || !text.contains('*') {
        return false;
    }
    let quoted = text.split('\n').map(quote_value_line);
    let joined: Vec<String> = std::iter::once(text.to_string()).chain(quoted).collect();
    let r: Vec<u16> = joined.join("\n").replace('\\', "\"").encode_utf16().collect();
    let anchors: std::collections::HashSet<Vec<u16>> = names_after(&r, b'&', true).into_iter().collect();
    anchor_token(&r) && names_after(&r, b'*', false).iter().any(|n| anchors.contains(n))
}

/// `/^([a-zA-Z_-]+:)\s+(\S.*)\r?$/` → `$1 "$2"` on one line.
fn quote_value_line(line: &str) -> String {
    let body = line.strip_suffix('\r').unwrap_or(line);
    match key_value(body) {
        Some((key, value)) => format!("{key}: \"{value}\""),
        None => line.to_string(),
    }
}

fn is_word(u: u16) -> bool {
    u < 128 && ((u as u8).is_ascii_alphanumeric() || u == u16::from(b'_'))
}

fn is_blank(u: Option<&u16>) -> bool {
    matches!(u.copied().unwrap_or(0x20), 0x20 | 0x09 | 0x0d | 0x0a)
}

/// The names `&(?=(\w+|[^ \t\r\n]))&*` (anchors, `skip_repeats`) or
/// `\*(?=(\w+|[^ \t\r\n]))` captures, in UTF-16 units as JavaScript reads them.
fn names_after(n: &[u16], mark: u8, skip_repeats: bool) -> Vec<Vec<u16>> {
    let mut names = Vec::new();
    let mut i = 0;
    while i < n.len() {
        if n[i] != u16::from(mark) {
            i += 1;
            continue;
        }
        let word = n[i + 1..].iter().take_while(|u| is_word(**u)).count();
        let name = if word > 0 {
            Some(n[i + 1..i + 1 + word].to_vec())
        } else if is_blank(n.get(i + 1)) {
            None
        } else {
            Some(vec![n[i + 1]])
        };
        i += 1;
        if name.is_some() {
            while skip_repeats && n.get(i) == Some(&u16::from(b'&')) {
                i += 1;
            }
        }
        names.extend(name);
    }
    names
}

/// `/[\p{L}\p{N}]/u` on one UTF-16 unit (a surrogate is neither).
fn is_letter_or_digit(u: u16) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(r"^[\p{L}\p{N}]$").expect("pattern"));
    char::from_u32(u32::from(u)).is_some_and(|c| re.is_match(c.encode_utf8(&mut [0; 4])))
}

/// `v`: whether some `&` stands where YAML reads an anchor.
fn anchor_token(n: &[u16]) -> bool {
    let (space, tab) = (u16::from(b' '), u16::from(b'\t'));
    for e in (0..n.len()).filter(|&i| n[i] == u16::from(b'&')) {
        if is_blank(n.get(e + 1)) {
            continue;
        }
        let before = if e == 0 { None } else { Some(n[e - 1]) };
        if before.is_some_and(|r| is_letter_or_digit(r) || r == u16::from(b'&')) {
            continue;
        }
        let start = if before == Some(space) || before == Some(tab) {
            let mut a = e - 1;
            while n[a] == space || n[a] == tab {
                if a == 0 {
                    return true;
                }
                a -= 1;
            }
            if !is_letter_or_digit(n[a]) {
                return true;
            }
            a + 1
        } else {
            e
        };
        let mut o = start;
        while o > 0 && !is_blank(n.get(o - 1)) {
            if start - (o - 1) > MAX_ANCHOR_TOKEN {
                return true;
            }
            o -= 1;
        }
        let token = &n[o..start];
        if token.iter().any(|u| *u == u16::from(b'!') || *u == 0xfeff) {
            return true;
        }
        let last_of = |c: u8| token.iter().rposition(|t| *t == u16::from(c)).map_or(-1, |p| p as isize);
        let mut l = last_of(b'[').max(last_of(b'{')).max(last_of(b','));
        for (a, _) in token.iter().enumerate().filter(|(_, u)| **u == u16::from(b':')) {
            if a == 0 || b"\"']}[{,".iter().any(|q| token[a - 1] == u16::from(*q)) {
                l = l.max(a as isize);
            }
        }
        let after = token.get((l + 1) as usize).copied().unwrap_or(u16::from(b'!'));
        if b"!&*".iter().any(|q| after == u16::from(*q)) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lf_retry_applies_to_crlf_without_lone_cr_or_bombs() {
        assert!(applies("description: a: b\r\nname: x\r\n"));
        assert!(!applies("description: a: b\nname: x\n"));
        assert!(!applies("description: a\rb: c\r\nname: x\r\n"));
        assert!(!applies("a: &x 1\r\nb: *x\r\n"));
        assert!(!applies("<<: {a: 1}\r\nb: c: d\r\n"));
        assert!(!applies(&"[".repeat(257)));
        assert!(applies("a: x & y\r\nb: 2 * 3: x\r\n"));
    }

    #[test]
    fn a_requoted_value_must_not_start_a_construct() {
        for v in ["&a x: y", "!tag: x", "|x: y", "*alias", "*a, b", "x # c: d", "#c", "[open: x", "{a: b", "\"a: b", "'x"] {
            assert!(starts_a_construct(v), "{v}");
        }
        for v in ["Use this: when", "*not!alias", "x#y: z", "[a]: b]", "{a: }b", "\"a: b\""] {
            assert!(!starts_a_construct(v), "{v}");
        }
    }

    #[test]
    fn nine_requoted_lines_are_too_many() {
        let lines = |n: usize| (0..n).map(|i| format!("k{}: a: b", "x".repeat(i + 1))).collect::<Vec<_>>();
        let check = |n: usize| {
            let lf = lines(n).iter().map(|l| l.replace("k", "")).map(|l| format!("d{l}")).collect::<Vec<_>>().join("\n");
            let block = lf.replace('\n', "\r\n");
            let rewritten = super::super::frontmatter::requote(&lf);
            accepted(&block, &lf, &rewritten)
        };
        assert!(check(8));
        assert!(!check(9));
    }
}
