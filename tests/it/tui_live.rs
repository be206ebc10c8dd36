//! Live refresh as the explorer sees it: the real loader watching a temporary
//! OpenHands workspace feeds the app; each edit, creation, rename and deletion shows
//! in the next snapshot, and the selected agent stays selected (by id) throughout.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agentry::frameworks::RenderMode;
use agentry::load::LoadOptions;
use agentry::loader::{Loader, LoaderEvent, WatchMode};
use agentry::model::{Roots, Text};
use agentry::tui::app::App;
use agentry::tui::keymap::Keymap;
use ratatui::layout::Rect;

const WAIT: Duration = Duration::from_secs(60);

fn agent_file(dir: &Path, name: &str, body: &str) {
    std::fs::write(dir.join(format!("{name}.md")), format!("---\nname: {name}\n---\n{body}\n")).expect("write agent");
}

fn names(app: &App) -> Vec<String> {
    app.catalog().map(|c| c.agents().map(|a| a.name.clone()).collect()).unwrap_or_default()
}

fn selected(app: &App) -> Option<String> {
    app.agent().map(|a| a.name.clone())
}

/// Applies snapshots until `ok` holds for the app.
fn until(loader: &Loader, app: &mut App, what: &str, ok: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !ok(app) {
        match loader.try_recv() {
            Some(LoaderEvent::Snapshot(catalog)) => {
                app.on_snapshot(catalog);
            }
            Some(_) => {}
            None => std::thread::sleep(Duration::from_millis(20)),
        }
        assert!(
            start.elapsed() < WAIT,
            "timed out waiting for {what}: agents {:?}, selected {:?}",
            names(app),
            selected(app)
        );
    }
}

#[test]
fn every_change_shows_in_the_next_snapshot_with_the_selection_kept() {
    let root: PathBuf = std::env::temp_dir().join(format!("agentry-tui-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let agents = root.join("project/.openhands/agents");
    std::fs::create_dir_all(&agents).expect("mkdir");
    std::fs::create_dir_all(root.join("home")).expect("mkdir");
    std::fs::create_dir_all(root.join("builtins")).expect("mkdir");
    for name in ["alpha", "beta", "gamma"] {
        agent_file(&agents, name, &format!("{name} v1"));
    }
    let opts = LoadOptions {
        roots: Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(root.join("builtins"))),
        ecosystems: vec!["openhands".into()],
        render: RenderMode::Live { user_prompt: String::new() },
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    let loader = Loader::spawn(opts, WatchMode::Notify, Box::new(|| {}));
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, 120, 40));
    until(&loader, &mut app, "the cold load", |a| names(a).len() == 3);
    let id = |app: &App, name: &str| app.catalog().and_then(|c| c.agents().find(|a| a.name == name).map(|a| a.id()));
    let beta = id(&app, "beta").expect("beta");
    app.select(&beta);
    let prompt = |app: &App| app.agent().and_then(|a| a.system_prompt.as_ref().and_then(Text::as_held).map(str::to_string)).unwrap_or_default();
    assert_eq!(prompt(&app), "beta v1");

    agent_file(&agents, "beta", "beta v2");
    until(&loader, &mut app, "the edit", |a| prompt(a) == "beta v2");
    assert_eq!(selected(&app).as_deref(), Some("beta"));

    agent_file(&agents, "aardvark", "new");
    until(&loader, &mut app, "the new file", |a| names(a).contains(&"aardvark".to_string()));
    assert_eq!(selected(&app).as_deref(), Some("beta"));

    std::fs::rename(agents.join("gamma.md"), agents.join("delta.md")).expect("rename");
    // The name is the front matter's: `gamma` now lives in delta.md.
    let gamma_file = |a: &App| {
        a.catalog()
            .and_then(|c| c.agents().find(|x| x.name == "gamma").map(|x| x.source.rel.clone()))
            .unwrap_or_default()
    };
    until(&loader, &mut app, "the rename", |a| gamma_file(a).ends_with("delta.md") && names(a).len() == 4);
    assert_eq!(selected(&app).as_deref(), Some("beta"));

    std::fs::remove_file(agents.join("alpha.md")).expect("delete");
    until(&loader, &mut app, "the deletion", |a| !names(a).contains(&"alpha".to_string()));
    assert_eq!(selected(&app).as_deref(), Some("beta"));
    assert_eq!(app.agent().map(|a| a.id()), Some(beta));

    // When the selected definition itself goes, a neighbour is selected, not nothing.
    std::fs::remove_file(agents.join("beta.md")).expect("delete");
    until(&loader, &mut app, "the selected agent's deletion", |a| !names(a).contains(&"beta".to_string()));
    assert!(selected(&app).is_some());
    drop(loader);
    let _ = std::fs::remove_dir_all(&root);
}
