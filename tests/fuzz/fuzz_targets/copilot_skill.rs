//! Fuzz target `copilot_skill`: drives [`agentry::fuzzing::copilot_skill`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::copilot_skill(data));
