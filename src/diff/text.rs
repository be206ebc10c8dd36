//! Line diffs with word-level highlights, grouped into hunks with context, and their
//! plain `diff -u` form.

use std::time::Duration;

use serde::Serialize;
use similar::{ChangeTag, InlineChangeOptions, TextDiffConfig};

use super::Change;

/// Bounds the diff of two huge files: past this, `similar` settles for a coarser
/// (still correct) diff instead of the minimal one.
const DIFF_TIMEOUT: Duration = Duration::from_millis(500);

/// A line diff, hunk by hunk. Empty when the texts are equal.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TextDiff {
    pub hunks: Vec<Hunk>,
}

impl TextDiff {
    pub fn is_empty(&self) -> bool {
        self.hunks.is_empty()
    }
}

/// Adjacent changes with their context lines. Line numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hunk {
    pub old_start: usize,
    pub new_start: usize,
    pub lines: Vec<DiffLine>,
}

impl Hunk {
    /// Lines of the old side in this hunk (context and removed).
    pub fn old_len(&self) -> usize {
        self.lines.iter().filter(|l| l.old_no.is_some()).count()
    }

    /// Lines of the new side in this hunk (context and added).
    pub fn new_len(&self) -> usize {
        self.lines.iter().filter(|l| l.new_no.is_some()).count()
    }

    /// `@@ -a,b +c,d @@`, as `diff -u` writes it.
    pub fn header(&self) -> String {
        format!("@@ -{} +{} @@", range(self.old_start, self.old_len()), range(self.new_start, self.new_len()))
    }
}

/// One line: `Same` (context, both numbers), `Removed` (old number) or `Added` (new
/// number). `segments` hold the line's text without its newline; in a changed line
/// the words that differ from its counterpart are marked `true`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffLine {
    pub tag: Change,
    pub old_no: Option<usize>,
    pub new_no: Option<usize>,
    pub segments: Vec<(bool, String)>,
    /// The line is the last of its text and has no newline (`\ No newline at end of
    /// file`).
    pub no_newline: bool,
}

impl DiffLine {
    /// The line's text, without highlights.
    pub fn content(&self) -> String {
        self.segments.iter().map(|(_, s)| s.as_str()).collect()
    }
}

/// The line diff of `old` and `new` with `context` unchanged lines around each change.
pub fn text(old: &str, new: &str, context: usize) -> TextDiff {
    let diff = TextDiffConfig::default().timeout(DIFF_TIMEOUT).diff_lines(old, new);
    // One deadline for all word-level refinements: past it they come out coarse
    // rather than each changed block getting a fresh time budget.
    let deadline = std::time::Instant::now() + 2 * DIFF_TIMEOUT;
    // Semantic cleanup folds tiny coincidental matches (the `-` shared by `gpt-4`
    // and `claude-opus`) into the changed span, which reads better.
    let mut inline = InlineChangeOptions::new();
    inline.semantic_cleanup(true);
    let mut hunks = Vec::new();
    for group in diff.grouped_ops(context) {
        let Some(first) = group.first() else { continue };
        let mut hunk =
            Hunk { old_start: first.old_range().start + 1, new_start: first.new_range().start + 1, lines: Vec::new() };
        for op in &group {
            for change in diff.iter_inline_changes_with_options_deadline(op, inline, Some(deadline)) {
                let tag = match change.tag() {
                    ChangeTag::Equal => Change::Same,
                    ChangeTag::Delete => Change::Removed,
                    ChangeTag::Insert => Change::Added,
                };
                let parts: Vec<(bool, String)> = change
                    .iter_strings_lossy()
                    .map(|(e, part)| (e, part.strip_suffix('\n').unwrap_or(&part).to_string()))
                    .collect();
                hunk.lines.push(DiffLine {
                    tag,
                    old_no: change.old_index().map(|i| i + 1),
                    new_no: change.new_index().map(|i| i + 1),
                    segments: coalesce(parts),
                    no_newline: change.missing_newline(),
                });
            }
        }
        hunks.push(hunk);
    }
    TextDiff { hunks }
}

