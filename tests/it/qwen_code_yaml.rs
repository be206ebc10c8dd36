//! Qwen Code's front-matter YAML, checked against the tool's own parser: each
//! input under `tests/goldens/qwen-code-yaml/inputs/` parsed by agentry must give
//! the JSON that Qwen Code 0.24.4's `parse` gave (`golden.mjs` wrote `outputs/`).

use std::path::Path;

#[test]
fn every_golden_parses_as_qwen_code_parses_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/qwen-code-yaml");
    let mut inputs: Vec<_> = std::fs::read_dir(dir.join("inputs")).unwrap().map(|e| e.unwrap().path()).collect();
    inputs.sort();
    assert!(inputs.len() >= 30, "the goldens are missing");
    let mut failures = Vec::new();
    for input in &inputs {
        let name = input.file_stem().unwrap().to_string_lossy().into_owned();
        // `readFile(path, "utf8")`: invalid bytes become U+FFFD.
        let text = String::from_utf8_lossy(&std::fs::read(input).unwrap()).into_owned();
        let expected: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("outputs").join(format!("{name}.json"))).unwrap()).unwrap();
        let got = agentry::frameworks::qwen_code::yaml::golden(&text);
        if !json_eq(&got, &expected) {
            failures.push(format!("{name}:\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}

/// JSON equality with numbers compared by value (`1` and `1.0` are one number in
/// JavaScript).
fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as Json;
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q)),
        (Json::Object(x), Json::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w))),
        _ => a == b,
    }
}

/// 1,500 random front matters (`random_inputs.py`) parse as Qwen Code's `parse`
/// parsed them (`random-outputs.json`, written by `golden.mjs`).
#[test]
fn random_front_matters_parse_as_qwen_code_parses_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/qwen-code-yaml");
    let read = |name: &str| -> serde_json::Value { serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap() };
    let (inputs, outputs) = (read("random-inputs.json"), read("random-outputs.json"));
    let (inputs, outputs) = (inputs.as_array().unwrap(), outputs.as_array().unwrap());
    assert_eq!(inputs.len(), outputs.len());
    let failures: Vec<String> = inputs
        .iter()
        .zip(outputs)
        .filter_map(|(input, expected)| {
            let got = agentry::frameworks::qwen_code::yaml::golden(input.as_str().unwrap());
            (!json_eq(&got, expected)).then(|| format!("{input}:\n  expected {expected}\n  got      {got}"))
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}
