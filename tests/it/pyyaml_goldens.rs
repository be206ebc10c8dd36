//! Compares `agentry::yaml::load` with real PyYAML 6.0.3 `safe_load` on every case in
//! `tests/goldens/pyyaml/cases` (expected JSON written by `gen.py`; see its docstring
//! for the format). Checks Ok/Err, error line (and column), Python type and value of
//! every node, the start position of every node, `str()`/`repr()` of the document and
//! of each top-level value, the position of each top-level key, and `Value::to_json`.

use std::fs;
use std::path::Path;

use agentry::py;
use agentry::yaml::{self, Node, Value};
use serde_json::{json, Value as J};

fn tagged(v: &Value) -> J {
    match v {
        Value::Null => json!({"t": "NoneType"}),
        Value::Bool(b) => json!({"t": "bool", "v": b}),
        Value::Int(i) => json!({"t": "int", "v": i.to_string()}),
        Value::BigInt(s) => json!({"t": "int", "v": s}),
        Value::Float(f) => json!({"t": "float", "v": py::float_repr(*f)}),
        Value::Str(s) => json!({"t": "str", "v": s}),
        Value::Bytes(b) => json!({"t": "bytes", "v": py::repr_bytes(b)}),
        Value::Date(d) => json!({"t": "date", "v": py::date_iso(d)}),
        Value::DateTime(d) => json!({"t": "datetime", "v": py::datetime_iso(d, 'T')}),
        Value::Seq(items) => json!({"t": "list", "v": items.iter().map(|n| tagged(&n.value)).collect::<Vec<_>>()}),
        Value::Map(m) => {
            json!({"t": "dict", "v": m.entries.iter().map(|(k, v)| json!([tagged(&k.value), tagged(&v.value)])).collect::<Vec<_>>()})
        }
        Value::Set(items) => {
            let mut v: Vec<J> = items.iter().map(|n| tagged(&n.value)).collect();
            v.sort_by_key(sorted_json);
            json!({"t": "set", "v": v})
        }
    }
}

