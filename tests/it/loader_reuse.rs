//! What a refresh recomputes: editing one definition in a watched workspace re-reads
//! that file only, re-parses exactly that definition, and re-resolves exactly it and
//! the definitions built on it (descendants in an inheritance chain), for every
//! framework; the other definitions and frameworks are reused. Counts come from
//! `LoadStats`; the content of the snapshot is checked too (the incremental proptest
//! checks it against cold loads at length).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agentry::frameworks::RenderMode;
use agentry::load::LoadOptions;
use agentry::loader::{LoadStats, Loader, LoaderEvent, WatchMode};
use agentry::model::{Catalog, Roots};

struct Workspace {
    root: PathBuf,
}

impl Workspace {
    fn new(tag: &str, files: &[(&str, &str)]) -> Workspace {
        let root = std::env::temp_dir().join(format!("agentry-reuse-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["project", "home", "builtins"] {
            std::fs::create_dir_all(root.join(dir)).expect("make the workspace");
        }
        let ws = Workspace { root };
        for (rel, text) in files {
            ws.write(rel, text);
        }
        // Folders modified just before the load count as "changed while loading" and
        // get a follow-up load; the test wants the edit's load alone.
        std::thread::sleep(Duration::from_millis(300));
        ws
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root.join("project").join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("make the folder");
        std::fs::write(path, text).expect("write the file");
    }

    fn options(&self, ecosystem: &str) -> LoadOptions {
        LoadOptions {
            roots: Roots::new(self.root.join("project"), self.root.join("home"), self.root.join("home/.config"), Some(self.root.join("builtins"))),
            ecosystems: vec![ecosystem.to_string()],
            render: RenderMode::Export,
            env: BTreeMap::new(),
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::Held,
        }
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The next snapshot that satisfies `done`: a hang guard, generous for a loaded
/// machine (a debug build resolving thousands of chained files takes seconds).
fn snapshot_until(loader: &Loader, what: &str, done: impl Fn(&Catalog) -> bool) -> std::sync::Arc<Catalog> {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match loader.receiver().recv_timeout(left) {
            Ok(LoaderEvent::Snapshot(c)) if done(&c) => return c,
            Ok(_) => {}
            Err(_) => panic!("no snapshot with {what}"),
        }
    }
}

/// Loads `files` with `ecosystem` only, waits until the watch is quiet, writes
/// `edit`, and returns the stats of the load that shows it (`shows` decides).
fn edit_and_measure(
    tag: &str,
    ecosystem: &str,
    files: &[(&str, &str)],
    edit: (&str, &str),
    shows: impl Fn(&Catalog) -> bool,
) -> (LoadStats, std::sync::Arc<Catalog>) {
    let ws = Workspace::new(tag, files);
    let loader = Loader::spawn(ws.options(ecosystem), WatchMode::Notify, Box::new(|| {}));
    let cold = snapshot_until(&loader, "the cold load", |_| true);
    assert!(!shows(&cold), "{ecosystem}: the edit shows before it is made");
    // Let any follow-up load pass.
    std::thread::sleep(Duration::from_millis(500));
    while loader.try_recv().is_some() {}
    ws.write(edit.0, edit.1);
    let c = snapshot_until(&loader, "the edit", &shows);
    let stats = loader.last_stats().expect("stats after a load");
    assert!(stats.trusted, "{ecosystem}: a notified change is a trusting load");
    assert!(stats.trigger.iter().any(|p| p.ends_with(Path::new(edit.0))), "{ecosystem}: {:?}", stats.trigger);
    (stats, c)
}

fn description_of(c: &Catalog, name: &str) -> Option<String> {
    c.agents().find(|a| a.name == name).map(|a| a.description.to_string())
}

#[test]
fn editing_a_tsugite_parent_re_resolves_it_and_its_descendants_only() {
    let md = |name: &str, extends: &str, text: &str| {
        format!("---\nname: {name}\nextends: {extends}\ndescription: {text}\n---\nPrompt of {name}.\n")
    };
    let (base, child, grand, other) =
        (md("base", "none", "v1"), md("child", "base", "v1"), md("grand", "child", "v1"), md("other", "none", "v1"));
    let files = [
        ("agents/base.md", base.as_str()),
        ("agents/child.md", child.as_str()),
        ("agents/grand.md", grand.as_str()),
        ("agents/other.md", other.as_str()),
    ];
    let edited = md("child", "base", "v2");
    let (stats, c) = edit_and_measure("tsugite-parent", "tsugite", &files, ("agents/child.md", &edited), |c| {
        description_of(c, "child").as_deref() == Some("v2")
    });
    assert_eq!((stats.files_read, stats.definitions_parsed), (1, 1), "{stats:?}");
    assert_eq!(stats.definitions_resolved, 2, "child and grand, not base or other: {stats:?}");
    // The grandchild sees its parent's new body.
    let grand = c.agents().find(|a| a.name == "grand").expect("grand");
    assert_eq!(grand.chain.len(), 3);
}

#[test]
fn editing_a_tsugite_leaf_re_resolves_it_alone() {
    let files = [
        ("agents/a.md", "---\nname: a\nextends: none\ndescription: one\n---\nA.\n"),
        ("agents/b.md", "---\nname: b\nextends: a\ndescription: two\n---\nB.\n"),
    ];
    let (stats, _) = edit_and_measure(
        "tsugite-leaf",
        "tsugite",
        &files,
        ("agents/b.md", "---\nname: b\nextends: a\ndescription: three\n---\nB.\n"),
        |c| description_of(c, "b").as_deref() == Some("three"),
    );
    assert_eq!((stats.files_read, stats.definitions_parsed, stats.definitions_resolved), (1, 1, 1), "{stats:?}");
}

#[test]
fn editing_an_openhands_agent_re_parses_it_alone() {
    let files = [
        (".agents/agents/a.md", "---\nname: a\ndescription: one\n---\nA.\n"),
        (".agents/agents/b.md", "---\nname: b\ndescription: one\n---\nB.\n"),
        (".openhands/agents/a.md", "---\nname: a\ndescription: shadowed\n---\nA.\n"),
    ];
    let (stats, _) = edit_and_measure(
        "openhands",
        "openhands",
        &files,
        (".agents/agents/b.md", "---\nname: b\ndescription: two\n---\nB.\n"),
        |c| description_of(c, "b").as_deref() == Some("two"),
    );
    assert_eq!((stats.files_read, stats.definitions_parsed, stats.definitions_resolved), (1, 1, 1), "{stats:?}");
}

#[test]
fn editing_a_fast_agent_card_re_loads_it_alone() {
    let card = |name: &str, text: &str| format!("---\nname: {name}\ndescription: {text}\n---\nYou are {name}.\n");
    let (a, b) = (card("a", "one"), card("b", "one"));
    let files = [(".fast-agent/agent-cards/a.md", a.as_str()), (".fast-agent/agent-cards/b.md", b.as_str())];
    let edited = card("b", "two");
    let (stats, _) = edit_and_measure("fast-agent", "fast-agent", &files, (".fast-agent/agent-cards/b.md", &edited), |c| {
        description_of(c, "b").as_deref() == Some("two")
    });
    // fast-agent parses a card inside its (memoized) load, so the parse is counted
    // with the resolution.
    assert_eq!((stats.files_read, stats.definitions_resolved), (1, 1), "{stats:?}");
}

/// The Kimi workspace of the tests below: a base with a child, an unrelated agent,
/// all three rendering `p.md`.
const KIMI: [(&str, &str); 4] = [
    ("kimi/p.md", "You help.\n"),
    ("kimi/base.yaml", "agent:\n  name: base\n  system_prompt_path: p.md\n  tools: [\"a\"]\n"),
    ("kimi/child.yaml", "agent:\n  extend: base.yaml\n  name: child\n"),
    ("kimi/other.yaml", "agent:\n  name: other\n  system_prompt_path: p.md\n  tools: [\"c\"]\n"),
];

fn tools_of(c: &Catalog, name: &str) -> Option<String> {
    c.agents().find(|a| a.name == name).and_then(|a| a.fields.iter().find(|f| f.key == "tools").map(|f| f.value.to_string()))
}

/// Kimi memoizes each definition: an edited parent is re-read and re-parsed alone,
/// and re-resolved with its child only.
#[test]
fn editing_a_kimi_parent_re_resolves_it_and_its_child_only() {
    let (stats, c) = edit_and_measure(
        "kimi-parent",
        "kimi",
        &KIMI,
        ("kimi/base.yaml", "agent:\n  name: base\n  system_prompt_path: p.md\n  tools: [\"b\"]\n"),
        |c| tools_of(c, "base").is_some_and(|t| t.contains('b')),
    );
    assert!(tools_of(&c, "child").is_some_and(|t| t.contains('b')), "the child inherits the new tools");
    assert_eq!((stats.files_read, stats.definitions_parsed), (1, 1), "{stats:?}");
    assert_eq!(stats.definitions_resolved, 2, "base and child, not other: {stats:?}");
    let child = c.agents().find(|a| a.name == "child").expect("child");
    assert_eq!(*child.chain, ["project:kimi/child.yaml", "project:kimi/base.yaml"]);
}

#[test]
fn editing_an_unrelated_kimi_file_leaves_the_parent_and_child_as_they_were() {
    let (stats, _) = edit_and_measure(
        "kimi-other",
        "kimi",
        &KIMI,
        ("kimi/other.yaml", "agent:\n  name: other\n  system_prompt_path: p.md\n  tools: [\"d\"]\n"),
        |c| tools_of(c, "other").is_some_and(|t| t.contains('d')),
    );
    assert_eq!((stats.files_read, stats.definitions_parsed, stats.definitions_resolved), (1, 1, 1), "{stats:?}");
}

#[test]
fn editing_a_kimi_system_prompt_re_resolves_the_agents_rendering_it() {
    let prompt_of = |c: &Catalog, name: &str| c.agents().find(|a| a.name == name).and_then(|a| a.system_prompt.as_ref()?.as_held().map(str::to_string));
    let (stats, c) = edit_and_measure("kimi-prompt", "kimi", &KIMI, ("kimi/p.md", "You help more.\n"), |c| {
        prompt_of(c, "other").as_deref() == Some("You help more.")
    });
    assert_eq!(prompt_of(&c, "child").as_deref(), Some("You help more."), "the child renders its parent's prompt path");
    // No definition file changed; all three render the prompt.
    assert_eq!((stats.files_read, stats.definitions_parsed, stats.definitions_resolved), (1, 0, 3), "{stats:?}");
}

/// A generated chain of 2,000 files, each extending the one before. Kimi follows 486
/// files (Python's recursion limit), so the root is in the chain of the first 486
/// only. Editing the leaf re-resolves the leaf alone; editing the root re-resolves
/// the 486 definitions whose chain reaches it, plus at most the 32 below them that
/// take over their parent's record of what it observed (which reaches one file
/// deeper than their own chain), never the whole chain.
#[test]
fn a_deep_kimi_chain_re_resolves_what_an_edit_reaches() {
    const LEVELS: usize = 2_000;
    const BOUND: usize = 486;
    let level = |i: usize, tool: &str| match i {
        0 => format!("agent:\n  name: k0\n  system_prompt_path: p.md\n  tools: [\"{tool}\"]\n"),
        _ => format!("agent:\n  extend: k{:04}.yaml\n  name: k{i}\n", i - 1),
    };
    let texts: Vec<(String, String)> = (0..LEVELS)
        .map(|i| (format!("kimi/k{i:04}.yaml"), level(i, "a")))
        .chain([("kimi/p.md".into(), "P.\n".into())])
        .collect();
    let files: Vec<(&str, &str)> = texts.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let ws = Workspace::new("kimi-chain", &files);
    let loader = Loader::spawn(ws.options("kimi"), WatchMode::Notify, Box::new(|| {}));
    let cold = snapshot_until(&loader, "the cold load", |_| true);
    assert_eq!(cold.agents().filter(|a| a.status == agentry::model::Status::Wins).count(), BOUND);
    std::thread::sleep(Duration::from_millis(500));
    while loader.try_recv().is_some() {}

    let leaf = format!("kimi/k{:04}.yaml", LEVELS - 1);
    ws.write(&leaf, &format!("agent:\n  extend: k{:04}.yaml\n  name: leaf\n", LEVELS - 2));
    snapshot_until(&loader, "the leaf's edit", |c| c.agents().any(|a| a.name == "leaf"));
    let stats = loader.last_stats().expect("stats");
    assert_eq!((stats.files_read, stats.definitions_parsed, stats.definitions_resolved), (1, 1, 1), "{stats:?}");

    std::thread::sleep(Duration::from_millis(500));
    while loader.try_recv().is_some() {}
    ws.write("kimi/k0000.yaml", &level(0, "b"));
    let c = snapshot_until(&loader, "the root's edit", |c| tools_of(c, "k1").is_some_and(|t| t.contains('b')));
    let stats = loader.last_stats().expect("stats");
    assert_eq!((stats.files_read, stats.definitions_parsed), (1, 1), "{stats:?}");
    let resolved = stats.definitions_resolved as usize;
    assert!((BOUND..=BOUND + 32).contains(&resolved), "{resolved} re-resolved: {stats:?}");
    assert_eq!(tools_of(&c, &format!("k{}", BOUND - 1)).as_deref(), Some("[\"b\"]"));
}

/// A change no observation of a framework touches leaves its report as it was: the
/// same shared report, nothing read, parsed or resolved for it.
#[test]
fn a_change_elsewhere_reuses_the_whole_report() {
    let files = [
        ("kimi/p.md", "You help.\n"),
        ("kimi/base.yaml", "agent:\n  name: base\n  system_prompt_path: p.md\n  tools: [\"a\"]\n"),
        (".agents/agents/a.md", "---\nname: a\ndescription: one\n---\nA.\n"),
    ];
    let ws = Workspace::new("elsewhere", &files);
    let mut opts = ws.options("kimi");
    opts.ecosystems.push("openhands".into());
    let loader = Loader::spawn(opts, WatchMode::Notify, Box::new(|| {}));
    let cold = snapshot_until(&loader, "the cold load", |_| true);
    std::thread::sleep(Duration::from_millis(500));
    while loader.try_recv().is_some() {}
    ws.write(".agents/agents/a.md", "---\nname: a\ndescription: two\n---\nA.\n");
    let c = snapshot_until(&loader, "the edit", |c| description_of(c, "a").as_deref() == Some("two"));
    let kimi = |c: &Catalog| c.reports.iter().find(|r| r.ecosystem == "kimi").cloned().expect("kimi's report");
    assert!(std::sync::Arc::ptr_eq(&kimi(&cold), &kimi(&c)), "Kimi's report is reused as it was");
    let stats = loader.last_stats().expect("stats");
    assert_eq!((stats.files_read, stats.definitions_parsed, stats.definitions_resolved), (1, 1, 1), "{stats:?}");
}
