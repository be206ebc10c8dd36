//! Fuzz target `claude_code_skill`: drives [`agentry::fuzzing::claude_code_skill`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::claude_code_skill(data));
