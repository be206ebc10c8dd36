//! Fuzz target `openhands_instructions`: drives [`agentry::fuzzing::openhands_instructions`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::openhands_instructions(data));
