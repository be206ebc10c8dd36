//! Entry points for the fuzz targets (`tests/fuzz/`) and for the test that replays
//! their corpora (`tests/it/fuzz_corpus.rs`). Both call these functions, so what the
//! fuzzer explored and what `cargo test` replays cannot drift apart.
//!
//! Each entry takes arbitrary bytes, drives one parsing stage on them entirely in
//! memory (nothing is written; the definition is parsed as if it sat at a fixed path
//! that does not exist) and throws the result away: the contract under test is only
//! that every input returns — no panic, no hang, no unbounded memory. Not a stable
//! API; hidden from the docs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::frameworks::{claude_code, codex, copilot, fast_agent, gemini_cli, kimi, opencode, openhands, tsugite};
use crate::yaml::{self, Loader};

/// Where fuzzed definitions pretend to live. It must not exist, so that the
/// few look-ups a parser makes (history files, `read_text` in templates) find nothing.
const FAKE_DIR: &str = "/nonexistent-agentry-fuzz";

/// An entry function: bytes in, nothing out; returning is the whole contract.
pub type Entry = fn(&[u8]);

/// Every fuzz target by name, as `cargo fuzz run <name>` and the corpus folders call
/// them.
pub const TARGETS: &[(&str, Entry)] = &[
    ("yaml", yaml),
    ("frontmatter", frontmatter),
    ("agentcard_bundle", agentcard_bundle),
    ("openhands", openhands),
    ("tsugite", tsugite),
    ("fast_agent", fast_agent),
    ("kimi", kimi),
    ("opencode", opencode),
    ("qwen_code", qwen_code),
    ("copilot", copilot),
    ("tsugite_template", tsugite_template),
    ("kimi_code", kimi_code),
    ("claude_code", claude_code),
    ("gemini_cli", gemini_cli),
    ("codex", codex),
];

