//! Merged inheritance: the chain from the agent to its root, then every effective
//! field with its value, where it came from (file:line) and the rule that set it.
//! Inherited, merged and default fields are styled apart from the agent's own, and
//! marked with a symbol too (`=` own, `↑` inherited, `∪` merged, `·` default) so
//! the difference survives a monochrome terminal.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::{block, ellipsize, safe};
use crate::model::{Agent, Field, Provenance};
use crate::tui::app::App;
use crate::tui::layout::Pane;
use crate::tui::theme::Theme;

/// Lines for the selected field's full origin, under the list.
const DETAIL_LINES: u16 = 4;

fn mark(p: Provenance) -> &'static str {
    match p {
        Provenance::Own => "=",
        Provenance::Inherited => "↑",
        Provenance::Merged => "∪",
        Provenance::Default => "·",
    }
}

/// `project:a.md:4, user:b.md:6`, or `tool default`.
pub fn sites(field: &Field) -> String {
    if field.origin.sites.is_empty() {
        return "tool default".into();
    }
    let parts: Vec<String> = field.origin.sites.iter().map(ToString::to_string).collect();
    parts.join(", ")
}

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Inherit;
    let Some(agent) = app.agent() else {
        frame.render_widget(block(" Inheritance ", focused, theme), area);
        return;
    };
    let title = Line::from(vec![Span::raw(" Fields of "), safe(&agent.name, theme.title), Span::raw(" ")]);
    let outer = block(title, focused, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let detail = match inner.height {
        h if h > 16 => DETAIL_LINES + 1,
        h if h > DETAIL_LINES + 4 => DETAIL_LINES,
        _ => 0,
    };
    let [chain_area, list_area, detail_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(detail)]).areas(inner);
    frame.render_widget(Paragraph::new(chain_line(agent, theme)), chain_area);
    if agent.fields.is_empty() {
        frame.render_widget(Paragraph::new(Span::styled("no fields", theme.muted)), list_area);
        return;
    }
    let key_width = agent.fields.iter().map(|f| f.key.chars().count()).max().unwrap_or(0).min(24);
    let height = list_area.height as usize;
    let offset = app.fields.visible_offset(height);
    let value_width = (list_area.width as usize).saturating_sub(key_width + 4).max(8);
    let lines: Vec<Line> = agent
        .fields
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, f)| {
            let style = theme.provenance(f.origin.provenance);
            let value = ellipsize(&f.value.to_string(), value_width * 3 / 5);
            let mut line = Line::from(vec![
                Span::styled(format!("{} ", mark(f.origin.provenance)), style),
                safe(&format!("{:<key_width$} ", ellipsize(&f.key, key_width)), style.patch(theme.title)),
                safe(&value, style),
                Span::raw("  "),
                safe(&sites(&f), theme.muted),
            ]);
            if i == app.fields.cursor && focused {
                line = line.style(theme.selection);
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list_area);
    if detail > 0 {
        if let Some(f) = agent.fields.get(app.fields.cursor) {
            let style = theme.provenance(f.origin.provenance);
            let mut lines = vec![
                Line::from(vec![Span::styled("─".repeat(detail_area.width as usize), theme.border)]),
                Line::from(vec![safe(&f.key, theme.title), Span::raw(" = "), safe(&f.value.to_string(), style)]),
                Line::from(vec![
                    Span::styled(format!("{} from ", f.origin.provenance.word()), style),
                    safe(&sites(&f), theme.text),
                    Span::styled(" · ", theme.muted),
                    safe(&f.origin.rule, theme.muted),
                ]),
            ];
            // The skills the field names, each as the definition it resolves to.
            let skills: Vec<String> = agent
                .edges
                .iter()
                .filter(|e| e.kind == crate::model::EdgeKind::Skill && f.key.eq_ignore_ascii_case("skills"))
                .map(|e| format!("{} → {}", e.name, e.target.as_deref().unwrap_or("no skill")))
                .collect();
            if !skills.is_empty() {
                lines.push(Line::from(vec![Span::styled("resolves: ", theme.muted), safe(&skills.join(", "), theme.text)]));
            }
            frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), detail_area);
        }
    }
}

fn chain_line(agent: &Agent, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled("chain: ", theme.muted)];
    if agent.chain.len() <= 1 {
        spans.push(safe(&agent.source.key(), theme.text));
        spans.push(Span::styled("  (no parent)", theme.muted));
        return Line::from(spans);
    }
    for (i, key) in agent.chain.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" → ", theme.muted));
        }
        spans.push(safe(key, if i == 0 { theme.text } else { theme.inherited }));
    }
    Line::from(spans)
}
