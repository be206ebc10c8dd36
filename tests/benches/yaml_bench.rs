//! Rough timing: loads the golden cases repeatedly (`cargo run --release --features bench-examples --example
//! yaml_bench [substring]`), about 20,000 loads and at least 10 MB of YAML.
//!
//! `yaml_bench DIR [ROUNDS]` instead loads, ROUNDS times (default 1, so that callgrind
//! counts one pass), every `.yaml`/`.yml` file under DIR whole and the front matter of
//! every `.md` file: the inputs of a real workspace.
use std::path::Path;

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let (texts, rounds) = if !arg.is_empty() && Path::new(&arg).is_dir() {
        let mut texts = Vec::new();
        collect_workspace_yaml(Path::new(&arg), &mut texts);
        let rounds = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(1usize);
        (texts, rounds)
    } else {
        let texts = golden_cases(&arg);
        let bytes: usize = texts.iter().map(String::len).sum();
        let rounds = 20_000usize.div_ceil(texts.len().max(1)).max((10 << 20) / bytes.max(1));
        (texts, rounds)
    };
    let bytes: usize = texts.iter().map(String::len).sum();
    let t = std::time::Instant::now();
    let mut ok = 0;
    for _ in 0..rounds {
        for text in &texts {
            ok += usize::from(agentry::yaml::load(text).is_ok());
        }
    }
    let el = t.elapsed();
    let n = rounds * texts.len();
    println!(
        "{n} loads, {:.1} MB in {el:?} ({:.1} MB/s, {:.1} µs/load); {ok} ok",
        (rounds * bytes) as f64 / 1e6,
        (rounds * bytes) as f64 / 1e6 / el.as_secs_f64(),
        el.as_secs_f64() * 1e6 / n.max(1) as f64
    );
}

/// The golden cases whose file name contains `filter`.
fn golden_cases(filter: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/pyyaml/cases");
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(filter))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect()
}

/// Walks `dir` in name order (a stable input for callgrind).
fn collect_workspace_yaml(dir: &Path, texts: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_workspace_yaml(&path, texts);
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => texts.push(text),
            Some("md") => texts.extend(front_matter(&text).map(str::to_owned)),
            _ => {}
        }
    }
}

/// The text between a leading `---\n` and the next `\n---`.
fn front_matter(text: &str) -> Option<&str> {
    let body = text.strip_prefix("---\n")?;
    let end = body.find("\n---")?;
    Some(&body[..end + 1])
}
