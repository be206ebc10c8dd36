//! The explorer's panes and overlays drawn into ratatui's `TestBackend` (insta
//! snapshots at 80×24 and 160×48), style checks on the status words, key sequences
//! driving the app state, and escape sequences from files shown inert.

mod arrival;
mod catalog;

use agentry::model::{Scope, Status};
use agentry::tui::action::{Action, Effect};
use agentry::tui::app::App;
use agentry::tui::index::Row;
use agentry::tui::keymap::Keymap;
use agentry::tui::layout::Pane;
use agentry::tui::panes::diff::DiffView;
use agentry::tui::theme::Theme;
use agentry::tui::ui;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::Terminal;

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 48)];

fn app(width: u16, height: u16) -> App {
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, width, height));
    app.watch = "watching 4 folders".into();
    app.on_snapshot(catalog::catalog(1, Vec::new()));
    app
}

fn dark() -> Theme {
    Theme::builtin("dark").expect("dark theme")
}

fn draw(app: &App, theme: &Theme) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).expect("terminal");
    terminal.draw(|f| ui::draw(f, app, theme)).expect("draw");
    terminal
}

fn screen(buffer: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn press(app: &mut App, keys: &str) -> Vec<Effect> {
    keys.chars().filter_map(|c| app.on_key(key(c))).collect()
}

fn special(app: &mut App, code: KeyCode) -> Option<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn snapshot(name: &str, app: &App) {
    let terminal = draw(app, &dark());
    insta::assert_snapshot!(format!("{name}_{}x{}", app.size.width, app.size.height), terminal.backend());
}

fn select_name(app: &mut App, name: &str) {
    let id = app
        .index
        .as_ref()
        .and_then(|i| (0..i.agents.len()).map(|n| i.agent(n)).find(|a| a.name == name).map(|a| a.id()))
        .expect("agent in catalog");
    app.select(&id);
}

/// Opens the diff of the selected agent's name and answers the driver's effect the
/// way the driver does, with the files' texts given here.
fn open_diff(app: &mut App) {
    let Some(Effect::OpenDiff { winner, other }) = app.apply(Action::Diff) else { panic!("no diff effect") };
    let index = app.index.as_ref().expect("index");
    let w = index.agent(index.by_id(&winner).unwrap()).clone();
    let o = index.agent(index.by_id(&other).unwrap()).clone();
    let view = DiffView::build(
        &w,
        &o,
        "---\nname: reviewer\nmodel: gpt-5\ntools: [read, grep]\n---\nYou review code.\n",
        "---\nname: reviewer\nmodel: gpt-4o\ntools: [read, bash]\n---\nYou review code quickly.\n",
    );
    app.set_diff_view(&winner, &other, view);
}

#[test]
fn every_pane_at_both_sizes() {
    for (w, h) in SIZES {
        let mut app = app(w, h);
        select_name(&mut app, "reviewer");
        for pane in [Pane::Agents, Pane::Sources, Pane::Inherit, Pane::Prompt, Pane::Diagnostics] {
            app.focus = pane;
            snapshot(&format!("pane_{}", pane.title().to_lowercase()), &app);
        }
    }
}

#[test]
fn inheritance_of_a_chain_at_both_sizes() {
    for (w, h) in SIZES {
        let mut app = app(w, h);
        select_name(&mut app, "coder");
        app.focus = Pane::Inherit;
        app.apply(Action::Down);
        app.apply(Action::Down);
        snapshot("inherit_chain", &app);
        app.focus = Pane::Prompt;
        snapshot("prompt_template_error", &app);
    }
}

#[test]
fn every_overlay_at_both_sizes() {
    for (w, h) in SIZES {
        let mut app = app(w, h);
        app.apply(Action::Help);
        snapshot("overlay_help", &app);
        app.apply(Action::Back);

        press(&mut app, "/rev");
        snapshot("overlay_finder", &app);
        special(&mut app, KeyCode::Enter);
        snapshot("filter_kept", &app);
        app.apply(Action::Back);

        app.apply(Action::ToggleTree);
        snapshot("tree", &app);
        app.apply(Action::ToggleTree);

        select_name(&mut app, "reviewer");
        open_diff(&mut app);
        snapshot("overlay_diff_unified", &app);
        app.apply(Action::ToggleSideBySide);
        snapshot("overlay_diff_side_by_side", &app);
    }
}

#[test]
fn loading_and_tiny_terminal() {
    let app = App::new(Keymap::default(), Rect::new(0, 0, 80, 24));
    let mut loading = app;
    loading.progress = Some((4210, 20600));
    let text = screen(draw(&loading, &dark()).backend().buffer());
    assert!(text.contains("loading 4,210 / 20,600 files"), "{text}");
    snapshot("loading", &loading);
    for (w, h) in [(20, 5), (39, 30), (100, 9), (1, 1)] {
        let mut tiny = App::new(Keymap::default(), Rect::new(0, 0, w, h));
        tiny.on_snapshot(catalog::catalog(1, Vec::new()));
        let text = screen(draw(&tiny, &dark()).backend().buffer());
        assert!(text.replace('\n', "").contains("terminal") || w < 9, "{w}x{h}: {text}");
    }
}

/// The cell where `word` starts on the screen.
fn find(buffer: &Buffer, word: &str) -> Option<(u16, u16)> {
    let text = screen(buffer);
    for (y, line) in text.lines().enumerate() {
        if let Some(byte) = line.find(word) {
            let x = line[..byte].chars().count();
            return Some((x as u16, y as u16));
        }
    }
    None
}

#[test]
fn status_words_carry_their_theme_role() {
    for name in ["dark", "light", "mono"] {
        let theme = Theme::builtin(name).expect("theme");
        let app = app(160, 48);
        let terminal = draw(&app, &theme);
        let buffer = terminal.backend().buffer();
        for (word, style) in [
            ("WINS", theme.winner),
            ("SHADOWED", theme.shadowed),
            ("EQUIVALENT", theme.equivalent),
            ("INVALID", theme.invalid),
        ] {
            let (x, y) = find(buffer, word).unwrap_or_else(|| panic!("{word} on screen"));
            let cell = &buffer[(x, y)];
            if let Some(fg) = style.fg {
                assert_eq!(cell.fg, fg, "{name}: {word} colour");
            }
            assert!(cell.modifier.contains(style.add_modifier), "{name}: {word} modifiers {:?}", cell.modifier);
        }
        // Mono tells the states apart without colour.
        if name == "mono" {
            let (x, y) = find(buffer, "INVALID").expect("INVALID");
            assert!(buffer[(x, y)].modifier.contains(Modifier::REVERSED));
        }
    }
}

#[test]
fn escape_sequences_from_files_reach_the_screen_inert() {
    for (w, h) in SIZES {
        let mut app = app(w, h);
        select_name(&mut app, "evil\x1b]0;pwned\x07name");
        for pane in [Pane::Agents, Pane::Inherit, Pane::Prompt] {
            app.focus = pane;
            let terminal = draw(&app, &dark());
            let buffer = terminal.backend().buffer();
            for cell in buffer.content() {
                assert!(
                    !cell.symbol().chars().any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
                    "raw control character in a cell"
                );
            }
            let text = screen(buffer);
            assert!(text.contains("evil^[]0;pwned^Gname"), "{text}");
            if pane == Pane::Prompt {
                assert!(text.contains("hello ^[]52;c;SGVsbG8=^G world"), "{text}");
                assert!(text.contains("<U+202E>reversed"), "{text}");
            }
        }
    }
}

#[test]
fn filter_narrows_live_enter_keeps_and_esc_restores() {
    let mut app = app(80, 24);
    select_name(&mut app, "planner");
    let all = app.rows.len();
    press(&mut app, "/");
    press(&mut app, "cod");
    let names: Vec<String> = app
        .rows
        .iter()
        .filter_map(|r| match r {
            Row::Agent { agent, .. } => Some(app.index.as_ref().expect("index").agent(*agent).name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(names.first().map(String::as_str), Some("coder"), "{names:?}");
    assert!(app.rows.len() < all);
    assert_eq!(app.agent().map(|a| a.name.as_str()), Some("coder"), "the best match is selected");
    // Esc restores the list and the selection as they were.
    special(&mut app, KeyCode::Esc);
    assert_eq!(app.rows.len(), all);
    assert_eq!(app.agent().map(|a| a.name.as_str()), Some("planner"));
    // Enter keeps the filter; typing `q` in the finder is text, not quit.
    press(&mut app, "/plq");
    special(&mut app, KeyCode::Backspace);
    assert!(!app.quit);
    special(&mut app, KeyCode::Enter);
    assert_eq!(app.filter.as_ref().map(|f| f.query.as_str()), Some("pl"));
    assert_eq!(app.agent().map(|a| a.name.as_str()), Some("planner"));
    // Esc then clears the kept filter, and a second Esc quits.
    special(&mut app, KeyCode::Esc);
    assert!(app.filter.is_none());
    assert_eq!(special(&mut app, KeyCode::Esc), Some(Effect::Quit));
}

#[test]
fn selection_moves_and_is_kept_by_id_across_snapshots() {
    let mut app = app(80, 24);
    let first = app.agent().map(|a| a.id()).expect("first agent selected");
    press(&mut app, "jj");
    let third = app.agent().map(|a| a.id()).expect("selected");
    assert_ne!(first, third);
    press(&mut app, "k");
    let second = app.agent().map(|a| a.id()).expect("selected");
    // A new snapshot with two agents in front: the same agent stays selected.
    let extra = vec![
        catalog::agent(
            "openhands",
            "alpha",
            agentry::model::Scope::Project,
            ".openhands/agents/alpha.md",
            agentry::model::Status::Wins,
        ),
        catalog::agent(
            "openhands",
            "beta",
            agentry::model::Scope::Project,
            ".openhands/agents/beta.md",
            agentry::model::Status::Wins,
        ),
    ];
    app.on_snapshot(catalog::catalog(2, extra));
    assert_eq!(app.agent().map(|a| a.id()), Some(second.clone()));
    // And when it disappears, the nearest agent is selected, not nothing.
    let mut gone = (*catalog::catalog(3, Vec::new())).clone();
    std::sync::Arc::make_mut(&mut gone.reports[0]).agents.retain(|a| a.id() != second);
    app.on_snapshot(std::sync::Arc::new(gone));
    assert!(app.agent().is_some());
    // G and g jump to the ends, skipping headings.
    press(&mut app, "G");
    assert_eq!(app.agent().map(|a| a.name.as_str()), Some("helper"));
    press(&mut app, "g");
    assert!(matches!(app.rows[app.list.cursor], Row::Agent { .. }));
}

#[test]
fn diff_opens_cycles_toggles_and_closes() {
    let mut app = app(80, 24);
    select_name(&mut app, "reviewer");
    let effects = press(&mut app, "d");
    let Some(Effect::OpenDiff { winner, other }) = effects.first().cloned() else { panic!("{effects:?}") };
    assert!(winner.ends_with("project:.openhands/agents/reviewer.md"));
    assert!(other.ends_with("user:.openhands/agents/reviewer.md"));
    let diff = app.diff.as_ref().expect("diff open");
    assert_eq!(diff.others.len(), 2);
    assert!(!diff.side_by_side);
    press(&mut app, "s");
    assert!(app.diff.as_ref().expect("diff").side_by_side);
    let next = press(&mut app, "]");
    assert!(matches!(&next[..], [Effect::OpenDiff { other, .. }] if other.ends_with("builtin:reviewer.md")));
    // `q` still quits from the diff; Esc closes it first.
    special(&mut app, KeyCode::Esc);
    assert!(app.diff.is_none());
    // A name with one definition has nothing to compare.
    select_name(&mut app, "planner");
    assert!(press(&mut app, "d").is_empty());
    assert!(app.notice.as_deref().unwrap_or("").contains("nothing to compare"));
}

#[test]
fn tree_toggle_shows_extends_and_subagents() {
    let mut app = app(80, 24);
    select_name(&mut app, "coder");
    press(&mut app, "t");
    assert!(app.tree);
    let text = screen(draw(&app, &dark()).backend().buffer());
    assert!(text.contains("└ extends base"), "{text}");
    assert!(text.contains("└ subagent helper"), "{text}");
    assert!(text.contains("└ subagent ghost") && text.contains("(not found)"), "{text}");
    // `base` is shown under `coder`, not as a root of its own.
    assert!(text.contains("└ extends base") && !text.contains("WINS       base"), "{text}");
    assert_eq!(app.agent().map(|a| a.name.as_str()), Some("coder"), "selection kept by the toggle");
    press(&mut app, "t");
    assert!(!app.tree);
}

#[test]
fn diagnostics_enter_jumps_to_the_agent_and_edit_opens_at_the_line() {
    let mut app = app(80, 24);
    app.focus = Pane::Diagnostics;
    press(&mut app, "j");
    let edit = press(&mut app, "e");
    assert_eq!(
        edit,
        vec![Effect::Edit { path: format!("{}/.tsugite/coder.md", catalog::PROJECT).into(), line: Some(9) }]
    );
    special(&mut app, KeyCode::Enter);
    assert_eq!(app.focus, Pane::Agents);
    assert_eq!(app.agent().map(|a| a.name.as_str()), Some("coder"));
    // In the inheritance pane, `e` opens the file and line the field came from.
    app.focus = Pane::Inherit;
    press(&mut app, "jj");
    assert_eq!(
        press(&mut app, "e"),
        vec![Effect::Edit { path: format!("{}/.tsugite/base.md", catalog::PROJECT).into(), line: Some(4) }]
    );
    let copied = press(&mut app, "y");
    assert_eq!(copied, vec![Effect::Copy(format!("{}/.tsugite/coder.md", catalog::PROJECT))]);
}

#[test]
fn tab_cycles_panes_and_mouse_clicks_select() {
    let mut app = app(160, 48);
    let tab = KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE);
    app.on_key(tab);
    assert_eq!(app.focus, Pane::Sources);
    app.on_key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    assert_eq!(app.focus, Pane::Agents);
    // Draw once so the list's offset is known, then click the fourth line.
    draw(&app, &dark());
    let click = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 10,
        row: 4,
        modifiers: KeyModifiers::NONE,
    };
    app.on_mouse(click);
    let row = app.list.cursor;
    assert_eq!(row, 3);
    assert!(matches!(app.rows[row], Row::Agent { .. }));
}

#[test]
fn rebinding_changes_input_and_help_together() {
    let mut overrides = std::collections::BTreeMap::new();
    overrides.insert("diff".to_string(), vec!["D".to_string()]);
    let (keymap, problems) = Keymap::new(&overrides);
    assert!(problems.is_empty(), "{problems:?}");
    let mut app = App::new(keymap, Rect::new(0, 0, 80, 24));
    app.on_snapshot(catalog::catalog(1, Vec::new()));
    select_name(&mut app, "reviewer");
    assert!(press(&mut app, "d").is_empty());
    assert_eq!(
        app.on_key(KeyEvent::new(KeyCode::Char('D'), KeyModifiers::SHIFT))
            .map(|e| matches!(e, Effect::OpenDiff { .. })),
        Some(true)
    );
    app.apply(Action::Back);
    app.apply(Action::Help);
    let text = screen(draw(&app, &dark()).backend().buffer());
    assert!(text.contains("D  ") && text.contains("diff the winner"), "{text}");
}

/// README's key table is the keymap's own rendering, so it cannot drift either.
#[test]
fn readme_key_table_is_the_keymap() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md");
    let table = Keymap::default().markdown();
    let start = readme.find("<!-- keys:start -->\n").map(|i| i + "<!-- keys:start -->\n".len());
    let end = readme.find("<!-- keys:end -->");
    let (Some(start), Some(end)) = (start, end) else { panic!("README.md lacks the keys:start/keys:end markers") };
    assert_eq!(&readme[start..end], table, "README's key table differs from the keymap; it should be:\n{table}");
}

#[test]
fn config_errors_stay_on_the_status_bar_and_highlights_replace_plain_text() {
    let mut app = app(160, 48);
    app.config_error = Some("config.toml: expected `=`; using defaults".into());
    select_name(&mut app, "planner");
    let theme = dark();
    let prompt = app.agent().and_then(|a| a.system_prompt.as_ref()?.as_held().map(str::to_string)).expect("prompt");
    let key = agentry::tui::highlight::key_of(&prompt, theme.syntax.as_deref().expect("syntax theme"));
    let painted = ratatui::style::Style::default().fg(ratatui::style::Color::Rgb(1, 2, 3));
    app.highlighted = Some(agentry::tui::highlight::Highlighted {
        key,
        lines: prompt.lines().map(|l| ratatui::text::Line::styled(l.to_string(), painted)).collect(),
    });
    let terminal = draw(&app, &theme);
    let buffer = terminal.backend().buffer();
    let text = screen(buffer);
    assert!(text.contains("config: config.toml: expected `=`; using defaults"), "{text}");
    let (x, y) = find(buffer, "You review code.").expect("prompt line");
    assert_eq!(buffer[(x, y)].fg, ratatui::style::Color::Rgb(1, 2, 3));
    // A highlight of another text (a stale one) is not used.
    app.highlighted.as_mut().expect("highlighted").key ^= 1;
    let terminal = draw(&app, &theme);
    let buffer = terminal.backend().buffer();
    let (x, y) = find(buffer, "You review code.").expect("prompt line");
    assert_ne!(buffer[(x, y)].fg, ratatui::style::Color::Rgb(1, 2, 3));
}

#[test]
fn by_name_grouping_puts_one_name_of_every_framework_together() {
    let mut app = app(160, 48);
    press(&mut app, "b");
    assert!(app.by_name);
    let names: Vec<String> = app.rows.iter().filter_map(|r| match r { Row::Name { name } => Some(name.clone()), _ => None }).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted, "one heading per name, in name order");
    // Every agent row follows the heading of its own name.
    let index = app.index.as_ref().unwrap();
    let mut current = None;
    for row in &app.rows {
        match row {
            Row::Name { name } => current = Some(name.clone()),
            Row::Agent { agent, .. } => assert_eq!(Some(&index.agent(*agent).name), current.as_ref()),
            _ => {}
        }
    }
    snapshot("by_name", &app);
    press(&mut app, "b");
    assert!(!app.rows.iter().any(|r| matches!(r, Row::Name { .. })));
}

