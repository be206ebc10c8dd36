//! Fuzz target `openhands`: drives [`agentry::fuzzing::openhands`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::openhands(data));
