//! A new user's first hour in an ordinary Rust repository with three Claude Code
//! agents (issue 35): agentry answers for the project's tools only, says which and
//! why, counts only agents, and prints no absolute path of the workspace or home.

use crate::support;

use std::path::Path;
use std::process::Command;

const AGENT: &str = "---\nname: {name}\ndescription: Reviews {name} changes\ntools: Read, Grep, Glob, Bash\nmodel: inherit\neffort: high\nmaxTurns: 15\n---\nYou review {name}.\n";

/// The repository, in a folder of the test's own (`tag`): tests run side by side.
fn repository(tag: &str) -> support::Scratch {
    let root = support::Scratch::new(&format!("first-hour-{tag}"));
    let project = root.join("project");
    let mut files: Vec<(String, String)> = vec![
        ("Cargo.toml".into(), "[package]\nname = \"p\"\nversion = \"0.1.0\"\n".into()),
        ("README.md".into(), "# P\n\nA project.\n".into()),
        ("CHANGELOG.md".into(), "# Changelog\n\n## 0.1.0\n- first\n".into()),
        ("AGENTS.md".into(), "# Agents\n\nRun `cargo test`.\n".into()),
        ("CLAUDE.md".into(), "# Claude\n\nSee AGENTS.md.\n".into()),
        (
            ".github/ISSUE_TEMPLATE/bug_report.md".into(),
            "---\nname: Bug report\nabout: Create a report\nlabels: bug\n---\n\n**Describe the bug**\n".into(),
        ),
        (".claude/agents/CLAUDE.md".into(), "# The agents\n\nOne file per agent.\n".into()),
        (".claude/agents/draft.md".into(), "---\ndescription: A draft with no name\n---\nDraft.\n".into()),
    ];
    for name in ["code-reviewer", "security-reviewer", "changelog-manager"] {
        files.push((format!(".claude/agents/{name}.md"), AGENT.replace("{name}", name)));
    }
    for (path, text) in files {
        let p = project.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    std::fs::create_dir_all(project.join(".git")).expect(".git");
    std::fs::create_dir_all(root.join("home")).expect("home");
    root
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// agentry in the project folder, as a user types it: an environment with nothing
/// but PATH and the (scratch) home.
fn agentry(root: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_agentry"))
        .args(args)
        .current_dir(root.join("project"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", root.join("home"))
        .output()
        .expect("run agentry");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The rows of `list` (after the header): name and tool.
fn rows(run: &Run) -> Vec<(String, String)> {
    // The TOOL column by its header: a KIND column comes before it once skills are listed.
    let tool = run.stdout.lines().next().and_then(|h| h.split_whitespace().position(|c| c == "TOOL")).unwrap_or(1);
    run.stdout
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            Some((cells.first()?.to_string(), cells.get(tool)?.to_string()))
        })
        .collect()
}

/// The lines of `check` that are findings (`path:line: severity: …`).
fn findings(run: &Run) -> Vec<&str> {
    run.stdout
        .lines()
        .filter(|l| [": error: ", ": warning: ", ": note: "].iter().any(|w| l.contains(w)))
        .collect()
}

#[test]
fn list_shows_the_projects_claude_code_agents_and_says_why() {
    let root = repository("list_shows_the_projects_");
    let list = agentry(&root, &["list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    let listed = rows(&list);
    assert!(listed.iter().all(|(_, tool)| tool == "claude-code"), "{}", list.stdout);
    for name in ["code-reviewer", "security-reviewer", "changelog-manager"] {
        assert!(listed.iter().any(|(n, _)| n == name), "{name}: {}", list.stdout);
    }
    // Documentation is never a row: not README, CHANGELOG or the agents folder's CLAUDE.md.
    for doc in ["README", "CHANGELOG", "CLAUDE", "AGENTS"] {
        assert!(!listed.iter().any(|(n, _)| n == doc), "{doc}: {}", list.stdout);
    }
    assert!(list.stderr.contains("tools: claude-code (.claude)"), "{}", list.stderr);
    // The same count everywhere: `list`'s rows are `check`'s agents.
    let json: serde_json::Value = serde_json::from_str(&agentry(&root, &["check", "--json"]).stdout).expect("json");
    assert_eq!(json["agents"].as_u64(), Some(listed.len() as u64));
    assert_eq!(json["tools"]["tools"], serde_json::json!(["claude-code"]));
    let check = agentry(&root, &["check"]);
    let agents = if listed.len() == 1 { "1 agent,".to_string() } else { format!("{} agents,", listed.len()) };
    assert!(check.stdout.contains(&agents), "{}", check.stdout);
    // Built-ins can be hidden: then only the files are rows.
    let files = rows(&agentry(&root, &["list", "--no-builtins"]));
    assert_eq!(files.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["changelog-manager", "code-reviewer", "draft", "security-reviewer"]);
}

#[test]
fn check_warns_once_about_the_file_without_a_name() {
    let root = repository("check_warns_once_about_t");
    let check = agentry(&root, &["check"]);
    assert_eq!(check.code, 0, "{}\n{}", check.stdout, check.stderr);
    let found = findings(&check);
    assert_eq!(found.len(), 1, "{}", check.stdout);
    assert!(found[0].starts_with(".claude/agents/draft.md"), "{}", found[0]);
    assert!(found[0].contains(": warning: ") && found[0].contains("claude-code"), "{}", found[0]);
    assert!(check.stdout.contains("0 errors, 1 warning,"), "{}", check.stdout);
    // `--fail-on warning` fails on it, and on nothing else.
    assert_eq!(agentry(&root, &["check", "--fail-on", "warning"]).code, 1);
}

#[test]
fn sarif_has_a_file_for_every_result_and_no_note() {
    let root = repository("sarif_has_a_file_for_eve");
    let sarif = agentry(&root, &["check", "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("sarif");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{}", sarif.stdout);
    for r in results {
        let location = &r["locations"][0]["physicalLocation"]["artifactLocation"];
        assert!(location["uri"].as_str().is_some_and(|u| !u.is_empty() && !u.starts_with("file:")), "{r}");
        assert_ne!(r["level"], "note", "{r}");
        let rule = r["ruleId"].as_str().expect("rule");
        let described = log["runs"][0]["tool"]["driver"]["rules"].as_array().expect("rules").iter().any(|d| d["id"] == rule && d["help"]["text"].is_string());
        assert!(described, "{rule}");
    }
    // Notes come with `--notes`, each still naming a file.
    let with_notes = agentry(&root, &["check", "--format", "sarif", "--notes"]);
    let log: serde_json::Value = serde_json::from_str(&with_notes.stdout).expect("sarif");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["level"] == "note"), "{}", with_notes.stdout);
    assert!(results.iter().all(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().is_some_and(|u| !u.is_empty())));
}

#[test]
fn no_output_holds_an_absolute_path_of_the_workspace_or_home() {
    let root = repository("no_output_holds_an_absol");
    let project = root.join("project");
    let home = root.join("home");
    let commands: &[&[&str]] = &[
        &["list"],
        &["check", "--notes"],
        &["check", "--format", "sarif", "--notes"],
        &["check", "--format", "github", "--notes"],
        &["why", "code-reviewer"],
        &["why", "reviewer"],
        &["why", "README"],
        &["why", "draft"],
        &["show", "code-reviewer"],
        &["show", "code-reviewer", "--origins"],
        &["diff", "code-reviewer"],
        &["file", ".claude/agents/draft.md"],
        &["file", "README.md"],
    ];
    for args in commands {
        let run = agentry(&root, args);
        for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            for absolute in [&project, &home, &root.to_path_buf()] {
                let absolute = absolute.display().to_string();
                assert!(!text.contains(&absolute), "{args:?} {stream} holds {absolute}:\n{text}");
            }
        }
    }
}

#[test]
fn file_names_instruction_files_and_the_tools_outside_the_set() {
    let root = repository("file_names_instruction_f");
    let agents = agentry(&root, &["file", "AGENTS.md"]);
    assert!(agents.stdout.contains("an instruction file"), "{}", agents.stdout);
    let readme = agentry(&root, &["file", "README.md"]);
    assert!(readme.stdout.contains("tsugite also reads this file; it is not in this project's tools"), "{}", readme.stdout);
    let why = agentry(&root, &["why", "code-reviewer"]);
    assert_eq!(why.code, 0);
    assert!(why.stdout.contains("copilot") && why.stdout.contains("not in this project's tools"), "{}", why.stdout);
    assert!(!why.stdout.contains("read by no tool"), "{}", why.stdout);
}

#[test]
fn copilot_comes_back_with_its_home_folder_or_all_tools() {
    let root = repository("copilot_comes_back_with_");
    let all = agentry(&root, &["list", "--all-tools"]);
    assert!(rows(&all).iter().any(|(_, tool)| tool == "copilot"), "{}", all.stdout);
    assert!(all.stderr.contains("all 11 that agentry reads"), "{}", all.stderr);
    std::fs::create_dir_all(root.join("home/.copilot")).expect(".copilot");
    let list = agentry(&root, &["list"]);
    assert!(rows(&list).iter().any(|(_, tool)| tool == "copilot"), "{}", list.stdout);
    assert!(list.stderr.contains("copilot (~/.copilot)"), "{}", list.stderr);
    // Copilot's warning about a key Claude Code reads says so.
    let check = agentry(&root, &["check"]);
    let copilot: Vec<&str> = findings(&check).into_iter().filter(|l| l.contains(": copilot: ")).collect();
    assert!(!copilot.is_empty(), "{}", check.stdout);
    assert!(copilot.iter().filter(|l| l.contains("maxTurns")).all(|l| l.contains("claude-code reads `effort`, `maxTurns`")), "{}", check.stdout);
}

#[test]
fn the_project_file_and_the_command_line_choose_the_tools() {
    let root = repository("the_project_file_and_the");
    std::fs::write(root.join("project/.agentry.yaml"), "tools: [copilot]\n").expect("config");
    let list = agentry(&root, &["list"]);
    assert!(rows(&list).iter().all(|(_, tool)| tool == "copilot"), "{}", list.stdout);
    assert!(list.stderr.contains("from .agentry.yaml"), "{}", list.stderr);
    let chosen = agentry(&root, &["list", "--tool", "claude-code"]);
    assert!(rows(&chosen).iter().all(|(_, tool)| tool == "claude-code"), "{}", chosen.stdout);
    let alias = agentry(&root, &["list", "--ecosystem", "claude-code"]);
    assert_eq!(alias.stdout, chosen.stdout);
    let wrong = agentry(&root, &["list", "-e", "claude"]);
    assert_eq!(wrong.code, 2);
    assert!(wrong.stderr.contains("did you mean `claude-code`"), "{}", wrong.stderr);
    std::fs::write(root.join("project/.agentry.yaml"), "tools: [sparkle]\n").expect("config");
    assert_eq!(agentry(&root, &["list"]).code, 2);
}

#[test]
fn an_empty_folder_says_it_found_no_agent_files_and_where_it_looked() {
    let root = support::Scratch::new("first-hour-empty");
    std::fs::create_dir_all(root.join("project/.git")).expect("project");
    std::fs::create_dir_all(root.join("home")).expect("home");
    let check = agentry(&root, &["check"]);
    assert_eq!(check.code, 0);
    assert!(check.stdout.contains("no agent files found"), "{}", check.stdout);
    assert!(check.stdout.contains("0 agents,"), "{}", check.stdout);
    assert!(check.stderr.contains("tools: none found"), "{}", check.stderr);
    // A Claude Code user's home: the project is searched where Claude Code looks.
    std::fs::create_dir_all(root.join("home/.claude")).expect(".claude");
    let list = agentry(&root, &["list", "--no-builtins"]);
    assert!(list.stdout.contains("no agent or skill files found; where each tool looks:\n  claude-code  .claude/agents, "), "{}", list.stdout);
}
