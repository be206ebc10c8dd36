//! Fuzz target `tsugite_template`: drives [`agentry::fuzzing::tsugite_template`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::tsugite_template(data));