#[test]
fn a_finder_query_with_no_match_offers_why_and_the_file_view_opens() {
    let mut app = app(80, 24);
    press(&mut app, "/");
    press(&mut app, "zzqx");
    assert_eq!(app.match_count(), 0);
    let hint = screen(draw(&app, &dark()).backend().buffer());
    assert!(hint.contains("why is it missing?"), "{hint}");
    special(&mut app, KeyCode::Enter);
    assert!(app.finder.is_none());
    let report = app.report.as_ref().expect("why overlay");
    assert_eq!(report.title, "why is `zzqx` missing?");
    snapshot("why_overlay", &app);
    special(&mut app, KeyCode::Esc);
    assert!(app.report.is_none() && !app.quit);

    press(&mut app, "f");
    let report = app.report.as_ref().expect("file view");
    assert!(report.title.ends_with("as every tool reads it"), "{}", report.title);
    special(&mut app, KeyCode::Esc);
}

/// The overlay's render function alone: the same report always draws the same cells.
#[test]
fn the_report_overlay_renders_its_lines() {
    let report = agentry::tui::app::ReportOverlay {
        title: "why is `ghost` missing?".into(),
        lines: vec!["ghost is not active in toy (Toy):".into(), "  skipped    .claude/agents/ghost.md".into(), "                1 | \u{1b}[31m---".into()],
        scroll: 0,
    };
    let mut terminal = Terminal::new(TestBackend::new(60, 8)).unwrap();
    terminal.draw(|f| agentry::tui::overlays::report::render(f, f.area(), &report, &dark())).unwrap();
    insta::assert_snapshot!("report_overlay_60x8", terminal.backend());
}

#[test]
fn one_files_two_readings_open_in_the_diff_view() {
    // The same file read by a second framework, under another name.
    let twin = catalog::agent("tsugite", "code-reviewer", Scope::Project, ".openhands/agents/reviewer.md", Status::Wins);
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, 160, 48));
    app.on_snapshot(catalog::catalog(1, vec![twin]));
    select_name(&mut app, "reviewer");
    let effect = app.on_key(key('x'));
    match effect {
        Some(Effect::OpenDiff { winner, other }) => {
            assert!(winner.starts_with("openhands:") && other.starts_with("tsugite:"), "{winner} {other}");
        }
        other => panic!("{other:?}"),
    }
    special(&mut app, KeyCode::Esc);
    select_name(&mut app, "planner");
    assert_eq!(app.on_key(key('x')), None);
    assert_eq!(app.notice.as_deref(), Some("no other tool reads this file as an agent"));
}
