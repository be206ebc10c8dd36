//! A prompt the explorer's loader left on disk: the prompt pane says it is on its way
//! until the reader answers, then shows it; a file changed since the snapshot shows
//! as a sentence in the pane.

use crate::support;

use std::collections::BTreeMap;
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Roots, TextForm};
use agentry::tui::app::App;
use agentry::tui::keymap::Keymap;
use agentry::tui::layout::Pane;
use agentry::tui::reader::{key_of, Answer, Reader, TextRead};
use agentry::tui::theme::Theme;
use agentry::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

const PROMPT: &str = "You review pull requests for correctness first, then for clarity and tests.";

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).expect("terminal");
    terminal.draw(|f| ui::draw(f, app, &Theme::builtin("dark").expect("theme"))).expect("draw");
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

/// What the reader answers for the selected agent.
fn read_selected(app: &App) -> TextRead {
    let (tx, rx) = channel();
    let mut reader = Reader::spawn(move |answer| {
        let _ = tx.send(answer);
    });
    let agent = app.agent().expect("selected");
    let key = app.texts.wanted(agent).expect("a text on disk, not read yet");
    assert_eq!(key, key_of(agent));
    reader.read(vec![(key, agent.clone())]);
    match rx.recv_timeout(Duration::from_secs(60)).expect("an answer") {
        Answer::Text(read) => read,
        Answer::Diff { .. } => panic!("a diff was not asked for"),
    }
}

#[test]
fn the_prompt_pane_waits_for_the_reader_then_shows_the_text_or_why_not() {
    let root = support::Scratch::new("tui-texts");
    let agents = root.join("project/.openhands/agents");
    std::fs::create_dir_all(&agents).expect("mkdir");
    std::fs::create_dir_all(root.join("home")).expect("mkdir");
    let file = agents.join("reviewer.md");
    std::fs::write(&file, format!("---\nname: reviewer\n---\n\n{PROMPT}\n")).expect("write");
    let opts = LoadOptions {
        roots: Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(support::empty_dir())),
        ecosystems: vec!["openhands".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: TextForm::OnDisk,
    };
    let catalog = Arc::new(load(&opts, &FileCache::new(), 1));
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, 120, 30));
    app.on_snapshot(catalog.clone());
    app.select(&catalog.agents().next().expect("reviewer").id());
    app.focus = Pane::Prompt;

    let before = screen(&app);
    assert!(before.contains("reading the prompt from its file…"), "{before}");
    assert!(!before.contains("You review pull requests"), "{before}");

    let read = read_selected(&app);
    app.texts.answer(read);
    let after = screen(&app);
    assert!(after.contains("1 You review pull requests for correctness"), "{after}");
    assert!(!after.contains("reading the prompt"), "{after}");
    assert!(app.texts.wanted(app.agent().expect("selected")).is_none(), "an answer is kept");

    // The file changed and no refresh came (the watcher is off here): the text read
    // again is not what was loaded, and the pane says so.
    std::fs::write(&file, format!("---\nname: reviewer\n---\n\n{}\n", PROMPT.replace("first", "above all"))).expect("write");
    app.on_snapshot(catalog.clone());
    app.texts = Default::default();
    app.texts.answer(read_selected(&app));
    let changed = screen(&app);
    assert!(changed.contains("changed since this snapshot"), "{changed}");
    assert!(!changed.contains("You review pull requests"), "{changed}");
}
