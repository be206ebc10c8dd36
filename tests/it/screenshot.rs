//! README's screenshot (`assets/screenshot.svg`): the explorer on the demo workspace,
//! drawn by the real panes into ratatui's `TestBackend` and written out as SVG text
//! with each cell's colours. The test fails when the committed file differs from
//! what the explorer draws now; `AGENTRY_UPDATE_SCREENSHOT=1` rewrites it.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::load;
use agentry::model::TextForm;
use agentry::tui::app::App;
use agentry::tui::highlight::{key_of, Highlighter};
use agentry::tui::keymap::Keymap;
use agentry::tui::reader::Shown;
use agentry::tui::theme::Theme;
use agentry::tui::ui;
use clap::Parser;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

const WIDTH: u16 = 120;
const HEIGHT: u16 = 34;
/// The agent the screenshot selects: a name several tools define.
const SELECTED: &str = "security_reviewer";

/// The explorer as `agentry --demo` shows it once the demo is loaded, with the
/// selected agent's prompt highlighted as the explorer highlights it.
fn explorer() -> Buffer {
    let cli = agentry::cli::Cli::parse_from(["agentry", "--demo", "list"]);
    let mut opts = agentry::cli::load_options(&cli.workspace, RenderMode::Live { user_prompt: String::new() }).unwrap_or_else(|f| panic!("{}", f.message));
    opts.texts = TextForm::Held;
    let catalog = Arc::new(load(&opts, &FileCache::new(), 1));
    let mut app = App::new(Keymap::default(), Rect::new(0, 0, WIDTH, HEIGHT));
    app.on_snapshot(catalog.clone());
    let id = catalog.agents().find(|a| a.name == SELECTED).map(|a| a.id()).expect("the selected agent");
    app.select(&id);
    let theme = Theme::builtin("dark").expect("dark theme");
    if let (Some(agent), Some(syntax)) = (app.agent(), theme.syntax.as_deref()) {
        if let Shown::Text(prompt) = app.texts.shown(agent) {
            let (tx, rx) = channel();
            let mut highlighter = Highlighter::spawn(move |h| {
                let _ = tx.send(h);
            });
            highlighter.request(key_of(&prompt, syntax), &prompt, syntax);
            app.highlighted = Some(rx.recv_timeout(Duration::from_secs(120)).expect("highlighted"));
        }
    }
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("terminal");
    terminal.draw(|f| ui::draw(f, &app, &theme)).expect("draw");
    terminal.backend().buffer().clone()
}

/// A terminal's palette for the named colours, and its default foreground and
/// background (the theme's `reset`).
const PALETTE: [&str; 16] = [
    "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5", "#666666", "#f14c4c",
    "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
];
const DEFAULT_FG: &str = "#cccccc";
const DEFAULT_BG: &str = "#1e1e1e";