/// `json.dumps(x, sort_keys=True)` with Python's default separators, for set ordering.
fn sorted_json(v: &J) -> String {
    match v {
        J::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.iter().map(|k| format!("{}: {}", J::String((*k).clone()), sorted_json(&m[*k]))).collect();
            format!("{{{}}}", parts.join(", "))
        }
        J::Array(a) => format!("[{}]", a.iter().map(sorted_json).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

fn pos(n: &Node) -> J {
    json!([n.span.line, n.span.col])
}

fn marks(n: &Node) -> J {
    match &n.value {
        Value::Seq(items) => json!([n.span.line, n.span.col, items.iter().map(marks).collect::<Vec<_>>()]),
        Value::Map(m) => {
            json!([
                n.span.line,
                n.span.col,
                m.entries.iter().map(|(k, v)| json!([marks(k), marks(v)])).collect::<Vec<_>>()
            ])
        }
        _ => pos(n),
    }
}

fn check_error(e: &yaml::YamlError, err: &J) -> Result<(), String> {
    if let Some(line) = err["line"].as_u64() {
        let col = err["col"].as_u64().unwrap_or(0);
        if (u64::from(e.line), u64::from(e.col)) != (line, col) {
            return Err(format!("error at {}:{} != PyYAML {line}:{col} ({err}); ours: {e}", e.line, e.col));
        }
    }
    let msg = err["message"].as_str().unwrap_or("");
    if !e.message.contains(msg) {
        return Err(format!("error message {:?} does not contain PyYAML's {msg:?}", e.message));
    }
    Ok(())
}

/// `yaml.safe_load_all` against `load_all`.
fn check_all(text: &str, expected: &J) -> Result<(), String> {
    let got = yaml::load_all(text);
    if expected.get("recursive").is_some() {
        return match got {
            Err(e) if e.message.contains("recursive") => Ok(()),
            other => Err(format!("load_all: recursive structure should be refused, got {other:?}")),
        };
    }
    if let Some(err) = expected.get("error") {
        return match got {
            Ok(docs) => Err(format!("load_all: expected error {err}, got {} documents", docs.len())),
            Err(e) => check_error(&e, err).map_err(|m| format!("load_all: {m}")),
        };
    }
    let docs = got.map_err(|e| format!("load_all: PyYAML loads it, we fail: {e}"))?;
    let have: Vec<J> = docs.iter().map(|d| d.as_ref().map_or(json!({"t": "NoneType"}), |n| tagged(&n.value))).collect();
    if J::Array(have.clone()) != expected["ok"] {
        return Err(format!("load_all differs\n  ours:   {}\n  pyyaml: {}", J::Array(have), expected["ok"]));
    }
    Ok(())
}

/// `yaml.load(text, Loader=yaml.CSafeLoader)` against `load_with(Loader::CSafe)`: the
/// outcome and the value only (libyaml's error texts and marks are not modelled).
fn check_c(text: &str, expected: &J) -> Result<(), String> {
    let got = yaml::load_with(text, yaml::Loader::CSafe);
    match (expected.get("ok"), got) {
        (Some(want), Ok(node)) => {
            let have = node.map_or(json!({"t": "NoneType"}), |n| tagged(&n.value));
            if &have != want {
                return Err(format!("CSafeLoader value differs\n  ours:   {have}\n  pyyaml: {want}"));
            }
            Ok(())
        }
        (None, Err(_)) => Ok(()),
        (Some(_), Err(e)) => Err(format!("CSafeLoader loads it, we fail: {e}")),
        (None, Ok(_)) => Err(format!("CSafeLoader fails ({expected}), we load it")),
    }
}

fn check_case(name: &str, text: &str, expected: &J) -> Result<(), String> {
    check_c(text, &expected["c"])?;
    check_all(text, &expected["all"])?;
    let got = yaml::load(text);
    if expected.get("recursive").is_some() {
        return match got {
            Err(e) if e.message.contains("recursive") => Ok(()),
            other => Err(format!("recursive structure should be refused, got {other:?}")),
        };
    }
    if let Some(err) = expected.get("error") {
        return match got {
            Ok(v) => Err(format!("expected error {err}, got Ok({:?})", v.map(|n| py::repr(&n.value)))),
            Err(e) => check_error(&e, err),
        };
    }
    let node = got.map_err(|e| format!("PyYAML loads it, we fail: {e}"))?;
    let null = Node { value: Value::Null, span: Default::default() };
    let node = node.as_ref().unwrap_or(&null);
    let v = &node.value;
    let want = &expected["ok"];
    let have = tagged(v);
    if &have != want {
        return Err(format!("value differs\n  ours:   {have}\n  pyyaml: {want}"));
    }
    let exact_text =
        !expected["has_set"].as_bool().unwrap_or(false) && !expected["has_tuple"].as_bool().unwrap_or(false);
    if exact_text {
        if py::str_of(v) != expected["str"] {
            return Err(format!("str() differs: {:?} vs {}", py::str_of(v), expected["str"]));
        }
        if py::repr(v) != expected["repr"] {
            return Err(format!("repr() differs: {:?} vs {}", py::repr(v), expected["repr"]));
        }
    }
    if exact_text && v.to_json() != expected["json"] {
        return Err(format!("to_json differs\n  ours:   {}\n  python: {}", v.to_json(), expected["json"]));
    }
    if let Some(root) = expected["root"].as_array() {
        if pos(node) != J::Array(root.clone()) {
            return Err(format!("root position {} != {:?}", pos(node), root));
        }
    }
    if let Some(entries) = expected["entries"].as_array() {
        let m = node.as_map().ok_or("entries expected on a mapping")?;
        if m.entries.len() != entries.len() {
            return Err(format!("{} entries vs {}", m.entries.len(), entries.len()));
        }
        for ((k, val), e) in m.entries.iter().zip(entries) {
            if py::str_of(&k.value) != e["key"] {
                return Err(format!("key {:?} vs {}", py::str_of(&k.value), e["key"]));
            }
            if pos(k) != e["key_pos"] || pos(val) != e["value_pos"] {
                return Err(format!(
                    "key {} at {} / value at {}, PyYAML {} / {}",
                    e["key"],
                    pos(k),
                    pos(val),
                    e["key_pos"],
                    e["value_pos"]
                ));
            }
            if exact_text && (py::str_of(&val.value) != e["str"] || py::repr(&val.value) != e["repr"]) {
                return Err(format!(
                    "value of {}: str {:?} repr {:?}, PyYAML {} {}",
                    e["key"],
                    py::str_of(&val.value),
                    py::repr(&val.value),
                    e["str"],
                    e["repr"]
                ));
            }
        }
    }
    if !expected["marks"].is_null() && marks(node) != expected["marks"] {
        return Err(format!("node positions differ\n  ours:   {}\n  pyyaml: {}", marks(node), expected["marks"]));
    }
    let _ = name;
    Ok(())
}

/// Whether a tagged value holds a set (printed in hash order by Python) or a list of
/// pairs that may have been tuples; their `repr()` is not compared.
fn has_set_or_tuple(t: &J) -> bool {
    match t["t"].as_str() {
        Some("set") => true,
        Some("list") | Some("dict") => t["v"].as_array().is_some_and(|items| {
            items.iter().any(|i| {
                if i.is_array() {
                    i.as_array().is_some_and(|p| p.iter().any(has_set_or_tuple))
                } else {
                    has_set_or_tuple(i)
                }
            })
        }),
        _ => false,
    }
}

fn cases() -> Vec<(String, String, J)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/pyyaml");
    let mut out = Vec::new();
    let mut names: Vec<_> = fs::read_dir(dir.join("cases")).expect("cases dir").flatten().map(|e| e.path()).collect();
    names.sort();
    for path in names {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let text = fs::read_to_string(&path).expect("case text");
        let exp = fs::read_to_string(dir.join("expected").join(format!("{name}.json")))
            .unwrap_or_else(|_| panic!("no expected JSON for {name}: run gen.py"));
        let exp: J = serde_json::from_str(&exp).expect("expected JSON");
        out.push((name, text, exp));
    }
    out
}

#[test]
fn pyyaml_goldens() {
    let cases = cases();
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for (name, text, exp) in &cases {
        if let Err(e) = check_case(name, text, exp) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} golden cases differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// No input derived from the cases (every prefix, byte-flipped variants) nor random
/// indicator soup may panic.
#[test]
fn no_panics_on_mutated_cases() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const SPECIAL: &[u8] = b"-?:,[]{}#&*!|>'\"%@` \t\n\r\\.~0123456789abcxyz=<";
    for (_, text, _) in cases().iter().filter(|(n, _, _)| !n.starts_with("fx-")) {
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            if let Ok(prefix) = std::str::from_utf8(&bytes[..cut]) {
                let _ = yaml::load(prefix);
            }
        }
        for _ in 0..20 {
            let mut b = bytes.to_vec();
            for _ in 0..3 {
                if !b.is_empty() {
                    let i = (next() as usize) % b.len();
                    b[i] = SPECIAL[(next() as usize) % SPECIAL.len()];
                }
            }
            if let Ok(s) = String::from_utf8(b) {
                let _ = yaml::load(&s);
                let _ = yaml::load_all(&s);
                let _ = yaml::load_with(&s, yaml::Loader::CSafe);
            }
        }
    }
    // random texts over YAML's indicator alphabet (AGENTRY_FUZZ=n for a longer run)
    let rounds: usize = std::env::var("AGENTRY_FUZZ").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    const ALPHABET: &[&str] = &[
        "-",
        "?",
        ":",
        ",",
        "[",
        "]",
        "{",
        "}",
        "#",
        "&a",
        "*a",
        "!",
        "!!str",
        "!!set",
        "!!omap",
        "!!binary",
        "|",
        ">",
        "'",
        "\"",
        "%YAML 1.1",
        "%TAG ! x",
        "@",
        "`",
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\\",
        "\\x",
        ".",
        "...",
        "---",
        "~",
        "0",
        "1:2",
        "0x",
        "1.0e+3",
        "2024-01-01",
        "yes",
        "<<",
        "=",
        "a",
        "é",
        "\u{feff}",
        "\u{85}",
        "\u{2028}",
    ];
    for _ in 0..rounds {
        let len = (next() % 40) as usize;
        let text: String = (0..len).map(|_| ALPHABET[(next() as usize) % ALPHABET.len()]).collect();
        let _ = yaml::load(&text);
        let _ = yaml::load_all(&text);
        let _ = yaml::load_with(&text, yaml::Loader::CSafe);
        if let Ok(Some(n)) = yaml::load(&text) {
            let _ = (py::repr(&n.value), py::str_of(&n.value), n.value.to_json());
        }
    }
}

