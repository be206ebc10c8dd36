//! Fuzz target `kimi`: drives [`agentry::fuzzing::kimi`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::kimi(data));
