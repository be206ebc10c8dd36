//! The rendered prompt: what the model reads (the system prompt, then the history
//! and first user message where the framework has them), highlighted as Markdown
//! when the highlighter has finished (plain, sanitised text until then), with line
//! numbers. Template errors of the agent's file are shown above it at their line.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::{block, safe};
use crate::model::{Agent, DiagKind};
use crate::tui::app::App;
use crate::tui::highlight::{key_of, plain};
use crate::tui::layout::Pane;
use crate::tui::theme::Theme;

/// Everything the model reads from a definition ([`Agent::model_text`]).
pub fn model_text(a: &Agent) -> Option<String> {
    a.model_text()
}

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Prompt;
    let Some(agent) = app.agent() else {
        frame.render_widget(block(" Prompt ", focused, theme), area);
        return;
    };
    let text = model_text(agent);
    let count = text.as_ref().map_or(0, |p| p.lines().count());
    let what = if agent.messages.is_empty() { " System prompt of " } else { " Prompt and messages of " };
    let title =
        Line::from(vec![Span::raw(what), safe(&agent.name, theme.title), Span::raw(format!(" ({count} lines) "))]);
    let outer = block(title, focused, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let mut lines: Vec<Line> = Vec::new();
    let errors =
        app.all_diagnostics().into_iter().filter(|d| d.kind == DiagKind::Template && d.path == agent.source.path);
    for d in errors {
        let at = d.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        lines.push(Line::from(vec![
            Span::styled(format!("✗ template error at {at}"), theme.error),
            safe(&d.message, theme.error),
        ]));
    }
    let Some(prompt) = &text else {
        lines.push(Line::from(Span::styled(
            "no system prompt: it cannot be known without running the agent",
            theme.muted,
        )));
        frame.render_widget(Paragraph::new(lines), inner);
        return;
    };
    let theme_name = theme.syntax.as_deref().unwrap_or("");
    let body = match &app.highlighted {
        Some(h) if h.key == key_of(prompt, theme_name) => h.lines.clone(),
        _ => plain(prompt),
    };
    let gutter = count.max(1).to_string().len();
    let room = (inner.height as usize).saturating_sub(lines.len());
    let start = app.prompt_scroll.min(body.len().saturating_sub(1));
    for (i, line) in body.into_iter().enumerate().skip(start).take(room) {
        let mut spans = vec![Span::styled(format!("{:>gutter$} ", i + 1), theme.muted)];
        let base = line.style;
        spans.extend(line.spans.into_iter().map(|s| Span::styled(s.content, base.patch(s.style))));
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
