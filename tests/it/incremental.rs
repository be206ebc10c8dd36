//! Incremental equals cold: random sequences of file creations, edits, renames,
//! deletions and folder moves over a workspace of OpenHands, Tsugite (with
//! `extends`), fast-agent and Kimi (with `extend`) files. After each step the live loader must publish a snapshot equal to
//! a fresh cold load of the same tree — same agents (id, source, status, fields,
//! prompt) and the same error diagnostics: no stale agent, no lost change, no
//! duplicate. Every other case keeps texts on disk, as the explorer does.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::loader::{Loader, LoaderEvent, WatchMode};
use agentry::model::{Catalog, Roots, Severity, Text, TextForm};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value as Json};

/// Three files per framework; names repeat across slots so shadowing comes and goes.
const SLOTS: usize = 3;
const NAMES: [&str; 2] = ["alpha", "beta"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fw {
    OpenHands,
    Tsugite,
    FastAgent,
    Kimi,
}

impl Fw {
    fn path(self, slot: usize) -> String {
        match self {
            Fw::OpenHands => format!(".agents/agents/s{slot}.md"),
            Fw::Tsugite => format!("agents/s{slot}.md"),
            Fw::FastAgent => format!(".fast-agent/agent-cards/s{slot}.md"),
            Fw::Kimi => format!("kimi/s{slot}.yaml"),
        }
    }

    /// The folder holding the framework's files.
    fn folder(self) -> &'static str {
        match self {
            Fw::OpenHands => ".agents/agents",
            Fw::Tsugite => "agents",
            Fw::FastAgent => ".fast-agent/agent-cards",
            Fw::Kimi => "kimi",
        }
    }
}

/// What one file holds: a name, a version (so every edit is visible), a parent slot
/// for the frameworks with inheritance, or broken YAML.
#[derive(Clone, Debug)]
struct Content {
    name: usize,
    version: u8,
    parent: Option<usize>,
    /// A slot a Kimi file lists as its subagent.
    sub: Option<usize>,
    broken: bool,
}

