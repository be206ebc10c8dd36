//! The background loader against a real, watched temporary workspace: every change
//! (create, edit, editor-style rename-over, rename, delete) shows in the next
//! snapshot, generations count up by one, unchanged files are not read again, and
//! dropping the loader ends its thread.
//!
//! The workspace is loaded by a small framework of the test's own (every `*.md` in
//! `.agents/agents/` is an agent whose `body` field is the file's text), so these
//! tests depend on the loader alone, not on any real framework's rules. Like every
//! framework, they ask the file system through `cx.files`, which records what each
//! load depends on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentry::discover::{stem, suffix, Files};
use agentry::frameworks::{Framework, LoadContext, RenderMode};
use agentry::load::LoadOptions;
use agentry::loader::{Loader, LoaderEvent, WatchMode, WatchState};
use agentry::model::{AgentRecord, Catalog, EcosystemReport, Field, FieldOrigin, Place, Reach, Roots, Scope, Source, Status, TextForm};

struct MdFiles;

impl Framework for MdFiles {
    fn id(&self) -> &'static str {
        "md"
    }
    fn title(&self) -> &'static str {
        "Markdown files"
    }
    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new("md");
        let dir = cx.roots.project.join(".agents/agents");
        report.places.push(Place::agents(0, Scope::Project, &cx.roots.project, dir.clone(), Reach::top(&[".md"]), "the only folder"));
        let Ok(Some(entries)) = cx.files.list_dir(&dir) else { return report };
        for e in entries.iter().filter(|e| !e.is_dir && suffix(&e.name()) == ".md") {
            let Ok(bytes) = cx.files.read(&e.path, agentry::discover::Hold::Kept) else { continue };
            let body = String::from_utf8_lossy(&bytes).into_owned();
            report.agents.push(AgentRecord {
                undocumented_order: None,
                ecosystem: "md",
                kind: Default::default(),
                listed: None,
                name: stem(&e.name()).to_string(),
                source: Source::new(Scope::Project, &cx.roots.project, e.path.to_path_buf()),
                status: Status::Wins,
                shadowed_by: None,
                rule: "only definition".into(),
                chain: Default::default(),
                description: Default::default(),
                fields: vec![Field::new("body", body.into(), FieldOrigin::default("file text"))].into(),
                attributes: Default::default(),
                system_prompt: None,
                messages: Default::default(),
                edges: Default::default(),
            }.into());
        }
        report
    }
}

static MD: MdFiles = MdFiles;

/// Like Kimi: walks the whole project for `*.agent` files at any depth.
struct Walker;

fn walk_agents(files: Files, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(Some(entries)) = files.list_dir(dir) else { return };
    for e in entries.iter() {
        if e.is_dir {
            walk_agents(files, &e.path, out);
        } else if suffix(&e.name()) == ".agent" {
            out.push(e.path.to_path_buf());
        }
    }
}

impl Framework for Walker {
    fn id(&self) -> &'static str {
        "walk"
    }
    fn title(&self) -> &'static str {
        "Walker"
    }
    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new("walk");
        report.places.push(Place::agents(0, Scope::Project, &cx.roots.project, cx.roots.project.clone(), Reach::tree(&[".agent"]), "walked"));
        let mut files = Vec::new();
        walk_agents(cx.files, &cx.roots.project, &mut files);
        for path in files {
            let Ok(bytes) = cx.files.read(&path, agentry::discover::Hold::Kept) else { continue };
            let name = path.file_name().map(|n| stem(&n.to_string_lossy()).to_string()).unwrap_or_default();
            report.agents.push(AgentRecord {
                undocumented_order: None,
                ecosystem: "walk",
                kind: Default::default(),
                listed: None,
                name,
                source: Source::new(Scope::Project, &cx.roots.project, path.clone()),
                status: Status::Wins,
                shadowed_by: None,
                rule: "only definition".into(),
                chain: Default::default(),
                description: Default::default(),
                fields: vec![Field::new(
                    "body",
                    String::from_utf8_lossy(&bytes).into_owned().into(),
                    FieldOrigin::default("file text"),
                )]
                .into(),
                attributes: Default::default(),
                system_prompt: None,
                messages: Default::default(),
                edges: Default::default(),
            }.into());
        }
        report
    }
}

static WALK: Walker = Walker;

