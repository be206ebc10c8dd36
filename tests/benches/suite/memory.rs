//! Peak resident memory after loading `huge` as the explorer does (the loader's
//! snapshot plus the explorer's index of it), against the workspace's bytes. The
//! load runs in a child copy of this bench so nothing measured before counts.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use agentry::loader::{Loader, LoaderEvent, WatchMode};
use agentry::tui::app::App;
use agentry::tui::keymap::Keymap;
use ratatui::layout::Rect;

use crate::measure::{peak_rss, tree_size};
use crate::report::Row;
use crate::{Bench, Workspace};

/// Set in the child: the workspace folder to load.
pub const CHILD: &str = "AGENTRY_BENCH_RSS_CHILD";
const CHILD_BUILTINS: &str = "AGENTRY_BENCH_RSS_BUILTINS";

pub fn after_loading(bench: &Bench) -> Vec<Row> {
    let ws = bench.workspace("huge");
    let (_, bytes) = tree_size(&ws.dir);
    let Ok(me) = std::env::current_exe() else {
        println!("cannot find this bench's executable; skipped");
        return Vec::new();
    };
    let out = Command::new(me).env(CHILD, &ws.dir).env(CHILD_BUILTINS, &ws.builtins).output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    let Some(rss) = text.lines().find_map(|l| l.strip_prefix("peak-rss ")?.trim().parse::<u64>().ok()) else {
        println!("the loading child printed no figure ({text}); skipped");
        return Vec::new();
    };
    let ratio = rss as f64 / bytes as f64;
    vec![Row {
        figure: "peak RSS after loading (loader + explorer index)".into(),
        workspace: ws.name.clone(),
        measured: format!("{:.0} MB", rss as f64 / 1e6),
        baseline: format!("workspace bytes: {:.0} MB", bytes as f64 / 1e6),
        ratio: Some(ratio),
        target: "≤ 2×".into(),
        met: Some(ratio <= 2.0),
    }]
}

/// The child's side: load, index, print the peak.
pub fn child(dir: PathBuf) {
    // As the explorer starts.
    agentry::tui::prefer_small_pages();
    let builtins = std::env::var_os(CHILD_BUILTINS).map(PathBuf::from).unwrap_or_else(|| dir.join("builtins"));
    let ws = Workspace { name: String::new(), dir, builtins };
    let loader = Loader::spawn_for_screen(ws.explorer_options(), WatchMode::Off, Box::new(|| {}));
    // The complete catalog comes with the last framework's arrival; the loader ends
    // its load (measuring the files it read) once told it is on screen.
    let catalog = loop {
        match loader.receiver().recv_timeout(Duration::from_secs(600)) {
            Ok(LoaderEvent::Arrived { catalog, pending }) if pending.is_empty() => break catalog,
            Ok(_) => {}
            Err(_) => return,
        }
    };
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, 160, 48));
    app.on_snapshot(Arc::clone(&catalog));
    loader.shown();
    loop {
        match loader.receiver().recv_timeout(Duration::from_secs(600)) {
            Ok(LoaderEvent::Snapshot(_)) => break,
            Ok(_) => {}
            Err(_) => return,
        }
    }
    std::hint::black_box(&app);
    if let Some(rss) = peak_rss() {
        println!("peak-rss {rss}");
    }
}