impl Content {
    fn text(&self, fw: Fw) -> String {
        let name = NAMES[self.name];
        let v = self.version;
        if self.broken {
            return match fw {
                Fw::Kimi => format!("agent:\n  name: {name}\n  tools: [v{v}\n"),
                _ => format!("---\nname: {name}\ndescription: [v{v}\n---\nBroken.\n"),
            };
        }
        match fw {
            Fw::OpenHands | Fw::FastAgent => format!("---\nname: {name}\ndescription: version {v}\n---\nPrompt {v}.\n"),
            Fw::Tsugite => {
                let extends = self.parent.map_or("none".to_string(), |p| format!("s{p}"));
                // Long enough to be kept on disk.
                format!("---\nname: {name}\nextends: {extends}\ndescription: version {v}\n---\nPrompt {v}: the task the agent is given, in a few words.\n")
            }
            Fw::Kimi => {
                let extend = self.parent.map_or(String::new(), |p| format!("  extend: s{p}.yaml\n"));
                let subagents = self
                    .sub
                    .map_or(String::new(), |s| format!("  subagents:\n    helper:\n      path: s{s}.yaml\n      description: helps {v}\n"));
                format!("agent:\n{extend}  name: {name}\n  system_prompt_path: p.md\n  tools: [\"t{v}\"]\n{subagents}")
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Step {
    /// Creates the file, or replaces what it holds.
    Write(Fw, usize, Content),
    Delete(Fw, usize),
    /// Renames a file of a framework onto another slot of it (replacing it).
    Rename(Fw, usize, usize),
    /// Rewrites the prompt every Kimi file names (`kimi/p.md`).
    Prompt(u8),
    /// Renames the framework's folder away (to `FOLDER.off`), or back when it is away:
    /// every file below it leaves or comes back at once.
    MoveFolder(Fw),
}

fn fw() -> impl Strategy<Value = Fw> {
    prop_oneof![Just(Fw::OpenHands), Just(Fw::Tsugite), Just(Fw::FastAgent), Just(Fw::Kimi)]
}

fn content() -> impl Strategy<Value = Content> {
    (0..NAMES.len(), any::<u8>(), prop::option::of(0..SLOTS), prop::option::weighted(0.3, 0..SLOTS), prop::bool::weighted(0.15))
        .prop_map(|(name, version, parent, sub, broken)| Content { name, version, parent, sub, broken })
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        5 => (fw(), 0..SLOTS, content()).prop_map(|(f, s, c)| Step::Write(f, s, c)),
        1 => (fw(), 0..SLOTS).prop_map(|(f, s)| Step::Delete(f, s)),
        2 => (fw(), 0..SLOTS, 0..SLOTS).prop_map(|(f, a, b)| Step::Rename(f, a, b)),
        1 => fw().prop_map(Step::MoveFolder),
        1 => any::<u8>().prop_map(Step::Prompt),
    ]
}

fn apply(project: &Path, step: &Step) {
    match step {
        Step::Write(fw, slot, c) => {
            let path = project.join(fw.path(*slot));
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, c.text(*fw)).expect("write");
        }
        Step::Prompt(v) => {
            let _ = std::fs::write(project.join("kimi/p.md"), format!("Kimi prompt {v}.\n"));
        }
        Step::Delete(fw, slot) => {
            let _ = std::fs::remove_file(project.join(fw.path(*slot)));
        }
        Step::Rename(fw, from, to) => {
            let _ = std::fs::rename(project.join(fw.path(*from)), project.join(fw.path(*to)));
        }
        Step::MoveFolder(fw) => {
            let here = project.join(fw.folder());
            let away = project.join(format!("{}.off", fw.folder()));
            if here.is_dir() {
                let _ = std::fs::remove_dir_all(&away);
                let _ = std::fs::rename(&here, &away);
            } else if away.is_dir() {
                let _ = std::fs::rename(&away, &here);
            }
        }
    }
}

fn options(root: &Path, texts: TextForm) -> LoadOptions {
    LoadOptions {
        roots: Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(root.join("builtins"))),
        ecosystems: Vec::new(),
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts,
    }
}

/// What must agree between the live snapshot and a cold load.
fn essence(catalog: &Catalog) -> Json {
    let agents: Vec<Json> = catalog
        .agents()
        .map(|a| {
            let fields: Vec<Json> = a.fields.iter().map(|f| json!([f.key, f.value])).collect();
            let messages: Vec<String> = a.messages.iter().map(|m| read(&m.text)).collect();
            json!({
                "id": a.id(),
                "source": a.source.key(),
                "status": a.status.word(),
                "rule": a.rule,
                "description": a.description,
                "chain": a.chain,
                "fields": fields,
                "prompt": a.system_prompt.as_ref().map(read),
                "messages": messages,
            })
        })
        .collect();
    let errors: Vec<Json> = catalog
        .diagnostics()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| json!([d.ecosystem, d.kind.as_str(), d.path, d.line, d.source, d.message]))
        .collect();
    json!({ "agents": agents, "errors": errors })
}

/// A text, read back if kept on disk: one whose file changed since its snapshot
/// differs from every cold load, until the snapshot that follows the change.
fn read(text: &Text) -> String {
    text.read().map_or_else(|e| format!("unreadable: {e}"), |t| t.into_owned())
}

/// A cold load as the loader publishes it: the view of the tool set.
fn cold(opts: &LoadOptions) -> Json {
    essence(&load(opts, &FileCache::new(), 1).view())
}

/// How long a step may take to show before the test asks for a full reload; far
/// above the loader's debounce, so only a lost change ever reaches it.
const CATCH_UP: Duration = Duration::from_secs(10);

