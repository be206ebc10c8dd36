//! One copy of what most agents repeat: the frameworks' default fields (`skills: []`,
//! `model: null`, … a few dozen in all, carried by nearly every agent) and the keys
//! of the attributes (the frameworks' few known keys). Each table takes only small
//! entries and stops taking new ones when full, so an explorer that loads workspace
//! after workspace keeps it bounded; what it does not take is simply not shared.
//! The tables are per thread: the loader's threads never wait for each other, and a
//! copy per thread of a few dozen fields costs nothing.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};
use std::sync::Arc;

use foldhash::fast::FixedState;
use hashbrown::HashTable;
use serde_json::{Number, Value as Json};

use super::{CompactJson, Field, FieldOrigin, Provenance};

/// Far more than the frameworks' defaults and known keys.
const CAPACITY: usize = 1024;
/// The longest text (a string value, a key or a rule) a table takes.
const LONGEST: usize = 128;

type Defaults = HashTable<Arc<Field>>;
type Keys = HashSet<Arc<str>, FixedState>;

thread_local! {
    static DEFAULTS: RefCell<Defaults> = const { RefCell::new(HashTable::new()) };
    static KEYS: RefCell<Keys> = const { RefCell::new(HashSet::with_hasher(FixedState::with_seed(0))) };
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

/// A key or rule of an identity: a text of the program by address (comparing or
/// hashing two addresses is cheaper than their bytes, and the program has finitely
/// many texts), any other by its bytes.
#[derive(PartialEq, Eq)]
enum Text<'a> {
    Static(usize, usize),
    Made(&'a str),
}

impl<'a> Text<'a> {
    // The `Cow` itself, not the text: its variant tells a literal from a made text.
    #[allow(clippy::ptr_arg)]
    fn of(text: &'a Cow<'static, str>) -> Text<'a> {
        match text {
            Cow::Borrowed(s) => Text::Static(s.as_ptr() as usize, s.len()),
            Cow::Owned(s) => Text::Made(s),
        }
    }

    fn hash(&self) -> u64 {
        match *self {
            Text::Static(address, len) => (address ^ len) as u64,
            Text::Made(s) => FixedState::default().hash_one(s),
        }
    }
}

/// Everything that tells one default field from another.
#[derive(PartialEq, Eq)]
struct Identity<'a> {
    key: Text<'a>,
    value: Small<'a>,
    provenance: Provenance,
    rule: Text<'a>,
}

impl Identity<'_> {
    fn of(field: &Field) -> Option<Identity<'_>> {
        Some(Identity {
            key: Text::of(&field.key),
            value: Small::of_compact(&field.value)?,
            provenance: field.origin.provenance,
            rule: Text::of(&field.origin.rule),
        })
    }

    /// A few multiplications: the lookup is made for most fields of every agent, in a
    /// table of a few dozen entries.
    fn hash(&self) -> u64 {
        let value = match self.value {
            Small::Null => 1,
            Small::Bool(b) => 2 + b as u64,
            Small::EmptyList => 4,
            Small::EmptyMap => 5,
            Small::Integer(_) | Small::Text(_) => FixedState::default().hash_one(&self.value),
        };
        let parts = [self.key.hash(), self.rule.hash(), value, self.provenance as u64];
        parts.iter().fold(0, |h: u64, &part| (h.rotate_left(5) ^ part).wrapping_mul(0x517c_c1b7_2722_0a95))
    }
}

/// The field, shared with every equal one when it has no file positions (a
/// framework's default) and this thread's table takes it.
pub fn field(key: Cow<'static, str>, value: Json, origin: FieldOrigin) -> Arc<Field> {
    DEFAULTS.with_borrow_mut(|table| field_in(table, key, value, origin))
}

fn field_in(table: &mut Defaults, key: Cow<'static, str>, value: Json, origin: FieldOrigin) -> Arc<Field> {
    let small = match Small::of_json(&value) {
        Some(small) if origin.sites.is_empty() && key.len() <= LONGEST && origin.rule.len() <= LONGEST => small,
        _ => return Arc::new(Field::new(key, value, origin)),
    };
    let wanted = Identity { key: Text::of(&key), value: small, provenance: origin.provenance, rule: Text::of(&origin.rule) };
    let hash = wanted.hash();
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

/// An attribute's key, shared with every equal one this thread's table holds.
pub fn attribute_key(key: &str) -> Arc<str> {
    KEYS.with_borrow_mut(|table| attribute_key_in(table, key))
}

fn attribute_key_in(table: &mut Keys, key: &str) -> Arc<str> {
    if key.len() > LONGEST {
        return key.into();
    }
    if let Some(found) = table.get(key) {
        return Arc::clone(found);
    }
    let shared: Arc<str> = key.into();
    if table.len() < CAPACITY {
        table.insert(Arc::clone(&shared));
    }
    shared
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::Site;

    fn default(table: &mut Defaults, key: &'static str, value: Json, rule: &'static str) -> Arc<Field> {
        field_in(table, key.into(), value, FieldOrigin::default(rule))
    }

    /// Equal defaults are one copy; a value that prints differently, another rule or
    /// a field with file positions is not taken for it.
    #[test]
    fn shares_only_what_is_the_same_as_written() {
        const SKILLS: &str = "skills";
        const NO_SKILLS: &str = "default: no skills";
        let mut table = Defaults::new();
        let skills = default(&mut table, SKILLS, json!([]), NO_SKILLS);
        assert!(Arc::ptr_eq(&skills, &default(&mut table, SKILLS, json!([]), NO_SKILLS)));
        let made = field_in(&mut table, SKILLS.to_string().into(), json!([]), FieldOrigin::default(NO_SKILLS.to_string()));
        assert!(Arc::ptr_eq(&made, &field_in(&mut table, SKILLS.to_string().into(), json!([]), FieldOrigin::default(NO_SKILLS.to_string()))));
        assert_eq!(made, skills);
        assert!(!Arc::ptr_eq(&skills, &default(&mut table, SKILLS, json!([]), "default: none")));
        assert!(!Arc::ptr_eq(&skills, &default(&mut table, SKILLS, json!({}), NO_SKILLS)));
        let zero = default(&mut table, "t", json!(0.0), "r");
        let negative_zero = default(&mut table, "t", json!(-0.0), "r");
        assert_eq!((zero.value.to_string(), negative_zero.value.to_string()), ("0.0".into(), "-0.0".into()));
        let source: Arc<str> = "project:a.md".into();
        let own = |table: &mut Defaults| field_in(table, SKILLS.into(), json!([]), FieldOrigin::own(&source, Some(2), "set"));
        let first = own(&mut table);
        assert!(!Arc::ptr_eq(&first, &own(&mut table)));
        assert_eq!(first.origin.sites[..], [Site::new(&source, Some(2))]);
    }

    /// A full table builds fields and keys as before and takes no more.
    #[test]
    fn tables_stop_growing_when_full() {
        let mut defaults = Defaults::new();
        let mut keys = Keys::default();
        for i in 0..CAPACITY + 10 {
            let made = field_in(&mut defaults, format!("k{i}").into(), json!(i), FieldOrigin::default("framework default"));
            assert_eq!((&*made.key, made.value.to_string()), (&*format!("k{i}"), i.to_string()));
            assert_eq!(&*attribute_key_in(&mut keys, &format!("k{i}")), format!("k{i}"));
        }
        assert_eq!((defaults.len(), keys.len()), (CAPACITY, CAPACITY));
    }
}
