//! Benchmarks of the explorer's hot paths on a synthetic catalog (not timed tests):
//! the first frame before any snapshot, indexing a 100,000-agent snapshot, and one
//! fuzzy-finder keystroke (match + list rebuild + redraw) over 100,000 agents.
//!
//!     cargo run --release --features bench-examples --example tui_bench [AGENTS]

// The suite's timing helpers, shared rather than copied.
#[allow(dead_code)]
#[path = "suite/measure.rs"]
mod measure;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentry::model::*;
use agentry::tui::app::App;
use agentry::tui::keymap::Keymap;
use agentry::tui::theme::Theme;
use agentry::tui::ui;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

const WORDS: &[&str] = &[
    "review", "plan", "code", "test", "deploy", "search", "write", "doc", "triage", "sql", "web", "api", "infra",
    "lint", "data",
];

fn catalog(n: usize) -> Arc<Catalog> {
    let ecosystems = ["openhands", "tsugite", "fast-agent", "kimi"];
    let mut reports: Vec<EcosystemReport> = ecosystems.iter().map(|e| EcosystemReport::new(e)).collect();
    for i in 0..n {
        let eco = ecosystems[i % 4];
        let name = format!("{}-{}-{}", WORDS[i % WORDS.len()], WORDS[(i / 7) % WORDS.len()], i / 3);
        let rel = format!("agents/team{}/{}.md", i % 97, name);
        let source =
            Source { scope: Scope::Project, path: PathBuf::from(format!("/w/project/{rel}")).into(), rel, card: None };
        let status = if i % 3 == 0 { Status::Wins } else { Status::Shadowed };
        reports[i % 4].agents.push(AgentRecord {
            undocumented_order: None,
            ecosystem: eco,
            name: name.clone(),
            chain: std::sync::Arc::new([source.key()]),
            source,
            status,
            shadowed_by: None,
            rule: "searched first".into(),
            description: format!(
                "{} agent for the {} team, number {i}",
                WORDS[i % WORDS.len()],
                WORDS[(i / 11) % WORDS.len()]
            )
            .into(),
            fields: Default::default(),
            attributes: Default::default(),
            system_prompt: Some(format!("# {name}\n\nYou are a helpful agent.\n").into()),
            messages: Default::default(),
            edges: Default::default(),
        }.into());
    }
    Arc::new(Catalog {
        generation: 1,
        roots: Roots::new("/w/project".into(), "/w/home".into(), "/w/xdg".into(), None),
        reports: reports.into_iter().map(Arc::new).collect(),
    })
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let theme = Theme::builtin("dark").expect("theme");
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("terminal");

    let t = Instant::now();
    let app = App::new(Keymap::default(), Rect::new(0, 0, 160, 48));
    terminal.draw(|f| ui::draw(f, &app, &theme)).expect("draw");
    println!("first frame (before any snapshot):   {:>8.2?}", t.elapsed());

    let catalog = catalog(n);
    let mut app = app;
    let t = Instant::now();
    app.on_snapshot(catalog);
    let indexed = t.elapsed();
    let t = Instant::now();
    terminal.draw(|f| ui::draw(f, &app, &theme)).expect("draw");
    println!("snapshot of {n} agents indexed:   {indexed:>8.2?}, then drawn in {:.2?}", t.elapsed());

    for query in ["review", "tsg", "team42", "zzz"] {
        let mut times = Vec::new();
        let cpu_start = measure::own_cpu();
        for _ in 0..5 {
            app.on_key(KeyEvent::new(KeyCode::Char('/'), KeyModifiers::NONE));
            for c in query.chars() {
                let t = Instant::now();
                app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
                terminal.draw(|f| ui::draw(f, &app, &theme)).expect("draw");
                times.push(t.elapsed());
            }
            app.on_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        }
        let cpu_per_key = (measure::own_cpu() - cpu_start) / times.len() as u32;
        let worst = *times.iter().max().expect("times");
        let first: Vec<Duration> = times.iter().step_by(query.len()).copied().collect();
        println!(
            "keystroke, query {query:>7}: wall median {:>8.2?}, first key {:>8.2?}, worst {:>8.2?}; CPU per key {:>8.2?}",
            measure::median(&times),
            measure::median(&first),
            worst,
            cpu_per_key
        );
    }
    // The parts of a keystroke, separately: scoring alone, on one query.
    let index = app.index.as_ref().expect("index");
    for query in ["r", "re", "rev", "review", "tsg"] {
        let (t, c) = (Instant::now(), measure::own_cpu());
        let found = agentry::tui::finder::rank(&app.ranker, &index.haystacks, None, query);
        println!(
            "rank alone {query:>7} over all: wall {:>8.2?}, CPU {:>8.2?} ({} matches)",
            t.elapsed(),
            measure::own_cpu() - c,
            found.len()
        );
    }
    let matches = app.rows.len();
    println!("(rows after the last query closed: {matches})");
}
