//! Fuzz target `openhands_skill`: drives [`agentry::fuzzing::openhands_skill`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::openhands_skill(data));