struct Workspace {
    root: PathBuf,
}

impl Workspace {
    fn new(tag: &str) -> Workspace {
        let root = std::env::temp_dir().join(format!("agentry-loader-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("project")).unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        Workspace { root }
    }

    fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    fn agents(&self) -> PathBuf {
        self.project().join(".agents/agents")
    }

    fn options(&self) -> LoadOptions {
        options_for(&self.project(), &self.root.join("home"))
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn options_for(project: &Path, home: &Path) -> LoadOptions {
    LoadOptions {
        roots: Roots::new(project.into(), home.into(), home.join(".config"), None),
        ecosystems: Vec::new(),
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    }
}

fn spawn(ws: &Workspace, mode: WatchMode) -> Loader {
    Loader::spawn_with(Some(vec![&MD]), ws.options(), mode, Box::new(|| {}))
}

/// The bodies of the snapshot's agents, by name.
fn bodies(c: &Catalog) -> BTreeMap<String, String> {
    c.agents()
        .map(|a| (a.name.clone(), a.field("body").and_then(|f| f.value.as_str().map(str::to_string)).unwrap_or_default()))
        .collect()
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Follows the snapshots until one satisfies `want`, checking that generations go
/// up by exactly one.
struct Follower {
    generation: u64,
}

impl Follower {
    fn next_until(&mut self, loader: &Loader, what: &str, want: impl Fn(&Catalog) -> bool) -> Arc<Catalog> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match loader.receiver().recv_timeout(left) {
                Ok(LoaderEvent::Snapshot(c)) => {
                    assert_eq!(c.generation, self.generation + 1, "generations count up by one");
                    self.generation = c.generation;
                    if want(&c) {
                        return c;
                    }
                }
                Ok(_) => {}
                Err(_) => panic!("no snapshot with {what} within 10 s"),
            }
        }
    }

    /// Follows whatever arrives within `time`.
    fn drain(&mut self, loader: &Loader, time: Duration) {
        let deadline = Instant::now() + time;
        while let Ok(e) = loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            if let LoaderEvent::Snapshot(c) = e {
                assert_eq!(c.generation, self.generation + 1, "generations count up by one");
                self.generation = c.generation;
            }
        }
    }

    /// No snapshot arrives within `quiet`.
    fn none_within(&self, loader: &Loader, quiet: Duration) {
        let deadline = Instant::now() + quiet;
        while let Ok(e) = loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            if let LoaderEvent::Snapshot(c) = e {
                panic!("unexpected snapshot {}: {:?}", c.generation, bodies(&c));
            }
        }
    }
}

#[test]
fn every_kind_of_change_shows_in_the_next_snapshot() {
    let ws = Workspace::new("changes");
    let loader = spawn(&ws, WatchMode::Notify);
    let mut f = Follower { generation: 0 };
    let first = f.next_until(&loader, "the cold load", |_| true);
    assert!(bodies(&first).is_empty());

    // The searched folder does not exist yet: its nearest parent is watched.
    std::fs::create_dir_all(ws.agents()).unwrap();
    std::fs::write(ws.agents().join("a.md"), "one").unwrap();
    f.next_until(&loader, "a created", |c| bodies(c) == map(&[("a", "one")]));

    std::fs::write(ws.agents().join("a.md"), "two").unwrap();
    f.next_until(&loader, "a edited", |c| bodies(c) == map(&[("a", "two")]));

    // An editor's save: swap and probe files (ignored), then a new file renamed over.
    std::fs::write(ws.agents().join(".a.md.swp"), "swap").unwrap();
    std::fs::write(ws.agents().join("4913"), "").unwrap();
    std::fs::write(ws.agents().join("a.md.tmp"), "three").unwrap();
    std::fs::rename(ws.agents().join("a.md.tmp"), ws.agents().join("a.md")).unwrap();
    f.next_until(&loader, "a saved by rename", |c| bodies(c) == map(&[("a", "three")]));

    std::fs::rename(ws.agents().join("a.md"), ws.agents().join("b.md")).unwrap();
    f.next_until(&loader, "a renamed to b", |c| bodies(c) == map(&[("b", "three")]));

    std::fs::remove_file(ws.agents().join("b.md")).unwrap();
    f.next_until(&loader, "b deleted", |c| bodies(c).is_empty());

    // The whole folder removed and made again: the watch follows the new folder.
    std::fs::remove_dir_all(ws.project().join(".agents")).unwrap();
    f.next_until(&loader, "the folder removed", |c| bodies(c).is_empty());
    std::fs::create_dir_all(ws.agents()).unwrap();
    std::fs::write(ws.agents().join("c.md"), "again").unwrap();
    f.next_until(&loader, "c in the new folder", |c| bodies(c) == map(&[("c", "again")]));
}

#[test]
fn a_folder_made_deep_in_a_walked_project_is_watched_before_its_files_arrive() {
    let ws = Workspace::new("walk");
    std::fs::create_dir_all(ws.project().join("node_modules/pkg")).unwrap();
    let loader = Loader::spawn_with(Some(vec![&WALK]), ws.options(), WatchMode::Notify, Box::new(|| {}));
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |c| bodies(c).is_empty());
    std::fs::create_dir_all(ws.project().join("team/crew")).unwrap();
    f.next_until(&loader, "the new folders", |_| true);
    f.drain(&loader, Duration::from_millis(400));
    std::fs::write(ws.project().join("team/crew/lead.agent"), "leads").unwrap();
    f.next_until(&loader, "the agent deep in the project", |c| bodies(c) == map(&[("lead", "leads")]));
    // Dependency trees are not watched: a change there alone causes no snapshot.
    std::fs::write(ws.project().join("node_modules/pkg/x.js"), "x").unwrap();
    f.none_within(&loader, Duration::from_millis(600));
}

