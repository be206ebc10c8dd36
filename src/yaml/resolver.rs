//! PyYAML's YAML 1.1 implicit resolver (`resolver.py`), as hand-written matchers.
//!
//! Like PyYAML, candidates are chosen by the scalar's FIRST character and tried in
//! registration order (bool, float, int, merge, null, timestamp, value); the first whose
//! regex matches wins, otherwise the scalar is a `str`. Python's `$` also matches just
//! before one trailing `\n`, which only matters for `! "…\n"` scalars; that is mirrored.

pub(crate) const STR: &str = "tag:yaml.org,2002:str";
pub(crate) const SEQ: &str = "tag:yaml.org,2002:seq";
pub(crate) const MAP: &str = "tag:yaml.org,2002:map";
pub(crate) const BOOL: &str = "tag:yaml.org,2002:bool";
pub(crate) const INT: &str = "tag:yaml.org,2002:int";
pub(crate) const FLOAT: &str = "tag:yaml.org,2002:float";
pub(crate) const NULL: &str = "tag:yaml.org,2002:null";
pub(crate) const TIMESTAMP: &str = "tag:yaml.org,2002:timestamp";
pub(crate) const MERGE: &str = "tag:yaml.org,2002:merge";
pub(crate) const VALUE: &str = "tag:yaml.org,2002:value";
pub(crate) const BINARY: &str = "tag:yaml.org,2002:binary";
pub(crate) const OMAP: &str = "tag:yaml.org,2002:omap";
pub(crate) const PAIRS: &str = "tag:yaml.org,2002:pairs";
pub(crate) const SET: &str = "tag:yaml.org,2002:set";

/// A candidate tag and its regex, as a matcher.
type Matcher = (&'static str, fn(&str) -> bool);

/// The tag PyYAML's `Resolver.resolve(ScalarNode, value, implicit)` returns.
pub(crate) fn resolve_scalar(value: &str, implicit_plain: bool) -> &'static str {
    if !implicit_plain {
        return STR;
    }
    let Some(first) = value.chars().next() else {
        return NULL; // the '' resolver list holds only null, and '' matches it
    };
    let candidates: &[Matcher] = match first {
        'y' | 'Y' | 'n' | 'N' | 't' | 'T' | 'f' | 'F' | 'o' | 'O' => &[(BOOL, is_bool), (NULL, is_null)],
        '-' | '+' => &[(FLOAT, is_float), (INT, is_int)],
        '0'..='9' => &[(FLOAT, is_float), (INT, is_int), (TIMESTAMP, is_timestamp)],
        '.' => &[(FLOAT, is_float)],
        '<' => &[(MERGE, |s| s == "<<")],
        '~' => &[(NULL, is_null)],
        '=' => &[(VALUE, |s| s == "=")],
        _ => &[],
    };
    for (tag, matcher) in candidates {
        if python_match(value, *matcher) {
            return tag;
        }
    }
    STR
}

/// `re.match(r'^…$', s)`: Python's `$` also matches before a final newline.
pub(crate) fn python_match(s: &str, m: impl Fn(&str) -> bool) -> bool {
    m(s) || s.strip_suffix('\n').is_some_and(m)
}

fn is_bool(s: &str) -> bool {
    // `yes|Yes|YES|no|No|NO|true|True|TRUE|…|off|Off|OFF`: a word in lower case,
    // capitalised or upper case.
    ["yes", "no", "true", "false", "on", "off"].iter().any(|w| {
        s.eq_ignore_ascii_case(w) && (s[1..] == w[1..] || s.bytes().all(|b| b.is_ascii_uppercase()))
    })
}

fn is_null(s: &str) -> bool {
    matches!(s, "~" | "null" | "Null" | "NULL" | "")
}

