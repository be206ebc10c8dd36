//! What Copilot CLI 1.0.102 tells its model about skills (spec "Skills" K4,
//! observed): the `<available_skills>` block of the system prompt, one entry per
//! winner the model may invoke, full entries while a character budget lasts and
//! the rest by name only; and the body the `skill` tool hands over, with
//! secret-like text masked.

use std::sync::OnceLock;

use regex::Regex;

/// Full entries are listed while they fit in this many characters; the rest are
/// named only ("Additional skills available"). Measured: 13 entries of 1,086
/// characters (14,118) fit and a 14th does not (case s14); the binary names the
/// budget (`SKILL_CHAR_BUDGET`) but not its value, and 15,000 is the round figure
/// both observations allow.
pub const CHAR_BUDGET: usize = 15_000;

pub const ADDITIONAL: &str = "Additional skills available (invoke by name): ";

/// One skill the model is told about.
pub struct Entry<'a> {
    pub name: &'a str,
    /// `None` for a built-in: its text is the tool's, not copied into agentry
    /// (its length is known, [`builtin_description_len`]).
    pub description: Option<&'a str>,
    /// The tool's word for where it comes from (`project`, `inherited`,
    /// `personal-copilot`, `personal-agents`, `builtin`).
    pub location: &'a str,
}

/// The length of a built-in skill's escaped description in CLI 1.0.102's listing
/// (measured), so the budget counts it without agentry holding its text.
pub fn builtin_description_len(name: &str) -> usize {
    match name {
        "customize-cloud-agent" => 329,
        "github-pr-media" => 216,
        _ => 0,
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The listing as the model receives it (from `<available_skills>` to its end), and
/// the names listed by name only. A built-in's description stands as a note in
/// brackets (agentry does not copy the tool's text), counted at its real length.
pub fn render(entries: &[Entry<'_>]) -> (String, Vec<String>) {
    let mut out = String::from("<available_skills>\n");
    let (mut used, mut spent) = (0usize, false);
    let mut name_only: Vec<String> = Vec::new();
    for e in entries {
        let (description, counted) = match e.description {
            Some(d) => {
                let d = escape(d);
                let n = d.chars().count();
                (d, n)
            }
            None => {
                let n = builtin_description_len(e.name);
                (format!("[the built-in skill's own description, {n} characters, not copied by agentry]"), n)
            }
        };
        let frame = "<skill>\n  <name></name>\n  <description></description>\n  <location></location>\n</skill>\n".len();
        let len = frame + e.name.chars().count() + counted + e.location.len();
        if spent || used + len > CHAR_BUDGET {
            spent = true;
            name_only.push(e.name.to_string());
            continue;
        }
        used += len;
        out.push_str(&format!("<skill>\n  <name>{}</name>\n  <description>{description}</description>\n  <location>{}</location>\n</skill>\n", e.name, e.location));
    }
    if !name_only.is_empty() {
        out.push_str(&format!("{ADDITIONAL}{}\n", name_only.join(", ")));
    }
    out.push_str("</available_skills>");
    (out, name_only)
}

/// The spans the tool masks as `******` in a skill's body (the regexes readable in
/// the binary, each kind checked by runs: spec K4, case s17).
fn secrets() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let patterns = [
            r#"\bBearer\s+[^\s'";]+"#,
            r#"\b(?i:password|pwd)=(?:[^\s'";]+|"[^"]+")"#,
            r#"\b(?:eyJ0eXAiOi|eyJhbGciOi|eyJ4NXQiOi|eyJraWQiOi)[^\s'";]+"#,
            r"\bgh[pousr]_[A-Za-z0-9]{36}\b",
            r"\bgithub_pat_[0-9][A-Za-z0-9]{21}_[A-Za-z0-9]{59}\b",
            r"\bv1\.[0-9A-Fa-f]{40}\b",
            r"\bnpm_[0-9A-Za-z]{36}\b",
            r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s/@]+@",
        ];
        Regex::new(&patterns.join("|")).expect("the secret patterns compile")
    })
}

pub const MASK: &str = "******";

/// `body` as the `skill` tool hands it to the model: secret-like spans masked.
pub fn masked(body: &str) -> std::borrow::Cow<'_, str> {
    secrets().replace_all(body, MASK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_masked_as_the_tool_does() {
        let body = "curl -H \"Authorization: Bearer tok-1\" x\nis Bearer\n  next\nqpdf --password=pw --x\nPWD=\"two words\" and Password=abc;rest\nhttps://u:p@host/r\nbearer abc, password = x, token=1, ******\n";
        let want = "curl -H \"Authorization: ******\" x\nis ******\nqpdf --****** --x\n****** and ******;rest\n******host/r\nbearer abc, password = x, token=1, ******\n";
        assert_eq!(masked(body), want);
    }

    #[test]
    fn the_budget_names_the_rest() {
        let long = "d".repeat(989);
        let names: Vec<String> = (1..=16).map(|i| format!("b{i:02}")).collect();
        let entries: Vec<Entry<'_>> = names.iter().map(|n| Entry { name: n, description: Some(&long), location: "project" }).collect();
        let (text, rest) = render(&entries);
        assert_eq!(rest, ["b14", "b15", "b16"]);
        assert!(text.ends_with("Additional skills available (invoke by name): b14, b15, b16\n</available_skills>"));
        let one = Entry { name: "x", description: Some("a's <b>"), location: "builtin" };
        assert!(render(&[one]).0.contains("<description>a&apos;s &lt;b&gt;</description>"));
    }
}