#[test]
fn swap_files_alone_cause_no_snapshot() {
    let ws = Workspace::new("swap");
    std::fs::create_dir_all(ws.agents()).unwrap();
    std::fs::write(ws.agents().join("a.md"), "one").unwrap();
    let loader = spawn(&ws, WatchMode::Notify);
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |c| bodies(c) == map(&[("a", "one")]));
    // Let the watch settle (a folder made just before the load gets one more load),
    // then touch only ignored files.
    f.drain(&loader, Duration::from_millis(400));
    std::fs::write(ws.agents().join(".a.md.swp"), "swap").unwrap();
    std::fs::write(ws.agents().join("a.md~"), "backup").unwrap();
    std::fs::write(ws.agents().join(".#a.md"), "lock").unwrap();
    f.none_within(&loader, Duration::from_millis(800));
}

#[test]
fn a_refresh_reads_only_the_changed_file() {
    let ws = Workspace::new("reread");
    std::fs::create_dir_all(ws.agents()).unwrap();
    for i in 0..40 {
        std::fs::write(ws.agents().join(format!("agent{i:02}.md")), format!("body {i}")).unwrap();
    }
    let loader = spawn(&ws, WatchMode::Notify);
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |c| c.agents().count() == 40);
    let cold = loader.last_stats().expect("stats after a load");
    assert_eq!((cold.generation, cold.files_served, cold.files_read), (1, 40, 40));

    std::fs::write(ws.agents().join("agent07.md"), "changed").unwrap();
    f.next_until(&loader, "agent07 changed", |c| bodies(c)["agent07"] == "changed");
    let warm = loader.last_stats().expect("stats after a refresh");
    assert_eq!(warm.files_served, 40, "every file is still asked for");
    assert_eq!(warm.files_read, 1, "only the changed file is read from disk");
    assert!(warm.trigger.iter().any(|p| p.ends_with("agent07.md")), "{:?}", warm.trigger);

    // A deleted file leaves the cache with the next load.
    std::fs::remove_file(ws.agents().join("agent39.md")).unwrap();
    f.next_until(&loader, "agent39 deleted", |c| c.agents().count() == 39);
    assert_eq!(loader.file_cache().paths().len(), 39);
    assert_eq!(loader.last_stats().map(|s| s.files_read), Some(0));

    // A forced reload starts from an empty cache.
    loader.reload();
    f.next_until(&loader, "the forced reload", |_| true);
    assert_eq!(loader.last_stats().map(|s| s.files_read), Some(39));
}

