//! One word for a tool (issue 35, item 5): every JSON document of agentry's own
//! (`agentry/2`) names a tool under `tool`, never `ecosystem`; the resolution report
//! keeps its format's `ecosystem`; `-e`, `--tool` and `--ecosystem` pick the same tools.

use crate::support;

use serde_json::Value as Json;

/// A project and a home that both define `reviewer` for Claude Code (one shadows the
/// other), with one file that fails to load.
fn workspace(tag: &str) -> support::Scratch {
    let root = support::Scratch::new(&format!("tool-word-{tag}"));
    let agent = |who: &str| format!("---\nname: reviewer\ndescription: Reviews ({who})\n---\nYou review ({who}).\n");
    for (rel, text) in [
        ("project/.claude/agents/reviewer.md", agent("project")),
        ("home/.claude/agents/reviewer.md", agent("home")),
        ("project/.claude/agents/draft.md", "---\ndescription: no name\n---\nDraft.\n".to_string()),
    ] {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    std::fs::create_dir_all(root.join("no-builtins")).expect("builtins");
    root
}

fn json(root: &std::path::Path, args: &[&str]) -> Json {
    let out = support::run_agentry(root, "no-builtins", args);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// Every object key of `doc`, at any depth, with the path that leads to it.
fn keys(doc: &Json, at: &str, out: &mut Vec<String>) {
    match doc {
        Json::Object(map) => {
            for (k, v) in map {
                out.push(format!("{at}.{k}"));
                keys(v, &format!("{at}.{k}"), out);
            }
        }
        Json::Array(items) => items.iter().for_each(|v| keys(v, &format!("{at}[]"), out)),
        _ => {}
    }
}

#[test]
fn every_json_document_of_agentry_names_a_tool_under_tool() {
    let root = workspace("every");
    let file = root.join("project/.claude/agents/reviewer.md");
    let file = file.to_str().expect("utf-8");
    let commands: [&[&str]; 9] = [
        &["list", "--json"],
        &["why", "reviewer", "--json"],
        &["show", "reviewer", "--json"],
        &["file", file, "--json"],
        &["check", "--json"],
        &["diff", "reviewer", "--json"],
        &["listing", "--json"],
        &["tools", "--json"],
        &["why", "nobody", "--json"],
    ];
    for args in commands {
        let mut all = vec!["-e", "claude-code"];
        all.extend_from_slice(args);
        let doc = json(&root, &all);
        assert_eq!(doc["schema"], "agentry/2", "{args:?}");
        let mut found = Vec::new();
        keys(&doc, "", &mut found);
        let old: Vec<_> = found.iter().filter(|k| k.ends_with(".ecosystem") || k.ends_with(".frameworks")).collect();
        assert!(old.is_empty(), "{args:?} still says {old:?}");
        // Each document names the tool under `tool`, as the id `-e` takes (a tool
        // whose listing agentry does not know is named in the listing's `unknown`).
        let unknown = doc["listing"]["unknown"].as_array().is_some_and(|u| u.contains(&Json::from("claude-code")));
        assert!(unknown || found.iter().any(|k| k.ends_with(".tool")), "{args:?}: {found:?}");
    }
    let list = json(&root, &["-e", "claude-code", "list", "--json"]);
    assert!(list["agents"].as_array().expect("agents").iter().all(|a| a["tool"] == "claude-code"), "{list:#}");
    let check = json(&root, &["-e", "claude-code", "check", "--json"]);
    assert!(check["findings"].as_array().expect("findings").iter().all(|f| f["tool"] == "claude-code"), "{check:#}");
    assert!(check["diagnostics"].as_array().expect("diagnostics").iter().all(|d| d["tool"] == "claude-code"), "{check:#}");
    let why = json(&root, &["-e", "claude-code", "why", "reviewer", "--json"]);
    assert_eq!((&why["tools"][0]["tool"], &why["sources"][0]["tool"]), (&Json::from("claude-code"), &Json::from("claude-code")));
    let diff = json(&root, &["-e", "claude-code", "diff", "reviewer", "--json"]);
    assert_eq!(diff["tool"], "claude-code");
}

#[test]
fn the_resolution_report_keeps_its_formats_ecosystem() {
    let root = workspace("export");
    let doc = json(&root, &["export", "--tool", "claude-code", "--json"]);
    assert_eq!((&doc["format"], &doc["ecosystem"]), (&Json::from("agentry.resolution/1"), &Json::from("claude-code")));
    assert!(doc.get("tool").is_none());
}

#[test]
fn short_long_and_old_option_pick_the_same_tools() {
    let root = workspace("options");
    let picked = |flag: &str| json(&root, &[flag, "claude-code", "list", "--json"])["agents"].clone();
    let by_tool = picked("--tool");
    assert!(!by_tool.as_array().expect("agents").is_empty());
    assert_eq!(picked("-e"), by_tool);
    assert_eq!(picked("--ecosystem"), by_tool);
}
