//! End to end: the real binary in a pseudo-terminal on a workspace this test writes
//! (OpenHands agents: one name defined at project and user level, and a file whose
//! prompt carries ESC/OSC sequences). It types `/`, a query, Enter, `d` and `q`,
//! reads the screen through a terminal emulator, and checks that the terminal was
//! restored (alternate screen left, cursor shown, mouse capture and bracketed paste
//! off, raw mode off as the pty's own modes show) — after `q`, after SIGTERM and after
//! a panic — and that no escape sequence from a file reached the terminal.
//!
//! Waits are generous and poll the screen: on a loaded machine the first load may
//! take seconds; nothing is asserted on elapsed time.

use crate::support;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use support::pty::{Session, WAIT};

fn write(path: &Path, text: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write fixture");
}

fn workspace(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("agentry-e2e-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write(
        &root.join("project/.openhands/agents/reviewer.md"),
        b"---\nname: reviewer\n---\nReview the change carefully.\n",
    );
    write(&root.join("home/.openhands/agents/reviewer.md"), b"---\nname: reviewer\n---\nReview the change quickly.\n");
    write(
        &root.join("project/.openhands/agents/evil.md"),
        b"---\nname: evil\n---\nset title \x1b]0;pwned\x07 clear \x1b[2J copy \x1b]52;c;SGVsbG8=\x07 done\n",
    );
    std::fs::create_dir_all(root.join("builtins")).expect("builtins");
    root
}

fn start(root: &Path) -> Session {
    start_with(root, &[])
}

fn start_with(root: &Path, env: &[(&str, String)]) -> Session {
    let mut args: Vec<OsString> = Vec::new();
    for (flag, dir) in [("--project", "project"), ("--home", "home"), ("--builtins", "builtins")] {
        args.push(flag.into());
        args.push(root.join(dir).into());
    }
    args.extend(["--ecosystem", "openhands", "--no-watch", "--theme", "dark"].map(OsString::from));
    Session::start(&args, root, env)
}

