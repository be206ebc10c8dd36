//! The panes: each is a pure `render(frame, area, &app, &theme)`. What they share
//! lives here: the bordered block, the tab bar, safe spans (every string from a file
//! goes through [`safe`] or [`marked`]), numbers with thousands separators.

pub mod agents;
pub mod diagnostics;
pub mod diff;
pub mod inherit;
pub mod prompt;
pub mod sources;

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph};
use ratatui::Frame;

use super::layout::{Pane, PANES};
use super::theme::Theme;
use crate::model::Status;
use crate::text::sanitize;

/// A pane's frame; the focused one stands out.
pub fn block<'a>(title: impl Into<Line<'a>>, focused: bool, theme: &Theme) -> Block<'a> {
    let border = if focused { theme.border_focus } else { theme.border };
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused { BorderType::Thick } else { BorderType::Plain })
        .border_style(border)
        .title(title)
        .title_style(if focused { theme.border_focus } else { theme.title })
}

/// A span of text that came from a file: sanitised, one line.
pub fn safe(text: &str, style: Style) -> Span<'static> {
    Span::styled(sanitize::line(text).into_owned(), style)
}

/// File text with some characters (by char index) in the match style; runs are
/// sanitised one by one so a highlight never splits an escape.
pub fn marked(text: &str, marks: &[usize], offset: usize, base: Style, mark: Style) -> Vec<Span<'static>> {
    if marks.is_empty() {
        return vec![safe(text, base)];
    }
    let mut spans = Vec::new();
    let mut run = String::new();
    let mut run_marked = false;
    for (i, c) in text.chars().enumerate() {
        let is_marked = marks.binary_search(&(i + offset)).is_ok();
        if is_marked != run_marked && !run.is_empty() {
            spans.push(safe(&run, if run_marked { base.patch(mark) } else { base }));
            run.clear();
        }
        run_marked = is_marked;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(safe(&run, if run_marked { base.patch(mark) } else { base }));
    }
    spans
}

/// Room for the longest status word (`EQUIVALENT`) and a space.
pub const STATUS_WIDTH: usize = 11;

/// The status word, padded so the names after it line up.
pub fn status_word(status: Status, theme: &Theme) -> Span<'static> {
    Span::styled(format!("{:<STATUS_WIDTH$}", status.word()), theme.status(status))
}

/// `20600` → `20,600`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Shortens to `width` characters with a trailing `…`.
pub fn ellipsize(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

const TAB_SEPARATOR: &str = " │ ";

/// The tab bar of narrow layouts.
pub fn render_tabs(frame: &mut Frame, area: Rect, focus: Pane, theme: &Theme) {
    let mut spans = vec![Span::raw(" ")];
    for (i, pane) in PANES.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(TAB_SEPARATOR, theme.muted));
        }
        let style = if *pane == focus { theme.selection.patch(theme.border_focus) } else { theme.muted };
        spans.push(Span::styled(pane.title(), style));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The tab under a column of the tab bar.
pub fn tab_at(column: u16) -> Option<Pane> {
    let mut x = 1usize;
    for (i, pane) in PANES.iter().enumerate() {
        if i > 0 {
            x += TAB_SEPARATOR.chars().count();
        }
        let end = x + pane.title().len();
        if (x..end).contains(&(column as usize)) {
            return Some(*pane);
        }
        x = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(thousands(20600), "20,600");
        assert_eq!(thousands(4210), "4,210");
        assert_eq!(thousands(999), "999");
        assert_eq!(ellipsize("abcdef", 4), "abc…");
        assert_eq!(tab_at(1), Some(Pane::Agents));
        assert_eq!(tab_at(10), Some(Pane::Sources));
        assert_eq!(tab_at(0), None);
        let spans = marked("a\x1bbc", &[1, 2], 0, Style::default(), Style::default());
        let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "a^[bc");
    }
}
