//! The finder's query line, drawn over the status bar while `/` is open; the agent
//! list behind it narrows with every key.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::tui::app::App;
use crate::tui::panes::{safe, thousands};
use crate::tui::theme::Theme;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(finder) = &app.finder else { return };
    let total = app.index.as_ref().map_or(0, |i| i.agents.len());
    let count = finder.matches.as_ref().map_or(total, Vec::len);
    let line = Line::from(vec![
        Span::styled("/", theme.key),
        safe(&finder.query, theme.text),
        Span::styled("█", theme.muted),
        Span::styled(format!("  {} of {}  ", thousands(count), thousands(total)), theme.muted),
        Span::styled(
            if count == 0 && !finder.query.trim().is_empty() { "enter: why is it missing? · esc restore" } else { "enter keep · esc restore" },
            theme.muted,
        ),
    ]);
    frame.render_widget(Paragraph::new(line).style(theme.status), area);
}
