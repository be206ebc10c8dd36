//! The HTML-comment directives of an agent body, found the way `md_agents` finds them,
//! and never executed: `tsu:tool` gets tsugite's render-mode placeholder, `tsu:exec`
//! its `--no-exec` rewrite, `tsu:step` the validation mock, and `tsu:ignore` blocks are
//! deleted before rendering (`renderer.strip_ignored_sections`).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("static pattern"))
}

/// What an attribute's value may be: tsugite's `\w+`, or `.+?` (lazy, no newline).
#[derive(Clone, Copy)]
enum Value {
    Word,
    Lazy,
}

/// `re.search(rf'\b{attr}=(["\']?)({value})\1', args)`, matched by hand: compiling
/// the Unicode-aware pattern cost more than everything else a small workspace's
/// `list` does. The search is the regex's: the leftmost `attr=` (after a non-word
/// character when `bounded`) whose value matches, trying a `"`-quoted value, then a
/// `'`-quoted one, then a bare one, as Python's backtracking does.
fn attribute_matching(args: &str, attr: &str, value: Value, bounded: bool) -> Option<String> {
    let needle = format!("{attr}=");
    let mut from = 0;
    while let Some(at) = args[from..].find(&needle).map(|i| from + i) {
        from = at + 1;
        let after_word = args[..at]
            .chars()
            .next_back()
            .is_some_and(crate::py::is_word);
        if bounded && after_word {
            continue;
        }
        if let Some(found) = value_at(&args[at + needle.len()..], value) {
            return Some(found.to_string());
        }
    }
    None
}

/// The value right at the start of `rest`: quoted by `"`, by `'`, or bare.
fn value_at(rest: &str, value: Value) -> Option<&str> {
    for quote in ['"', '\''] {
        if let Some(inner) = rest.strip_prefix(quote) {
            let found = match value {
                // `\w+` then the quote: the whole run of word characters must end at it.
                Value::Word => {
                    let run = inner
                        .find(|c: char| !crate::py::is_word(c))
                        .unwrap_or(inner.len());
                    (run > 0 && inner[run..].starts_with(quote)).then(|| &inner[..run])
                }
                // `.+?` then the quote: the first quote after at least one character,
                // on the same line.
                Value::Lazy => inner
                    .chars()
                    .next()
                    .filter(|&c| c != '\n')
                    .and_then(|first| {
                        let line_end = inner.find('\n').unwrap_or(inner.len());
                        inner[first.len_utf8()..line_end]
                            .find(quote)
                            .map(|i| &inner[..first.len_utf8() + i])
                    }),
            };
            if found.is_some() {
                return found;
            }
        }
    }
    match value {
        Value::Word => {
            let run = rest
                .find(|c: char| !crate::py::is_word(c))
                .unwrap_or(rest.len());
            (run > 0).then(|| &rest[..run])
        }
        Value::Lazy => rest
            .chars()
            .next()
            .filter(|&c| c != '\n')
            .map(|c| &rest[..c.len_utf8()]),
    }
}

/// Whether `text` holds `needle`. Every body is searched for each kind of directive
/// (most hold none), which `memmem`'s vectorised search does several times faster
/// than `str::contains`.
fn holds(text: &str, needle: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some()
}

/// `\b{attr}=(["\']?)(\w+)\1`.
fn attribute(args: &str, attr: &str) -> Option<String> {
    attribute_matching(args, attr, Value::Word, true)
}

/// `\b{attr}=(["\']?)(.+?)\1`: only whether one is there matters.
fn has_attribute(args: &str, attr: &str) -> bool {
    attribute_matching(args, attr, Value::Lazy, true).is_some()
}

/// `{attr}=(["\']?)(\w+)\1`, without the leading `\b` (tool and step `name=`/`assign=`).
fn loose_attribute(args: &str, attr: &str) -> Option<String> {
    attribute_matching(args, attr, Value::Word, false)
}

/// `strip_ignored_sections`, then the newline normalisation of Jinja2's lexer (`\r\n`
/// and `\r` become `\n` in template text and string literals; minijinja keeps them).
pub fn strip_ignored(content: &str) -> Cow<'_, str> {
    normalise_newlines(without_ignored(content))
}

