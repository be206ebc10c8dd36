//! Live-refresh benchmark (not a timed test): a cold load of a generated workspace,
//! then one edited file of each framework, measured from the write to the new
//! snapshot, with what the refresh re-read, re-parsed and re-resolved and its load
//! time as a share of the cold load of the same run; then the loader's CPU use while
//! idle.
//!
//!     cargo bench --bench refresh -- [AGENTS]      (default 20000)
//!
//! The workspace comes from the benches' generator (`corpus/mod.rs`), cached in
//! `target/bench-corpus-v2/` and shared with the suite, or from
//! `$AGENTRY_BENCH_CORPUS` (a folder holding `project/`, `home/` and `xdg/`) when
//! set. The edited file is restored at the end.

#[path = "corpus/mod.rs"]
mod corpus;

// The allocator of the `agentry` binary: the in-process figures (load, refresh,
// finder, memory) measure what the product runs, not the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use agentry::frameworks::RenderMode;
use agentry::load::LoadOptions;
use agentry::loader::{Loader, LoaderEvent, WatchMode, DEBOUNCE};
use agentry::model::Roots;

fn corpus(agents: usize) -> PathBuf {
    if let Some(dir) = std::env::var_os("AGENTRY_BENCH_CORPUS") {
        return PathBuf::from(dir);
    }
    corpus::cached_count(&corpus::cache_dir(), agents).expect("the workspace is generated")
}

/// User plus system CPU time of this process, from /proc (Linux only).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on every Linux configuration in use.
    Some(Duration::from_millis(ticks * 10))
}

fn next_snapshot(loader: &Loader) -> std::sync::Arc<agentry::model::Catalog> {
    loop {
        match loader.receiver().recv_timeout(Duration::from_secs(120)) {
            Ok(LoaderEvent::Snapshot(c)) => return c,
            Ok(_) => {}
            Err(e) => panic!("no snapshot: {e}"),
        }
    }
}

fn main() {
    let agents: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(20_000);
    let dir = corpus(agents);
    let opts = LoadOptions {
        roots: Roots::new(dir.join("project"), dir.join("home"), dir.join("xdg"), None),
        ecosystems: Vec::new(),
        render: RenderMode::Live { user_prompt: String::new() },
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::OnDisk,
    };
    let started = Instant::now();
    let loader = Loader::spawn(opts, WatchMode::Notify, Box::new(|| {}));
    let cold = next_snapshot(&loader);
    let stats = loader.last_stats().unwrap_or_default();
    println!(
        "cold load: {} agents, {} files read ({} KiB) in {:?} (snapshot after {:?})",
        cold.agents().count(),
        stats.files_read,
        stats.bytes_read / 1024,
        stats.elapsed,
        started.elapsed()
    );
    // Let the watch settle and any follow-up load pass.
    std::thread::sleep(Duration::from_millis(600));
    while loader.try_recv().is_some() {}

    let files = corpus::edits::leaf_files(&cold);
    if files.is_empty() {
        println!("no agent file in the project to edit: the frameworks of this build found nothing");
        return;
    }
    let originals: Vec<Vec<u8>> = files.iter().map(|(_, f)| std::fs::read(f).expect("read the agent file")).collect();
    let mut refreshes = Vec::new();
    for round in 0..3 {
        for (ecosystem, file) in &files {
            let mut text = std::fs::read(file).expect("read the agent file");
            text.extend_from_slice(corpus::edits::comment(file, round).as_bytes());
            let t = Instant::now();
            std::fs::write(file, &text).expect("write the agent file");
            let c = next_snapshot(&loader);
            let total = t.elapsed();
            let s = loader.last_stats().unwrap_or_default();
            println!(
                "refresh ({ecosystem}, round {round}): {} file(s) re-read, {} definition(s) re-parsed, {} re-resolved, \
                 {:.1} ms, vs cold {:.2} s = {:.2} % (generation {}, write→snapshot {:?} with the {:?} debounce)",
                s.files_read,
                s.definitions_parsed,
                s.definitions_resolved,
                s.elapsed.as_secs_f64() * 1e3,
                stats.elapsed.as_secs_f64(),
                s.elapsed.as_secs_f64() / stats.elapsed.as_secs_f64() * 100.0,
                c.generation,
                total,
                DEBOUNCE
            );
            refreshes.push(s.elapsed);
            std::thread::sleep(Duration::from_millis(300));
            while loader.try_recv().is_some() {}
        }
    }
    refreshes.sort();
    let median = refreshes[refreshes.len() / 2];
    println!(
        "refresh load, median of {}: {:.1} ms = {:.2} % of the cold load ({:.2} s); worst {:.1} ms",
        refreshes.len(),
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() / stats.elapsed.as_secs_f64() * 100.0,
        stats.elapsed.as_secs_f64(),
        refreshes.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );

    let before = cpu_time();
    std::thread::sleep(Duration::from_secs(5));
    let after = cpu_time();
    if let (Some(b), Some(a)) = (before, after) {
        println!("idle: {:?} CPU over 5 s ({:.2} %)", a - b, (a - b).as_secs_f64() / 5.0 * 100.0);
    }
    drop(loader);
    // The cached workspace stays as generated for the next run (restored after the
    // idle measurement, which the reload of these writes would disturb).
    for ((_, file), original) in files.iter().zip(&originals) {
        std::fs::write(file, original).expect("restore the agent file");
    }
}
