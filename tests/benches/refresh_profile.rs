//! A refresh to profile (`perf record`, `valgrind --tool=callgrind`): one cold load of
//! a generated workspace over a kept [`FileCache`], then `ROUNDS` trusted passes per
//! framework, each after appending a comment to one of its leaf agent files, the way
//! the live loader runs them ([`FileCache::settle`] after each, untimed; without the watcher, whose share `--bench refresh`
//! shows as write→snapshot minus the load). Prints each phase's median time.
//!
//!     cargo run --release --features bench-examples --example refresh_profile -- [AGENTS] [ROUNDS]
//!
//! `AGENTRY_PROFILE_ONLY=ID` edits only that framework's file.
//!
//! The edited files are restored at the end.

#[path = "corpus/mod.rs"]
mod corpus;

// The allocator of the `agentry` binary, so the profile is the product's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::Roots;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<usize>().ok());
    let agents = args.next().unwrap_or(20_000);
    let rounds = args.next().unwrap_or(10);
    let dir =
        corpus::cached_count(&corpus::cache_dir(), agents).expect("the workspace is generated");
    let builtins = corpus::cache_dir().join("empty-builtins");
    std::fs::create_dir_all(&builtins).expect("an empty built-ins folder");
    let opts = LoadOptions {
        roots: Roots::new(dir.join("project"), dir.join("home"), dir.join("xdg"), Some(builtins)),
        ecosystems: Vec::new(),
        render: RenderMode::Live {
            user_prompt: String::new(),
        },
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::OnDisk,
    };
    let files = FileCache::new();
    let t = Instant::now();
    files.begin_pass(None);
    let cold = load(&opts, &files, 1);
    files.retain_pass();
    let cold_time = t.elapsed();
    files.settle();
    println!(
        "cold load: {} agents in {:.1} ms",
        cold.agents().count(),
        ms(cold_time)
    );
    // `AGENTRY_PROFILE_ONLY=kimi` edits one framework's file only (a profile of it).
    let only = std::env::var("AGENTRY_PROFILE_ONLY").ok();
    let edited: Vec<_> = corpus::edits::leaf_files(&cold)
        .into_iter()
        .filter(|(e, _)| only.as_deref().is_none_or(|o| o == *e))
        .collect();
    let originals: Vec<Vec<u8>> = edited
        .iter()
        .map(|(_, f)| std::fs::read(f).expect("read"))
        .collect();
    let mut generation = 1;
    for (ecosystem, file) in &edited {
        let (mut passes, mut loads) = (Vec::new(), Vec::new());
        let before = files.counts();
        for round in 0..rounds {
            let mut text = std::fs::read(file).expect("read");
            text.extend_from_slice(corpus::edits::comment(file, round).as_bytes());
            std::fs::write(file, &text).expect("write");
            generation += 1;
            let t = Instant::now();
            files.begin_pass(Some(std::slice::from_ref(file)));
            let passed = t.elapsed();
            let catalog = load(&opts, &files, generation);
            files.retain_pass();
            passes.push(passed);
            loads.push(t.elapsed() - passed);
            // As the live loader does once the snapshot is out.
            files.settle();
            assert_eq!(catalog.agents().count(), cold.agents().count());
        }
        let after = files.counts();
        println!(
            "{ecosystem}: begin_pass {:.2} ms, load {:.2} ms (median of {rounds}; cold {:.0} ms); per refresh {} parses, {} resolutions",
            ms(median(passes)),
            ms(median(loads)),
            ms(cold_time),
            (after.parses - before.parses) / rounds as u64,
            (after.resolutions - before.resolutions) / rounds as u64,
        );
    }
    for ((_, file), original) in edited.iter().zip(&originals) {
        std::fs::write(file, original).expect("restore");
    }
}
