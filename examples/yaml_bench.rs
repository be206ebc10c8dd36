//! Rough timing: loads every golden case repeatedly (`cargo run --release --example yaml_bench`).
fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/pyyaml/cases");
    let texts: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let rounds = 20_000usize.div_ceil(texts.len());
    let t = std::time::Instant::now();
    let mut ok = 0;
    for _ in 0..rounds {
        for text in &texts {
            ok += usize::from(agentry::yaml::load(text).is_ok());
        }
    }
    let n = rounds * texts.len();
    println!("{n} loads ({} KiB each round) in {:?}; {ok} ok", bytes / 1024, t.elapsed());
}
