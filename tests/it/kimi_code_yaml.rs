//! Kimi Code's front matter YAML, proved against the tool's own parser: every input
//! under `tests/goldens/kimi-code-yaml/cases/` is loaded by agentry's js-yaml
//! emulation and compared with what the js-yaml 4.1.1 bundled in Kimi Code 2.1.0
//! gave for it (`make_goldens.mjs` wrote the `.json` next to each input); and every
//! whole agent file under `tests/goldens/kimi-code-files/cases/` is parsed as the
//! tool's own `parseAgentFileText` parsed it (fields, prompt, or the error message).

use std::path::Path;

use agentry::frameworks::kimi_code::agent_file::{self, shown_json};
use agentry::jsyaml::{load, Version};
use serde_json::Value as Json;

fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Json::Object(x), Json::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

/// Inputs where agentry is known to read otherwise, and why.
const KNOWN: [(&str, &str); 1] = [(
    "long_key.yaml",
    "an implicit key longer than 1024 characters: yaml-rust follows the YAML spec's limit, js-yaml has none",
)];

#[test]
fn js_yaml_emulation_agrees_with_kimi_codes_own_parser() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/kimi-code-yaml/cases");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir).expect("cases").filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "yaml")).collect();
    inputs.sort();
    assert!(inputs.len() >= 30, "the goldens are missing");
    let mut failures = Vec::new();
    for input in &inputs {
        let text = String::from_utf8_lossy(&std::fs::read(input).expect("input")).into_owned();
        let golden: Json = serde_json::from_slice(&std::fs::read(input.with_extension("json")).expect("golden")).expect("json");
        let name = input.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if KNOWN.iter().any(|(k, _)| *k == name) {
            // Still must not panic; and must still differ, or the entry is stale.
            let got = load(&text, Version::V4).ok().map(|v| shown_json(&v));
            assert!(got.as_ref() != golden.get("value"), "{name} now agrees: drop it from KNOWN");
            continue;
        }
        match (load(&text, Version::V4), golden.get("error")) {
            (Ok(value), None) => {
                if !same(&shown_json(&value), &golden["value"]) {
                    failures.push(format!("{name}: got {}, js-yaml gave {}", shown_json(&value), golden["value"]));
                }
            }
            (Ok(value), Some(e)) => failures.push(format!("{name}: loaded {} where js-yaml fails with {e}", shown_json(&value))),
            (Err(e), None) => failures.push(format!("{name}: fails ({}) where js-yaml gives {}", e.message, golden["value"])),
            (Err(e), Some(_)) => {
                if let Some(line) = golden["line"].as_u64() {
                    if e.line() != Some(line as u32) {
                        failures.push(format!("{name}: error on line {:?}, js-yaml says {line} ({})", e.line(), e.message));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}

#[test]
fn agent_files_parse_as_kimi_codes_own_parse_agent_file_text() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/kimi-code-files/cases");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir).expect("cases").filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    inputs.sort();
    assert!(inputs.len() >= 30, "the goldens are missing");
    let mut failures = Vec::new();
    for input in &inputs {
        let name = input.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let text = String::from_utf8_lossy(&std::fs::read(input).expect("input")).into_owned();
        // The goldens decoded the file with TextDecoder, which drops one leading BOM.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let golden: Json = serde_json::from_slice(&std::fs::read(input.with_extension("json")).expect("golden")).expect("json");
        let got = match agent_file::parse(text, &format!("/agents/{name}"), &name) {
            Ok(d) => serde_json::json!({"definition": {
                "name": d.name, "description": d.description, "whenToUse": d.when_to_use, "override": d.override_builtin,
                "tools": d.tools, "disallowedTools": d.disallowed_tools, "subagents": d.subagents, "prompt": d.prompt,
            }}),
            Err(f) => serde_json::json!({"error": f.message}),
        };
        // js-yaml's messages carry a code excerpt that agentry does not rebuild: an
        // error is compared up to the reason.
        let agree = match (got.get("error"), golden.get("error")) {
            (Some(Json::String(a)), Some(Json::String(b))) => b.starts_with(a.split(" (").next().unwrap_or(a)) || a == b,
            _ => got == golden,
        };
        if !agree {
            failures.push(format!("{name}: got {got}, Kimi Code gave {golden}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}
