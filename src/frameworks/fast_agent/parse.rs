//! One card file as fast-agent 0.10.48 reads it (`_load_yaml_card`,
//! `_load_markdown_card`): exactly one card per file, YAML through `safe_load`,
//! Markdown through python-frontmatter after a BOM is dropped.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::raw::{decode_text, entries_of, Env, Failure, RawCard};
use crate::discover::{Files, Hold, ParseKey, ReadError};
use crate::model::DiagKind;
use crate::yaml::{self, Value};

/// The kind of card file, by extension (trimmed and case-folded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Yaml,
    Markdown,
}

impl FileKind {
    pub fn of(file_name: &str) -> Option<FileKind> {
        match crate::py::strip(crate::discover::suffix(file_name)).to_lowercase().as_str() {
            ".yaml" | ".yml" => Some(FileKind::Yaml),
            ".md" | ".markdown" => Some(FileKind::Markdown),
            _ => None,
        }
    }
}

/// `_markdown_has_frontmatter`: UTF-8, a leading BOM dropped, and the first non-blank
/// line, trimmed, is exactly `---` or `+++`.
pub fn sniff_markdown(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else { return false };
    let text = text.trim_start_matches('\u{feff}');
    super::raw::Lines::new(text)
        .find_map(super::raw::strip_to_none)
        .is_some_and(|first| first == "---" || first == "+++")
}

/// What a quick look at a card file's bytes tells, remembered per version of the file:
/// a refresh that reuses the card's memoized reading needs no second look. The
/// bytes stay held for the card's reading that follows in the same load.
pub struct Look {
    /// A Markdown file with front matter ([`sniff_markdown`]).
    pub markdown_card: bool,
    /// The two dialects may read it differently ([`super::rfc::may_differ`]).
    pub dialects_may_differ: bool,
}

/// The [`Look`] at the card file `path` of `kind`, once per version of it.
pub fn look(files: Files, path: &Path, kind: FileKind) -> Result<Arc<Look>, ReadError> {
    static CONTEXT: OnceLock<u64> = OnceLock::new();
    let context = *CONTEXT.get_or_init(|| crate::discover::context_key("fast-agent card file look"));
    files.parse(path, Hold::ForPass, ParseKey::look(context), |bytes| Look {
        markdown_card: kind == FileKind::Markdown && sniff_markdown(bytes),
        dialects_may_differ: std::str::from_utf8(bytes).is_ok_and(|text| super::rfc::may_differ(kind, text)),
    })
}

/// The Python exception class a YAML constructor raised (`ValueError` for `!!int x`,
/// `KeyError` for `!!bool maybe`, …), as the shared reader names it at the head of
/// its message; `None` for a `yaml.YAMLError`.
fn python_exception(e: &yaml::YamlError) -> Option<&str> {
    let (class, _) = e.message.split_once(": ")?;
    (class.ends_with("Error") && class.chars().all(|c| c.is_ascii_alphanumeric()) && class != "YAMLError").then_some(class)
}

/// A failure of `yaml.safe_load`: `_load_yaml_card` wraps only `yaml.YAMLError` as
/// "Failed to parse YAML"; python-frontmatter's caller also wraps `ValueError`. Any
/// other exception a constructor raises escapes the loader unwrapped (the CLI reports
/// it as a validation failure of the card).
fn yaml_failure(e: &yaml::YamlError, context: &str, line: u32, also_caught: &[&str]) -> Failure {
    match python_exception(e) {
        Some(class) if !also_caught.contains(&class) => Failure::new(DiagKind::Validation, e.message.clone(), Some(line)),
        _ => Failure::parse(format!("{context}: {}", e.message), Some(line)),
    }
}

/// Reads one card file under the released rules.
pub fn released(kind: FileKind, bytes: &[u8], env: &Env) -> Result<RawCard, Failure> {
    match kind {
        FileKind::Yaml => {
            let text = decode_text(bytes)
                .map_err(|e| Failure::parse(format!("the file is not UTF-8 ({e}); fast-agent fails with UnicodeDecodeError"), None))?;
            let doc = yaml::load(&text)
                .map_err(|e| yaml_failure(&e, "Failed to parse YAML", e.line, &[]))?;
            match doc {
                Some(node) => match node.value {
                    Value::Map(map) => Ok(RawCard { entries: entries_of(&map, 0, env), body: None, body_line: 1, ..Default::default() }),
                    other => Err(Failure::parse(
                        format!("AgentCard YAML must be a mapping (found {})", other.type_name()),
                        Some(node.span.line),
                    )),
                },
                None => Err(Failure::parse("AgentCard YAML must be a mapping (the file is empty)", None)),
            }
        }
        FileKind::Markdown => {
            let text = decode_text(bytes)
                .map_err(|e| Failure::parse(format!("Failed to parse frontmatter: not UTF-8 ({e})"), None))?;
            let text = text.trim_start_matches('\u{feff}');
            let split = crate::frontmatter::split(text);
            let mut card = RawCard { body: Some(split.body.to_string()), body_line: split.body_line, ..Default::default() };
            if let Some(front) = split.front {
                // `ValueError` covers its subclasses the reader can raise (none other here).
                let doc = yaml::load(&front.text)
                    .map_err(|e| yaml_failure(&e, "Failed to parse frontmatter", e.line + front.line_offset, &["ValueError"]))?;
                // python-frontmatter ignores a block that is not a mapping.
                if let Some(crate::yaml::Node { value: Value::Map(map), .. }) = doc {
                    card.entries = entries_of(&map, front.line_offset, env);
                }
            }
            Ok(card)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_wants_a_plain_opener() {
        assert!(sniff_markdown(b"\n\n  ---\nname: a\n---\n"));
        assert!(sniff_markdown("\u{feff}---\n---\n".as_bytes()));
        assert!(sniff_markdown(b"+++\na = 1\n+++\n"));
        assert!(!sniff_markdown(b"----\nname: a\n----\n"));
        assert!(!sniff_markdown(b"# Title\n---\n"));
        assert!(!sniff_markdown(b""));
        assert!(!sniff_markdown(b"---\ncaf\xe9\n---\n"));
    }

    #[test]
    fn constructor_exceptions_escape_the_yaml_loader() {
        let kind = |file: FileKind, text: &str| released(file, text.as_bytes(), &Env::default()).err().map(|f| f.kind);
        assert_eq!(kind(FileKind::Yaml, "a: !!bool maybe\n"), Some(DiagKind::Validation));
        assert_eq!(kind(FileKind::Yaml, "a: !!int x\n"), Some(DiagKind::Validation));
        assert_eq!(kind(FileKind::Yaml, "a: !custom x\n"), Some(DiagKind::Parse));
        assert_eq!(kind(FileKind::Yaml, "a: [1\n"), Some(DiagKind::Parse));
        // python-frontmatter's caller also catches ValueError.
        assert_eq!(kind(FileKind::Markdown, "---\na: !!int x\n---\nbody\n"), Some(DiagKind::Parse));
        assert_eq!(kind(FileKind::Markdown, "---\na: !!bool maybe\n---\nbody\n"), Some(DiagKind::Validation));
        assert_eq!(kind(FileKind::Markdown, "---\na: 1\n---\nbody\n"), None);
    }

    #[test]
    fn extensions_are_case_folded() {
        assert_eq!(FileKind::of("LOUD.MD"), Some(FileKind::Markdown));
        assert_eq!(FileKind::of("quiet.Yml"), Some(FileKind::Yaml));
        assert_eq!(FileKind::of("card.json"), None);
        assert_eq!(FileKind::of(".md"), None);
    }
}
