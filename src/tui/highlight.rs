//! Syntax highlighting of prompts (Markdown) with syntect, off the UI thread. The
//! syntax and theme sets are loaded on the worker's first request, so startup never
//! pays for them; a panic inside syntect (known on some grammars) is caught and the
//! prompt stays plain text. Text is sanitised before it is highlighted, so the
//! highlighted spans can hold nothing but printable characters.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Sender};

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, ThemeSet};
use syntect::parsing::SyntaxSet;

use crate::text::sanitize;

/// Lines highlighted per prompt; the rest is shown plain (a prompt this long is
/// read by scrolling, and highlighting is quadratic in the worst grammar paths).
const MAX_LINES: usize = 5000;

/// A prompt's highlighted lines, tagged with the key of the text and theme they
/// were made from.
#[derive(Clone, Debug)]
pub struct Highlighted {
    pub key: u64,
    pub lines: Vec<Line<'static>>,
}

/// Identifies one (text, syntect theme) pair.
pub fn key_of(text: &str, theme: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    theme.hash(&mut h);
    h.finish()
}

struct Request {
    key: u64,
    text: String,
    theme: String,
}

/// The highlighting worker. Dropping it ends the thread.
pub struct Highlighter {
    requests: Sender<Request>,
    last: Option<u64>,
}

impl Highlighter {
    /// Starts the worker; `done` receives each result (the driver forwards it to
    /// the UI loop).
    pub fn spawn(done: impl Fn(Highlighted) + Send + 'static) -> Highlighter {
        let (requests, rx) = channel::<Request>();
        // Without the thread, prompts simply stay plain.
        let _ = std::thread::Builder::new().name("agentry-highlight".into()).spawn(move || {
            let mut sets: Option<(SyntaxSet, ThemeSet)> = None;
            while let Ok(mut request) = rx.recv() {
                // Only the newest request matters when the selection moved fast.
                while let Ok(newer) = rx.try_recv() {
                    request = newer;
                }
                let (syntaxes, themes) =
                    sets.get_or_insert_with(|| (SyntaxSet::load_defaults_newlines(), ThemeSet::load_defaults()));
                let lines =
                    catch_unwind(AssertUnwindSafe(|| markdown(syntaxes, themes, &request.text, &request.theme)))
                        .ok()
                        .flatten()
                        .unwrap_or_else(|| plain(&request.text));
                done(Highlighted { key: request.key, lines });
            }
        });
        Highlighter { requests, last: None }
    }

    /// Asks for the text to be highlighted, unless it was the last thing asked.
    pub fn request(&mut self, key: u64, text: &str, theme: &str) {
        if self.last == Some(key) {
            return;
        }
        self.last = Some(key);
        let _ = self.requests.send(Request { key, text: text.to_string(), theme: theme.to_string() });
    }
}

/// The text as plain, sanitised lines.
pub fn plain(text: &str) -> Vec<Line<'static>> {
    sanitize::text(text).lines().map(|l| Line::raw(l.to_string())).collect()
}

fn markdown(syntaxes: &SyntaxSet, themes: &ThemeSet, text: &str, theme: &str) -> Option<Vec<Line<'static>>> {
    let syntax = syntaxes.find_syntax_by_extension("md")?;
    let theme = themes.themes.get(theme)?;
    let mut highlighter = HighlightLines::new(syntax, theme);
    let clean = sanitize::text(text);
    let mut out = Vec::new();
    for (i, line) in clean.split('\n').enumerate() {
        if i >= MAX_LINES {
            out.push(Line::raw(line.to_string()));
            continue;
        }
        let with_newline = format!("{line}\n");
        let ranges = highlighter.highlight_line(&with_newline, syntaxes).ok()?;
        let spans: Vec<Span<'static>> = ranges
            .into_iter()
            .map(|(style, piece)| Span::styled(piece.trim_end_matches('\n').to_string(), convert(style)))
            .filter(|s| !s.content.is_empty())
            .collect();
        out.push(Line::from(spans));
    }
    // `split` yields one empty piece after a final newline; `lines()` does not.
    if clean.ends_with('\n') {
        out.pop();
    }
    Some(out)
}

fn convert(style: syntect::highlighting::Style) -> Style {
    let fg = style.foreground;
    let mut out = Style::default().fg(Color::Rgb(fg.r, fg.g, fg.b));
    if style.font_style.contains(FontStyle::BOLD) {
        out = out.add_modifier(Modifier::BOLD);
    }
    if style.font_style.contains(FontStyle::ITALIC) {
        out = out.add_modifier(Modifier::ITALIC);
    }
    if style.font_style.contains(FontStyle::UNDERLINE) {
        out = out.add_modifier(Modifier::UNDERLINED);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_is_highlighted_and_escapes_stay_inert() {
        let syntaxes = SyntaxSet::load_defaults_newlines();
        let themes = ThemeSet::load_defaults();
        let lines = markdown(&syntaxes, &themes, "# Title\n\nevil \x1b]0;pwned\x07 text\n", "base16-ocean.dark")
            .expect("lines");
        assert_eq!(lines.len(), 3);
        let heading_fg = lines[0].spans[0].style.fg;
        let body: String = lines[2].spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(body, "evil ^[]0;pwned^G text");
        assert!(heading_fg.is_some());
        assert!(markdown(&syntaxes, &themes, "x", "no such theme").is_none());
    }

    #[test]
    fn the_worker_answers_with_the_key_asked_for() {
        let (tx, rx) = channel();
        let mut h = Highlighter::spawn(move |done| {
            let _ = tx.send(done);
        });
        let key = key_of("*hi*", "InspiredGitHub");
        h.request(key, "*hi*", "InspiredGitHub");
        let got = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("highlighted");
        assert_eq!(got.key, key);
        assert_eq!(got.lines.len(), 1);
    }
}
