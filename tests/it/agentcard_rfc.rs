//! The AgentCard RFC dialect, checked against the RFC's own examples
//! (`tests/fixtures/agentcard-rfc/`, one case per example of the seed document).
//! There is no RFC oracle: each expectation below is what the RFC text states for that
//! example. Each case is also loaded with the released dialect, where `agentry check`
//! must warn exactly on the files the two dialects read differently.

use crate::support;

use std::collections::BTreeMap;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, EcosystemReport, EdgeKind, Severity, Status, Text};
use serde_json::{json, Value as Json};

fn load_case(case: &str, dialect: &str) -> EcosystemReport {
    let dir = support::fixtures().join("agentcard-rfc").join(case);
    let opts = LoadOptions {
        roots: support::case_roots(&dir),
        ecosystems: vec!["fast-agent".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: [("dialect".to_string(), dialect.to_string())].into(),
        texts: agentry::model::TextForm::Held,
    };
    std::sync::Arc::unwrap_or_clone(load(&opts, &FileCache::new(), 1).reports.remove(0))
}

fn rfc(case: &str) -> EcosystemReport {
    load_case(case, "agentcard-rfc")
}

/// One loaded card: name, source key, system prompt, history as (role, text).
type Card = (String, String, String, Vec<(String, String)>);

fn cards(r: &EcosystemReport) -> Vec<Card> {
    r.agents
        .iter()
        .filter(|a| a.status == Status::Wins)
        .map(|a| {
            let history = a
                .field("history")
                .and_then(|f| f.value.to_json().as_array().cloned())
                .unwrap_or_default()
                .iter()
                .map(|m| (m["role"].as_str().unwrap_or("").to_string(), m["text"].as_str().unwrap_or("").to_string()))
                .collect();
            (a.name.clone(), a.source.key(), a.system_prompt.as_ref().and_then(Text::as_held).unwrap_or_default().to_string(), history)
        })
        .collect()
}

fn errors(r: &EcosystemReport) -> Vec<(String, DiagKind, Option<u32>)> {
    r.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.source.clone().unwrap_or_default(), d.kind, d.line))
        .collect()
}

/// The dialect warnings of the released reading, as (file name, message).
fn dialect_warnings(case: &str) -> Vec<(String, String)> {
    load_case(case, "fast-agent")
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagKind::Dialect && d.severity == Severity::Warning)
        .map(|d| (d.path.file_name().unwrap_or_default().to_string_lossy().into_owned(), d.message.clone()))
        .collect()
}

const CARDS: &str = "project:.fast-agent/agent-cards";
const SIZER: &str = "Given an object, respond only with an estimate of its size.";

#[test]
fn yaml_card() {
    let r = rfc("yaml-card");
    assert_eq!(cards(&r), vec![("sizer".into(), format!("{CARDS}/sizer.yaml"), SIZER.into(), vec![])]);
    assert!(errors(&r).is_empty());
    assert!(dialect_warnings("yaml-card").is_empty(), "both dialects read a single YAML card alike");
}

#[test]
fn yaml_bundle_is_one_card_per_document() {
    let r = rfc("yaml-bundle");
    assert_eq!(
        cards(&r),
        vec![
            ("greeter".into(), format!("{CARDS}/agents.yaml#greeter"), "Respond cheerfully.".into(), vec![]),
            ("sizer".into(), format!("{CARDS}/agents.yaml#sizer"), SIZER.into(), vec![]),
        ]
    );
    assert!(errors(&r).is_empty());
    let warnings = dialect_warnings("yaml-bundle");
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].0, "agents.yaml");
    assert!(warnings[0].1.starts_with("2 cards under the AgentCard RFC; fast-agent 0.10.48 rejects the file"), "{}", warnings[0].1);
}

#[test]
fn markdown_card() {
    let r = rfc("markdown-card");
    assert_eq!(cards(&r), vec![("sizer".into(), format!("{CARDS}/sizer.md"), SIZER.into(), vec![])]);
    assert!(dialect_warnings("markdown-card").is_empty(), "both dialects read a single Markdown card alike");
}

#[test]
fn markdown_bundle_splits_at_frontmatter_with_type() {
    let r = rfc("markdown-bundle");
    assert_eq!(
        cards(&r),
        vec![
            ("agent-name".into(), format!("{CARDS}/agents.md#agent-name"), "You are a helpful assistant.".into(), vec![]),
            ("agent-name2".into(), format!("{CARDS}/agents.md#agent-name2"), "You are a helpful assistant #2.".into(), vec![]),
        ]
    );
    assert_eq!(
        dialect_warnings("markdown-bundle"),
        vec![(
            "agents.md".to_string(),
            "2 cards under the AgentCard RFC; fast-agent 0.10.48 reads one card and puts the rest in its instruction".to_string()
        )]
    );
    // The warning points at the `---` that opens the second card.
    let released = load_case("markdown-bundle", "fast-agent");
    let line = released.diagnostics.iter().find(|d| d.kind == DiagKind::Dialect).and_then(|d| d.line);
    assert_eq!(line, Some(7));
}

#[test]
fn pmo_example_as_printed_has_invalid_yaml() {
    // The RFC's front matter does not parse (`- tools.py:safety_guard` followed by an
    // indented `match:`), so by the boundary rule no card starts in the file.
    let r = rfc("pmo-orchestrator-as-written");
    assert!(cards(&r).is_empty());
    assert_eq!(errors(&r), vec![(format!("{CARDS}/pmo.md"), DiagKind::Parse, Some(24))]);
    assert!(dialect_warnings("pmo-orchestrator-as-written").is_empty(), "both dialects reject it");
}

