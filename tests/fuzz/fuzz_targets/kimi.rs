//! Fuzz target `kimi`: drives [`agentry::fuzzing::kimi`] (shared with `tests/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::kimi(data));
