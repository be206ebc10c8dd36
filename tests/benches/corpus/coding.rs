//! The coding-agent CLIs' shapes: Markdown agents with front matter in each tool's
//! folders (project and user, with names defined again elsewhere, nested folders
//! and a share of broken files), OpenCode's JSON config overriding some agents
//! field by field, and OpenCode's Markdown agents.

use super::rng::Rng;
use super::text::{body, body_size, broken_markdown, sentence, word, MODELS};
use super::Writer;

/// One Markdown-agent tool: its folders (relative to the workspace root), the
/// file ending, and how its front matter names tools and models.
struct Markdown {
    prefix: &'static str,
    dirs: &'static [&'static str],
    suffix: &'static str,
    /// `tools` as a comma-separated string (Claude Code) instead of a list.
    tools_as_text: bool,
    extra: &'static str,
}

const TOOLS: &[&str] = &["Read", "Grep", "Glob", "Bash", "Edit", "Write", "WebFetch"];

fn markdown(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64, tool: &Markdown) {
    let mut names: Vec<String> = Vec::new();
    for i in 0..n {
        let name = if !names.is_empty() && rng.random() < 0.15 {
            rng.choice(&names).clone()
        } else {
            let name = format!("{}-{}-{i}", tool.prefix, word(rng));
            names.push(name.clone());
            name
        };
        let dir = rng.choice(tool.dirs);
        // A tenth of the files sit one folder down (teams), which some tools read.
        let rel = if rng.random() < 0.1 {
            format!("{dir}/{}/{name}{}", word(rng), tool.suffix)
        } else {
            format!("{dir}/{name}{}", tool.suffix)
        };
        if rng.random() < broken {
            w.write(&rel, &broken_markdown(rng));
            continue;
        }
        let k = rng.randint(0, 4);
        let tools = rng.sample(TOOLS, k);
        let tools = if tool.tools_as_text {
            format!("tools: {}\n", tools.join(", "))
        } else if tools.is_empty() {
            String::new()
        } else {
            format!("tools:\n{}\n", tools.iter().map(|t| format!("  - {}", t.to_lowercase())).collect::<Vec<_>>().join("\n"))
        };
        let fm = format!(
            "name: {name}\ndescription: {}\n{tools}model: {}\n{}",
            sentence(rng, 10),
            rng.choice(MODELS),
            tool.extra
        );
        let size = body_size(rng);
        w.write(&rel, format!("---\n{fm}---\n\n{}", body(rng, size)).as_bytes());
    }
}

pub fn claude_code(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    let tool = Markdown {
        prefix: "cc",
        dirs: &["project/.claude/agents", "project/.claude/agents", "home/.claude/agents", "project/packages/api/.claude/agents"],
        suffix: ".md",
        tools_as_text: true,
        extra: "color: blue\n",
    };
    markdown(w, rng, n, broken, &tool);
}

pub fn kimi_code(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    let tool = Markdown {
        prefix: "kc",
        dirs: &["project/.kimi-code/agents", "home/.kimi-code/agents"],
        suffix: ".md",
        tools_as_text: false,
        extra: "",
    };
    markdown(w, rng, n, broken, &tool);
}

pub fn opencode(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    let tool = Markdown {
        prefix: "oc",
        dirs: &["project/.opencode/agents", "home/.config/opencode/agents"],
        suffix: ".md",
        tools_as_text: false,
        extra: "mode: subagent\n",
    };
    // Markdown agents, then a project config that overrides one in twenty of them
    // field by field (the merge OpenCode does).
    let mut overrides = Vec::new();
    let md = n * 19 / 20;
    markdown(w, rng, md, broken, &tool);
    for i in 0..n - md {
        let name = format!("oc-cfg-{i}");
        overrides.push(format!(
            "    \"{name}\": {{\n      \"description\": \"{}\",\n      \"model\": \"{}\",\n      \"prompt\": \"{}\",\n      \"temperature\": 0.{}\n    }}",
            sentence(rng, 8),
            rng.choice(MODELS),
            sentence(rng, 20),
            rng.randint(1, 9)
        ));
    }
    let config = format!("{{\n  // agents configured in the project\n  \"agent\": {{\n{}\n  }}\n}}\n", overrides.join(",\n"));
    w.write("project/opencode.jsonc", config.as_bytes());
}

/// Skill folders (`NAME/SKILL.md`) in the places most coding-agent CLIs read: the
/// shared `.agents/skills`, Claude Code's `.claude/skills` and `.claude/commands`,
/// Copilot's `.github/skills`, Gemini CLI's `.gemini/skills`, in the project and the
/// home, a sixth of the names defined twice.
pub fn skills(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    const DIRS: &[&str] = &[
        "project/.agents/skills",
        "home/.agents/skills",
        "project/.claude/skills",
        "home/.claude/skills",
        "project/.github/skills",
        "project/.gemini/skills",
    ];
    let mut names: Vec<String> = Vec::new();
    for i in 0..n {
        let name = if !names.is_empty() && rng.random() < 0.16 {
            rng.choice(&names).clone()
        } else {
            let name = format!("sk-{}-{i}", word(rng));
            names.push(name.clone());
            name
        };
        // A twentieth are old-style commands: one Markdown file named like the skill.
        if rng.random() < 0.05 {
            let dir = rng.choice(&["project/.claude/commands", "home/.claude/commands"]);
            let size = body_size(rng);
            w.write(&format!("{dir}/{name}.md"), format!("---\ndescription: {}\n---\n\n{}", sentence(rng, 8), body(rng, size)).as_bytes());
            continue;
        }
        let rel = format!("{}/{name}/SKILL.md", rng.choice(DIRS));
        if rng.random() < broken {
            w.write(&rel, &broken_markdown(rng));
            continue;
        }
        let size = body_size(rng);
        let fm = format!("name: {name}\ndescription: {}\n", sentence(rng, 12));
        w.write(&rel, format!("---\n{fm}---\n\n{}", body(rng, size)).as_bytes());
    }
}
