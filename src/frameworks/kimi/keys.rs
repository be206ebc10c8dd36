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

/// The digest of the path's bytes ([`crate::model::digest`]): two paths with the same
/// digest are taken to be the same path, as [`super::resolve::Bodies`] takes two files
/// with the same digest to hold the same bytes.
pub fn path_digest(path: &Path) -> u128 {
    crate::model::digest(path.as_os_str().as_encoded_bytes())
}
