//! The release each reader follows and the one installed: README's table is made from
//! the readers, and an installed Claude Code of another release (in a fake global npm
//! prefix named by `NPM_CONFIG_PREFIX`, as npm reads it) is a note in `check --notes`,
//! a line in `why`, a row in `tools` and a mark on the explorer's status bar; the
//! release followed is none of them.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use support::Scratch;

const NOTE: &str = "Claude Code 2.1.340 installed; agentry follows 2.1.337: rules may differ";

/// README's table of followed releases is the readers' own, so it cannot go stale.
#[test]
fn readme_release_table_is_made_from_the_readers() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md");
    let table = agentry::cli::releases_markdown(&agentry::frameworks::all());
    let start = readme.find("<!-- releases:start -->\n").map(|i| i + "<!-- releases:start -->\n".len());
    let end = readme.find("<!-- releases:end -->");
    let (Some(start), Some(end)) = (start, end) else { panic!("README.md lacks the releases:start/releases:end markers") };
    assert_eq!(&readme[start..end], table, "README's table of releases is stale; it should be:\n{table}");
    assert!(table.contains("| Claude Code | `claude-code` | 2.1.337 | `@anthropic-ai/claude-code` |"), "{table}");
    assert!(table.contains("| Codex | `codex` | 0.171.0 | `@openai/codex` |"), "{table}");
}

/// A workspace with one Claude Code agent, and a global npm prefix holding
/// `@anthropic-ai/claude-code` at `version`.
fn workspace(tag: &str, version: &str) -> Scratch {
    let root = Scratch::new(&format!("releases-{tag}"));
    let agents = root.join("project/.claude/agents");
    std::fs::create_dir_all(&agents).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    std::fs::write(agents.join("reviewer.md"), "---\nname: reviewer\ndescription: Reviews code.\n---\nYou review code.\n").unwrap();
    let package = root.join("npm-prefix/lib/node_modules/@anthropic-ai/claude-code");
    std::fs::create_dir_all(&package).unwrap();
    let manifest = format!("{{\"name\": \"@anthropic-ai/claude-code\", \"version\": \"{version}\"}}");
    std::fs::write(package.join("package.json"), manifest).unwrap();
    root
}

