//! Writes one benchmark workspace to disk and prints a JSON summary (files, bytes,
//! agents per framework):
//!
//!     cargo run --release --features bench-examples --example gen_corpus -- OUT [--agents N] [--seed S] [--broken-pct P]
//!
//! Same arguments, same bytes. The shapes are those of `corpus/mod.rs`.

#[path = "corpus/mod.rs"]
mod corpus;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: gen_corpus OUT [--agents N] [--seed S] [--broken-pct P]";

fn main() -> ExitCode {
    let mut out: Option<PathBuf> = None;
    let (mut agents, mut seed, mut broken) = (2000usize, 1u64, 1.0f64);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let parsed = match arg.as_str() {
            "--agents" => args.next().and_then(|v| v.parse().ok()).map(|v| agents = v),
            "--seed" => args.next().and_then(|v| v.parse().ok()).map(|v| seed = v),
            "--broken-pct" => args.next().and_then(|v| v.parse().ok()).map(|v| broken = v),
            _ if out.is_none() && !arg.starts_with('-') => {
                out = Some(PathBuf::from(&arg));
                Some(())
            }
            _ => None,
        };
        if parsed.is_none() {
            eprintln!("gen_corpus: bad argument `{arg}`\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let Some(out) = out else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    match corpus::generate(&out, agents, seed, broken) {
        Ok(summary) => {
            println!("{}", summary.json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen_corpus: cannot write {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}
