//! Python's own text rules, where the frameworks' behaviour leaks them into fields:
//! `str()`/`repr()` of values, `int()`/`float()` of strings, `str.strip()`.

/// Python's `str.isspace()` for one character. It differs from
/// [`char::is_whitespace`]: it includes the separators `\x1c`–`\x1f` and excludes
/// nothing else that matters here (U+200B and U+FEFF are not spaces for either).
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\x1c'..='\x1f' | ' ' | '\u{85}' | '\u{a0}' | '\u{1680}'
            | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// Python's `str.strip()` with no argument.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Python's `str()` of a loaded YAML value (the forms agent files meet: scalars as
/// Python prints them, containers through their items).
pub fn str_of(v: &crate::yaml::Value) -> String {
    use crate::yaml::Value;
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Int(i) => i.to_string(),
        Value::BigInt(s) => s.clone(),
        Value::Float(f) if f.is_nan() => "nan".into(),
        Value::Float(f) if f.is_infinite() => if *f > 0.0 { "inf".into() } else { "-inf".into() },
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e16 => format!("{f:.1}"),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => s.clone(),
        other => other.to_json().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_uses_python_whitespace() {
        assert_eq!(strip("\x1c a \u{3000}"), "a");
        assert_eq!(strip("\u{feff}a\u{200b}"), "\u{feff}a\u{200b}");
    }
}
