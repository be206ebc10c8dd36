//! The interactive explorer (`agentry` with no subcommand).
//!
//! One channel feeds the UI thread: terminal input (from a reader thread), the
//! loader's wake-ups, finished highlights, prompts and diff views read from disk
//! ([`reader`]) and signals. The loop sleeps on that channel, applies everything
//! queued (bursts coalesce into one frame) and draws only when something changed:
//! no timer-driven frames, so an idle explorer uses no CPU. State lives in
//! [`app::App`] (pure); this module performs its effects.

pub mod action;
pub mod app;
pub mod finder;
pub mod haystacks;
pub mod highlight;
pub mod index;
pub mod keymap;
pub mod layout;
pub mod overlays;
pub mod panes;
pub mod reader;
pub mod terminal;
pub mod theme;
pub mod ui;

use std::io;
use std::path::Path;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crossterm::event::{self, Event as TermEvent, KeyEventKind, MouseEventKind};
use ratatui::layout::Rect;

use self::action::Effect;
use self::app::App;
use self::highlight::{key_of, Highlighted, Highlighter};
use self::reader::{Answer, Reader, Shown};
use self::theme::Theme;
use crate::workspace::{load_options, Failure, WorkspaceArgs};
use crate::frameworks::RenderMode;
use crate::loader::{Loader, LoaderEvent, WatchMode, WatchState};
use crate::model::{Catalog, TextForm};

/// The explorer's own flags.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub theme: Option<String>,
    pub no_watch: bool,
    pub poll: Option<u64>,
}

/// Everything that wakes the UI thread.
enum Event {
    Term(TermEvent),
    Loader,
    /// A snapshot's lookups, with the frameworks it still lacks.
    Indexed(Box<index::Index>, Vec<&'static str>),
    /// A complete snapshot of the reports just indexed: nothing to build again.
    SameReports(Arc<Catalog>),
    Highlighted(Highlighted),
    Read(Answer),
    Signal,
}

/// Asks the kernel for no transparent huge pages in this process. The explorer
/// loads a workspace once and then lives with it, so what stays resident matters
/// more than the page faults of that first load: with huge pages (which the
/// allocator asks for) a 2 MiB page stays whole for a few live objects, and peak
/// memory on a workspace of 100,000 agents was 6 % higher. The command line keeps
/// them: it exits right after its one load.
pub fn prefer_small_pages() {
    #[cfg(target_os = "linux")]
    let _ = nix::sys::prctl::set_thp_disable(true);
}

/// Runs the explorer until the user quits; returns the exit code.
pub fn run(ws: &WorkspaceArgs, options: &Options) -> Result<i32, Failure> {
    prefer_small_pages();
    let env = |k: &str| std::env::var(k).ok();
    let loaded = crate::config::load(crate::config::default_path(&env).as_deref());
    let mut problems: Vec<String> = loaded.error.into_iter().collect();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let mut theme = match theme::choose(options.theme.as_deref(), &loaded.config.theme, no_color) {
        Ok(t) => t,
        Err(e) if options.theme.is_some() => return Err(Failure::usage(e)),
        Err(e) => {
            problems.push(e);
            Theme::builtin(if no_color { "mono" } else { "dark" }).unwrap_or_default()
        }
    };
    if let Err(e) = theme.patch(&loaded.config.roles) {
        problems.push(e);
    }
    let (keymap, key_problems) = keymap::Keymap::new(&loaded.config.key_overrides());
    problems.extend(key_problems);
    let watch = match (options.no_watch, options.poll.or(Some(loaded.config.poll_secs).filter(|s| *s > 0))) {
        (true, _) => WatchMode::Off,
        (false, Some(secs)) => WatchMode::Poll(Duration::from_secs(secs.max(1))),
        (false, None) if !loaded.config.watch => WatchMode::Off,
        (false, None) => WatchMode::Notify,
    };
    let mut opts = load_options(ws, RenderMode::Live { user_prompt: String::new() })?;
    // Prompts are most of a workspace's bytes, and one is shown at a time.
    opts.texts = TextForm::OnDisk;

    let (tx, rx) = channel::<Event>();
    let wake = tx.clone();
    let loader = Loader::spawn_for_screen(
        opts,
        watch,
        Box::new(move || {
            let _ = wake.send(Event::Loader);
        }),
    );
    let signals = spawn_signal_thread(tx.clone());
    let gate = Arc::new(Gate::default());
    spawn_input_thread(tx.clone(), gate.clone());
    let indexer = spawn_indexer(tx.clone());
    let highlighted = tx.clone();
    let mut highlighter = Highlighter::spawn(move |h| {
        let _ = highlighted.send(Event::Highlighted(h));
    });
    let read = tx.clone();
    let mut reader = Reader::spawn(move |answer| {
        let _ = read.send(Event::Read(answer));
    });

    let io_failure = |e: io::Error| Failure { code: 1, message: format!("terminal: {e}") };
    let mut guard = terminal::Guard::enter().map_err(io_failure)?;
    let size = guard.terminal.size().map_err(io_failure)?;
    let mut app = App::new(keymap, Rect::new(0, 0, size.width, size.height));
    if !problems.is_empty() {
        app.config_error = Some(problems.join("; "));
    }
    let mut driver =
        Driver { loader, gate, theme, highlighter: &mut highlighter, reader: &mut reader, indexer, shown: false };
    let result = driver.run(&mut guard, &mut app, &rx);
    drop(guard);
    if let Some(handle) = signals {
        handle.close();
    }
    result.map(|_| 0).map_err(io_failure)
}

/// Performs the app's effects and runs the loop.
struct Driver<'a> {
    loader: Loader,
    gate: Arc<Gate>,
    theme: Theme,
    highlighter: &'a mut Highlighter,
    reader: &'a mut Reader,
    /// Snapshots (with the frameworks they still lack) go here to have their lookups
    /// built off the UI thread.
    indexer: Sender<(Arc<Catalog>, Vec<&'static str>)>,
    /// The first complete catalog has been drawn (and the loader told).
    shown: bool,
}

impl Driver<'_> {
    fn run(&mut self, guard: &mut terminal::Guard, app: &mut App, rx: &Receiver<Event>) -> io::Result<()> {
        self.draw(guard, app)?;
        while let Ok(first) = rx.recv() {
            let mut dirty = self.handle(first, guard, app)?;
            while let Ok(next) = rx.try_recv() {
                dirty |= self.handle(next, guard, app)?;
            }
            if app.quit {
                break;
            }
            if dirty {
                self.draw(guard, app)?;
            }
        }
        Ok(())
    }

