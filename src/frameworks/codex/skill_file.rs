//! One `SKILL.md` as Codex 0.171.0 reads it (`parse_skill_file` of its skills
//! loader): the front matter between the first line that is `---` and the next,
//! read by serde_yaml 0.9 (Codex's own version) into `name`, `description` and
//! `metadata.short-description`; whitespace runs collapsed; the name from the folder
//! when blank; at most 64 characters of name; a description required.

use serde::Deserialize;

use crate::model::DiagKind;

/// The keys Codex reads. The struct names are Codex's: serde_yaml names them in its
/// messages ("expected struct SkillFrontmatterMetadata").
#[derive(Debug, Deserialize)]
struct SkillFrontmatter {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    metadata: SkillFrontmatterMetadata,
}

#[derive(Debug, Default, Deserialize)]
struct SkillFrontmatterMetadata {
    #[serde(default, rename = "short-description")]
    short_description: Option<String>,
}

const MAX_NAME_LEN: usize = 64;

/// A skill file that loaded.
#[derive(Debug, PartialEq)]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub short_description: Option<String>,
    /// 1-based lines of the front-matter keys, where the file writes them.
    pub name_line: Option<u32>,
    pub description_line: Option<u32>,
    pub metadata_line: Option<u32>,
}

/// Why a skill file did not load: Codex's message and the report's kind.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub kind: DiagKind,
    pub message: String,
    pub line: Option<u32>,
}

impl Refusal {
    fn new(message: String) -> Refusal {
        Refusal { kind: kind_of(&message), message, line: None }
    }
}

/// The report's kind for one of Codex's messages: a wrong type in well-formed YAML
/// is `validation`, unreadable front matter `parse`.
fn kind_of(message: &str) -> DiagKind {
    if message.starts_with("invalid YAML") && message.contains("invalid type") {
        DiagKind::Validation
    } else if message.starts_with("missing YAML frontmatter") || message.starts_with("invalid YAML") {
        DiagKind::Parse
    } else if message.starts_with("failed to read file") {
        if message.to_lowercase().contains("utf-8") { DiagKind::Parse } else { DiagKind::Io }
    } else {
        DiagKind::Validation
    }
}

/// Reads `bytes`, the file of a skill whose folder is named `folder`.
pub fn parse(bytes: &[u8], folder: Option<&str>) -> Result<Skill, Refusal> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count() as u32;
        let what = match e.error_len() {
            Some(n) => format!("invalid utf-8 sequence of {n} bytes from index {}", e.valid_up_to()),
            None => format!("incomplete utf-8 byte sequence from index {}", e.valid_up_to()),
        };
        Refusal { line: Some(line), ..Refusal::new(format!("failed to read file: {what}")) }
    })?;
    let front = frontmatter(text).ok_or_else(|| Refusal { line: Some(1), ..Refusal::new("missing YAML frontmatter delimited by ---".into()) })?;
    let parsed = read_yaml(&front).map_err(|e| {
        let line = e.location().map(|l| l.line() as u32 + 1);
        Refusal { line, ..Refusal::new(format!("invalid YAML: {e}")) }
    })?;
    let name = parsed.name.as_deref().map(single_line).filter(|n| !n.is_empty());
    let name = name.unwrap_or_else(|| folder.map(single_line).filter(|n| !n.is_empty()).unwrap_or_else(|| "skill".into()));
    let description = parsed.description.as_deref().map(single_line).unwrap_or_default();
    let short_description = parsed.metadata.short_description.as_deref().map(single_line).filter(|s| !s.is_empty());
    let line_of = |key: &str| key_line(&front, key);
    if name.chars().count() > MAX_NAME_LEN {
        let message = format!("invalid name: exceeds maximum length of {MAX_NAME_LEN} characters");
        return Err(Refusal { line: line_of("name"), ..Refusal::new(message) });
    }
    if description.is_empty() {
        return Err(Refusal { line: line_of("description").or(Some(2)), ..Refusal::new("missing field `description`".into()) });
    }
    // 0.171.0 sets no limit on a description's length at load time (1030 characters
    // load); the model's list cuts it instead.
    Ok(Skill {
        name,
        description,
        short_description,
        name_line: line_of("name"),
        description_line: line_of("description"),
        metadata_line: line_of("metadata"),
    })
}

/// The lines between a first line that is `---` (trimmed) and the next such line,
/// joined by `\n`; `None` when either is missing or nothing is between them. A BOM
/// makes the first line something else.
pub fn frontmatter(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some("---") {
        return None;
    }
    let mut front: Vec<&str> = Vec::new();
    for line in lines {
        if line.trim() == "---" {
            return (!front.is_empty()).then(|| front.join("\n"));
        }
        front.push(line);
    }
    None
}

/// Codex's YAML reading: strict first; when that fails, once more with every value
/// that would break a plain scalar written as a quoted string (a value holding `: `,
/// or one that is not YAML on its own, such as `[unclosed`); the first error stands
/// when the second reading fails too. Observed with the oracle (`s08`, `s09` and
/// probes), not read in Codex's source: values starting with a quote, a block
/// indicator (`|`, `>`) or an alias (`*`) are left as they are; a ` #` comment is
/// dropped before quoting.
fn read_yaml(front: &str) -> Result<SkillFrontmatter, serde_yaml::Error> {
    match serde_yaml::from_str::<SkillFrontmatter>(front) {
        Ok(parsed) => Ok(parsed),
        Err(first) => {
            let quoted: Vec<String> = front.split('\n').map(quote_value).collect();
            serde_yaml::from_str::<SkillFrontmatter>(&quoted.join("\n")).map_err(|_| first)
        }
    }
}

