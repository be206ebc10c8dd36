//! The source keys of the files one load meets. Each is asked for many times per
//! file (chains, fields, edges) and under many spellings of one file
//! (`lead/../coder/agent.yaml`), from every thread resolving definitions.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Mutex;

use crate::discover::fast_hash::HashMap;
use crate::discover::lock;
use crate::model::{normalized, Roots};

pub struct SourceKeys<'a> {
    roots: &'a Roots,
    builtins: Option<&'a Path>,
    known: Mutex<Known>,
}

#[derive(Default)]
struct Known {
    /// By the path as written, hashed as bytes: hashing a `Path` walks its parts.
    spelled: HashMap<OsString, String>,
    /// By the lexical path, which is all a key depends on, for the paths spelled
    /// otherwise.
    lexical: HashMap<OsString, String>,
}

impl<'a> SourceKeys<'a> {
    pub fn new(roots: &'a Roots, builtins: Option<&'a Path>) -> Self {
        SourceKeys { roots, builtins, known: Mutex::default() }
    }

    /// `scope:path` of the file at `path`.
    pub fn key(&self, path: &Path) -> String {
        if let Some(key) = lock(&self.known).spelled.get(path.as_os_str()) {
            return key.clone();
        }
        let lexical = normalized(path);
        let known = lock(&self.known).lexical.get(lexical.as_os_str()).cloned();
        let key = known.unwrap_or_else(|| self.roots.source(&lexical, self.builtins).key());
        let mut known = lock(&self.known);
        // Most paths are spelled in their lexical form: `spelled` answers for them.
        if lexical.as_os_str() != path.as_os_str() {
            known.lexical.entry(lexical.as_os_str().to_owned()).or_insert_with(|| key.clone());
        }
        known.spelled.insert(path.as_os_str().to_owned(), key.clone());
        key
    }
}