    fn draw(&mut self, guard: &mut terminal::Guard, app: &App) -> io::Result<()> {
        if let Some(agent) = app.agent() {
            if let Some(key) = app.texts.wanted(agent) {
                self.reader.read(vec![(key, agent.clone())]);
            }
        }
        crossterm::execute!(io::stdout(), crossterm::terminal::BeginSynchronizedUpdate)?;
        guard.terminal.draw(|frame| ui::draw(frame, app, &self.theme))?;
        crossterm::execute!(io::stdout(), crossterm::terminal::EndSynchronizedUpdate)?;
        let complete = app.index.is_some() && app.pending.is_empty() && app.progress.is_none();
        if complete && !self.shown {
            // The loader's watch set-up and tidying waited for this frame.
            self.shown = true;
            self.loader.shown();
        }
        // Highlighting (syntect's first use loads its syntaxes) waits for the first
        // load to end and its frame to be out: it would take the cores they need.
        let syntax = self.theme.syntax.as_deref().filter(|_| app.pending.is_empty());
        if let (Some(agent), Some(syntax)) = (app.agent(), syntax) {
            if let Shown::Text(prompt) = app.texts.shown(agent) {
                let key = key_of(&prompt, syntax);
                if app.highlighted.as_ref().is_none_or(|h| h.key != key) {
                    self.highlighter.request(key, &prompt, syntax);
                }
            }
        }
        Ok(())
    }

    /// Applies one event; `true` when the screen must be redrawn. A terminal event
    /// lets the input thread read the next one once it is handled.
    fn handle(&mut self, event: Event, guard: &mut terminal::Guard, app: &mut App) -> io::Result<bool> {
        let from_terminal = matches!(event, Event::Term(_));
        let dirty = self.apply(event, guard, app);
        if from_terminal {
            self.gate.handled();
        }
        dirty
    }

