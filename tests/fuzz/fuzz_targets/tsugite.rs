//! Fuzz target `tsugite`: drives [`agentry::fuzzing::tsugite`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::tsugite(data));
