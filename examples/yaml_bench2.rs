fn main() {
    let fm = "name: reviewer\ndescription: Reviews code for quality and security. Use when asked.\nmodel: inherit\ntools: [Read, Grep, Glob]\ncolor: blue\nmax_iteration_per_run: 20\n";
    let t = std::time::Instant::now();
    for _ in 0..100_000 { let _ = agentry::yaml::load(fm); }
    let el = t.elapsed();
    println!("fm {} bytes: {:.2} µs/load, {:.1} MB/s", fm.len(), el.as_secs_f64() * 10.0, fm.len() as f64 * 1e5 / el.as_secs_f64() / 1e6);
    let big: String = (0..50_000).map(|i| format!("key{i}: some value {i} here\n")).collect();
    let t = std::time::Instant::now();
    for _ in 0..5 { let _ = agentry::yaml::load(&big); }
    let el = t.elapsed();
    println!("big {} bytes: {:.1} MB/s", big.len(), big.len() as f64 * 5.0 / el.as_secs_f64() / 1e6);
}
