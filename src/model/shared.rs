//! One copy of what most agents repeat: the frameworks' default fields (`skills: []`,
//! `model: null`, … a few dozen in all, carried by nearly every agent) and the keys
//! of the attributes (the frameworks' few known keys). Each table takes only small
//! entries and stops taking new ones when full, so an explorer that loads workspace
//! after workspace keeps it bounded; what it does not take is simply not shared.

use std::borrow::Cow;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

use foldhash::fast::FixedState;
use hashbrown::HashTable;
use serde_json::{Number, Value as Json};

use super::{CompactJson, Field, FieldOrigin, Provenance};

/// Far more than the frameworks' defaults and known keys.
const CAPACITY: usize = 1024;
/// The longest text (a string value, a key or a rule) a table takes.
const LONGEST: usize = 128;

static DEFAULTS: LazyLock<Mutex<HashTable<Arc<Field>>>> = LazyLock::new(Mutex::default);
static KEYS: LazyLock<Mutex<HashSet<Arc<str>, FixedState>>> = LazyLock::new(Mutex::default);

fn lock<T>(table: &Mutex<T>) -> MutexGuard<'_, T> {
    table.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A value small enough to share, as written: integers only, since `0.0` and `-0.0`
/// are equal numbers that print differently.
#[derive(PartialEq, Eq, Hash)]
enum Small<'a> {
    Null,
    Bool(bool),
    Integer(&'a Number),
    Text(&'a str),
    EmptyList,
    EmptyMap,
}

impl Small<'_> {
    fn of_json(value: &Json) -> Option<Small<'_>> {
        Some(match value {
            Json::Null => Small::Null,
            Json::Bool(b) => Small::Bool(*b),
            Json::Number(n) if !n.is_f64() => Small::Integer(n),
            Json::String(s) if s.len() <= LONGEST => Small::Text(s),
            Json::Array(items) if items.is_empty() => Small::EmptyList,
            Json::Object(map) if map.is_empty() => Small::EmptyMap,
            _ => return None,
        })
    }

    fn of_compact(value: &CompactJson) -> Option<Small<'_>> {
        Some(match value {
            CompactJson::Null => Small::Null,
            CompactJson::Bool(b) => Small::Bool(*b),
            CompactJson::Number(n) if !n.is_f64() => Small::Integer(n),
            CompactJson::String(s) => Small::Text(s),
            CompactJson::Array(items) if items.is_empty() => Small::EmptyList,
            CompactJson::Object(entries) if entries.is_empty() => Small::EmptyMap,
            _ => return None,
        })
    }
}

/// Everything that tells one default field from another.
#[derive(PartialEq, Eq, Hash)]
struct Identity<'a> {
    key: &'a str,
    value: Small<'a>,
    provenance: Provenance,
    rule: &'a str,
}

impl Identity<'_> {
    fn of(field: &Field) -> Option<Identity<'_>> {
        Some(Identity {
            key: &field.key,
            value: Small::of_compact(&field.value)?,
            provenance: field.origin.provenance,
            rule: &field.origin.rule,
        })
    }

    fn hash(&self) -> u64 {
        FixedState::default().hash_one(self)
    }
}

/// The field, shared with every equal one when it has no file positions (a
/// framework's default) and the table takes it.
pub fn field(key: Cow<'static, str>, value: Json, origin: FieldOrigin) -> Arc<Field> {
    let wanted = match Small::of_json(&value) {
        Some(small) if origin.sites.is_empty() && key.len() <= LONGEST && origin.rule.len() <= LONGEST => {
            Identity { key: &key, value: small, provenance: origin.provenance, rule: &origin.rule }
        }
        _ => return Arc::new(Field::new(key, value, origin)),
    };
    let hash = wanted.hash();
    let mut table = lock(&DEFAULTS);
    if let Some(found) = table.find(hash, |f| Identity::of(f).as_ref() == Some(&wanted)) {
        return Arc::clone(found);
    }
    let field = Arc::new(Field::new(key, value, origin));
    if table.len() < CAPACITY {
        let rehash = |f: &Arc<Field>| Identity::of(f).map_or(0, |d| d.hash());
        table.insert_unique(hash, Arc::clone(&field), rehash);
    }
    field
}

/// An attribute's key, shared with every equal one the table holds.
pub fn attribute_key(key: &str) -> Arc<str> {
    if key.len() > LONGEST {
        return key.into();
    }
    let mut table = lock(&KEYS);
    if let Some(found) = table.get(key) {
        return Arc::clone(found);
    }
    let shared: Arc<str> = key.into();
    if table.len() < CAPACITY {
        table.insert(Arc::clone(&shared));
    }
    shared
}
