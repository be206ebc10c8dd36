//! Jinja2's `urlize` filter (`jinja2.utils.urlize` under `filters.do_urlize`, with
//! the default policies: `rel="noopener"`, no target, no extra schemes).

use std::sync::OnceLock;

use minijinja::value::{Kwargs, Value};
use minijinja::{Error, ErrorKind};
use regex::Regex;

use crate::pyscalar::is_space;

/// `_http_re` (IGNORECASE): a scheme or `www.` and a domain, a bare domain with a
/// basic TLD, or a scheme and an IP address; then a port, path, query, fragment.
fn http_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"(?i)^(",
            r"(https?://|www\.)(([\w%-]+\.)+)?([a-z]{2,63}|xn--[\w%]{2,59})",
            r"|([\w%-]{2,63}\.)+(com|net|int|edu|gov|org|info|mil)",
            r"|(https?://)((([\d]{1,3})(\.[\d]{1,3}){3})|(\[([\da-f]{0,4}:){2}([\da-f]{0,4}:?){1,6}\]))",
            r")(?::[\d]{1,5})?(?:[/?#]\S*)?\n?$",
        ))
        .expect("Jinja2's URL pattern is a valid regex")
    })
}

/// `_email_re`: `^\S+@\w[\w.-]*\.\w+$`.
fn email_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^\S+@\w[\w.-]*\.\w+\n?$").expect("Jinja2's e-mail pattern is a valid regex"))
}

/// `markupsafe.escape`.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&#34;").replace('\'', "&#39;")
}

/// `urlize(value, trim_url_limit=None, nofollow=False, target=None, rel=None,
/// extra_schemes=None)`.
pub fn urlize(value: Value, trim_url_limit: Option<Value>, nofollow: Option<bool>, target: Option<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let trim_url_limit = trim_url_limit.or(kwargs.get("trim_url_limit")?).filter(|v| !v.is_none());
    let trim = match trim_url_limit {
        Some(v) => Some(usize::try_from(i64::try_from(v)?.max(0)).unwrap_or(0)),
        None => None,
    };
    let nofollow = nofollow.or(kwargs.get("nofollow")?).unwrap_or(false);
    let target: Option<String> = target.or(kwargs.get("target")?).filter(|v| v.is_true()).map(|v| super::py_str(&v));
    let rel: Option<Value> = kwargs.get("rel")?;
    let extra: Option<Value> = kwargs.get("extra_schemes")?;
    kwargs.assert_all_used()?;
    let mut rel_parts: Vec<String> = rel.filter(|v| v.is_true()).map(|v| super::py_str(&v)).unwrap_or_default().split(is_space).filter(|p| !p.is_empty()).map(str::to_string).collect();
    if nofollow {
        rel_parts.push("nofollow".into());
    }
    rel_parts.push("noopener".into());
    rel_parts.sort();
    rel_parts.dedup();
    let mut schemes = Vec::new();
    if let Some(extra) = extra.filter(|v| !v.is_none()) {
        for scheme in extra.try_iter()? {
            let scheme = super::py_str(&scheme);
            // `_uri_scheme_re.fullmatch`: `[\w.+-]{2,}:(/){0,2}`.
            let valid = scheme.split_once(':').is_some_and(|(name, slashes)| {
                name.chars().count() >= 2
                    && name.chars().all(|c| c.is_alphanumeric() || "_.+-".contains(c))
                    && slashes.len() <= 2
                    && slashes.bytes().all(|b| b == b'/')
            });
            if !valid {
                return Err(Error::new(ErrorKind::InvalidOperation, format!("{} is not a valid URI scheme prefix.", crate::py::repr_str(&scheme))));
            }
            schemes.push(scheme);
        }
    }
    let text = value.as_str().map_or_else(|| super::py_str(&value), str::to_string);
    let rel_attr = format!(" rel=\"{}\"", escape(&rel_parts.join(" ")));
    let target_attr = target.map_or_else(String::new, |t| format!(" target=\"{}\"", escape(&t)));
    let link = |m: &str| -> String {
        match trim {
            Some(limit) if m.chars().count() > limit => format!("{}...", m.chars().take(limit).collect::<String>()),
            _ => m.to_string(),
        }
    };
    let mut out = String::new();
    for (word, space) in words(&escape(&text)) {
        out.push_str(&linked(word, &rel_attr, &target_attr, &schemes, &link));
        out.push_str(space);
    }
    Ok(Value::from(out))
}

