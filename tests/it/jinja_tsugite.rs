//! agentry's tsugite template environment against real Jinja2: every case of
//! `tests/goldens/jinja2/tsugite/cases.json` (written by `gen.py` from tsugite's own
//! `AgentRenderer` under the oracle's fixed clock, cwd and environment) must render to
//! the same text, or fail where Jinja2 fails.

use std::collections::BTreeMap;
use std::path::Path;

use agentry::frameworks::tsugite::{render_template, World, EXPORT_CLOCK};
use serde_json::Value as Json;

fn world() -> World {
    World {
        now: EXPORT_CLOCK,
        micros: 0,
        env: BTreeMap::new(),
        cwd: "<project>".into(),
        base_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/jinja2/tsugite"),
    }
}

#[test]
fn templates_render_as_jinja2_renders_them() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/jinja2/tsugite/cases.json");
    let doc: Json =
        serde_json::from_slice(&std::fs::read(&path).expect("cases.json")).expect("json");
    let context = &doc["context"];
    let cases = doc["cases"].as_array().expect("cases");
    assert!(
        cases.len() > 100,
        "the golden set lost its fixture templates"
    );
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap_or("?");
        let template = case["template"].as_str().unwrap_or_default();
        let ours = render_template(template, context, &world());
        match (case.get("output").and_then(Json::as_str), ours) {
            (Some(want), Ok(got)) if want == got => {}
            (Some(want), Ok(got)) => {
                failures.push(format!("{name}: expected {want:?}\n      got {got:?}"))
            }
            (Some(want), Err(e)) => {
                failures.push(format!("{name}: expected {want:?}\n      failed: {e}"))
            }
            (None, Err(_)) => {}
            (None, Ok(got)) => failures.push(format!(
                "{name}: Jinja2 fails ({}) but agentry rendered {got:?}",
                case["error"].as_str().unwrap_or_default()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
