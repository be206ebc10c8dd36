//! Fuzz target `opencode_skill`: drives [`agentry::fuzzing::opencode_skill`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::opencode_skill(data));
