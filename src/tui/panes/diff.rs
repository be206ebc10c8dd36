//! The diff view: the winner against one other definition of its name. First the
//! field-level diff (added, removed and changed fields, with list items), then the
//! line diff of the two files and of the two rendered prompts, words that differ
//! emphasised; unified or side by side. `old` is always the other definition and
//! `new` the winner, as `crate::diff` defines them.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use super::{block, ellipsize, safe};
use crate::diff::{self, Change, DiffLine, FieldChange, TextDiff};
use crate::model::{Agent, Status};
use crate::tui::app::{App, DiffState};
use crate::tui::theme::Theme;

/// Unchanged lines shown around each change.
const CONTEXT: usize = 3;

/// Everything the view shows, computed once when the pair is chosen.
#[derive(Clone, Debug)]
pub struct DiffView {
    pub winner_key: String,
    pub other_key: String,
    pub other_status: Status,
    pub fields: Vec<FieldChange>,
    pub file: TextDiff,
    /// The diff of what the model reads (prompt and messages); `None` when either
    /// side cannot be known without running the agent.
    pub prompt: Option<TextDiff>,
}

/// One line of the view before it is styled for a width.
#[derive(Clone, Debug)]
enum Row {
    Heading(String),
    Note(String),
    Field { change: Change, text: String },
    Item { change: Change, text: String },
    HunkHeader(String),
    Unified(DiffLine),
    Pair(Option<DiffLine>, Option<DiffLine>),
}

impl DiffView {
    /// The view of `winner` against `other`, given the text of their files. Prompts
    /// kept on disk are read: off the UI thread, where the driver builds it.
    pub fn build(winner: &Agent, other: &Agent, winner_text: &str, other_text: &str) -> DiffView {
        // A prompt that cannot be read diffs as the reason, as a file does.
        let model_text = |a: &Agent| a.model_text().unwrap_or_else(|e| Some(format!("<{e}>")));
        let prompt = match (model_text(other), model_text(winner)) {
            (Some(old), Some(new)) => Some(diff::text(&old, &new, CONTEXT)),
            _ => None,
        };
        DiffView {
            winner_key: winner.source.key(),
            other_key: other.source.key(),
            other_status: other.status,
            fields: diff::fields(winner, other),
            file: diff::text(other_text, winner_text, CONTEXT),
            prompt,
        }
    }

    /// How many lines the view has in a mode (for scrolling).
    pub fn len(&self, side_by_side: bool) -> usize {
        self.rows(side_by_side).len()
    }

    fn rows(&self, side_by_side: bool) -> Vec<Row> {
        let mut rows = vec![Row::Heading("fields".into())];
        let changed: Vec<&FieldChange> = self.fields.iter().filter(|f| f.change != Change::Same).collect();
        if changed.is_empty() {
            rows.push(Row::Note("every effective field is equal".into()));
        }
        for f in changed {
            let show = |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string()).unwrap_or_default();
            let text = match f.change {
                Change::Added => format!("{}: {}", f.key, show(&f.new)),
                Change::Removed => format!("{}: {}", f.key, show(&f.old)),
                _ => format!("{}: {} → {}", f.key, show(&f.old), show(&f.new)),
            };
            rows.push(Row::Field { change: f.change, text });
            for item in f.items.iter().filter(|i| i.change != Change::Same) {
                rows.push(Row::Item { change: item.change, text: item.value.to_string() });
            }
        }
        let same = self.fields.iter().filter(|f| f.change == Change::Same).count();
        if same > 0 {
            rows.push(Row::Note(format!("{same} field{} equal", if same == 1 { "" } else { "s" })));
        }
        rows.push(Row::Heading(format!("file  --- {}  +++ {}", self.other_key, self.winner_key)));
        text_rows(&self.file, side_by_side, "the files are identical", &mut rows);
        rows.push(Row::Heading("what the model reads".into()));
        match &self.prompt {
            Some(d) => text_rows(d, side_by_side, "the prompts are identical", &mut rows),
            None => rows.push(Row::Note("a prompt cannot be known without running the agent".into())),
        }
        rows
    }
}

fn text_rows(d: &TextDiff, side_by_side: bool, same: &str, rows: &mut Vec<Row>) {
    if d.is_empty() {
        rows.push(Row::Note(same.into()));
    }
    for hunk in &d.hunks {
        rows.push(Row::HunkHeader(format!(
            "@@ -{},{} +{},{} @@",
            hunk.old_start,
            hunk.old_len(),
            hunk.new_start,
            hunk.new_len()
        )));
        if !side_by_side {
            rows.extend(hunk.lines.iter().cloned().map(Row::Unified));
            continue;
        }
        // Pair each run of removed lines with the added run that follows it.
        let mut i = 0;
        while i < hunk.lines.len() {
            if hunk.lines[i].tag == Change::Same {
                rows.push(Row::Pair(Some(hunk.lines[i].clone()), Some(hunk.lines[i].clone())));
                i += 1;
                continue;
            }
            let removed: Vec<&DiffLine> = hunk.lines[i..].iter().take_while(|l| l.tag == Change::Removed).collect();
            let after = i + removed.len();
            let added: Vec<&DiffLine> = hunk.lines[after..].iter().take_while(|l| l.tag == Change::Added).collect();
            for k in 0..removed.len().max(added.len()) {
                rows.push(Row::Pair(removed.get(k).map(|l| (*l).clone()), added.get(k).map(|l| (*l).clone())));
            }
            i = after + added.len();
        }
    }
}

