//! The agent list: every definition grouped by framework, status word first, with
//! badges (how many definitions a winner shadows, how many diagnostics its file
//! has); or, toggled, the hierarchy tree of `extends` chains and delegation edges.
//! Matches of the finder's query are highlighted in the name and path.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::{block, marked, status_word};
use crate::frameworks;
use crate::model::EdgeKind;
use crate::tui::app::App;
use crate::tui::finder::matched_chars;
use crate::tui::index::{Index, Row};
use crate::tui::layout::Pane;
use crate::tui::theme::Theme;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Agents;
    let mut title = vec![Span::raw(if app.tree { " Agents · tree " } else { " Agents " })];
    if let Some(q) = app.query() {
        let count = app.rows.iter().filter(|r| matches!(r, Row::Agent { .. })).count();
        title.push(super::safe(&format!("/{q} "), theme.r#match));
        title.push(Span::raw(format!("{count} match{} ", if count == 1 { "" } else { "es" })));
    }
    let outer = block(Line::from(title), focused, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let Some(index) = &app.index else {
        frame.render_widget(Paragraph::new(Span::styled("loading…", theme.muted)), inner);
        return;
    };
    if app.rows.is_empty() {
        let text = if app.query().is_some() { "no agent matches" } else { "no agents found in the searched folders" };
        frame.render_widget(Paragraph::new(Span::styled(text, theme.muted)), inner);
        return;
    }
    let height = inner.height as usize;
    let offset = app.list.visible_offset(height);
    let query = app.query();
    let lines: Vec<Line> = app.rows[offset..]
        .iter()
        .take(height)
        .enumerate()
        .map(|(i, row)| {
            let selected = offset + i == app.list.cursor;
            let mut line = row_line(index, row, query, app, theme);
            if selected {
                line.spans.insert(0, Span::styled("▶ ", theme.selection));
                line = line.style(theme.selection);
            } else {
                line.spans.insert(0, Span::raw("  "));
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn edge_word(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Extends => "extends ",
        EdgeKind::Subagent => "subagent ",
        EdgeKind::Workflow => "step ",
    }
}

fn row_line(index: &Index, row: &Row, query: Option<&str>, app: &App, theme: &Theme) -> Line<'static> {
    match row {
        Row::Group { report } => {
            let report = &index.catalog.reports[*report];
            let title = frameworks::by_id(report.ecosystem).map(|f| f.title()).unwrap_or(report.ecosystem);
            let winners = report.agents.iter().filter(|a| a.status.is_active()).count();
            Line::from(vec![
                Span::styled(title.to_string(), theme.header),
                Span::styled(format!("  {} agents, {} definitions", winners, report.agents.len()), theme.muted),
            ])
        }
        Row::Agent { agent, depth, via } => {
            let a = index.agent(*agent);
            let mut spans = vec![status_word(a.status, theme)];
            if let Some(kind) = via {
                spans.push(Span::styled(
                    format!("{}└ {}", "  ".repeat((*depth as usize).saturating_sub(1)), edge_word(*kind)),
                    theme.muted,
                ));
            }
            let marks = query.map(|q| matched_chars(&app.matcher, &index.haystacks[*agent], q)).unwrap_or_default();
            spans.extend(marked(&a.name, &marks, 0, theme.text.patch(theme.title), theme.r#match));
            spans.push(Span::raw("  "));
            // The haystack is "name framework path description".
            let path_offset = a.name.chars().count() + 1 + a.ecosystem.len() + 1;
            let mut path = a.source.rel.clone();
            if let Some(card) = &a.source.card {
                path.push('#');
                path.push_str(card);
            }
            spans.push(Span::styled(format!("{}:", a.source.scope.as_str()), theme.muted));
            spans.extend(marked(&path, &marks, path_offset, theme.muted, theme.r#match));
            let shadows = index.shadows(*agent);
            if shadows > 0 {
                spans.push(Span::styled(format!("  hides {shadows}"), theme.shadowed));
            }
            let diagnostics = index.diagnostic_counts[*agent];
            if diagnostics > 0 {
                spans.push(Span::styled(format!("  ⚠ {diagnostics}"), theme.warning));
            }
            Line::from(spans)
        }
        Row::Unresolved { name, depth, via, cycle } => {
            let note = if *cycle { "  (cycle)" } else { "  (not found)" };
            Line::from(vec![
                Span::raw(format!("{:<10}", "")),
                Span::styled(format!("{}└ {}", "  ".repeat((*depth as usize).saturating_sub(1)), edge_word(*via)), theme.muted),
                super::safe(name, theme.invalid),
                Span::styled(note, theme.muted),
            ])
        }
    }
}
