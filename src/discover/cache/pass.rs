//! The pass: one load of a cache kept between loads (the module documentation of
//! [`super`] says what a validating and a trusting pass keep). [`FileCache::run_pass`]
//! owns the order of its steps; a caller that loads outside the live loader (a test,
//! a benchmark) may call the steps itself.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::SystemTime;

use super::answers::{Answers, Kind};
use super::bytes::{stamp, UNMEASURED};
use super::{FileCache, Memo, ValueKey};
use crate::discover::fast_hash::HashMap;
use crate::discover::lock;
use crate::discover::observe::{Changes, Observed};
use crate::discover::path_key::{key_bytes, PathKey};

/// One pass of [`FileCache::run_pass`].
pub struct Pass<'a> {
    /// `None` for a validating pass, the reported changes for a trusting one.
    pub changed: Option<&'a [PathBuf]>,
    pub measure: Measure,
}

/// When the files a pass reads for the first time are measured (their stamp taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// As they are read.
    Now,
    /// After the load is shown ([`FileCache::measure_later`]), those changed at or
    /// after `since` reported; with no `since` (nothing watches the files) never.
    Later { since: Option<SystemTime> },
}

impl FileCache {
    /// One pass around `load`, its steps in the order they must come: begin the pass
    /// (reading unmeasured if `pass.measure` says so), `load`, let go of the bytes
    /// held for the pass, `loaded` (the caller shows what was loaded), measure what
    /// was read unmeasured, end the pass. Returns what `load` made and the files that
    /// may have changed while they were read unmeasured (the caller loads them
    /// again); or what `load` or `loaded` stopped with, the pass then left open (the
    /// next one begins afresh). `cx` is handed to both steps in turn.
    pub fn run_pass<C, T, E>(
        &self,
        pass: Pass<'_>,
        cx: &mut C,
        load: impl FnOnce(&mut C) -> Result<T, E>,
        loaded: impl FnOnce(&mut C, &T) -> Result<(), E>,
    ) -> Result<(T, Vec<PathBuf>), E> {
        self.begin_pass(pass.changed);
        if let Measure::Later { .. } = pass.measure {
            self.measure_later();
        }
        let made = load(cx)?;
        self.release_pass_holds();
        loaded(cx, &made)?;
        let changed = match pass.measure {
            Measure::Later { since: Some(since) } => self.measure_read_files(since),
            Measure::Later { since: None } | Measure::Now => Vec::new(),
        };
        self.retain_pass();
        Ok((made, changed))
    }

    /// Work a refresh would otherwise do on its critical path, for the live loader to
    /// call once a snapshot is out: frees the results the last trusting pass
    /// invalidated (a framework's old report takes a while to free) and the paths
    /// no longer held, and makes the path filter of every memo (see
    /// [`super::observe::PathFilter`]) so the next trusting pass finds them made.
    /// Otherwise the next pass does these.
    pub fn settle(&self) {
        let garbage = std::mem::take(&mut *lock(&self.invalidated));
        drop(garbage);
        self.paths.prune();
        let observed: Vec<Arc<Observed>> = lock(&self.memos)
            .values()
            .map(|m| m.observed.clone())
            .collect();
        for o in observed {
            o.filter();
        }
    }