/// Bytes as the text layers see them: the frameworks decode strictly, but the YAML
/// and front-matter layers take `&str`, so invalid UTF-8 is replaced rather than
/// wasted.
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The YAML layer: `load_all` under both PyYAML loaders (they differ in the
/// scanner), `load` under one chosen by the input's length, and the JSON view of
/// every value built.
pub fn yaml(data: &[u8]) {
    let text = text(data);
    for loader in [Loader::Safe, Loader::CSafe] {
        if let Ok(docs) = yaml::load_all_with(&text, loader) {
            for node in docs.iter().flatten() {
                let _ = node.value.to_json();
            }
        }
    }
    let loader = if data.len() % 2 == 0 { Loader::Safe } else { Loader::CSafe };
    if let Ok(Some(node)) = yaml::load_with(&text, loader) {
        let _ = crate::py::repr(&node.value);
    }
}

/// python-frontmatter's split, as OpenHands and fast-agent read Markdown.
pub fn frontmatter(data: &[u8]) {
    let text = text(data);
    let split = crate::frontmatter::split(&text);
    let _ = split.front.map(|f| f.text.len() + f.line_offset as usize);
}

/// The AgentCard RFC bundle splitter: the file read as a YAML bundle and as a
/// Markdown bundle, and each card it yields checked as the RFC dialect does.
pub fn agentcard_bundle(data: &[u8]) {
    let env = fast_agent::raw::Env::new();
    for kind in [fast_agent::parse::FileKind::Yaml, fast_agent::parse::FileKind::Markdown] {
        if let Ok(cards) = fast_agent::rfc::parse(kind, data, &env) {
            let in_bundle = cards.len() > 1;
            for (_, raw) in &cards {
                let _ = fast_agent::rfc::check_card(raw, in_bundle);
            }
        }
    }
}

/// One OpenHands agent file (`agents/<stem>.md`).
pub fn openhands(data: &[u8]) {
    let _ = openhands::definition::parse(data, "agent", "project:agents/agent.md", std::path::Path::new("agent.md"), crate::frameworks::Prompts::HELD);
}

/// One tsugite agent file: decoding, its own front-matter split, YAML and the
/// `AgentConfig` schema (no inheritance, no render: see [`tsugite_template`]).
pub fn tsugite(data: &[u8]) {
    let path = Path::new(FAKE_DIR).join("agent.md");
    if let Ok(text) = tsugite::parse::decode_text(&path, data) {
        let _ = tsugite::parse::parse_agent(&text, &path, "project:agent.md", held_body);
    }
}

/// One fast-agent card as the released loader reads it, YAML and Markdown, then
/// validated into a card.
pub fn fast_agent(data: &[u8]) {
    use fast_agent::parse::FileKind;
    use fast_agent::validate::{CardContext, InstructionRule};
    let env = fast_agent::raw::Env::new();
    let dir = PathBuf::from(FAKE_DIR);
    let exists = |_: &Path| false;
    let resolve = |_: &Path| None;
    let source_key = |p: &Path| format!("project:{}", p.display());
    for (kind, name) in [(FileKind::Yaml, "card.yaml"), (FileKind::Markdown, "card.md")] {
        let Ok(raw) = fast_agent::parse::released(kind, data, &env) else { continue };
        let path = dir.join(name);
        let cx = CardContext {
            path: &path,
            bytes: data,
            prompts: crate::frameworks::Prompts::HELD,
            home: &dir,
            date: "15 January 2025",
            rule: InstructionRule::Released,
            exists: &exists,
            resolve: &resolve,
            source_key: &source_key,
        };
        let _ = fast_agent::validate::build(raw, &cx);
    }
}

/// One Gemini CLI agent file: its front-matter splitter, js-yaml `load` and the
/// agent schemas.
pub fn gemini_cli(data: &[u8]) {
    let _ = gemini_cli::schema::parse(data);
}

/// One Qwen Code agent file: `parseSubagentContent`, its YAML with the line-parser
/// fallback, and the validator.
pub fn qwen_code(data: &[u8]) {
    let _ = crate::frameworks::qwen_code::parse_definition(data, std::path::Path::new("agent.md"), crate::frameworks::Prompts::HELD);
}

/// One Kimi agent spec file.
pub fn kimi(data: &[u8]) {
    let _ = kimi::spec::parse(&Path::new(FAKE_DIR).join("agent.yaml"), data);
}

/// One Kimi Code agent file: front matter split, js-yaml emulation, field rules.
pub fn kimi_code(data: &[u8]) {
    let text = text(data);
    let _ = crate::frameworks::kimi_code::agent_file::parse(&text, "/nonexistent-agentry-fuzz/agent.md", "agent.md");
    let _ = crate::jsyaml::load(&text, crate::jsyaml::Version::V4).map(|v| crate::frameworks::kimi_code::agent_file::shown_json(&v));
}

/// One Copilot CLI agent file: strict UTF-8, its front-matter split, serde_yaml,
/// the key checks and the tool mapping.
pub fn copilot(data: &[u8]) {
    let _ = copilot::read_bytes(data, "fuzz--agent");
}

/// OpenCode's parsers: a Markdown agent file (gray-matter, js-yaml, OpenCode's
/// fallback, the schema) and a JSON(C) config with its agent maps.
pub fn opencode(data: &[u8]) {
    opencode::parse_for_fuzzing(data);
}

/// tsugite's template renderer, bounded by fuel and an output cap: the input is an
/// agent file if it parses as one (so `instructions` and `run_if` get fuzzed too),
/// else the body of an agent with a minimal front matter.
pub fn tsugite_template(data: &[u8]) {
    let path = Path::new(FAKE_DIR).join("agent.md");
    let text = text(data);
    let parsed = tsugite::parse::parse_agent(&text, &path, "project:agent.md", held_body).or_else(|_| {
        tsugite::parse::parse_agent(&format!("---\nname: fuzz\n---\n{text}"), &path, "project:agent.md", held_body)
    });
    let Ok(parsed) = parsed else { return };
    let inputs = tsugite::render::Inputs {
        user_prompt: "<user prompt>".into(),
        cwd: "<project>".into(),
        interactive: data.len() % 2 == 1,
        world: tsugite::jinja::World {
            now: tsugite::EXPORT_CLOCK,
            micros: 0,
            env: BTreeMap::from([("HOME".to_string(), "/home/fuzz".to_string())]),
            cwd: "<project>".into(),
            base_dir: PathBuf::from(FAKE_DIR),
        },
    };
    let Ok(body) = parsed.body.read() else { return };
    let _ = tsugite::render::prepare(&parsed.config(), &body, &inputs);
}

/// A tsugite body kept as the command line keeps it.
fn held_body(body: &str) -> tsugite::parse::Body {
    tsugite::parse::Body::Held(body.into())
}

/// One Codex role file (discovered, and as a table's `config_file`), and the same
/// bytes as a `config.toml` with `[agents.*]` tables.
pub fn codex(data: &[u8]) {
    let _ = codex::role::parse_role_file(data, "/nonexistent-agentry-fuzz/agents/role.toml", None);
    let _ = codex::role::parse_role_file(data, "/nonexistent-agentry-fuzz/role.toml", Some("role"));
    let _ = codex::role::read_config(data, "/nonexistent-agentry-fuzz/config.toml");
}

/// One Claude Code agent file: the front matter split, Bun-compatible YAML with its
/// lenient retry, validation and the tools it would be spawned with; then the same
/// bytes as a plugin's agent, which always loads.
pub fn claude_code(data: &[u8]) {
    let _ = claude_code::definition::parse_file(data);
    let _ = claude_code::definition::parse_plugin_file(data, "fuzz", &["sub".to_string()], "agent", FAKE_DIR);
}
