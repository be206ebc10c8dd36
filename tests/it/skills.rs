//! Skills across tools: one `SKILL.md` named `deploy` in the project's
//! `.agents/skills/` and another in `~/.agents/skills/`, and each tool's verdict on the
//! project's copy as `agentry file` gives it — computed by the readers, compared here
//! with what each tool's real release does (issue table: Claude Code does not read the
//! folder, Copilot, Gemini CLI, OpenHands and Kimi Code take the project's, Codex loads
//! both, OpenCode races).

use crate::support;

use serde_json::Value as Json;

const PROJECT: &str = "---\nname: deploy\ndescription: Deploy this service to staging.\n---\n\nRun make deploy.\n";
const USER: &str = "---\nname: deploy\ndescription: Deploy whatever project I am in.\n---\n\nRun ./deploy.sh.\n";

fn workspace(tag: &str) -> support::Scratch {
    let root = support::Scratch::new(&format!("skills-deploy-{tag}"));
    for (path, text) in [("project/.agents/skills/deploy/SKILL.md", PROJECT), ("home/.agents/skills/deploy/SKILL.md", USER)] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    std::fs::create_dir_all(root.join("project/.git")).expect(".git");
    root
}

/// Each tool's reading of `file` (`--all-tools`): tool id → its first definition.
fn readings(root: &std::path::Path, file: &str) -> std::collections::BTreeMap<String, Json> {
    let out = support::run_agentry(root, "no-builtins", &["--all-tools", "file", file, "--json"]);
    let doc: Json = serde_json::from_slice(&out.stdout).expect("file --json");
    let mut by_tool = std::collections::BTreeMap::new();
    for r in doc["file"]["readings"].as_array().expect("readings") {
        let tool = r["ecosystem"].as_str().or(r["tool"].as_str()).expect("tool").to_string();
        by_tool.insert(tool, r["definitions"][0].clone());
    }
    by_tool
}

#[test]
fn each_tool_gives_its_own_verdict_on_one_shared_skill_folder() {
    let root = workspace("file");
    let project = root.join("project/.agents/skills/deploy/SKILL.md");
    let user = root.join("home/.agents/skills/deploy/SKILL.md");
    let (p, u) = (readings(&root, &project.to_string_lossy()), readings(&root, &user.to_string_lossy()));
    let status = |m: &std::collections::BTreeMap<String, Json>, tool: &str| m.get(tool).and_then(|d| d["status"].as_str()).map(str::to_string);
    assert_eq!(status(&p, "claude-code"), None, "Claude Code does not read .agents/skills: {p:#?}");
    for tool in ["copilot", "gemini-cli", "openhands", "kimi-code"] {
        assert_eq!(status(&p, tool).as_deref(), Some("WINS"), "{tool}: the project's copy wins: {p:#?}");
        assert_eq!(status(&u, tool).as_deref(), Some("SHADOWED"), "{tool}: the user's copy loses: {u:#?}");
        assert_eq!(p[tool]["kind"], "skill");
    }
    // Codex loads both: neither hides the other.
    assert!(status(&p, "codex").is_some_and(|s| s != "SHADOWED"), "{p:#?}");
    assert!(status(&u, "codex").is_some_and(|s| s != "SHADOWED"), "{u:#?}");
    // OpenCode: whichever file finishes reading last, an order it does not promise.
    assert!(!p["opencode"]["undocumented_order"].is_null() || !u["opencode"]["undocumented_order"].is_null(), "{p:#?}");
}

#[test]
fn the_folder_view_puts_every_tool_side_by_side() {
    let root = workspace("folder");
    let dir = root.join("project/.agents/skills");
    let out = support::run_agentry(&root, "no-builtins", &["--all-tools", "file", &dir.to_string_lossy()]);
    let text = String::from_utf8_lossy(&out.stdout);
    let header = text.lines().next().expect("header");
    for tool in ["copilot", "codex", "gemini-cli", "opencode", "openhands"] {
        assert!(header.contains(tool), "{text}");
    }
    assert!(!header.contains("claude-code"), "{text}");
    let row = text.lines().find(|l| l.starts_with(".agents/skills/deploy/SKILL.md") || l.contains("deploy/SKILL.md")).expect("the file's row");
    assert!(row.contains("WINS"), "{text}");
    assert!(text.contains("not read by") && text.contains("claude-code"), "{text}");
}

/// The demo, as README tells a new user to try it: `agentry --demo …`, run from a
/// folder that is not the demo's (relative paths then name the demo's files).
fn demo(args: &[&str]) -> String {
    let home = support::Scratch::new(&format!("skills-demo-{}", args.join("-").replace(['/', '.'], "_")));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agentry"))
        .arg("--demo")
        .args(args)
        .current_dir(&*home)
        .env("HOME", &*home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run agentry");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn in_the_demo_why_names_the_winning_skill_and_the_rule() {
    let text = demo(&["why", "review-pr"]);
    let block: Vec<&str> = text.lines().skip_while(|l| *l != "review-pr (claude-code skill)").take(5).collect();
    assert!(block.len() == 5, "{text}");
    assert!(block[1].starts_with("[WINS]") && block[1].contains("~/.claude/skills/review-pr/SKILL.md"), "{text}");
    assert!(block[2].contains("ranks above"), "{text}");
    assert!(block[3].starts_with("[SHADOWED]") && block[3].contains("→ user:.claude/skills/review-pr/SKILL.md"), "{text}");
}

#[test]
fn in_the_demo_file_gives_each_tools_verdict_on_a_shared_skill() {
    let text = demo(&["file", ".agents/skills/deploy/SKILL.md"]);
    let verdict = |tool: &str| text.lines().skip_while(|l| !l.starts_with(&format!("  {tool} ("))).nth(1).unwrap_or_default().to_string();
    for tool in ["openhands", "gemini-cli", "copilot", "qwen-code", "kimi-code"] {
        assert!(verdict(tool).starts_with("    WINS as skill `deploy`"), "{tool}: {text}");
    }
    assert!(verdict("codex").starts_with("    WINS as skill `deploy`"), "{text}");
    assert!(text.contains("[WINS] user:.agents/skills/deploy/SKILL.md"), "Codex keeps the user's copy too: {text}");
    assert!(text.contains("decided by an undocumented order"), "OpenCode races: {text}");
    assert!(text.contains("  claude-code (Claude Code) — not read"), "{text}");
}