#[test]
fn progress_comes_first_and_wake_runs_for_every_event() {
    let ws = Workspace::new("wake");
    let wakes = Arc::new(AtomicUsize::new(0));
    let counter = wakes.clone();
    let loader = Loader::spawn_with(
        Some(vec![&MD]),
        ws.options(),
        WatchMode::Off,
        Box::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        }),
    );
    let mut events = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !events.iter().any(|e| matches!(e, LoaderEvent::Snapshot(_))) {
        let e = loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("an event");
        events.push(e);
    }
    assert!(matches!(
        events.iter().find(|e| !matches!(e, LoaderEvent::Watch(_))),
        Some(LoaderEvent::Progress { done: 0, .. })
    ));
    assert!(events.iter().any(|e| matches!(e, LoaderEvent::Watch(WatchState::Off))));
    // `wake` runs right after an event is queued, so it may trail the receiver a little.
    let deadline = Instant::now() + Duration::from_secs(2);
    while wakes.load(Ordering::SeqCst) < events.len() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(wakes.load(Ordering::SeqCst) >= events.len());
}

#[test]
fn without_watching_only_a_reload_refreshes() {
    let ws = Workspace::new("off");
    std::fs::create_dir_all(ws.agents()).unwrap();
    let loader = spawn(&ws, WatchMode::Off);
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |c| bodies(c).is_empty());
    std::fs::write(ws.agents().join("a.md"), "one").unwrap();
    f.none_within(&loader, Duration::from_millis(500));
    loader.reload();
    f.next_until(&loader, "the reload", |c| bodies(c) == map(&[("a", "one")]));
}

#[test]
fn polling_sees_changes_and_says_so() {
    let ws = Workspace::new("poll");
    std::fs::create_dir_all(ws.agents()).unwrap();
    let loader = spawn(&ws, WatchMode::Poll(Duration::from_millis(100)));
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |_| true);
    std::fs::write(ws.agents().join("a.md"), "polled").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut saw_polling = false;
    loop {
        match loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(LoaderEvent::Watch(WatchState::Polling { every, .. })) => {
                assert_eq!(every, Duration::from_millis(100));
                saw_polling = true;
            }
            Ok(LoaderEvent::Snapshot(c)) if bodies(&c) == map(&[("a", "polled")]) => break,
            Ok(_) => {}
            Err(_) => panic!("the poller never saw a.md"),
        }
    }
    assert!(saw_polling);
}

#[test]
fn new_options_load_another_workspace() {
    let one = Workspace::new("opts-one");
    let two = Workspace::new("opts-two");
    std::fs::create_dir_all(two.agents()).unwrap();
    std::fs::write(two.agents().join("z.md"), "elsewhere").unwrap();
    let loader = spawn(&one, WatchMode::Notify);
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |c| bodies(c).is_empty());
    loader.set_options(two.options());
    let c = f.next_until(&loader, "the other workspace", |c| bodies(c) == map(&[("z", "elsewhere")]));
    assert_eq!(c.roots.project, two.project());
    // The watch moved along.
    std::fs::write(two.agents().join("z.md"), "edited").unwrap();
    f.next_until(&loader, "z edited", |c| bodies(c) == map(&[("z", "edited")]));
}

/// Dropped when the worker thread ends (it owns the wake callback).
struct Sentinel(Arc<AtomicUsize>);

impl Drop for Sentinel {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn dropping_the_loader_ends_its_thread() {
    let ws = Workspace::new("drop");
    let ended = Arc::new(AtomicUsize::new(0));
    let sentinel = Sentinel(ended.clone());
    let loader = Loader::spawn_with(
        Some(vec![&MD]),
        ws.options(),
        WatchMode::Notify,
        Box::new(move || {
            let _ = &sentinel;
        }),
    );
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |_| true);
    let started = Instant::now();
    drop(loader);
    assert_eq!(ended.load(Ordering::SeqCst), 1, "the worker thread had ended when drop returned");
    assert!(started.elapsed() < Duration::from_millis(200), "drop took {:?}", started.elapsed());
}

