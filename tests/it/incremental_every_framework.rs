//! Incremental equals cold, for every registered framework: each framework's fixture
//! workspaces are copied, then edited step by step — a file deleted, appended to,
//! cut in half, copied under a new name, renamed, moved into a new folder — and after
//! each step the live loader must publish what a cold load of the same tree shows.
//! The steps come from a fixed seed, so a failure names a reproducible sequence. The
//! seed frameworks also have a property test with hand-made shapes (`incremental.rs`).

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::loader::{Loader, LoaderEvent, WatchMode};
use agentry::model::{Catalog, Severity, Text, TextForm};
use serde_json::{json, Value as Json};

/// Cases per framework and steps per case: enough to touch every kind of step in
/// every framework, few enough to run in seconds (frameworks run in parallel).
/// `AGENTRY_INCREMENTAL_CASES=N` and `AGENTRY_INCREMENTAL_SEED=S` widen a local hunt.
const CASES: usize = 6;
const STEPS: usize = 8;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}
const CATCH_UP: Duration = Duration::from_secs(10);

/// A deterministic generator (SplitMix64): no dependency, the same steps everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `src` copied to `dest`, symlinks kept as links (fixtures hold loops and dangling ones).
fn copy_tree(src: &Path, dest: &Path) {
    std::fs::create_dir_all(dest).expect("mkdir");
    for entry in std::fs::read_dir(src).expect("read fixture").flatten() {
        let (from, to) = (entry.path(), dest.join(entry.file_name()));
        let kind = entry.file_type().expect("file type");
        if kind.is_symlink() {
            let target = std::fs::read_link(&from).expect("readlink");
            std::os::unix::fs::symlink(target, &to).expect("symlink");
        } else if kind.is_dir() {
            copy_tree(&from, &to);
        } else {
            std::fs::copy(&from, &to).expect("copy");
        }
    }
}

/// Regular files (not links) under the workspace's folders, sorted.
fn files(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                walk(&entry.path(), out);
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    let mut out = Vec::new();
    for part in ["project", "home", "xdg"] {
        walk(&root.join(part), &mut out);
    }
    out.sort();
    out
}

/// One edit of the workspace, described for the failure message.
fn step(rng: &mut Rng, root: &Path, n: usize) -> String {
    let all = files(root);
    let Some(file) = all.get(rng.below(all.len())).cloned() else { return "nothing to edit".into() };
    let rel = file.strip_prefix(root).unwrap_or(&file).display().to_string();
    let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let (stem, ext) = name.split_once('.').map_or((name.clone(), String::new()), |(s, e)| (s.to_string(), format!(".{e}")));
    let sibling = |new_stem: String| file.with_file_name(format!("{new_stem}{ext}"));
    match rng.below(6) {
        0 => {
            std::fs::remove_file(&file).expect("delete");
            format!("delete {rel}")
        }
        1 => {
            let mut bytes = std::fs::read(&file).expect("read");
            bytes.extend_from_slice(format!("\nedit {n}\n").as_bytes());
            std::fs::write(&file, bytes).expect("append");
            format!("append to {rel}")
        }
        2 => {
            let bytes = std::fs::read(&file).expect("read");
            std::fs::write(&file, &bytes[..bytes.len() / 2]).expect("truncate");
            format!("cut {rel} in half")
        }
        3 => {
            std::fs::copy(&file, sibling(format!("{stem}-copy{n}"))).expect("copy");
            format!("copy {rel} to {stem}-copy{n}{ext}")
        }
        4 => {
            std::fs::rename(&file, sibling(format!("renamed{n}"))).expect("rename");
            format!("rename {rel} to renamed{n}{ext}")
        }
        _ => {
            let folder = file.with_file_name(format!("moved{n}"));
            std::fs::create_dir_all(&folder).expect("mkdir");
            std::fs::rename(&file, folder.join(&name)).expect("move");
            format!("move {rel} into moved{n}/")
        }
    }
}

