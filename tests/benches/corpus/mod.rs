//! A generator of large, realistic agent workspaces for the benchmarks: a Rust port
//! of the shapes and sizes of the project's reference generator, so a fresh clone
//! benchmarks without anything outside the repository.
//!
//! `generate(out, agents, seed, broken_pct)` writes `out/project`, `out/home` and
//! `out/xdg` holding about `agents` definitions: 30 % OpenHands, 30 % Tsugite, 25 %
//! fast-agent, 15 % Kimi, with shadowing, inheritance chains, subagent trees,
//! bundles, workflow cards, Jinja templates, ~`broken_pct` % broken files and
//! log-normal prompt sizes (median ~1.5 KB, at most 20 KB). Same arguments, same
//! bytes (the draws come from the self-written [`rng::Rng`], so the bytes differ
//! from the Python generator's; the shapes and proportions are the same).
//!
//! Shared by the bench targets and the `gen_corpus` example through `#[path]`.

#![allow(dead_code)] // each bench target uses a different part

pub mod edits;
mod frameworks;
pub mod rng;
mod text;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The named sizes the targets are stated for.
pub const SIZES: &[(&str, usize)] = &[("small", 2_000), ("large", 20_000), ("huge", 100_000)];

/// What a generation wrote.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub files: usize,
    pub bytes: u64,
    /// Agents asked of each framework, in generation order.
    pub agents: Vec<(&'static str, usize)>,
}

impl Summary {
    pub fn json(&self) -> String {
        let agents: Vec<String> = self.agents.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
        format!("{{\"files\": {}, \"bytes\": {}, \"agents\": {{{}}}}}", self.files, self.bytes, agents.join(", "))
    }
}

/// Writes files under one root, creating each folder once, and counts them.
pub struct Writer {
    root: PathBuf,
    made: HashSet<PathBuf>,
    pub files: usize,
    pub bytes: u64,
    /// The first write that failed; generation stops being useful after it.
    pub error: Option<std::io::Error>,
}

impl Writer {
    fn new(root: &Path) -> Writer {
        Writer { root: root.to_path_buf(), made: HashSet::new(), files: 0, bytes: 0, error: None }
    }

    pub fn write(&mut self, rel: &str, data: &[u8]) {
        if self.error.is_some() {
            return;
        }
        let path = self.root.join(rel);
        if let Some(dir) = path.parent() {
            if !self.made.contains(dir) {
                if let Err(e) = std::fs::create_dir_all(dir) {
                    self.error = Some(e);
                    return;
                }
                self.made.insert(dir.to_path_buf());
            }
        }
        match std::fs::write(&path, data) {
            Ok(()) => {
                self.files += 1;
                self.bytes += data.len() as u64;
            }
            Err(e) => self.error = Some(e),
        }
    }
}

/// Writes a workspace of about `agents` definitions into `out`.
pub fn generate(out: &Path, agents: usize, seed: u64, broken_pct: f64) -> std::io::Result<Summary> {
    let mut rng = rng::Rng::new(seed);
    let mut w = Writer::new(out);
    let broken = broken_pct / 100.0;
    let openhands = agents * 30 / 100;
    let tsugite = agents * 30 / 100;
    let fast_agent = agents * 25 / 100;
    let kimi = agents - openhands - tsugite - fast_agent;
    frameworks::openhands(&mut w, &mut rng, openhands, broken);
    frameworks::tsugite(&mut w, &mut rng, tsugite, broken);
    frameworks::fast_agent(&mut w, &mut rng, fast_agent, broken);
    frameworks::kimi(&mut w, &mut rng, kimi, broken);
    // Added on top, so the other frameworks' shares stay as they were.
    let qwen_code = agents * 10 / 100;
    frameworks::qwen_code(&mut w, &mut rng, qwen_code, broken);
    if let Some(e) = w.error {
        return Err(e);
    }
    for d in ["project", "home", "xdg"] {
        std::fs::create_dir_all(out.join(d))?;
    }
    Ok(Summary {
        files: w.files,
        bytes: w.bytes,
        agents: vec![("openhands", openhands), ("tsugite", tsugite), ("fast-agent", fast_agent), ("kimi", kimi), ("qwen-code", qwen_code)],
    })
}

/// The workspace `name` (one of [`SIZES`]) under `cache`, generated with seed 1 and
/// 1 % broken files the first time and reused after.
pub fn cached(cache: &Path, name: &str) -> std::io::Result<PathBuf> {
    let agents = SIZES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| *a)
        .ok_or_else(|| std::io::Error::other(format!("unknown size `{name}`")))?;
    cached_as(cache, name, agents, 1.0)
}

/// A workspace of `agents` agents under `cache` (seed 1, 1 % broken files), reused
/// when present: the named size when `agents` is one, else `agents-N`.
pub fn cached_count(cache: &Path, agents: usize) -> std::io::Result<PathBuf> {
    match SIZES.iter().find(|(_, n)| *n == agents) {
        Some((name, _)) => cached_as(cache, name, agents, 1.0),
        None => cached_as(cache, &format!("agents-{agents}"), agents, 1.0),
    }
}

/// The cache of generated workspaces: `target/bench-corpus` (or under
/// `$CARGO_TARGET_DIR`), unless `$AGENTRY_BENCH_CACHE` names another.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("AGENTRY_BENCH_CACHE") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("bench-corpus")
}

/// Generation goes to a side folder renamed into place when complete, so an
/// interrupted run never leaves a half workspace to be reused.
fn cached_as(cache: &Path, dir: &str, agents: usize, broken_pct: f64) -> std::io::Result<PathBuf> {
    let out = cache.join(dir);
    if out.join("project").is_dir() {
        return Ok(out);
    }
    let partial = cache.join(format!("{dir}.partial"));
    if partial.exists() {
        std::fs::remove_dir_all(&partial)?;
    }
    eprintln!("generating the `{dir}` workspace ({agents} agents) into {}", out.display());
    let summary = generate(&partial, agents, 1, broken_pct)?;
    std::fs::rename(&partial, &out)?;
    eprintln!("  {}", summary.json());
    Ok(out)
}