/// `line` with its value quoted when the value would break the YAML (see
/// [`read_yaml`]).
fn quote_value(line: &str) -> String {
    let lead = line.trim_start();
    if lead.is_empty() || lead.starts_with('#') {
        return line.to_string();
    }
    let Some(colon) = line.char_indices().find(|&(i, c)| c == ':' && line[i + 1..].starts_with([' ', '\t'])).map(|(i, _)| i) else {
        return line.to_string();
    };
    let rest = &line[colon + 1..];
    let value = match rest.find(" #").or_else(|| rest.find("\t#")) {
        Some(at) => &rest[..at],
        None => rest,
    }
    .trim();
    let plain = value.is_empty() || value.starts_with(['"', '\'', '|', '>', '*']);
    if plain || (!value.contains(": ") && serde_yaml::from_str::<serde_yaml::Value>(value).is_ok()) {
        return line.to_string();
    }
    // Only `\` and `"` are escaped: a control character stays and still fails
    // (observed: a NUL in a name is an error either way).
    let quoted = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("{}: \"{quoted}\"", &line[..colon])
}

/// Codex's `sanitize_single_line`: whitespace runs become one space, ends trimmed.
pub fn single_line(raw: &str) -> String {
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The file line (1-based, the `---` is line 1) of a top-level `key:` of `front`.
fn key_line(front: &str, key: &str) -> Option<u32> {
    front.split('\n').position(|l| l.strip_prefix(key).is_some_and(|r| r.starts_with(':'))).map(|i| i as u32 + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Result<(String, String), String> {
        parse(text.as_bytes(), Some("folder")).map(|s| (s.name, s.description)).map_err(|r| r.message)
    }

    #[test]
    fn front_matter_needs_both_fences_and_a_line_between() {
        assert_eq!(frontmatter("---\na: b\n---\nbody"), Some("a: b".into()));
        assert_eq!(frontmatter("  ---  \r\na: b\r\n ---\r\n"), Some("a: b".into()));
        assert_eq!(frontmatter("---\n---\n"), None);
        assert_eq!(frontmatter("---\na: b\n"), None);
        assert_eq!(frontmatter("\u{feff}---\na: b\n---\n"), None);
    }

    #[test]
    fn name_falls_back_to_the_folder_and_whitespace_collapses() {
        assert_eq!(fields("---\ndescription: \"multi\n  line\"\n---\n"), Ok(("folder".into(), "multi line".into())));
        assert_eq!(fields("---\nname: \"  A   b \"\ndescription: d\n---\n"), Ok(("A b".into(), "d".into())));
        assert_eq!(fields("---\nname: 2024\ndescription: 42\n---\n"), Ok(("2024".into(), "42".into())));
    }

    #[test]
    fn values_that_break_plain_yaml_are_read_as_strings() {
        assert_eq!(fields("---\nname: a\ndescription: Usage: run it: now\n---\n").map(|f| f.1), Ok("Usage: run it: now".into()));
        assert_eq!(fields("---\nname: a\ndescription: [unclosed\n---\n").map(|f| f.1), Ok("[unclosed".into()));
        assert_eq!(fields("---\nname: a\ndescription: x: y # note\n---\n").map(|f| f.1), Ok("x: y".into()));
        assert_eq!(fields("---\nname: a\ndescription: {a: b}\nfoo: a: b\n---\n").map(|f| f.1), Ok("{a: b}".into()));
    }

    #[test]
    fn the_first_error_stands_when_quoting_does_not_help() {
        let e = fields("---\nname: [a, b]\ndescription: d\n---\n").unwrap_err();
        assert_eq!(e, "invalid YAML: name: invalid type: sequence, expected a string at line 1 column 7");
        let e = fields("---\nname: a\ndescription: x\nfoo: [a, b]\nbar: *x\n---\n").unwrap_err();
        assert!(e.starts_with("invalid YAML: "), "{e}");
        let e = fields("---\nname: min\0e\ndescription: d\n---\n").unwrap_err();
        assert!(e.contains("control characters"), "{e}");
        let e = fields("---\nname: a\ndescription: d\nmetadata: 3\n---\n").unwrap_err();
        assert!(e.contains("expected struct SkillFrontmatterMetadata"), "{e}");
    }

    #[test]
    fn limits_and_required_description() {
        assert_eq!(fields(&format!("---\nname: {}\ndescription: d\n---\n", "é".repeat(64))).map(|f| f.0.chars().count()), Ok(64));
        let e = fields(&format!("---\nname: {}\ndescription: d\n---\n", "m".repeat(65))).unwrap_err();
        assert_eq!(e, "invalid name: exceeds maximum length of 64 characters");
        assert_eq!(fields("---\nname: a\ndescription: \"  \"\n---\n").unwrap_err(), "missing field `description`");
        assert_eq!(fields(&format!("---\nname: a\ndescription: {}\n---\n", "d".repeat(1030))).map(|f| f.1.len()), Ok(1030));
        let e = parse(b"---\nname: a\xe9\n---\n", None).unwrap_err();
        assert_eq!((e.kind, e.message.as_str()), (DiagKind::Parse, "failed to read file: invalid utf-8 sequence of 1 bytes from index 11"));
    }
}
