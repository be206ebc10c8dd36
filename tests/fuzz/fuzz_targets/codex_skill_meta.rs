//! Fuzz target `codex_skill_meta`: drives [`agentry::fuzzing::codex_skill_meta`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::codex_skill_meta(data));
