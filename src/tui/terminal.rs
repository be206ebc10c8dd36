//! The terminal's state while the explorer runs: raw mode, the alternate screen,
//! mouse capture, bracketed paste and a hidden cursor. [`restore`] undoes all of it
//! and is safe to call any number of times from anywhere, so the guard's `Drop`,
//! the panic hook and the signal path all use it and the shell always gets its
//! terminal back. Also: suspending around `$EDITOR`, and OSC 52 (the only escape
//! sequence agentry writes itself).

use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

/// Whether the terminal is currently in the explorer's state.
static ACTIVE: AtomicBool = AtomicBool::new(false);
static PANIC_HOOK: Once = Once::new();

/// Largest text sent over OSC 52; terminals drop longer sequences.
const OSC52_MAX: usize = 100_000;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Owns the terminal while the explorer runs; dropping it restores the terminal.
pub struct Guard {
    pub terminal: Term,
}

impl Guard {
    pub fn enter() -> io::Result<Guard> {
        install_panic_hook();
        enter_mode()?;
        let terminal = Terminal::new(CrosstermBackend::new(io::stdout()));
        match terminal {
            Ok(terminal) => Ok(Guard { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }

    /// Gives the terminal back for a child process (`$EDITOR`), then takes it again
    /// and forces a full redraw.
    pub fn suspended<T>(&mut self, run: impl FnOnce() -> T) -> io::Result<T> {
        restore();
        let out = run();
        enter_mode()?;
        self.terminal.clear()?;
        Ok(out)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

fn enter_mode() -> io::Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, EnableBracketedPaste, Hide)
}

/// Leaves the alternate screen and raw mode and shows the cursor, once.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    // Each step is tried even when an earlier one fails: a half-restored terminal
    // is still better than none.
    let _ = execute!(out, DisableBracketedPaste);
    let _ = execute!(out, DisableMouseCapture);
    let _ = execute!(out, LeaveAlternateScreen);
    let _ = execute!(out, Show);
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Restores the terminal before the panic message is printed, so it is readable
/// and the shell works afterwards.
fn install_panic_hook() {
    PANIC_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Puts text on the clipboard with OSC 52 (works over SSH and in tmux with
/// `set-clipboard on`). The text is base64, so nothing in it can end the sequence.
pub fn copy_osc52(text: &str) -> io::Result<()> {
    let bytes = &text.as_bytes()[..text.len().min(OSC52_MAX)];
    let mut out = io::stdout();
    write!(out, "\x1b]52;c;{}\x07", base64(bytes))?;
    out.flush()
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn restore_without_enter_does_nothing() {
        restore();
        assert!(!ACTIVE.load(Ordering::SeqCst));
    }
}
