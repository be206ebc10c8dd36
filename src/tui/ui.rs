//! One frame: the panes in their layout, the status bar, and the overlays on top.
//! Drawing reads the app and changes nothing but the remembered scroll offsets.

use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::app::App;
use super::layout::{self, Pane, MIN_HEIGHT, MIN_WIDTH};
use super::overlays;
use super::panes::{self, safe, thousands};
use super::theme::Theme;

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme) {
    let size = frame.area();
    let Some(areas) = layout::compute(size, app.focus) else {
        let text = format!("terminal too small: {}×{} (needs {MIN_WIDTH}×{MIN_HEIGHT})", size.width, size.height);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), size);
        return;
    };
    if let Some(tabs) = areas.tabs {
        panes::render_tabs(frame, tabs, app.focus, theme);
    }
    for (pane, area) in &areas.panes {
        match pane {
            Pane::Agents => panes::agents::render(frame, *area, app, theme),
            Pane::Sources => panes::sources::render(frame, *area, app, theme),
            Pane::Inherit => panes::inherit::render(frame, *area, app, theme),
            Pane::Prompt => panes::prompt::render(frame, *area, app, theme),
            Pane::Diagnostics => panes::diagnostics::render(frame, *area, app, theme),
        }
    }
    if app.diff.is_some() {
        panes::diff::render(frame, areas.main, app, theme);
    }
    if app.finder.is_some() {
        overlays::finder::render(frame, areas.status, app, theme);
    } else {
        status_bar(frame, areas.status, app, theme);
    }
    if let Some(report) = &app.report {
        overlays::report::render(frame, areas.main, report, theme);
    }
    overlays::help::render(frame, areas.main, app, theme);
}

fn status_bar(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let mut left: Vec<Span> = Vec::new();
    // Counts only for a complete catalog: "N agents · M shadowed" on the status
    // bar means everything is loaded.
    let arrived = app.catalog().map_or(0, |c| c.reports.len());
    let pending = match app.pending.len() {
        0 => String::new(),
        n => format!(" · {arrived} of {} tools", arrived + n),
    };
    match (app.progress, app.catalog()) {
        (Some((done, total)), _) if total > 0 => left.push(Span::styled(
            format!("loading {} / {} files{pending}", thousands(done), thousands(total)),
            theme.info,
        )),
        (Some((done, _)), _) => {
            left.push(Span::styled(format!("loading {} files{pending}", thousands(done)), theme.info))
        }
        (None, Some(_)) => {
            let t = app.index.as_ref().map(|i| i.totals).unwrap_or_default();
            // Agents as `list` and `check` count them: every row.
            let agents = app.index.as_ref().map_or(0, |i| i.agents.len());
            let (shadowed, invalid, errors) = (t.shadowed, t.invalid, t.errors);
            let plural = |n: usize, word: &str| format!("{} {word}{}", thousands(n), if n == 1 { "" } else { "s" });
            left.push(Span::raw(format!("{} · {} shadowed", plural(agents, "agent"), thousands(shadowed))));
            if invalid > 0 {
                left.push(Span::styled(format!(" · {} invalid", thousands(invalid)), theme.invalid));
            }
            if errors > 0 {
                left.push(Span::styled(format!(" · {}", plural(errors, "error")), theme.error));
            }
            // Said once, before the notes: the tool shows none of its rows until then.
            for refusal in app.index.as_ref().map_or(&[][..], |i| i.refusals.as_slice()) {
                left.push(Span::raw(" · "));
                left.push(safe(refusal, theme.error));
            }
            match app.index.as_ref().map_or(&[][..], |i| i.releases.as_slice()) {
                [] => {}
                [one] => {
                    left.push(Span::raw(" · "));
                    left.push(safe(one, theme.info));
                }
                many => left.push(Span::styled(
                    format!(" · {} tools installed at another release than agentry follows", many.len()),
                    theme.info,
                )),
            }
        }
        (None, None) => {}
    }
    if let Some(f) = &app.filter {
        left.push(Span::raw(" · "));
        left.push(safe(&format!("filter /{}", f.query), theme.r#match));
    }
    if let Some(n) = &app.notice {
        left.push(Span::raw(" · "));
        left.push(safe(n, theme.warning));
    }
    if let Some(e) = &app.config_error {
        left.push(Span::raw(" · "));
        left.push(safe(&format!("config: {e}"), theme.error));
    }
    let help = app.keymap.key_of(super::action::Action::Help).map(|k| format!("{k} help ")).unwrap_or_default();
    let left = Line::from(left);
    // The left side (counts, filter, problems) matters more: the watch state goes
    // first when the line is too narrow for both, then the help hint.
    let mut right =
        Line::from(vec![safe(&app.watch, theme.muted), Span::raw("  "), Span::styled(help.clone(), theme.key)]);
    if left.width() + right.width() + 2 > area.width as usize {
        right = Line::from(Span::styled(help, theme.key));
    }
    frame.render_widget(Paragraph::new(left.clone()).style(theme.status), area);
    let right_width = right.width() as u16;
    if left.width() + right_width as usize + 2 <= area.width as usize {
        let r = Rect { x: area.x + area.width - right_width, width: right_width, ..area };
        frame.render_widget(Paragraph::new(right).alignment(Alignment::Right).style(theme.status), r);
    }
}