fn sign_style(change: Change, theme: &Theme) -> (char, Style) {
    match change {
        Change::Added => ('+', theme.diff_add),
        Change::Removed => ('-', theme.diff_remove),
        Change::Changed => ('~', theme.warning),
        Change::Same => (' ', theme.text),
    }
}

/// A diff line's text with its changed words emphasised, cut to `width` chars.
fn segments(line: &DiffLine, width: usize, theme: &Theme) -> Vec<Span<'static>> {
    let (base, emph) = match line.tag {
        Change::Added => (theme.diff_add, theme.diff_add_emph),
        Change::Removed => (theme.diff_remove, theme.diff_remove_emph),
        _ => (theme.text, theme.text),
    };
    let mut left = width;
    let mut spans = Vec::new();
    for (emphasised, text) in &line.segments {
        if left == 0 {
            break;
        }
        let clean = crate::text::sanitize::line(text);
        let piece: String = clean.chars().take(left).collect();
        left -= piece.chars().count();
        spans.push(Span::styled(piece, if *emphasised { emph } else { base }));
    }
    spans
}

fn number(n: Option<usize>) -> String {
    n.map(|n| format!("{n:>4} ")).unwrap_or_else(|| "     ".into())
}

fn row_line(row: &Row, width: usize, theme: &Theme) -> Line<'static> {
    match row {
        Row::Heading(t) => Line::from(safe(t, theme.header)),
        Row::Note(t) => Line::from(Span::styled(format!("  {t}"), theme.muted)),
        Row::Field { change, text } => {
            let (sign, style) = sign_style(*change, theme);
            Line::from(vec![
                Span::styled(format!("{sign} "), style),
                safe(&ellipsize(text, width.saturating_sub(2)), style),
            ])
        }
        Row::Item { change, text } => {
            let (sign, style) = sign_style(*change, theme);
            Line::from(vec![
                Span::styled(format!("    {sign} "), style),
                safe(&ellipsize(text, width.saturating_sub(6)), style),
            ])
        }
        Row::HunkHeader(t) => Line::from(Span::styled(t.clone(), theme.info)),
        Row::Unified(l) => {
            let (sign, style) = sign_style(l.tag, theme);
            let mut spans = vec![
                Span::styled(format!("{}{}", number(l.old_no), number(l.new_no)), theme.muted),
                Span::styled(format!("{sign} "), style),
            ];
            spans.extend(segments(l, width.saturating_sub(12), theme));
            Line::from(spans)
        }
        Row::Pair(old, new) => {
            let half = width.saturating_sub(3) / 2;
            let mut spans = Vec::new();
            for (side, number_of) in [(old, true), (new, false)] {
                let start = spans.iter().map(|s: &Span| s.content.chars().count()).sum::<usize>();
                if let Some(l) = side {
                    let n = if number_of { l.old_no } else { l.new_no };
                    spans.push(Span::styled(number(n), theme.muted));
                    spans.extend(segments(l, half.saturating_sub(5), theme));
                }
                if number_of {
                    let used = spans.iter().map(|s: &Span| s.content.chars().count()).sum::<usize>() - start;
                    spans.push(Span::raw(" ".repeat(half.saturating_sub(used))));
                    spans.push(Span::styled(" │ ", theme.border));
                }
            }
            Line::from(spans)
        }
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(state) = &app.diff else { return };
    frame.render_widget(Clear, area);
    let title = title(state, app, theme);
    let outer = block(title, true, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let Some(view) = &state.view else {
        frame.render_widget(Paragraph::new(Span::styled("reading both files…", theme.muted)), inner);
        return;
    };
    let rows = view.rows(state.side_by_side);
    let start = state.scroll.min(rows.len().saturating_sub(1));
    let lines: Vec<Line> =
        rows[start..].iter().take(inner.height as usize).map(|r| row_line(r, inner.width as usize, theme)).collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn title(state: &DiffState, app: &App, theme: &Theme) -> Line<'static> {
    let mode = if state.side_by_side { "side by side" } else { "unified" };
    let mut spans = vec![Span::raw(" Diff: "), Span::styled("WINS ", theme.winner)];
    spans.push(safe(state.winner.split_once(':').map_or(&state.winner[..], |(_, k)| k), theme.title));
    spans.push(Span::raw(" vs "));
    if let Some(v) = &state.view {
        spans.push(Span::styled(format!("{} ", v.other_status.word()), theme.status(v.other_status)));
        spans.push(safe(&v.other_key, theme.title));
    } else if let Some(o) = state.other() {
        spans.push(safe(o, theme.title));
    }
    spans.push(Span::styled(format!("  [{}/{}] {mode} ", state.current + 1, state.others.len()), theme.muted));
    let hint: Vec<String> = [crate::tui::action::Action::NextAgainst, crate::tui::action::Action::ToggleSideBySide]
        .iter()
        .filter_map(|a| {
            app.keymap.key_of(*a).map(|k| {
                format!("{k}: {}", if *a == crate::tui::action::Action::NextAgainst { "next" } else { "layout" })
            })
        })
        .collect();
    spans.push(Span::styled(format!("{} ", hint.join("  ")), theme.key));
    Line::from(spans)
}
