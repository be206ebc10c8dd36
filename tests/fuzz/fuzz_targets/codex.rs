//! Fuzz target `codex`: drives [`agentry::fuzzing::codex`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::codex(data));
