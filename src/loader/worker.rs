//! The worker thread: waits for a reason to load (start, a debounced burst of
//! changes, a forced reload, new options), loads, publishes, and re-aims the watcher.
//! It blocks on its control channel in between, so an idle loader costs no CPU.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use super::watch::{self, Watcher};
use super::{Control, LoadStats, LoaderEvent, WatchMode, WatchState, FALLBACK_POLL};
use crate::discover::{FileCache, Measure, Pass};
use crate::frameworks::Framework;
use crate::load::{load_each, LoadOptions};
use crate::model::{Catalog, EcosystemReport};

/// Quiet time that ends a burst of changes: long enough to take an editor's
/// write-rename-chmod save as one change, short enough to feel live.
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// A burst that never goes quiet (a build writing into a watched folder) still gets
/// a snapshot this often.
const MAX_DEBOUNCE: Duration = Duration::from_secs(1);
/// How often a running load reports progress.
const PROGRESS_TICK: Duration = Duration::from_millis(50);
/// How long a cold load's watch set-up waits for the owner to say the complete
/// catalog is on screen ([`super::Loader::spawn_for_screen`]).
pub const SHOWN_PATIENCE: Duration = Duration::from_secs(2);
/// Runs `load` on a thread pool of its own whose threads have ended when it returns
/// (on the global pool when no thread can be started). The allocator gives a
/// thread's freed pages back to the system only when that thread allocates again or
/// ends: the global pool's workers, idle once a load is over, kept about 16 MB each
/// resident after a load of the `huge` bench workspace (peak 456 MB with two).
fn in_own_pool<T: Send>(load: impl FnOnce() -> T + Send) -> T {
    let threads: Arc<Mutex<Vec<std::thread::JoinHandle<()>>>> = Arc::default();
    let spawned = Arc::clone(&threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("agentry-load-{i}"))
        .spawn_handler(move |thread| {
            let mut builder = std::thread::Builder::new();
            if let Some(name) = thread.name() {
                builder = builder.name(name.to_owned());
            }
            if let Some(size) = thread.stack_size() {
                builder = builder.stack_size(size);
            }
            let handle = builder.spawn(|| thread.run())?;
            spawned.lock().unwrap_or_else(|p| p.into_inner()).push(handle);
            Ok(())
        })
        .build();
    let Ok(pool) = pool else { return load() };
    let out = pool.install(load);
    drop(pool);
    // The pool ends its threads once their last job is done; joined, their memory is back.
    for handle in std::mem::take(&mut *threads.lock().unwrap_or_else(|p| p.into_inner())) {
        let _ = handle.join();
    }
    out
}

/// How far a file system's modification stamps may lag the wall clock.
const CLOCK_SLACK: Duration = Duration::from_millis(50);

/// State the owner reads while the worker runs.
#[derive(Default)]
pub(crate) struct Shared {
    pub stats: Mutex<Option<LoadStats>>,
    pub files: Mutex<Arc<FileCache>>,
    /// Held here rather than in the worker so that dropping the loader ends the
    /// watch at once, even while a load is running.
    pub watcher: Mutex<Option<Watcher>>,
}

/// What the running load tells the worker.
enum Tick {
    /// The framework at this position in the load's list has its report.
    Arrived(usize, Arc<EcosystemReport>),
    Done,
}

/// Why a load runs.
enum Trigger {
    Cold,
    Changed(BTreeSet<PathBuf>),
    Full,
}

pub(crate) struct Worker {
    /// `None`: the frameworks `opts` selects.
    pub frameworks: Option<Vec<&'static dyn Framework>>,
    pub opts: LoadOptions,
    pub mode: WatchMode,
    pub events: Sender<LoaderEvent>,
    pub wake: Box<dyn Fn() + Send>,
    /// A sender of its own control channel, for the watcher and follow-up loads.
    pub control_tx: Sender<Control>,
    pub control: Receiver<Control>,
    pub shared: Arc<Shared>,
    /// The generation of the last snapshot published (0 before the first).
    pub generation: u64,
    /// Reads of the last load: the expected total of the next one.
    pub last_total: usize,
    /// The watch state last published.
    pub state: Option<WatchState>,
    /// The project's folders found by the last walk (see [`watch::walk`]).
    pub walked: Vec<PathBuf>,
    /// The last load walked again: folders may have come or gone.
    pub rewalked: bool,
    /// What the watcher was last aimed from (see [`AimedAt`]).
    pub aimed_at: Option<AimedAt>,
    /// The reports last published and their views ([`Catalog::view_reusing`]).
    pub views: std::cell::RefCell<Vec<(Arc<EcosystemReport>, Arc<EcosystemReport>)>>,
    /// After a cold load, wait for [`Control::Shown`] before walking and watching.
    pub wait_for_screen: bool,
}

