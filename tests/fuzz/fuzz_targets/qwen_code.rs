//! Fuzz target `qwen_code`: drives [`agentry::fuzzing::qwen_code`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::qwen_code(data));
