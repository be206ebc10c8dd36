fn main() {
    let fm = "name: reviewer\ndescription: Reviews code for quality and security. Use when asked.\nmodel: inherit\ntools: [Read, Grep, Glob]\ncolor: blue\nmax_iteration_per_run: 20\n";
    let t = std::time::Instant::now();
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    for _ in 0..n { let _ = agentry::yaml::load(fm); }
    let el = t.elapsed();
    println!("fm {} bytes: {:.2} µs/load", fm.len(), el.as_secs_f64() * 1e6 / n as f64);
}