fn all(s: &str, f: impl Fn(u8) -> bool) -> bool {
    s.bytes().all(f)
}
fn digit_(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}
fn strip_sign(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

/// `[0-5]?[0-9]`
fn is_sexa_part(p: &str) -> bool {
    let b = p.as_bytes();
    match b.len() {
        1 => b[0].is_ascii_digit(),
        2 => (b'0'..=b'5').contains(&b[0]) && b[1].is_ascii_digit(),
        _ => false,
    }
}

/// `[1-9][0-9_]*(?::[0-5]?[0-9])+` (no sign)
fn is_sexa_int(s: &str) -> bool {
    let mut parts = s.split(':');
    let head = parts.next().unwrap_or("");
    let b = head.as_bytes();
    if b.is_empty() || !(b'1'..=b'9').contains(&b[0]) || !all(&head[1..], digit_) {
        return false;
    }
    let mut n = 0;
    for p in parts {
        if !is_sexa_part(p) {
            return false;
        }
        n += 1;
    }
    n > 0
}

/// The int regex of `resolver.py`.
pub(crate) fn is_int(s: &str) -> bool {
    let s = strip_sign(s);
    if let Some(r) = s.strip_prefix("0b") {
        return !r.is_empty() && all(r, |b| b == b'0' || b == b'1' || b == b'_');
    }
    if let Some(r) = s.strip_prefix("0x") {
        return !r.is_empty() && all(r, |b| b.is_ascii_hexdigit() || b == b'_');
    }
    if s == "0" {
        return true;
    }
    if let Some(r) = s.strip_prefix('0') {
        return !r.is_empty() && all(r, |b| (b'0'..=b'7').contains(&b) || b == b'_');
    }
    let b = s.as_bytes();
    if b.is_empty() || !(b'1'..=b'9').contains(&b[0]) {
        return false;
    }
    all(&s[1..], digit_) || is_sexa_int(s)
}

/// `(?:[eE][-+][0-9]+)?$` after the fraction digits.
fn exponent_ok(e: &str) -> bool {
    if e.is_empty() {
        return true;
    }
    let b = e.as_bytes();
    b.len() >= 3
        && (b[0] == b'e' || b[0] == b'E')
        && (b[1] == b'-' || b[1] == b'+')
        && all(&e[2..], |c| c.is_ascii_digit())
}

/// The float regex of `resolver.py`.
pub(crate) fn is_float(s: &str) -> bool {
    // |\.(?:nan|NaN|NAN)   |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?   (unsigned)
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    if let Some(r) = s.strip_prefix('.') {
        if r.as_bytes().first().is_some_and(|b| b.is_ascii_digit()) {
            let end = r.bytes().position(|b| !digit_(b)).unwrap_or(r.len());
            if exponent_ok(&r[end..]) {
                return true;
            }
        }
    }
    let u = strip_sign(s);
    // [-+]?\.(?:inf|Inf|INF)
    if matches!(u, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    // [-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?
    if u.as_bytes().first().is_some_and(|b| b.is_ascii_digit()) {
        let int_end = u.bytes().position(|b| !digit_(b)).unwrap_or(u.len());
        if let Some(frac) = u[int_end..].strip_prefix('.') {
            let end = frac.bytes().position(|b| !digit_(b)).unwrap_or(frac.len());
            if exponent_ok(&frac[end..]) {
                return true;
            }
        }
        // [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        if let Some(dot) = u.find('.') {
            let (head, tail) = (&u[..dot], &u[dot + 1..]);
            if all(tail, digit_) {
                let mut parts = head.split(':');
                let first = parts.next().unwrap_or("");
                let mut n = 0;
                let mut ok = !first.is_empty() && all(first, digit_) && first.as_bytes()[0].is_ascii_digit();
                for p in parts {
                    ok &= is_sexa_part(p);
                    n += 1;
                }
                if ok && n > 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// The timestamp regex of `resolver.py` (date `YYYY-MM-DD`, or a full date-time).
pub(crate) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() == 10 && is_ymd_strict(b) {
        return true;
    }
    parse_timestamp_parts(s, true).is_some_and(|p| p.hour.is_some())
}

fn is_ymd_strict(b: &[u8]) -> bool {
    b.len() == 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
}

/// The groups of PyYAML's timestamp regexes, as text.
#[derive(Debug, Default)]
pub(crate) struct TsParts<'a> {
    pub year: &'a str,
    pub month: &'a str,
    pub day: &'a str,
    pub hour: Option<&'a str>,
    pub minute: &'a str,
    pub second: &'a str,
    pub fraction: Option<&'a str>,
    /// `Z`, or (sign, hour, minute)
    pub tz_z: bool,
    pub tz: Option<(char, &'a str, Option<&'a str>)>,
}

/// Matches `constructor.py`'s `timestamp_regexp` (which allows 1-digit month/day and a
/// date alone). With `need_time` the resolver's date-time alternative is matched instead
/// (same shape, but the time part is required).
pub(crate) fn parse_timestamp_parts(s: &str, need_time: bool) -> Option<TsParts<'_>> {
    let mut p = TsParts::default();
    let mut i = 0;
    let b = s.as_bytes();
    let digits = |i: usize, min: usize, max: usize| -> Option<usize> {
        let mut n = 0;
        while n < max && b.get(i + n).is_some_and(u8::is_ascii_digit) {
            n += 1;
        }
        (n >= min).then_some(i + n)
    };
    let j = digits(i, 4, 4)?;
    p.year = &s[i..j];
    i = j;
    if b.get(i) != Some(&b'-') {
        return None;
    }
    let j = digits(i + 1, 1, 2)?;
    p.month = &s[i + 1..j];
    i = j;
    if b.get(i) != Some(&b'-') {
        return None;
    }
    let j = digits(i + 1, 1, 2)?;
    p.day = &s[i + 1..j];
    i = j;
    if i == b.len() {
        return if need_time { None } else { Some(p) };
    }
    // (?:[Tt]|[ \t]+)
    if b[i] == b'T' || b[i] == b't' {
        i += 1;
    } else if b[i] == b' ' || b[i] == b'\t' {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
    } else {
        return None;
    }
    let j = digits(i, 1, 2)?;
    p.hour = Some(&s[i..j]);
    i = j;
    if b.get(i) != Some(&b':') {
        return None;
    }
    let j = digits(i + 1, 2, 2)?;
    p.minute = &s[i + 1..j];
    i = j;
    if b.get(i) != Some(&b':') {
        return None;
    }
    let j = digits(i + 1, 2, 2)?;
    p.second = &s[i + 1..j];
    i = j;
    if b.get(i) == Some(&b'.') {
        let j = digits(i + 1, 0, usize::MAX)?;
        p.fraction = Some(&s[i + 1..j]);
        i = j;
    }
    // (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?$
    if i == b.len() {
        return Some(p);
    }
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    match b.get(i) {
        Some(b'Z') => {
            p.tz_z = true;
            i += 1;
        }
        Some(&c) if c == b'-' || c == b'+' => {
            let j = digits(i + 1, 1, 2)?;
            let hour = &s[i + 1..j];
            let mut minute = None;
            let mut k = j;
            if b.get(j) == Some(&b':') {
                if let Some(m) = digits(j + 1, 2, 2) {
                    minute = Some(&s[j + 1..m]);
                    k = m;
                }
            }
            p.tz = Some((c as char, hour, minute));
            i = k;
        }
        _ => return None,
    }
    (i == b.len()).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolver_table() {
        for (s, t) in [
            ("yes", BOOL),
            ("y", STR),
            ("yEs", STR),
            ("0777", INT),
            ("09", STR),
            ("0o17", STR),
            ("1_000", INT),
            ("1:30", INT),
            ("190:20:30", INT),
            ("1e3", STR),
            ("1.0e3", STR),
            ("1.0e+3", FLOAT),
            (".5", FLOAT),
            ("+.5", STR),
            ("-.inf", FLOAT),
            ("+.nan", STR),
            ("1:30.5", FLOAT),
            ("1.", FLOAT),
            ("2024-05-06", TIMESTAMP),
            ("2024-5-6", STR),
            ("2024-5-6 1:02:03", TIMESTAMP),
            ("2024-02-29T08:15:00Z", TIMESTAMP),
            ("2024-02-29 08:15:00 +01:00", TIMESTAMP),
            ("<<", MERGE),
            ("=", VALUE),
            ("~", NULL),
            ("", NULL),
            ("Null", NULL),
            ("nULL", STR),
            ("0x", STR),
            ("0b", STR),
            ("-0", INT),
        ] {
            assert_eq!(resolve_scalar(s, true), t, "{s:?}");
        }
    }
}