    /// Starts a new pass (one load of a cache kept between loads): files read from now
    /// on belong to it, for [`FileCache::retain_pass`]. `changed` is `None` for a
    /// validating pass and the reported changes for a trusting one (module docs).
    pub fn begin_pass(&self, changed: Option<&[PathBuf]>) {
        debug_assert!(!self.one_load, "a cache for one load begins no other pass");
        self.pass.fetch_add(1, Ordering::Relaxed);
        self.unmeasured_pass.store(false, Ordering::Relaxed);
        self.trusting.store(changed.is_some(), Ordering::Relaxed);
        self.canonical.clear();
        drop(std::mem::take(&mut *lock(&self.invalidated)));
        let Some(changed) = changed else {
            // Every folder is listed again, and its links noted afresh.
            lock(&self.links).to.clear();
            *lock(&self.answers) = Answers::default();
            lock(&self.memos).clear();
            return;
        };
        // A change at a link's target, or above it, changes the link: what it is, and
        // what its folder's listing says of it. (Kept while it dangles; listed again,
        // a link is noted with where it points now.)
        // A change below a linked folder is one below the link too, and the other way
        // round: the system reports it under one of the two names only.
        let links: Vec<(PathBuf, PathBuf)> = lock(&self.links).to.iter().map(|(l, t)| (l.clone(), t.clone())).collect();
        let reported = changed;
        let mut changed: Vec<PathBuf> = changed.to_vec();
        for (link, target) in &links {
            // Both ways: a link to a folder above it lies below its own target. From
            // the reported paths only, so links that lead into each other stay bounded.
            let aliases: Vec<PathBuf> = reported
                .iter()
                .flat_map(|c| {
                    let below = |base: &Path| c.strip_prefix(base).ok().filter(|rest| !rest.as_os_str().is_empty());
                    [below(target).map(|rest| link.join(rest)), below(link).map(|rest| target.join(rest))]
                })
                .flatten()
                .collect();
            changed.extend(aliases);
        }
        let probe = Changes::new(&changed, Vec::new(), Vec::new());
        let moved: Vec<PathBuf> = links
            .iter()
            .filter(|(link, target)| probe.covers(target) && !probe.covers(link))
            .map(|(link, _)| link.clone())
            .collect();
        changed.extend(moved.iter().cloned());
        // A link itself changed (made, removed, pointed elsewhere): noted again when listed.
        lock(&self.links).to.retain(|link, _| !probe.covers(link));
        changed.sort();
        changed.dedup();
        let (mut relisted, mut restated, mut files_only) = self.relisted(&changed);
        for link in &moved {
            files_only = false;
            restated.push(link.clone());
            if let Some(folder) = link.parent().filter(|f| !relisted.iter().any(|r| r == f)) {
                relisted.push(folder.to_path_buf());
            }
        }
        let changed = &changed[..];
        let changes = Changes::new(changed, relisted, restated);
        let below = |p: &Path| changes.covers(p);
        // A changed file is read again (a same-size write within the clock's
        // resolution keeps its stamp); a file below a changed folder is checked by
        // its stamp, which is what tells an unchanged file in a renamed folder apart.
        {
            let mut entries = lock(&self.entries);
            for c in changed {
                if entries.remove(key_bytes(c).as_ref()).is_some() {
                    self.count_folder(c, false);
                }
            }
            // Edited files (files before and after, no symlink made or removed) hold
            // nothing below them and leave every kind, resolution and listing as it
            // was: the common refresh skips going over all the cache holds.
            if !files_only {
                for (p, e) in entries.iter_mut() {
                    if below(p.as_path()) {
                        e.suspect = true;
                    }
                }
            }
        }
        if !files_only {
            let mut answers = lock(&self.answers);
            answers.kinds.retain(|p, _| !below(p.as_path()));
            answers.resolved.retain(|p, r| !below(p.as_path()) && !r.as_ref().is_ok_and(|real| below(real.as_path())));
            answers.listings.retain(|p, _| !below(p.as_path()) && !changes.relists(p.as_path()));
        }
        // Each memo's filter rules most of them out at once; shared parts are
        // decided once (`seen`).
        let mut seen = HashMap::default();
        let mut memos = lock(&self.memos);
        let touched: Vec<ValueKey> = memos
            .iter()
            .filter(|(_, m)| m.observed.touched_once(&changes, &mut seen))
            .map(|(id, _)| *id)
            .collect();
        let invalidated: Vec<Memo> = touched.iter().filter_map(|id| memos.remove(id)).collect();
        drop(memos);
        *lock(&self.invalidated) = invalidated;
    }

