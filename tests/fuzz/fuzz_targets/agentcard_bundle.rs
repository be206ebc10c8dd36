//! Fuzz target `agentcard_bundle`: drives [`agentry::fuzzing::agentcard_bundle`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::agentcard_bundle(data));
