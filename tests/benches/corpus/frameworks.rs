//! One generator per framework, each writing the shapes real repositories have:
//! shadowing (OpenHands, Tsugite), inheritance chains (Tsugite `extends`, Kimi
//! `extend`), Kimi subagent trees, fast-agent bundles and workflow cards naming
//! other agents, Jinja templates and message blocks, and a share of broken files.

use super::rng::Rng;
use super::text::{body, body_size, broken_markdown, sentence, word, yaml_list, MODELS, TOOLS};
use super::Writer;

pub fn openhands(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    const DIRS: &[(&str, &str)] = &[
        ("project", ".agents/agents"),
        ("project", ".openhands/agents"),
        ("home", ".agents/agents"),
        ("home", ".openhands/agents"),
    ];
    let mut names: Vec<String> = Vec::new();
    for i in 0..n {
        let name = if !names.is_empty() && rng.random() < 0.2 {
            rng.choice(&names).clone() // defined again elsewhere: shadowing
        } else {
            let name = format!("oh-{}-{i}", word(rng));
            names.push(name.clone());
            name
        };
        let (scope, dir) = *rng.choice(DIRS);
        let rel = format!("{scope}/{dir}/{name}.md");
        if rng.random() < broken {
            let bytes = broken_markdown(rng);
            w.write(&rel, &bytes);
            continue;
        }
        let examples: Vec<String> =
            (0..rng.randint(0, 3)).map(|_| format!("  <example>{}</example>", sentence(rng, 5))).collect();
        let k = rng.randint(0, 4);
        let tools = rng.sample(TOOLS, k);
        let mut fm = format!(
            "name: {name}\ndescription: |\n  {}\n{}\ntools:\n{}\nmodel: {}\ncolor: {}\n",
            sentence(rng, 12),
            examples.join("\n"),
            yaml_list(&tools, "  "),
            rng.choice(MODELS),
            rng.choice(&["blue", "green", "purple", "red"]),
        );
        if rng.random() < 0.3 {
            fm += &format!("audience: {}\n", word(rng));
        }
        let size = body_size(rng);
        w.write(&rel, format!("---\n{fm}---\n\n{}", body(rng, size)).as_bytes());
    }
}

pub fn tsugite(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    w.write(
        "project/.tsugite/default.md",
        b"---\nname: default\ntools:\n  - read_file\n  - list_directory\nmax_turns: 10\n\
          instructions: |\n  Follow the project conventions.\n---\n\nYou help with {{ user_prompt }}.\n",
    );
    const LOCATIONS: &[&str] = &[".tsugite", ".tsugite/agents", "agents", ""];
    let mut bases: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for i in 0..n {
        let name = if !names.is_empty() && rng.random() < 0.15 {
            rng.choice(&names).clone()
        } else {
            let name = format!("ts_{}_{i}", word(rng));
            names.push(name.clone());
            name
        };
        let rel = if rng.random() < 0.1 {
            format!("xdg/tsugite/agents/{name}.md")
        } else {
            match *rng.choice(LOCATIONS) {
                "" => format!("project/{name}.md"),
                loc => format!("project/{loc}/{name}.md"),
            }
        };
        if rng.random() < broken {
            let bytes = broken_markdown(rng);
            w.write(&rel, &bytes);
            continue;
        }
        let mut fm = vec![format!("name: {name}"), format!("description: {}", sentence(rng, 8))];
        let r = rng.random();
        if r < 0.1 {
            fm.push("extends: none".into());
        } else if r < 0.6 && !bases.is_empty() {
            fm.push(format!("extends: {}", rng.choice(&bases)));
        }
        let k = rng.randint(1, 4);
        fm.push(format!("tools:\n{}", yaml_list(&rng.sample(TOOLS, k), "  ")));
        if rng.random() < 0.5 {
            fm.push(format!("max_turns: {}", rng.randint(3, 30)));
        }
        if rng.random() < 0.4 {
            fm.push(format!(
                "instructions: |\n  {}\n  {{% if user_prompt %}}Task: {{{{ user_prompt }}}}{{% endif %}}",
                sentence(rng, 12)
            ));
        }
        if rng.random() < 0.2 {
            fm.push("prefetch:\n  - tool: read_file\n    args: {path: README.md}\n    assign: readme".into());
        }
        let size = body_size(rng);
        let mut text = body(rng, size);
        if rng.random() < 0.3 {
            text = format!(
                "<!-- tsu:ignore -->\nNotes for maintainers: {}\n<!-- /tsu:ignore -->\n\n{text}",
                sentence(rng, 12)
            );
        }
        if rng.random() < 0.15 {
            text += "\n<!-- tsu:step name=\"research\" assign=\"findings\" -->\nResearch {{ user_prompt }}.\n\
                     \n<!-- tsu:step name=\"write\" -->\nUse {{ findings }}.\n";
        }
        w.write(&rel, format!("---\n{}\n---\n\n{text}", fm.join("\n")).as_bytes());
        if rel.starts_with("project/agents/") && rng.random() < 0.3 {
            bases.push(name);
        }
    }
}

