//! The first five minutes: an installed binary with no source tree, shell
//! completions and the man page.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use clap::CommandFactory;

fn agentry() -> &'static str {
    env!("CARGO_BIN_EXE_agentry")
}

/// The binary copied into an empty folder, run from another empty folder with a
/// home of its own, still shows the demo: it carries the demo inside itself.
#[test]
fn a_copied_binary_runs_the_demo_without_the_source_tree() {
    let scratch = support::Scratch::new("install");
    let bin_dir = scratch.join("bin");
    let home = scratch.join("home");
    let cwd = scratch.join("elsewhere");
    for d in [&bin_dir, &home, &cwd] {
        std::fs::create_dir_all(d).unwrap();
    }
    let bin = bin_dir.join("agentry");
    std::fs::copy(agentry(), &bin).unwrap();
    for _ in 0..2 {
        // The second run reuses what the first laid out.
        let out = Command::new(&bin)
            .args(["--demo", "list"])
            .current_dir(&cwd)
            .env("HOME", &home)
            .env_remove("XDG_CACHE_HOME")
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        for name in ["code-reviewer", "planner"] {
            assert!(text.contains(name), "{name} missing:\n{text}");
        }
    }
    let laid_out: Vec<_> = std::fs::read_dir(home.join(".cache/agentry")).unwrap().flatten().collect();
    let names: Vec<String> = laid_out.iter().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 1, "one demo folder, no staging left behind: {names:?}");
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