/// Everything [`watch::targets`] depends on besides the walk, which is only redone
/// when folders may have come or gone: a refresh with the same inputs leaves the
/// watched folders as they are, so the watcher is not aimed again.
#[derive(PartialEq, Eq)]
pub(crate) struct AimedAt {
    folders_version: u64,
    roots: [PathBuf; 3],
    searched: Vec<(PathBuf, Option<PathBuf>)>,
}

impl AimedAt {
    fn of(catalog: &Catalog, files: &FileCache) -> AimedAt {
        let searched = catalog
            .reports
            .iter()
            .flat_map(|r| {
                r.places
                    .iter()
                    .map(|p| (p.dir.clone(), r.builtins.clone()))
            })
            .collect();
        let r = &catalog.roots;
        AimedAt {
            folders_version: files.folders_version(),
            roots: [r.project.clone(), r.home.clone(), r.xdg.clone()],
            searched,
        }
    }
}

impl Worker {
    /// Queues an event and wakes the owner; `false` once the owner is gone.
    fn emit(&self, event: LoaderEvent) -> bool {
        let sent = self.events.send(event).is_ok();
        if sent {
            (self.wake)();
        }
        sent
    }

    fn set_state(&mut self, state: WatchState) {
        if self.state.as_ref() != Some(&state) {
            self.state = Some(state.clone());
            self.emit(LoaderEvent::Watch(state));
        }
    }

    /// The frameworks arrived so far as a catalog (in the complete one's order), and
    /// the ids of the others.
    fn arrival(&self, arrived: &[Option<Arc<EcosystemReport>>], frameworks: &[&dyn Framework], generation: u64) -> LoaderEvent {
        let reports = arrived.iter().flatten().cloned().collect();
        let pending = frameworks.iter().zip(arrived).filter(|(_, r)| r.is_none()).map(|(f, _)| f.id()).collect();
        let catalog = Catalog { generation, roots: self.opts.roots.clone(), reports };
        let view = catalog.view_reusing(&mut self.views.borrow_mut());
        LoaderEvent::Arrived { catalog: Arc::new(view), pending }
    }

    pub fn run(mut self) {
        self.start_watching();
        let mut trigger = Trigger::Cold;
        loop {
            if !self.load_and_publish(trigger) {
                return;
            }
            // A late `Shown` (its wait timed out) asks for nothing.
            let next = loop {
                match self.control.recv() {
                    Ok(Control::Shown) => continue,
                    other => break other,
                }
            };
            trigger = match next {
                Err(_) | Ok(Control::Stop) => return,
                Ok(first) => match self.debounce(first) {
                    Some(t) => t,
                    None => return,
                },
            };
        }
    }