    fn apply(&mut self, event: Event, guard: &mut terminal::Guard, app: &mut App) -> io::Result<bool> {
        let effect = match event {
            Event::Signal => {
                app.quit = true;
                return Ok(false);
            }
            Event::Highlighted(h) => {
                app.highlighted = Some(h);
                return Ok(true);
            }
            Event::Read(Answer::Text(read)) => {
                self.reader.answered(read.key);
                app.texts.answer(read);
                return Ok(true);
            }
            Event::Read(Answer::Diff { winner, other, view }) => {
                app.set_diff_view(&winner, &other, view);
                return Ok(true);
            }
            Event::Loader => {
                let mut dirty = false;
                while let Some(event) = self.loader.try_recv() {
                    dirty |= match event {
                        LoaderEvent::Progress { done, total } => {
                            let shown = app.progress != Some((done, total));
                            app.progress = Some((done, total));
                            shown
                        }
                        LoaderEvent::Arrived { catalog, pending } => self.index(catalog, pending, guard, app)?,
                        // The complete catalog, already on screen when it arrived framework
                        // by framework: only its generation is new.
                        LoaderEvent::Snapshot(catalog) if app.on_same_reports(catalog.clone()) => false,
                        LoaderEvent::Snapshot(catalog) => self.index(catalog, Vec::new(), guard, app)?,
                        LoaderEvent::Watch(state) => {
                            let words = watch_words(&state);
                            let shown = app.watch != words;
                            app.watch = words;
                            shown
                        }
                    };
                }
                return Ok(dirty);
            }
            Event::Indexed(index, pending) => app.on_partial_index(*index, pending),
            Event::SameReports(catalog) if app.on_same_reports(catalog.clone()) => return Ok(true),
            // Not what the explorer shows after all (cannot happen: the index it shows
            // came from the same thread): build the lookups here.
            Event::SameReports(catalog) => app.on_snapshot(catalog),
            Event::Term(TermEvent::Key(key)) if key.kind != KeyEventKind::Release => {
                panic_if_asked_by_a_test();
                app.on_key(key)
            }
            Event::Term(TermEvent::Mouse(m)) if !matches!(m.kind, MouseEventKind::Moved | MouseEventKind::Drag(_)) => {
                app.on_mouse(m)
            }
            Event::Term(TermEvent::Paste(text)) => {
                app.on_paste(&text);
                None
            }
            Event::Term(TermEvent::Resize(w, h)) => {
                app.on_resize(w, h);
                None
            }
            Event::Term(_) => return Ok(false),
        };
        if let Some(effect) = effect {
            self.perform(effect, guard, app)?;
        }
        Ok(true)
    }

    /// Hands a snapshot to the indexing thread; `true` when the screen changed
    /// already (no such thread: the lookups were built here).
    fn index(
        &mut self,
        catalog: Arc<Catalog>,
        pending: Vec<&'static str>,
        guard: &mut terminal::Guard,
        app: &mut App,
    ) -> io::Result<bool> {
        match self.indexer.send((catalog, pending)) {
            Ok(()) => Ok(false),
            Err(std::sync::mpsc::SendError((catalog, pending))) => {
                if let Some(effect) = app.on_partial_index(index::Index::new(catalog), pending) {
                    self.perform(effect, guard, app)?;
                }
                Ok(true)
            }
        }
    }

    fn perform(&mut self, effect: Effect, guard: &mut terminal::Guard, app: &mut App) -> io::Result<()> {
        match effect {
            Effect::Quit => app.quit = true,
            Effect::Reload => self.loader.reload(),
            Effect::Copy(text) => terminal::copy_osc52(&text)?,
            Effect::OpenDiff { winner, other } => {
                let pair = app.index.as_ref().and_then(|index| {
                    Some((index.agent(index.by_id(&winner)?).clone(), index.agent(index.by_id(&other)?).clone()))
                });
                if let Some((w, o)) = pair {
                    self.reader.diff(w, o);
                }
            }
            Effect::Edit { path, line } => {
                // Edits come from a key, and the input thread reads nothing until that
                // key is handled (see `Gate`): the editor has the keyboard to itself.
                let status = guard.suspended(|| open_editor(&path, line))?;
                if let Err(e) = status {
                    app.notice = Some(e);
                }
                // Sizes may have changed while the editor ran.
                let size = guard.terminal.size()?;
                app.on_resize(size.width, size.height);
            }
        }
        Ok(())
    }
}

/// The environment variable and the exact value that make the explorer panic at the
/// next key press, so that `tests/it/tui_e2e.rs` can check the terminal is restored
/// after a panic. Inert unless set to exactly this value: no user sets it by chance,
/// and nothing in agentry sets it.
pub const TEST_PANIC_VAR: &str = "AGENTRY_TEST_PANIC";
pub const TEST_PANIC_VALUE: &str = "panic-at-next-key";

fn panic_if_asked_by_a_test() {
    if std::env::var_os(TEST_PANIC_VAR).is_some_and(|v| v == TEST_PANIC_VALUE) {
        panic!("{TEST_PANIC_VAR}={TEST_PANIC_VALUE}: a deliberate panic to test that the terminal is restored");
    }
}

fn watch_words(state: &WatchState) -> String {
    match state {
        WatchState::Watching { dirs } => format!("watching {dirs} folders"),
        WatchState::Polling { every, reason } => format!("polling every {}s ({reason})", every.as_secs()),
        WatchState::Off => "live refresh off (r reloads)".into(),
        WatchState::Failed(e) => format!("watch failed: {e}"),
    }
}

/// Runs `$VISUAL`/`$EDITOR` (default `vi`) as `EDITOR +LINE PATH`.
fn open_editor(path: &Path, line: Option<u32>) -> Result<(), String> {
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .or_else(|| std::env::var("EDITOR").ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".into());
    let mut words = editor.split_whitespace();
    let program = words.next().unwrap_or("vi");
    let mut command = std::process::Command::new(program);
    command.args(words);
    if let Some(line) = line {
        command.arg(format!("+{line}"));
    }
    command.arg(path);
    match command.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{program} exited with {s}")),
        Err(e) => Err(format!("cannot run {program}: {e}")),
    }
}

