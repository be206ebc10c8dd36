//! Inert text: agent names, descriptions, field values, prompt bodies and file names
//! full of terminal controls (C0 and C1 controls, ESC/CSI/OSC — a title set, an OSC 52
//! clipboard write, a hyperlink —, bidi overrides and zero-width characters), for every
//! framework, through every text subcommand and every pane and overlay of the
//! explorer (drawn into ratatui's `TestBackend`). None of them may reach the output
//! raw; `--json` output escapes controls as JSON does and keeps the text intact.

use crate::support;

use std::path::{Path, PathBuf};

/// Everything a hostile file may try to send to a terminal.
const EVIL: &str = "x\u{1b}]0;pwned\u{7} \u{1b}]52;c;SGVsbG8=\u{7} \u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\ \
                    \u{1b}[2J\u{1b}[31mred\u{1b}[0m \u{9b}31m \u{85}\u{90} \u{202e}desrever\u{202c} zero\u{200b}width \u{1}\u{7f}\r";
/// A file-name part (no `/`, no NUL).
const EVIL_FILE: &str = "e\u{1b}]0;pwned\u{7}\u{202e}\u{200b}\u{9b}";
/// An agent name.
const EVIL_NAME: &str = "n\u{1b}[31m\u{202e}\u{200b}";