#[test]
fn pmo_example_system_block_and_inline_history() {
    let r = rfc("pmo-orchestrator");
    let system = "Get reports. Always use one tool call per project/news.\nResponsibilities: NY projects: [OpenAI, Fast-Agent, Anthropic].\nLondon news: [Economics, Art, Culture].\nAggregate results and add a one-line PMO summary.";
    assert_eq!(
        cards(&r),
        vec![(
            "PMO-orchestrator".into(),
            format!("{CARDS}/pmo.md"),
            system.into(),
            vec![
                ("user".into(), "Provide the latest NY and London updates.".into()),
                ("assistant".into(), "Understood. I will fetch updates and return a concise PMO summary.".into()),
            ]
        )]
    );
    let agent = &r.agents[0];
    let config = &agent.field("config").expect("config").value.to_json();
    assert_eq!(config["servers"], json!(["time", "github", "filesystem"]));
    assert_eq!(config["tools"], json!({"time": ["get_time"], "github": ["search_*"]}));
    assert_eq!(config["default"], json!(true));
    assert_eq!(agent.field("child_agents").map(|f| f.value.to_json()), Some(json!(["NY-Project-Manager", "London-Project-Manager"])));
    assert_eq!(agent.field("history_mode").map(|f| f.value.to_json()), Some(json!("scratch")));
    let edges: Vec<_> = agent.edges.iter().map(|e| (e.kind, e.name.as_str(), e.target.clone())).collect();
    assert_eq!(
        edges,
        vec![(EdgeKind::Subagent, "NY-Project-Manager", None), (EdgeKind::Subagent, "London-Project-Manager", None)]
    );
    let warnings = dialect_warnings("pmo-orchestrator");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].1.starts_with("1 card under the AgentCard RFC; fast-agent 0.10.48 rejects the file"), "{}", warnings[0].1);
}

#[test]
fn post_writer_bundle_with_chain_and_user_block() {
    let r = rfc("post-writer-bundle");
    let key = |n: &str| format!("{CARDS}/post_writer.md#{n}");
    assert_eq!(
        cards(&r),
        vec![
            (
                "post_writer".into(),
                key("post_writer"),
                "Generate a short social media post from a URL summary.".into(),
                vec![("user".into(), "http://llmindset.co.uk".into())]
            ),
            (
                "social_media".into(),
                key("social_media"),
                "Write a 280 character social media post for any given text.\nRespond only with the post, never use hashtags.".into(),
                vec![]
            ),
            ("url_fetcher".into(), key("url_fetcher"), "Given a URL, provide a complete and comprehensive summary.".into(), vec![]),
        ]
    );
    assert!(errors(&r).is_empty());
    let chain = r.agents.iter().find(|a| a.name == "post_writer").expect("post_writer");
    assert_eq!(chain.field("sequence").map(|f| f.value.to_json()), Some(json!(["url_fetcher", "social_media"])));
    let edges: Vec<_> = chain.edges.iter().map(|e| (e.kind, e.name.clone(), e.target.clone())).collect();
    assert_eq!(
        edges,
        vec![
            (EdgeKind::Workflow, "url_fetcher".to_string(), Some(key("url_fetcher"))),
            (EdgeKind::Workflow, "social_media".to_string(), Some(key("social_media"))),
        ]
    );
    let fetcher = r.agents.iter().find(|a| a.name == "url_fetcher").expect("url_fetcher");
    assert_eq!(fetcher.field("config").map(|f| f.value.to_json()["servers"].clone()), Some(json!(["fetch"])));
    // The released loader sees the chain's `---USER` line inside the first card's body
    // and rejects the whole file.
    let warnings = dialect_warnings("post-writer-bundle");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].0, "post_writer.md");
    assert!(
        warnings[0].1.starts_with("3 cards under the AgentCard RFC; fast-agent 0.10.48 rejects the file: Inline history blocks"),
        "{}",
        warnings[0].1
    );
}

#[test]
fn instruction_concatenation_history_order_and_bundle_names() {
    let r = rfc("rules");
    let combined = r.agents.iter().find(|a| a.name == "combined").expect("combined");
    assert_eq!(
        combined.system_prompt.as_ref().and_then(Text::as_held),
        Some("From the attribute.\nPrelude text.\n\n---\n\nStill prelude after a horizontal rule.\nFirst system block.\nSecond system block.")
    );
    let history: Vec<Json> = combined.field("history").and_then(|f| f.value.to_json().as_array().cloned()).unwrap_or_default();
    assert_eq!(
        history,
        vec![
            json!({"role": "user", "text": "From the file."}),
            json!({"role": "assistant", "text": "File answer."}),
            json!({"role": "user", "text": "Inline question?"}),
            json!({"role": "assistant", "text": "Inline answer."}),
        ]
    );
    let errs = errors(&r);
    assert!(errs.contains(&(format!("{CARDS}/unnamed-bundle.md"), DiagKind::Validation, Some(8))), "{errs:?}");
    assert!(errs.iter().any(|(s, k, _)| s == &format!("{CARDS}/twins.yaml") && *k == DiagKind::Validation), "{errs:?}");
    assert_eq!(errs.len(), 2, "{errs:?}");
}
