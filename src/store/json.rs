//! A JSON value as a field or attribute unpacks to, and as a parse keeps one: 24
//! bytes and boxed slices in insertion order, where a `serde_json::Value` is 80 bytes
//! and a hash table per object.
//!
//! Beside JSON's own values it holds a float that is not finite, as a Python tool
//! keeps one (`.inf` in a field pydantic does not check): `json.dumps` writes it as a
//! bare `Infinity`, `-Infinity` or `NaN`, which the resolution report repeats
//! (`export/pretty.rs`) and every other JSON output spells as a string. A
//! `serde_json::Value` cannot hold one: a framework building fields as serde_json
//! values writes it as [`nonfinite_marker`], which becomes this variant.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Number, Value as Json};

use super::codec::{JsonValue, Shape};

#[derive(Clone, Debug)]
pub enum CompactJson {
    Null,
    Bool(bool),
    Number(Number),
    String(Box<str>),
    Array(Box<[CompactJson]>),
    /// The entries in the order of the map it was made from: its keys are unique.
    Object(Box<[(Box<str>, CompactJson)]>),
    /// NaN or an infinity (see the module's header).
    NonFinite(f64),
}

/// The one key of the serde_json object that stands for a non-finite float on its
/// way to a [`CompactJson`] (as serde_json's own `$serde_json::private::Number`
/// stands for a number): no file agentry reads makes such a key for a framework.
const NONFINITE_KEY: &str = "$agentry::private::NonFinite";

/// A non-finite float as a serde_json value: an object of [`NONFINITE_KEY`] and
/// Python's spelling, which [`CompactJson::from`] turns into
/// [`CompactJson::NonFinite`] (a finite float stays a number).
pub fn nonfinite_marker(f: f64) -> Json {
    match Number::from_f64(f) {
        Some(n) => Json::Number(n),
        None => Json::Object(std::iter::once((NONFINITE_KEY.to_string(), Json::String(python_spelling(f).into()))).collect()),
    }
}

/// The float a [`nonfinite_marker`] stands for.
pub fn as_nonfinite(value: &Json) -> Option<f64> {
    nonfinite_of(value.as_object()?)
}

fn nonfinite_of(map: &serde_json::Map<String, Json>) -> Option<f64> {
    if map.len() != 1 {
        return None;
    }
    match map.get(NONFINITE_KEY)?.as_str()? {
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        "NaN" => Some(f64::NAN),
        _ => None,
    }
}

/// How Python's `json.dumps` spells a float that is not finite.
pub fn python_spelling(f: f64) -> &'static str {
    if f.is_nan() {
        "NaN"
    } else if f > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

impl CompactJson {
    /// The value as serde_json has it, for the few readers that work on one.
    pub fn to_json(&self) -> Json {
        match self {
            CompactJson::Null => Json::Null,
            CompactJson::Bool(b) => Json::Bool(*b),
            CompactJson::Number(n) => Json::Number(n.clone()),
            CompactJson::String(s) => Json::String(s.to_string()),
            CompactJson::Array(items) => Json::Array(items.iter().map(CompactJson::to_json).collect()),
            CompactJson::Object(entries) => {
                Json::Object(entries.iter().map(|(k, v)| (k.to_string(), v.to_json())).collect())
            }
            CompactJson::NonFinite(f) => Json::String(python_spelling(*f).into()),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            CompactJson::String(s) => Some(s),
            _ => None,
        }
    }
}

impl From<Json> for CompactJson {
    fn from(value: Json) -> CompactJson {
        match value {
            Json::Null => CompactJson::Null,
            Json::Bool(b) => CompactJson::Bool(b),
            Json::Number(n) => CompactJson::Number(n),
            Json::String(s) => CompactJson::String(s.into_boxed_str()),
            Json::Array(items) => CompactJson::Array(items.into_iter().map(CompactJson::from).collect()),
            Json::Object(map) => match nonfinite_of(&map) {
                Some(f) => CompactJson::NonFinite(f),
                None => CompactJson::Object(map.into_iter().map(|(k, v)| (k.into_boxed_str(), CompactJson::from(v))).collect()),
            },
        }
    }
}

type Entry<'a> = &'a (Box<str>, CompactJson);

fn entry((k, v): Entry<'_>) -> (&str, &CompactJson) {
    (k, v)
}

