//! The figures of one run and the Markdown table they are printed as (the format of
//! the README's Performance section, so a run's output can replace it).

/// One measured figure against the baseline taken in the same run.
pub struct Row {
    pub figure: String,
    pub workspace: String,
    pub measured: String,
    pub baseline: String,
    /// measured / baseline (or the figure's own ratio, e.g. RSS / bytes); `None`
    /// when the figure has no baseline (idle CPU is compared with zero).
    pub ratio: Option<f64>,
    pub target: String,
    pub met: Option<bool>,
}

impl Row {
    pub fn print_now(&self) {
        let ratio = self.ratio.map(|r| format!(" = {r:.2}×")).unwrap_or_default();
        println!("  -> {}: {} vs {}{ratio} (target {})", self.figure, self.measured, self.baseline, self.target);
    }
}

pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| figure | workspace | measured | baseline (same run) | ratio | target | met |\n|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let ratio = match r.ratio {
            Some(x) if x >= 100.0 => format!("{x:.0}×"),
            Some(x) => format!("{x:.2}×"),
            None => "–".into(),
        };
        let met = match r.met {
            Some(true) => "yes",
            Some(false) => "**no**",
            None => "–",
        };
        // A `|` inside a cell (`find | xargs cat`) would end it.
        let cell = |s: &str| s.replace('|', "\\|");
        out += &format!(
            "| {} | {} | {} | {} | {ratio} | {} | {met} |\n",
            cell(&r.figure),
            cell(&r.workspace),
            cell(&r.measured),
            cell(&r.baseline),
            cell(&r.target)
        );
    }
    out
}

/// The machine the figures come from: CPU model, cores and load at the end.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    format!("{model}, {cores} cores, load average {} (1, 5, 15 min)", load.join(" "))
}
