//! The first `agentry check` in an ordinary repository, with every framework agentry
//! reads (`--all-tools`): no diagnostic, exit 0 (issue 22). Each file below is one a real repository
//! holds and no tool loads as an agent definition, or a good definition.

use crate::support;

const FILES: &[(&str, &str)] = &[
    ("README.md", "# Project\n\nSome text.\n"),
    ("AGENTS.md", "# Agents\n\nRun `cargo test` before committing.\n"),
    ("CLAUDE.md", "# Claude\n\nSee AGENTS.md.\n"),
    ("GEMINI.md", "# Gemini\n"),
    ("CHANGELOG.md", "# Changelog\n\n## 1.0\n- first\n"),
    ("CONTRIBUTING.md", "Pull requests welcome.\n"),
    ("SECURITY.md", "# Security\n"),
    // Front matter Tsugite accepts and a body that is no Jinja: still a file Tsugite
    // reads only when asked for `notes` by name.
    ("notes.md", "---\nname: notes\n---\nUse {{ .Site.Title }} in the templates.\n"),
    ("LICENSE", "MIT\n"),
    ("src/main.rs", "fn main() {}\n"),
    ("docs/guide.md", "---\ntitle: Guide\nname: guide\ndescription: How to use it\n---\n# Guide\n"),
    ("docs/install.md", "---\nlayout: page\ntitle: Install\n---\nInstall it.\n"),
    ("docs/api/index.md", "---\nsidebar_position: 2\ntitle: API\ntags: [api, ref]\ndate: 2024-01-01\n---\n# API\n"),
    (
        ".github/ISSUE_TEMPLATE/bug_report.md",
        "---\nname: Bug report\nabout: Create a report\ntitle: \"[BUG]\"\nlabels: bug\nassignees: \"\"\n---\n\n**Describe the bug**\n",
    ),
    (".github/ISSUE_TEMPLATE/feature_request.md", "---\nname: Feature request\nabout: Suggest an idea\n---\nIdea\n"),
    (
        ".github/ISSUE_TEMPLATE/bug.yml",
        "name: Bug form\ndescription: File a bug\nbody:\n  - type: textarea\n    id: what\n    attributes:\n      label: What happened?\n",
    ),
    (".github/ISSUE_TEMPLATE/config.yml", "blank_issues_enabled: false\n"),
    (".github/pull_request_template.md", "## Summary\n"),
    (".github/workflows/ci.yml", "name: CI\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n"),
    (".github/copilot-instructions.md", "Use Rust.\n"),
    (".github/instructions/rust.instructions.md", "---\napplyTo: \"**/*.rs\"\n---\nRust rules\n"),
    (".github/prompts/review.prompt.md", "---\nmode: agent\ndescription: Review\n---\nReview\n"),
    (".claude/settings.json", "{\n  \"permissions\": {\"allow\": [\"Bash(cargo test:*)\"]}\n}\n"),
    (".claude/commands/test.md", "---\ndescription: Run tests\nallowed-tools: Bash(cargo test:*)\n---\nRun the tests.\n"),
    (".gemini/settings.json", "{\"contextFileName\": \"AGENTS.md\"}\n"),
    (".gemini/commands/test.toml", "description = \"Test\"\nprompt = \"Run tests\"\n"),
    (".opencode/command/test.md", "---\ndescription: Test\n---\nRun tests\n"),
    ("opencode.json", "{\"$schema\": \"https://opencode.ai/config.json\"}\n"),
    (".vscode/settings.json", "{\"editor.formatOnSave\": true}\n"),
    // A Kimi agent with its prompt file next to it.
    (
        "agents/coder/agent.yaml",
        "version: 1\nagent:\n  name: coder\n  system_prompt_path: ./system.md\n  tools:\n    - \"kimi_cli.tools.shell:Shell\"\n",
    ),
    // A Kimi base with no `name` of its own, and the agent that extends it.
    ("agents/team/base.yaml", "version: 1\nagent:\n  system_prompt_path: ./system.md\n  tools: [\"kimi_cli.tools.shell:Shell\"]\n"),
    ("agents/team/system.md", "You are ${ROLE}.\n"),
    (
        "agents/team/reviewer.yaml",
        "version: 1\nagent:\n  extend: ./base.yaml\n  name: reviewer\n  system_prompt_args:\n    ROLE: a reviewer\n",
    ),
    // Plain Markdown in a folder Tsugite searches: no definition.
    ("agents/README.md", "# Agents\n\nThe agents of this project.\n"),
    ("agents/coder/system.md", "You are a coder. Today is ${KIMI_NOW}.\n"),
];

