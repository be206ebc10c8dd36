//! The explorer's loader keeps prompts on disk ([`TextForm::OnDisk`]), the command
//! line holds them. Over every fixture case, the two loads resolve to the same
//! reports once each text on disk is read back: keeping a text on disk loses nothing.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{EcosystemReport, Text, TextForm};

fn load_case(case: &Path, ecosystem: &str, options: &BTreeMap<String, String>, texts: TextForm) -> EcosystemReport {
    let opts = LoadOptions {
        roots: support::case_roots(case),
        ecosystems: vec![ecosystem.to_string()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: options.clone(),
        texts,
    };
    std::sync::Arc::unwrap_or_clone(load(&opts, &FileCache::new(), 1).reports.remove(0))
}

/// The report with every text on disk read and held instead; how many there were.
fn read_back(mut report: EcosystemReport) -> (EcosystemReport, usize) {
    let mut read = 0;
    for agent in &mut report.agents {
        let agent: &mut agentry::model::AgentRecord = agent;
        if let Some(prompt) = agent.system_prompt.as_mut().filter(|p| p.as_held().is_none()) {
            let text = prompt.read().unwrap_or_else(|e| panic!("{}: {e}", agent.source.key())).into_owned();
            *prompt = Text::held(text);
            read += 1;
        }
        let messages = std::sync::Arc::make_mut(&mut agent.messages);
        for message in messages.iter_mut().filter(|m| m.text.as_held().is_none()) {
            let text = message.text.read().unwrap_or_else(|e| panic!("{}: {e}", agent.source.key())).into_owned();
            message.text = Text::held(text);
            read += 1;
        }
    }
    (report, read)
}

#[test]
fn every_fixture_resolves_alike_with_its_texts_on_disk() {
    let rfc: BTreeMap<String, String> = [("dialect".to_string(), "agentcard-rfc".to_string())].into();
    let frameworks = [
        ("openhands", "openhands", BTreeMap::new()),
        ("fast-agent", "fast-agent", BTreeMap::new()),
        ("agentcard-rfc", "fast-agent", rfc),
        ("tsugite", "tsugite", BTreeMap::new()),
        ("kimi", "kimi", BTreeMap::new()),
        ("claude-code", "claude-code", BTreeMap::new()),
        ("copilot", "copilot", BTreeMap::new()),
        ("qwen-code", "qwen-code", BTreeMap::new()),
        ("gemini-cli", "gemini-cli", BTreeMap::new()),
        ("kimi-code", "kimi-code", BTreeMap::new()),
        ("codex", "codex", BTreeMap::new()),
    ];
    let mut on_disk: BTreeMap<&str, usize> = BTreeMap::new();
    for (folder, ecosystem, options) in &frameworks {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(support::fixtures().join(folder))
            .expect("fixtures")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        cases.sort();
        assert!(!cases.is_empty(), "no {folder} cases");
        for case in &cases {
            let held = load_case(case, ecosystem, options, TextForm::Held);
            let kept = load_case(case, ecosystem, options, TextForm::OnDisk);
            // Equal before reading too: texts on disk compare by length and digest.
            assert_eq!(kept, held, "{}", case.display());
            let (kept, read) = read_back(kept);
            assert_eq!(format!("{kept:?}"), format!("{held:?}"), "{}", case.display());
            *on_disk.entry(folder).or_default() += read;
        }
    }
    // Where a prompt is the file's own text, it was left on disk.
    for folder in ["openhands", "fast-agent", "agentcard-rfc", "claude-code", "copilot", "qwen-code", "gemini-cli", "kimi-code", "codex"] {
        assert!(on_disk.get(folder).is_some_and(|n| *n > 0), "no {folder} prompt was kept on disk: {on_disk:?}");
    }
}

/// A case folder of its own, with `files` (path, contents) under it.
fn write_case(name: &str, files: &[(&str, String)]) -> PathBuf {
    let case = std::env::temp_dir().join(format!("agentry-texts-{}-{name}", std::process::id()));
    for (path, contents) in files {
        let path = case.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    std::fs::create_dir_all(case.join("home")).unwrap();
    case
}

/// A template of many lines, one of them with `variable` in it.
fn long_template(variable: &str) -> String {
    let mut text = String::from("You review pull requests for the team that owns this repository.\n");
    text.push_str(&format!("The team prefers a {variable} tone in every review comment.\n"));
    for n in 1..=20 {
        text.push_str(&format!("Rule {n}: say what to change and why, and quote the lines it concerns.\n"));
    }
    text
}

/// Loads `case` in both forms; the load that keeps texts on disk must have kept
/// `expected` of them there, and read back, resolve alike.
fn assert_kept_in_pieces(case: &Path, ecosystem: &str, expected: usize) {
    let held = load_case(case, ecosystem, &BTreeMap::new(), TextForm::Held);
    let kept = load_case(case, ecosystem, &BTreeMap::new(), TextForm::OnDisk);
    assert!(held.diagnostics.is_empty(), "{:?}", held.diagnostics);
    assert_eq!(kept, held);
    let (kept, read) = read_back(kept);
    assert_eq!(read, expected, "{kept:?}");
    assert_eq!(format!("{kept:?}"), format!("{held:?}"));
    let _ = std::fs::remove_dir_all(case);
}

#[test]
fn a_rendered_kimi_prompt_is_kept_on_disk_in_pieces() {
    let agent = "version: 1\nagent:\n  name: reviewer\n  system_prompt_path: ./system.md\n  system_prompt_args:\n    TONE: kind\n  tools:\n    - \"pkg.tools:Wave\"\n";
    let case = write_case("kimi", &[("project/agent.yaml", agent.to_string()), ("project/system.md", long_template("${TONE}"))]);
    assert_kept_in_pieces(&case, "kimi", 1);
}

#[test]
fn rendered_tsugite_messages_are_kept_on_disk_in_pieces() {
    let plain = format!("---\nname: plain\nextends: none\n---\n{}", long_template("kind"));
    let rendered = format!("---\nname: rendered\nextends: none\n---\n{}", long_template("{{ agent_name }}"));
    let steps = format!(
        "---\nname: steps\nextends: none\n---\n<!-- tsu:step name=\"read\" -->\n{}<!-- tsu:step name=\"write\" -->\n{}",
        long_template("{{ agent_name }}"),
        long_template("calm"),
    );
    // Its message is the parent's body, then its own.
    let child = format!("---\nname: child\nextends: plain\n---\n{}", long_template("{{ agent_name }}").replace("Rule", "Child rule"));
    let case = write_case(
        "tsugite",
        &[
            ("project/agents/plain.md", plain),
            ("project/agents/rendered.md", rendered),
            ("project/agents/steps.md", steps),
            ("project/agents/child.md", child),
        ],
    );
    assert_kept_in_pieces(&case, "tsugite", 5);
}

/// Bodies inherited from an explicit parent and from the implicit base, a body the
/// file holds with `\r\n` line ends (not verbatim once decoded) and a short one:
/// on disk, each resolution reads them back from their files, and the children's
/// messages, read back in turn, are what the command line holds.
#[test]
fn inherited_tsugite_bodies_are_read_back_from_their_files() {
    let front = |name: &str, extends: &str| format!("---\nname: {name}\n{extends}---\n");
    let case = write_case(
        "tsugite-inherit",
        &[
            ("project/agents/.tsugite/default.md", format!("{}{}", front("default", "extends: none\n"), long_template("calm"))),
            ("project/agents/base.md", format!("{}{}", front("base", ""), long_template("{{ agent_name }}").replace("Rule", "Base rule"))),
            ("project/agents/mid.md", format!("{}{}", front("mid", "extends: base\n"), long_template("kind").replace("Rule", "Mid rule"))),
            ("project/agents/leaf.md", format!("{}Short.\n", front("leaf", "extends: mid\n"))),
            ("project/agents/crlf.md", format!("{}{}", front("crlf", "extends: mid\n"), long_template("dry")).replace('\n', "\r\n")),
        ],
    );
    let held = load_case(&case, "tsugite", &BTreeMap::new(), TextForm::Held);
    let kept = load_case(&case, "tsugite", &BTreeMap::new(), TextForm::OnDisk);
    assert!(held.diagnostics.is_empty(), "{:?}", held.diagnostics);
    let leaf = held.agents.iter().find(|a| a.name == "leaf").expect("leaf");
    assert_eq!(leaf.chain.len(), 4, "{:?}", leaf.chain);
    assert_eq!(kept, held);
    let (kept, read) = read_back(kept);
    assert_eq!(read, 4, "every message is kept on disk, at least in part");
    assert_eq!(format!("{kept:?}"), format!("{held:?}"));
    let _ = std::fs::remove_dir_all(case);
}
