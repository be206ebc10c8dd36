//! Timing helpers: order statistics, whole-process runs, CPU time and peak memory of
//! a process read from /proc (Linux).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `q`-quantile (0..=1) of `times`, nearest rank.
pub fn quantile(times: &[Duration], q: f64) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

pub fn median(times: &[Duration]) -> Duration {
    quantile(times, 0.5)
}

pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// Runs `command` (output discarded) once and returns its wall time, process start
/// to exit; `None` when it cannot start.
pub fn time_process(command: &mut Command) -> Option<Duration> {
    command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let status = command.status().ok()?;
    let elapsed = start.elapsed();
    // A non-zero exit is fine (`check` and `list` report a broken workspace so);
    // a signal is not.
    status.code()?;
    Some(elapsed)
}

/// Runs each command `runs` times, interleaved (the machine's load drifts; both see
/// the same drift), and returns the medians, in the order given.
pub fn interleaved_medians(commands: &mut [Command], runs: usize) -> Option<Vec<Duration>> {
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); commands.len()];
    for _ in 0..runs {
        for (c, t) in commands.iter_mut().zip(&mut times) {
            t.push(time_process(c)?);
        }
    }
    Some(times.iter().map(|t| median(t)).collect())
}

/// User plus system CPU time of process `pid`, every thread included.
pub fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on every Linux configuration in use.
    Some(Duration::from_millis(ticks * 10))
}

/// CPU time of every thread of this process so far, from the scheduler's statistics
/// (nanoseconds): on a shared machine, wall time says little about our own cost.
pub fn own_cpu() -> Duration {
    let mut ns = 0u64;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            let stat = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
            ns += stat.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        }
    }
    Duration::from_nanos(ns)
}

/// Peak resident set of this process (VmHWM), in bytes.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Calls `visit` with every regular file under `dir` (symbolic links not followed).
fn each_file(dir: &Path, mut visit: impl FnMut(&std::fs::DirEntry)) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                stack.push(e.path());
            } else if kind.is_file() {
                visit(&e);
            }
        }
    }
}

/// Files and bytes under `dir` (symbolic links not followed).
pub fn tree_size(dir: &Path) -> (u64, u64) {
    let (mut files, mut bytes) = (0, 0);
    each_file(dir, |e| {
        files += 1;
        bytes += e.metadata().map(|m| m.len()).unwrap_or(0);
    });
    (files, bytes)
}

/// Reads every file under `dir` once, in one thread: the in-process floor of a cold
/// load. Returns the bytes read.
pub fn read_all(dir: &Path) -> u64 {
    let mut bytes = 0;
    each_file(dir, |e| bytes += std::fs::read(e.path()).map(|b| b.len() as u64).unwrap_or(0));
    bytes
}
