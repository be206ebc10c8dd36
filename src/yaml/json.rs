//! Accessors on [`Node`], [`Map`], [`Value`], and [`Value::to_json`].

use super::{Map, Node, Value};
use super::repr::{date_iso, datetime_iso, str_of};
use crate::pyscalar::repr_bytes;

impl Map {
    /// The value under the string key `key` (Python `d.get(key)` for a str key).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries.iter().find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key)).map(|(_, v)| v)
    }

    /// Entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Node, &Node)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The key node for the string key `key` (for its position).
    pub fn get_key(&self, key: &str) -> Option<&Node> {
        self.entries.iter().find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key)).map(|(k, _)| k)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Node {
    /// The text of a `str` value.
    pub fn as_str(&self) -> Option<&str> {
        self.value.as_str()
    }

    /// The mapping of a `dict` value.
    pub fn as_map(&self) -> Option<&Map> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The items of a `list` value.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// `node[key]` for a mapping node and a string key.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map().and_then(|m| m.get(key))
    }
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Python `type(value).__name__`: "str", "int", "float", "bool", "NoneType", "list",
    /// "dict", "date", "datetime", "bytes", "set".
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::BigInt(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Bytes(_) => "bytes",
            Value::Date(_) => "date",
            Value::DateTime(_) => "datetime",
            Value::Seq(_) => "list",
            Value::Map(_) => "dict",
            Value::Set(_) => "set",
        }
    }

    /// The JSON `json.dumps(value, default=str)` would write, with dates and datetimes as
    /// `isoformat()` (`"2024-05-06"`, `"2024-02-29T08:15:00"`, `"…+00:00"`):
    /// bytes → `str(bytes)` (`"b'..'"`), sets → arrays, big ints → decimal strings
    /// (serde_json cannot hold them as numbers), NaN/±inf → `null` (serde_json cannot hold
    /// them; Python writes `NaN`/`Infinity`). Keys: strings as is, `True`/`False`/`None` →
    /// `"true"`/`"false"`/`"null"`, ints → decimal, floats → `repr()` (`"1.5"`; infinities
    /// and NaN as `"Infinity"`, `"-Infinity"`, `"NaN"` like `json.dumps`), anything else
    /// → Python `str()` of the key. A later key with the same text replaces the earlier
    /// value in place.
    pub fn to_json(&self) -> serde_json::Value {
        self.to_json_spelling_nonfinite(|_| serde_json::Value::Null)
    }

    /// [`Value::to_json`], but NaN and ±inf kept (as [`crate::store::nonfinite_marker`]),
    /// a float a Python tool keeps and `json.dumps` writes as a bare `NaN`,
    /// `Infinity` or `-Infinity`: a field's value becomes a non-finite
    /// [`crate::store::CompactJson`], which the report writes as Python does.
    pub fn to_json_python(&self) -> serde_json::Value {
        self.to_json_spelling_nonfinite(crate::store::nonfinite_marker)
    }

    fn to_json_spelling_nonfinite(&self, nonfinite: fn(f64) -> serde_json::Value) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::BigInt(s) => s.parse::<u64>().map(J::from).unwrap_or_else(|_| J::String(s.clone())),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or_else(|| nonfinite(*f), J::Number),
            Value::Str(s) => J::String(s.clone()),
            Value::Bytes(b) => J::String(repr_bytes(b)),
            Value::Date(d) => J::String(date_iso(d)),
            Value::DateTime(dt) => J::String(datetime_iso(dt, 'T')),
            Value::Seq(items) | Value::Set(items) => {
                J::Array(items.iter().map(|n| n.value.to_json_spelling_nonfinite(nonfinite)).collect())
            }
            Value::Map(m) => {
                let mut out = serde_json::Map::new();
                for (k, v) in &m.entries {
                    out.insert(json_key(&k.value), v.value.to_json_spelling_nonfinite(nonfinite));
                }
                J::Object(out)
            }
        }
    }
}

/// How `json.dumps` spells a float that is not finite.
pub fn json_nonfinite(f: f64) -> &'static str {
    crate::store::python_spelling(f)
}

fn json_key(k: &Value) -> String {
    match k {
        Value::Str(s) => s.clone(),
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Float(f) if !f.is_finite() => json_nonfinite(*f).to_string(),
        other => str_of(other),
    }
}

#[cfg(test)]
mod nonfinite_tests {
    #[test]
    fn python_spelling_of_nonfinite_floats() {
        let node = crate::yaml::load("a: [.inf, -.Inf, .NaN, 1.5]\n").unwrap().unwrap();
        let kept = crate::store::CompactJson::from(node.value.to_json_python());
        assert_eq!(kept.to_json(), serde_json::json!({"a": ["Infinity", "-Infinity", "NaN", 1.5]}));
        let crate::store::CompactJson::Object(entries) = &kept else { panic!("{kept:?}") };
        let crate::store::CompactJson::Array(items) = &entries[0].1 else { panic!("{kept:?}") };
        assert!(matches!(items[1], crate::store::CompactJson::NonFinite(f) if f == f64::NEG_INFINITY));
        assert_eq!(node.value.to_json(), serde_json::json!({"a": [null, null, null, 1.5]}));
    }
}
