//! `fast_agent.core.tool_input_schema.validate_tool_input_schema`: a card's
//! `tool_input_schema` must be an object schema whose `properties`, `required` and
//! `additionalProperties` have the JSON-schema shapes; the card is refused otherwise.

use crate::yaml::{Map, Value};

/// The validator's errors for `schema` (none: the schema is kept as written).
pub fn errors(schema: &Map) -> Vec<String> {
    let mut errors = Vec::new();
    if !matches!(schema.get("type").map(|n| &n.value), Some(Value::Str(t)) if t == "object") {
        errors.push("'type' must be 'object'".to_string());
    }
    let mut properties: Vec<(String, &Value)> = Vec::new();
    match schema.get("properties").map(|n| &n.value) {
        None | Some(Value::Null) => {}
        Some(Value::Map(props)) => {
            for (key, value) in props.iter() {
                match non_empty_string(&key.value) {
                    Some(name) => match properties.iter_mut().find(|(n, _)| *n == name) {
                        Some(entry) => entry.1 = &value.value,
                        None => properties.push((name, &value.value)),
                    },
                    None => errors.push("'properties' keys must be non-empty strings".to_string()),
                }
            }
        }
        Some(_) => errors.push("'properties' must be a mapping when present".to_string()),
    }
    let mut required: Vec<String> = Vec::new();
    match schema.get("required").map(|n| &n.value) {
        None | Some(Value::Null) => {}
        Some(Value::Seq(items)) => {
            for (index, item) in items.iter().enumerate() {
                match non_empty_string(&item.value) {
                    Some(name) => required.push(name),
                    None => errors.push(format!("'required[{index}]' must be a non-empty string")),
                }
            }
        }
        Some(_) => errors.push("'required' must be a list of property names".to_string()),
    }
    let mut unknown: Vec<&String> = required.iter().filter(|r| !properties.iter().any(|(n, _)| n == *r)).collect();
    unknown.sort();
    unknown.dedup();
    if !unknown.is_empty() {
        let names: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
        errors.push(format!("'required' references undefined properties: {}", names.join(", ")));
    }
    for (name, value) in &properties {
        if !matches!(value, Value::Map(_)) {
            errors.push(format!("'properties.{name}' must be a mapping"));
        }
    }
    if !matches!(schema.get("additionalProperties").map(|n| &n.value), None | Some(Value::Null | Value::Bool(_) | Value::Map(_))) {
        errors.push("'additionalProperties' must be a boolean or mapping".to_string());
    }
    errors
}

/// `strip_to_none` of a `str`: the text without Python's white space, if any is left.
fn non_empty_string(value: &Value) -> Option<String> {
    match value {
        Value::Str(s) => Some(s.trim_matches(crate::pyscalar::is_space).to_string()).filter(|s| !s.is_empty()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    fn errors_of(yaml: &str) -> Vec<String> {
        let node = crate::yaml::load(yaml).unwrap().unwrap();
        super::errors(node.as_map().unwrap())
    }

    /// As fast-agent's validator answers the same schemas.
    #[test]
    fn schemas_are_checked_as_fast_agent_checks_them() {
        assert!(errors_of("type: object\nproperties: {q: {type: string}}\nrequired: [q]\n").is_empty());
        assert_eq!(errors_of("q: {type: string}\n"), ["'type' must be 'object'"]);
        assert_eq!(
            errors_of("type: object\nproperties: {q: 5, ' ': {}}\nrequired: [r, '']\nadditionalProperties: 1\n"),
            [
                "'properties' keys must be non-empty strings",
                "'required[1]' must be a non-empty string",
                "'required' references undefined properties: r",
                "'properties.q' must be a mapping",
                "'additionalProperties' must be a boolean or mapping",
            ]
        );
    }
}
