//! The benchmark suite (`cargo bench --bench suite`): generates the `small`, `large`
//! and `huge` workspaces into `target/bench-corpus-v2/` (reused when present) and
//! measures every target of the Performance section, each against a baseline taken
//! in the same run, then prints the Markdown table the README shows.
//!
//! Environment (all optional):
//! - `AGENTRY_BENCH_ONLY=coldload,frameworks,frame,refresh,finder,idle,complete,memory,start`
//!   runs only these sections (default: all);
//! - `AGENTRY_BENCH_LARGE=small` and `AGENTRY_BENCH_HUGE=large` measure the
//!   `large` and `huge` figures on another size, for a quick run;
//! - `AGENTRY_BENCH_FRAMEWORKS_SIZE` the size the frameworks' own loaders run on
//!   (default `large`; their Python takes minutes there);
//! - `AGENTRY_BENCH_RUNS` repetitions of whole-process figures (default 5);
//! - `AGENTRY_BENCH_CACHE` the workspace cache (default `target/bench-corpus-v2`).
//!
//! Figures are wall times on a shared machine: each is taken as the median (or p99)
//! of repetitions interleaved with its baseline, and only the ratio is compared
//! across machines.

#[path = "../corpus/mod.rs"]
mod corpus;
mod explorer;
mod finder;
mod frameworks;
mod load;
mod measure;
mod memory;
mod report;

// The allocator of the `agentry` binary: the in-process figures (load, refresh,
// finder, memory) measure what the product runs, not the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::process::Command;

use report::Row;

/// The `agentry` binary cargo built for this bench.
pub const AGENTRY: &str = env!("CARGO_BIN_EXE_agentry");

/// A generated workspace on disk.
pub struct Workspace {
    /// The size name it was generated as (`small`, `large`, `huge`, `agents-10`).
    pub name: String,
    pub dir: PathBuf,
    /// An empty folder standing in for the frameworks' built-in agents, so the
    /// figures do not depend on which Python packages this machine has.
    pub builtins: PathBuf,
}

impl Workspace {
    /// The workspace flags of the `agentry` command line.
    pub fn args(&self) -> Vec<std::ffi::OsString> {
        let mut out = Vec::new();
        for (flag, path) in [
            ("--project", self.dir.join("project")),
            ("--home", self.dir.join("home")),
            ("--xdg-config", self.dir.join("xdg")),
            ("--builtins", self.builtins.clone()),
        ] {
            out.push(flag.into());
            out.push(path.into_os_string());
        }
        out
    }

    /// `agentry ARGS… <workspace flags>`.
    pub fn agentry(&self, args: &[&str]) -> Command {
        let mut c = Command::new(AGENTRY);
        c.args(args).args(self.args());
        c
    }

    pub fn load_options(&self) -> agentry::load::LoadOptions {
        agentry::load::LoadOptions {
            roots: agentry::model::Roots::new(self.dir.join("project"), self.dir.join("home"), self.dir.join("xdg"), Some(self.builtins.clone())),
            ecosystems: Vec::new(),
            render: agentry::frameworks::RenderMode::Live { user_prompt: String::new() },
            env: Default::default(),
            options: Default::default(),
            texts: agentry::model::TextForm::Held,
        }
    }

    /// [`Workspace::load_options`] as the explorer loads: prompts left on disk.
    pub fn explorer_options(&self) -> agentry::load::LoadOptions {
        agentry::load::LoadOptions { texts: agentry::model::TextForm::OnDisk, ..self.load_options() }
    }
}

/// What this run measures and where.
pub struct Bench {
    cache: PathBuf,
    only: Option<Vec<String>>,
    pub runs: usize,
}

impl Bench {
    fn from_env() -> Bench {
        let cache = corpus::cache_dir();
        let only = std::env::var("AGENTRY_BENCH_ONLY")
            .ok()
            .filter(|s| !s.trim().is_empty())
            .map(|s| s.split(',').map(|p| p.trim().to_string()).collect());
        let runs = std::env::var("AGENTRY_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5).max(1);
        Bench { cache, only, runs }
    }

    fn wants(&self, section: &str) -> bool {
        self.only.as_ref().is_none_or(|o| o.iter().any(|s| s == section))
    }

    /// The workspace playing `role` (`large` or `huge`), possibly replaced by another
    /// size through `AGENTRY_BENCH_<ROLE>`.
    pub fn workspace(&self, role: &str) -> Workspace {
        let name = std::env::var(format!("AGENTRY_BENCH_{}", role.to_uppercase())).unwrap_or_else(|_| role.to_string());
        self.named(&name)
    }

    pub fn named(&self, name: &str) -> Workspace {
        let made = match name.strip_prefix("agents-").and_then(|n| n.parse().ok()) {
            Some(n) => corpus::cached_count(&self.cache, n),
            None => corpus::cached(&self.cache, name),
        };
        let dir =
            made.unwrap_or_else(|e| panic!("cannot generate the `{name}` workspace in {}: {e}", self.cache.display()));
        let builtins = self.cache.join("empty-builtins");
        if let Err(e) = std::fs::create_dir_all(&builtins) {
            panic!("cannot create {}: {e}", builtins.display());
        }
        Workspace { name: name.to_string(), dir, builtins }
    }
}

/// One part of the suite: its figures, as table rows.
type Section = fn(&Bench) -> Vec<Row>;

fn main() {
    if let Some(dir) = std::env::var_os(memory::CHILD) {
        memory::child(dir.into());
        return;
    }
    let bench = Bench::from_env();
    println!("agentry benchmark suite; workspaces in {}", bench.cache.display());
    let sections: &[(&str, Section)] = &[
        ("start", load::tiny_start),
        ("coldload", load::cold_load),
        ("frameworks", frameworks::versus_frameworks),
        ("refresh", load::refresh),
        ("frame", explorer::first_frame),
        ("idle", explorer::idle),
        ("complete", explorer::catalog_complete),
        ("finder", finder::keystroke),
        ("memory", memory::after_loading),
    ];
    let mut rows = Vec::new();
    for (name, run) in sections {
        if !bench.wants(name) {
            continue;
        }
        println!("\n## {name}");
        for row in run(&bench) {
            row.print_now();
            rows.push(row);
        }
    }
    println!("\nMachine: {}\n", report::machine());
    print!("{}", report::table(&rows));
}
