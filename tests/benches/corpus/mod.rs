//! A generator of large, realistic agent workspaces for the benchmarks: a Rust port
//! of the shapes and sizes of the project's reference generator, so a fresh clone
//! benchmarks without anything outside the repository.
//!
//! `generate(out, agents, seed, broken_pct)` writes `out/project`, `out/home` and
//! `out/xdg` holding about `agents` definitions: 18 % OpenHands, 18 % Tsugite, 15 %
//! fast-agent, 9 % Kimi, and 40 % for the coding-agent CLIs (10 % Claude Code, 6 %
//! Copilot, 5 % each Gemini CLI, Qwen Code, Kimi Code and OpenCode, 4 % Codex), with shadowing, inheritance chains, subagent trees,
//! bundles, workflow cards, Jinja templates, ~`broken_pct` % broken files and
//! log-normal prompt sizes (median ~1.5 KB, at most 20 KB), and skills besides (a
//! tenth of `agents`, in the coding-agent CLIs' skill folders). Same arguments, same
//! bytes (the draws come from the self-written [`rng::Rng`], so the bytes differ
//! from the Python generator's; the shapes and proportions are the same).
//!
//! Shared by the bench targets and the `gen_corpus` example through `#[path]`.

#![allow(dead_code)] // each bench target uses a different part

mod coding;
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
    // Percentages of `agents`, in generation order; the last takes what rounding left.
    const SHARES: [(&str, usize); 11] = [
        ("openhands", 18),
        ("tsugite", 18),
        ("fast-agent", 15),
        ("kimi", 9),
        ("claude-code", 10),
        ("copilot", 6),
        ("gemini-cli", 5),
        ("qwen-code", 5),
        ("kimi-code", 5),
        ("opencode", 5),
        ("codex", 4),
    ];
    let mut counts: Vec<(&'static str, usize)> = SHARES.iter().map(|&(id, pct)| (id, agents * pct / 100)).collect();
    let given: usize = counts.iter().map(|c| c.1).sum();
    counts[10].1 += agents - given;
    for &(id, n) in &counts {
        let write: fn(&mut Writer, &mut rng::Rng, usize, f64) = match id {
            "openhands" => frameworks::openhands,
            "tsugite" => frameworks::tsugite,
            "fast-agent" => frameworks::fast_agent,
            "kimi" => frameworks::kimi,
            "claude-code" => coding::claude_code,
            "copilot" => frameworks::copilot,
            "gemini-cli" => frameworks::gemini_cli,
            "qwen-code" => frameworks::qwen_code,
            "kimi-code" => coding::kimi_code,
            "opencode" => coding::opencode,
            _ => frameworks::codex,
        };
        write(&mut w, &mut rng, n, broken);
    }
    coding::skills(&mut w, &mut rng, agents / 10, broken);
    if let Some(e) = w.error {
        return Err(e);
    }
    for d in ["project", "home", "xdg"] {
        std::fs::create_dir_all(out.join(d))?;
    }
    Ok(Summary {
        files: w.files,
        bytes: w.bytes,
        agents: counts,
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
    // The shapes' version: a cache made by other shapes is not reused.
    target.join(format!("bench-corpus-v{SHAPES_VERSION}"))
}

/// Bumped whenever the shapes change (2: the coding-agent CLIs joined; 3: skills).
const SHAPES_VERSION: u32 = 3;

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
