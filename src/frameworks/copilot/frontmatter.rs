//! The front matter of a Copilot CLI agent file, split and parsed as CLI 1.0.102's
//! native loader does: strict UTF-8 (an optional BOM dropped), a `---` line at the
//! first byte (trailing whitespace allowed) closed by the next `---` line (`...`
//! does not close it), and the YAML between read by `serde_yaml` 0.9 — the library
//! whose messages the CLI prints (`duplicate entry with key "description"`, `did
//! not find expected ',' or ']' at line 2 column 1, …`). YAML 1.2 scalars: `yes`,
//! `on` and dates stay strings. The body is the lines after the closing one; both
//! are read as `str::lines` gives them (CRLF and LF alike), and the body is trimmed.

use serde_yaml::Value;

use crate::model::DiagKind;

/// The prefix of every front-matter error the CLI prints.
pub const MALFORMED: &str = "custom agent markdown frontmatter is malformed: ";

/// Why a file did not load: the tool's own message, the report's error kind and,
/// where known, the file line and column.
pub use crate::model::Failure;

impl Failure {
    pub fn parse(message: impl Into<String>, line: Option<u32>, col: Option<u32>) -> Failure {
        Failure { kind: DiagKind::Parse, message: message.into(), line, col }
    }
}

/// A file split into its parsed front matter and its body.
#[derive(Debug)]
pub struct Split {
    pub yaml: Value,
    /// The front matter's text (its keys' lines are looked up in it).
    pub yaml_text: String,
    /// The file line of the front matter's first line (1-based).
    pub first_line: u32,
    /// The body as the model reads it: CRLF turned into LF, trimmed.
    pub body: String,
}

/// Splits and parses `bytes` as the CLI does.
pub fn split(bytes: &[u8]) -> Result<Split, Failure> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() as u32;
        // Rust's `read_to_string` message, which the CLI prints as it is.
        Failure::parse("stream did not contain valid UTF-8", Some(line), None)
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let missing = || Failure::parse(format!("{MALFORMED}missing or malformed YAML frontmatter"), Some(1), None);
    // Lines as `str::lines` gives them (a CRLF's CR dropped): the front matter is
    // its lines joined by LF, without a final one (a folded or literal block at its
    // end keeps no trailing newline), and so is the body.
    let mut lines = text.lines();
    lines.next().filter(|l| is_fence(l)).ok_or_else(missing)?;
    let mut yaml_lines = Vec::new();
    loop {
        let Some(line) = lines.next() else { return Err(missing()) };
        if is_fence(line) {
            break;
        }
        yaml_lines.push(line);
    }
    let yaml_text = yaml_lines.join("\n");
    let yaml = parse_yaml(&yaml_text).map_err(|e| {
        let loc = e.location();
        // serde_yaml counts from the front matter's first line; the file has the
        // opening fence above it.
        Failure::parse(
            format!("{MALFORMED}failed to parse YAML frontmatter: {e}"),
            Some(loc.map_or(1, |(line, _)| line as u32 + 1)),
            loc.map(|(_, column)| column as u32),
        )
    })?;
    let body = lines.collect::<Vec<_>>().join("\n").trim().to_string();
    Ok(Split { yaml, yaml_text, first_line: 2, body })
}

/// The front matter's YAML as `serde_yaml::from_str::<Value>` reads it: an empty
/// front matter is null.
pub fn parse_yaml(text: &str) -> Result<Value, YamlError> {
    // libyaml's scanner takes time quadratic in the flow nesting depth (a minute
    // for 100,000 `[`); serde_yaml refuses anything deeper than 128 levels after
    // scanning it all. Past a depth no file means, agentry gives that refusal at
    // once, at the bracket serde_yaml would name.
    if let Some((line, column)) = too_deep(text) {
        return Err(YamlError::TooDeep { line, column });
    }
    serde_yaml::from_str::<Value>(text).map_err(YamlError::Yaml)
}

/// Why the front matter is not YAML: serde_yaml's error, or a flow nesting past
/// its recursion limit, found before scanning.
#[derive(Debug)]
pub enum YamlError {
    Yaml(serde_yaml::Error),
    TooDeep { line: usize, column: usize },
}

