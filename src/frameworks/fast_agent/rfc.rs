//! The AgentCard RFC dialect (the draft seed, read as written) and the comparison with
//! the released loader that `agentry check` reports.
//!
//! RFC rules implemented here: YAML bundles (one card per document); Markdown bundles
//! where a line that is exactly `---` starts a card only if the YAML up to the next
//! exactly-`---` line parses and has a `type` key (otherwise it is body text, e.g. a
//! horizontal rule); body blocks `---SYSTEM` / `---USER` / `---ASSISTANT` at column 0,
//! the text before the first block and the SYSTEM blocks forming the body's system
//! instruction, USER/ASSISTANT blocks seeding history; `type` required; `name`
//! required on every card of a bundle; duplicate names rejected. Attribute sets and
//! value checks are the package's (the RFC defers to "the attributes defined by the
//! decorator"); the instruction is the attribute, then the body's system instruction,
//! joined with a newline.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::parse::FileKind;
use super::raw::{decode_text, entries_of, Env, Failure, Message, RawCard};
use super::registry::{load_file, load_file_once, LoadState};
use super::ID;
use crate::model::{DiagKind, Diagnostic, EcosystemReport, Text};
use crate::yaml::{self, Value};

/// Which reading of AgentCards applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// fast-agent-mcp 0.10.48 as released.
    Released,
    /// The AgentCard RFC draft.
    Rfc,
}

/// The cards of one file under the RFC, each with a label for messages (its name or
/// position).
pub fn parse(kind: FileKind, bytes: &[u8], env: &Env) -> Result<Vec<(Option<String>, RawCard)>, Failure> {
    let text = decode_text(bytes).map_err(|e| Failure::parse(format!("the file is not UTF-8 ({e})"), None))?;
    let text = text.trim_start_matches('\u{feff}');
    match kind {
        FileKind::Yaml => yaml_bundle(text, env),
        FileKind::Markdown => markdown_bundle(text, env),
    }
}

fn label(raw: &RawCard, index: usize) -> Option<String> {
    match raw.value("name") {
        Some(Value::Str(s)) => Some(format!("`{s}`")),
        _ => Some(format!("#{}", index + 1)),
    }
}

/// A YAML bundle: every document of the stream is one card.
fn yaml_bundle(text: &str, env: &Env) -> Result<Vec<(Option<String>, RawCard)>, Failure> {
    let docs = yaml::load_all(text).map_err(|e| Failure::parse(format!("invalid YAML: {}", e.message), Some(e.line)))?;
    let mut out = Vec::new();
    for node in docs.into_iter().flatten().filter(|n| !matches!(n.value, Value::Null)) {
        match node.value {
            Value::Map(map) => {
                let raw = RawCard { entries: entries_of(&map, 0, env), body: None, body_line: node.span.line, ..Default::default() };
                out.push((label(&raw, out.len()), raw));
            }
            other => {
                return Err(Failure::parse(format!("a YAML card must be a mapping, not {}", other.type_name()), Some(node.span.line)))
            }
        }
    }
    if out.is_empty() {
        return Err(Failure::parse("the YAML file holds no card", None));
    }
    Ok(out)
}

/// Where one Markdown card sits: its front matter lines and its body lines (0-based,
/// `body` up to the next card or the end).
struct Span {
    open: usize,
    close: usize,
    end: usize,
}

/// The cards found (their lines and front matter) and the first YAML error.
type Spans = (Vec<(Span, crate::yaml::Map)>, Option<(u32, String)>);

/// The RFC's boundary rule: a line that is exactly `---` opens a card only when the
/// YAML up to the next exactly-`---` line parses and has `type`.
/// Also returns the first block that looked like front matter but failed to parse (its
/// file line and the YAML error), to explain a file in which no card starts.
fn card_spans(lines: &[&str]) -> Spans {
    let mut found: Vec<(Span, crate::yaml::Map)> = Vec::new();
    let mut first_error = None;
    let mut i = 0;
    while i < lines.len() {
        if lines[i] == "---" {
            if let Some(close) = (i + 1..lines.len()).find(|&j| lines[j] == "---") {
                let block = lines[i + 1..close].join("\n");
                let parsed = yaml::load(&block);
                if let Err(e) = &parsed {
                    first_error.get_or_insert((e.line + i as u32 + 1, e.message.clone()));
                }
                if let Ok(Some(crate::yaml::Node { value: Value::Map(map), .. })) = parsed {
                    if map.entries.iter().any(|(k, _)| k.value == Value::Str("type".into())) {
                        if let Some(last) = found.last_mut() {
                            last.0.end = i;
                        }
                        found.push((Span { open: i, close, end: lines.len() }, map));
                        i = close + 1;
                        continue;
                    }
                }
            }
        }
        i += 1;
    }
    (found, first_error)
}

