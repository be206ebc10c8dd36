//! Fuzz target `frontmatter`: drives [`agentry::fuzzing::frontmatter`] (shared with `tests/it/fuzz_corpus.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agentry::fuzzing::frontmatter(data));
