//! YAML as js-yaml reads it, for the readers of tools written in JavaScript: Gemini
//! CLI 0.61.0 and Kimi Code 2.1.0 (js-yaml 4.1.1 `load`, default schema) and OpenCode
//! 1.18.33 (js-yaml 3 `safeLoad`, DEFAULT_SAFE schema, as gray-matter 4 bundles it).
//! The two releases differ only in what [`Version`] names. [`Js`], the JavaScript
//! value, is also what Qwen Code's `yaml`-package reader builds.
//!
//! The structure comes from `yaml-rust`'s event parser (safe and iterative: deep
//! nesting cannot overflow the stack); what js-yaml does differently is done here:
//! scalar resolution and tags (`resolveYamlInteger`, `YAML_FLOAT_PATTERN`,
//! `YAML_TIMESTAMP_REGEXP`, `constructYamlBinary`: [`scalars`]), `storeMappingPair`
//! (keys made strings, duplicates, `mergeMappings`), tab indentation, NUL bytes, lone
//! CRs and the single-document rule ([`build`]). Proved against js-yaml itself by
//! `tests/goldens/{gemini-cli,kimi-code,opencode}-yaml/`.

mod build;
mod scalars;

pub use build::load;

/// Which js-yaml reads the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// js-yaml 4.1.1 `load`: YAML 1.2 core scalars (`0o17`, no base 60), `!!binary`,
    /// tabs refused in indentation. Its goldens also prove what agentry checks for it
    /// alone: lone CRs as line breaks, an unexpected end reported on the last line.
    V4,
    /// js-yaml 3 `safeLoad`: leading-zero octal and base-60 numbers, no `0o`; tabs in
    /// indentation tolerated. Elsewhere yaml-rust's reading (and its error positions)
    /// stands, as OpenCode's goldens were made with it.
    V3Safe,
}

/// A value as js-yaml hands it to JavaScript.
#[derive(Clone, Debug, PartialEq)]
pub enum Js {
    Null,
    Bool(bool),
    /// Every JavaScript number is a double.
    Num(f64),
    Str(String),
    /// A timestamp (a JavaScript `Date`), as written; [`Js::iso`] gives the instant.
    Date(String),
    Seq(Vec<Js>),
    /// A plain object: keys made strings, in insertion order, each with the 1-based
    /// line its key is written on (0 where none is kept: Qwen Code's readers, and the
    /// indices of a `!!binary` `Uint8Array`, which JavaScript sees as such an object).
    Map(Vec<(String, Js, u32)>),
}

impl Js {
    /// The type word Zod uses in "Expected string, received number".
    pub fn type_word(&self) -> &'static str {
        match self {
            Js::Null => "null",
            Js::Bool(_) => "boolean",
            Js::Num(n) if n.is_nan() => "nan",
            Js::Num(_) => "number",
            Js::Str(_) => "string",
            Js::Date(_) => "date",
            Js::Seq(_) => "array",
            Js::Map(_) => "object",
        }
    }

    pub fn get(&self, key: &str) -> Option<&Js> {
        match self {
            Js::Map(entries) => entries.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v),
            _ => None,
        }
    }

    /// `Date.prototype.toISOString` of a Date (js-yaml's `constructYamlTimestamp`).
    pub fn iso(&self) -> Option<String> {
        match self {
            Js::Date(text) => scalars::timestamp_millis(text).map(crate::pyscalar::calendar::js_iso_string),
            _ => None,
        }
    }

    /// `JSON.stringify` of the value (a Date as its ISO text; NaN and infinities null).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Js::Null => J::Null,
            Js::Bool(b) => J::Bool(*b),
            Js::Num(n) => number(*n),
            Js::Str(s) => J::String(s.clone()),
            Js::Date(_) => self.iso().map_or(J::Null, J::String),
            Js::Seq(items) => J::Array(items.iter().map(Js::to_json).collect()),
            Js::Map(entries) => J::Object(entries.iter().map(|(k, v, _)| (k.clone(), v.to_json())).collect()),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Js::Str(s) => Some(s),
            _ => None,
        }
    }

    /// JavaScript truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Js::Null => false,
            Js::Bool(b) => *b,
            Js::Num(n) => *n != 0.0 && !n.is_nan(),
            Js::Str(s) => !s.is_empty(),
            Js::Date(_) | Js::Seq(_) | Js::Map(_) => true,
        }
    }

    /// `String(value)`, as JavaScript also makes a value an object key (a Date as its
    /// ISO text: the real `toString` depends on the machine's time zone).
    pub fn to_js_string(&self) -> String {
        match self {
            Js::Null => "null".into(),
            Js::Bool(b) => b.to_string(),
            Js::Num(n) => number_to_string(*n),
            Js::Str(s) => s.clone(),
            Js::Date(s) => self.iso().unwrap_or_else(|| s.clone()),
            Js::Seq(items) => items.iter().map(|i| if *i == Js::Null { String::new() } else { i.to_js_string() }).collect::<Vec<_>>().join(","),
            Js::Map(_) => "[object Object]".into(),
        }
    }

    /// `obj[key] = value`: a repeated key keeps its first place and takes the last
    /// value (and its line).
    pub fn set(entries: &mut Vec<(String, Js, u32)>, key: String, value: Js, line: u32) {
        match entries.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => (entry.1, entry.2) = (value, line),
            None => entries.push((key, value, line)),
        }
    }
}

/// A JSON number for a double, as `JSON.stringify` writes it: an integer without a
/// fraction (JavaScript prints every integral double below 1e21 so; agentry up to
/// i64's range), NaN and the infinities null.
pub fn number(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() < 9.2e18 {
        serde_json::Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

/// `Number.prototype.toString()`: the shortest digits that read back as `n`, in
/// decimal notation from 1e-7 up to 1e21, else as `1.5e+21`.
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if n == 0.0 {
        return "0".into();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddde±x`.
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let k = digits.len() as i32;
    // The value is 0.DIGITS × 10^point.
    let point = exp + 1;
    let body = if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let e = point - 1;
        let e = if e >= 0 { format!("+{e}") } else { e.to_string() };
        if k == 1 {
            format!("{digits}e{e}")
        } else {
            format!("{}.{}e{e}", &digits[..1], &digits[1..])
        }
    };
    format!("{sign}{body}")
}

/// Why js-yaml refused the text: its message, and where (1-based line and column)
/// unless the whole stream is at fault (more than one document).
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub message: String,
    pub at: Option<(u32, u32)>,
}

impl Error {
    pub fn line(&self) -> Option<u32> {
        self.at.map(|(line, _)| line)
    }
}

#[cfg(test)]
mod tests;
