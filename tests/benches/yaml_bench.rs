//! Rough timing: loads the golden cases repeatedly (`cargo run --release --example
//! yaml_bench [substring]`), about 20,000 loads and at least 10 MB of YAML.
fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/pyyaml/cases");
    let texts: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(&filter))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let rounds = 20_000usize.div_ceil(texts.len()).max((10 << 20) / bytes.max(1));
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
        el.as_secs_f64() * 1e6 / n as f64
    );
}