pub fn fast_agent(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    let mut made: Vec<String> = Vec::new();
    let mut i = 0;
    while i < n {
        let kind = rng.random();
        if kind < 0.4 {
            // a single Markdown card
            let name = format!("fa-{}-{i}", word(rng));
            let rel = format!("project/.fast-agent/agent-cards/{name}.md");
            if rng.random() < broken {
                let bytes = broken_markdown(rng);
                w.write(&rel, &bytes);
            } else {
                let model = rng.choice(&MODELS[1..]);
                let size = body_size(rng);
                let mut text = format!("---\ntype: agent\nname: {name}\nmodel: {model}\n---\n{}", body(rng, size));
                if rng.random() < 0.3 {
                    text += &format!("\n---USER\n{}\n\n---ASSISTANT\n{}\n", sentence(rng, 12), sentence(rng, 12));
                }
                w.write(&rel, text.as_bytes());
                made.push(name);
            }
            i += 1;
        } else if kind < 0.7 {
            // a Markdown bundle of several cards
            let k = rng.randint(2, 5);
            let mut parts = Vec::new();
            for _ in 0..k {
                let name = format!("fa-{}-{i}", word(rng));
                let size = body_size(rng) / 2;
                parts.push(format!(
                    "---\ntype: agent\nname: {name}\n---\n{}\n---\n\nA horizontal rule above is not a card boundary.\n",
                    body(rng, size)
                ));
                made.push(name);
                i += 1;
            }
            w.write(&format!("project/.fast-agent/agent-cards/bundle-{i}.md"), parts.join("\n").as_bytes());
        } else if kind < 0.9 {
            // a YAML card, or a multi-document bundle
            let k = rng.randint(1, 3);
            let mut docs = Vec::new();
            for _ in 0..k {
                let name = format!("fa-{}-{i}", word(rng));
                docs.push(format!(
                    "type: agent\nname: {name}\ninstruction: |\n  {}\n  {}\n",
                    sentence(rng, 12),
                    sentence(rng, 12)
                ));
                made.push(name);
                i += 1;
            }
            w.write(
                &format!("project/.fast-agent/agent-cards/cards-{i}.yaml"),
                format!("---\n{}", docs.join("---\n")).as_bytes(),
            );
        } else if made.len() >= 2 {
            // a workflow card naming other agents
            let name = format!("fa-chain-{i}");
            let k = rng.randint(2, 4).min(made.len());
            let seq = yaml_list(&rng.sample(&made, k), "  ");
            let text = format!("type: chain\nname: {name}\nsequence:\n{seq}\ninstruction: {}\n", sentence(rng, 6));
            w.write(&format!("project/.fast-agent/agent-cards/{name}.yaml"), text.as_bytes());
            made.push(name);
            i += 1;
        }
    }
}

pub fn kimi(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    const ROLES: &[&str] = &["lead", "coder", "reviewer", "planner"];
    let teams = (n / 4).max(1);
    let mut files = 0;
    for t in 0..teams {
        for role in ROLES {
            if files >= n {
                break;
            }
            files += 1;
            let dir = format!("project/kimi/team{t}/{role}");
            if rng.random() < broken {
                w.write(&format!("{dir}/agent.yaml"), b"version: 1\nagent: [broken\n");
                continue;
            }
            let size = body_size(rng);
            let system = format!("You are the {role} of team {t}. ${{ROLE_NOTE}}\n\n{}", body(rng, size));
            w.write(&format!("{dir}/system.md"), system.as_bytes());
            let mut lines = vec!["version: 1".to_string(), "agent:".to_string()];
            if *role != "lead" && rng.random() < 0.7 {
                lines.push("  extend: ../lead/agent.yaml".into());
                lines.push(format!("  name: team{t}-{role}"));
                lines.push(format!("  system_prompt_args:\n    ROLE_NOTE: \"{}\"", sentence(rng, 6)));
                if rng.random() < 0.5 {
                    lines.push("  system_prompt_path: ./system.md".into());
                }
            } else {
                lines.push(format!("  name: team{t}-{role}"));
                lines.push("  system_prompt_path: ./system.md".into());
                lines.push(format!("  system_prompt_args:\n    ROLE_NOTE: \"{}\"", sentence(rng, 6)));
                let tools: Vec<String> = rng.sample(TOOLS, 3).iter().map(|t| format!("kimi_cli.tools.{t}")).collect();
                lines.push(format!("  tools:\n{}", yaml_list(&tools, "    ")));
            }
            if *role == "lead" {
                lines.push("  subagents:".into());
                for sub in &ROLES[1..] {
                    lines.push(format!(
                        "    {sub}:\n      path: ../{sub}/agent.yaml\n      description: {}",
                        sentence(rng, 6)
                    ));
                }
            }
            w.write(&format!("{dir}/agent.yaml"), format!("{}\n", lines.join("\n")).as_bytes());
        }
    }
}

