//! The copilot reader's front matter against Copilot CLI 1.0.102's own: every agent
//! file of `tests/goldens/copilot-yaml/{case,tools-case}` (written by `inputs.py`)
//! was read by the real CLI (`make.sh` runs the conformance oracle), which wrote
//! `case/expected.json`. agentry must load the same agents with the same fields,
//! fail the same files with the tool's own messages, and warn about the same keys.

use crate::support;

use std::collections::BTreeMap;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use serde_json::Value as Json;

#[test]
fn copilot_front_matter_matches_the_cli() {
    let checked = agrees_with_the_cli("case");
    assert!(checked >= 40, "only {checked} error messages compared");
}

/// The sub-agents' tools for tool lists of every kind (aliases in any case, Claude
/// and VS Code names, native names, MCP names, `*` in a list or a string).
#[test]
fn copilot_tool_names_match_the_cli() {
    agrees_with_the_cli("tools-case");
}

/// Compares agentry's reading of one golden workspace with the CLI's; returns how
/// many error messages were compared.
fn agrees_with_the_cli(name: &str) -> usize {
    let case = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/copilot-yaml").join(name);
    let expected: Json = serde_json::from_slice(&std::fs::read(case.join("expected.json")).expect("expected.json")).expect("json");
    let opts = LoadOptions {
        roots: support::case_roots(&case),
        ecosystems: vec!["copilot".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    let catalog = load(&opts, &FileCache::new(), 1);
    let report = &catalog.reports[0];
    let actual = agentry::export::report(report);
    let mut problems = support::compare(&expected, &actual);

    // Errors: the tool's own message, word for word.
    let ours: BTreeMap<&str, &str> = actual["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| (e["source"].as_str().unwrap_or(""), e["message"].as_str().unwrap_or("")))
        .collect();
    let mut checked = 0;
    for e in expected["errors"].as_array().into_iter().flatten() {
        let source = e["source"].as_str().unwrap_or("");
        let want = e["message"].as_str().unwrap_or("");
        match ours.get(source) {
            Some(got) if *got == want => checked += 1,
            got => problems.push(format!("{source}: message {got:?}, the CLI says {want:?}")),
        }
    }
    // Warnings (unknown fields): a diagnostic with the same words on that file.
    for w in expected["warnings"].as_array().into_iter().flatten() {
        let file = w["source"].as_str().unwrap_or("").trim_start_matches("project:");
        let want = w["message"].as_str().unwrap_or("");
        let found = report.diagnostics.iter().any(|d| d.message == want && d.path.ends_with(file));
        if !found {
            problems.push(format!("{file}: no warning {want:?}"));
        }
    }
    assert!(problems.is_empty(), "{name}: {} differences from the CLI:\n{}", problems.len(), problems.join("\n"));
    checked
}
