//! Every problem in the workspace, one per line: `path:line: kind: message`, the
//! path relative to the project when it is inside it. Enter jumps to the agent.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::{block, safe};
use crate::model::{Diagnostic, Severity};
use crate::tui::app::App;
use crate::tui::layout::Pane;
use crate::tui::theme::Theme;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let diagnostics = app.all_diagnostics();
    let focused = app.focus == Pane::Diagnostics;
    let outer = block(format!(" Diagnostics ({}) ", diagnostics.len()), focused, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    if diagnostics.is_empty() {
        let text = if app.index.is_some() { "no problems found" } else { "" };
        frame.render_widget(Paragraph::new(Span::styled(text, theme.muted)), inner);
        return;
    }
    let Some(roots) = app.catalog().map(|c| c.roots.clone()) else { return };
    let height = inner.height as usize;
    let offset = app.diagnostics.visible_offset(height);
    let lines: Vec<Line> = diagnostics
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, d)| {
            let mut line = diagnostic_line(d, &roots, theme);
            // The problem that stops a tool says so where it is listed.
            let stops = app.catalog().and_then(|c| crate::views::refusal::stops(c, d));
            if let Some(head) = stops.and_then(|title| crate::views::refusal::opening(title, &d.message)) {
                line.spans.insert(3, Span::styled(format!("{head}: "), theme.error));
            }
            if i == app.diagnostics.cursor && focused {
                line = line.style(theme.selection);
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// `path:line:col: severity: kind: tool: message`, as `agentry check` prints it.
pub fn diagnostic_line(d: &Diagnostic, roots: &crate::model::Roots, theme: &Theme) -> Line<'static> {
    let path = crate::views::shown(&d.path, roots);
    let mut at = path;
    if let Some(line) = d.line {
        at.push_str(&format!(":{line}"));
        if let Some(col) = d.col {
            at.push_str(&format!(":{col}"));
        }
    }
    let (word, style) = match d.severity {
        Severity::Error => ("error: ", theme.error),
        Severity::Warning => ("warning: ", theme.warning),
        Severity::Info => ("note: ", theme.info),
    };
    Line::from(vec![
        safe(&format!("{at}: "), theme.text),
        Span::styled(format!("{word}{}: ", d.kind.as_str()), style),
        safe(&format!("{}: ", d.ecosystem), theme.muted),
        safe(&crate::views::quoted(&d.message, roots), theme.text),
    ])
}
