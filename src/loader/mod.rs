//! The background loader: a worker thread that turns a workspace into immutable
//! [`Catalog`] snapshots, so the explorer never waits on the disk.
//!
//! Responsibilities:
//! - a cold load at once, with [`LoaderEvent::Progress`] while it runs and
//!   [`LoaderEvent::Arrived`] as each framework's report is ready;
//! - watching every folder the frameworks searched (and the nearest existing parent
//!   of the ones that do not exist yet), debouncing changes, and publishing a new
//!   snapshot after each burst (see `watch`);
//! - keeping one [`FileCache`] between loads, so a refresh re-reads only the files
//!   whose size, modification time or inode changed ([`Loader::last_stats`]);
//! - falling back to polling, with a visible [`WatchState`], when the operating
//!   system refuses to watch (inotify limits).
//!
//! Events travel over a `std::sync::mpsc` channel; after each event is queued the
//! `wake` callback runs so an event loop blocked elsewhere can look at it.

mod watch;
mod worker;

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::discover::FileCache;
use crate::frameworks::Framework;
use crate::load::LoadOptions;
use crate::model::Catalog;

pub use watch::is_ignored;
pub use worker::{DEBOUNCE, SHOWN_PATIENCE};

/// How the loader notices changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchMode {
    /// The operating system's notifications (inotify, FSEvents, …); polling when
    /// they fail.
    Notify,
    /// Look at the watched folders every so often.
    Poll(Duration),
    /// No live refresh (`--no-watch`); [`Loader::reload`] still works.
    Off,
}

/// What the status bar shows about live refresh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchState {
    Watching { dirs: usize },
    Polling { every: Duration, reason: String },
    Off,
    Failed(String),
}

/// How often the fallback polls when notifications fail.
pub const FALLBACK_POLL: Duration = Duration::from_secs(2);

/// What the loader tells its owner, in order.
#[derive(Clone, Debug)]
pub enum LoaderEvent {
    /// `done` files read so far in the running load, of about `total` (the previous
    /// load's count; 0 when unknown, i.e. during the first load).
    Progress {
        done: usize,
        total: usize,
    },
    /// During a cold load, each time a framework's report is ready: the frameworks
    /// loaded so far (in the order of the complete catalog) and the ids of those
    /// still loading. With nothing pending it is the whole catalog, sent before the
    /// watch is set up; the [`LoaderEvent::Snapshot`] that follows holds the same
    /// reports (the same `Arc`s).
    Arrived { catalog: Arc<Catalog>, pending: Vec<&'static str> },
    /// A new snapshot; its generation is one more than the previous one's.
    Snapshot(Arc<Catalog>),
    Watch(WatchState),
}

/// What one load cost: how the "re-read only what changed" promise is checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub generation: u64,
    /// Reads asked of the file cache during the load.
    pub files_served: u64,
    /// Of those, the files that were actually read from disk (new or changed).
    pub files_read: u64,
    pub bytes_read: u64,
    /// Files parsed (new or changed bytes, for the framework's parse of them).
    pub definitions_parsed: u64,
    /// Definitions resolved rather than reused (a framework's unit: an OpenHands
    /// file, a Tsugite name with its candidates, a fast-agent card file, a Kimi file).
    pub definitions_resolved: u64,
    /// The load trusted the watcher's list of changes (no validation of the rest).
    pub trusted: bool,
    pub elapsed: Duration,
    /// The changed paths that triggered the load (empty for a cold or forced load).
    pub trigger: Vec<std::path::PathBuf>,
}

/// Messages to the worker: from the owner and from the file watcher.
pub(crate) enum Control {
    Reload,
    SetOptions(Box<LoadOptions>),
    Changed(Vec<std::path::PathBuf>),
    /// The watcher lost events (queue overflow): everything may have changed.
    Rescan,
    WatchError(String),
    /// The owner has the first complete catalog on screen ([`Loader::shown`]).
    Shown,
    Stop,
}