/// The same promise with a real framework: OpenHands file agents, project over user.
#[test]
fn openhands_agents_follow_their_files() {
    let ws = Workspace::new("openhands");
    let user_agents = ws.root.join("home/.agents/agents");
    std::fs::create_dir_all(&user_agents).unwrap();
    std::fs::write(user_agents.join("reviewer.md"), "---\nname: reviewer\ndescription: mine\n---\nReview.\n").unwrap();
    let mut opts = ws.options();
    opts.ecosystems = vec!["openhands".into()];
    let loader = Loader::spawn(opts, WatchMode::Notify, Box::new(|| {}));
    let statuses = |c: &Catalog| -> Vec<(String, String, Status)> {
        c.agents().map(|a| (a.name.clone(), a.source.key(), a.status)).collect()
    };
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the user's reviewer", |c| {
        statuses(c) == [("reviewer".into(), "user:.agents/agents/reviewer.md".into(), Status::Wins)]
    });

    // A project definition of the same name appears and wins.
    std::fs::create_dir_all(ws.agents()).unwrap();
    std::fs::write(ws.agents().join("reviewer.md"), "---\nname: reviewer\ndescription: ours\n---\nReview.\n").unwrap();
    f.next_until(&loader, "the project's reviewer winning", |c| {
        statuses(c)
            == [
                ("reviewer".into(), "project:.agents/agents/reviewer.md".into(), Status::Wins),
                ("reviewer".into(), "user:.agents/agents/reviewer.md".into(), Status::Shadowed),
            ]
    });

    // Renaming the agent inside the file: the user's definition wins again.
    std::fs::write(ws.agents().join("reviewer.md"), "---\nname: auditor\n---\nAudit.\n").unwrap();
    f.next_until(&loader, "the rename inside the file", |c| {
        let s = statuses(c);
        s.contains(&("auditor".into(), "project:.agents/agents/reviewer.md".into(), Status::Wins))
            && s.contains(&("reviewer".into(), "user:.agents/agents/reviewer.md".into(), Status::Wins))
    });

    // Broken YAML: the definition becomes invalid, the rest still loads.
    std::fs::write(ws.agents().join("reviewer.md"), "---\nname: [auditor\n---\nAudit.\n").unwrap();
    let c = f.next_until(&loader, "the parse error", |c| c.diagnostics().any(|d| d.path.ends_with("reviewer.md")));
    assert!(statuses(&c).contains(&("reviewer".into(), "user:.agents/agents/reviewer.md".into(), Status::Wins)));

    std::fs::remove_file(ws.agents().join("reviewer.md")).unwrap();
    f.next_until(&loader, "the project file gone", |c| {
        statuses(c) == [("reviewer".into(), "user:.agents/agents/reviewer.md".into(), Status::Wins)]
            && !c.diagnostics().any(|d| d.severity == agentry::model::Severity::Error)
    });
}

/// A cold load reads each fast-agent card file once, in either dialect: the look
/// that tells a Markdown card, the card's reading and the check against the other
/// dialect share one read.
#[test]
fn a_cold_load_reads_each_card_file_once() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fast-agent/duplicate-names");
    let cards = std::fs::read_dir(fixture.join("project/.fast-agent/agent-cards")).unwrap().count() as u64;
    for dialect in ["fast-agent", "agentcard-rfc"] {
        let mut opts = options_for(&fixture.join("project"), &fixture.join("home"));
        opts.ecosystems = vec!["fast-agent".into()];
        opts.options.insert("dialect".into(), dialect.into());
        let cache = agentry::discover::FileCache::new();
        let catalog = agentry::load::load(&opts, &cache, 1);
        assert!(catalog.agents().count() >= 4, "{dialect}");
        assert_eq!(cache.counts().reads, cards, "{dialect}: {:?}", cache.counts());
    }
}

/// The user message of each tsugite agent, by name, read back.
fn tsugite_messages(c: &Catalog) -> BTreeMap<String, String> {
    c.agents().map(|a| (a.name.clone(), a.messages.first().map(|m| m.text.read().unwrap().into_owned()).unwrap_or_default())).collect()
}