/// `re.sub(r'<!--\s*tsu:ignore\s*-->.*?<!--\s*/tsu:ignore\s*-->', '', content,
/// flags=re.DOTALL)`. A block runs from an opening tag to the first closing tag after
/// it, so the tags are looked for directly: the pattern searched along each body
/// cost more than the rest of preparing one.
fn without_ignored(content: &str) -> Cow<'_, str> {
    let mut kept = String::new();
    // Where the text not yet kept starts: the end of the last block removed.
    let mut from = 0;
    while let Some(open) = tag(content, from, "tsu:ignore") {
        let Some(close) = tag(content, open.end, "/tsu:ignore") else {
            break;
        };
        kept.push_str(&content[from..open.start]);
        from = close.end;
    }
    if from == 0 {
        return Cow::Borrowed(content);
    }
    kept.push_str(&content[from..]);
    Cow::Owned(kept)
}

/// The first `<!--\s*NAME\s*-->` that starts at or after `from`.
fn tag(content: &str, from: usize, name: &str) -> Option<Range<usize>> {
    for at in memchr::memmem::find_iter(&content.as_bytes()[from..], name.as_bytes()) {
        let at = from + at;
        // `\s` and `char::is_whitespace` are both Unicode's White_Space.
        let Some(lead) = content[from..at].trim_end().strip_suffix("<!--") else {
            continue;
        };
        let rest = content[at + name.len()..].trim_start();
        if rest.starts_with("-->") {
            return Some(from + lead.len()..content.len() - rest.len() + "-->".len());
        }
    }
    None
}

fn normalise_newlines(text: Cow<'_, str>) -> Cow<'_, str> {
    if memchr::memchr(b'\r', text.as_bytes()).is_some() {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        text
    }
}

/// The placeholder text tsugite assigns to a directive's variable in render mode.
fn placeholder(kind: &str, name: &str) -> String {
    format!("[{kind} directive: {name}(...) - not executed in render mode]")
}

/// `_extract_tool_directive_placeholders`: `{assign: placeholder}`; any malformed
/// directive makes tsugite give up on all of them (no variables at all).
pub fn tool_placeholders(content: &str) -> Vec<(String, String)> {
    static CELL: OnceLock<Regex> = OnceLock::new();
    let mut out = Vec::new();
    // Most bodies have no directive at all; compiling the pattern is dearer than the
    // rest of a small workspace's load, so it waits until it can match.
    if !holds(content, "tsu:tool") {
        return out;
    }
    for caps in re(&CELL, r"<!--\s*tsu:tool\s+(.+?)\s*-->").captures_iter(content) {
        let raw = caps.get(1).map(|m| m.as_str().trim()).unwrap_or_default();
        let Some(name) = loose_attribute(raw, "name") else {
            return Vec::new();
        };
        if json_args(raw).is_none() {
            return Vec::new();
        }
        let Some(assign) = loose_attribute(raw, "assign") else {
            return Vec::new();
        };
        out.push((assign, placeholder("Tool", &name)));
    }
    out
}

/// `extract_and_parse_json_args`: a JSON object right after the first `{` following
/// `args=`.
fn json_args(raw: &str) -> Option<serde_json::Value> {
    let at = raw.find("args=")?;
    let start = at + raw[at..].find('{')?;
    let mut stream =
        serde_json::Deserializer::from_str(&raw[start..]).into_iter::<serde_json::Value>();
    match stream.next() {
        Some(Ok(v @ serde_json::Value::Object(_))) => Some(v),
        _ => None,
    }
}

/// `_extract_exec_directive_placeholders`: the body with each exec block replaced by
/// `<!-- Exec 'NAME' skipped (--no-exec) -->`, and the placeholders of its variables.
/// An unmatched open tag or a block without `name` leaves everything unchanged.
pub fn exec_placeholders(content: &str) -> (Cow<'_, str>, Vec<(String, String)>) {
    static OPEN: OnceLock<Regex> = OnceLock::new();
    static PAIR: OnceLock<Regex> = OnceLock::new();
    if !holds(content, "tsu:exec") {
        return (Cow::Borrowed(content), Vec::new());
    }
    let open = re(&OPEN, r"(?s)<!--\s*tsu:exec\s+([^>]+?)\s*-->");
    let pair = re(
        &PAIR,
        r"(?s)<!--\s*tsu:exec\s+([^>]+?)\s*-->(.*?)<!--\s*/tsu:exec\s*-->",
    );
    let pairs: Vec<regex::Captures> = pair.captures_iter(content).collect();
    let starts: Vec<usize> = pairs
        .iter()
        .filter_map(|c| c.get(0))
        .map(|m| m.start())
        .collect();
    if open
        .find_iter(content)
        .any(|m| !starts.contains(&m.start()))
    {
        return (Cow::Borrowed(content), Vec::new());
    }
    let mut vars = Vec::new();
    let mut blocks = Vec::new();
    for caps in &pairs {
        let args = caps.get(1).map(|m| m.as_str().trim()).unwrap_or_default();
        let Some(name) = attribute(args, "name") else {
            return (Cow::Borrowed(content), Vec::new());
        };
        for var in [attribute(args, "assign"), attribute(args, "stdout_assign")]
            .into_iter()
            .flatten()
        {
            vars.push((var, placeholder("Exec", &name)));
        }
        if let Some(m) = caps.get(0) {
            blocks.push((
                m.as_str().to_string(),
                format!("<!-- Exec '{name}' skipped (--no-exec) -->"),
            ));
        }
    }
    let mut out = content.to_string();
    for (raw, replacement) in blocks {
        out = out.replace(&raw, &replacement);
    }
    (Cow::Owned(out), vars)
}

/// One `tsu:step` section of a multi-step body.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub name: String,
    pub assign: Option<String>,
    /// The step's own text (without the preamble).
    pub content: String,
}

