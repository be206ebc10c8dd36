//! The explorer in a pseudo-terminal: start to the first complete frame, and the
//! CPU it uses while it sits idle. The child's output goes through a terminal
//! emulator; a frame is complete when its last row (the status bar, drawn last) is
//! on the screen.

use std::io::{Read, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

use crate::measure::{median, ms, process_cpu, time_process};
use crate::report::Row;
use crate::{Bench, Workspace, AGENTRY};

const ROWS: u16 = 40;
const COLS: u16 = 160;
/// How long to wait for a frame at all: loading `huge` on a busy machine is slow.
const PATIENCE: Duration = Duration::from_secs(600);
const IDLE: Duration = Duration::from_secs(10);

/// When the screen first showed each stage.
#[derive(Default)]
struct Seen {
    /// The status bar with its help hint: the first frame is all drawn.
    frame: Option<Instant>,
    /// The status bar counting agents: the catalog is on screen, complete (while
    /// frameworks are still arriving it says "loading … · k of n frameworks").
    catalog: Option<Instant>,
    closed: bool,
}

struct Explorer {
    seen: Arc<(Mutex<Seen>, Condvar)>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    started: Instant,
}

impl Explorer {
    fn start(ws: &Workspace) -> Option<Explorer> {
        let pair =
            native_pty_system().openpty(PtySize { rows: ROWS, cols: COLS, pixel_width: 0, pixel_height: 0 }).ok()?;
        let mut cmd = CommandBuilder::new(AGENTRY);
        cmd.args(ws.args());
        cmd.args(["--theme", "dark"]);
        cmd.env("TERM", "xterm-256color");
        // No user configuration: the figures must not depend on this machine's.
        cmd.env("AGENTRY_CONFIG", ws.builtins.join("no-config.yaml"));
        cmd.cwd(&ws.dir);
        let started = Instant::now();
        let child = pair.slave.spawn_command(cmd).ok()?;
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().ok()?;
        let writer = pair.master.take_writer().ok()?;
        let seen = Arc::new((Mutex::new(Seen::default()), Condvar::new()));
        let sink = seen.clone();
        std::thread::spawn(move || {
            // The master must outlive the child, or the child gets SIGHUP.
            let _master = pair.master;
            let mut parser = vt100::Parser::new(ROWS, COLS, 0);
            let mut buf = [0u8; 65536];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let now = Instant::now();
                parser.process(&buf[..n]);
                let status = parser.screen().rows(0, COLS).last().unwrap_or_default();
                let (lock, changed) = &*sink;
                let mut seen = lock.lock().unwrap_or_else(|p| p.into_inner());
                if seen.frame.is_none() && status.contains("help") {
                    seen.frame = Some(now);
                }
                if seen.catalog.is_none() && status.contains(" agents · ") {
                    seen.catalog = Some(now);
                }
                changed.notify_all();
            }
            let (lock, changed) = &*sink;
            lock.lock().unwrap_or_else(|p| p.into_inner()).closed = true;
            changed.notify_all();
        });
        Some(Explorer { seen, writer, child, started })
    }

    /// Waits until `stage` of the screen has been seen; its time since the start.
    fn wait(&self, stage: fn(&Seen) -> Option<Instant>) -> Option<Duration> {
        let (lock, changed) = &*self.seen;
        let mut seen = lock.lock().unwrap_or_else(|p| p.into_inner());
        let deadline = self.started + PATIENCE;
        loop {
            if let Some(at) = stage(&seen) {
                return Some(at - self.started);
            }
            let now = Instant::now();
            if seen.closed || now >= deadline {
                return None;
            }
            seen = changed.wait_timeout(seen, deadline - now).unwrap_or_else(|p| p.into_inner()).0;
        }
    }

    fn quit(mut self) {
        let _ = self.writer.write_all(b"q");
        let _ = self.writer.flush();
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start to the first complete frame on `huge`, against the same on a 10-agent
/// workspace: the first frame must not wait for the load.
pub fn first_frame(bench: &Bench) -> Vec<Row> {
    let huge = bench.workspace("huge");
    let tiny = bench.named("agents-10");
    let (mut on_huge, mut on_tiny) = (Vec::new(), Vec::new());
    for _ in 0..bench.runs {
        for (ws, times) in [(&huge, &mut on_huge), (&tiny, &mut on_tiny)] {
            let Some(explorer) = Explorer::start(ws) else {
                println!("cannot start the explorer in a pseudo-terminal; skipped");
                return Vec::new();
            };
            let frame = explorer.wait(|s| s.frame);
            explorer.quit();
            match frame {
                Some(t) => times.push(t),
                None => {
                    println!("the explorer on {} drew no complete frame; skipped", ws.name);
                    return Vec::new();
                }
            }
        }
    }
    let (h, t) = (median(&on_huge), median(&on_tiny));
    vec![Row {
        figure: "explorer: start → first complete frame".into(),
        workspace: huge.name.clone(),
        measured: ms(h),
        baseline: format!("same on 10 agents: {}", ms(t)),
        ratio: Some(h.as_secs_f64() / t.as_secs_f64()),
        target: "≤ 50 ms, independent of size".into(),
        met: Some(h <= Duration::from_millis(50)),
    }]
}

/// Start to the complete catalog on screen on `large`, against `agentry list` (process
/// start to exit) on the same workspace, interleaved in the same run: showing the
/// agents must not cost more than printing them.
pub fn catalog_complete(bench: &Bench) -> Vec<Row> {
    let ws = bench.workspace("large");
    let (mut explorer, mut list) = (Vec::new(), Vec::new());
    // One untimed round first: the page cache is warm for both.
    for round in 0..=bench.runs {
        let Some(e) = Explorer::start(&ws) else {
            println!("cannot start the explorer in a pseudo-terminal; skipped");
            return Vec::new();
        };
        let shown = e.wait(|s| s.catalog);
        e.quit();
        let Some(shown) = shown else {
            println!("the explorer on {} never showed its catalog; skipped", ws.name);
            return Vec::new();
        };
        let Some(listed) = time_process(&mut ws.agentry(&["list"])) else {
            println!("cannot run `agentry list`; skipped");
            return Vec::new();
        };
        if round > 0 {
            explorer.push(shown);
            list.push(listed);
        }
    }
    let (e, l) = (median(&explorer), median(&list));
    let ratio = e.as_secs_f64() / l.as_secs_f64();
    vec![Row {
        figure: "explorer: start → catalog complete on screen".into(),
        workspace: ws.name.clone(),
        measured: ms(e),
        baseline: format!("`agentry list`, start to exit: {}", ms(l)),
        ratio: Some(ratio),
        target: "≤ 1.1×".into(),
        met: Some(ratio <= 1.1),
    }]
}

/// The explorer on `large`, loaded and on screen, then left alone for 10 s: the CPU
/// it used (all threads), from /proc.
pub fn idle(bench: &Bench) -> Vec<Row> {
    let ws = bench.workspace("large");
    let Some(explorer) = Explorer::start(&ws) else {
        println!("cannot start the explorer in a pseudo-terminal; skipped");
        return Vec::new();
    };
    let frame = explorer.wait(|s| s.frame);
    let catalog = explorer.wait(|s| s.catalog);
    let (Some(frame), Some(catalog), Some(pid)) = (frame, catalog, explorer.child.process_id()) else {
        println!("the explorer on {} never showed its catalog; skipped", ws.name);
        explorer.quit();
        return Vec::new();
    };
    // Let the watch settle (it is set up after the first load).
    std::thread::sleep(Duration::from_secs(2));
    let before = process_cpu(pid);
    std::thread::sleep(IDLE);
    let after = process_cpu(pid);
    explorer.quit();
    let mut rows = vec![Row {
        figure: "explorer: start → catalog on screen".into(),
        workspace: ws.name.clone(),
        measured: ms(catalog),
        baseline: format!("first frame: {}", ms(frame)),
        ratio: Some(catalog.as_secs_f64() / frame.as_secs_f64()),
        target: "–".into(),
        met: None,
    }];
    if let (Some(b), Some(a)) = (before, after) {
        let used = a.saturating_sub(b);
        rows.push(Row {
            figure: format!("explorer idle {} s: CPU used", IDLE.as_secs()),
            workspace: ws.name.clone(),
            measured: format!("{} ({:.2} % of a core)", ms(used), used.as_secs_f64() / IDLE.as_secs_f64() * 100.0),
            baseline: "0 (nothing to do)".into(),
            ratio: None,
            target: "0 %".into(),
            met: Some(used.is_zero()),
        });
    }
    rows
}
