//! Fuzz target `qwen_code_skill`: drives [`agentry::fuzzing::qwen_code_skill`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::qwen_code_skill(data));
