//! An installed Claude Code of another release than the one agentry follows (its
//! hostile inputs are in `bad_inputs/`).

use crate::support;

use std::collections::BTreeMap;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Catalog, Roots, Status};

const GOOD: &str = "---\nname: good\ndescription: A good agent\n---\nI am good.\n";

fn workspace(tag: &str) -> support::Scratch {
    let ws = support::Scratch::new(&format!("cc-release-{tag}"));
    for d in ["project/.claude/agents", "home/.claude/agents"] {
        std::fs::create_dir_all(ws.join(d)).unwrap();
    }
    std::fs::write(ws.join("project/.claude/agents/good.md"), GOOD).unwrap();
    ws
}

#[track_caller]
fn assert_good_wins(c: &Catalog) {
    let good = c.agents().find(|a| a.name == "good").expect("the good agent is lost");
    assert_eq!(good.status, Status::Wins);
}

/// `check` notes an installed Claude Code of another release (read from its npm
/// package, never run), and says nothing for the release agentry follows.
#[cfg(unix)]
#[test]
fn an_installed_claude_code_of_another_release_is_noted() {
    let ws = workspace("release");
    for (version, noted) in [("2.2.0", true), ("2.1.337", false)] {
        let pkg = ws.join(format!("npm-{version}/node_modules/@anthropic-ai/claude-code"));
        std::fs::create_dir_all(pkg.join("bin")).unwrap();
        std::fs::write(pkg.join("package.json"), format!("{{\"name\":\"@anthropic-ai/claude-code\",\"version\":\"{version}\"}}")).unwrap();
        std::fs::write(pkg.join("bin/claude.exe"), "#!/bin/sh\n").unwrap();
        let bin = ws.join(format!("bin-{version}"));
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(pkg.join("bin/claude.exe"), bin.join("claude")).unwrap();
        let mut roots = Roots::new(ws.join("project"), ws.join("home"), ws.join("home/.config"), Some(support::empty_dir()));
        roots.listing = agentry::model::ListingOrder::Name;
        let opts = LoadOptions {
            roots,
            ecosystems: vec!["claude-code".into()],
            render: RenderMode::Live { user_prompt: String::new() },
            env: BTreeMap::from([("PATH".to_string(), bin.display().to_string())]),
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::Held,
        };
        let c = load(&opts, &FileCache::new(), 1);
        let note = c.diagnostics().find(|d| d.message.contains("installed; agentry follows"));
        assert_eq!(note.is_some(), noted, "{version}");
        if let Some(n) = note {
            assert!(n.message.contains("2.2.0") && n.message.contains("2.1.337"), "{}", n.message);
        }
        assert_good_wins(&c);
    }
}
