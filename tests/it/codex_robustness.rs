//! The codex reader on hostile role files: none crashes it or hides the good role
//! next to it, and each broken file is a diagnostic naming the file (and its line
//! where the bytes have one). Plus the origins of a role filled from three sources.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Catalog, Roots, Status};
use support::Scratch;

fn load_codex(root: &Path) -> Catalog {
    let mut roots = Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(support::empty_dir()));
    roots.listing = agentry::model::ListingOrder::Name;
    let opts = LoadOptions {
        roots,
        ecosystems: vec!["codex".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    load(&opts, &FileCache::new(), 1)
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

#[test]
fn hostile_role_files_are_diagnosed_and_the_good_role_still_loads() {
    let root = Scratch::new("codex-hostile");
    let agents = root.join("home/.codex/agents");
    std::fs::create_dir_all(root.join("project")).expect("project");
    write(&agents.join("good.toml"), b"name = \"good\"\ndescription = \"fine\"\ndeveloper_instructions = \"ok\"\n");
    let mut binary = b"name = \"bin\"\n".to_vec();
    binary.extend((0..4096u32).map(|i| (i * 7919 % 256) as u8));
    let mut deep = b"name = \"deep\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\nv = ".to_vec();
    deep.extend(std::iter::repeat_n(b'[', 20_000));
    deep.extend(std::iter::repeat_n(b']', 20_000));
    let mut huge = b"name = \"huge\"\ndescription = \"h\"\ndeveloper_instructions = \"".to_vec();
    huge.extend(std::iter::repeat_n(b'x', 4 << 20));
    huge.extend(b"\nunclosed\n");
    let hostile: [(&str, Vec<u8>); 6] = [
        ("binary.toml", binary),
        ("latin1.toml", b"name = \"latin1\"\ndescription = \"caf\xe9\"\ndeveloper_instructions = \"x\"\n".to_vec()),
        ("utf16.toml", b"\xff\xfen\x00a\x00m\x00e\x00".to_vec()),
        ("crlf-bad.toml", b"name = \"crlf\"\r\ndescription = \"d\r\n".to_vec()),
        ("deep.toml", deep),
        ("huge.toml", huge),
    ];
    for (name, bytes) in &hostile {
        write(&agents.join(name), bytes);
    }
    // A folder that links back to its parent, and a BOM'd role that is fine.
    #[cfg(unix)]
    std::os::unix::fs::symlink("..", agents.join("loop")).expect("symlink");
    write(&agents.join("bom.toml"), b"\xef\xbb\xbfname = \"bom\"\r\ndescription = \"b\"\r\ndeveloper_instructions = \"\"\"\r\nkept\r\n\"\"\"\r\n");

    let catalog = load_codex(&root);
    let report = &catalog.reports[0];
    let active = |name: &str| report.agents.iter().find(|a| a.name == name && a.status == Status::Wins);
    assert!(active("good").is_some(), "the good role loads: {:#?}", report.agents);
    let bom = active("bom").expect("a BOM is accepted");
    assert_eq!(bom.field("developer_instructions").map(|f| f.value.to_json()), Some("kept\r\n".into()));
    for (name, _) in &hostile {
        let path = agents.join(name);
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.path == path)
            .unwrap_or_else(|| panic!("no diagnostic for {name}: {:#?}", report.diagnostics));
        assert!(d.line.is_some(), "{name}: the diagnostic has a line: {d:?}");
        assert!(d.source.is_some(), "{name}: reported as the file's error: {d:?}");
    }
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