fn colour(c: Color, default: &str) -> String {
    let indexed = |i: u8| -> String {
        match i {
            0..=15 => PALETTE[usize::from(i)].to_string(),
            16..=231 => {
                let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * u32::from(v) };
                let n = i - 16;
                format!("#{:02x}{:02x}{:02x}", level(n / 36), level(n / 6 % 6), level(n % 6))
            }
            _ => {
                let v = 8 + 10 * u32::from(i - 232);
                format!("#{v:02x}{v:02x}{v:02x}")
            }
        }
    };
    match c {
        Color::Reset => default.to_string(),
        Color::Black => indexed(0),
        Color::Red => indexed(1),
        Color::Green => indexed(2),
        Color::Yellow => indexed(3),
        Color::Blue => indexed(4),
        Color::Magenta => indexed(5),
        Color::Cyan => indexed(6),
        Color::Gray => indexed(7),
        Color::DarkGray => indexed(8),
        Color::LightRed => indexed(9),
        Color::LightGreen => indexed(10),
        Color::LightYellow => indexed(11),
        Color::LightBlue => indexed(12),
        Color::LightMagenta => indexed(13),
        Color::LightCyan => indexed(14),
        Color::White => indexed(15),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => indexed(i),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// One cell's look, as SVG attributes.
#[derive(PartialEq, Clone)]
struct Look {
    fg: String,
    bg: String,
    bold: bool,
    italic: bool,
    line: Option<&'static str>,
    dim: bool,
}

fn look(buffer: &Buffer, x: u16, y: u16) -> Look {
    let cell = &buffer[(x, y)];
    let m = cell.modifier;
    let (mut fg, mut bg) = (colour(cell.fg, DEFAULT_FG), colour(cell.bg, DEFAULT_BG));
    if m.contains(Modifier::REVERSED) {
        std::mem::swap(&mut fg, &mut bg);
    }
    let line = if m.contains(Modifier::CROSSED_OUT) {
        Some("line-through")
    } else if m.contains(Modifier::UNDERLINED) {
        Some("underline")
    } else {
        None
    };
    Look { fg, bg, bold: m.contains(Modifier::BOLD), italic: m.contains(Modifier::ITALIC), line, dim: m.contains(Modifier::DIM) }
}

/// The buffer as SVG: a background rectangle per run of one colour, and a text run
/// per run of one style, each pinned to its columns so the grid holds whatever the
/// font's glyph widths.
fn svg(buffer: &Buffer) -> String {
    const CELL_W: f32 = 8.4;
    const CELL_H: f32 = 18.0;
    let (w, h) = (buffer.area.width, buffer.area.height);
    let (pw, ph) = (f32::from(w) * CELL_W, f32::from(h) * CELL_H);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{pw:.0}\" height=\"{ph:.0}\" viewBox=\"0 0 {pw:.1} {ph:.1}\" font-family=\"ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace\" font-size=\"14\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"{DEFAULT_BG}\"/>");
    for y in 0..h {
        let top = f32::from(y) * CELL_H;
        let mut x = 0;
        while x < w {
            let start = x;
            let first = look(buffer, x, y);
            let mut text = String::new();
            while x < w && look(buffer, x, y) == first {
                let symbol = buffer[(x, y)].symbol();
                text.push_str(if symbol.is_empty() { " " } else { symbol });
                x += 1;
            }
            let (left, width) = (f32::from(start) * CELL_W, f32::from(x - start) * CELL_W);
            if first.bg != DEFAULT_BG {
                let _ = writeln!(
                    out,
                    "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{width:.1}\" height=\"{CELL_H:.1}\" fill=\"{}\"/>",
                    first.bg
                );
            }
            if text.trim().is_empty() {
                continue;
            }
            let mut style = format!("fill=\"{}\"", first.fg);
            if first.bold {
                style.push_str(" font-weight=\"bold\"");
            }
            if first.italic {
                style.push_str(" font-style=\"italic\"");
            }
            if let Some(line) = first.line {
                let _ = write!(style, " text-decoration=\"{line}\"");
            }
            if first.dim {
                style.push_str(" opacity=\"0.6\"");
            }
            let baseline = top + CELL_H * 0.75;
            let _ = writeln!(
                out,
                "<text x=\"{left:.1}\" y=\"{baseline:.1}\" textLength=\"{width:.1}\" lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\" {style}>{}</text>",
                escape(&text)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

#[test]
fn the_readme_screenshot_is_what_the_explorer_draws() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/screenshot.svg");
    let buffer = explorer();
    let screen: String = (0..buffer.area.height)
        .map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    // What the screenshot must show, whatever the layout: the demo, loaded.
    assert!(screen.contains(SELECTED), "{screen}");
    assert!(!screen.contains("loading"), "{screen}");
    let drawn = svg(&buffer);
    if std::env::var_os("AGENTRY_UPDATE_SCREENSHOT").is_some() {
        std::fs::write(&file, &drawn).expect("write assets/screenshot.svg");
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == drawn,
        "assets/screenshot.svg is not what the explorer draws now; rewrite it with \
         AGENTRY_UPDATE_SCREENSHOT=1 cargo test --test screenshot. The explorer now:\n{screen}"
    );
}