/// `extract_step_directives(content)`: the preamble and the steps; `None` when
/// tsugite would raise (a step without `name`, both `repeat_while` and
/// `repeat_until`, bad `response_format` JSON).
pub fn steps(content: &str) -> Option<(String, Vec<Step>)> {
    if !holds(content, "tsu:step") {
        return Some((String::new(), Vec::new()));
    }
    let found = step_directives(content);
    let Some((first, _)) = found.first() else {
        return Some((String::new(), Vec::new()));
    };
    let preamble = crate::py::strip(&content[..first.start]).to_string();
    let mut out = Vec::new();
    for (i, (directive, args)) in found.iter().enumerate() {
        let start = directive.end;
        let end = found.get(i + 1).map(|(next, _)| next.start).unwrap_or(content.len());
        let name = loose_attribute(args, "name")?;
        if has_attribute(args, "repeat_while") && has_attribute(args, "repeat_until") {
            return None;
        }
        if let Some(rf) = response_format(args) {
            serde_json::from_str::<serde_json::Value>(&rf).ok()?;
        }
        out.push(Step {
            name,
            assign: attribute(args, "assign"),
            content: crate::py::strip(&content[start..end]).to_string(),
        });
    }
    Some((preamble, out))
}

/// `re.finditer(r'<!--\s*tsu:step\s+(.+?)\s*-->', content)`: each directive's span
/// and its stripped arguments. A directive starts at the `<!--` that only whitespace
/// separates from a `tsu:step`, so the pattern is tried there alone (anchored)
/// rather than searched along the whole body, which cost more than the rest of a
/// multi-step agent's preparation.
fn step_directives(content: &str) -> Vec<(Range<usize>, &str)> {
    static CELL: OnceLock<Regex> = OnceLock::new();
    let directive = re(&CELL, r"^<!--\s*tsu:step\s+.+?\s*-->");
    let mut found = Vec::new();
    // Where the previous directive ended: matches do not overlap.
    let mut from = 0;
    for at in memchr::memmem::find_iter(content.as_bytes(), b"tsu:step") {
        if at < from {
            continue;
        }
        // `\s` and `char::is_whitespace` are both Unicode's White_Space.
        let Some(open) = content[from..at].trim_end().strip_suffix("<!--") else {
            continue;
        };
        let start = from + open.len();
        let Some(m) = directive.find(&content[start..]) else {
            continue;
        };
        // Whitespace surrounds the group on both sides, so the group stripped is what
        // lies between `tsu:step` and `-->` stripped (no capture needed).
        let inner = &m.as_str()["<!--".len()..m.len() - "-->".len()];
        let args = inner.trim_start().strip_prefix("tsu:step").unwrap_or_default().trim();
        let end = start + m.end();
        found.push((start..end, args));
        from = end;
    }
    found
}

