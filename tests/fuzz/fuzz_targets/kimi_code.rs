//! Fuzz target `kimi_code`: drives [`agentry::fuzzing::kimi_code`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::kimi_code(data));
