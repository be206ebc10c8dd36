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
    ("claude_code_skill", claude_code_skill),
    ("codex_skill", codex_skill),
    ("codex_skill_meta", codex_skill_meta),
    ("copilot_skill", copilot_skill),
    ("gemini_cli_skill", gemini_cli_skill),
    ("kimi_code_skill", kimi_code_skill),
    ("opencode_skill", opencode_skill),
    ("openhands_skill", openhands_skill),
    ("openhands_instructions", openhands_instructions),
    ("qwen_code_skill", qwen_code_skill),
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

// Skill files: each reader's parse of one file, as its skill loader calls it, and
// what the loader derives from the result without the file system (listing texts,
// the body the model gets).

/// One Claude Code skill or command file under each of its four readings (skill,
/// command, plugin skill, plugin command), and the listing text each gives.
pub fn claude_code_skill(data: &[u8]) {
    use claude_code::skill_file::{self, COMMAND, PLUGIN_COMMAND, PLUGIN_SKILL, SKILL};
    for reading in [SKILL, COMMAND, PLUGIN_SKILL, PLUGIN_COMMAND] {
        let def = skill_file::parse(data, reading);
        let _ = def.listing_text();
        for key in skill_file::AS_WRITTEN {
            let _ = (def.value(key), def.line(key));
        }
    }
}

/// One Codex `SKILL.md`, named by its folder and with no folder name.
pub fn codex_skill(data: &[u8]) {
    let _ = codex::skill_file::parse(data, Some("skill"));
    let _ = codex::skill_file::parse(data, None);
}

/// One Codex `agents/openai.yaml` beside a `SKILL.md` (its icons are looked up
/// under the fake folder, where nothing exists).
pub fn codex_skill_meta(data: &[u8]) {
    let _ = codex::skill_meta::parse(data, &Path::new(FAKE_DIR).join("skill"));
}

/// One Copilot CLI `SKILL.md` and the same bytes as a `.claude/commands` file,
/// with the body masked as the model gets it.
pub fn copilot_skill(data: &[u8]) {
    use copilot::skill_file::{self, Form};
    for (form, fallback) in [(Form::Skill, "skill"), (Form::Command, "command")] {
        if let Ok(def) = skill_file::parse(data, form, fallback) {
            let _ = copilot::skill_listing::masked(&def.body);
        }
    }
}

/// One Gemini CLI `SKILL.md`: js-yaml, then the line-by-line fallback.
pub fn gemini_cli_skill(data: &[u8]) {
    let _ = gemini_cli::skill_file::parse(data);
}

/// One Kimi Code skill file as a folder's `SKILL.md` and as a flat `NAME.md`, with
/// its body's placeholders expanded as the skill's prompt is.
pub fn kimi_code_skill(data: &[u8]) {
    let text = text(data);
    for folder_skill in [true, false] {
        if let Ok(def) = crate::frameworks::kimi_code::skill_file::parse(&text, "/nonexistent-agentry-fuzz/skill/SKILL.md", "skill", folder_skill) {
            let _ = crate::frameworks::kimi_code::skills::render_body(&def.content, &def.arguments, "<project>/skill");
        }
    }
}

/// One OpenCode `SKILL.md`: `ConfigMarkdown.parse` and the name and description
/// the scan takes from it.
pub fn opencode_skill(data: &[u8]) {
    let _ = opencode::skills::read(data, |body| crate::model::Text::held(std::sync::Arc::from(body)));
}

/// One OpenHands skill file in a skills folder: a `SKILL.md` (the same bytes as its
/// folder's `.mcp.json`) and a legacy `.md`; each skill that loads goes through the
/// `<available_skills>` listing and the command rendering of its body.
pub fn openhands_skill(data: &[u8]) {
    use openhands::skills::parse::{self, Form, McpJson};
    let skills = Path::new(FAKE_DIR).join(".agents/skills");
    let skill_md = skills.join("fuzz/SKILL.md");
    let legacy = skills.join("team/fuzz.md");
    let env = BTreeMap::from([("HOME".to_string(), "/home/fuzz".to_string())]);
    let held = crate::frameworks::Prompts::HELD;
    let loaded = [
        parse::load(data, &skill_md, Form::AgentSkills, "project:.agents/skills/fuzz/SKILL.md", McpJson::Read(data.into()), &env, held),
        parse::load(data, &legacy, Form::Legacy { skills_dir: &skills }, "project:.agents/skills/team/fuzz.md", McpJson::None, &env, held),
    ];
    for skill in loaded.iter().flatten() {
        let _ = openhands::skills::listing::to_prompt(std::iter::once((skill.name.as_str(), skill.description.as_deref(), &*skill.content_str)));
        let _ = parse::render_body(&skill.content_str);
    }
}

/// One OpenHands instruction file (`AGENTS.md`, `.cursorrules` …): at the root,
/// nested below the working folder, and inside a skills folder, where its name
/// still makes it a third-party file.
pub fn openhands_instructions(data: &[u8]) {
    use openhands::skills::parse::{self, Form, McpJson};
    let root = Path::new(FAKE_DIR);
    let env = BTreeMap::new();
    let held = crate::frameworks::Prompts::HELD;
    let skills = root.join(".openhands/microagents");
    let loaded = [
        parse::load(data, &root.join("AGENTS.md"), Form::ThirdParty, "project:AGENTS.md", McpJson::None, &env, held),
        parse::load(data, &root.join("sub/CLAUDE.md"), Form::Nested { rel_dir: "sub" }, "project:sub/CLAUDE.md", McpJson::None, &env, held),
        parse::load(data, &skills.join(".cursorrules"), Form::Legacy { skills_dir: &skills }, "project:.openhands/microagents/.cursorrules", McpJson::None, &env, held),
    ];
    for skill in loaded.iter().flatten() {
        let _ = parse::render_body(&skill.content_str);
    }
}

/// One Qwen Code `SKILL.md`, as the project's and as an extension's loader read it.
pub fn qwen_code_skill(data: &[u8]) {
    for extension in [false, true] {
        let _ = crate::frameworks::qwen_code::skill_file::parse(data, extension);
    }
}
