//! A reader's places are the one list of where it looks: over every fixture case of
//! every reader, each file its load names (a definition's source, a diagnostic's
//! file) and each file it read lies in one of the report's places — a place it walks,
//! or one it marks as reached from a definition (`extend`, a prompt path) — so the
//! list the views and the watcher use cannot drift from what the load does.

mod support;

use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{normalize, EcosystemReport};

fn cases(ecosystem: &str) -> Vec<PathBuf> {
    let dir = support::fixtures().join(ecosystem);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    out.sort();
    out
}

/// The files of `report` and of the load's reads that no place covers.
fn uncovered(report: &EcosystemReport, read: &[PathBuf], case: &Path) -> Vec<String> {
    let case = normalize(case);
    let covered = |p: &Path| report.places.iter().any(|place| place.covers(p));
    let mut named: Vec<(&str, PathBuf)> = Vec::new();
    named.extend(report.agents.iter().filter(|a| !a.source.is_compiled_in()).map(|a| ("source", a.source.path.to_path_buf())));
    // A diagnostic about a definition's file (not a near miss the tool never reads).
    named.extend(report.diagnostics.iter().filter(|d| d.source.is_some() && d.path.is_file()).map(|d| ("diagnostic", d.path.clone())));
    named.extend(read.iter().map(|p| ("read", p.clone())));
    let mut out: Vec<String> = named
        .into_iter()
        .filter(|(_, p)| !p.as_os_str().is_empty() && normalize(p).starts_with(&case) && !covered(p))
        .map(|(what, p)| format!("{what} {}", p.strip_prefix(&case).unwrap_or(&p).display()))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_file_a_load_names_or_reads_lies_in_one_of_its_places() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for ecosystem in support::fixture_frameworks() {
        for case in cases(&ecosystem) {
            let opts = LoadOptions {
                roots: support::case_roots(&case),
                ecosystems: vec![ecosystem.clone()],
                render: RenderMode::Export,
                env: Default::default(),
                options: Default::default(),
                texts: agentry::model::TextForm::Held,
            };
            let cache = FileCache::new();
            let catalog = load(&opts, &cache, 1);
            let report = &catalog.reports[0];
            let missing = uncovered(report, &cache.paths(), &case);
            checked += 1;
            if !missing.is_empty() {
                let name = case.strip_prefix(support::fixtures()).unwrap_or(&case).display().to_string();
                failures.push(format!("{name}: {}", missing.join(", ")));
            }
        }
    }
    assert!(checked > 400, "only {checked} cases");
    assert!(failures.is_empty(), "{} of {checked} cases name or read files outside their places:\n{}", failures.len(), failures.join("\n"));
}
