//! Read-only and offline by construction: every subcommand, with and without
//! `--json`, and an explorer session in a pseudo-terminal (finder, navigation, every
//! pane, diff, help, quit), over a copy of the demo workspace leave every file as it
//! was (bytes and modification time; none added or removed), and the source tree
//! holds no network code and spawns no process (the explorer's `$EDITOR` launch,
//! under `src/tui/`, is the one exception).

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        let kind = entry.file_type().expect("type");
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).expect("link"), &target).expect("symlink");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Every entry under `dir` (folders and links too) with its bytes and modification
/// time, symlinks not followed.
fn snapshot(dir: &Path, out: &mut Snapshot) {
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let entry = entry.expect("entry");
        let path = entry.path();
        let meta = std::fs::symlink_metadata(&path).expect("metadata");
        let modified = meta.modified().expect("mtime");
        if meta.is_dir() {
            out.insert(path.clone(), (None, modified));
            snapshot(&path, out);
        } else if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).expect("link");
            out.insert(path, (Some(target.into_os_string().into_encoded_bytes()), modified));
        } else {
            out.insert(path.clone(), (Some(std::fs::read(&path).expect("read")), modified));
        }
    }
}

type Snapshot = BTreeMap<PathBuf, (Option<Vec<u8>>, SystemTime)>;

/// A fresh copy of the demo under a name of its own, and its snapshot.
fn demo_copy(tag: &str) -> (PathBuf, Snapshot) {
    let root = std::env::temp_dir().join(format!("agentry-read-only-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    copy_tree(&manifest().join("assets/demo"), &root);
    let mut before = BTreeMap::new();
    snapshot(&root, &mut before);
    assert!(before.len() > 30, "the demo was copied ({} entries)", before.len());
    (root, before)
}

/// Nothing added, removed or changed (bytes, modification time) since `before`.
fn assert_unchanged(root: &Path, before: &Snapshot, what: &str) {
    let mut after = BTreeMap::new();
    snapshot(root, &mut after);
    let added: Vec<_> = after.keys().filter(|p| !before.contains_key(*p)).collect();
    let removed: Vec<_> = before.keys().filter(|p| !after.contains_key(*p)).collect();
    assert!(added.is_empty() && removed.is_empty(), "{what}: added {added:?}, removed {removed:?}");
    for (path, was) in before {
        assert!(after.get(path) == Some(was), "{what}: {} changed", path.display());
    }
}

#[test]
fn an_explorer_session_changes_no_file_of_the_workspace() {
    let (root, before) = demo_copy("explorer");
    let project = root.join("project");
    let args: Vec<std::ffi::OsString> =
        vec!["--project".into(), project.clone().into(), "--home".into(), root.join("home").into()];
    let env = [("HOME", root.join("home").display().to_string()), ("VIRTUAL_ENV", root.join("venv").display().to_string())];
    let mut s = support::pty::Session::start(&args, &project, &env);
    s.wait_for("the loaded agents", |t| t.contains("planner") && t.contains("code-reviewer"));
    // Navigate the list and the tree, and walk every pane of a few agents.
    for key in [&b"j"[..], b"j", b"k", b"\t", b"\t", b"\t", b"\t", b"\t", b"G", b"g", b"t", b"j", b"t"] {
        s.keys(key);
    }
    // The finder, a kept filter, the diff of a shadowed agent, help, and out again.
    // Each Esc is waited out, so that the next key is not read as Alt+key.
    s.keys(b"/planner");
    s.wait_for("the finder", |t| t.contains("/planner"));
    s.keys(b"\r");
    s.wait_for("the kept filter", |t| t.contains("filter /planner"));
    s.keys(b"d");
    s.wait_for("the diff", |t| t.contains("Diff:"));
    s.keys(b"\x1b");
    s.wait_for("the diff closed", |t| !t.contains("Diff:"));
    s.keys(b"?");
    s.wait_for("the help", |t| t.contains("this help"));
    s.keys(b"\x1b");
    s.wait_for("the help closed", |t| !t.contains("this help"));
    s.keys(b"q");
    assert!(s.wait_exit().success(), "the explorer quits cleanly");
    assert_unchanged(&root, &before, "explorer session");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn no_subcommand_changes_a_file_of_the_workspace() {
    let (root, before) = demo_copy("cli");

    let mut runs: Vec<Vec<String>> = Vec::new();
    let plain = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for eco in agentry::frameworks::all().iter().map(|f| f.id()) {
        runs.push(plain(&["export", "--ecosystem", eco]));
    }
    runs.push(plain(&["list"]));
    runs.push(plain(&["check"]));
    for name in ["code-reviewer", "planner", "coder", "researcher"] {
        runs.push(plain(&["why", name]));
        runs.push(plain(&["show", name, "--origins"]));
        runs.push(plain(&["diff", name]));
    }
    runs.push(plain(&["diff", "planner", "--side-by-side", "--color", "always"]));
    let with_json: Vec<Vec<String>> = runs
        .iter()
        .filter(|r| !r.contains(&"--color".to_string()))
        .map(|r| r.iter().cloned().chain(["--json".to_string()]).collect())
        .collect();
    runs.extend(with_json);

    for args in &runs {
        let out = Command::new(env!("CARGO_BIN_EXE_agentry"))
            .args(args)
            .arg("--project")
            .arg(root.join("project"))
            .arg("--home")
            .arg(root.join("home"))
            .env_clear()
            .env("HOME", root.join("home"))
            .env("VIRTUAL_ENV", root.join("venv"))
            .env("NO_COLOR", "1")
            .current_dir(root.join("project"))
            .output()
            .expect("run agentry");
        // `check` and `diff` exit 1 on findings; 2 and above are failures of agentry.
        let code = out.status.code();
        assert!(matches!(code, Some(0 | 1)), "{args:?} exited {code:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    }

    assert_unchanged(&root, &before, &format!("{} runs", runs.len()));
    let _ = std::fs::remove_dir_all(&root);
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.clone(), std::fs::read_to_string(&path).expect("utf-8 source")));
        }
    }
}

#[test]
fn the_source_opens_no_socket_and_spawns_no_process_outside_the_editor_launch() {
    let src = manifest().join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "the source tree was found");
    let network = ["std::net", "TcpStream", "TcpListener", "UdpSocket", "UnixStream", "reqwest", "hyper::"];
    let spawning = ["std::process::Command", "process::Command", "Command::new", ".spawn()", "libc::exec", "fork("];
    let mut found = Vec::new();
    for (path, text) in &files {
        let rel = path.strip_prefix(&src).unwrap_or(path);
        // The explorer may start `$EDITOR` on the user's request; nothing else may.
        let editor_launch_allowed = rel.starts_with("tui");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for needle in network {
                if code.contains(needle) {
                    found.push(format!("{}:{}: {needle}", rel.display(), n + 1));
                }
            }
            for needle in spawning {
                if code.contains(needle) && !editor_launch_allowed {
                    found.push(format!("{}:{}: {needle}", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "network or process code in src/:\n{}", found.join("\n"));
    // And no dependency brings a network client in behind the source's back.
    let manifest_text = std::fs::read_to_string(manifest().join("Cargo.toml")).expect("Cargo.toml");
    for client in ["reqwest", "ureq", "hyper", "curl", "tokio"] {
        assert!(!manifest_text.contains(&format!("\n{client} ")), "Cargo.toml depends on {client}");
    }
}
