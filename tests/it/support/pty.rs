//! The real binary in a pseudo-terminal: keys in, the screen out through a terminal
//! emulator (vt100), and the raw bytes the program wrote, for the explorer's end-to-end
//! tests. Waits poll the screen and are generous; nothing is asserted on elapsed time.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

pub const ROWS: u16 = 40;
pub const COLS: u16 = 160;
pub const WAIT: Duration = Duration::from_secs(90);

/// The child's output, collected by a reader thread, and a screen built from it.
pub struct Session {
    pub output: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
    /// Kept open for the whole session: the child gets SIGHUP when it closes, and its
    /// termios tells whether the child left raw mode on.
    pub master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Session {
    /// Starts `agentry ARGS` in `cwd` with `TERM=xterm-256color`, no user config and
    /// no `$VISUAL`, plus `env`.
    pub fn start(args: &[std::ffi::OsString], cwd: &Path, env: &[(&str, String)]) -> Session {
        let pty = native_pty_system();
        let pair = pty.openpty(PtySize { rows: ROWS, cols: COLS, pixel_width: 0, pixel_height: 0 }).expect("pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_agentry"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("AGENTRY_CONFIG", cwd.join("no-config.yaml"));
        cmd.env_remove("VISUAL");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.cwd(cwd);
        let child = pair.slave.spawn_command(cmd).expect("spawn agentry");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let writer = pair.master.take_writer().expect("writer");
        let output = Arc::new(Mutex::new(Vec::new()));
        let sink = output.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("output").extend_from_slice(&buf[..n]);
            }
        });
        Session { output, writer, child, master: pair.master }
    }

    pub fn screen(&self) -> String {
        let mut parser = vt100::Parser::new(ROWS, COLS, 0);
        parser.process(&self.output.lock().expect("output"));
        parser.screen().contents()
    }

    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            if start.elapsed() > WAIT {
                panic!("timed out waiting for {what}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn keys(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("type");
        self.writer.flush().expect("flush");
    }

    /// Waits for the program to end, then lets the reader drain what it wrote.
    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                std::thread::sleep(Duration::from_millis(200));
                return status;
            }
            assert!(start.elapsed() < WAIT, "agentry did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether the pty is in raw mode (no canonical input, no echo), from its termios.
    pub fn raw_mode(&self) -> Option<bool> {
        use nix::sys::termios::LocalFlags;
        let termios = self.master.get_termios()?;
        Some(!termios.local_flags.intersects(LocalFlags::ICANON | LocalFlags::ECHO))
    }
}
