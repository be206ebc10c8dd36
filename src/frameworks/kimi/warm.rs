//! Resolving definitions ahead of the load's visit, on every core. The visit itself
//! stays sequential: who lists a file first, and so what its definition says, is fixed
//! by the visit's order. Ahead of it, each thread walks a share of the entry points in
//! that same order (depth first, each file once, who lists it as far as it has seen),
//! and resolves each file it reaches; the visit then takes over the definitions whose
//! memo key (path and who lists it) it meets, and resolves the few others itself
//! (where the threads' shares split a team, a thread may reach a file another way
//! than the visit does).
//!
//! A definition resolved ahead is the one the visit would make, observations
//! included, except for its [`Cover`]: it takes over no other definition's record,
//! which only makes its own record longer, not different in what it depends on.

use std::path::PathBuf;
use crate::discover::lock;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::{definition_key, listing, normal_digest, subagents_in_visit_order, Context, Definition, ListedBy};
use crate::discover::fast_hash::{HashMap, HashSet};
use crate::discover::observe::{watch_untracked, Observed};
use crate::discover::Files;

/// A definition resolved ahead, with what its resolution observed.
pub(super) struct Warmed {
    /// Boxed: the visit takes the definitions one by one while the map stays its
    /// size, until the load ends.
    one: Box<Definition>,
    observed: Arc<Observed>,
    /// It read something no observation expresses (the clock): never reused.
    untracked: bool,
}

impl Warmed {
    /// The definition, its observations handed to the memo computing it (`files`).
    pub(super) fn take(self, files: Files) -> Definition {
        files.include(self.observed);
        if self.untracked {
            crate::discover::untracked_access();
        }
        *self.one
    }
}

/// Resolves, in parallel, the definitions the visit from `entries` will most likely
/// ask for, by their memo keys. `files` must record nothing: each definition keeps
/// its own record.
pub(super) fn resolve_ahead(context: &Context, files: Files, entries: &[PathBuf], args_key: u64) -> HashMap<u64, Warmed> {
    let claimed: Mutex<HashSet<u128>> = Mutex::default();
    let listed_by: Mutex<HashMap<u128, ListedBy>> = Mutex::default();
    let warmed: Mutex<HashMap<u64, Warmed>> = Mutex::default();
    let no_covers = HashMap::default();
    entries.par_iter().for_each(|entry| {
        let mut stack = vec![(entry.clone(), normal_digest(entry))];
        while let Some((path, normal)) = stack.pop() {
            let listed = lock(&listed_by).get(&normal).cloned();
            if !lock(&claimed).insert(normal) {
                continue;
            }
            let ((one, untracked), observed) = files
                .capture(|files| watch_untracked(|| context.compute(files, &path, listed.as_ref(), &no_covers)));
            let subagents = subagents_in_visit_order(&one);
            if !subagents.is_empty() {
                let parent = (context.key)(&path);
                let mut listed_by = lock(&listed_by);
                for sub in subagents {
                    let normal = normal_digest(&sub.path);
                    listed_by.entry(normal).or_insert_with(|| listing(&parent, &path, sub));
                    stack.push((sub.path.clone(), normal));
                }
            }
            let key = definition_key(args_key, &path, listed.as_ref());
            lock(&warmed).insert(key, Warmed { one: Box::new(one), observed, untracked });
        }
    });
    warmed.into_inner().unwrap_or_else(|p| p.into_inner())
}