/// Forced reloads over the whole run: each one is a change the loader missed.
static RELOADS: AtomicUsize = AtomicUsize::new(0);
static STEPS: AtomicUsize = AtomicUsize::new(0);
/// Steps whose cold load differs from the one before: the ones the loader had to see.
static VISIBLE: AtomicUsize = AtomicUsize::new(0);
static CASE: AtomicUsize = AtomicUsize::new(0);

/// Waits for a snapshot equal to `expected`; `latest` is the last one seen.
fn catch_up(loader: &Loader, latest: &mut Arc<Catalog>, expected: &Json, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if essence(latest) == *expected {
            return true;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match loader.receiver().recv_timeout(left) {
            Ok(LoaderEvent::Snapshot(c)) => *latest = c,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

fn run_case(steps: &[Step]) -> Result<(), TestCaseError> {
    let case = CASE.fetch_add(1, Ordering::Relaxed);
    let root = std::env::temp_dir().join(format!("agentry-incremental-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for dir in ["project/.agents/agents", "project/agents", "project/.fast-agent/agent-cards", "project/kimi", "home", "builtins"] {
        std::fs::create_dir_all(root.join(dir)).expect("temp dir");
    }
    std::fs::write(root.join("project/kimi/p.md"), "Kimi prompt.\n").expect("write");
    let texts = if case % 2 == 1 { TextForm::OnDisk } else { TextForm::Held };
    let opts = options(&root, texts);
    let loader = Loader::spawn(opts.clone(), WatchMode::Notify, Box::new(|| {}));
    let mut latest = Arc::new(Catalog { generation: 0, roots: opts.roots.clone(), reports: Vec::new() });
    let result = (|| {
        let mut previous = cold(&opts);
        prop_assert!(catch_up(&loader, &mut latest, &previous, CATCH_UP), "the first load never matched");
        for (i, step) in steps.iter().enumerate() {
            apply(&opts.roots.project, step);
            STEPS.fetch_add(1, Ordering::Relaxed);
            let expected = cold(&opts);
            if expected != previous {
                VISIBLE.fetch_add(1, Ordering::Relaxed);
            }
            previous = expected.clone();
            if !catch_up(&loader, &mut latest, &expected, CATCH_UP) {
                RELOADS.fetch_add(1, Ordering::Relaxed);
                loader.reload();
                prop_assert!(
                    catch_up(&loader, &mut latest, &expected, CATCH_UP),
                    "step {i} ({step:?}): even a full reload differs from the cold load"
                );
            }
            // No duplicate: each source appears once per framework.
            let mut sources: Vec<String> = latest.agents().map(|a| format!("{}|{}", a.ecosystem, a.source.key())).collect();
            let total = sources.len();
            sources.sort();
            sources.dedup();
            prop_assert_eq!(sources.len(), total, "a duplicated agent after step {}", i);
        }
        Ok(())
    })();
    drop(loader);
    let _ = std::fs::remove_dir_all(&root);
    result
}

#[test]
fn live_snapshots_equal_a_cold_load_after_every_step() {
    let config = ProptestConfig { cases: 20, max_shrink_iters: 32, failure_persistence: None, ..ProptestConfig::default() };
    // A fixed seed: the same sequences on every run, so a failure is reproducible.
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(config, rng);
    if let Err(e) = runner.run(&prop::collection::vec(step(), 1..=8), |steps| run_case(&steps)) {
        panic!("{e}");
    }
    let steps = STEPS.load(Ordering::Relaxed);
    let reloads = RELOADS.load(Ordering::Relaxed);
    // Each forced reload is a change the watcher missed; one in twenty steps at most.
    assert!(reloads * 20 <= steps, "{reloads} forced reloads in {steps} steps");
    let visible = VISIBLE.load(Ordering::Relaxed);
    // The property means something only if most steps changed what a load shows.
    assert!(visible * 2 > steps, "only {visible} of {steps} steps changed the workspace's agents");
    eprintln!("{steps} steps ({visible} visible), {reloads} forced reloads");
}
