//! Shadowed duplicates: every definition of the selected name in its framework, in
//! precedence order, status word first, then the rule that decided it, in words.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::{block, safe, status_word, STATUS_WIDTH};
use crate::tui::app::App;
use crate::tui::layout::Pane;
use crate::tui::theme::Theme;

/// Each source takes two lines: status and key, then the rule.
const LINES_PER_SOURCE: usize = 2;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let (Some(index), Some(n)) = (&app.index, app.selected_agent()) else {
        frame.render_widget(block(" Sources ", app.focus == Pane::Sources, theme), area);
        return;
    };
    let sources = index.sources_of(n);
    let name = &index.agent(n).name;
    let title = Line::from(vec![
        Span::raw(" Sources of "),
        safe(name, theme.title),
        Span::raw(format!(" ({}) ", sources.len())),
    ]);
    let outer = block(title, app.focus == Pane::Sources, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let visible = (inner.height as usize / LINES_PER_SOURCE).max(1);
    let offset = app.sources.visible_offset(visible);
    let mut lines = Vec::new();
    for (i, &o) in sources.iter().enumerate().skip(offset).take(visible) {
        let a = index.agent(o);
        let mut head = vec![status_word(a.status, theme), safe(&a.source.key(), theme.text)];
        if o == n {
            head.push(Span::styled("  (selected)", theme.muted));
        }
        if let Some(order) = &a.undocumented_order {
            // The tool's documentation does not promise this order: say which it was.
            head.push(Span::raw("  "));
            head.push(safe(&format!("decided by an undocumented order: {order}"), theme.undocumented));
        }
        let mut line = Line::from(head);
        if i == app.sources.cursor && app.focus == Pane::Sources {
            line = line.style(theme.selection);
        }
        lines.push(line);
        lines.push(Line::from(vec![Span::raw(" ".repeat(STATUS_WIDTH)), safe(&a.rule, theme.muted)]));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}
