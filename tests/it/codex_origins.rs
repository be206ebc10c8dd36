//! The origins of a Codex role filled from three sources (its hostile role files
//! are in the bad-input matrix, `bad_inputs/`).

use crate::support;

use std::path::Path;

use support::Scratch;

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// A role whose nicknames, description and role file come from three files (the
/// working folder's layer, the root's, the user's): `agentry show NAME --origins`
/// names each field's file and line, and the chain lists the three in order.
#[test]
fn show_origins_names_each_fields_file_for_a_role_filled_from_three_layers() {
    let root = Scratch::new("codex-origins");
    write(&root.join("home/.codex/agents/rev.toml"), b"name = \"rev\"\ndescription = \"user words\"\ndeveloper_instructions = \"review\"\nmodel = \"gpt-5\"\n");
    write(&root.join("project/.codex/config.toml"), b"[agents.rev]\ndescription = \"root words\"\n");
    write(&root.join("project/sub/.codex/config.toml"), b"# nearest\n[agents.rev]\nnickname_candidates = [\"Ada\"]\n");
    std::fs::create_dir_all(root.join("builtins")).expect("builtins");
    let cwd = root.join("project/sub");
    let out = support::run_agentry(&root, "builtins", &["show", "rev", "--origins", "-e", "codex", "--cwd", cwd.to_str().expect("utf-8")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("chain: project:sub/.codex/config.toml#rev → project:.codex/config.toml#rev → user:.codex/agents/rev.toml"), "{text}");
    let row = |key: &str| text.lines().find(|l| l.split_whitespace().nth(2) == Some(key)).unwrap_or_else(|| panic!("no {key} row in {text}")).to_string();
    let nick = row("nickname_candidates");
    assert!(nick.starts_with("project:sub/.codex/config.toml#rev:3") && nick.contains("own"), "{nick}");
    let desc = row("description");
    assert!(desc.starts_with("project:.codex/config.toml#rev:2") && desc.contains("filled from the project layer (.codex)"), "{desc}");
    let model = row("model");
    assert!(model.starts_with("user:.codex/agents/rev.toml:4") && model.contains("filled from the user layer"), "{model}");
    assert!(text.contains("--- system prompt ---\nreview"), "{text}");
}
