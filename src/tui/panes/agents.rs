//! The agent list: every definition grouped by framework, status word first, with
//! badges (how many definitions a winner shadows, how many diagnostics its file
//! has); or, toggled, the hierarchy tree of `extends` chains and delegation edges.
//! Matches of the finder's query are highlighted in the name and path.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::{block, marked, safe, status_word, thousands, STATUS_WIDTH};
use crate::model::EdgeKind;
use crate::tui::app::App;
use crate::tui::finder::matched_chars;
use crate::tui::index::{Index, Row};
use crate::tui::layout::Pane;
use crate::tui::theme::Theme;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Agents;
    let mut title = vec![Span::raw(match (app.tree, app.by_name) {
        (true, _) => " Agents · tree ",
        (false, true) => " Agents · by name ",
        (false, false) => " Agents ",
    })];
    // Which tools the list shows, and why (detected, configured, chosen, all).
    if let Some(short) = app.index.as_ref().map(|i| i.catalog.roots.tools.short()).filter(|s| !s.is_empty()) {
        title.push(Span::styled(format!("{short} "), theme.muted));
    }
    if app.hide_builtins {
        title.push(Span::styled("· no built-ins ", theme.muted));
    }
    if let Some(kind) = app.kind {
        title.push(Span::styled(format!("· {}s only ", kind.word()), theme.muted));
    }
    if let Some(q) = app.query() {
        let count = app.match_count();
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
    // The frameworks still loading get the line below what arrived (the pane's last
    // line at most).
    let pending = pending_line(app, theme).filter(|_| inner.height > 0);
    let list = Rect { height: inner.height - pending.is_some() as u16, ..inner };
    let pending_at = |shown: usize| Rect { y: list.y + shown as u16, height: 1, ..inner };
    if !app.rows.iter().any(|r| matches!(r, Row::Agent { .. })) {
        let lines = if app.pending.is_empty() || app.query().is_some() { empty(app, index, theme) } else { Vec::new() };
        let shown = lines.len().min(list.height as usize);
        frame.render_widget(Paragraph::new(lines), list);
        if let Some(line) = pending {
            frame.render_widget(Paragraph::new(line), pending_at(shown));
        }
        return;
    }
    let height = list.height as usize;
    let offset = app.list.visible_offset(height);
    let query = app.query();
    let shown = &app.rows[offset..(offset + height).min(app.rows.len())];
    let width = name_width(index, shown);
    let lines: Vec<Line> = shown
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let selected = offset + i == app.list.cursor;
            let mut line = row_line(index, row, query, app, theme, width);
            if selected {
                line.spans.insert(0, Span::styled("▶ ", theme.selection));
                line = line.style(theme.selection);
            } else {
                line.spans.insert(0, Span::raw("  "));
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    if let Some(line) = pending {
        frame.render_widget(Paragraph::new(line), pending_at(shown.len()));
    }
}

/// "loading codex, gemini-cli · 1,234 / 5,678 files": the frameworks of the first
/// load that have not arrived yet, with the load's progress.
fn pending_line(app: &App, theme: &Theme) -> Option<Line<'static>> {
    if app.pending.is_empty() {
        return None;
    }
    let mut spans = vec![Span::styled("  loading ", theme.info), Span::styled(app.pending.join(", "), theme.header)];
    match app.progress {
        Some((done, total)) if total > 0 => {
            spans.push(Span::styled(format!(" · {} / {} files", thousands(done), thousands(total)), theme.muted))
        }
        Some((done, _)) => spans.push(Span::styled(format!(" · {} files", thousands(done)), theme.muted)),
        None => {}
    }
    Some(Line::from(spans))
}

/// Nothing to list: say so, and where the frameworks looked.
fn empty(app: &App, index: &Index, theme: &Theme) -> Vec<Line<'static>> {
    if app.query().is_some() {
        return vec![Line::from(Span::styled("no agent matches", theme.muted))];
    }
    let mut lines = vec![Line::from(Span::styled(index.catalog.roots.tools.describe(), theme.muted))];
    lines.push(Line::from(Span::styled("no definition files found; where each tool looks:", theme.muted)));
    for (tool, dirs) in crate::views::places::looked_in(&index.catalog) {
        lines.push(Line::from(Span::styled(format!("  {tool}"), theme.header)));
        for dir in dirs {
            lines.push(Line::from(vec![Span::styled("    ", theme.muted), safe(&dir, theme.text)]));
        }
    }
    lines
}

fn edge_word(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Extends => "extends ",
        EdgeKind::Subagent => "subagent ",
        EdgeKind::Workflow => "step ",
        EdgeKind::Skill => "skill ",
    }
}