/// Runs agentry on the workspace with nothing of this machine's environment but the
/// npm prefix (no `PATH`, so no real install is found).
fn run(root: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_agentry"))
        .args(args)
        .args(["--ecosystem", "claude-code", "--project"])
        .arg(root.join("project"))
        .arg("--home")
        .arg(root.join("home"))
        .arg("--builtins")
        .arg(support::empty_dir())
        .env_clear()
        .env("NPM_CONFIG_PREFIX", root.join("npm-prefix"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run agentry")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn another_installed_release_is_noted_once_in_check_why_and_tools() {
    let root = workspace("differs", "2.1.340");
    let check = run(&root, &["check", "--notes"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    let text = stdout(&check);
    assert_eq!(text.matches(NOTE).count(), 1, "{text}");
    assert!(text.contains("npm-prefix/lib/node_modules/@anthropic-ai/claude-code/package.json"), "{text}");
    assert!(text.contains(": note: release: claude-code: "), "{text}");
    // A note, not a problem: without --notes nothing is printed and the run passes.
    let quiet = run(&root, &["check"]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(!stdout(&quiet).contains(NOTE), "{}", stdout(&quiet));
    let strict = run(&root, &["check", "--fail-on", "warning"]);
    assert_eq!(strict.status.code(), Some(0), "{}", stdout(&strict));

    let why = run(&root, &["why", "reviewer"]);
    assert_eq!(why.status.code(), Some(0));
    assert_eq!(stdout(&why).matches(NOTE).count(), 1, "{}", stdout(&why));
    // Where the name is nowhere, the tool's release is still worth knowing.
    let missing = run(&root, &["why", "ghost"]);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(stdout(&missing).matches(NOTE).count(), 1, "{}", stdout(&missing));
    let why_json: serde_json::Value = serde_json::from_slice(&run(&root, &["why", "reviewer", "--json"]).stdout).unwrap();
    assert_eq!(why_json["tools"][0]["release"], NOTE);

    let tools = stdout(&run(&root, &["tools"]));
    let row = tools.lines().find(|l| l.starts_with("Claude Code")).unwrap_or_else(|| panic!("{tools}"));
    assert!(row.contains("2.1.337") && row.contains("2.1.340 (differs)") && row.contains("npm global: "), "{row}");
    let json: serde_json::Value = serde_json::from_slice(&run(&root, &["tools", "--json"]).stdout).unwrap();
    assert_eq!(json["schema"], "agentry/2");
    assert_eq!((&json["tools"][0]["tool"], &json["tools"][0]["title"]), (&serde_json::json!("claude-code"), &serde_json::json!("Claude Code")));
    assert_eq!(json["tools"][0]["follows"], "2.1.337");
    assert_eq!(json["tools"][0]["installed"][0]["version"], "2.1.340");
}

#[test]
fn the_release_followed_is_no_news() {
    let root = workspace("same", "2.1.337");
    for args in [&["check", "--notes"][..], &["why", "reviewer"], &["why", "ghost"], &["why", "reviewer", "--json"]] {
        let out = stdout(&run(&root, args));
        assert!(!out.contains("installed; agentry follows"), "{args:?}: {out}");
        assert!(!out.contains("\"release\""), "{args:?}: {out}");
    }
    let tools = stdout(&run(&root, &["tools"]));
    let row = tools.lines().find(|l| l.starts_with("Claude Code")).unwrap_or_else(|| panic!("{tools}"));
    assert!(row.contains("2.1.337") && !row.contains("differs"), "{row}");
}

/// The load the explorer runs in the background brings the note; the status bar
/// shows it from the catalog it is given.
#[cfg(feature = "tui")]
#[test]
fn the_status_bar_marks_another_installed_release() {
    use agentry::frameworks::RenderMode;
    use agentry::load::{load, LoadOptions};
    use agentry::tui::{app::App, keymap::Keymap};
    use ratatui::{backend::TestBackend, layout::Rect, Terminal};

    let status_line = |version: &str| {
        let root = workspace(&format!("tui-{version}"), version);
        let roots = agentry::model::Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(support::empty_dir()));
        let opts = LoadOptions {
            roots,
            ecosystems: vec!["claude-code".into()],
            render: RenderMode::Live { user_prompt: String::new() },
            env: BTreeMap::from([("NPM_CONFIG_PREFIX".to_string(), root.join("npm-prefix").display().to_string())]),
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::OnDisk,
        };
        let catalog = load(&opts, &agentry::discover::FileCache::new(), 1);
        let mut app = App::new(Keymap::default(), Rect::new(0, 0, 160, 24));
        app.on_snapshot(std::sync::Arc::new(catalog));
        let theme = agentry::tui::theme::Theme::builtin("dark").expect("theme");
        let mut terminal = Terminal::new(TestBackend::new(160, 24)).expect("terminal");
        terminal.draw(|f| agentry::tui::ui::draw(f, &app, &theme)).expect("draw");
        let buffer = terminal.backend().buffer();
        let y = buffer.area.height - 1;
        (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>()
    };
    let differs = status_line("2.1.340");
    assert!(differs.contains(NOTE), "{differs}");
    let same = status_line("2.1.337");
    assert!(same.contains("agents") && !same.contains("installed"), "{same}");
}

/// A FIFO where a manifest should be is never opened (it would block a read).
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_manifest_is_no_install_and_no_hang() {
    let root = Scratch::new("releases-fifo");
    let package = root.join("npm-prefix/lib/node_modules/@anthropic-ai/claude-code");
    std::fs::create_dir_all(&package).unwrap();
    let made = std::process::Command::new("mkfifo").arg(package.join("package.json")).status().is_ok_and(|s| s.success());
    if !made {
        return;
    }
    let env = BTreeMap::from([("NPM_CONFIG_PREFIX".to_string(), root.join("npm-prefix").display().to_string())]);
    let release = agentry::frameworks::by_id("claude-code").and_then(|f| f.release()).expect("a release");
    let cache = agentry::discover::FileCache::new();
    let machine = agentry::installed::Machine { home: &root.join("home"), env: &env };
    assert!(agentry::installed::find(cache.untracked(), &machine, &release).is_empty());
}
