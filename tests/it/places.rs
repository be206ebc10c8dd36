//! A reader's places are the one list of where it looks: over every fixture case of
//! every reader, each file its load names (a definition's source, a diagnostic's
//! file) and each file it read lies in one of the report's places — a place it walks,
//! or one it marks as reached from a definition (`extend`, a prompt path) — so the
//! list the views and the watcher use cannot drift from what the load does.

use crate::support;

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

/// The pre-commit hook's `files:` pattern as `.pre-commit-hooks.yaml` holds it.
fn committed_pattern() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let hooks: Vec<serde_yaml::Value> = serde_yaml::from_str(&std::fs::read_to_string(path).expect("hooks")).expect("YAML");
    hooks[0]["files"].as_str().expect("files").to_string()
}

/// The hook's pattern is the one the readers' places make: adding or moving a place
/// without regenerating it fails here (paste the pattern printed).
#[test]
fn the_hook_pattern_is_made_from_the_places() {
    let fresh = agentry::views::hook::every_tool();
    assert_eq!(committed_pattern(), fresh, "regenerate `files:` in .pre-commit-hooks.yaml:\n  files: '{fresh}'");
}

/// Every definition file a fixture case's report names in the project, where a tool
/// looks for it, is one a commit touching it runs the hook for — unless the case's
/// settings moved the place (fast-agent's `home:`, Kimi Code's `extra_agent_dirs`),
/// which no fixed pattern can know.
#[test]
fn the_hook_pattern_matches_every_project_file_the_reports_name() {
    let pattern = regex::Regex::new(&committed_pattern()).expect("pattern");
    // The places of every tool in a workspace of default settings, without `(^|/)`.
    let default = agentry::views::hook::default_workspace();
    let default_project = normalize(&default.roots.project);
    let defaults: Vec<String> = default
        .reports
        .iter()
        .flat_map(|r| r.places.iter())
        .filter_map(|p| agentry::views::hook::place_pattern(&default_project, p))
        .map(|a| a.trim_start_matches("(^|/)").to_string())
        .collect();
    let mut missed = Vec::new();
    let mut checked = 0;
    for ecosystem in support::fixture_frameworks() {
        for case in cases(&ecosystem) {
            let roots = support::case_roots(&case);
            let project = normalize(&roots.project);
            let opts = LoadOptions {
                roots,
                ecosystems: vec![ecosystem.clone()],
                render: RenderMode::Export,
                env: Default::default(),
                options: Default::default(),
                texts: agentry::model::TextForm::Held,
            };
            let catalog = load(&opts, &FileCache::new(), 1);
            let report = &catalog.reports[0];
            // Looked for in a place of default shape (at any depth of the project).
            let looked_in = |p: &Path| {
                report.places.iter().filter(|place| place.covers(p)).any(|place| {
                    agentry::views::hook::place_pattern(&project, place).is_some_and(|alt| defaults.iter().any(|d| alt.ends_with(d.as_str())))
                })
            };
            let named = report
                .agents
                .iter()
                .filter(|a| !a.source.is_compiled_in())
                .map(|a| a.source.path.to_path_buf())
                .chain(report.diagnostics.iter().filter(|d| d.source.is_some()).map(|d| d.path.clone()));
            for path in named {
                let Ok(rel) = normalize(&path).strip_prefix(&project).map(Path::to_path_buf) else { continue };
                if !looked_in(&path) || !path.is_file() {
                    continue;
                }
                checked += 1;
                if !pattern.is_match(&rel.to_string_lossy()) {
                    missed.push(format!("{ecosystem}/{}: {}", case.file_name().unwrap_or_default().to_string_lossy(), rel.display()));
                }
            }
        }
    }
    missed.sort();
    missed.dedup();
    assert!(checked > 1000, "only {checked} files checked");
    assert!(missed.is_empty(), "{} files the hook pattern misses:\n{}", missed.len(), missed.join("\n"));
}
