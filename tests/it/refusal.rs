//! A tool that refuses to start because of one file (issue 35, item 6): every view
//! says so once, names the file and line, and keeps the healthy agents' own status;
//! the resolution report still shows what the tool shows (no agent).

use crate::support;

use std::path::Path;
use std::sync::Arc;

use agentry::model::Roots;
use serde_json::Value as Json;

/// A project whose `opencode.json` has a trailing comma on line 3 (OpenCode refuses
/// to start) beside a healthy agent file and a Markdown agent with a wrong type.
fn workspace(tag: &str) -> support::Scratch {
    let root = support::Scratch::new(&format!("refusal-{tag}"));
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write("project/.opencode/agents/good.md", "---\ndescription: Good\n---\nI am good.\n");
    write("project/opencode.json", "{\n  \"agent\": {\n    \"x\": {\"description\": \"x\",, }\n  }\n}\n");
    std::fs::create_dir_all(root.join("home")).expect("home");
    std::fs::create_dir_all(root.join("no-builtins")).expect("builtins");
    root
}

fn run(root: &Path, args: &[&str]) -> (i32, String) {
    // OpenCode's built-in agents are compiled in: hidden, the rows are the files'.
    let mut all = vec!["-e", "opencode", "--no-builtins"];
    all.extend_from_slice(args);
    let out = support::run_agentry(root, "no-builtins", &all);
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

const SAID: &str = "OpenCode refuses to start: opencode.json:3: Config file is not valid JSON(C)";

fn count(text: &str, words: &str) -> usize {
    text.matches(words).count()
}

#[test]
fn list_keeps_the_healthy_agents_status_and_says_once_which_file_stops_the_tool() {
    let root = workspace("list");
    let (code, out) = run(&root, &["list"]);
    assert_eq!(code, 0, "{out}");
    let good = out.lines().find(|l| l.starts_with("good ")).expect("good is a row");
    assert!(good.contains("WINS"), "{good}");
    assert!(!out.contains("INVALID"), "{out}");
    assert_eq!(count(&out, "refuses to start"), 1, "{out}");
    assert!(out.contains(SAID), "{out}");
    let (_, json) = run(&root, &["list", "--json"]);
    let doc: Json = serde_json::from_str(&json).expect("json");
    let refusals = doc["refusals"].as_array().expect("refusals");
    assert_eq!(refusals.len(), 1, "{json}");
    assert_eq!((refusals[0]["tool"].as_str(), refusals[0]["line"].as_u64()), (Some("opencode"), Some(3)));
    assert!(refusals[0]["path"].as_str().is_some_and(|p| p.ends_with("opencode.json")), "{json}");
    let status: Vec<_> = doc["agents"].as_array().expect("agents").iter().map(|a| a["status"].as_str()).collect();
    assert_eq!(status, [Some("WINS")], "{json}");
}

#[test]
fn check_names_the_stopping_file_once_and_counts_the_agents_as_list_does() {
    let root = workspace("check");
    let (code, out) = run(&root, &["check"]);
    assert_eq!(code, 1, "{out}");
    let finding = out.lines().find(|l| l.starts_with("opencode.json:3:")).expect("the stopping file's finding");
    assert!(finding.contains("error: parse: opencode: OpenCode refuses to start because of this file: Config file"), "{finding}");
    assert_eq!(count(&out, "refuses to start"), 1, "{out}");
    assert!(out.contains("1 agent, 1 error"), "{out}");
    let (_, json) = run(&root, &["check", "--json"]);
    let doc: Json = serde_json::from_str(&json).expect("json");
    assert_eq!(doc["refusals"].as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(doc["agents"].as_u64(), Some(1));
}

#[test]
fn why_says_it_first_and_keeps_the_rule_of_the_definition() {
    let root = workspace("why");
    let (code, out) = run(&root, &["why", "good"]);
    assert_eq!(code, 0, "{out}");
    let first = out.lines().next().unwrap_or_default();
    assert!(first.starts_with(SAID), "{out}");
    assert_eq!(count(&out, "refuses to start"), 1, "{out}");
    assert!(out.contains("[WINS]") && out.contains("the only definition of this name"), "{out}");
    let (_, json) = run(&root, &["why", "good", "--json"]);
    let doc: Json = serde_json::from_str(&json).expect("json");
    assert_eq!(doc["tools"][0]["refusal"]["line"].as_u64(), Some(3), "{json}");
}

#[test]
fn file_says_which_file_stops_the_tool_for_the_stopping_file_and_for_another() {
    let root = workspace("file");
    let config = root.join("project/opencode.json");
    let (_, out) = run(&root, &["file", config.to_str().expect("utf-8")]);
    assert!(out.contains("OpenCode refuses to start because of this file (line 3)"), "{out}");
    assert_eq!(count(&out, "refuses to start"), 1, "{out}");
    let good = root.join("project/.opencode/agents/good.md");
    let (code, out) = run(&root, &["file", good.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("WINS as `good`"), "{out}");
    assert!(out.contains(SAID), "{out}");
    assert_eq!(count(&out, "refuses to start"), 1, "{out}");
}

#[test]
fn export_shows_no_agent_and_only_the_stopping_error_as_the_tool_does() {
    let root = workspace("export");
    let (code, out) = run(&root, &["export"]);
    assert_eq!(code, 0, "{out}");
    let doc: Json = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["agents"], serde_json::json!([]), "{out}");
    let errors = doc["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{out}");
    assert_eq!((errors[0]["kind"].as_str(), errors[0]["fatal"].as_bool()), (Some("parse"), Some(true)));
}

#[test]
fn the_explorer_says_it_on_the_status_bar_and_at_the_diagnostic() {
    use agentry::tui::app::App;
    use agentry::tui::keymap::Keymap;
    use ratatui::backend::TestBackend;
    use ratatui::layout::Rect;
    use ratatui::Terminal;

    let root = workspace("explorer");
    let roots = Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(root.join("no-builtins")));
    let opts = agentry::load::LoadOptions {
        roots,
        ecosystems: vec!["opencode".into()],
        render: agentry::frameworks::RenderMode::Live { user_prompt: String::new() },
        env: Default::default(),
        options: Default::default(),
        texts: agentry::model::TextForm::Held,
    };
    let catalog = agentry::load::load(&opts, &agentry::discover::FileCache::new(), 1).view();
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, 200, 48));
    app.on_snapshot(Arc::new(catalog));
    let mut terminal = Terminal::new(TestBackend::new(200, 48)).expect("terminal");
    let theme = agentry::tui::theme::Theme::builtin("dark").expect("theme");
    terminal.draw(|f| agentry::tui::ui::draw(f, &app, &theme)).expect("draw");
    let buffer = terminal.backend().buffer();
    let rows: Vec<String> =
        (0..buffer.area.height).map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect()).collect();
    let status = rows.last().expect("status bar");
    assert!(status.contains("OpenCode refuses to start: opencode.json:3"), "{status}");
    assert!(!status.contains("invalid"), "{status}");
    let screen = rows.join("\n");
    // The Diagnostics pane (cut at its width) opens the stopping problem with it.
    assert!(screen.contains("error: parse: opencode: OpenCode refuses to start because of this"), "{screen}");
    assert!(!screen.contains("INVALID"), "{screen}");
}