/// Joins neighbouring parts of equal emphasis, and treats plain whitespace between
/// two emphasised words as emphasised, so "fast code" reads as one changed span.
fn coalesce(parts: Vec<(bool, String)>) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::with_capacity(parts.len());
    for i in 0..parts.len() {
        let (mut emphasised, part) = (parts[i].0, &parts[i].1);
        if part.is_empty() {
            continue;
        }
        let between_emphasised = i > 0 && parts[i - 1].0 && parts.get(i + 1).is_some_and(|n| n.0);
        if !emphasised && between_emphasised && part.chars().all(char::is_whitespace) {
            emphasised = true;
        }
        match out.last_mut() {
            Some((e, s)) if *e == emphasised => s.push_str(part),
            _ => out.push((emphasised, part.clone())),
        }
    }
    out
}

/// `start,count` of a hunk side as `diff -u` writes it: a count of 1 is left out, and
/// an empty side names the line before it.
fn range(start: usize, count: usize) -> String {
    match count {
        0 => format!("{},0", start.saturating_sub(1)),
        1 => start.to_string(),
        n => format!("{start},{n}"),
    }
}

/// The diff as `diff -u` prints it; empty when there is no difference.
pub fn unified(old_label: &str, new_label: &str, d: &TextDiff) -> String {
    if d.hunks.is_empty() {
        return String::new();
    }
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    for h in &d.hunks {
        out.push_str(&h.header());
        out.push('\n');
        for line in &h.lines {
            out.push(line.tag.sign());
            out.push_str(&line.content());
            out.push('\n');
            if line.no_newline {
                out.push_str("\\ No newline at end of file\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_matches_diff_u() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nC\nd\ne\nf\ng\nh\ni\n";
        let d = text(old, new, 1);
        assert_eq!(
            unified("old", "new", &d),
            "--- old\n+++ new\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n@@ -8 +8,2 @@\n h\n+i\n"
        );
    }

    #[test]
    fn empty_sides_and_missing_newlines() {
        assert_eq!(unified("o", "n", &text("", "x\ny\n", 3)), "--- o\n+++ n\n@@ -0,0 +1,2 @@\n+x\n+y\n");
        assert_eq!(
            unified("o", "n", &text("x", "y", 3)),
            "--- o\n+++ n\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n"
        );
        assert!(text("same\n", "same\n", 3).is_empty());
        assert_eq!(unified("o", "n", &text("same\n", "same\n", 3)), "");
    }

    #[test]
    fn crlf_and_replacement_characters_diff_like_any_text() {
        let old = "a\r\nb\u{fffd}\r\n";
        let new = "a\r\nc\r\n";
        let d = text(old, new, 3);
        assert_eq!(unified("o", "n", &d), "--- o\n+++ n\n@@ -1,2 +1,2 @@\n a\r\n-b\u{fffd}\r\n+c\r\n");
        // Many scattered changes in a long text stay bounded and well-formed.
        let long_old: String = (0..5000).map(|i| format!("line {i} {}\n", i % 7)).collect();
        let long_new: String = (0..5000).map(|i| format!("line {i} {}\n", i % 5)).collect();
        let d = text(&long_old, &long_new, 1);
        assert!(d.hunks.iter().all(|h| h.old_len() > 0 && h.new_len() > 0));
        let removed: usize = d.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.tag == Change::Removed).count();
        let added: usize = d.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.tag == Change::Added).count();
        assert_eq!(removed, added);
    }

    #[test]
    fn changed_words_are_emphasised() {
        let d = text(
            "model: sonnet # fast code\ntools: [read]\n",
            "model: opus # careful pull requests\ntools: [read]\n",
            3,
        );
        let lines = &d.hunks[0].lines;
        assert_eq!(lines[0].tag, Change::Removed);
        assert_eq!(lines[1].tag, Change::Added);
        let emphasised =
            |l: &DiffLine| -> Vec<String> { l.segments.iter().filter(|(e, _)| *e).map(|(_, s)| s.clone()).collect() };
        assert_eq!(emphasised(&lines[0]), ["sonnet", "fast code"]);
        assert_eq!(emphasised(&lines[1]), ["opus", "careful pull requests"]);
        assert_eq!(lines[1].content(), "model: opus # careful pull requests");
        assert_eq!((lines[2].tag, lines[2].old_no, lines[2].new_no), (Change::Same, Some(2), Some(2)));
        assert!(lines[2].segments.iter().all(|(e, _)| !e));
    }
}
