//! A text report over the panes: "why is NAME missing?" (from the finder) or one
//! file as every framework reads it (`f`). The lines come from the same functions
//! the command line prints ([`crate::views::why::lines`], [`crate::views::file::lines`]).

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use crate::tui::app::ReportOverlay;
use crate::tui::panes::{block, safe};
use crate::tui::theme::Theme;

/// Draws `report` centred in `area`; pure: the same report gives the same cells.
pub fn render(frame: &mut Frame, area: Rect, report: &ReportOverlay, theme: &Theme) {
    let width = area.width.saturating_sub(2);
    let height = area.height.saturating_sub(2).min(report.lines.len() as u16 + 2).max(3);
    let [row] = Layout::vertical([Constraint::Length(height)]).flex(Flex::Center).areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(width)]).flex(Flex::Center).areas(row);
    frame.render_widget(Clear, popup);
    let outer = block(format!(" {} (esc to close) ", report.title), true, theme);
    let inner = outer.inner(popup);
    frame.render_widget(outer, popup);
    let start = report.scroll.min(report.lines.len().saturating_sub(inner.height as usize));
    let lines: Vec<Line> =
        report.lines.iter().skip(start).take(inner.height as usize).map(|l| Line::from(safe(l, theme.text))).collect();
    frame.render_widget(Paragraph::new(lines), inner);
}
