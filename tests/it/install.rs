//! The first five minutes: an installed binary with no source tree (the test
//! build, and the release build when it is up to date), shell completions and the
//! man page.

use crate::support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clap::CommandFactory;

fn agentry() -> &'static str {
    env!("CARGO_BIN_EXE_agentry")
}

/// The binaries to install: the one this test run built, and the release build
/// (`target/release/agentry`, what `cargo install` ships) when it exists and is
/// newer than every source it is built from. CI builds it before the tests and sets
/// `AGENTRY_REQUIRE_RELEASE`, which makes a missing or stale one a failure; a plain
/// `cargo test` builds none (that would cost minutes per run).
fn binaries() -> Vec<PathBuf> {
    let built = PathBuf::from(agentry());
    let mut out = vec![built.clone()];
    let release = built.parent().and_then(Path::parent).map(|t| t.join("release").join(built.file_name().unwrap_or_default()));
    let required = std::env::var_os("AGENTRY_REQUIRE_RELEASE").is_some();
    match release {
        Some(release) if is_newer_than_sources(&release) => out.push(release),
        Some(release) if required => panic!("{} is missing or older than the sources (AGENTRY_REQUIRE_RELEASE)", release.display()),
        Some(release) => eprintln!("{} is missing or older than the sources: not installed", release.display()),
        None => {}
    }
    out
}

fn is_newer_than_sources(binary: &Path) -> bool {
    let Ok(built) = std::fs::metadata(binary).and_then(|m| m.modified()) else { return false };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack: Vec<PathBuf> = ["src", "assets", "themes", "Cargo.toml", "Cargo.lock"].iter().map(|p| root.join(p)).collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if meta.is_dir() {
            stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
        } else if meta.modified().is_ok_and(|t| t > built) {
            return false;
        }
    }
    true
}

/// Runs `bin` with the source tree's `assets/demo` hidden under an empty folder
/// (a mount namespace of its own, where unprivileged user namespaces are allowed):
/// whatever path the binary might build at run time, the tree's demo is not there.
/// `None` when this machine does not allow it.
fn without_the_tree_demo(bin: &Path) -> Option<Command> {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    let probe = Command::new("unshare").args(["-r", "-m", "true"]).stderr(Stdio::null()).status();
    if !probe.is_ok_and(|s| s.success()) {
        return None;
    }
    let mut c = Command::new("unshare");
    c.args(["-r", "-m", "sh", "-c", "mount -t tmpfs empty \"$1\" && shift && exec \"$@\"", "sh"]).arg(demo).arg(bin);
    Some(c)
}

/// The binary copied into an empty folder, run from another empty folder with a
/// home of its own, still shows the demo: it carries the demo inside itself. The
/// source tree's demo is out of its reach: its path is nowhere in the binary, and
/// where the machine allows it, the run sees an empty folder in its place.
#[test]
fn a_copied_binary_runs_the_demo_without_the_source_tree() {
    let tree_demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    let mut hidden = false;
    for built in binaries() {
        let bytes = std::fs::read(&built).unwrap();
        let needle = tree_demo.to_string_lossy();
        assert!(
            !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()),
            "{} names the source tree's demo folder {needle}",
            built.display()
        );
        let scratch = support::Scratch::new("install");
        let bin_dir = scratch.join("bin");
        let home = scratch.join("home");
        let cwd = scratch.join("elsewhere");
        for d in [&bin_dir, &home, &cwd] {
            std::fs::create_dir_all(d).unwrap();
        }
        let bin = bin_dir.join("agentry");
        std::fs::copy(&built, &bin).unwrap();
        for _ in 0..2 {
            // The second run reuses what the first laid out.
            let mut command = match without_the_tree_demo(&bin) {
                Some(c) => {
                    hidden = true;
                    c
                }
                None => Command::new(&bin),
            };
            let out = command
                .args(["--demo", "list"])
                .current_dir(&cwd)
                .env("HOME", &home)
                .env_remove("XDG_CACHE_HOME")
                .env("NO_COLOR", "1")
                .output()
                .unwrap();
            assert!(out.status.success(), "{}: {}", built.display(), String::from_utf8_lossy(&out.stderr));
            let text = String::from_utf8_lossy(&out.stdout);
            for name in ["code-reviewer", "planner"] {
                assert!(text.contains(name), "{}: {name} missing:\n{text}", built.display());
            }
        }
        let laid_out: Vec<_> = std::fs::read_dir(home.join(".cache/agentry")).unwrap().flatten().collect();
        let names: Vec<String> = laid_out.iter().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names.len(), 1, "one demo folder, no staging left behind: {names:?}");
    }
    if !hidden {
        eprintln!("no unprivileged mount namespace here: the tree's demo was not hidden during the runs");
    }
}

#[test]
fn bash_parses_the_completion_script() {
    let out = Command::new(agentry()).args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(script.contains("agentry"));
    let Ok(mut bash) = Command::new("bash").arg("-n").stdin(Stdio::piped()).spawn() else {
        eprintln!("no bash here: syntax not checked");
        return;
    };
    bash.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    assert!(bash.wait().unwrap().success(), "bash -n rejected the script");
    for shell in ["zsh", "fish", "powershell"] {
        let out = Command::new(agentry()).args(["completions", shell]).output().unwrap();
        assert!(out.status.success() && !out.stdout.is_empty(), "{shell}");
    }
}

#[test]
fn the_man_page_names_every_subcommand_and_renders() {
    let out = Command::new(agentry()).arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.starts_with(".ie") || page.starts_with(".TH") || page.contains(".TH"), "not roff");
    for sub in agentry::cli::Cli::command().get_subcommands() {
        let heading = format!("AGENTRY {}", sub.get_name().to_uppercase());
        assert!(page.contains(&heading), "{heading} missing");
    }
    if Command::new("man").arg("--version").output().is_ok() {
        let scratch = support::Scratch::new("man");
        let file = scratch.join("agentry.1");
        std::fs::write(&file, &page).unwrap();
        let rendered = Command::new("man").arg("-l").arg(&file).env("MANPAGER", "cat").env("MANWIDTH", "80").output().unwrap();
        assert!(rendered.status.success(), "{}", String::from_utf8_lossy(&rendered.stderr));
        assert!(String::from_utf8_lossy(&rendered.stdout).contains("completions"));
    }
}
