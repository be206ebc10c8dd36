//! Shared by the integration tests: running agentry's export over a fixture case,
//! comparing two resolution reports under the rules of the shared `compare.py`, and
//! ([`pty`]) driving the explorer in a pseudo-terminal.
#![allow(dead_code)]

pub mod pty;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::Roots;
use serde_json::Value as Json;

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// An empty folder standing in for "no built-in agents", as the oracles use one.
/// One folder under cargo's scratch space for every test process: it is never
/// written to, so sharing it is safe, and no run leaves a folder of its own behind.
pub fn empty_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-builtins");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A folder of a test's own, removed when the test ends (passing or failing).
pub struct Scratch(PathBuf);

impl Scratch {
    /// An empty folder for `tag`, unique to this process.
    pub fn new(tag: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("agentry-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("scratch dir");
        Scratch(root)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The roots of a case folder, as `run.sh` passes them: `inputs.json` sets the
/// working folder and trust, and folders list in name order.
pub fn case_roots(case: &Path) -> Roots {
    let xdg = case.join("xdg");
    let builtin = case.join("builtin");
    let mut roots = Roots::new(
        case.join("project"),
        case.join("home"),
        if xdg.is_dir() { xdg } else { case.join("home/.config") },
        Some(if builtin.is_dir() { builtin } else { empty_dir() }),
    );
    roots.listing = agentry::model::ListingOrder::Name;
    if let Ok(text) = std::fs::read_to_string(case.join("inputs.json")) {
        let inputs: Json = serde_json::from_str(&text).expect("inputs.json");
        if let Some(cwd) = inputs["cwd"].as_str() {
            roots.cwd = agentry::model::normalize(&roots.project.join(cwd));
        }
        roots.trusted = inputs["trusted"].as_bool().unwrap_or(true);
    }
    roots
}

/// `agentry export --ecosystem E` over a case, as JSON.
pub fn export_case(ecosystem: &str, case: &Path) -> Json {
    let opts = LoadOptions {
        roots: case_roots(case),
        ecosystems: vec![ecosystem.to_string()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    let catalog = load(&opts, &FileCache::new(), 1);
    agentry::export::report(&catalog.reports[0])
}

fn short(v: &Json) -> String {
    let s = v.to_string();
    if s.chars().count() <= 160 {
        s
    } else {
        s.chars().take(157).collect::<String>() + "..."
    }
}

fn keyed<'a>(entries: &'a Json) -> BTreeMap<(String, String), &'a Json> {
    let mut out = BTreeMap::new();
    for a in entries.as_array().into_iter().flatten() {
        let key = (a["name"].as_str().unwrap_or_default().to_string(), a["source"].as_str().unwrap_or_default().to_string());
        out.insert(key, a);
    }
    out
}

fn order(entries: &Json) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for a in entries.as_array().into_iter().flatten() {
        let name = a["name"].as_str().unwrap_or_default().to_string();
        out.entry(name).or_default().push(a["source"].as_str().unwrap_or_default().to_string());
    }
    out
}

/// Entries of one kind (`agents` or `skills`) keyed by (name, source), as
/// `compare.py`'s `compare_entries`.
fn compare_entries(kind: &str, expected: &Json, actual: &Json, keys: &[&str], problems: &mut Vec<String>) {
    let (exp, act) = (keyed(expected), keyed(actual));
    for key in exp.keys().filter(|k| !act.contains_key(*k)) {
        problems.push(format!("{kind} {} @ {}: missing", key.0, key.1));
    }
    for key in act.keys().filter(|k| !exp.contains_key(*k)) {
        problems.push(format!("{kind} {} @ {}: not expected", key.0, key.1));
    }
    for (key, e) in &exp {
        let Some(a) = act.get(key) else { continue };
        let at = format!("{kind} {} @ {}", key.0, key.1);
        for k in keys {
            if e.get(k).is_some() && e.get(k) != a.get(k) {
                problems.push(format!("{at}: {k}: expected {}, got {}", short(&e[k]), short(&a[k])));
            }
        }
        let Some(ef) = e.get("fields") else { continue };
        let empty = serde_json::Map::new();
        let ef = ef.as_object().unwrap_or(&empty);
        match a["fields"].as_object() {
            None => problems.push(format!("{at}: fields: expected an object, got {}", short(&a["fields"]))),
            Some(af) => {
                for (k, v) in ef {
                    match af.get(k) {
                        None => problems.push(format!("{at}: fields.{k}: missing (expected {})", short(v))),
                        Some(got) if !json_eq(got, v) => {
                            problems.push(format!("{at}: fields.{k}: expected {}, got {}", short(v), short(got)))
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    let (eo, ao) = (order(expected), order(actual));
    for (name, e) in &eo {
        if let Some(a) = ao.get(name) {
            let (es, as_): (BTreeSet<_>, BTreeSet<_>) = (e.iter().collect(), a.iter().collect());
            if es == as_ && e != a {
                problems.push(format!("order of {kind} {name}: expected {e:?}, got {a:?}"));
            }
        }
    }
}

/// The differences between an expected and an actual report (`compare.py`).
pub fn compare(expected: &Json, actual: &Json) -> Vec<String> {
    let mut problems = Vec::new();
    if expected["ecosystem"] != actual["ecosystem"] {
        problems.push(format!("ecosystem: expected {}, got {}", expected["ecosystem"], actual["ecosystem"]));
    }
    compare_entries("agent", &expected["agents"], &actual["agents"], &["status", "shadowed_by", "chain", "system_prompt", "listed"], &mut problems);
    if let Some(listing) = expected.get("agent_listing") {
        if Some(listing) != actual.get("agent_listing") {
            problems.push(format!("agent_listing: expected {}, got {}", short(listing), short(&actual["agent_listing"])));
        }
    }
    let skills = expected.get("skills").is_some();
    if skills {
        compare_entries("skill", &expected["skills"], &actual["skills"], &["status", "shadowed_by", "listed", "body"], &mut problems);
    }
    // An error about a skill file counts only where skills were asked for.
    let errors = |doc: &Json, all: bool| -> BTreeSet<(String, String)> {
        doc["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| all || e["object"].as_str() != Some("skill"))
            .map(|e| (e["source"].as_str().unwrap_or_default().to_string(), e["kind"].as_str().unwrap_or_default().to_string()))
            .collect()
    };
    let (ee, ae) = (errors(expected, true), errors(actual, skills));
    // `fatal` where the expected error says it.
    for x in expected["errors"].as_array().into_iter().flatten() {
        let Some(fatal) = x.get("fatal") else { continue };
        let same = |a: &&Json| a["source"] == x["source"] && a["kind"] == x["kind"];
        if let Some(a) = actual["errors"].as_array().into_iter().flatten().find(same) {
            let got = a.get("fatal").and_then(Json::as_bool).unwrap_or(false);
            if got != fatal.as_bool().unwrap_or(false) {
                problems.push(format!("error {} @ {}: fatal: expected {fatal}, got {got}", x["kind"], x["source"]));
            }
        }
    }
    for (s, k) in ee.difference(&ae) {
        problems.push(format!("error {k} @ {s}: not reported"));
    }
    for (s, k) in ae.difference(&ee) {
        problems.push(format!("error {k} @ {s}: reported but not expected"));
    }
    problems
}

/// An oracle's report. Python's `json.dumps` writes a non-finite float as a bare
/// `NaN`/`Infinity`/`-Infinity`, which serde_json rejects: outside strings they are read
/// as the strings agentry's valid-JSON report spells them with.
fn read_oracle_json(path: &Path) -> Json {
    let text = String::from_utf8(std::fs::read(path).expect("expected.json")).expect("UTF-8");
    let out = agentry::export::with_constants_quoted(&text);
    serde_json::from_str(&out).expect("json")
}

/// Python's `==` on decoded JSON: `1 == 1.0`, objects compare without order.
fn json_eq(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64() && (x.is_f64() || y.is_f64() || x == y),
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q)),
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Fixture folders that are dialects of a framework, run by their own tests.
const DIALECTS: [&str; 1] = ["agentcard-rfc"];


/// The frameworks with fixture cases under `tests/fixtures/`, in name order: the one
/// list the conformance, read-only, bad-input and other per-framework tests iterate.
pub fn fixture_frameworks() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|id| !DIALECTS.contains(&id.as_str()))
        .collect();
    out.sort();
    out
}

/// Every registered framework's id (the one list of `agentry::frameworks::all`).
pub fn framework_ids() -> Vec<&'static str> {
    agentry::frameworks::all().iter().map(|f| f.id()).collect()
}

/// Runs every case of one framework; returns the failures, one text per case.
pub fn run_framework(ecosystem: &str) -> (usize, Vec<String>) {
    let dir = fixtures().join(ecosystem);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("no fixtures for {ecosystem} at {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    cases.sort();
    let mut failures = Vec::new();
    for case in &cases {
        let expected = read_oracle_json(&case.join("expected.json"));
        let actual = export_case(ecosystem, case);
        let problems = compare(&expected, &actual);
        if !problems.is_empty() {
            let name = case.file_name().unwrap_or_default().to_string_lossy();
            failures.push(format!("FAIL {ecosystem}/{name}\n    {}", problems.join("\n    ")));
        }
    }
    (cases.len(), failures)
}

/// Runs the real binary on a workspace folder holding `project/` and `home/`, with
/// `ROOT/BUILTINS` standing in for the built-in agents and colour off.
pub fn run_agentry(root: &Path, builtins: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_agentry"))
        .args(args)
        .arg("--project")
        .arg(root.join("project"))
        .arg("--home")
        .arg(root.join("home"))
        .arg("--builtins")
        .arg(root.join(builtins))
        .env("NO_COLOR", "1")
        .output()
        .expect("run agentry")
}