/// Widest name cell (tree prefix and name) among the rows shown, so names line up.
const MAX_NAME_WIDTH: usize = 32;

fn name_cell(index: &Index, row: &Row) -> Option<(String, String)> {
    let prefix = |depth: u16, via: Option<EdgeKind>| match via {
        Some(kind) => format!("{}└ {}", "  ".repeat((depth as usize).saturating_sub(1)), edge_word(kind)),
        None => String::new(),
    };
    match row {
        Row::Group { .. } | Row::Name { .. } => None,
        Row::Agent { agent, depth, via } => Some((prefix(*depth, *via), index.agent(*agent).name.clone())),
        Row::Unresolved { name, depth, via, .. } => Some((prefix(*depth, Some(*via)), name.clone())),
    }
}

fn name_width(index: &Index, rows: &[Row]) -> usize {
    rows.iter()
        .filter_map(|r| name_cell(index, r))
        .map(|(p, n)| p.chars().count() + crate::text::sanitize::line(&n).chars().count())
        .max()
        .unwrap_or(0)
        .min(MAX_NAME_WIDTH)
}

fn row_line(index: &Index, row: &Row, query: Option<&str>, app: &App, theme: &Theme, width: usize) -> Line<'static> {
    let cell = name_cell(index, row);
    let pad = |spans: &[Span]| {
        let used: usize = spans.iter().map(|s| s.content.chars().count()).sum::<usize>() - STATUS_WIDTH;
        Span::raw(" ".repeat(width.saturating_sub(used) + 2))
    };
    match row {
        Row::Group { report: r } => {
            let report = &index.catalog.reports[*r];
            let (agents, skills) = index.report_winners[*r];
            let active = if skills == 0 { format!("{agents} agents") } else { format!("{agents} agents, {skills} skills") };
            // The id, not the title: it is what `--ecosystem` takes.
            Line::from(vec![
                Span::styled(report.ecosystem.to_string(), theme.header),
                Span::styled(format!("  {active}, {} definitions", report.agents.len()), theme.muted),
            ])
        }
        Row::Name { name } => {
            let tools: std::collections::BTreeSet<&str> =
                (0..index.agents.len()).map(|n| index.agent(n)).filter(|a| a.name == *name).map(|a| a.ecosystem).collect();
            Line::from(vec![
                safe(name, theme.header),
                Span::styled(format!("  in {}", tools.into_iter().collect::<Vec<_>>().join(", ")), theme.muted),
            ])
        }
        Row::Agent { agent, .. } => {
            let a = index.agent(*agent);
            let (prefix, _) = cell.unwrap_or_default();
            let mut spans = vec![status_word(a.status, theme), Span::styled(prefix, theme.muted)];
            if a.kind == crate::model::Kind::Skill {
                spans.push(Span::styled("skill ", theme.muted));
            }
            let marks = query.map(|q| matched_chars(&app.matcher, &index.haystacks[*agent], q)).unwrap_or_default();
            spans.extend(marked(&a.name, &marks, 0, theme.text.patch(theme.title), theme.r#match));
            if a.name.trim().is_empty() {
                spans.push(safe(&a.shown_name(), theme.muted));
            }
            spans.push(pad(&spans));
            let shadows = index.shadows(*agent);
            if shadows > 0 {
                spans.push(Span::styled(format!("hides {shadows}  "), theme.shadowed));
            }
            let diagnostics = index.diagnostic_counts[*agent];
            if diagnostics > 0 {
                spans.push(Span::styled(format!("⚠ {diagnostics}  "), theme.warning));
            }
            // The haystack is "name framework path description".
            let path_offset = a.name.chars().count() + 1 + a.ecosystem.len() + 1;
            let mut path = a.source.rel.clone();
            if let Some(card) = &a.source.card {
                path.push('#');
                path.push_str(card);
            }
            if app.by_name && !app.tree {
                spans.push(Span::styled(format!("{}  ", a.ecosystem), theme.header));
            }
            spans.push(Span::styled(format!("{}:", a.source.scope.as_str()), theme.muted));
            spans.extend(marked(&path, &marks, path_offset, theme.muted, theme.r#match));
            Line::from(spans)
        }
        Row::Unresolved { name, cycle, .. } => {
            let (prefix, _) = cell.unwrap_or_default();
            let mut spans =
                vec![Span::raw(" ".repeat(STATUS_WIDTH)), Span::styled(prefix, theme.muted), safe(name, theme.invalid)];
            spans.push(pad(&spans));
            spans.push(Span::styled(if *cycle { "(cycle)" } else { "(not found)" }, theme.muted));
            Line::from(spans)
        }
    }
}
