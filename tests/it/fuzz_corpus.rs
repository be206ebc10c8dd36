//! The fuzzers' findings as regression tests: every file of every target's minimised
//! corpus (`tests/fuzz/corpus/<target>/`) and every crash input
//! (`tests/fuzz/regressions/<target>/`) goes through the same entry function the fuzz
//! target calls (`agentry::fuzzing`), and must return.

use std::path::{Path, PathBuf};

use agentry::fuzzing::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz")
}

/// The files of `dir`, sorted; none when the folder does not exist.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs `entry` on `file`, naming the file if it panics.
fn replay(target: &str, entry: agentry::fuzzing::Entry, file: &Path) {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    if std::panic::catch_unwind(|| entry(&bytes)).is_err() {
        panic!("fuzz target `{target}` panics on {}", file.display());
    }
}

#[test]
fn every_target_has_a_fuzz_target_file_and_a_corpus() {
    for (target, _) in TARGETS {
        let source = fuzz_dir().join("fuzz_targets").join(format!("{target}.rs"));
        let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        assert!(text.contains(&format!("agentry::fuzzing::{target}(")), "{} must call agentry::fuzzing::{target}", source.display());
        assert!(!inputs(&fuzz_dir().join("corpus").join(target)).is_empty(), "no corpus for `{target}`");
    }
}

#[test]
fn corpora_and_crash_inputs_return() {
    // One thread per target: the corpora are thousands of files.
    let replayed: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = TARGETS
            .iter()
            .map(|(target, entry)| {
                scope.spawn(move || {
                    let mut replayed = 0;
                    for kind in ["corpus", "regressions"] {
                        for file in inputs(&fuzz_dir().join(kind).join(target)) {
                            replay(target, *entry, &file);
                            replayed += 1;
                        }
                    }
                    replayed
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).sum()
    });
    assert!(replayed > 0);
}
