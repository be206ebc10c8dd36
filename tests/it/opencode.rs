//! OpenCode beyond the fixtures: a name merged from several sources shows, field by
//! field, which file set what (`show --origins`, `--json`); hostile files never crash
//! the reader and never hide a good agent next to them.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, EcosystemReport, Provenance, Roots, Status};

struct Workspace {
    root: PathBuf,
}

impl Workspace {
    fn new(name: &str) -> Workspace {
        let root = std::env::temp_dir().join(format!("agentry-opencode-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["project", "home/.config", "no-builtins"] {
            std::fs::create_dir_all(root.join(dir)).expect("temp dir");
        }
        Workspace { root }
    }

    fn write(&self, rel: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        path
    }

    fn load(&self) -> EcosystemReport {
        self.load_with(RenderMode::Export, BTreeMap::new())
    }

    fn load_with(&self, render: RenderMode, env: BTreeMap<String, String>) -> EcosystemReport {
        let opts = LoadOptions {
            roots: Roots::new(
                self.root.join("project"),
                self.root.join("home"),
                self.root.join("home/.config"),
                Some(self.root.join("no-builtins")),
            ),
            ecosystems: vec!["opencode".into()],
            render,
            env,
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::Held,
        };
        std::sync::Arc::unwrap_or_clone(load(&opts, &FileCache::new(), 1).reports.remove(0))
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A reviewer set in three places: global Markdown (model, temperature), project
/// JSON (steps, options), project Markdown (description, prompt).
fn three_sources(w: &Workspace) {
    w.write(
        "home/.config/opencode/agents/reviewer.md",
        "---\nmodel: anthropic/claude-sonnet-4-5\ntemperature: 0.3\noptions:\n  a: 1\n---\nGlobal prompt.\n",
    );
    w.write("project/opencode.json", "{\n  \"agent\": {\n    \"reviewer\": {\n      \"steps\": 7,\n      \"options\": {\"b\": 2}\n    }\n  }\n}\n");
    w.write("project/.opencode/agents/reviewer.md", "---\ndescription: Project reviewer\n---\nProject prompt.\n");
}

#[test]
fn merged_fields_name_the_file_and_line_that_set_them() {
    let w = Workspace::new("origins");
    three_sources(&w);
    let report = w.load();
    let winner = report.agents.iter().find(|a| a.name == "reviewer" && a.status == Status::Wins).expect("a winner");
    assert_eq!(
        &*winner.chain,
        ["project:.opencode/agents/reviewer.md", "xdg:opencode/agents/reviewer.md", "project:opencode.json#reviewer"]
    );
    let site = |key: &str| {
        let f = winner.field(key).unwrap_or_else(|| panic!("no field {key}"));
        let s = &f.origin.sites[0];
        (s.source.to_string(), s.line)
    };
    assert_eq!(site("model"), ("xdg:opencode/agents/reviewer.md".into(), Some(2)));
    assert_eq!(site("steps"), ("project:opencode.json#reviewer".into(), Some(4)));
    assert_eq!(site("description"), ("project:.opencode/agents/reviewer.md".into(), Some(2)));
    // `prompt` is set by both Markdown files: the later one wins and it says so.
    let prompt = winner.field("prompt").expect("prompt");
    assert_eq!(prompt.value.to_json(), "Project prompt.");
    assert_eq!(prompt.origin.provenance, Provenance::Merged);
    assert!(prompt.origin.rule.contains("later source wins per field"), "{}", prompt.origin.rule);
    // `options` is merged key by key: both contributors are named.
    let options = winner.field("options").expect("options");
    assert_eq!(options.value.to_json(), serde_json::json!({"a": 1, "b": 2}));
    let sources: Vec<&str> = options.origin.sites.iter().map(|s| &*s.source).collect();
    // Highest first, as the chain: the global Markdown folder is merged after the
    // project's opencode.json.
    assert_eq!(sources, ["xdg:opencode/agents/reviewer.md", "project:opencode.json#reviewer"]);
    let shadowed: Vec<_> = report.agents.iter().filter(|a| a.name == "reviewer" && a.status == Status::Shadowed).collect();
    assert_eq!(shadowed.len(), 2);
}

#[test]
fn show_origins_names_a_different_file_for_each_field() {
    let w = Workspace::new("show");
    three_sources(&w);
    let out = support::run_agentry(&w.root, "no-builtins", &["show", "reviewer", "--origins", "-e", "opencode"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let line_of = |key: &str| {
        text.lines()
            .find(|l| l.split_whitespace().nth(2) == Some(key))
            .unwrap_or_else(|| panic!("no row for {key} in\n{text}"))
            .to_string()
    };
    assert!(line_of("model").contains("xdg:opencode/agents/reviewer.md:2"), "{text}");
    assert!(line_of("steps").contains("project:opencode.json#reviewer:4"), "{text}");
    assert!(line_of("description").contains("project:.opencode/agents/reviewer.md:2"), "{text}");
    assert!(text.contains("chain: project:.opencode/agents/reviewer.md → xdg:opencode/agents/reviewer.md → project:opencode.json#reviewer"), "{text}");
}

fn skipped_at(report: &EcosystemReport, path: &Path) -> bool {
    report.diagnostics.iter().any(|d| d.kind == DiagKind::Skipped && d.path == path && d.line.is_some())
}

fn good_wins(report: &EcosystemReport) {
    let good = report.agents.iter().find(|a| a.name == "good").expect("the good agent is listed");
    assert_eq!(good.status, Status::Wins, "{}", good.rule);
    assert_eq!(good.system_prompt.as_ref().and_then(|p| p.as_held().map(str::to_string)).as_deref(), Some("I am good."));
}

#[test]
fn hostile_markdown_never_hides_the_good_agent() {
    let w = Workspace::new("hostile");
    let dir = "project/.opencode/agents";
    w.write(&format!("{dir}/good.md"), "---\ndescription: Good\n---\nI am good.\n");
    w.write(&format!("{dir}/binary.md"), [0u8, 159, 146, 150, 0xff, 0xfe, 0, 1, 2, 3]);
    w.write(&format!("{dir}/latin1.md"), b"---\ndescription: caf\xe9\n---\nB\xe9\n");
    w.write(&format!("{dir}/bom-crlf.md"), "\u{feff}---\r\ndescription: x\r\n---\r\nA\r\nB\r\n");
    w.write(&format!("{dir}/deep.md"), format!("---\na: {}{}\n---\nDeep.\n", "[".repeat(100_000), "]".repeat(100_000)));
    // Forty doublings of one alias: 2^40 leaves if aliases were copied.
    let laughs: String = (1..40).map(|i| format!("a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1)).collect();
    w.write(&format!("{dir}/aliases.md"), format!("---\na0: &a0 [x]\n{laughs}---\nLaughs.\n"));
    // OpenCode's fallback rewrites the colon line and still fails: dropped silently.
    let lost = w.write(&format!("{dir}/lost.md"), "---\ndescription: a: b\nmodel: [oops\n---\nLost.\n");
    // A mode file with a wrong type is dropped silently too.
    let bad_mode = w.write("project/.opencode/modes/hot.md", "---\ntemperature: hot\n---\nHot.\n");
    #[cfg(unix)]
    {
        let agents = w.root.join(dir);
        std::os::unix::fs::symlink(&agents, agents.join("loop")).expect("symlink");
        std::os::unix::fs::symlink(agents.join("self.md"), agents.join("self.md")).expect("symlink");
        std::os::unix::fs::symlink(agents.join("missing.md"), agents.join("dangling.md")).expect("symlink");
    }
    let report = w.load();
    good_wins(&report);
    assert!(skipped_at(&report, &lost), "{:?}", report.diagnostics);
    assert!(skipped_at(&report, &bad_mode), "{:?}", report.diagnostics);
    #[cfg(unix)]
    {
        let agents = w.root.join(dir);
        assert!(skipped_at(&report, &agents.join("self.md")), "{:?}", report.diagnostics);
        assert!(skipped_at(&report, &agents.join("dangling.md")), "{:?}", report.diagnostics);
        // The loop is not followed forever: the good agent is read once, not again below `loop/`.
        assert!(!report.agents.iter().any(|a| a.name.starts_with("loop/loop/")));
    }
    // Files OpenCode loads are agents, not errors (no false alarms).
    for name in ["binary", "latin1", "bom-crlf", "deep", "aliases"] {
        assert!(report.agents.iter().any(|a| a.name == name && a.status == Status::Wins), "{name}");
    }
    let deep = report.agents.iter().find(|a| a.name == "deep").expect("deep");
    assert!(deep.field("prompt").is_some_and(|p| p.value.to_json().as_str().is_some_and(|s| s.starts_with("---"))));
    assert!(!report.diagnostics.iter().any(|d| d.fatal), "{:?}", report.diagnostics);
}

#[test]
fn huge_file_is_skipped_with_its_reason() {
    let w = Workspace::new("huge");
    w.write("project/.opencode/agents/good.md", "I am good.\n");
    let huge = w.write("project/.opencode/agents/huge.md", vec![b'x'; (agentry::discover::MAX_FILE_BYTES + 1) as usize]);
    let report = w.load();
    good_wins(&report);
    assert!(skipped_at(&report, &huge), "{:?}", report.diagnostics);
}

#[test]
fn a_broken_config_is_fatal_with_file_and_line_and_still_shows_each_file() {
    let w = Workspace::new("fatal");
    w.write("project/.opencode/agents/good.md", "I am good.\n");
    let config = w.write("project/opencode.json", "{\n  \"agent\": {\n    \"x\": {\"description\": \"x\",, }\n  }\n}\n");
    let report = w.load();
    let fatal: Vec<_> = report.diagnostics.iter().filter(|d| d.fatal).collect();
    assert_eq!(fatal.len(), 1, "{:?}", report.diagnostics);
    assert_eq!((fatal[0].path.as_path(), fatal[0].kind, fatal[0].line), (config.as_path(), DiagKind::Parse, Some(3)));
    // OpenCode shows nothing (the report's refusal, and the resolution report has no
    // agent); agentry keeps the definition with the status it has once that is fixed.
    assert_eq!(report.refusal(), Some(fatal[0]));
    let good = report.agents.iter().find(|a| a.name == "good").expect("still shown");
    assert_eq!(good.status, Status::Wins);
    assert_eq!(good.rule, "the only definition of this name");
    assert_eq!(agentry::export::report(&report)["agents"], serde_json::json!([]));
    let wrong = Workspace::new("fatal-type");
    wrong.write("project/.opencode/agents/good.md", "I am good.\n");
    let hot = wrong.write("project/.opencode/agents/hot.md", "---\ndescription: Hot\ntemperature: hot\n---\nHot.\n");
    let report = wrong.load();
    let d = report.diagnostics.iter().find(|d| d.fatal).expect("fatal");
    assert_eq!((d.path.as_path(), d.kind, d.line), (hot.as_path(), DiagKind::Validation, Some(3)));
}

/// `OPENCODE_CONFIG` (after the global JSON), `OPENCODE_CONFIG_DIR` (the last config
/// folder) and `OPENCODE_DISABLE_PROJECT_CONFIG` count in a live run; the resolution
/// report is made without them, as the oracle runs OpenCode.
#[test]
fn opencode_config_variables_count_in_a_live_run_only() {
    let w = Workspace::new("env");
    let config = w.write("home/custom/extra.json", "{\"agent\": {\"extra\": {\"description\": \"from OPENCODE_CONFIG\"}}}\n");
    w.write("home/dir/agents/dirred.md", "From OPENCODE_CONFIG_DIR.\n");
    w.write("project/.opencode/agents/local.md", "Project agent.\n");
    let env = BTreeMap::from([
        ("OPENCODE_CONFIG".to_string(), config.display().to_string()),
        ("OPENCODE_CONFIG_DIR".to_string(), w.root.join("home/dir").display().to_string()),
    ]);
    let names = |r: &EcosystemReport| -> Vec<String> {
        let mut n: Vec<String> = r.agents.iter().filter(|a| !a.source.is_compiled_in()).map(|a| a.name.clone()).collect();
        n.sort();
        n
    };
    let live = RenderMode::Live { user_prompt: String::new() };
    assert_eq!(names(&w.load_with(live.clone(), env.clone())), ["dirred", "extra", "local"]);
    assert_eq!(names(&w.load_with(RenderMode::Export, env.clone())), ["local"]);
    let mut disabled = env;
    disabled.insert("OPENCODE_DISABLE_PROJECT_CONFIG".into(), "1".into());
    assert_eq!(names(&w.load_with(live, disabled)), ["dirred", "extra"]);
}