/// Owns the worker thread. Dropping it stops the watcher at once and the worker as
/// soon as its current load (if any) ends.
pub struct Loader {
    events: Receiver<LoaderEvent>,
    control: Sender<Control>,
    shared: Arc<worker::Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Loader {
    /// Starts the worker: a first cold load at once, then a new snapshot after every
    /// debounced change. `wake` is called after each event is queued (the explorer
    /// uses it to wake its event loop; it must not block).
    pub fn spawn(opts: LoadOptions, watch: WatchMode, wake: Box<dyn Fn() + Send>) -> Loader {
        Self::spawn_with(None, opts, watch, wake)
    }

    /// [`Loader::spawn`] for an owner that shows the first load as it arrives and
    /// calls [`Loader::shown`] once its complete catalog is on screen: until then (at
    /// most [`SHOWN_PATIENCE`]) the worker leaves the project walk, the watch set-up
    /// and the cache's tidying, which would take the cores the last frame needs. A
    /// change made meanwhile is still seen: folders changed since the load started
    /// get a load of their own once watched.
    pub fn spawn_for_screen(opts: LoadOptions, watch: WatchMode, wake: Box<dyn Fn() + Send>) -> Loader {
        Self::spawn_inner(None, opts, watch, wake, true)
    }

    /// Tells the worker the complete catalog of the first load is on screen.
    pub fn shown(&self) {
        let _ = self.control.send(Control::Shown);
    }

    /// [`Loader::spawn`] with an explicit set of frameworks instead of the ones
    /// `opts` selects (tests bring frameworks of their own).
    pub fn spawn_with(
        frameworks: Option<Vec<&'static dyn Framework>>,
        opts: LoadOptions,
        watch: WatchMode,
        wake: Box<dyn Fn() + Send>,
    ) -> Loader {
        Self::spawn_inner(frameworks, opts, watch, wake, false)
    }

    fn spawn_inner(
        frameworks: Option<Vec<&'static dyn Framework>>,
        opts: LoadOptions,
        watch: WatchMode,
        wake: Box<dyn Fn() + Send>,
        wait_for_screen: bool,
    ) -> Loader {
        let (event_tx, events) = mpsc::channel();
        let (control, control_rx) = mpsc::channel();
        let shared = Arc::new(worker::Shared::default());
        let worker = worker::Worker {
            frameworks,
            opts,
            mode: watch,
            events: event_tx,
            wake,
            control_tx: control.clone(),
            control: control_rx,
            shared: shared.clone(),
            generation: 0,
            last_total: 0,
            state: None,
            walked: Vec::new(),
            rewalked: true,
            aimed_at: None,
            views: Default::default(),
            wait_for_screen,
        };
        let thread = std::thread::Builder::new().name("agentry-loader".into()).spawn(move || worker.run());
        let thread = match thread {
            Ok(t) => Some(t),
            Err(e) => {
                // Without a thread there is nothing to show; say so instead of panicking.
                let (tx, rx) = mpsc::channel();
                let _ = tx.send(LoaderEvent::Watch(WatchState::Failed(format!("cannot start the loader thread: {e}"))));
                return Loader { events: rx, control, shared, thread: None };
            }
        };
        Loader { events, control, shared, thread }
    }

    /// The next event, if one is queued; never blocks.
    pub fn try_recv(&self) -> Option<LoaderEvent> {
        self.events.try_recv().ok()
    }

    /// The event channel (a `std::sync::mpsc` receiver), for owners that want to
    /// block on it.
    pub fn receiver(&self) -> &Receiver<LoaderEvent> {
        &self.events
    }

    /// Forgets every cached file and loads the workspace again.
    pub fn reload(&self) {
        let _ = self.control.send(Control::Reload);
    }

    /// Loads again with new options (other roots, a new user prompt to render with).
    pub fn set_options(&self, opts: LoadOptions) {
        let _ = self.control.send(Control::SetOptions(Box::new(opts)));
    }

    /// What the last finished load cost.
    pub fn last_stats(&self) -> Option<LoadStats> {
        self.shared.stats.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The file cache kept between loads.
    pub fn file_cache(&self) -> Arc<FileCache> {
        self.shared.files.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// How long `drop` waits for the worker to finish before leaving it to end on its own
/// (a cold load of a huge workspace cannot be interrupted midway).
const STOP_WAIT: Duration = Duration::from_millis(200);

impl Drop for Loader {
    fn drop(&mut self) {
        let _ = self.control.send(Control::Stop);
        // The watcher goes first, so no more events arrive whatever the worker does.
        drop(self.shared.watcher.lock().unwrap_or_else(|p| p.into_inner()).take());
        let Some(thread) = self.thread.take() else { return };
        let deadline = std::time::Instant::now() + STOP_WAIT;
        while !thread.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        if thread.is_finished() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::RenderMode;
    use crate::model::Roots;
    use std::collections::BTreeMap;
    use std::time::Instant;

    /// A scratch workspace with an empty OpenHands project folder: (root, agents folder, options).
    fn openhands_workspace(tag: &str, texts: crate::model::TextForm) -> (std::path::PathBuf, std::path::PathBuf, LoadOptions) {
        let root = std::env::temp_dir().join(format!("agentry-loader-{tag}-{}", std::process::id()));
        let agents = root.join("p/.agents/agents");
        std::fs::create_dir_all(&agents).unwrap();
        std::fs::create_dir_all(root.join("h")).unwrap();
        let opts = LoadOptions {
            roots: Roots::new(root.join("p"), root.join("h"), root.join("h/.config"), Some(root.join("h"))),
            ecosystems: vec!["openhands".into()],
            render: RenderMode::Export,
            env: BTreeMap::new(),
            options: BTreeMap::new(),
            texts,
        };
        (root, agents, opts)
    }

    /// An owner that draws the first load waits for nothing, and the watch set-up
    /// waits for its frame: until [`Loader::shown`] no folder is watched, and a file
    /// made meanwhile (before any watch) is still loaded.
    #[test]
    fn the_watch_waits_for_the_complete_frame_and_misses_nothing() {
        let (root, agents, opts) = openhands_workspace("shown", crate::model::TextForm::OnDisk);
        let loader = Loader::spawn_for_screen(opts, WatchMode::Notify, Box::new(|| {}));
        let deadline = Instant::now() + Duration::from_secs(20);
        let next =
            || loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("an event");
        loop {
            if let LoaderEvent::Arrived { pending, .. } = next() {
                if pending.is_empty() {
                    break;
                }
            }
        }
        std::fs::write(agents.join("a.md"), "---\nname: meanwhile\n---\nHi.\n").unwrap();
        std::thread::sleep(Duration::from_millis(300));
        while let Some(event) = loader.try_recv() {
            assert!(!matches!(event, LoaderEvent::Watch(WatchState::Watching { .. }) | LoaderEvent::Snapshot(_)));
        }
        loader.shown();
        let mut watching = false;
        loop {
            match next() {
                LoaderEvent::Watch(WatchState::Watching { .. }) => watching = true,
                LoaderEvent::Snapshot(c) if c.agents().any(|a| a.name == "meanwhile") => break,
                _ => {}
            }
        }
        assert!(watching);
        drop(loader);
        let _ = std::fs::remove_dir_all(&root);
    }

    /// What the worker does when the watcher reports the watch limit (inotify's
    /// `ENOSPC`, which cannot be provoked without changing the machine's limits):
    /// it says so and keeps refreshing by polling.
    #[test]
    fn a_watch_failure_falls_back_to_polling_and_refresh_goes_on() {
        let (root, agents, opts) = openhands_workspace("fallback", crate::model::TextForm::Held);
        let loader = Loader::spawn(opts, WatchMode::Notify, Box::new(|| {}));
        let deadline = Instant::now() + Duration::from_secs(20);
        let next =
            || loader.receiver().recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("an event");
        while !matches!(next(), LoaderEvent::Watch(WatchState::Watching { .. })) {}
        let _ = loader.control.send(Control::WatchError("OS file watch limit reached.".into()));
        let reason = loop {
            if let LoaderEvent::Watch(WatchState::Polling { every, reason }) = next() {
                assert_eq!(every, FALLBACK_POLL);
                break reason;
            }
        };
        assert!(reason.contains("file watching failed: OS file watch limit reached."), "{reason}");
        // The load that follows the fallback hands the poller its folders; a change
        // after it can only be seen by polling.
        while !matches!(next(), LoaderEvent::Snapshot(_)) {}
        let written = Instant::now();
        std::fs::write(agents.join("a.md"), "---\nname: polled\n---\nHi.\n").unwrap();
        loop {
            if let LoaderEvent::Snapshot(c) = next() {
                if c.agents().any(|a| a.name == "polled") {
                    assert!(written.elapsed() >= worker::DEBOUNCE);
                    break;
                }
            }
        }
        drop(loader);
        let _ = std::fs::remove_dir_all(&root);
    }
}