impl YamlError {
    /// The line and column (1-based, in the front matter) the message names.
    pub fn location(&self) -> Option<(usize, usize)> {
        match self {
            YamlError::Yaml(e) => e.location().map(|l| (l.line(), l.column())),
            YamlError::TooDeep { line, column } => Some((*line, *column)),
        }
    }
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            YamlError::Yaml(e) => e.fmt(f),
            YamlError::TooDeep { line, column } => write!(f, "recursion limit exceeded at line {line} column {column}"),
        }
    }
}

/// Flow nesting deeper than this is refused before scanning.
const SCAN_DEPTH: usize = 1_000;
/// serde_yaml's recursion limit: the top-level mapping and 127 more levels.
const SERDE_YAML_DEPTH: usize = 128;

/// The position of the bracket past serde_yaml's limit, when the flow nesting
/// (brackets and braces, quotes not told apart) goes past [`SCAN_DEPTH`].
fn too_deep(text: &str) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let mut limit_at = None;
    for c in text.chars() {
        column += 1;
        match c {
            '\n' => (line, column) = (line + 1, 0),
            '[' | '{' => {
                depth += 1;
                if depth == SERDE_YAML_DEPTH && limit_at.is_none() {
                    limit_at = Some((line, column));
                }
                if depth > SCAN_DEPTH {
                    return limit_at;
                }
            }
            ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth < SERDE_YAML_DEPTH {
                    limit_at = None;
                }
            }
            _ => {}
        }
    }
    None
}

/// A fence line: `---` with nothing after it but whitespace (a CR included).
fn is_fence(line: &str) -> bool {
    line.trim_end() == "---"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> String {
        split(text.as_bytes()).expect("loads").body
    }

    fn error(text: &[u8]) -> String {
        split(text).expect_err("fails").message
    }

    #[test]
    fn fences_bodies_and_failures_follow_the_cli() {
        assert_eq!(body("---\ndescription: x\n---\n\n  Hi.\n\n"), "Hi.");
        assert_eq!(body("\u{feff}---\r\ndescription: x\r\n---  \r\nA\r\n\r\nB\r\n"), "A\n\nB");
        assert_eq!(body("--- \ndescription: x\n---\nPart.\n---\nnot: fm\n---\nTwo."), "Part.\n---\nnot: fm\n---\nTwo.");
        assert_eq!(body("---\ndescription: x\n---"), "");
        let missing = format!("{MALFORMED}missing or malformed YAML frontmatter");
        for text in ["", "\n---\ndescription: x\n---\n", "---\ndescription: x\n...\nBody", "Just text.", "---\ndescription: x\n"] {
            assert_eq!(error(text.as_bytes()), missing, "{text:?}");
        }
        assert_eq!(error(b"---\ndescription: caf\xe9\n---\n"), "stream did not contain valid UTF-8");
    }

    #[test]
    fn yaml_errors_carry_serde_yaml_messages() {
        assert_eq!(
            error(b"---\ndescription: x\ndescription: y\n---\n"),
            format!("{MALFORMED}failed to parse YAML frontmatter: duplicate entry with key \"description\"")
        );
        assert_eq!(
            error(b"---\ntools: [read, edit\n---\n"),
            format!("{MALFORMED}failed to parse YAML frontmatter: did not find expected ',' or ']' at line 2 column 1, while parsing a flow sequence at line 1 column 8")
        );
        // Past the scan depth, the message serde_yaml gives after scanning it all.
        let mut deep = b"---\ndescription: d\ngithub: ".to_vec();
        deep.extend(std::iter::repeat_n(b'[', 5_000));
        deep.extend_from_slice(b"\n---\n");
        assert_eq!(
            error(&deep),
            format!("{MALFORMED}failed to parse YAML frontmatter: recursion limit exceeded at line 2 column 136")
        );
        let mut shallow = b"description: d\ngithub: ".to_vec();
        shallow.extend(std::iter::repeat_n(b'[', 300));
        shallow.extend(std::iter::repeat_n(b']', 300));
        let slow = serde_yaml::from_slice::<Value>(&shallow).unwrap_err().to_string();
        assert_eq!(slow, "recursion limit exceeded at line 2 column 136");
        let empty = split(b"---\n---\nBody").expect("an empty front matter parses");
        assert!(empty.yaml.is_null());
        // The front matter ends without a newline: a folded block keeps none.
        assert_eq!(split(b"---\ndescription: >\n  folded\n  text\n---\n").unwrap().yaml["description"], Value::from("folded text"));
        assert_eq!(split(b"---\ndescription: yes\n---\n").unwrap().yaml["description"], Value::from("yes"));
    }
}
