//! The rendered prompt: what the model reads (the system prompt, then the history
//! and first user message where the framework has them), highlighted as Markdown
//! when the highlighter has finished (plain, sanitised text until then), with line
//! numbers. Template errors of the agent's file are shown above it at their line.
//! A prompt kept on disk shows a line saying it is on its way until the reader
//! answers, and why when it cannot be read.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::{block, safe};
use crate::model::DiagKind;
use crate::tui::app::App;
use crate::tui::highlight::{key_of, plain};
use crate::tui::layout::Pane;
use crate::tui::reader::Shown;
use crate::tui::theme::Theme;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Prompt;
    let Some(agent) = app.agent() else {
        frame.render_widget(block(" Prompt ", focused, theme), area);
        return;
    };
    let shown = app.texts.shown(agent);
    let count = match &shown {
        Shown::Text(p) => p.lines().count(),
        _ => 0,
    };
    let what = if agent.kind == crate::model::Kind::Skill {
        " Skill body of "
    } else if agent.messages.is_empty() {
        " System prompt of "
    } else {
        " Prompt and messages of "
    };
    let title =
        Line::from(vec![Span::raw(what), safe(&agent.name, theme.title), Span::raw(format!(" ({count} lines) "))]);
    let outer = block(title, focused, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let mut lines: Vec<Line> = Vec::new();
    let errors =
        app.all_diagnostics().into_iter().filter(|d| d.kind == DiagKind::Template && *d.path == *agent.source.path);
    for d in errors {
        let at = d.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        lines.push(Line::from(vec![
            Span::styled(format!("✗ template error at {at}"), theme.error),
            safe(&d.message, theme.error),
        ]));
    }
    let unknown = "no system prompt: it cannot be known without running the agent";
    let prompt = match &shown {
        Shown::Text(prompt) => prompt,
        Shown::Unknown => return note(frame, inner, lines, Span::styled(unknown, theme.muted)),
        Shown::Reading => {
            return note(frame, inner, lines, Span::styled("reading the prompt from its file…", theme.muted))
        }
        Shown::Failed(why) => return note(frame, inner, lines, safe(why, theme.error)),
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

/// The lines so far, then one line in place of the prompt (wrapped: a reason names
/// the file).
fn note<'a>(frame: &mut Frame, area: Rect, mut lines: Vec<Line<'a>>, instead: Span<'a>) {
    lines.push(Line::from(instead));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}
