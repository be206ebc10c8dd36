//! The same workspace through each framework's own loader (the conformance oracles:
//! the released Python packages in their venvs), against `agentry export` of that
//! framework. Skipped, with a message, where an oracle or its venv is missing.
//!
//! Oracles are looked for in `$ORACLES` (default `../shared/oracle` beside the
//! repository) and their venvs in `$AGENTRY_ORACLE_HOME` (default
//! `~/.cache/agentry-oracle`), as the fixtures' `regen.sh` scripts do.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::measure::{median, ms, time_process};
use crate::report::Row;
use crate::Bench;

const FRAMEWORKS: &[&str] = &["openhands", "tsugite", "fast-agent", "kimi"];

pub fn versus_frameworks(bench: &Bench) -> Vec<Row> {
    let size = std::env::var("AGENTRY_BENCH_FRAMEWORKS_SIZE").unwrap_or_else(|_| "large".into());
    let oracles = std::env::var_os("ORACLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/oracle"));
    let venvs = std::env::var_os("AGENTRY_ORACLE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/agentry-oracle")));
    let mut rows = Vec::new();
    let mut ws = None;
    for fw in FRAMEWORKS {
        let script = oracles.join(fw).join("oracle.py");
        let python = venvs.as_ref().map(|v| v.join(fw).join("bin/python"));
        let Some(python) = python.filter(|p| p.is_file() && script.is_file()) else {
            println!("{fw}: no oracle venv or oracle.py (looked in {}); skipped", oracles.display());
            continue;
        };
        let ws = ws.get_or_insert_with(|| bench.named(&size));
        let mut oracle = Command::new(&python);
        oracle
            .arg(&script)
            .arg("--project")
            .arg(ws.dir.join("project"))
            .arg("--home")
            .arg(ws.dir.join("home"))
            .arg("--xdg-config")
            .arg(ws.dir.join("xdg"));
        // The Python loaders take seconds to minutes: one run, after agentry's.
        let export = || ws.agentry(&["export", "--json", "--ecosystem", fw]);
        let ours: Option<Vec<_>> = (0..=bench.runs).map(|_| time_process(&mut export())).collect();
        let Some(mut ours) = ours else {
            println!("{fw}: agentry export failed to run; skipped");
            continue;
        };
        ours.remove(0); // the warm-up
        let Some(theirs) = time_process(&mut oracle) else {
            println!("{fw}: the oracle failed to run; skipped");
            continue;
        };
        let ours = median(&ours);
        let speedup = theirs.as_secs_f64() / ours.as_secs_f64();
        rows.push(Row {
            figure: format!("{fw}'s own loader vs `agentry export -e {fw}` (speed-up)"),
            workspace: ws.name.clone(),
            measured: format!("agentry {}", ms(ours)),
            baseline: format!("{fw} (Python): {}", ms(theirs)),
            ratio: Some(speedup),
            target: "≥ 50× faster".into(),
            met: Some(speedup >= 50.0),
        });
    }
    rows
}
