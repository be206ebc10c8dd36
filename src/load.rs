//! The one entry point from a workspace to a [`Catalog`]: every selected framework
//! loads in parallel over one shared [`FileCache`].

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::discover::FileCache;
use crate::frameworks::{Framework, LoadContext, RenderMode};
use crate::model::{Catalog, Roots};

/// What to load and how.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub roots: Roots,
    /// Framework ids; empty means every framework.
    pub ecosystems: Vec<String>,
    pub render: RenderMode,
    pub env: BTreeMap<String, String>,
    pub options: BTreeMap<String, String>,
}

impl LoadOptions {
    pub fn frameworks(&self) -> Vec<&'static dyn Framework> {
        crate::frameworks::all()
            .into_iter()
            .filter(|f| self.ecosystems.is_empty() || self.ecosystems.iter().any(|e| e == f.id()))
            .collect()
    }
}

/// Loads the workspace. `files` may be kept between loads: unchanged files are not
/// read again.
pub fn load(opts: &LoadOptions, files: &FileCache, generation: u64) -> Catalog {
    load_with(&opts.frameworks(), opts, files, generation)
}

/// [`load`] with an explicit set of frameworks (tests use frameworks of their own).
pub fn load_with(frameworks: &[&dyn Framework], opts: &LoadOptions, files: &FileCache, generation: u64) -> Catalog {
    let cx = LoadContext {
        roots: &opts.roots,
        files,
        render: opts.render.clone(),
        env: &opts.env,
        options: &opts.options,
    };
    let reports = frameworks.par_iter().map(|f| f.load(&cx)).collect();
    Catalog { generation, roots: opts.roots.clone(), reports }
}
