//! Fuzz target `copilot`: drives [`agentry::fuzzing::copilot`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::copilot(data));