/// Hands each terminal event from the input thread to the UI thread and waits until
/// it is handled before reading the next. So the input thread blocks in its read
/// (an idle explorer never wakes), and while a key's effect runs a child process
/// that owns the terminal (`$EDITOR`), nothing else reads the keyboard.
#[derive(Default)]
struct Gate {
    in_hand: Mutex<bool>,
    changed: Condvar,
}

impl Gate {
    /// The input thread: an event is on its way to the UI thread.
    fn hand_over(&self) {
        if let Ok(mut h) = self.in_hand.lock() {
            *h = true;
        }
    }

    /// The input thread: returns once the UI thread has handled the event.
    fn wait_handled(&self) {
        let Ok(mut h) = self.in_hand.lock() else { return };
        while *h {
            match self.changed.wait(h) {
                Ok(next) => h = next,
                Err(_) => return,
            }
        }
    }

    /// The UI thread: the event handed over is handled.
    fn handled(&self) {
        if let Ok(mut h) = self.in_hand.lock() {
            *h = false;
        }
        self.changed.notify_all();
    }
}

fn spawn_input_thread(tx: Sender<Event>, gate: Arc<Gate>) {
    let _ = std::thread::Builder::new().name("agentry-input".into()).spawn(move || loop {
        let Ok(ev) = event::read() else { return };
        gate.hand_over();
        if tx.send(Event::Term(ev)).is_err() {
            return;
        }
        gate.wait_handled();
    });
}

/// The least time between two indexes of a partial catalog, and the least multiple
/// of the last one's cost: while the first load runs on every core, indexing each
/// arrival at once would slow the load that the complete catalog waits for.
const PARTIAL_GAP: Duration = Duration::from_millis(100);
const PARTIAL_DUTY: u32 = 4;

/// Builds each snapshot's lookups on its own thread; when snapshots come faster than
/// they are indexed, only the newest is. Partial catalogs are indexed at most every
/// [`PARTIAL_GAP`] (the complete one at once), and a snapshot of the very reports
/// just indexed is not indexed again.
fn spawn_indexer(tx: Sender<Event>) -> Sender<(Arc<Catalog>, Vec<&'static str>)> {
    let (snapshots, rx) = channel::<(Arc<Catalog>, Vec<&'static str>)>();
    let _ = std::thread::Builder::new().name("agentry-index".into()).spawn(move || {
        let mut last: Option<Arc<Catalog>> = None;
        // What the last index derived from each report: an arrival or a refresh
        // indexes only the reports it brings.
        let mut parts: Vec<Arc<index::ReportParts>> = Vec::new();
        let mut not_before = std::time::Instant::now();
        while let Ok(mut snapshot) = rx.recv() {
            loop {
                while let Ok(newer) = rx.try_recv() {
                    snapshot = newer;
                }
                let wait = not_before.saturating_duration_since(std::time::Instant::now());
                if snapshot.1.is_empty() || wait.is_zero() {
                    break;
                }
                match rx.recv_timeout(wait) {
                    Ok(newer) => snapshot = newer,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => break,
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
                }
            }
            let (catalog, pending) = snapshot;
            if last.as_ref().is_some_and(|l| same_reports(l, &catalog)) {
                if tx.send(Event::SameReports(catalog)).is_err() {
                    return;
                }
                continue;
            }
            let started = std::time::Instant::now();
            let index = index::Index::reusing(catalog.clone(), &parts);
            parts = index.parts().to_vec();
            if !pending.is_empty() {
                not_before = std::time::Instant::now() + PARTIAL_GAP.max(started.elapsed() * PARTIAL_DUTY);
            }
            last = Some(catalog);
            if tx.send(Event::Indexed(Box::new(index), pending)).is_err() {
                return;
            }
        }
    });
    snapshots
}

/// The two catalogs hold the very same reports (the same `Arc`s, in order).
fn same_reports(a: &Catalog, b: &Catalog) -> bool {
    a.reports.len() == b.reports.len() && a.reports.iter().zip(&b.reports).all(|(x, y)| Arc::ptr_eq(x, y))
}

/// SIGTERM, SIGINT and SIGHUP end the loop normally, so the terminal is restored.
fn spawn_signal_thread(tx: Sender<Event>) -> Option<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]).ok()?;
    let handle = signals.handle();
    let _ = std::thread::Builder::new().name("agentry-signals".into()).spawn(move || {
        for _ in signals.forever() {
            if tx.send(Event::Signal).is_err() {
                return;
            }
        }
    });
    Some(handle)
}