/// `re.split(r"(\s+)", text)` as (word, following white space) pairs.
fn words(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() || out.is_empty() {
        let end = rest.find(is_space).unwrap_or(rest.len());
        let after = rest[end..].find(|c: char| !is_space(c)).map_or(rest.len(), |n| end + n);
        out.push((&rest[..end], &rest[end..after]));
        rest = &rest[after..];
        if rest.is_empty() {
            break;
        }
    }
    out
}

fn linked(word: &str, rel_attr: &str, target_attr: &str, schemes: &[String], link: &dyn Fn(&str) -> String) -> String {
    let mut middle = word.to_string();
    // Leading `(`, `<` and `&lt;`.
    let mut head = String::new();
    loop {
        let lead = ["(", "<", "&lt;"].into_iter().find(|p| middle.starts_with(p));
        let Some(lead) = lead else { break };
        head.push_str(lead);
        middle.drain(..lead.len());
    }
    // Trailing `)`, `>`, `.`, `,`, newlines and `&gt;`.
    let mut tail = String::new();
    loop {
        let end = [")", ">", ".", ",", "\n", "&gt;"].into_iter().find(|p| middle.ends_with(p));
        let Some(end) = end else { break };
        tail.insert_str(0, end);
        middle.truncate(middle.len() - end.len());
    }
    for (open, close) in [("(", ")"), ("<", ">"), ("&lt;", "&gt;")] {
        let opened = middle.matches(open).count();
        if opened <= middle.matches(close).count() {
            continue;
        }
        for _ in 0..opened.min(tail.matches(close).count()) {
            let Some(at) = tail.find(close) else { break };
            let end = at + close.len();
            middle.push_str(&tail[..end]);
            tail.drain(..end);
        }
    }
    let middle = if http_re().is_match(&middle) {
        let href = if middle.starts_with("https://") || middle.starts_with("http://") { middle.clone() } else { format!("https://{middle}") };
        format!("<a href=\"{href}\"{rel_attr}{target_attr}>{}</a>", link(&middle))
    } else if let Some(address) = middle.strip_prefix("mailto:").filter(|a| email_re().is_match(a)) {
        format!("<a href=\"{middle}\">{address}</a>")
    } else if middle.contains('@') && !middle.starts_with("www.") && !middle.starts_with('@') && !middle.contains(':') && email_re().is_match(&middle) {
        format!("<a href=\"mailto:{middle}\">{middle}</a>")
    } else {
        let mut plain = middle;
        for scheme in schemes {
            if plain != *scheme && plain.starts_with(scheme.as_str()) {
                plain = format!("<a href=\"{plain}\"{rel_attr}{target_attr}>{plain}</a>");
            }
        }
        plain
    };
    format!("{head}{middle}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> String {
        urlize(Value::from(text), None, None, None, Kwargs::from_iter(Vec::<(String, Value)>::new())).unwrap().to_string()
    }

    /// Outputs of Jinja2 3.1's `urlize` filter with its default policies.
    #[test]
    fn links_as_jinja2_does() {
        assert_eq!(run("see http://x.com now"), "see <a href=\"http://x.com\" rel=\"noopener\">http://x.com</a> now");
        assert_eq!(run("(www.example.org)."), "(<a href=\"https://www.example.org\" rel=\"noopener\">www.example.org</a>).");
        assert_eq!(run("mail a@b.io, <x>"), "mail <a href=\"mailto:a@b.io\">a@b.io</a>, &lt;x&gt;");
        assert_eq!(run("  two  spaces "), "  two  spaces ");
        assert_eq!(run(""), "");
    }
}
