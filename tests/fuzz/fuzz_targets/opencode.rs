//! Fuzz target `opencode`: drives [`agentry::fuzzing::opencode`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::opencode(data));
