//! The source keys of the files one load meets. Each is asked for many times per
//! file (chains, fields, edges) and under many spellings of one file
//! (`lead/../coder/agent.yaml`), from every thread resolving definitions.

use std::path::Path;
use std::sync::Mutex;

use crate::discover::fast_hash::HashMap;
use crate::discover::lock;
use crate::model::{normalized, Roots};

pub struct SourceKeys<'a> {
    roots: &'a Roots,
    builtins: Option<&'a Path>,
    /// By the digest ([`path_digest`]) of the lexical path, which is all a key
    /// depends on: the load holds no copy of the paths, and one entry per file
    /// however it is spelled.
    known: Mutex<HashMap<u128, Box<str>>>,
}

impl<'a> SourceKeys<'a> {
    pub fn new(roots: &'a Roots, builtins: Option<&'a Path>) -> Self {
        SourceKeys { roots, builtins, known: Mutex::default() }
    }

    /// `scope:path` of the file at `path`.
    pub fn key(&self, path: &Path) -> String {
        let lexical = normalized(path);
        let digest = path_digest(&lexical);
        if let Some(key) = lock(&self.known).get(&digest) {
            return key.to_string();
        }
        let key = self.roots.source(&lexical, self.builtins).key();
        lock(&self.known).entry(digest).or_insert_with(|| key.as_str().into());
        key
    }
}

/// Two hashes of the path's bytes under unrelated secrets and random seeds, fixed
/// for the process: two paths with the same digest are taken to be the same path, as
/// [`super::resolve::Bodies`] takes two files with the same digest to hold the same
/// bytes. Faster than that digest, as a path is digested for every key asked.
pub fn path_digest(path: &Path) -> u128 {
    bytes_digest(path.as_os_str().as_encoded_bytes())
}

/// [`path_digest`] of a path's bytes.
pub fn bytes_digest(bytes: &[u8]) -> u128 {
    use foldhash::{quality::SeedableRandomState, SharedSeed};
    use std::hash::BuildHasher;
    static OTHER_SECRETS: SharedSeed = SharedSeed::from_u64(0x6b69_6d69_6b65_7973);
    static SEEDS: std::sync::OnceLock<(SeedableRandomState, SeedableRandomState)> = std::sync::OnceLock::new();
    let (a, b) = SEEDS.get_or_init(|| {
        let seed = std::hash::RandomState::new().hash_one(0u8);
        (SeedableRandomState::random(), SeedableRandomState::with_seed(seed, &OTHER_SECRETS))
    });
    (u128::from(a.hash_one(bytes)) << 64) | u128::from(b.hash_one(bytes))
}
