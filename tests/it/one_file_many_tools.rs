//! One file as every tool reads it, with the real readers: `agentry file` names each
//! tool, the name or ID it uses and the keys it reads or warns about; `agentry why`
//! explains a name that several tools miss, each for its own reason.

use crate::support;

use std::path::Path;
use std::process::Command;

use serde_json::Value as Json;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn agentry(root: &Path, args: &[&str]) -> (i32, String) {
    // Every tool's reading, whatever tools the workspace shows it uses.
    let out = Command::new(env!("CARGO_BIN_EXE_agentry"))
        .args(args)
        .arg("--all-tools")
        .arg("--project")
        .arg(root.join("project"))
        .arg("--home")
        .arg(root.join("home"))
        .current_dir(root.join("project"))
        .env("NO_COLOR", "1")
        .env("AGENTRY_LISTING_ORDER", "name")
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The reading of `path` by `ecosystem`: its first definition.
fn reading<'a>(doc: &'a Json, ecosystem: &str) -> &'a Json {
    let readings = doc["file"]["readings"].as_array().expect("readings");
    let r = readings.iter().find(|r| r["tool"] == ecosystem).unwrap_or_else(|| panic!("no {ecosystem} reading: {doc:#}"));
    &r["definitions"][0]
}

#[test]
fn claude_code_and_copilot_read_one_file_differently() {
    let root = support::Scratch::new("file-claude-copilot");
    std::fs::create_dir_all(root.join("home")).unwrap();
    write(&root, "project/.claude/agents/reviewer.md", b"---\nname: code-reviewer\ndescription: Reviews diffs.\ncolor: blue\n---\nReview the diff.\n");
    let (_, out) = agentry(&root, &["file", ".claude/agents/reviewer.md", "--json"]);
    let doc: Json = serde_json::from_str(&out).expect("json");
    // Claude Code names the agent from its front matter, Copilot from the path.
    assert_eq!(reading(&doc, "claude-code")["name"], "code-reviewer");
    assert_eq!(reading(&doc, "copilot")["name"], "reviewer");
    let verdict = |eco: &str, key: &str| {
        reading(&doc, eco)["keys"].as_array().unwrap().iter().find(|k| k["key"] == key).map(|k| k["verdict"].clone())
    };
    assert_eq!(verdict("copilot", "color"), Some("warned".into()), "{doc:#}");
    assert_eq!(verdict("claude-code", "name"), Some("read".into()), "{doc:#}");
}

#[test]
fn openhands_and_kimi_code_read_agents_agents_differently() {
    let root = support::Scratch::new("file-oh-kc");
    std::fs::create_dir_all(root.join("home")).unwrap();
    // OpenHands takes any name; Kimi Code wants lower-case kebab-case names.
    write(&root, "project/.agents/agents/x.md", b"---\nname: Helper Bot\ndescription: Helps.\n---\nHelp.\n");
    let (_, out) = agentry(&root, &["file", ".agents/agents/x.md", "--json"]);
    let doc: Json = serde_json::from_str(&out).expect("json");
    let oh = reading(&doc, "openhands");
    let kc = reading(&doc, "kimi-code");
    assert_eq!(oh["name"], "Helper Bot");
    assert_eq!(oh["status"], "WINS");
    assert_ne!(kc["status"], "WINS", "Kimi Code rejects the name: {doc:#}");
}

#[test]
fn why_names_the_five_ways_ghost_is_missing() {
    let root = support::Scratch::new("why-ghost");
    std::fs::create_dir_all(root.join("home")).unwrap();
    write(&root, "project/.claude/agents/ghost.md", b"---\ndescription: no name here\n---\nBoo.\n");
    write(&root, "project/.claude/agents/haunt.md", b"---\r\nname: ghost\r\ndescription: Haunts: the halls\r\n---\r\nBoo.\r\n");
    write(&root, "project/.gemini/agents/ghost.md", b"\xef\xbb\xbf---\nname: ghost\ndescription: A ghost.\n---\nBoo.\n");
    write(&root, "project/.openhands/agents/sub/ghost.md", b"---\nname: ghost\ndescription: A ghost.\n---\nBoo.\n");
    write(&root, "project/.openhands/agents/Ghost.md", b"---\nname: Ghost\ndescription: A ghost.\n---\nBoo.\n");
    let (code, text) = agentry(&root, &["why", "ghost"]);
    for file in [".claude/agents/ghost.md", ".claude/agents/haunt.md", ".gemini/agents/ghost.md", ".openhands/agents/sub/ghost.md", ".openhands/agents/Ghost.md"] {
        assert!(text.contains(file), "{file} not explained:\n{text}");
    }
    // Copilot names agents from the file's path: it does load a `ghost`.
    assert!(text.contains("(copilot)") && text.contains("[WINS]"), "{text}");
    assert!(text.contains('^'), "no caret under a byte cause:\n{text}");
    assert_eq!(code, 0, "ghost is active in Copilot:\n{text}");
    let (_, json) = agentry(&root, &["why", "ghost", "--json"]);
    let doc: Json = serde_json::from_str(&json).expect("json");
    assert!(doc.to_string().contains("haunt.md"), "{doc:#}");
}