/// A Markdown file under the RFC: its cards and their bodies split into blocks.
fn markdown_bundle(text: &str, env: &Env) -> Result<Vec<(Option<String>, RawCard)>, Failure> {
    let lines: Vec<&str> = text.split('\n').collect();
    let (spans, yaml_error) = card_spans(&lines);
    if spans.is_empty() {
        if let Some((line, message)) = yaml_error {
            return Err(Failure::parse(
                format!("no card: the front matter is not valid YAML ({message}), and under the AgentCard RFC a `---` line starts a card only if its YAML parses and has `type`"),
                Some(line),
            ));
        }
        let first_rule = lines.iter().position(|l| *l == "---").map(|i| i as u32 + 1);
        let message = match first_rule {
            Some(_) => "no card: under the AgentCard RFC a `---` line starts a card only if the YAML up to the next `---` parses and has `type`",
            None => "no card: the file has no `---` front matter",
        };
        return Err(Failure::parse(message, first_rule));
    }
    let mut out = Vec::new();
    for (span, map) in spans {
        let entries = entries_of(&map, span.open as u32 + 1, env);
        let (system, system_line, history) = split_body(&lines[span.close + 1..span.end], span.close + 2);
        let raw = RawCard { entries, body: Some(system), body_line: system_line, inline_history: history };
        out.push((label(&raw, out.len()), raw));
    }
    Ok(out)
}

/// Splits a card body into its system instruction (the text before the first block
/// plus every `---SYSTEM` block, in order) and its history (`---USER` /
/// `---ASSISTANT` blocks). `first_line` is the 1-based file line of `lines[0]`.
pub fn split_body(lines: &[&str], first_line: usize) -> (String, u32, Vec<Message>) {
    let header = |l: &str| match l.trim_end() {
        "---SYSTEM" => Some("system"),
        "---USER" => Some("user"),
        "---ASSISTANT" => Some("assistant"),
        _ => None,
    };
    let mut system_parts: Vec<String> = Vec::new();
    let mut system_line = None;
    let mut history = Vec::new();
    let mut role: Option<&str> = None;
    let mut block: Vec<&str> = Vec::new();
    let mut block_start = 0;
    let mut finish = |role: Option<&str>, block: &[&str], start: usize, system: &mut Vec<String>, line: &mut Option<u32>| {
        let text = crate::py::strip(&block.join("\n")).to_string();
        if text.is_empty() {
            return;
        }
        match role {
            None | Some("system") => {
                line.get_or_insert((first_line + start) as u32);
                system.push(text);
            }
            Some(r) => history.push(Message { role: r.to_string(), text }),
        }
    };
    for (i, line) in lines.iter().enumerate() {
        if let Some(r) = header(line) {
            finish(role, &block, block_start, &mut system_parts, &mut system_line);
            role = Some(r);
            block.clear();
            block_start = i + 1;
        } else {
            block.push(line);
        }
    }
    finish(role, &block, block_start, &mut system_parts, &mut system_line);
    (system_parts.join("\n"), system_line.unwrap_or(first_line as u32), history)
}

/// The RFC's own requirements on a card, beyond the package's checks.
pub fn check_card(raw: &RawCard, in_bundle: bool) -> Result<(), Failure> {
    const TYPES: [&str; 8] =
        ["agent", "chain", "parallel", "evaluator_optimizer", "router", "orchestrator", "iterative_planner", "MAKER"];
    match raw.get("type") {
        None => return Err(Failure::validation("the AgentCard RFC requires `type`", None)),
        Some(e) => match &e.value.value {
            Value::Str(t) if TYPES.contains(&t.as_str()) => {}
            other => {
                return Err(Failure::validation(
                    format!("`type` must be one of {} under the AgentCard RFC (found {})", TYPES.join(", "), crate::py::str_of(other)),
                    Some(e.line),
                ))
            }
        },
    }
    if in_bundle && raw.present("name").is_none() {
        return Err(Failure::validation("every card of a bundle must have a `name` (AgentCard RFC)", raw.line("type")));
    }
    Ok(())
}

