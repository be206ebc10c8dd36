//! The one entry point from a workspace to a [`Catalog`]: every selected framework
//! loads in parallel over one shared [`FileCache`].
//!
//! Each framework's load is memoized in the cache ([`crate::discover::Files::memo`]):
//! in the live loader, a change none of a framework's file-system answers depends on
//! (no file it read or looked at, no folder it listed) leaves its report as it was,
//! and the report is reused as is (an `Arc`, no copy).

use std::collections::BTreeMap;

use std::sync::Arc;

use rayon::prelude::*;

use crate::discover::{FileCache, Files};
use crate::frameworks::{Framework, LoadContext, Prompts, RenderMode};
use crate::model::{Catalog, EcosystemReport, Roots, TextForm};

/// What to load and how.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub roots: Roots,
    /// Framework ids; empty means every framework.
    pub ecosystems: Vec<String>,
    pub render: RenderMode,
    pub env: BTreeMap<String, String>,
    pub options: BTreeMap<String, String>,
    /// Where prompts found verbatim in a file are kept: the explorer leaves them on
    /// disk, the command line holds them.
    pub texts: TextForm,
}

impl LoadOptions {
    pub fn frameworks(&self) -> Vec<&'static dyn Framework> {
        crate::frameworks::all()
            .into_iter()
            .filter(|f| self.ecosystems.is_empty() || self.ecosystems.iter().any(|e| e == f.id()))
            .collect()
    }
}

/// Loads the workspace. `files` may be kept between loads (with
/// [`FileCache::begin_pass`] before each): unchanged files are not read again, and
/// unaffected results are not computed again.
pub fn load(opts: &LoadOptions, files: &FileCache, generation: u64) -> Catalog {
    load_with(&opts.frameworks(), opts, files, generation)
}

/// [`load`] with an explicit set of frameworks (tests use frameworks of their own).
pub fn load_with(frameworks: &[&dyn Framework], opts: &LoadOptions, files: &FileCache, generation: u64) -> Catalog {
    load_each(frameworks, opts, files, generation, &|_, _| {})
}

/// [`load_with`] that hands each framework's report to `arrived` (with the
/// framework's position in `frameworks`) as soon as it is ready, from the thread
/// that loaded it: the explorer shows a framework's agents before the others end.
pub fn load_each(
    frameworks: &[&dyn Framework],
    opts: &LoadOptions,
    files: &FileCache,
    generation: u64,
    arrived: &(dyn Fn(usize, &Arc<EcosystemReport>) + Sync),
) -> Catalog {
    let cx = LoadContext {
        roots: &opts.roots,
        files: Files::new(files, None),
        render: opts.render.clone(),
        env: &opts.env,
        options: &opts.options,
        prompts: Prompts::new(opts.texts),
        key: LoadContext::key_of(&opts.roots, &opts.render, &opts.env, &opts.options, Prompts::new(opts.texts)),
    };
    let reports = frameworks
        .par_iter()
        .enumerate()
        .map(|(i, f)| {
            // Frameworks of the same id (tests bring their own) differ in their title.
            let key = cx.memo_key(f.id(), f.title());
            let report = cx.files.memo(key, |files| {
                let mut report = f.load(&cx.with_files(files));
                // The resolution report never depends on the machine.
                if let (Some(release), RenderMode::Live { .. }) = (f.release(), &cx.render) {
                    let machine = crate::installed::Machine { home: &cx.roots.home, env: cx.env };
                    report.diagnostics.extend(crate::installed::note(f.id(), &release, files, &machine));
                }
                quiet_when_unused(&mut report);
                // Every list agentry shows is agents, then skills, each in natural order
                // of names; a framework's own order of one name's definitions (the
                // winner first) is kept.
                report.agents.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| crate::text::natural::cmp(&a.name, &b.name)));
                report
            });
            arrived(i, &report);
            report
        })
        .collect::<Vec<Arc<_>>>();
    Catalog { generation, roots: opts.roots.clone(), reports }
}

/// A framework the workspace does not use (no definition of its own that loads, no
/// error or warning) says nothing: its notes that the tool's package is not installed,
/// or installed at another release, go.
fn quiet_when_unused(report: &mut crate::model::EcosystemReport) {
    use crate::model::{DiagKind, Scope, Severity, Status};
    let used = report.agents.iter().any(|a| a.source.scope != Scope::Builtin && a.status != Status::Invalid)
        || report.diagnostics.iter().any(|d| d.severity != Severity::Info);
    if !used {
        report.diagnostics.retain(|d| !matches!(d.kind, DiagKind::Builtins | DiagKind::Release));
    }
}
