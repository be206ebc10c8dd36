//! The first load shown framework by framework: the selection and its line in the
//! list stay put as rows arrive above or below it, the finder's query and the kept
//! filter apply to arriving rows, and the frameworks still loading are listed with
//! the progress.

use std::sync::Arc;

use agentry::model::Catalog;

use super::*;

/// The test catalog with only the reports of `ids` (kept in the catalog's order).
fn only(ids: &[&str]) -> Arc<Catalog> {
    let mut c = (*catalog::catalog(1, Vec::new())).clone();
    c.reports.retain(|r| ids.contains(&r.ecosystem));
    Arc::new(c)
}

/// The same reports (the same `Arc`s) as `full`, reduced to `ids`.
fn part_of(full: &Arc<Catalog>, ids: &[&str]) -> Arc<Catalog> {
    let mut c = (**full).clone();
    c.reports.retain(|r| ids.contains(&r.ecosystem));
    Arc::new(c)
}

fn loading(width: u16, height: u16) -> App {
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, width, height));
    app.watch = "watching 4 folders".into();
    app.progress = Some((4210, 20600));
    app.on_arrival(only(&[]), vec!["openhands", "tsugite", "kimi"]);
    app
}

fn selected(app: &App) -> Option<String> {
    app.agent().map(|a| a.id())
}

/// The screen line of the selection marker.
fn marker_line(app: &App) -> Option<u16> {
    find(draw(app, &dark()).backend().buffer(), "▶").map(|(_, y)| y)
}