impl JsonValue for CompactJson {
    type Entries<'a> = std::iter::Map<std::slice::Iter<'a, (Box<str>, CompactJson)>, fn(Entry<'a>) -> (&'a str, &'a CompactJson)>;

    fn shape<'a>(&'a self) -> Shape<'a, CompactJson> {
        match self {
            CompactJson::Null => Shape::Null,
            CompactJson::Bool(b) => Shape::Bool(*b),
            CompactJson::Number(n) => Shape::Number(n),
            CompactJson::String(s) => Shape::String(s),
            CompactJson::Array(items) => Shape::Array(items),
            CompactJson::Object(entries) => Shape::Object(entries.iter().map(entry as fn(Entry<'a>) -> (&'a str, &'a CompactJson))),
            CompactJson::NonFinite(f) => Shape::NonFinite(*f),
        }
    }
}

/// Equal as the serde_json values are: objects regardless of their keys' order.
impl PartialEq for CompactJson {
    fn eq(&self, other: &CompactJson) -> bool {
        match (self, other) {
            (CompactJson::Null, CompactJson::Null) => true,
            (CompactJson::Bool(a), CompactJson::Bool(b)) => a == b,
            (CompactJson::Number(a), CompactJson::Number(b)) => a == b,
            (CompactJson::String(a), CompactJson::String(b)) => a == b,
            (CompactJson::Array(a), CompactJson::Array(b)) => a == b,
            // Mostly in the same order; else matched by sorted keys, not key by key
            // (a file can give a field an object of many thousand keys).
            (CompactJson::Object(a), CompactJson::Object(b)) => a.len() == b.len() && (a == b || same_entries(a, b)),
            // Equal as the JSON texts are (Python's parse of `NaN` is one object).
            (CompactJson::NonFinite(a), CompactJson::NonFinite(b)) => python_spelling(*a) == python_spelling(*b),
            _ => false,
        }
    }
}

/// Two objects' entries (keys unique in each) equal as maps, in any order.
fn same_entries(a: &[(Box<str>, CompactJson)], b: &[(Box<str>, CompactJson)]) -> bool {
    by_key(a) == by_key(b)
}

fn by_key(entries: &[(Box<str>, CompactJson)]) -> Vec<(&str, &CompactJson)> {
    let mut sorted: Vec<(&str, &CompactJson)> = entries.iter().map(|(k, v)| (&**k, v)).collect();
    sorted.sort_unstable_by_key(|&(k, _)| k);
    sorted
}

/// Serialised call for call as serde_json serialises the value it was made from.
impl Serialize for CompactJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            CompactJson::Null => s.serialize_unit(),
            CompactJson::Bool(b) => s.serialize_bool(*b),
            CompactJson::Number(n) => n.serialize(s),
            CompactJson::String(text) => s.serialize_str(text),
            CompactJson::Array(items) => items.serialize(s),
            CompactJson::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries.iter() {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            // Valid JSON: the spelling as a string (the report writes it bare).
            CompactJson::NonFinite(f) => s.serialize_str(python_spelling(*f)),
        }
    }
}

/// Compact JSON text, as serde_json displays a value.
impl fmt::Display for CompactJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Printed, compared and converted back as the serde_json value it was made from:
    /// big and negative integers, floats, escapes, nested key order.
    #[test]
    fn behaves_as_the_serde_json_value_it_was_made_from() {
        let values = [
            json!(null),
            json!(true),
            json!(18446744073709551615u64),
            json!(-9223372036854775808i64),
            json!(0.1),
            json!(1e300),
            json!(-0.0),
            json!("quote \" backslash \\ line\n tab\t bell\u{7} é \u{2028}"),
            json!([]),
            json!({}),
            json!({"z": 1, "a": [1, 2.5, {"y": null, "b": "x"}], "m": {"k": {}}}),
        ];
        for value in values {
            let compact = CompactJson::from(value.clone());
            assert_eq!(compact.to_string(), value.to_string());
            assert_eq!(serde_json::to_string_pretty(&compact).unwrap(), serde_json::to_string_pretty(&value).unwrap());
            assert_eq!(serde_json::to_value(&compact).unwrap(), value);
            assert_eq!(compact.to_json(), value);
            assert_eq!(compact, CompactJson::from(value));
        }
        let reordered = CompactJson::from(json!({"b": 2, "a": 1}));
        assert_eq!(reordered, CompactJson::from(json!({"a": 1, "b": 2})));
        assert_ne!(reordered, CompactJson::from(json!({"a": 1, "b": 3})));
        assert_ne!(reordered, CompactJson::from(json!({"b": 2, "c": 1})));
        let many: serde_json::Map<String, Json> = (0..20_000).map(|i| (format!("k{i}"), json!(i))).collect();
        let reversed: serde_json::Map<String, Json> = many.clone().into_iter().rev().collect();
        assert_eq!(CompactJson::from(Json::Object(many.clone())), CompactJson::from(Json::Object(reversed)));
        let mut changed = many.clone();
        changed.insert("k19999".into(), json!(-1));
        assert_ne!(CompactJson::from(Json::Object(many)), CompactJson::from(Json::Object(changed)));
        assert_eq!(std::mem::size_of::<CompactJson>(), 24);
    }
}
