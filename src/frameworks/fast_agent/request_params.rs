//! `request_params`: the mapping becomes a pydantic `RequestParams` (lax coercion,
//! camelCase aliases accepted, unknown keys ignored) and is reported as the package's
//! `_dump_request_params` prints it: only values that differ from the defaults, without
//! `messages`, `system_prompt`, `use_history`, `model` and `batch_context`;
//! `streaming_timeout` whenever it was given.

use serde_json::{json, Map as JsonMap, Value as Json};

use crate::py;
use crate::yaml::{Map, Value};

/// How pydantic checks one field in lax mode.
#[derive(Clone, Copy)]
enum Kind {
    Float,
    Int,
    Bool,
    Str,
    StrList,
    Dict,
    Literal(&'static [&'static str]),
    /// Nested models and `Any`: passed on as written.
    Any,
}

/// Each field: name, camelCase alias, kind, default as JSON, excluded from the dump.
fn fields() -> Vec<(&'static str, &'static str, Kind, Json, bool)> {
    use Kind::*;
    vec![
        ("meta", "_meta", Any, Json::Null, false),
        ("messages", "messages", Any, json!([]), true),
        ("model_preferences", "modelPreferences", Any, Json::Null, false),
        ("system_prompt", "systemPrompt", Str, Json::Null, true),
        ("include_context", "includeContext", Literal(&["none", "thisServer", "allServers"]), Json::Null, false),
        ("temperature", "temperature", Float, Json::Null, false),
        ("max_tokens", "maxTokens", Int, Json::Null, false),
        ("stop_sequences", "stopSequences", StrList, Json::Null, false),
        ("metadata", "metadata", Dict, Json::Null, false),
        ("tools", "tools", Any, Json::Null, false),
        ("tool_choice", "toolChoice", Any, Json::Null, false),
        ("task", "task", Any, Json::Null, false),
        ("model", "model", Str, Json::Null, true),
        ("use_history", "useHistory", Bool, json!(true), true),
        ("max_iterations", "maxIterations", Int, json!(9999), false),
        ("parallel_tool_calls", "parallelToolCalls", Bool, json!(true), false),
        ("response_format", "responseFormat", Any, Json::Null, false),
        ("structured_schema", "structuredSchema", Dict, Json::Null, false),
        ("structured_tool_policy", "structuredToolPolicy", Literal(&["auto", "always", "defer", "no_tools"]), json!("auto"), false),
        ("sampling_tool_choice", "samplingToolChoice", Literal(&["auto", "required", "none"]), Json::Null, false),
        ("template_vars", "templateVars", Dict, json!({}), false),
        ("mcp_metadata", "mcpMetadata", Dict, Json::Null, false),
        ("tool_execution_handler", "toolExecutionHandler", Any, Json::Null, false),
        ("emit_loop_progress", "emitLoopProgress", Bool, json!(false), false),
        ("tool_result_mode", "toolResultMode", Literal(&["postprocess", "passthrough", "selectable"]), json!("postprocess"), false),
        ("batch_context", "batchContext", Any, Json::Null, true),
        ("streaming_timeout", "streamingTimeout", Float, json!(150.0), false),
        ("top_p", "topP", Float, Json::Null, false),
        ("top_k", "topK", Int, Json::Null, false),
        ("min_p", "minP", Float, Json::Null, false),
        ("presence_penalty", "presencePenalty", Float, Json::Null, false),
        ("frequency_penalty", "frequencyPenalty", Float, Json::Null, false),
        ("repetition_penalty", "repetitionPenalty", Float, Json::Null, false),
        ("service_tier", "serviceTier", Literal(&["fast", "flex"]), Json::Null, false),
    ]
}

/// The fields `RequestParams._reject_bool_numeric_values` refuses a boolean for (a
/// `before` validator, so pydantic's lax bool-to-number never happens).
const NO_BOOLEANS: &[&str] = &[
    "max_tokens", "max_iterations", "streaming_timeout", "temperature", "top_p", "top_k", "min_p", "presence_penalty",
    "frequency_penalty", "repetition_penalty",
];

/// pydantic's lax `int` from a string: Python `int()` digits (`" 7 "`, `"1_000"`), and
/// a fraction of zeros (`"5.0"`); no exponent.
fn int_of_str(s: &str) -> Option<Json> {
    let s = py::strip(s);
    let whole = match s.split_once('.') {
        Some((whole, zeros)) if zeros.bytes().all(|b| b == b'0') => whole,
        Some(_) => return None,
        None => s,
    };
    py::int_parse(whole).map(|v| v.to_json_python())
}

