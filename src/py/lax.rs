//! pydantic v2's lax-mode coercions, for frameworks whose models validate YAML values
//! with pydantic (OpenHands hooks and MCP servers, Kimi agent specs).

use crate::yaml::Value;

/// `str`: only strings are accepted (pydantic does not stringify numbers).
pub fn str_(v: &Value) -> Result<String, String> {
    match v {
        Value::Str(s) => Ok(s.clone()),
        other => Err(format!("Input should be a valid string, got {}", other.type_name())),
    }
}

/// `int`: ints, bools, floats without a fraction, and strings holding an int.
pub fn int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() && f.abs() < 9.2e18 => Ok(*f as i64),
        Value::Str(s) => s.trim().parse::<i64>().map_err(|_| format!("Input should be a valid integer, unable to parse string as an integer: {s:?}")),
        other => Err(format!("Input should be a valid integer, got {}", other.type_name())),
    }
}

/// `float`: numbers, bools and numeric strings (`inf` and `nan` included).
pub fn float(v: &Value) -> Result<f64, String> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(f) => Ok(*f),
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        Value::Str(s) => super::float_parse(s).ok_or_else(|| format!("Input should be a valid number, unable to parse string as a number: {s:?}")),
        other => Err(format!("Input should be a valid number, got {}", other.type_name())),
    }
}

/// `bool`: bools, 0/1, and the strings pydantic knows (`yes`, `off`, `t`, `0`, …).
pub fn bool_(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(0) => Ok(false),
        Value::Int(1) => Ok(true),
        Value::Float(f) if *f == 0.0 => Ok(false),
        Value::Float(f) if *f == 1.0 => Ok(true),
        Value::Str(s) => match s.trim().to_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
            _ => Err(format!("Input should be a valid boolean, unable to interpret input: {s:?}")),
        },
        other => Err(format!("Input should be a valid boolean, got {}", other.type_name())),
    }
}

/// `list[str]`.
pub fn str_list(v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::Seq(items) => items.iter().map(|n| str_(&n.value)).collect(),
        other => Err(format!("Input should be a valid list, got {}", other.type_name())),
    }
}