/// Gemini CLI agents: project and user `.gemini/agents` and one extension, names
/// defined again elsewhere (shadowing), tool lists of the CLI's own names, a few
/// remote agents with inline cards and a few Claude-format files the strict schema
/// rejects.
pub fn gemini_cli(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    const DIRS: &[&str] = &["project/.gemini/agents", "home/.gemini/agents", "home/.gemini/extensions/bench-kit/agents"];
    const GEMINI_TOOLS: &[&str] = &["read_file", "grep_search", "glob", "list_directory", "run_shell_command", "web_fetch", "replace", "write_file"];
    if n > 0 {
        w.write("home/.gemini/extensions/bench-kit/gemini-extension.json", b"{\"name\": \"bench-kit\", \"version\": \"1.0.0\"}\n");
    }
    let mut names: Vec<String> = Vec::new();
    for i in 0..n {
        let name = if !names.is_empty() && rng.random() < 0.2 {
            rng.choice(&names).clone()
        } else {
            let name = format!("gm-{}-{i}", word(rng));
            names.push(name.clone());
            name
        };
        let dir = *rng.choice(DIRS);
        let rel = format!("{dir}/{name}-{i}.md");
        if rng.random() < broken {
            w.write(&rel, &broken_markdown(rng));
            continue;
        }
        let kind = rng.random();
        let fm = if kind < 0.05 {
            format!("kind: remote\nname: {name}\ndescription: {}\nagent_card_json: '{{\"name\":\"{name}\",\"description\":\"{}\",\"skills\":[]}}'\n", sentence(rng, 8), sentence(rng, 6))
        } else if kind < 0.10 {
            format!("name: {name}\ndescription: {}\ntools: Read, Grep\ncolor: blue\n", sentence(rng, 8))
        } else {
            let k = rng.randint(0, 4);
            let tools = rng.sample(GEMINI_TOOLS, k);
            format!("name: {name}\ndescription: {}\ntools:\n{}\nmodel: {}\nmax_turns: {}\n", sentence(rng, 12), yaml_list(&tools, "  "), rng.choice(MODELS), rng.randint(5, 40))
        };
        let size = body_size(rng);
        w.write(&rel, format!("---\n{fm}---\n\n{}", body(rng, size)).as_bytes());
    }
}

/// Codex roles: files under `~/.codex/agents/` and the project's `.codex/agents/`
/// (team subfolders), a fifth of them redefined in the project layer (half of those
/// without a description, filled from the user's), `[agents.NAME]` tables in both
/// `config.toml` files (half pointing at a role file), and a share of broken files.
pub fn codex(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    let mut names: Vec<String> = Vec::new();
    let mut tables = [String::new(), String::new()];
    // A name gets one table per config.toml: a second would be a TOML error, which
    // stops Codex (and agentry's reading of it) altogether.
    let mut tabled: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for i in 0..n {
        let redefine = !names.is_empty() && rng.random() < 0.2;
        let name = if redefine {
            rng.choice(&names).clone()
        } else {
            let name = format!("cx-{}-{i}", word(rng));
            names.push(name.clone());
            name
        };
        let (layer, scope) = if redefine || rng.random() < 0.5 { (1, "project") } else { (0, "home") };
        let size = body_size(rng);
        let instructions = body(rng, size).replace("'''", "''");
        if rng.random() < 0.15 && !tabled[layer].contains(&name) {
            tabled[layer].push(name.clone());
            let t = &mut tables[layer];
            t.push_str(&format!("\n[agents.{name}]\ndescription = \"{}\"\n", sentence(rng, 8)));
            if rng.random() < 0.5 {
                w.write(&format!("{scope}/.codex/roles/{name}.toml"), format!("developer_instructions = '''\n{instructions}'''\n").as_bytes());
                t.push_str(&format!("config_file = \"roles/{name}.toml\"\n"));
            }
            continue;
        }
        let rel = format!("{scope}/.codex/agents/team{}/{name}-{i}.toml", i % 13);
        if rng.random() < broken {
            let bytes: &[u8] = if rng.random() < 0.5 { b"name = \"unterminated\ndescription = \"x\"\n" } else { b"name = \"x\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\ncolor = \"red\"\n" };
            w.write(&rel, bytes);
            continue;
        }
        let mut text = format!("name = \"{name}\"\n");
        if !(redefine && rng.random() < 0.5) {
            text += &format!("description = \"{}\"\n", sentence(rng, 10));
        }
        if rng.random() < 0.4 {
            text += &format!("model = \"{}\"\n", rng.choice(MODELS));
        }
        text += &format!("developer_instructions = '''\n{instructions}'''\n");
        w.write(&rel, text.as_bytes());
    }
    for (table, scope) in tables.iter().zip(["home", "project"]) {
        if !table.is_empty() {
            w.write(&format!("{scope}/.codex/config.toml"), table.as_bytes());
        }
    }
}