/// The dump of a `request_params` mapping, or the pydantic-style error.
pub fn dump(map: &Map) -> Result<Json, String> {
    let fields = fields();
    let mut out = JsonMap::new();
    for (name, alias, kind, default, excluded) in &fields {
        // pydantic (populate_by_name) takes the alias first, then the field name.
        let given = map
            .entries
            .iter()
            .rev()
            .find(|(k, _)| k.value == Value::Str((*alias).into()))
            .or_else(|| map.entries.iter().rev().find(|(k, _)| k.value == Value::Str((*name).into())));
        let Some((_, node)) = given else { continue };
        let nullable = default.is_null() || matches!(kind, Kind::Any);
        if matches!(node.value, Value::Null) && !nullable {
            return Err(format!("{name}: input should not be None"));
        }
        if matches!(node.value, Value::Bool(_)) && NO_BOOLEANS.contains(name) {
            return Err(format!("{name}: Numeric request parameters must not be boolean values."));
        }
        let value = coerce(&node.value, *kind).map_err(|e| format!("{name}: {e}"))?;
        if *excluded {
            continue;
        }
        if *name == "streaming_timeout" || !same(&value, default) {
            out.insert((*name).into(), value);
        }
    }
    Ok(if out.is_empty() { Json::Null } else { Json::Object(out) })
}

fn same(a: &Json, b: &Json) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn coerce(v: &Value, kind: Kind) -> Result<Json, String> {
    if matches!(v, Value::Null) {
        return Ok(Json::Null);
    }
    match kind {
        Kind::Float => match v {
            Value::Int(i) => Ok(json!(*i as f64)),
            Value::Float(f) => Ok(super::values::float_json(*f)),
            Value::Bool(b) => Ok(json!(if *b { 1.0 } else { 0.0 })),
            Value::Str(s) => py::float_parse(s).map(super::values::float_json).ok_or_else(|| "input should be a valid number".into()),
            _ => Err("input should be a valid number".into()),
        },
        Kind::Int => match v {
            Value::Int(i) => Ok(json!(i)),
            Value::Bool(b) => Ok(json!(i64::from(*b))),
            Value::Float(f) if f.fract() == 0.0 && f.is_finite() => Ok(json!(*f as i64)),
            Value::Str(s) => int_of_str(s).ok_or_else(|| "input should be a valid integer".into()),
            _ => Err("input should be a valid integer".into()),
        },
        Kind::Bool => match v {
            Value::Bool(b) => Ok(json!(b)),
            Value::Int(0) => Ok(json!(false)),
            Value::Int(1) => Ok(json!(true)),
            Value::Str(s) => match s.to_lowercase().as_str() {
                "0" | "off" | "f" | "false" | "n" | "no" => Ok(json!(false)),
                "1" | "on" | "t" | "true" | "y" | "yes" => Ok(json!(true)),
                _ => Err("input should be a valid boolean".into()),
            },
            _ => Err("input should be a valid boolean".into()),
        },
        Kind::Str => match v {
            Value::Str(s) => Ok(json!(s)),
            _ => Err("input should be a valid string".into()),
        },
        Kind::StrList => match v {
            Value::Seq(items) if items.iter().all(|n| matches!(n.value, Value::Str(_))) => Ok(v.to_json_python()),
            _ => Err("input should be a list of strings".into()),
        },
        Kind::Dict => match v {
            Value::Map(_) => Ok(v.to_json_python()),
            _ => Err("input should be a valid dictionary".into()),
        },
        Kind::Literal(options) => match v {
            Value::Str(s) if options.contains(&s.as_str()) => Ok(json!(s)),
            _ => Err(format!("input should be one of {}", options.join(", "))),
        },
        Kind::Any => Ok(v.to_json_python()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Map {
        match crate::yaml::load(text) {
            Ok(Some(crate::yaml::Node { value: Value::Map(m), .. })) => m,
            other => panic!("not a mapping: {other:?}"),
        }
    }

    #[test]
    fn lax_coercion_and_the_dump_of_non_defaults() {
        let dump = dump(&map("maxTokens: '256'\ntemperature: 1\nmax_iterations: 9999\nparallel_tool_calls: 'no'\nstreaming_timeout: 150\nunknown: 5\nuse_history: false"));
        assert_eq!(
            dump,
            Ok(json!({"max_tokens": 256, "temperature": 1.0, "parallel_tool_calls": false, "streaming_timeout": 150.0}))
        );
        assert_eq!(dump_of("max_iterations: 9999"), Json::Null);
        assert!(super::dump(&map("temperature: warm")).is_err());
        assert!(super::dump(&map("max_tokens: 1.5")).is_err());
        assert!(super::dump(&map("max_iterations: null")).is_err());
    }

    fn dump_of(text: &str) -> Json {
        super::dump(&map(text)).unwrap_or(Json::Null)
    }
}
