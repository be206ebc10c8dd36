//! JavaScript's view of JSON values, shared by the readers of the Node tools.

use serde_json::Value as Json;

/// JavaScript truthiness of a JSON value.
pub fn truthy(v: &Json) -> bool {
    match v {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Json::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// `mergeDeep` / `deepMerge`: objects merge key by key, anything else is replaced.
pub fn merge_deep(into: &mut Json, from: &Json) {
    match (into, from) {
        (Json::Object(a), Json::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(old) if old.is_object() && v.is_object() => merge_deep(old, v),
                    _ => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (into, from) => *into = from.clone(),
    }
}
