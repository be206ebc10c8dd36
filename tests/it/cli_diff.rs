//! `agentry diff` as a user runs it: the real binary, output to a pipe, on the demo
//! workspace. Piped output is a plain unified diff (no colour even with a colour
//! terminal in the environment); `--json` parses; unknown names are findings.

use std::process::{Command, Output};

fn agentry(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentry"))
        .args(args)
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .output()
        .expect("the agentry binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn piped_output_is_a_plain_unified_diff() {
    // OpenHands: the project's .agents/agents/code-reviewer.md shadows the copy in
    // the user's ~/.agents/agents (and one in the project's .openhands/agents).
    let o = agentry(&["--demo", "diff", "code-reviewer", "--against", "user:.agents/agents/code-reviewer.md"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(!text.contains('\x1b'), "no escape sequences in piped output");
    let lines: Vec<&str> = text.lines().collect();
    // Paths as every view prints them: the project's relative, home's `~/…`.
    assert!(lines[0].starts_with("# code-reviewer (openhands): .agents/agents/code-reviewer.md WINS"), "{text}");
    assert!(lines.contains(&"--- ~/.agents/agents/code-reviewer.md (fields)"));
    assert!(lines.contains(&"+++ .agents/agents/code-reviewer.md (fields)"));
    assert!(lines.contains(&"--- ~/.agents/agents/code-reviewer.md"), "{text}");
    assert!(lines.contains(&"+++ .agents/agents/code-reviewer.md"), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("@@ -") && l.ends_with(" @@")));
    // The descriptions differ; the project adds a line to the prompt.
    assert!(lines.contains(&"-description: \"My personal reviewer, used in every project.\""));
    assert!(lines.contains(&"+- Flag SQL built by string concatenation."));
    // Every body line of a hunk is context, removed or added.
    let mut in_hunk = false;
    for l in &lines {
        if l.starts_with("@@") {
            in_hunk = true;
        } else if l.starts_with("--- ") || l.starts_with('#') {
            in_hunk = false;
        } else if in_hunk {
            assert!(l.starts_with([' ', '-', '+', '\\']), "not a diff line: {l:?}");
        }
    }
}

#[test]
fn json_output_parses_and_names_both_sides() {
    let o = agentry(&["--demo", "diff", "code-reviewer", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["schema"], "agentry/2");
    assert_eq!(v["winner"]["source"], "project:.agents/agents/code-reviewer.md");
    // The first shadowed definition in precedence order.
    assert_eq!(v["other"]["source"], "project:.openhands/agents/code-reviewer.md");
    assert!(v["fields"].as_array().is_some_and(|f| !f.is_empty()));
}

#[test]
fn an_unknown_name_is_a_finding() {
    let o = agentry(&["--demo", "diff", "nobody-by-this-name"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("no agent or skill named `nobody-by-this-name`"));
}
