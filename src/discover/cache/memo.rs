//! Memoized computations: a result kept with the file-system answers it observed,
//! computed again only when a change touches one of them.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::{value_key, FileCache, Shared};
use crate::discover::lock;
use crate::discover::observe::{watch_untracked, Observed, Recorder};
use crate::discover::Files;

pub(super) struct Memo {
    pub(super) value: Shared,
    pub(super) observed: Arc<Observed>,
    pub(super) pass: u64,
}


impl FileCache {
    /// The memoized result of `compute` under `key` (which, with `T`, must name every
    /// input that is not a file-system answer), computed again only when one of the
    /// answers it saw may have changed. `parent` receives what it observed; `counted`
    /// says whether a computation counts as a definition resolved.
    pub(crate) fn memo<T: Send + Sync + 'static>(
        &self,
        parent: Option<&Recorder>,
        key: u64,
        counted: bool,
        compute: impl FnOnce(Files<'_>) -> T,
    ) -> Arc<T> {
        let id = value_key::<T>(key);
        let pass = self.pass.load(Ordering::Relaxed);
        let hit = lock(&self.memos).get_mut(&id).and_then(|m| {
            let value = m.value.clone().downcast::<T>().ok()?;
            m.pass = pass;
            Some((value, m.observed.clone()))
        });
        if let Some((value, observed)) = hit {
            if let Some(r) = parent {
                r.include(observed);
            }
            return value;
        }
        let recorder = Recorder::default();
        let (value, untracked) = watch_untracked(|| compute(Files::new(self, Some(&recorder))));
        if counted {
            self.resolutions.fetch_add(1, Ordering::Relaxed);
        }
        let value = Arc::new(value);
        let observed = Arc::new(recorder.finish(&self.paths));
        if let Some(r) = parent {
            r.include(observed.clone());
        }
        // A result that depends on something unrecorded is recomputed every time.
        if !untracked {
            lock(&self.memos).insert(id, Memo { value: value.clone() as Shared, observed, pass });
        }
        value
    }
}