fn repository() -> support::Scratch {
    let root = support::Scratch::new("first-check");
    for (path, text) in FILES {
        let p = root.join("project").join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    std::fs::create_dir_all(root.join("project/.git")).expect(".git");
    std::fs::create_dir_all(root.join("home")).expect("home");
    root
}

/// `check` as a new user runs it: no `--builtins` (what is installed is looked for).
fn check(root: &std::path::Path, extra: &[&str]) -> (i32, Vec<String>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agentry"))
        .arg("check")
        .args(extra)
        .arg("--project")
        .arg(root.join("project"))
        .arg("--home")
        .arg(root.join("home"))
        .env("HOME", root.join("home"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run agentry");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text.lines().map(str::to_string).collect())
}

fn is_summary(line: &str) -> bool {
    line.contains(" agents, ") || line.contains(" not shown (--notes shows ")
}

#[test]
fn the_first_check_in_an_ordinary_repository_prints_no_diagnostic_and_exits_0() {
    let root = repository();
    // Every tool agentry reads, not only those the repository's folders show.
    let (code, lines) = check(&root, &["--all-tools"]);
    let diagnostics: Vec<_> = lines.iter().filter(|l| !is_summary(l)).collect();
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    assert_eq!(code, 0, "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains(" 0 errors, 0 warnings, 0 failing")), "{lines:#?}");

    // With `--notes` the quiet lines appear, and every one of them is a note with a
    // real location (never a line that starts with `: `), none under `..`.
    let (code, lines) = check(&root, &["--notes", "--all-tools"]);
    assert_eq!(code, 0, "{lines:#?}");
    for line in lines.iter().filter(|l| !is_summary(l)) {
        assert!(line.contains(": note: "), "{line}");
        assert!(!line.starts_with(": ") && !line.contains(".."), "{line}");
    }
}

#[test]
fn a_tsugite_template_error_gives_the_line_in_the_file_that_wrote_it() {
    let root = support::Scratch::new("first-check-tsugite-lines");
    for (path, text) in [
        ("project/.tsugite/base.md", "---\nname: base\n---\nline one\n\nline three\n"),
        ("project/.tsugite/kid.md", "---\nname: kid\nextends: base\n---\nfirst\nsecond\n{{ foo( }}\n"),
        ("project/.tsugite/lower.md", "---\nname: lower\nextends: broken\n---\nfine\n"),
        ("project/.tsugite/broken.md", "---\nname: broken\n---\nok\n\n{% if %}\n"),
    ] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    std::fs::create_dir_all(root.join("home")).expect("home");
    let (code, lines) = check(&root, &["-e", "tsugite"]);
    assert_eq!(code, 1, "{lines:#?}");
    // Line 7 of kid.md, not a line of the body merged with base's.
    assert!(lines.iter().any(|l| l.contains("kid.md:7: ") && l.contains("cannot render the body")), "{lines:#?}");
    // A parent's broken body, reached through a child, points at the parent's line.
    assert!(lines.iter().any(|l| l.contains("broken.md:6: ") && l.contains("lower.md inherits it")), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains("merged body")), "{lines:#?}");
}

#[test]
fn a_kimi_row_with_an_empty_name_shows_the_file_stem_marked_as_such() {
    let root = support::Scratch::new("first-check-kimi-names");
    for (path, text) in [
        ("project/agents/team/agent.yaml", "version: 1\nagent:\n  name: \"\"\n  system_prompt_path: ./s.md\n"),
        ("project/agents/team/s.md", "x\n"),
        // No `name` at all, and invalid: shown the same way.
        ("project/agents/other/agent.yaml", "version: 1\nagent:\n  system_prompt_path: ./s.md\n"),
    ] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    std::fs::create_dir_all(root.join("home")).expect("home");
    let out = support::run_agentry(&root, "no-builtins", &["list", "-e", "kimi"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text.lines().find(|l| l.contains("agents/team/agent.yaml")).expect("a row for the file");
    assert!(row.starts_with("agent (file stem: no name)"), "{text}");
    let row = text.lines().find(|l| l.contains("agents/other/agent.yaml")).expect("a row for the file");
    assert!(row.starts_with("agent (file stem: no name)"), "{text}");
}
