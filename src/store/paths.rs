//! One allocation per path for everything that keeps one: the file cache's keys and
//! the observations of its memos, the folder listings, and the texts a snapshot
//! leaves on disk. A load of a large workspace keeps each of its files' paths in all
//! of these at once, and each copy was an allocation of a hundred bytes or so.
//!
//! The table is the process's: its holders live in different layers that own no
//! common object (the catalog's texts and sources, the loader's file cache, which
//! outlives every catalog it makes), so no load or catalog could own it. A path
//! stays in it while anything else holds it; [`prune_shared_paths`] forgets the rest.

use std::path::Path;
use std::sync::{Arc, Mutex};

use foldhash::fast::FixedState;
use hashbrown::HashTable;
use std::hash::BuildHasher;

struct Table {
    paths: HashTable<Arc<Path>>,
    hasher: FixedState,
}

static TABLE: Mutex<Table> = Mutex::new(Table { paths: HashTable::new(), hasher: FixedState::with_seed(0x5eed) });

fn bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

fn table() -> std::sync::MutexGuard<'static, Table> {
    // A panic while holding the lock leaves a valid table.
    TABLE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The path whose bytes are `key`, shared; `make` builds it when the table has none
/// (its bytes must be `key`).
pub fn shared_path_by(key: &[u8], make: impl FnOnce() -> Arc<Path>) -> Arc<Path> {
    let mut table = table();
    let hash = table.hasher.hash_one(key);
    if let Some(found) = table.paths.find(hash, |p| bytes(p) == key) {
        return found.clone();
    }
    let path = make();
    debug_assert_eq!(bytes(&path), key);
    let Table { paths, hasher } = &mut *table;
    paths.insert_unique(hash, path.clone(), |p| hasher.hash_one(bytes(p)));
    path
}

/// `path`, shared with every other holder of the same bytes.
pub fn shared_path(path: &Path) -> Arc<Path> {
    shared_path_by(bytes(path), || path.into())
}

/// Forgets the paths nothing else holds any more.
pub fn prune_shared_paths() {
    table().paths.retain(|p| Arc::strong_count(p) > 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_path_is_one_allocation_while_held() {
        let held = shared_path(Path::new("/shared/paths/test/a"));
        assert!(Arc::ptr_eq(&held, &shared_path(Path::new("/shared/paths/test/a"))));
        assert!(!Arc::ptr_eq(&held, &shared_path(Path::new("/shared/paths/test/b"))));
        prune_shared_paths();
        assert!(Arc::ptr_eq(&held, &shared_path(Path::new("/shared/paths/test/a"))));
        let found = |p: &str| {
            let t = table();
            let key = p.as_bytes();
            t.paths.find(t.hasher.hash_one(key), |q| bytes(q) == key).is_some()
        };
        prune_shared_paths();
        assert!(found("/shared/paths/test/a"));
        assert!(!found("/shared/paths/test/b"), "nothing held it");
    }
}