/// The explorer's Tsugite parses keep no body: a resolution reads the bodies of its
/// chain back from their files, and that is no read of the file cache. A cold load
/// reads each file once in either form; a refresh reads only the edited file, and a
/// child of an edited parent is merged again with the parent's new body.
#[test]
fn tsugite_bodies_read_back_are_not_reads_of_the_cache() {
    let ws = Workspace::new("tsubody");
    let agents = ws.project().join("agents");
    std::fs::create_dir_all(&agents).unwrap();
    let write = |name: &str, front: &str, body: &str| {
        std::fs::write(agents.join(format!("{name}.md")), format!("---\nname: {name}\n{front}---\n{body}\n")).unwrap()
    };
    let parent_v1 = "Parent rules, version one, long enough to be kept on disk.";
    let child = "The child's own task, long enough to be kept on disk as well.";
    write("parent", "extends: none\n", parent_v1);
    write("child", "extends: parent\n", child);
    write("solo", "extends: none\n", "A standalone agent's task, long enough to be kept on disk too.");
    let mut opts = ws.options();
    opts.ecosystems = vec!["tsugite".into()];
    for texts in [TextForm::Held, TextForm::OnDisk] {
        opts.texts = texts;
        let cache = agentry::discover::FileCache::new();
        let catalog = agentry::load::load(&opts, &cache, 1);
        assert_eq!(tsugite_messages(&catalog)["child"], format!("{parent_v1}\n\n{child}"), "{texts:?}");
        assert_eq!(cache.counts().reads, 3, "{texts:?}: {:?}", cache.counts());
    }

    let loader = Loader::spawn(opts, WatchMode::Notify, Box::new(|| {}));
    let mut f = Follower { generation: 0 };
    f.next_until(&loader, "the cold load", |c| tsugite_messages(c).len() == 3);
    assert_eq!(loader.last_stats().map(|s| s.files_read), Some(3));

    let parent_v2 = "Parent rules, version two, long enough to be kept on disk.";
    write("parent", "extends: none\n", parent_v2);
    f.next_until(&loader, "the parent's edit", |c| tsugite_messages(c)["child"] == format!("{parent_v2}\n\n{child}"));
    assert_eq!(loader.last_stats().map(|s| s.files_read), Some(1), "only the parent is read");

    let edited = "The child's task, edited, and still long enough to stay on disk.";
    write("child", "extends: parent\n", edited);
    f.next_until(&loader, "the child's edit", |c| tsugite_messages(c)["child"] == format!("{parent_v2}\n\n{edited}"));
    assert_eq!(loader.last_stats().map(|s| s.files_read), Some(1), "only the child is read");
}

/// A cold load shows each framework as its report is ready: first nothing with
/// every framework pending, then one more report each time (in the catalog's
/// order), the last one whole and made of the very reports of the snapshot that
/// follows. A refresh keeps the previous snapshot until the new one is whole.
#[test]
fn a_cold_load_shows_each_framework_as_it_arrives_and_a_refresh_does_not() {
    let ws = Workspace::new("arrival");
    std::fs::create_dir_all(ws.agents()).unwrap();
    std::fs::write(ws.agents().join("a.md"), "one").unwrap();
    std::fs::write(ws.project().join("x.agent"), "walked").unwrap();
    let loader = Loader::spawn_with(Some(vec![&MD, &WALK]), ws.options(), WatchMode::Notify, Box::new(|| {}));
    let deadline = Instant::now() + Duration::from_secs(10);
    let next = || loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("an event");
    let mut arrivals = Vec::new();
    let snapshot = loop {
        match next() {
            LoaderEvent::Arrived { catalog, pending } => arrivals.push((catalog, pending)),
            LoaderEvent::Snapshot(c) => break c,
            _ => {}
        }
    };
    assert_eq!(arrivals.len(), 3, "nothing yet, then each of the two frameworks");
    for (n, (catalog, pending)) in arrivals.iter().enumerate() {
        assert_eq!(catalog.reports.len(), n, "one more report each time");
        assert_eq!(catalog.reports.len() + pending.len(), 2);
        assert_eq!(catalog.generation, snapshot.generation);
        let order: Vec<&str> = ["md", "walk"].into_iter().filter(|id| !pending.contains(id)).collect();
        let ids: Vec<&str> = catalog.reports.iter().map(|r| r.ecosystem).collect();
        assert_eq!(ids, order, "in the catalog's order");
    }
    let (whole, pending) = arrivals.last().expect("arrivals");
    assert!(pending.is_empty());
    assert!(whole.reports.iter().zip(&snapshot.reports).all(|(a, b)| Arc::ptr_eq(a, b)));
    assert_eq!(bodies(whole), map(&[("a", "one"), ("x", "walked")]));

    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(ws.agents().join("a.md"), "two").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("an event") {
            LoaderEvent::Arrived { .. } => panic!("a refresh shows no partial catalog"),
            LoaderEvent::Snapshot(c) if bodies(&c)["a"] == "two" => break,
            _ => {}
        }
    }
}
