//! Fuzz target `claude_code`: drives [`agentry::fuzzing::claude_code`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::claude_code(data));