/// Might the RFC read this file differently? A cheap text test for RFC-only syntax —
/// a second document or card (more `---` lines than one front matter needs), message
/// blocks, an `instruction:` beside a body — so only those files get the second parse.
/// A card without `type` (optional for the package, required by the RFC) is not
/// flagged on its own: that would warn on nearly every released card.
pub fn may_differ(kind: FileKind, text: &str) -> bool {
    let mut lines = text.lines();
    match kind {
        FileKind::Yaml => lines.skip(1).any(|l| l.starts_with("---") || l == "..."),
        FileKind::Markdown => {
            // A `---` after the first front matter that is followed by a `key:` line may
            // open a second card; a horizontal rule is usually followed by a blank line.
            let all: Vec<&str> = text.lines().collect();
            let opens_block = |i: usize| {
                all.get(i + 1).is_some_and(|next| {
                    let key = next.split(':').next().unwrap_or("");
                    next.contains(':') && !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                })
            };
            let later_block = all.iter().enumerate().filter(|(_, l)| l.trim_end() == "---").skip(2).any(|(i, _)| opens_block(i));
            later_block
                || lines.any(|l| l.starts_with("instruction:") || matches!(l.trim_end(), "---SYSTEM" | "---USER" | "---ASSISTANT"))
        }
    }
}

/// One card as the comparison sees it: name, instruction, inline history, and the
/// line of its front matter's opener.
type CardView = (String, Text, Vec<Message>, Option<u32>);

/// One dialect's reading of a file, reduced to what the comparison shows.
#[derive(PartialEq)]
enum Reading {
    Cards(Vec<CardView>),
    Rejected(String, Option<u32>),
}

fn read(s: &LoadState, path: &Path, dialect: Dialect) -> Reading {
    // The load's own dialect is what `resolve` loads too, so its memo is shared. The
    // other one is read for this comparison only, which is itself memoized and asked
    // again only when the file or what its reading saw changed: a memo of it would
    // keep the file's cards (most of the framework's memory besides its agents) for
    // a reuse that does not come.
    let own = s.dialect;
    let s = LoadState { dialect, ..*s };
    let loaded = if dialect == own { load_file(&s, path) } else { load_file_once(&s, path) };
    match loaded {
        Ok(cards) => Reading::Cards(
            cards
                .into_iter()
                .map(|l| {
                    let opener = l.card.attributes.lines().map(|(_, line)| line).min().map(|line| line.saturating_sub(1));
                    (l.card.name.clone(), l.card.instruction.clone(), l.card.inline_history.clone(), opener)
                })
                .collect(),
        ),
        Err(f) => Reading::Rejected(f.message, f.line),
    }
}

/// The difference between the two readings in words, and the line it shows at.
fn describe(kind: FileKind, released: &Reading, rfc: &Reading) -> Option<(String, Option<u32>)> {
    const FA: &str = "fast-agent 0.10.48";
    match (rfc, released) {
        (Reading::Cards(r), Reading::Cards(_)) if r.len() > 1 && kind == FileKind::Markdown => Some((
            format!("{} cards under the AgentCard RFC; {FA} reads one card and puts the rest in its instruction", r.len()),
            r.get(1).and_then(|c| c.3),
        )),
        (Reading::Cards(r), Reading::Cards(f)) if r != f => {
            let ((rn, ri, rh, line), (fname, fi, _, _)) = (r.first()?, f.first()?);
            let text = if rn != fname {
                format!("the AgentCard RFC names the card `{rn}`; {FA} names it `{fname}`")
            } else if ri != fi {
                format!("the AgentCard RFC and {FA} read different instructions for `{rn}`")
            } else {
                format!("the AgentCard RFC seeds `{rn}` with {} inline history message(s); {FA} has none", rh.len())
            };
            Some((text, *line))
        }
        (Reading::Cards(r), Reading::Rejected(why, line)) => Some((
            format!("{} card{} under the AgentCard RFC; {FA} rejects the file: {why}", r.len(), if r.len() == 1 { "" } else { "s" }),
            *line,
        )),
        (Reading::Rejected(why, line), Reading::Cards(f)) => Some((
            format!("{FA} reads {} card{}; the AgentCard RFC rejects the file: {why}", f.len(), if f.len() == 1 { "" } else { "s" }),
            *line,
        )),
        _ => None,
    }
}

