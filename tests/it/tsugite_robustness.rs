//! Bad input never crashes the tsugite loader and never hides the rest of the
//! workspace: each broken file becomes a diagnostic with its file (and line where one
//! exists), and the good agents next to it still load and render.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, Roots, Status, Text};

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
fn broken_files_are_diagnostics_and_the_rest_still_loads() {
    let dir = workspace("bad");
    let agents = dir.join("project/agents");
    write(
        &agents.join("good.md"),
        b"---\nname: good\nextends: none\n---\nHello {{ user_prompt }}.",
    );
    write(&agents.join("yaml.md"), b"---\nname: [unclosed\n---\nbody");
    write(
        &agents.join("binary.md"),
        b"---\nname: x\n---\n\xff\xfe\x00\x01",
    );
    write(
        &agents.join("unknown.md"),
        b"---\nname: u\ncolour: red\n---\n",
    );
    write(
        &agents.join("loop.md"),
        b"---\nname: loop\nextends: none\n---\n{% for i in range(999999999) %}x{% endfor %}",
    );
    write(
        &agents.join("cyc_a.md"),
        b"---\nname: a\nextends: cyc_b\n---\n",
    );
    write(
        &agents.join("cyc_b.md"),
        b"---\nname: b\nextends: cyc_a\n---\n",
    );
    write(
        &agents.join("orphan.md"),
        b"---\nname: o\nextends: nobody\n---\n",
    );
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink("spin.md", agents.join("spin.md"));
        let _ = std::os::unix::fs::symlink("nowhere.md", agents.join("dangling.md"));
    }
    let started = std::time::Instant::now();
    let r = report(&dir);
    assert!(
        started.elapsed().as_secs() < 30,
        "a template loop must end quickly"
    );

    let good = r
        .agents
        .iter()
        .find(|a| a.name == "good")
        .expect("good agent");
    assert_eq!(good.status, Status::Wins);
    assert_eq!(good.system_prompt.as_ref().and_then(Text::as_held), Some(""));

    let kind_of = |name: &str| {
        let key = format!("project:agents/{name}.md");
        r.diagnostics
            .iter()
            .find(|d| d.source.as_deref() == Some(key.as_str()))
            .map(|d| (d.kind, d.line))
    };
    assert_eq!(kind_of("yaml").map(|k| k.0), Some(DiagKind::Parse));
    assert!(
        kind_of("yaml").and_then(|k| k.1).is_some(),
        "YAML errors carry a line"
    );
    assert_eq!(kind_of("binary").map(|k| k.0), Some(DiagKind::Parse));
    assert_eq!(kind_of("unknown"), Some((DiagKind::Validation, Some(3))));
    assert_eq!(kind_of("loop").map(|k| k.0), Some(DiagKind::Template));
    assert_eq!(kind_of("cyc_a"), Some((DiagKind::Cycle, Some(3))));
    assert_eq!(kind_of("orphan"), Some((DiagKind::Missing, Some(3))));
    assert!(
        kind_of("spin").is_none() && kind_of("dangling").is_none(),
        "unreachable links are skipped"
    );
    let _ = std::fs::remove_dir_all(&dir);
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