/// Differential fuzzing against PyYAML (both loaders): documents and outcomes written by
/// `tests/goldens/pyyaml/dfuzz.py`; run with `AGENTRY_DFUZZ=<json> cargo test --release
/// --test pyyaml_goldens -- --ignored`. Compares Ok/Err, values, and (for the pure
/// loader) the error position.
#[test]
#[ignore]
fn differential_fuzz() {
    let Ok(path) = std::env::var("AGENTRY_DFUZZ") else { return };
    let cases: Vec<J> = serde_json::from_str(&fs::read_to_string(path).expect("dfuzz JSON")).expect("JSON");
    let mut failures = Vec::new();
    for c in &cases {
        let text = c["text"].as_str().unwrap_or_default();
        let py = &c["py"];
        let outcome = if py.get("error").is_some_and(|e| e["line"].is_null()) {
            // a non-YAML Python exception: only Ok/Err is compared
            yaml::load(text).err().map(|_| ()).ok_or("PyYAML fails, we load it".to_string())
        } else if py.get("error").is_some() {
            match yaml::load(text) {
                Ok(_) => Err("PyYAML fails, we load it".to_string()),
                Err(e) => check_error(&e, &py["error"]),
            }
        } else if py.get("recursive").is_some() {
            yaml::load(text).err().map(|_| ()).ok_or("recursive: should be refused".to_string())
        } else {
            match yaml::load(text) {
                Err(e) => Err(format!("PyYAML loads it, we fail: {e}")),
                Ok(got) => {
                    let positions = match (py.get("marks").filter(|m| !m.is_null()), &got) {
                        (Some(want), Some(n)) if &marks(n) != want => {
                            Some(format!("positions ours {} py {want}", marks(n)))
                        }
                        _ => None,
                    };
                    let value = got.map_or(Value::Null, |n| n.value);
                    let have = tagged(&value);
                    let text_ok = |key: &str, ours: String| {
                        py.get(key).and_then(J::as_str).is_none_or(|want| want == ours || has_set_or_tuple(&py["ok"]))
                    };
                    if let Some(p) = positions {
                        Err(p)
                    } else if have != py["ok"] {
                        Err(format!("value ours {have} py {}", py["ok"]))
                    } else if !text_ok("repr", py::repr(&value)) || !text_ok("str", py::str_of(&value)) {
                        Err(format!(
                            "repr/str ours {} / {} py {} / {}",
                            py::repr(&value),
                            py::str_of(&value),
                            py["repr"],
                            py["str"]
                        ))
                    } else {
                        Ok(())
                    }
                }
            }
        };
        if let Err(m) = outcome.and_then(|()| check_c(text, &c["c"])) {
            failures.push(format!("{text:?}: {m}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
