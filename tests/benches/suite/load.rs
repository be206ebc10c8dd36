//! Loading figures: a tiny workspace's `list` from process start to exit, the cold
//! load of `large` against reading its files, and one edited file to the next
//! snapshot.

use std::process::Command;
use std::time::{Duration, Instant};

use agentry::discover::FileCache;
use agentry::loader::{Loader, LoaderEvent, WatchMode, DEBOUNCE};

use crate::measure::{interleaved_medians, median, ms, read_all, tree_size};
use crate::report::Row;
use crate::Bench;

/// `agentry list` on a 10-agent workspace against `/bin/true`: what starting a
/// process costs at all.
pub fn tiny_start(bench: &Bench) -> Vec<Row> {
    let ws = bench.named("agents-10");
    let runs = (bench.runs * 6).max(20);
    let Some(t) = interleaved_medians(&mut [ws.agentry(&["list"]), Command::new("true")], runs) else {
        println!("cannot run agentry or `true`; skipped");
        return Vec::new();
    };
    vec![Row {
        figure: "`list`, process start to exit".into(),
        workspace: "10 agents".into(),
        measured: ms(t[0]),
        baseline: format!("`true`: {}", ms(t[1])),
        ratio: Some(t[0].as_secs_f64() / t[1].as_secs_f64()),
        target: "≤ 10 ms".into(),
        met: Some(t[0] <= Duration::from_millis(10)),
    }]
}

/// The full catalog of `large` (discover, parse, resolve, render every prompt),
/// process against process: `agentry list` against `find | xargs cat`; then the
/// same in-process: `load` against one thread reading every file.
pub fn cold_load(bench: &Bench) -> Vec<Row> {
    let ws = bench.workspace("large");
    let (files, bytes) = tree_size(&ws.dir);
    println!("{}: {files} files, {:.1} MB", ws.name, bytes as f64 / 1e6);
    let floor_script = "find \"$1\" -type f -print0 | xargs -0 cat > /dev/null";
    let floor = || {
        let mut c = Command::new("sh");
        c.args(["-c", floor_script, "sh"]).arg(&ws.dir);
        c
    };
    let mut rows = Vec::new();
    // One untimed run each first: the page cache is warm for both.
    let warm = interleaved_medians(&mut [ws.agentry(&["list"]), floor()], 1);
    match warm.and_then(|_| interleaved_medians(&mut [ws.agentry(&["list"]), floor()], bench.runs)) {
        Some(t) => rows.push(Row {
            figure: "cold load, process (`agentry list`)".into(),
            workspace: ws.name.clone(),
            measured: ms(t[0]),
            baseline: format!("`find | xargs cat`: {}", ms(t[1])),
            ratio: Some(t[0].as_secs_f64() / t[1].as_secs_f64()),
            target: "≤ 1.5×".into(),
            met: Some(t[0].as_secs_f64() <= 1.5 * t[1].as_secs_f64()),
        }),
        None => println!("cannot run agentry or sh; the process figure is skipped"),
    }
    let opts = ws.load_options();
    let (mut loads, mut reads) = (Vec::new(), Vec::new());
    let mut agents = 0;
    for _ in 0..bench.runs {
        let t = Instant::now();
        let catalog = agentry::load::load(&opts, &FileCache::new(), 1);
        loads.push(t.elapsed());
        agents = catalog.agents().count();
        drop(catalog);
        let t = Instant::now();
        std::hint::black_box(read_all(&ws.dir));
        reads.push(t.elapsed());
    }
    println!("in process: {agents} agents");
    let (load, read) = (median(&loads), median(&reads));
    rows.push(Row {
        figure: "cold load, in process (`load`)".into(),
        workspace: ws.name.clone(),
        measured: ms(load),
        baseline: format!("reading every file, one thread: {}", ms(read)),
        ratio: Some(load.as_secs_f64() / read.as_secs_f64()),
        target: "≤ 1.5×".into(),
        met: Some(load.as_secs_f64() <= 1.5 * read.as_secs_f64()),
    });
    rows
}

fn next_snapshot(loader: &Loader) -> Option<std::sync::Arc<agentry::model::Catalog>> {
    loop {
        match loader.receiver().recv_timeout(Duration::from_secs(300)) {
            Ok(LoaderEvent::Snapshot(c)) => return Some(c),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

/// One agent file of `large` edited (a comment appended, then restored) → the next
/// snapshot, against the cold load of the same loader.
pub fn refresh(bench: &Bench) -> Vec<Row> {
    let ws = bench.workspace("large");
    let loader = Loader::spawn(ws.explorer_options(), WatchMode::Notify, Box::new(|| {}));
    let Some(cold) = next_snapshot(&loader) else {
        println!("no snapshot from the loader; skipped");
        return Vec::new();
    };
    let cold_stats = loader.last_stats().unwrap_or_default();
    std::thread::sleep(Duration::from_millis(600));
    while loader.try_recv().is_some() {}
    let project = cold.roots.project.clone();
    let Some(file) = cold.agents().map(|a| a.source.path.clone()).find(|p| p.starts_with(&project) && p.is_file())
    else {
        println!("no agent file in the project to edit; skipped");
        return Vec::new();
    };
    let Ok(original) = std::fs::read(&file) else {
        println!("cannot read {}; skipped", file.display());
        return Vec::new();
    };
    let (mut totals, mut reread, mut served) = (Vec::new(), 0, 0);
    for round in 0..bench.runs {
        let mut text = original.clone();
        text.extend_from_slice(format!("\n<!-- edit {round} -->\n").as_bytes());
        let t = Instant::now();
        if std::fs::write(&file, &text).is_err() {
            break;
        }
        if next_snapshot(&loader).is_none() {
            break;
        }
        totals.push(t.elapsed().saturating_sub(DEBOUNCE));
        let s = loader.last_stats().unwrap_or_default();
        (reread, served) = (reread.max(s.files_read), s.files_served);
        std::thread::sleep(Duration::from_millis(300));
    }
    // The cache stays as generated for the next run.
    let _ = std::fs::write(&file, &original);
    drop(loader);
    if totals.is_empty() {
        println!("no snapshot after an edit; skipped");
        return Vec::new();
    }
    let after = median(&totals);
    vec![Row {
        figure: format!("refresh: edit → snapshot, after the {} ms debounce; files re-read", DEBOUNCE.as_millis()),
        workspace: ws.name.clone(),
        measured: format!("{}; {reread} of {served} files", ms(after)),
        baseline: format!("cold load in the loader: {}", ms(cold_stats.elapsed)),
        ratio: Some(after.as_secs_f64() / cold_stats.elapsed.as_secs_f64()),
        target: "≤ 30 ms; only the edited file".into(),
        met: Some(after <= Duration::from_millis(30) && reread <= 1),
    }]
}