/// How the two dialects read the file `path` differently, if they may: memoized per
/// file, so a refresh compares again only the files that changed. Most files cannot
/// differ, as a look at them (kept per version of the file) tells: they are passed
/// over without a memo each.
pub fn difference(s: &LoadState, path: &Path) -> Option<Arc<Option<Difference>>> {
    let kind = path.file_name().and_then(|n| FileKind::of(&n.to_string_lossy()))?;
    if !super::parse::look(s.cx.files, path, kind).ok()?.dialects_may_differ {
        return None;
    }
    let key = s.cx.memo_key(ID, &format!("compare\0{}\0{}", s.key, path.display()));
    Some(s.cx.files.memo(key, |files| {
        let cx = s.cx.with_files(files);
        compare_file(&LoadState { cx: &cx, ..*s }, path, kind)
    }))
}

/// Warns on every file the two dialects read differently (`found`: [`difference`]
/// of each of `files`), in discovery order.
pub fn report_differences(files: &[PathBuf], found: Vec<Option<Arc<Option<Difference>>>>, report: &mut EcosystemReport) {
    for (path, found) in files.iter().zip(found) {
        if let Some((message, line)) = found.as_deref().and_then(Option::as_ref) {
            report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Dialect, path, message.clone()).at(*line, None));
        }
    }
}

/// A message saying how the dialects differ, and the line it points at.
pub type Difference = (String, Option<u32>);

/// How the two dialects read one file of `kind` differently, if they do.
fn compare_file(s: &LoadState, path: &Path, kind: FileKind) -> Option<Difference> {
    let released = read(s, path, Dialect::Released);
    let rfc = read(s, path, Dialect::Rfc);
    describe(kind, &released, &rfc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_without_type_is_body_text() {
        let text = "---\ntype: agent\nname: a\n---\nOne.\n\n---\n\nStill one.\n\n---\ntype: chain\nname: b\nsequence: [a]\n---\nTwo.";
        let lines: Vec<&str> = text.split('\n').collect();
        let (spans, error) = card_spans(&lines);
        assert!(error.is_none());
        let bounds: Vec<(usize, usize, usize)> = spans.iter().map(|(s, _)| (s.open, s.close, s.end)).collect();
        assert_eq!(bounds, vec![(0, 3, 10), (10, 14, 16)]);
    }

    #[test]
    fn body_blocks_split_into_system_and_history() {
        let body = ["Prelude.", "---SYSTEM", "One.", "---USER", "Hi?", "---ASSISTANT", "Hello.", "---SYSTEM ", "Two."];
        let (system, line, history) = split_body(&body, 5);
        assert_eq!(system, "Prelude.\nOne.\nTwo.");
        assert_eq!(line, 5);
        let pairs: Vec<(&str, &str)> = history.iter().map(|m| (m.role.as_str(), m.text.as_str())).collect();
        assert_eq!(pairs, vec![("user", "Hi?"), ("assistant", "Hello.")]);
    }

    #[test]
    fn only_rfc_syntax_gets_the_second_parse() {
        assert!(!may_differ(FileKind::Markdown, "---\nname: a\n---\nBody with a rule\n\n---\n\nmore"));
        assert!(may_differ(FileKind::Markdown, "---\nname: a\n---\nx\n---\ntype: agent\n---\ny"));
        assert!(may_differ(FileKind::Markdown, "---\nname: a\n---\n---USER\nhi"));
        assert!(may_differ(FileKind::Markdown, "---\ninstruction: a\n---\nbody"));
        assert!(!may_differ(FileKind::Yaml, "---\ntype: agent\nname: a\n"));
        assert!(may_differ(FileKind::Yaml, "type: agent\n---\ntype: agent\n"));
    }
}