    /// The folders whose listing a change at one of `changed` altered (an entry that
    /// came, went, or changed kind), and the changed paths whose kind changed. An
    /// edited file leaves both as they were, so what only listed its folder or asked
    /// whether it exists stays valid. What was not asked before counts as altered.
    /// Also says whether every changed path is a file that stays one: its listing
    /// and kind the same, not a symlink before or after.
    fn relisted(&self, changed: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>, bool) {
        let answers = lock(&self.answers);
        let (mut relisted, mut restated): (Vec<PathBuf>, Vec<PathBuf>) = (Vec::new(), Vec::new());
        let mut files_only = true;
        for path in changed {
            // What a listing would say now: `read_dir` names dangling links too.
            let now = std::fs::symlink_metadata(path).ok().map(|m| {
                let is_dir = std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false);
                (is_dir, m.file_type().is_symlink())
            });
            let kind_now = match std::fs::metadata(path) {
                Ok(m) if m.is_file() => Kind::File,
                Ok(m) if m.is_dir() => Kind::Dir,
                Ok(_) => Kind::Other,
                Err(_) => Kind::Missing,
            };
            let Some(dir) = path.parent() else {
                files_only = false;
                continue;
            };
            let known = match answers.listings.get(key_bytes(dir).as_ref()) {
                Some(Ok(Some(entries))) => Some(entries.iter().find(|e| *e.path == **path).map(|e| (e.is_dir, e.is_symlink))),
                _ => None,
            };
            if known != Some(now) && !relisted.iter().any(|d| d == dir) {
                relisted.push(dir.to_path_buf());
            }
            // A symlink made or removed changes where the path resolves to.
            let link_changed = known.flatten().map(|(_, link)| link) != now.map(|(_, link)| link);
            // As [`FileCache::kind`] answered it: kept, or told by the listing.
            let kind_before =
                answers.kinds.get(key_bytes(path).as_ref()).copied().or_else(|| Self::listed_kind(&answers, path));
            if kind_before != Some(kind_now) || link_changed {
                restated.push(path.clone());
            }
            // Its folder's listing knew it as a plain non-folder, and it is a file now
            // (a kind never asked is restated above, but nothing below it can exist).
            files_only &= kind_now == Kind::File
                && known == Some(now)
                && !link_changed
                && matches!(kind_before, None | Some(Kind::File));
        }
        (relisted, restated, files_only)
    }

    /// Files this pass reads for the first time are read without being measured (one
    /// system call less per file, and no buffer of their own for bytes not held):
    /// for the explorer's first load, whose complete catalog the user is waiting for.
    /// [`FileCache::measure_read_files`] measures them once it is on screen.
    pub fn measure_later(&self) {
        self.unmeasured_pass.store(true, Ordering::Relaxed);
    }

    /// Measures the files read without being measured, and returns those that may
    /// have changed since they were read: modified at or after `since` (when the
    /// pass began, less the clock's slack), or gone. Those keep no stamp, so the
    /// next pass that checks them reads them again; the caller reloads them.
    pub fn measure_read_files(&self, since: std::time::SystemTime) -> Vec<PathBuf> {
        // The keys share their paths: no copy of a hundred thousand paths.
        let unmeasured: Vec<(PathKey, u64, u64)> = lock(&self.entries)
            .iter()
            .filter(|(_, e)| e.stamp.changed == UNMEASURED)
            .map(|(p, e)| (p.clone(), e.version, e.stamp.len))
            .collect();
        let mut changed = Vec::new();
        for (key, version, len) in unmeasured {
            let path = key.as_path();
            let meta = std::fs::metadata(path);
            let steady = meta.as_ref().ok().filter(|m| m.len() == len && m.modified().is_ok_and(|t| t < since));
            let Some(meta) = steady else {
                changed.push(path.to_path_buf());
                continue;
            };
            if let Some(e) = lock(&self.entries).get_mut(key_bytes(path).as_ref()).filter(|e| e.version == version) {
                e.stamp = stamp(meta);
            }
        }
        changed
    }

    /// Lets go of the bytes held for the pass ([`Hold::ForPass`]) and of its memo of
    /// resolved paths: for as soon as the pass's last reader is done, before the
    /// rest of [`FileCache::retain_pass`] (the explorer indexes the new catalog
    /// meanwhile, at its resident peak).
    pub fn release_pass_holds(&self) {
        self.canonical.clear();
        for e in lock(&self.entries).values_mut().filter(|e| e.held_for_pass) {
            e.bytes = None;
            e.held_for_pass = false;
        }
    }

    /// Ends a pass. A validating pass forgets every file and memo it did not ask for
    /// (deleted, renamed or no longer referenced), so a long-lived cache holds one
    /// workspace's files only. A trusting pass keeps them: it reused results without
    /// asking for their files again, and what a change made stale is already gone.
    /// Either frees the pass's step-by-step resolutions, before the snapshot goes out
    /// and the explorer indexes it (the next pass would clear them anyway).
    pub fn retain_pass(&self) {
        self.release_pass_holds();
        if self.trusting.load(Ordering::Relaxed) {
            return;
        }
        let pass = self.pass.load(Ordering::Relaxed);
        lock(&self.entries).retain(|p, e| {
            let keep = e.pass == pass;
            if !keep {
                self.count_folder(p.as_path(), false);
            }
            keep
        });
        // Links of folders this pass did not list are no longer read through.
        let answers = lock(&self.answers);
        let mut links = lock(&self.links);
        links.to.retain(|link, _| link.parent().is_some_and(|f| answers.listings.contains_key(key_bytes(f).as_ref())));
        let folders: std::collections::HashSet<PathBuf> = links.to.values().filter_map(|t| t.parent().map(Path::to_path_buf)).collect();
        if folders != links.folders {
            links.folders = folders;
            self.folders_version.fetch_add(1, Ordering::Relaxed);
        }
        drop(links);
        drop(answers);
        lock(&self.memos).retain(|_, m| m.pass == pass);
        self.paths.prune();
    }
}
