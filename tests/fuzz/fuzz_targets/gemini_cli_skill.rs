//! Fuzz target `gemini_cli_skill`: drives [`agentry::fuzzing::gemini_cli_skill`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::gemini_cli_skill(data));
