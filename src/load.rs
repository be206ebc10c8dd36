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
use crate::frameworks::{Framework, LoadContext, RenderMode};
use crate::model::{Catalog, EcosystemReport, Part, Roots, Text, TextForm};

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

/// How a load makes the prompt and message texts its frameworks find
/// ([`LoadContext::prompts`](crate::frameworks::LoadContext)): a framework hands over
/// the file's bytes or the rendered string and never names where the text is kept
/// (held in memory for the command line, left on disk for the explorer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prompts(TextForm);

impl Prompts {
    /// Texts held in memory, whatever the load keeps: for a parse outside a load.
    pub const HELD: Prompts = Prompts(TextForm::Held);
    /// Texts left on disk where they can be, whatever the load keeps.
    pub const ON_DISK: Prompts = Prompts(TextForm::OnDisk);

    pub fn new(form: TextForm) -> Prompts {
        Prompts(form)
    }

    /// `text`, found verbatim in `bytes`, the contents of `file` (a slice of `bytes`,
    /// or any text `bytes` hold once): on disk, the range of the file it takes, read
    /// again when shown; held when the load holds texts or `bytes` do not hold it.
    pub fn from_file(self, file: &std::path::Path, bytes: &[u8], text: &str) -> Text {
        Text::from_file(self.0, file, bytes, text)
    }

    /// `text`, rendered from the file whose contents are `bytes`: on disk, the lines
    /// `bytes` hold verbatim are left there and the rest held, when that takes less
    /// memory than holding it all.
    pub fn rendered(self, file: &std::path::Path, bytes: &[u8], text: &str) -> Text {
        Text::from_rendering(self.0, file, bytes, text)
    }

    /// [`Prompts::rendered`] from parts of files (their lines in the text in the
    /// parts' order). With no parts the text is held.
    pub fn rendered_from_parts(self, parts: &[Part], text: &str) -> Text {
        Text::from_rendering_of_parts(self.0, parts, text)
    }

    /// Whether texts are left on disk: a renderer gathers the parts of files it
    /// renders from only then.
    pub fn on_disk(self) -> bool {
        self.0 == TextForm::OnDisk
    }
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
                // Every list agentry shows is in natural order of names; a framework's
                // own order of one name's definitions (the winner first) is kept.
                report.agents.sort_by(|a, b| crate::text::natural::cmp(&a.name, &b.name));
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