fn agent_names(app: &App) -> Vec<String> {
    let index = app.index.as_ref().expect("index");
    app.rows
        .iter()
        .filter_map(|r| match r {
            Row::Agent { agent, .. } => Some(index.agent(*agent).id()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_selection_and_its_line_stay_put_as_frameworks_arrive_above() {
    let full = catalog::catalog(1, Vec::new());
    let mut app = loading(80, 24);
    app.on_arrival(part_of(&full, &["kimi"]), vec!["openhands", "tsugite"]);
    press(&mut app, "j");
    let chosen = selected(&app).expect("an agent");
    assert!(chosen.ends_with("helper.yaml"), "{chosen}");
    let line = marker_line(&app).expect("marker on screen");
    app.on_arrival(part_of(&full, &["openhands", "kimi"]), vec!["tsugite"]);
    assert_eq!(selected(&app).as_deref(), Some(chosen.as_str()));
    assert_eq!(marker_line(&app), Some(line), "the selected row moved on screen");
    assert!(app.list.offset.get() > 0, "rows arrived above: the list scrolled with them");
    app.on_arrival(part_of(&full, &["openhands", "tsugite", "kimi"]), Vec::new());
    assert_eq!(selected(&app).as_deref(), Some(chosen.as_str()));
    assert_eq!(marker_line(&app), Some(line));
    assert!(app.pending.is_empty() && app.progress.is_none());
    // Rows scrolled above stay reachable: moving up walks into them.
    press(&mut app, "g");
    assert!(marker_line(&app).is_some());
    assert_eq!(app.list.offset.get(), 0, "drawn from the top again");
    assert_eq!(selected(&app), agent_names(&app).first().cloned());
}

#[test]
fn rows_arriving_below_leave_the_selection_and_scroll_alone() {
    let full = catalog::catalog(1, Vec::new());
    let mut app = loading(160, 48);
    app.on_arrival(part_of(&full, &["openhands"]), vec!["tsugite", "kimi"]);
    press(&mut app, "jj");
    let (chosen, cursor, offset) = (selected(&app), app.list.cursor, app.list.offset.get());
    let line = marker_line(&app);
    app.on_arrival(part_of(&full, &["openhands", "kimi"]), vec!["tsugite"]);
    app.on_arrival(part_of(&full, &["openhands", "tsugite", "kimi"]), Vec::new());
    assert_eq!((selected(&app), app.list.cursor, app.list.offset.get()), (chosen, cursor, offset));
    assert_eq!(marker_line(&app), line);
}

/// Until a key is pressed the explorer opens at the top of the list, whichever
/// framework happened to arrive first.
#[test]
fn an_untouched_explorer_ends_at_the_top_whatever_arrived_first() {
    let full = catalog::catalog(1, Vec::new());
    let mut app = loading(80, 24);
    app.on_arrival(part_of(&full, &["kimi"]), vec!["openhands", "tsugite"]);
    assert!(selected(&app).is_some_and(|id| id.starts_with("kimi:")));
    app.on_arrival(part_of(&full, &["tsugite", "kimi"]), vec!["openhands"]);
    app.on_arrival(full.clone(), Vec::new());
    let mut whole = App::new(Keymap::default(), Rect::new(0, 0, 80, 24));
    whole.on_snapshot(full);
    assert_eq!(selected(&app), selected(&whole));
    assert_eq!((app.list.cursor, app.list.offset.get()), (whole.list.cursor, 0));
}

#[test]
fn the_finder_query_and_the_kept_filter_apply_to_arriving_rows() {
    let full = catalog::catalog(1, Vec::new());
    let reference = |keys: &str| {
        let mut whole = App::new(Keymap::default(), Rect::new(0, 0, 80, 24));
        whole.on_snapshot(full.clone());
        press(&mut whole, keys);
        (agent_names(&whole), whole.match_count())
    };
    for (keys, enter) in [("/er", false), ("/er", true), ("/kimi", false)] {
        let mut app = loading(80, 24);
        app.on_arrival(part_of(&full, &["tsugite"]), vec!["openhands", "kimi"]);
        press(&mut app, keys);
        if enter {
            special(&mut app, KeyCode::Enter);
        }
        let before = agent_names(&app);
        assert!(before.iter().all(|id| id.starts_with("tsugite:")), "{keys}: {before:?}");
        app.on_arrival(part_of(&full, &["openhands", "tsugite"]), vec!["kimi"]);
        app.on_arrival(full.clone(), Vec::new());
        let (names, count) = reference(keys);
        let mut got = agent_names(&app);
        let mut want = names.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{keys}: the same matches as on the whole catalog");
        assert_eq!(app.match_count(), count, "{keys}");
        assert!(app.query().is_some(), "{keys}: the query is kept");
        assert!(want.len() > before.len(), "{keys}: matches arrived");
    }
}

/// The complete snapshot that follows the last arrival holds the same reports:
/// it is taken as is, nothing is indexed again.
#[test]
fn the_snapshot_after_the_last_arrival_needs_no_new_index() {
    let full = catalog::catalog(1, Vec::new());
    let mut app = loading(80, 24);
    app.on_arrival(part_of(&full, &["openhands", "tsugite", "kimi"]), Vec::new());
    assert!(app.on_same_reports(full.clone()));
    assert!(Arc::ptr_eq(&app.index.as_ref().expect("index").catalog, &full));
    assert!(!app.on_same_reports(catalog::catalog(2, Vec::new())), "other reports need an index");
}

#[test]
fn two_frameworks_loaded_and_the_rest_still_loading() {
    for (w, h) in SIZES {
        let full = catalog::catalog(1, Vec::new());
        let mut app = loading(w, h);
        app.on_arrival(part_of(&full, &["tsugite"]), vec!["openhands", "kimi", "codex", "gemini-cli"]);
        app.on_arrival(part_of(&full, &["openhands", "tsugite"]), vec!["kimi", "codex", "gemini-cli"]);
        let text = screen(draw(&app, &dark()).backend().buffer());
        assert!(text.contains("loading kimi, codex, gemini-cli · 4,210 / 20,600 files"), "{text}");
        assert!(text.contains("loading 4,210 / 20,600 files · 2 of 5 tools"), "{text}");
        assert!(!text.contains(" agents · "), "no counts before the catalog is whole:\n{text}");
        snapshot("arrival_two_loaded", &app);
    }
}

/// Before any framework arrives the list is the one line of what is loading, under
/// the pane's title, and a framework's rows push it down.
#[test]
fn the_loading_line_follows_what_arrived() {
    let full = catalog::catalog(1, Vec::new());
    let mut app = loading(80, 24);
    let buffer = draw(&app, &dark()).backend().buffer().clone();
    assert_eq!(find(&buffer, "loading openhands, tsugite, kimi"), Some((3, 2)), "{}", screen(&buffer));
    app.on_arrival(part_of(&full, &["kimi"]), vec!["openhands", "tsugite"]);
    let buffer = draw(&app, &dark()).backend().buffer().clone();
    // The kimi heading and its two agents, then the line.
    assert_eq!(find(&buffer, "loading openhands, tsugite"), Some((3, 5)), "{}", screen(&buffer));
}