#[test]
fn find_filter_diff_quit_and_the_terminal_is_restored() {
    let root = workspace("keys");
    let mut s = start(&root);
    s.wait_for("the loaded agents", |t| t.contains("reviewer") && t.contains("SHADOWED") && t.contains("evil"));

    s.keys(b"/");
    s.wait_for("the finder", |t| t.contains("enter keep"));
    s.keys(b"revi");
    let screen = s.wait_for("the list to narrow", |t| t.contains("/revi") && !t.contains("WINS       evil"));
    assert!(screen.contains("reviewer"), "{screen}");

    s.keys(b"\r");
    s.wait_for("the kept filter", |t| t.contains("filter /revi"));

    s.keys(b"d");
    let screen = s.wait_for("the diff", |t| t.contains("Diff:") && t.contains("quickly"));
    assert!(screen.contains("carefully"), "{screen}");

    s.keys(b"q");
    let status = s.wait_exit();
    assert!(status.success(), "{status:?}");
    assert_fully_restored(&s, &s.output.lock().expect("output"));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn escape_sequences_in_a_file_reach_the_screen_inert() {
    let root = workspace("escapes");
    let mut s = start(&root);
    s.wait_for("the loaded agents", |t| t.contains("evil"));
    s.keys(b"/evil\r");
    let screen = s.wait_for("the prompt of evil", |t| t.contains("set title"));
    assert!(screen.contains("set title ^[]0;pwned^G clear ^[[2J copy ^[]52;c;SGVsbG8=^G done"), "{screen}");
    s.keys(b"q");
    s.wait_exit();
    let output = s.output.lock().expect("output").clone();
    let text = String::from_utf8_lossy(&output);
    for raw in ["\x1b]0;pwned", "\x1b[2J copy", "\x1b]52;c;SGVsbG8="] {
        assert!(!text.contains(raw), "{raw:?} reached the terminal");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The output after the last time the explorer took the terminal: it must leave the
/// alternate screen and show the cursor again.
fn assert_restored(output: &[u8]) {
    let text = String::from_utf8_lossy(output);
    let entered = text.rfind("\x1b[?1049h").expect("alternate screen entered");
    let left = text.rfind("\x1b[?1049l").expect("alternate screen left");
    let shown = text.rfind("\x1b[?25h").expect("cursor shown");
    assert!(left > entered && shown > entered, "the terminal is restored after the last enter");
}

/// The complete restore, in `output` (all the session wrote, or what it wrote before
/// some point): [`assert_restored`], plus mouse capture and bracketed paste turned off
/// after the last enter, and the pty back in cooked mode (canonical input and echo on:
/// what `disable_raw_mode` puts back; the explorer had turned both off).
fn assert_fully_restored(s: &Session, output: &[u8]) {
    assert_restored(output);
    let text = String::from_utf8_lossy(output);
    let entered = text.rfind("\x1b[?1049h").expect("alternate screen entered");
    let after = &text[entered..];
    assert!(after.contains("\x1b[?1000l") || after.contains("\x1b[?1003l"), "mouse capture disabled");
    assert!(after.contains("\x1b[?2004l"), "bracketed paste disabled");
    assert_eq!(s.raw_mode(), Some(false), "raw mode left on");
}

/// Raw mode as the explorer sets it, once it has drawn: the test's restore checks
/// can only fail if this held first.
fn assert_raw_mode_on(s: &Session) {
    let start = Instant::now();
    while s.raw_mode() != Some(true) {
        assert!(start.elapsed() < WAIT, "the explorer did not enter raw mode: {:?}", s.raw_mode());
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sigterm_restores_the_terminal() {
    let root = workspace("sigterm");
    let mut s = start(&root);
    s.wait_for("the loaded agents", |t| t.contains("reviewer"));
    assert_raw_mode_on(&s);
    let pid = s.child.process_id().expect("pid");
    let killed = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status().expect("kill");
    assert!(killed.success());
    s.wait_exit();
    assert_fully_restored(&s, &s.output.lock().expect("output"));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_panic_restores_the_terminal_before_the_message_is_printed() {
    let root = workspace("panic");
    let mut s = start_with(&root, &[(agentry::tui::TEST_PANIC_VAR, agentry::tui::TEST_PANIC_VALUE.to_string())]);
    s.wait_for("the loaded agents", |t| t.contains("reviewer"));
    assert_raw_mode_on(&s);
    // Any key: the hook panics on the UI thread, where the explorer's own code runs.
    s.keys(b"j");
    let status = s.wait_exit();
    assert!(!status.success(), "a panic exits with a failure: {status:?}");
    let output = s.output.lock().expect("output").clone();
    let wanted: &[u8] = b"a deliberate panic to test that the terminal is restored";
    let message = output.windows(wanted.len()).position(|w| w == wanted).expect("the panic message");
    // Everything is restored before the message is printed (ratatui shows the cursor
    // once more when the unwinding drops it; that comes later and is harmless).
    assert_fully_restored(&s, &output[..message]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn editor_runs_with_the_terminal_suspended_and_the_explorer_comes_back() {
    let root = workspace("editor");
    let log = root.join("editor.log");
    let editor = root.join("editor.sh");
    write(&editor, format!("#!/bin/sh\necho \"$@\" > '{}'\n", log.display()).as_bytes());
    let chmod =
        std::process::Command::new("chmod").args(["+x", &editor.display().to_string()]).status().expect("chmod");
    assert!(chmod.success());
    let mut s = start_with(&root, &[("EDITOR", editor.display().to_string())]);
    s.wait_for("the loaded agents", |t| t.contains("reviewer"));
    s.keys(b"/reviewer\r");
    s.wait_for("the kept filter", |t| t.contains("filter /reviewer"));
    let before = s.output.lock().expect("output").len();
    s.keys(b"e");
    let start = Instant::now();
    while !log.exists() {
        assert!(start.elapsed() < WAIT, "the editor was not started");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The explorer takes the terminal back and draws again.
    s.wait_for("the explorer after the editor", |t| t.contains("filter /reviewer"));
    let start = Instant::now();
    while !String::from_utf8_lossy(&s.output.lock().expect("output")[before..]).contains("\x1b[?1049h") {
        assert!(start.elapsed() < WAIT, "the alternate screen was not entered again");
        std::thread::sleep(Duration::from_millis(50));
    }
    let args = std::fs::read_to_string(&log).expect("editor log");
    assert!(args.trim_end().ends_with(".openhands/agents/reviewer.md"), "{args}");
    let after = String::from_utf8_lossy(&s.output.lock().expect("output")[before..]).into_owned();
    assert!(after.contains("\x1b[?1049l"), "the alternate screen was left for the editor");
    s.keys(b"q");
    assert!(s.wait_exit().success());
    assert_restored(&s.output.lock().expect("output"));
    let _ = std::fs::remove_dir_all(&root);
}
