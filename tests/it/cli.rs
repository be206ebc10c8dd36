//! The command line, run as a process over small workspaces.

use crate::support;

use std::path::Path;

fn workspace(name: &str, files: &[(&str, &str)]) -> support::Scratch {
    let root = support::Scratch::new(&format!("cli-{name}"));
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    std::fs::create_dir_all(root.join("home")).expect("home");
    root
}

fn agentry(root: &Path, args: &[&str]) -> (i32, String) {
    let out = support::run_agentry(root, "no-builtins", args);
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

const GOOD: &str = "---\nname: reviewer\ndescription: Reviews code\ntools: [read]\n---\nYou review code.\n";
const OTHER: &str = "---\nname: reviewer\ndescription: Older reviewer\n---\nOld.\n";
const BROKEN: &str = "---\nname: broken\ntools: [unclosed\n---\nbody\n";

#[test]
fn check_reports_the_broken_file_with_its_line_and_every_good_agent_still_loads() {
    let root = workspace(
        "check",
        &[
            ("project/.agents/agents/reviewer.md", GOOD),
            ("project/.agents/agents/broken.md", BROKEN),
            ("project/.openhands/agents/reviewer.md", OTHER),
            ("project/.agents/agents/writer.md", "Writes things.\n"),
        ],
    );
    // OpenHands only: tools with compiled-in roles (Codex) add agents to any workspace.
    let (code, out) = agentry(&root, &["check", "-e", "openhands"]);
    assert_eq!(code, 1, "{out}");
    let line = out.lines().find(|l| l.contains("broken.md")).expect("a diagnostic for broken.md");
    assert!(line.contains("broken.md:4:") && line.contains(": parse: "), "{line}");
    // Agents as `list` counts them: the invalid file is a row too.
    assert!(out.contains("4 agents, 1 error,"), "{out}");

    let (code, out) = agentry(&root, &["list"]);
    assert_eq!(code, 0);
    for needle in ["reviewer", "writer", "WINS", "SHADOWED", "INVALID"] {
        assert!(out.contains(needle), "{needle} missing from:\n{out}");
    }
}

#[test]
fn why_names_the_rule_and_show_gives_origins() {
    let root = workspace(
        "why",
        &[("project/.agents/agents/reviewer.md", GOOD), ("project/.openhands/agents/reviewer.md", OTHER)],
    );
    let (code, out) = agentry(&root, &["why", "reviewer"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("[WINS]") && lines[1].ends_with(" .agents/agents/reviewer.md"), "{out}");
    assert!(out.contains("[SHADOWED]") && out.contains("project .agents/agents is searched before project .openhands/agents"), "{out}");

    let (code, out) = agentry(&root, &["show", "reviewer", "--origins"]);
    assert_eq!(code, 0);
    let tools = out.lines().find(|l| l.contains("tools")).expect("tools row");
    assert!(tools.contains("project:.agents/agents/reviewer.md:4") && tools.contains("own"), "{tools}");
    assert!(out.contains("--- system prompt ---\nYou review code."), "{out}");

    let (code, _) = agentry(&root, &["why", "nobody"]);
    assert_eq!(code, 1);
}

#[test]
fn json_outputs_parse_and_escape_control_characters() {
    let root = workspace("json", &[("project/.agents/agents/evil.md", "---\ndescription: \"a\\e]0;title\\a\"\n---\nx\x1b[31m\n")]);
    let (code, out) = agentry(&root, &["list", "--json"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["schema"], "agentry/2");
    assert!(!out.contains('\x1b'), "raw ESC in JSON output");
    let (_, text) = agentry(&root, &["show", "evil"]);
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "raw control characters in text output: {text:?}");
    assert!(text.contains("^["), "{text}");
}

#[test]
fn usage_errors_exit_2() {
    let root = workspace("usage", &[]);
    let (code, _) = agentry(&root, &["export", "--json"]);
    assert_eq!(code, 2);
    let (code, _) = agentry(&root, &["list", "--ecosystem", "nope"]);
    assert_eq!(code, 2);
}