/// `s` as a YAML double-quoted scalar: every control and invisible character escaped.
fn yaml(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || !c.is_ascii() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The hostile workspace, in a folder of its own per test (they run in parallel).
fn workspace(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("agentry-inert-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (evil, name) = (yaml(EVIL), yaml(EVIL_NAME));
    // The prompt body carries the raw bytes (Markdown bodies are not YAML).
    let body = format!("Prompt {EVIL}\n");
    let files: Vec<(String, String)> = vec![
        // OpenHands: a winner and a shadowed definition of `plain`, an evil name, a broken file.
        (
            format!("project/.agents/agents/plain{EVIL_FILE}.md"),
            format!("---\nname: plain\ndescription: {evil}\ntools: [{evil}]\nmodel: {evil}\n---\n{body}"),
        ),
        ("project/.openhands/agents/plain.md".to_string(), format!("---\nname: plain\ndescription: {evil}2\n---\n{body}2")),
        ("project/.agents/agents/named.md".to_string(), format!("---\nname: {name}\ndescription: {evil}\n---\n{body}")),
        (format!("project/.agents/agents/broken{EVIL_FILE}.md"), format!("---\nname: {evil}\ntools: [{evil}\n---\n{body}")),
        // Tsugite: same shapes.
        (
            format!("project/agents/plain{EVIL_FILE}.md"),
            format!("---\nname: plain\nextends: none\ndescription: {evil}\ntools: [{evil}]\n---\n{body}"),
        ),
        ("project/.tsugite/plain.md".to_string(), format!("---\nname: plain\nextends: none\ndescription: {evil}\n---\n{body}2")),
        ("project/agents/named.md".to_string(), format!("---\nname: {name}\nextends: none\ndescription: {evil}\n---\n{body}")),
        (format!("project/agents/broken{EVIL_FILE}.md"), format!("---\nname: {evil}\nextends: [{evil}\n---\n{body}")),
        // fast-agent.
        (
            format!("project/.fast-agent/agent-cards/plain{EVIL_FILE}.md"),
            format!("---\ntype: agent\nname: plain\ndescription: {evil}\nmodel: {evil}\n---\n{body}"),
        ),
        ("project/.fast-agent/agent-cards/named.md".to_string(), format!("---\ntype: agent\nname: {name}\n---\n{body}")),
        (format!("project/.fast-agent/agent-cards/broken{EVIL_FILE}.md"), format!("---\nname: [{evil}\n---\n{body}")),
        // Kimi.
        (
            format!("project/kimi/plain{EVIL_FILE}.yaml"),
            format!("agent:\n  name: plain\n  system_prompt_path: p{EVIL_FILE}.md\n  tools: [{evil}]\n"),
        ),
        (format!("project/kimi/p{EVIL_FILE}.md"), body.clone()),
        ("project/kimi/named.yaml".to_string(), format!("agent:\n  name: {name}\n  system_prompt_path: p{EVIL_FILE}.md\n  tools: []\n")),
        (format!("project/kimi/broken{EVIL_FILE}.yaml"), format!("agent:\n  name: {evil}\n  extend: missing{EVIL_FILE}.yaml\n")),
    ];
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    for dir in ["home", "builtins"] {
        std::fs::create_dir_all(root.join(dir)).expect("mkdir");
    }
    root
}

fn agentry(root: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    // Every tool's view, each with its own hostile file.
    let args: Vec<&str> = args.iter().copied().chain(["--all-tools"]).collect();
    let out = support::run_agentry(root, "builtins", &args);
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A character that must never reach plain-text output raw.
fn is_live(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

fn text_runs() -> Vec<Vec<&'static str>> {
    vec![
        vec!["list"],
        vec!["check"],
        vec!["why", "plain"],
        vec!["show", "plain", "--origins"],
        vec!["diff", "plain"],
        vec!["diff", "plain", "--side-by-side"],
        vec!["why", EVIL_NAME],
        vec!["show", EVIL_NAME, "--origins"],
        vec!["show", "nobody\u{1b}]0;pwned\u{7}"],
    ]
}

#[test]
fn no_control_reaches_plain_text_output() {
    let root = workspace("text");
    let mut seen = String::new();
    for args in text_runs() {
        let (code, out, err) = agentry(&root, &args);
        assert!(matches!(code, Some(0 | 1)), "{args:?} exited {code:?}: {err}");
        for (stream, text) in [("stdout", &out), ("stderr", &err)] {
            let live: Vec<String> = text.chars().filter(|c| is_live(*c)).map(|c| format!("U+{:04X}", c as u32)).collect();
            assert!(live.is_empty(), "{args:?}: {stream} carries {live:?}:\n{text}");
        }
        seen.push_str(&out);
    }
    // The hostile text was there and was shown, made inert — not dropped.
    for shown in ["^[]0;pwned^G", "^[]52;c;SGVsbG8=^G", "<U+202E>", "<U+200B>", "<U+009B>"] {
        assert!(seen.contains(shown), "{shown} never shown:\n{seen}");
    }
    for eco in agentry::frameworks::all().iter().map(|f| f.id()) {
        assert!(seen.contains(eco), "{eco} missing:\n{seen}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn json_output_escapes_controls_and_keeps_the_text() {
    let root = workspace("json");
    let mut runs: Vec<Vec<&str>> = text_runs().into_iter().filter(|r| r[0] != "diff" || r.len() == 2).collect();
    runs.extend(agentry::frameworks::all().iter().map(|f| vec!["export", "--ecosystem", f.id()]));
    let mut intact = false;
    for mut args in runs {
        args.push("--json");
        let (code, out, err) = agentry(&root, &args);
        assert!(matches!(code, Some(0 | 1)), "{args:?} exited {code:?}: {err}");
        // JSON escapes every C0 control (ESC as `\u001b`); DEL and C1 controls are
        // legal raw in JSON strings and carry no terminal sequence without an ESC.
        assert!(!out.chars().any(|c| c < ' ' && c != '\n'), "{args:?}: a raw control in JSON:\n{out}");
        if out.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{out}"));
        intact |= value.to_string().contains(&serde_json::to_string(EVIL).expect("json").trim_matches('"').to_string());
    }
    assert!(intact, "no JSON output carried the hostile text intact");
    let _ = std::fs::remove_dir_all(&root);
}

/// Every pane and overlay of the explorer over the hostile workspace, for every
/// agent: the screen as the user would see it, one string per drawing.
fn explorer_screens(root: &Path) -> Vec<(String, String)> {
    use agentry::tui::action::{Action, Effect};
    use agentry::tui::app::App;
    use agentry::tui::keymap::Keymap;
    use agentry::tui::layout::Pane;
    use agentry::tui::panes::diff::DiffView;
    use ratatui::{backend::TestBackend, layout::Rect, Terminal};

    let opts = agentry::load::LoadOptions {
        roots: agentry::model::Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(root.join("builtins"))),
        ecosystems: Vec::new(),
        render: agentry::frameworks::RenderMode::Live { user_prompt: EVIL.to_string() },
        env: Default::default(),
        options: Default::default(),
        texts: agentry::model::TextForm::Held,
    };
    let catalog = std::sync::Arc::new(agentry::load::load(&opts, &agentry::discover::FileCache::new(), 1));
    let theme = agentry::tui::theme::Theme::builtin("dark").expect("theme");
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, 160, 48));
    app.on_snapshot(catalog);
    let mut screens = Vec::new();
    let mut draw = |app: &App, what: String| {
        let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).expect("terminal");
        terminal.draw(|f| agentry::tui::ui::draw(f, app, &theme)).expect("draw");
        let buffer = terminal.backend().buffer();
        let mut text = String::new();
        for y in 0..buffer.area.height {
            for x in 0..buffer.area.width {
                text.push_str(buffer[(x, y)].symbol());
            }
            text.push('\n');
        }
        screens.push((what, text));
    };

    let ids: Vec<String> = {
        let index = app.index.as_ref().expect("index");
        (0..index.agents.len()).map(|n| index.agent(n).id()).collect()
    };
    assert!(ids.len() >= 12, "the hostile agents loaded: {}", ids.len());
    for id in &ids {
        app.select(id);
        for pane in [Pane::Agents, Pane::Sources, Pane::Inherit, Pane::Prompt, Pane::Diagnostics] {
            app.focus = pane;
            draw(&app, format!("{id} / {pane:?}"));
        }
        app.focus = Pane::Agents;
        // The diff, where the agent has a shadowed definition: the files' own bytes.
        if let Some(Effect::OpenDiff { winner, other }) = app.apply(Action::Diff) {
            let index = app.index.as_ref().expect("index");
            let (w, o) = (index.agent(index.by_id(&winner).unwrap()).clone(), index.agent(index.by_id(&other).unwrap()).clone());
            let read = |a: &agentry::model::Agent| std::fs::read_to_string(&a.source.path).unwrap_or_default();
            let view = DiffView::build(&w, &o, &read(&w), &read(&o));
            app.set_diff_view(&winner, &other, view);
            draw(&app, format!("{id} / diff"));
            app.apply(Action::ToggleSideBySide);
            draw(&app, format!("{id} / diff side by side"));
            app.apply(Action::Back);
        }
    }
    app.apply(Action::ToggleTree);
    draw(&app, "tree".into());
    app.apply(Action::ToggleTree);
    app.apply(Action::Help);
    draw(&app, "help".into());
    app.apply(Action::Back);
    // The finder, with a pasted query full of controls, then kept as the filter.
    app.apply(Action::Find);
    app.on_paste(EVIL);
    draw(&app, "finder".into());
    app.apply(Action::FinderAccept);
    draw(&app, "kept filter".into());
    screens
}

#[test]
fn no_control_reaches_any_pane_of_the_explorer() {
    let root = workspace("explorer");
    let screens = explorer_screens(&root);
    let mut seen = String::new();
    for (what, text) in &screens {
        let live: Vec<String> = text.chars().filter(|c| is_live(*c)).map(|c| format!("U+{:04X}", c as u32)).collect();
        assert!(live.is_empty(), "{what}: the screen carries {live:?}:\n{text}");
        seen.push_str(text);
    }
    // Every kind of drawing happened, and the hostile text was shown inert, not dropped.
    for what in ["Prompt", "Diagnostics", "Inherit", "Sources", "diff", "diff side by side", "tree", "help", "finder"] {
        assert!(screens.iter().any(|(w, _)| w.ends_with(what)), "no {what} drawn");
    }
    for shown in ["^[]0;pwned^G", "^[]52;c;SGVsbG8=^G", "^[]8;;http://x^[\\link", "<U+202E>", "<U+200B>", "<U+009B>"] {
        assert!(seen.contains(shown), "{shown} never shown");
    }
    let _ = std::fs::remove_dir_all(&root);
}
