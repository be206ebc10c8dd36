//! Fuzz target `fast_agent`: drives [`agentry::fuzzing::fast_agent`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::fast_agent(data));