/// Copilot CLI agents: the user folder, `.github/agents` (with team sub-folders,
/// so `--` IDs) and `.claude/agents`, the same ID in several trees, `name` keys
/// unlike the file name, tool lists as lists and comma strings, unknown keys.
pub fn copilot(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    const DIRS: &[(&str, &str)] = &[
        ("home", ".copilot/agents"),
        ("project", ".github/agents"),
        ("project", ".github/agents/team"),
        ("project", ".claude/agents"),
    ];
    let mut ids: Vec<String> = Vec::new();
    for i in 0..n {
        let id = if !ids.is_empty() && rng.random() < 0.2 {
            rng.choice(&ids).clone() // the same ID in another tree: shadowing
        } else {
            let id = format!("cp-{}-{i}", word(rng));
            ids.push(id.clone());
            id
        };
        let (scope, dir) = *rng.choice(DIRS);
        let suffix = if dir.starts_with(".claude") || rng.random() < 0.3 { ".md" } else { ".agent.md" };
        let rel = format!("{scope}/{dir}/{id}{suffix}");
        if rng.random() < broken {
            let bytes = broken_markdown(rng);
            w.write(&rel, &bytes);
            continue;
        }
        let k = rng.randint(0, 4);
        let tools = rng.sample(TOOLS, k);
        let mut fm = format!("description: {}\n", sentence(rng, 10));
        if rng.random() < 0.5 {
            fm += &format!("name: {}\n", word(rng));
        }
        if tools.is_empty() {
            fm += "tools: []\n";
        } else if rng.random() < 0.5 {
            fm += &format!("tools: {}\n", tools.join(", "));
        } else {
            fm += &format!("tools:\n{}\n", yaml_list(&tools, "  "));
        }
        if rng.random() < 0.4 {
            fm += &format!("model: {}\n", rng.choice(MODELS));
        }
        if rng.random() < 0.2 {
            fm += "color: blue\n";
        }
        let size = body_size(rng);
        w.write(&rel, format!("---\n{fm}---\n\n{}", body(rng, size)).as_bytes());
    }
}

/// Qwen Code subagents: the start folder's `.qwen/agents`, `~/.qwen/agents` and two
/// extensions, names redefined in other places and other letter cases (Qwen compares
/// them case-insensitively), comma tool strings, a share of front matter its YAML
/// parser rejects (read by its line parser) and of broken files.
pub fn qwen_code(w: &mut Writer, rng: &mut Rng, n: usize, broken: f64) {
    const DIRS: &[&str] = &[
        "project/.qwen/agents",
        "home/.qwen/agents",
        "home/.qwen/extensions/bench-kit/agents",
        "home/.qwen/extensions/team-kit/agents",
    ];
    for ext in ["bench-kit", "team-kit"] {
        w.write(&format!("home/.qwen/extensions/{ext}/qwen-extension.json"), format!("{{\"name\": \"{ext}\", \"version\": \"1.0.0\"}}\n").as_bytes());
    }
    let mut names: Vec<String> = Vec::new();
    for i in 0..n {
        let name = if !names.is_empty() && rng.random() < 0.2 {
            let name = rng.choice(&names).clone();
            if rng.random() < 0.5 { name.to_uppercase() } else { name }
        } else {
            let name = format!("qw-{}-{i}", word(rng));
            names.push(name.clone());
            name
        };
        let dir = *rng.choice(DIRS);
        let rel = format!("{dir}/{i}-{}.md", name.to_lowercase());
        if rng.random() < broken {
            w.write(&rel, &broken_markdown(rng));
            continue;
        }
        let k = rng.randint(0, 4);
        let tools = rng.sample(TOOLS, k).join(", ");
        let mut fm = format!("name: {name}\ndescription: {}\ntools: {tools}\nmodel: {}\n", sentence(rng, 12), rng.choice(MODELS));
        if rng.random() < 0.2 {
            fm += "permissionMode: acceptEdits\nmaxTurns: 12\n";
        }
        if rng.random() < 0.05 {
            fm += "notes: [unclosed\n";
        }
        let size = body_size(rng);
        w.write(&rel, format!("---\n{fm}---\n\n{}", body(rng, size)).as_bytes());
    }
}