/// What must agree between the live snapshot and a cold load.
fn essence(catalog: &Catalog) -> Json {
    let read = |t: &Text| t.read().map_or_else(|e| format!("unreadable: {e}"), |t| t.into_owned());
    let agents: Vec<Json> = catalog
        .agents()
        .map(|a| {
            let fields: Vec<Json> = a.fields.iter().map(|f| json!([f.key, f.value])).collect();
            json!({
                "id": a.id(), "source": a.source.key(), "status": a.status.word(), "rule": a.rule,
                "chain": a.chain, "fields": fields, "prompt": a.system_prompt.as_ref().map(read),
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

fn catch_up(loader: &Loader, latest: &mut Arc<Catalog>, expected: &Json) -> bool {
    let deadline = Instant::now() + CATCH_UP;
    loop {
        if essence(latest) == *expected {
            return true;
        }
        match loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(LoaderEvent::Snapshot(c)) => *latest = c,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

/// Runs one case of `id`; the text of each step whose live snapshot never matched.
fn run_case(id: &'static str, case: &Path, seed: u64) -> (usize, usize, Vec<String>) {
    let scratch = support::Scratch::new(&format!("incr-{id}-{seed}"));
    copy_tree(case, &scratch);
    let opts = LoadOptions {
        roots: support::case_roots(&scratch),
        ecosystems: vec![id.to_string()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: TextForm::OnDisk,
    };
    // The live loader publishes what the views show (`Catalog::view`).
    let cold = || essence(&load(&opts, &FileCache::new(), 1).view());
    let loader = Loader::spawn(opts.clone(), WatchMode::Notify, Box::new(|| {}));
    let mut latest = Arc::new(Catalog { generation: 0, roots: opts.roots.clone(), reports: Vec::new() });
    let mut failures = Vec::new();
    if !catch_up(&loader, &mut latest, &cold()) {
        failures.push(format!("{id} {}: the first load never matched", case.display()));
        return (0, 0, failures);
    }
    let mut rng = Rng(seed);
    let (mut missed, mut visible) = (0, 0);
    let mut done = Vec::new();
    let mut previous = essence(&latest);
    for n in 0..STEPS {
        done.push(step(&mut rng, &scratch, n));
        let expected = cold();
        if expected != previous {
            visible += 1;
        }
        previous = expected.clone();
        if !catch_up(&loader, &mut latest, &expected) {
            missed += 1;
            if std::env::var_os("AGENTRY_INCREMENTAL_SHOW").is_some() {
                eprintln!("expected {}\nlive     {}", expected, essence(&latest));
            }
            done.push(format!("(missed: step {n})"));
            loader.reload();
            if !catch_up(&loader, &mut latest, &expected) {
                failures.push(format!("{id} {}: after {done:?} even a full reload differs from a cold load", case.display()));
                break;
            }
        }
    }
    if missed > 0 {
        failures.push(format!("{id} {}: {missed} of {STEPS} steps were missed until a reload ({done:?})", case.display()));
    }
    (done.len(), visible, failures)
}

#[test]
fn live_snapshots_equal_a_cold_load_in_every_framework() {
    // AGENTRY_INCREMENTAL_ONLY=ID runs one framework (for a failure's sake).
    let only = std::env::var("AGENTRY_INCREMENTAL_ONLY").ok();
    let ids: Vec<&str> = support::framework_ids().into_iter().filter(|id| only.as_deref().is_none_or(|o| o == *id)).collect();
    let results: Vec<(usize, usize, Vec<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = ids
            .iter()
            .map(|&id| {
                scope.spawn(move || {
                    let dir = support::fixtures().join(id);
                    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
                        .unwrap_or_else(|e| panic!("no fixtures for {id}: {e}"))
                        .flatten()
                        .map(|e| e.path())
                        .filter(|p| p.join("project").is_dir())
                        .collect();
                    cases.sort();
                    // Spread over the cases (they are numbered by topic), the same ones every run.
                    let count = (setting("AGENTRY_INCREMENTAL_CASES", CASES as u64) as usize).min(cases.len());
                    let picked = (0..count).filter_map(|i| cases.get(i * cases.len() / count).cloned());
                    let seed = setting("AGENTRY_INCREMENTAL_SEED", 0x5eed);
                    let (mut steps, mut visible, mut failures) = (0, 0, Vec::new());
                    for (i, case) in picked.enumerate() {
                        let (s, v, f) = run_case(id, &case, seed + i as u64);
                        steps += s;
                        visible += v;
                        failures.extend(f);
                    }
                    (steps, visible, failures)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("worker")).collect()
    });
    let steps: usize = results.iter().map(|r| r.0).sum();
    let visible: usize = results.iter().map(|r| r.1).sum();
    let failures: Vec<&String> = results.iter().flat_map(|r| &r.2).collect();
    assert!(steps >= ids.len() * CASES.min(4) * STEPS / 2, "only {steps} steps ran");
    // The property means something only if most steps changed what a load shows.
    assert!(visible * 2 > steps, "only {visible} of {steps} steps changed what a load shows");
    eprintln!("{steps} steps in {} frameworks, {visible} visible", ids.len());
    assert!(failures.is_empty(), "{} failures in {steps} steps:\n{}", failures.len(), failures.iter().map(|f| f.as_str()).collect::<Vec<_>>().join("\n"));
}
