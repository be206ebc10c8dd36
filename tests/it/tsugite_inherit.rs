//! Tsugite's inheritance chain (each merged field's file, line and rule) and the
//! folders it searches (its bad inputs are in `bad_inputs/`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::Roots;

fn workspace(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agentry-tsugite-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("project/agents")).expect("temp dir");
    std::fs::create_dir_all(dir.join("home")).expect("temp dir");
    std::fs::create_dir_all(dir.join("builtin")).expect("temp dir");
    dir
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

fn report(dir: &Path) -> agentry::model::EcosystemReport {
    let opts = LoadOptions {
        roots: Roots::new(dir.join("project"), dir.join("home"), dir.join("home/.config"), Some(dir.join("builtin"))),
        ecosystems: vec!["tsugite".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    std::sync::Arc::unwrap_or_clone(load(&opts, &FileCache::new(), 1).reports.remove(0))
}

#[test]
fn a_three_level_chain_names_file_line_and_rule_of_every_merged_field() {
    let dir = workspace("chain");
    let agents = dir.join("project/agents");
    write(
        &agents.join("grand.md"),
        b"---\nname: grand\nextends: none\ntools: [read_file]\nmodel_kwargs: {a: 1}\n---\nG",
    );
    write(
        &agents.join("parent.md"),
        b"---\nname: parent\nextends: grand\ntools: [run]\nmax_turns: 9\n---\nP",
    );
    write(
        &agents.join("child.md"),
        b"---\nname: child\nextends: parent\n\ntools: [read_file, write_file]\n---\nC",
    );
    let r = report(&dir);
    let child = r.agents.iter().find(|a| a.name == "child").expect("child");
    assert_eq!(
        *child.chain,
        [
            "project:agents/child.md",
            "project:agents/parent.md",
            "project:agents/grand.md"
        ]
    );
    let tools = child.field("tools").expect("tools");
    assert_eq!(
        tools.value.to_json(),
        serde_json::json!(["read_file", "run", "write_file"])
    );
    let lines: Vec<_> = tools
        .origin
        .sites
        .iter()
        .map(|s| (&*s.source, s.line))
        .collect();
    assert_eq!(
        lines,
        [
            ("project:agents/grand.md", Some(4)),
            ("project:agents/parent.md", Some(4)),
            ("project:agents/child.md", Some(5))
        ]
    );
    assert!(
        tools.origin.rule.starts_with("union"),
        "{}",
        tools.origin.rule
    );
    let turns = child.field("max_turns").expect("max_turns");
    assert_eq!(turns.origin.sites[0].line, Some(5));
    assert!(
        turns
            .origin
            .rule
            .contains("inherited from agents/parent.md:5"),
        "{}",
        turns.origin.rule
    );
    let kwargs = child.field("model_kwargs").expect("model_kwargs");
    assert_eq!(&*kwargs.origin.sites[0].source, "project:agents/grand.md");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn searched_folders_include_the_project_list_and_each_agent_folder() {
    let dir = workspace("searched");
    write(&dir.join("project/agents/a.md"), b"---\nname: a\n---\nA");
    let r = report(&dir);
    let paths: Vec<PathBuf> = r.places.iter().map(|s| s.dir.clone()).collect();
    let project = dir.join("project");
    assert_eq!(paths[0], project.join(".tsugite"), "{paths:?}");
    assert!(
        paths.contains(&dir.join("home/.config/tsugite/agents")),
        "missing folders are listed too"
    );
    let real_agents = std::fs::canonicalize(project.join("agents")).expect("agents");
    assert!(
        paths.contains(&real_agents.join(".tsugite")),
        "the implicit base of agents/a.md is looked up in agents/.tsugite: {paths:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