/// `response_format=(["'])(.+?)\1`.
fn response_format(args: &str) -> Option<String> {
    static CELL: OnceLock<Regex> = OnceLock::new();
    if !args.contains("response_format=") {
        return None;
    }
    let caps = re(&CELL, r#"response_format=(?:"(.+?)"|'(.+?)')"#).captures(args)?;
    (1..=2)
        .find_map(|i| caps.get(i))
        .map(|m| m.as_str().to_string())
}

/// `add_mock_step_variables`: every step `assign` → `"mock_step_result"`.
pub fn step_mocks(content: &str) -> Vec<(String, String)> {
    // tsugite first asks `has_step_directives`; a body without one has no steps.
    match steps(content) {
        Some((_, steps)) => steps
            .into_iter()
            .filter_map(|s| s.assign)
            .map(|a| (a, "mock_step_result".to_string()))
            .collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The pattern tsugite searches with, spelled out for the regex crate (which has
    /// no back-references): the hand-written matcher must find what it finds.
    fn by_regex(args: &str, attr: &str, value: &str, bounded: bool) -> Option<String> {
        let b = if bounded { r"\b" } else { "" };
        let pattern = format!(r#"{b}{attr}=(?:"({value})"|'({value})'|({value}))"#);
        let caps = regex::Regex::new(&pattern).unwrap().captures(args)?;
        (1..=3)
            .find_map(|i| caps.get(i))
            .map(|m| m.as_str().to_string())
    }

    proptest! {
        #[test]
        fn ignore_blocks_are_removed_as_the_pattern_removes_them(
            content in "(<!--|-->|tsu:ignore|/tsu:ignore| |\n|\u{2003}|a|/|-)*",
        ) {
            let pattern = Regex::new(r"(?s)<!--\s*tsu:ignore\s*-->.*?<!--\s*/tsu:ignore\s*-->").unwrap();
            prop_assert_eq!(without_ignored(&content), pattern.replace_all(&content, ""));
        }

        #[test]
        fn step_directives_are_found_as_the_pattern_finds_them(
            content in "(<!--|-->|tsu:step|tsu:ste| |\n|\u{2003}|a|-|<)*",
        ) {
            let pattern = Regex::new(r"<!--\s*tsu:step\s+(.+?)\s*-->").unwrap();
            let expected: Vec<(Range<usize>, &str)> = pattern
                .captures_iter(&content)
                .map(|c| (c.get(0).unwrap().range(), c.get(1).unwrap().as_str().trim()))
                .collect();
            prop_assert_eq!(step_directives(&content), expected);
        }

        #[test]
        fn attributes_are_found_as_the_pattern_finds_them(
            args in "[a_=\"' \n.é-]{0,24}",
        ) {
            for bounded in [true, false] {
                prop_assert_eq!(
                    attribute_matching(&args, "a", Value::Word, bounded),
                    by_regex(&args, "a", r"\w+", bounded)
                );
                prop_assert_eq!(
                    attribute_matching(&args, "a", Value::Lazy, bounded),
                    by_regex(&args, "a", ".+?", bounded)
                );
            }
        }
    }

    #[test]
    fn attribute_values_in_each_quoting() {
        assert_eq!(attribute("x name=\"n1\" y", "name").as_deref(), Some("n1"));
        assert_eq!(attribute("name='n2'", "name").as_deref(), Some("n2"));
        assert_eq!(attribute("name=n3 rest", "name").as_deref(), Some("n3"));
        assert_eq!(attribute("rename=n4", "name"), None, "\\b before the name");
        assert_eq!(loose_attribute("rename=n4", "name").as_deref(), Some("n4"));
        assert_eq!(
            attribute("name=\"a b\" name=c", "name").as_deref(),
            Some("c")
        );
        assert!(has_attribute("repeat_while=\"x > 1\"", "repeat_while"));
        assert!(!has_attribute("repeat_while=", "repeat_while"));
    }

    #[test]
    fn ignore_blocks_go_with_their_markers() {
        assert_eq!(
            strip_ignored("a<!-- tsu:ignore -->x\ny<!--/tsu:ignore-->b"),
            "ab"
        );
    }

    #[test]
    fn exec_blocks_are_rewritten_and_tools_get_placeholders() {
        let body = "<!-- tsu:exec name=\"tally\" assign=\"total\" -->\n1\n<!-- /tsu:exec -->\n";
        let (text, vars) = exec_placeholders(body);
        assert_eq!(text, "<!-- Exec 'tally' skipped (--no-exec) -->\n");
        assert_eq!(
            vars,
            vec![(
                "total".into(),
                "[Exec directive: tally(...) - not executed in render mode]".into()
            )]
        );
        let tool = "<!-- tsu:tool name=\"read_file\" args={\"path\": \"p\"} assign=\"prices\" -->";
        assert_eq!(tool_placeholders(tool)[0].0, "prices");
        assert!(tool_placeholders("<!-- tsu:tool name=\"x\" args=[1] assign=\"y\" -->").is_empty());
    }

    #[test]
    fn steps_and_their_mocks() {
        let body = "Pre\n<!-- tsu:step name=\"a\" assign=\"facts\" -->\nA\n<!-- tsu:step name=\"b\" -->\nB";
        let (pre, steps) = steps(body).unwrap();
        assert_eq!(pre, "Pre");
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[1].content, "B");
        assert_eq!(
            step_mocks(body),
            vec![("facts".to_string(), "mock_step_result".to_string())]
        );
        assert!(step_mocks("<!-- tsu:step assign=\"x\" -->").is_empty());
    }
}