    /// Folds the messages of one burst into one trigger: waits until nothing arrived
    /// for [`DEBOUNCE`] (at most [`MAX_DEBOUNCE`]). `None` means stop.
    fn debounce(&mut self, first: Control) -> Option<Trigger> {
        let started = Instant::now();
        let mut changed = BTreeSet::new();
        let mut full = false;
        let mut next = Some(first);
        loop {
            match next.take() {
                Some(Control::Stop) => return None,
                Some(Control::Reload) => {
                    full = true;
                    *self.shared.files.lock().unwrap_or_else(|p| p.into_inner()) = Arc::new(FileCache::new());
                }
                Some(Control::SetOptions(opts)) => {
                    self.opts = *opts;
                    full = true;
                }
                Some(Control::Changed(paths)) => changed.extend(paths),
                Some(Control::Rescan) => full = true,
                Some(Control::WatchError(reason)) => self.fall_back_to_polling(reason),
                Some(Control::Shown) | None => {}
            }
            let waited = started.elapsed();
            if waited >= MAX_DEBOUNCE {
                break;
            }
            match self.control.recv_timeout(DEBOUNCE.min(MAX_DEBOUNCE - waited)) {
                Ok(msg) => next = Some(msg),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
        Some(if full || changed.is_empty() { Trigger::Full } else { Trigger::Changed(changed) })
    }

    /// One load; `false` when the owner is gone.
    fn load_and_publish(&mut self, trigger: Trigger) -> bool {
        let files = self.shared.files.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let trigger_paths: Vec<PathBuf> = match &trigger {
            Trigger::Changed(paths) => paths.iter().cloned().collect(),
            Trigger::Cold | Trigger::Full => Vec::new(),
        };
        let started = Instant::now();
        let started_wall = SystemTime::now();
        let (served_before, before) = (files.served(), files.counts());
        // Native notifications name every change in the watched folders, so the cache
        // may trust everything they did not name; a poller compares stamps of what it
        // watches only, so its changes get a validating pass, like a cold start.
        let polling = self.shared.watcher.lock().unwrap_or_else(|p| p.into_inner()).as_ref().is_none_or(|w| w.polling.is_some());
        let trusted = matches!(trigger, Trigger::Changed(_)) && !polling;
        // The owner waits for the first catalog: files are measured once it is shown,
        // unless nothing watches them (unwatched, a reload starts from an empty cache);
        // a file written while it was read is then loaded again.
        let measure = if matches!(trigger, Trigger::Cold) && self.wait_for_screen {
            let since = started_wall.checked_sub(CLOCK_SLACK).unwrap_or(started_wall);
            Measure::Later { since: (self.mode != WatchMode::Off).then_some(since) }
        } else {
            Measure::Now
        };
        // A cold load shows each framework as it arrives; a refresh is quick, and its
        // previous snapshot stays on screen until the new one is whole.
        let partial = matches!(trigger, Trigger::Cold);
        let pass = Pass { changed: trusted.then_some(trigger_paths.as_slice()), measure };
        let ran = files.run_pass(
            pass,
            self,
            |worker| worker.load_in_pass(&files, partial, served_before).map(|catalog| (catalog, started.elapsed())),
            // The complete catalog went out with the last arrival; the owner draws it
            // while the rest waits (the watch misses nothing: see `aim_watcher`).
            |worker, _| if partial && worker.wait_for_screen && !worker.wait_until_shown() { Err(false) } else { Ok(()) },
        );
        // Files no framework asked for this time (deleted, renamed away) were dropped,
        // and with them the watches on their folders.
        let ((catalog, elapsed), changed) = match ran {
            Ok(done) => done,
            Err(keep_running) => return keep_running,
        };
        if !changed.is_empty() {
            let _ = self.control_tx.send(Control::Changed(changed));
        }
        let after = files.counts();
        let served = files.served() - served_before;
        self.last_total = served as usize;
        // Folders come and go only where a changed path is (or was) a folder; an edited
        // file leaves the project's folders as the last walk found them.
        let rewalk = !trusted || trigger_paths.iter().any(|p| !p.is_file());
        if rewalk {
            self.walked = watch::walk(&catalog.roots.project);
        }
        self.rewalked = rewalk;
        let stats = LoadStats {
            generation: self.generation,
            files_served: served,
            files_read: after.reads - before.reads,
            bytes_read: after.bytes_read - before.bytes_read,
            definitions_parsed: after.parses - before.parses,
            definitions_resolved: after.resolutions - before.resolutions,
            trusted,
            elapsed,
            trigger: trigger_paths,
        };
        *self.shared.stats.lock().unwrap_or_else(|p| p.into_inner()) = Some(stats);
        // The watch is aimed before the snapshot goes out: whoever sees a snapshot
        // can rely on changes after it being noticed.
        let catalog = Arc::new(catalog);
        let aimed_at = AimedAt::of(&catalog, &files);
        let unchanged = trusted && !rewalk && self.aimed_at.as_ref() == Some(&aimed_at);
        let state = if unchanged {
            None
        } else {
            self.aim_watcher(&catalog, &files, started_wall)
        };
        self.aimed_at = Some(aimed_at);
        // The owner shows the tool set's agents; the watch above took every tool's folders.
        let view = Arc::new(catalog.view_reusing(&mut self.views.borrow_mut()));
        if !self.emit(LoaderEvent::Snapshot(view)) {
            return false;
        }
        // What the changes made stale is freed now that the snapshot is out.
        files.settle();
        if let Some(state) = state {
            self.set_state(state);
        }
        true
    }

    /// The load of one pass: each framework's report is sent on as it arrives (for a
    /// `partial` load), progress meanwhile. `Err` holds whether the worker goes on:
    /// not when the owner is gone, yes after a load that panicked (the state says so).
    fn load_in_pass(&mut self, files: &FileCache, partial: bool, served_before: u64) -> Result<Catalog, bool> {
        if partial && !self.emit(LoaderEvent::Progress { done: 0, total: self.last_total }) {
            return Err(false);
        }
        let generation = self.generation + 1;
        let frameworks = self.frameworks.clone().unwrap_or_else(|| self.opts.frameworks());
        let outcome = std::thread::scope(|scope| {
            let (tick_tx, ticks) = std::sync::mpsc::channel::<Tick>();
            let (opts, files_ref, list) = (&self.opts, files, &frameworks);
            let job = scope.spawn(move || {
                let arrived = |i: usize, report: &Arc<EcosystemReport>| {
                    if partial {
                        let _ = tick_tx.send(Tick::Arrived(i, report.clone()));
                    }
                };
                let catalog = in_own_pool(|| load_each(list, opts, files_ref, generation, &arrived));
                let _ = tick_tx.send(Tick::Done);
                catalog
            });
            let mut arrived: Vec<Option<Arc<EcosystemReport>>> = vec![None; frameworks.len()];
            // The explorer lists what is loading from the start.
            if partial {
                self.emit(self.arrival(&arrived, &frameworks, generation));
            }
            loop {
                // Wakes at once when a framework arrives or the load ends (or panics:
                // the sender is dropped).
                match ticks.recv_timeout(PROGRESS_TICK) {
                    Ok(Tick::Arrived(i, report)) => {
                        arrived[i] = Some(report);
                        self.emit(self.arrival(&arrived, &frameworks, generation));
                    }
                    Ok(Tick::Done) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {
                        let done = (files.served() - served_before) as usize;
                        self.emit(LoaderEvent::Progress { done, total: self.last_total.max(done) });
                    }
                }
            }
            job.join()
        });
        let catalog = match outcome {
            Ok(c) => c,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                self.set_state(WatchState::Failed(format!("loading failed: {what}")));
                return Err(true);
            }
        };
        self.generation = generation;
        Ok(catalog)
    }

    /// Waits for [`Control::Shown`], at most [`SHOWN_PATIENCE`]; whatever else comes
    /// meanwhile is queued again for after. `false` when the owner is gone.
    fn wait_until_shown(&mut self) -> bool {
        let deadline = Instant::now() + SHOWN_PATIENCE;
        let mut later = Vec::new();
        let shown = loop {
            match self.control.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Control::Shown) | Err(RecvTimeoutError::Timeout) => break true,
                Ok(Control::Stop) | Err(RecvTimeoutError::Disconnected) => break false,
                Ok(other) => later.push(other),
            }
        };
        for msg in later {
            let _ = self.control_tx.send(msg);
        }
        shown
    }

    fn start_watching(&mut self) {
        let made = match &self.mode {
            WatchMode::Off => {
                self.set_state(WatchState::Off);
                return;
            }
            WatchMode::Notify => Watcher::native(self.control_tx.clone()),
            WatchMode::Poll(every) => Watcher::poll(self.control_tx.clone(), *every),
        };
        match made {
            Ok(w) => *self.shared.watcher.lock().unwrap_or_else(|p| p.into_inner()) = Some(w),
            Err(reason) if self.mode == WatchMode::Notify => self.fall_back_to_polling(reason),
            Err(reason) => self.set_state(WatchState::Failed(reason)),
        }
    }

    /// Replaces the native watcher by a poller; the next [`Worker::aim_watcher`]
    /// gives it its folders.
    fn fall_back_to_polling(&mut self, reason: String) {
        let mut slot = self.shared.watcher.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_some_and(|w| w.polling.is_some()) {
            return;
        }
        *slot = None;
        let state = match Watcher::poll(self.control_tx.clone(), FALLBACK_POLL) {
            Ok(w) => {
                *slot = Some(w);
                WatchState::Polling { every: FALLBACK_POLL, reason: format!("file watching failed: {reason}") }
            }
            Err(e) => WatchState::Failed(format!("file watching failed: {reason}; polling failed too: {e}")),
        };
        drop(slot);
        self.set_state(state);
    }

    /// Points the watcher at what `catalog` depends on, and returns the watch state
    /// to show. A folder changed since the load started may have changed before its
    /// watch was in place: it gets one more load so nothing is missed.
    fn aim_watcher(&mut self, catalog: &Catalog, files: &FileCache, load_started: SystemTime) -> Option<WatchState> {
        if self.mode == WatchMode::Off {
            return None;
        }
        let targets = watch::targets(catalog, &files.folders(), &self.walked);
        let check_inodes = self.rewalked;
        let result = {
            let mut slot = self.shared.watcher.lock().unwrap_or_else(|p| p.into_inner());
            slot.as_mut().map(|w| (w.update(&targets, check_inodes), w.dirs(), w.polling))
        }?;
        let (added, dirs, polling) = match result {
            (Err(watch::LimitReached(reason)), _, _) => {
                self.fall_back_to_polling(reason);
                let mut slot = self.shared.watcher.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(w) = slot.as_mut() {
                    let _ = w.update(&targets, true);
                }
                return None;
            }
            (Ok(added), dirs, polling) => (added, dirs, polling),
        };
        // File systems stamp with a coarse clock that can lag the wall clock a little.
        let since = load_started.checked_sub(CLOCK_SLACK).unwrap_or(load_started);
        let fresh: Vec<PathBuf> = added
            .into_iter()
            .filter(|d| std::fs::metadata(d).and_then(|m| m.modified()).is_ok_and(|t| t >= since))
            .collect();
        if !fresh.is_empty() {
            let _ = self.control_tx.send(Control::Changed(fresh));
        }
        Some(match (polling, &self.state) {
            (None, _) => WatchState::Watching { dirs },
            (Some(every), Some(WatchState::Polling { reason, .. })) => {
                WatchState::Polling { every, reason: reason.clone() }
            }
            (Some(every), _) => WatchState::Polling { every, reason: "polling was asked for".into() },
        })
    }
}
