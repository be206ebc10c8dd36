//! pydantic's JSON form of loose values (`model_dump_json` of a `dict[str, Any]`
//! field such as OpenHands' `metadata`), where it differs from `json.dumps`: a UTC
//! time ends in `Z`, and mapping keys are written as pydantic writes them (`None`,
//! `true`, `1.5`; a non-finite float `None` too).

use serde_json::Value as Json;

use crate::yaml::Value;

pub fn json(value: &Value) -> Json {
    match value {
        Value::DateTime(dt) if dt.offset_minutes == Some(0) => {
            let mut iso = super::datetime_iso(dt, 'T');
            iso.truncate(iso.len() - "+00:00".len());
            iso.push('Z');
            Json::String(iso)
        }
        Value::Seq(items) | Value::Set(items) => Json::Array(items.iter().map(|n| json(&n.value)).collect()),
        Value::Map(m) => Json::Object(m.entries.iter().map(|(k, v)| (key(&k.value), json(&v.value))).collect()),
        other => other.to_json(),
    }
}

fn key(k: &Value) -> String {
    match k {
        Value::Str(s) => s.clone(),
        Value::Null => "None".into(),
        Value::Bool(b) => b.to_string(),
        // pydantic 2 writes a non-finite float as null, and a null key as `None`.
        Value::Float(f) if !f.is_finite() => "None".into(),
        other => super::str_of(other),
    }
}

#[cfg(test)]
mod tests {
    use super::json;

    fn of(yaml: &str) -> String {
        let doc = crate::yaml::load(yaml).expect("yaml").expect("a document");
        json(&doc.value).to_string()
    }

    /// What pydantic 2 printed for the same values (the OpenHands oracle's venv).
    #[test]
    fn as_pydantic_writes_them() {
        assert_eq!(of("x: 2024-02-29T08:15:00Z"), r#"{"x":"2024-02-29T08:15:00Z"}"#);
        assert_eq!(of("x: 2024-02-29T08:15:00.5Z"), r#"{"x":"2024-02-29T08:15:00.500000Z"}"#);
        assert_eq!(of("x: 2024-02-29t08:15:00-05:30"), r#"{"x":"2024-02-29T08:15:00-05:30"}"#);
        assert_eq!(of("x: {~: 1, true: 2, 1.5: 3, .inf: 4}"), r#"{"x":{"None":4,"true":2,"1.5":3}}"#);
        assert_eq!(of("x: {-.inf: 2, 1000000000000000000000000000000: 3, -0.0: 4, 1.0e+20: 5}"), r#"{"x":{"None":2,"1000000000000000000000000000000":3,"-0.0":4,"1e+20":5}}"#);
    }
}
