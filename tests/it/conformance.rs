//! Every vendored fixture case, compared with the frameworks' own decisions
//! (`expected.json`, written by the oracles) under the rules of `compare.py`.
//!
//! The frameworks come from the one list (`agentry::frameworks::all`); a folder of
//! fixtures with no framework registered for it fails. `AGENTRY_CONFORMANCE=ID,ID`
//! runs only those frameworks.

use crate::support;

#[test]
fn every_framework_agrees_with_its_fixture_cases() {
    let only: Option<Vec<String>> =
        std::env::var("AGENTRY_CONFORMANCE").ok().map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let mut report = Vec::new();
    let mut failed = Vec::new();
    for ecosystem in support::fixture_frameworks() {
        if only.as_ref().is_some_and(|o| !o.contains(&ecosystem)) {
            continue;
        }
        assert!(
            agentry::frameworks::by_id(&ecosystem).is_some(),
            "fixtures for {ecosystem} are vendored but the framework is not registered"
        );
        let (cases, failures) = support::run_framework(&ecosystem);
        assert!(cases > 0, "no cases for {ecosystem}");
        report.push(format!("{ecosystem}: {} of {cases} agree", cases - failures.len()));
        failed.extend(failures);
    }
    eprintln!("{}", report.join("\n"));
    assert!(failed.is_empty(), "{} cases differ:\n{}\n{}", failed.len(), failed.join("\n"), report.join("\n"));
}

/// Every registered framework has fixture cases (or is a dialect of one that has).
#[test]
fn every_framework_has_fixture_cases() {
    let vendored = support::fixture_frameworks();
    for f in agentry::frameworks::all() {
        assert!(vendored.iter().any(|v| v == f.id()), "{} has no fixtures under tests/fixtures", f.id());
    }
}
