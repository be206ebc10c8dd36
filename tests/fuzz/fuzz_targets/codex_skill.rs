//! Fuzz target `codex_skill`: drives [`agentry::fuzzing::codex_skill`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::codex_skill(data));
