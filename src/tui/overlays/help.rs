//! `?`: every key binding, grouped by context, made from the same keymap table the
//! input goes through, so it shows what the keys really do (rebindings included).

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use crate::tui::app::App;
use crate::tui::keymap::Context;
use crate::tui::panes::{block, safe};
use crate::tui::theme::Theme;

/// The help text, one line per binding, headings per context.
pub fn lines(app: &App, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let width = app.keymap.rows.iter().map(|r| r.keys.join(" ").chars().count()).max().unwrap_or(0);
    for context in [Context::Global, Context::Panes, Context::Diff, Context::Finder] {
        out.push(Line::from(Span::styled(context.title().to_string(), theme.header)));
        for row in app.keymap.rows.iter().filter(|r| r.context == context) {
            let keys = if row.keys.is_empty() { "(unbound)".to_string() } else { row.keys.join(" ") };
            out.push(Line::from(vec![
                Span::raw("  "),
                safe(&format!("{keys:<width$}"), theme.key),
                Span::raw("  "),
                Span::raw(row.description),
            ]));
        }
    }
    out.push(Line::raw(""));
    out.push(Line::from(Span::styled("status words:", theme.header)));
    for (word, meaning) in crate::model::Status::LEGEND {
        out.push(Line::from(vec![Span::raw("  "), Span::styled(format!("{word:<11}"), theme.key), Span::raw(*meaning)]));
    }
    out.push(Line::from(Span::styled("fields: = own  ↑ inherited  ∪ merged  · default", theme.muted)));
    out
}

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(scroll) = app.help else { return };
    let lines = lines(app, theme);
    let width = area.width.saturating_sub(4).min(76);
    let height = area.height.saturating_sub(2).min(lines.len() as u16 + 2);
    let [row] = Layout::vertical([Constraint::Length(height)]).flex(Flex::Center).areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(width)]).flex(Flex::Center).areas(row);
    frame.render_widget(Clear, popup);
    let outer = block(" Keys (? or esc to close) ", true, theme);
    let inner = outer.inner(popup);
    frame.render_widget(outer, popup);
    let start = scroll.min(lines.len().saturating_sub(inner.height as usize));
    frame.render_widget(Paragraph::new(lines.into_iter().skip(start).collect::<Vec<_>>()), inner);
}
