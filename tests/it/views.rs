//! The cross-tool views (`why`, `check`, `file`) over toy frameworks that read one
//! folder two ways (a name from front matter, a name from the file's path), next to
//! the real OpenHands reader, and `check --format sarif` against the SARIF schema.

use crate::support;

use std::path::{Path, PathBuf};

use agentry::frameworks::{openhands::OpenHands, Framework, LoadContext, RenderMode};
use agentry::load::{load_with, LoadOptions};
use agentry::model::{Agent, DiagKind, Diagnostic, EcosystemReport, Place, Reach, Roots, Scope, Source, Status, TextForm};
use agentry::views;

/// Names agents from a `name:` front matter line only; a file without front matter
/// (a BOM before `---`) or without `name` is skipped, CRLF with `": "` is a parse error.
struct ByFrontMatter;
/// Names agents from the file's path (its stem), whatever the front matter says.
struct ByPath;

fn scan(cx: &LoadContext, id: &'static str, dirs: &[PathBuf], by_path: bool) -> EcosystemReport {
    let mut report = EcosystemReport::new(id);
    for dir in dirs {
        let Ok(Some(entries)) = cx.files.list_dir(dir) else { continue };
        for e in entries.iter().filter(|e| e.is_file && e.path.extension().is_some_and(|x| x == "md")) {
            let source = Source::new(Scope::Project, &cx.roots.project, e.path.to_path_buf());
            let bytes = cx.files.read(&e.path, agentry::discover::Hold::Kept).map(|b| b.to_vec()).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes);
            let name = if by_path {
                Some(e.path.file_stem().unwrap().to_string_lossy().into_owned())
            } else if !text.starts_with("---") {
                report.diagnostics.push(Diagnostic::skipped(id, &*e.path, "no front matter").failing(source.key()));
                continue;
            } else if text.contains("\r\n") && text.lines().any(|l| l.matches(": ").count() > 1) {
                report.diagnostics.push(
                    Diagnostic::error(id, DiagKind::Parse, &*e.path, "cannot parse the front matter")
                        .at(Some(3), Some(20))
                        .failing(source.key()),
                );
                continue;
            } else {
                text.lines().find_map(|l| l.strip_prefix("name: ")).map(|n| n.trim().to_string())
            };
            let Some(name) = name else {
                report
                    .diagnostics
                    .push(Diagnostic::skipped(id, &*e.path, "no `name` in the front matter").failing(source.key()));
                continue;
            };
            if !cx.roots.trusted {
                report.agents.push(Agent::new(id, name, source, Status::Held, "the project is not trusted".into()));
                continue;
            }
            let shadowed =
                report.agents.iter().find(|a| a.name == name && a.status == Status::Wins).map(|a| a.source.key());
            let mut agent = Agent::new(
                id,
                name,
                source,
                if shadowed.is_some() { Status::Shadowed } else { Status::Wins },
                "first in folder order".into(),
            );
            agent.shadowed_by = shadowed;
            report.agents.push(agent);
        }
    }
    report
}

fn places(roots: &Roots, dirs: &[&str]) -> Vec<Place> {
    dirs.iter()
        .enumerate()
        .map(|(i, d)| Place::agents(i, Scope::Project, &roots.project, roots.project.join(d), Reach::top(&[".md"]), format!("project {d}")))
        .collect()
}

impl Framework for ByFrontMatter {
    fn id(&self) -> &'static str {
        "toy-front"
    }
    fn title(&self) -> &'static str {
        "Toy by front matter"
    }
    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let places = places(cx.roots, &[".claude/agents", ".gemini/agents"]);
        let dirs: Vec<PathBuf> = places.iter().map(|l| l.dir.clone()).collect();
        let mut report = scan(cx, self.id(), &dirs, false);
        report.places = places;
        report
    }
}

impl Framework for ByPath {
    fn id(&self) -> &'static str {
        "toy-path"
    }
    fn title(&self) -> &'static str {
        "Toy by path"
    }
    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let places = places(cx.roots, &[".github/agents", ".claude/agents"]);
        let dirs: Vec<PathBuf> = places.iter().map(|l| l.dir.clone()).collect();
        let mut report = scan(cx, self.id(), &dirs, true);
        report.places = places;
        report
    }
}

const FRAMEWORKS: [&dyn Framework; 3] = [&ByFrontMatter, &ByPath, &OpenHands];

fn workspace(tag: &str, files: &[(&str, &[u8])]) -> support::Scratch {
    let root = support::Scratch::new(&format!("views-{tag}"));
    for (path, bytes) in files {
        let p = root.join("project").join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    std::fs::create_dir_all(root.join("home")).unwrap();
    std::fs::create_dir_all(root.join("builtins")).unwrap();
    root
}

fn catalog(root: &Path) -> agentry::model::Catalog {
    catalog_trusted(root, true)
}

fn catalog_trusted(root: &Path, trusted: bool) -> agentry::model::Catalog {
    let mut roots =
        Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(root.join("builtins")));
    roots.trusted = trusted;
    let opts = LoadOptions {
        roots,
        ecosystems: Vec::new(),
        render: RenderMode::Export,
        env: Default::default(),
        options: Default::default(),
        texts: TextForm::Held,
    };
    load_with(&FRAMEWORKS, &opts, &agentry::discover::FileCache::for_one_load(), 1)
}

const GHOSTS: &[(&str, &[u8])] = &[
    (".claude/agents/ghost.md", b"---\ndescription: no name\n---\nBoo\n"),
    (".claude/agents/haunt.md", b"---\r\nname: ghost\r\ndescription: Haunts: the halls\r\n---\r\nBoo\r\n"),
    (".gemini/agents/ghost.md", b"\xEF\xBB\xBF---\nname: ghost\ndescription: x\n---\nBoo\n"),
    (".openhands/agents/sub/ghost.md", b"---\nname: ghost\ndescription: x\n---\nBoo\n"),
    (".openhands/agents/Ghost.md", b"---\ndescription: x\n---\nBoo\n"),
];

#[test]
fn why_names_every_near_miss_per_framework_and_the_winner_elsewhere() {
    let root = workspace("why", GHOSTS);
    let cat = catalog(&root);
    let report = views::why::why(&cat, &FRAMEWORKS, "ghost");
    let json = serde_json::to_value(&report).unwrap();
    // The path-named toy loads `.claude/agents/ghost.md` as ghost: the name is active.
    assert!(report.active, "{json:#}");
    let by = |id: &str| report.frameworks.iter().find(|f| f.tool == id).unwrap();
    assert!(by("toy-path").active && by("toy-path").near_misses.is_empty());

    let front = by("toy-front");
    assert!(!front.active);
    let miss = |suffix: &str| {
        front.near_misses.iter().find(|m| m.path.ends_with(suffix)).unwrap_or_else(|| panic!("{suffix}: {json:#}"))
    };
    assert_eq!(miss(".claude/agents/ghost.md").kind, "skipped");
    assert!(miss(".claude/agents/ghost.md").reason.contains("no `name`"));
    let haunt = miss(".claude/agents/haunt.md");
    assert_eq!(haunt.kind, "invalid");
    let kinds: Vec<_> = haunt.causes.iter().map(|c| (c.kind, c.line, c.col)).collect();
    assert_eq!(kinds, vec![("crlf", 1, 4), ("unquoted-colon", 3, 20)]);
    let bom = miss(".gemini/agents/ghost.md");
    assert_eq!((bom.kind, bom.causes[0].kind, bom.causes[0].line, bom.causes[0].col), ("skipped", "bom", 1, 1));

    let oh = by("openhands");
    assert!(!oh.active);
    let sub = oh.near_misses.iter().find(|m| m.path.ends_with(".openhands/agents/sub/ghost.md")).expect("sub/ghost.md");
    assert_eq!(sub.kind, "unscanned");
    assert!(sub.reason.contains("only the top level is read"), "{}", sub.reason);
    assert!(oh.similar.iter().any(|s| s.name == "Ghost" && s.difference == "case"), "{json:#}");
    let lines = views::why::lines(&report, &cat.roots);
    assert!(lines.iter().any(|l| l.trim() == "how OpenHands finds an agent: by exact name (case-sensitive)"), "{lines:#?}");
    // The OpenHands file is not a misplaced file for the toys: they do not read it.
    assert!(!front.near_misses.iter().any(|m| m.path.to_string_lossy().contains(".openhands")));
}

#[test]
fn why_is_active_nowhere_when_every_definition_fails() {
    let root = workspace("why-none", &GHOSTS[1..]);
    let cat = catalog(&root);
    let report = views::why::why(&cat, &FRAMEWORKS, "ghost");
    assert!(!report.active);
    // The path-named toy reads haunt.md as `haunt`, nothing near ghost: no near miss.
    let path = report.frameworks.iter().find(|f| f.tool == "toy-path").unwrap();
    assert!(path.near_misses.is_empty() && path.similar.is_empty(), "{:?}", path.near_misses);
    let nobody = views::why::why(&cat, &FRAMEWORKS, "zzzz-nothing");
    assert!(!nobody.active && nobody.frameworks.iter().all(|f| f.near_misses.is_empty()));
}

#[test]
fn file_shows_each_reading_of_one_file_and_where_unscanned_files_would_be_read() {
    let root = workspace(
        "file",
        &[
            (".claude/agents/reviewer.md", b"---\nname: code-reviewer\ndescription: x\n---\nBody\n"),
            (".github/agents/reviewer.md", b"---\nname: reviewer\ndescription: x\n---\nBody\n"),
        ],
    );
    let cat = catalog(&root);
    let path = root.join("project/.claude/agents/reviewer.md");
    let report = views::file::file(&cat, &FRAMEWORKS, &path);
    let names: Vec<_> = report
        .readings
        .iter()
        .map(|r| (r.tool, r.definitions[0].name.as_str(), r.definitions[0].status))
        .collect();
    assert_eq!(names, vec![("toy-front", "code-reviewer", Status::Wins), ("toy-path", "reviewer", Status::Shadowed)]);
    let ladder = &report.readings[1].definitions[0].ladder;
    assert!(ladder[0].source.ends_with(".github/agents/reviewer.md") && ladder[1].this, "{ladder:?}");

    // A file reached through a symlink in a scanned folder is that file's reading.
    std::fs::create_dir_all(root.join("project/shared")).unwrap();
    std::fs::write(root.join("project/shared/linked.md"), "---\nname: linked\ndescription: x\n---\nB\n").unwrap();
    std::os::unix::fs::symlink("../../shared/linked.md", root.join("project/.claude/agents/linked.md")).unwrap();
    let cat = catalog(&root);
    let linked = views::file::file(&cat, &FRAMEWORKS, &root.join("project/shared/linked.md"));
    let ids: Vec<_> = linked.readings.iter().map(|r| (r.tool, r.definitions.len())).collect();
    assert_eq!(ids, vec![("toy-front", 1), ("toy-path", 1)]);
    assert_eq!(linked.readings[0].location, "through .claude/agents/linked.md in project .claude/agents");

    let stray = views::file::file(&cat, &FRAMEWORKS, &root.join("project/docs/reviewer.md"));
    assert!(stray.readings.is_empty());
    let ids: Vec<_> = stray.would_read.iter().map(|w| w.tool).collect();
    assert!(ids.contains(&"toy-front") && ids.contains(&"toy-path") && ids.contains(&"openhands"), "{ids:?}");
}

fn validate_sarif(doc: &serde_json::Value) {
    let schema: serde_json::Value = serde_json::from_str(include_str!("../schemas/sarif-2.1.0-rtm.5.json")).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("sarif.json", schema).unwrap();
    let index = compiler.compile("sarif.json", &mut schemas).unwrap();
    if let Err(e) = schemas.validate(doc, index) {
        panic!("SARIF invalid: {e:#}\n{doc:#}");
    }
}

#[test]
fn check_findings_gate_and_sarif_is_valid() {
    let root = workspace("check", GHOSTS);
    let cat = catalog(&root);
    let mut findings = views::check::findings(&cat);
    // haunt.md's parse error fails the run; the skipped files do not, until asked.
    assert!(views::check::gate(&mut findings, &[], None));
    let failing: Vec<_> = findings.iter().filter(|f| f.fails).map(|f| f.class.as_str()).collect();
    assert_eq!(failing, vec!["error"]);
    views::check::gate(&mut findings, &["skipped".parse().unwrap()], None);
    assert_eq!(findings.iter().filter(|f| f.fails).count(), 3, "{findings:#?}");
    let sarif = views::check::sarif(&findings, &cat.roots, true);
    validate_sarif(&sarif);
    assert_eq!(sarif["version"], "2.1.0");
    assert!(sarif["runs"][0]["results"].as_array().unwrap().iter().all(|r| r["ruleId"].is_string()));
}

fn agentry(root: &Path, args: &[&str]) -> (i32, String) {
    let out = support::run_agentry(root, "builtins", args);
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn check_formats_fail_on_and_baseline_through_the_binary() {
    let root = workspace(
        "check-cli",
        &[
            (".agents/agents/reviewer.md", b"---\nname: reviewer\ndescription: new\n---\nA\n"),
            (".openhands/agents/reviewer.md", b"---\nname: reviewer\ndescription: old\n---\nB\n"),
        ],
    );
    assert_eq!(agentry(&root, &["check"]).0, 0);
    let (code, out) = agentry(&root, &["check", "--fail-on", "shadowed"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(": shadowed: openhands: `reviewer`"), "{out}");
    let (code, json) = agentry(&root, &["check", "--format", "json"]);
    assert_eq!(code, 0);
    let baseline = root.join("baseline.json");
    std::fs::write(&baseline, &json).unwrap();
    let base = baseline.to_str().unwrap();
    assert_eq!(agentry(&root, &["check", "--fail-on", "new-shadow", "--baseline", base]).0, 0);
    assert_eq!(agentry(&root, &["check", "--fail-on", "new-shadow"]).0, 2);
    // A new shadow since the baseline fails the run.
    std::fs::create_dir_all(root.join("home/.agents/agents")).unwrap();
    std::fs::write(root.join("home/.agents/agents/reviewer.md"), "---\nname: reviewer\ndescription: user\n---\nC\n")
        .unwrap();
    assert_eq!(agentry(&root, &["check", "--fail-on", "new-shadow", "--baseline", base]).0, 1);

    // A broken file: an error, an annotation, a SARIF result with its line.
    std::fs::write(root.join("project/.agents/agents/broken.md"), "---\nname: broken\ntools: [unclosed\n---\nx\n")
        .unwrap();
    let (code, out) = agentry(&root, &["check", "--format", "github"]);
    assert_eq!(code, 1);
    let annotation = out.lines().find(|l| l.contains("broken.md") && l.contains("(openhands)")).expect("annotation");
    assert!(
        annotation.starts_with("::error file=")
            && annotation.contains(",line=4")
            && annotation.contains("title=agentry parse (openhands)::"),
        "{annotation}"
    );
    let (code, out) = agentry(&root, &["check", "--format", "sarif"]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    validate_sarif(&doc);
    let result = doc["runs"][0]["results"].as_array().unwrap().iter().find(|r| r["ruleId"] == "parse-error").unwrap();
    assert_eq!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], ".agents/agents/broken.md");
    assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 4);
}

#[test]
fn why_and_file_through_the_binary() {
    let root = workspace(
        "why-cli",
        &[
            (".openhands/agents/sub/ghost.md", b"---\nname: ghost\ndescription: x\n---\nB\n"),
            (".agents/agents/haunt.md", b"---\r\nname: ghost\r\ndescription: Haunts: the halls\r\n---\r\nB\r\n"),
        ],
    );
    let (code, out) = agentry(&root, &["why", "ghost"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("ghost is not active in openhands (OpenHands):"), "{out}");
    assert!(out.contains("only the top level is read"), "{out}");
    assert!(
        out.contains("   3 | description: Haunts: the halls") && out.contains("     |                    ^"),
        "{out}"
    );
    let (code, out) = agentry(&root, &["why", "ghost", "--json"]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["active"], false);
    let (code, out) =
        agentry(&root, &["file", &root.join("project/.agents/agents/haunt.md").to_string_lossy(), "--json"]);
    assert_eq!(code, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["file"]["readings"][0]["tool"], "openhands");
}

/// The pre-commit hook's `entry`, run as pre-commit runs it (no file names), with the
/// built binary standing in for the one the npm package (`language: node`) installs.
#[test]
fn the_pre_commit_hook_entry_gates_a_broken_definition() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let hooks: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(manifest.join(".pre-commit-hooks.yaml")).unwrap()).unwrap();
    let hook = &hooks[0];
    assert_eq!(hook["id"], "agentry-check");
    assert_eq!(hook["language"], "node");
    assert_eq!(hook["pass_filenames"], false);
    let files = regex::Regex::new(hook["files"].as_str().unwrap()).unwrap();
    assert!(
        files.is_match(".claude/agents/a.md")
            && files.is_match("sub/.agents/agents/x.md")
            && !files.is_match("src/main.rs")
    );
    let entry: Vec<&str> = hook["entry"].as_str().unwrap().split_whitespace().collect();
    assert_eq!(entry[0], "agentry");
    let root = workspace("hook", &[(".agents/agents/good.md", b"---\nname: good\ndescription: x\n---\nA\n")]);
    let run = |root: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_agentry"))
            .args(&entry[1..])
            .current_dir(root.join("project"))
            .env("HOME", root.join("home"))
            .env_remove("XDG_CONFIG_HOME")
            .arg("--builtins")
            .arg(root.join("builtins"))
            .output()
            .unwrap()
    };
    std::fs::create_dir_all(root.join("project/.git")).unwrap();
    assert_eq!(run(&root).status.code(), Some(0), "{}", String::from_utf8_lossy(&run(&root).stdout));
    std::fs::write(root.join("project/.agents/agents/bad.md"), "---\nname: bad\ntools: [x\n---\n").unwrap();
    let out = run(&root);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("bad.md:"));
}

/// The GitHub Action's script, run locally: the built binary (`AGENTRY_BIN`) stands
/// in for the `cargo install` from the action's source tree.
#[test]
fn the_github_action_script_writes_sarif_and_annotations() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let action: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(manifest.join("assets/github-action/action.yml")).unwrap())
            .unwrap();
    assert_eq!(action["runs"]["using"], "composite");
    assert!(action["runs"]["steps"][0]["run"].as_str().unwrap().contains("run.sh"));
    let root = workspace("action", &[(".agents/agents/bad.md", b"---\nname: bad\ntools: [x\n---\n")]);
    std::fs::create_dir_all(root.join("project/.git")).unwrap();
    let output = root.join("github_output");
    let run = |format: &str| {
        std::process::Command::new("bash")
            .arg(manifest.join("assets/github-action/run.sh"))
            .current_dir(root.join("project"))
            .env("AGENTRY_BIN", env!("CARGO_BIN_EXE_agentry"))
            .env("AGENTRY_FORMAT", format)
            .env("AGENTRY_FAIL_ON", "error")
            .env("GITHUB_OUTPUT", &output)
            .env("HOME", root.join("home"))
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap()
    };
    let out = run("sarif");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let written = format!("sarif-file={}\n", root.join("project/agentry.sarif").display());
    assert_eq!(std::fs::read_to_string(&output).unwrap(), written);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("project/agentry.sarif")).unwrap()).unwrap();
    validate_sarif(&doc);
    assert!(doc["runs"][0]["results"].as_array().unwrap().iter().any(|r| r["ruleId"] == "parse-error"));
    let out = run("github");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l.starts_with("::error file=.agents/agents/bad.md,line=")));
    assert_eq!(run("nonsense").status.code(), Some(2));
}

#[test]
fn held_definitions_are_near_misses_without_byte_causes_and_can_fail_the_gate() {
    let root = workspace("held", &[(".claude/agents/ghost.md", b"\xEF\xBB\xBF---\nname: ghost\n---\nBoo\n")]);
    let cat = catalog_trusted(&root, false);
    let report = views::why::why(&cat, &FRAMEWORKS, "ghost");
    assert!(!report.active);
    let path = report.frameworks.iter().find(|f| f.tool == "toy-path").unwrap();
    let held = &path.near_misses[0];
    assert_eq!((held.kind, held.reason.as_str()), ("held", "the project is not trusted"));
    assert!(held.causes.is_empty(), "a held file loads once trusted: its bytes are not the cause");
    let mut findings = views::check::findings(&cat);
    assert!(!views::check::gate(&mut findings, &[], None));
    assert!(views::check::gate(&mut findings, &["held".parse().unwrap()], None));
}

#[test]
fn why_looks_in_the_user_folders_the_frameworks_declare() {
    let root = workspace("why-home", &[]);
    let deep = root.join("home/.agents/agents/team/ghost.md");
    std::fs::create_dir_all(deep.parent().unwrap()).unwrap();
    std::fs::write(&deep, "---\nname: ghost\ndescription: x\n---\nB\n").unwrap();
    let report = views::why::why(&catalog(&root), &FRAMEWORKS, "ghost");
    let oh = report.frameworks.iter().find(|f| f.tool == "openhands").unwrap();
    let miss = oh.near_misses.iter().find(|m| m.path == deep).expect("the user file one folder too deep");
    assert!(miss.reason.contains("only the top level is read"), "{}", miss.reason);
    let lines = views::why::lines(&report, &catalog(&root).roots);
    assert!(lines.iter().any(|l| l.contains("~/.agents/agents/team/ghost.md")), "{lines:#?}");
}

/// Every case of the hostile corpus (`tests/bad_inputs/`), read by the real readers:
/// `why`, `file` and `check` never fail on it, their SARIF stays valid, and each bad
/// file that failed to load is a near miss of its own name.
#[test]
fn the_views_survive_the_hostile_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&corpus).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    let builtins = support::empty_dir();
    let mut checked = 0;
    for case in cases {
        let mut roots = Roots::new(case.clone(), builtins.join("home"), builtins.join("home/.config"), Some(builtins.clone()));
        roots.cwd = case.clone();
        let opts = LoadOptions {
            roots,
            ecosystems: Vec::new(),
            render: RenderMode::Export,
            env: Default::default(),
            options: Default::default(),
            texts: TextForm::Held,
        };
        let cat = agentry::load::load(&opts, &agentry::discover::FileCache::for_one_load(), 1);
        let all = agentry::frameworks::all();
        for name in ["bad", "good", "Bad", "nothing-like-it"] {
            let report = views::why::why(&cat, &all, name);
            let _ = views::why::lines(&report, &cat.roots);
            serde_json::to_string(&report).unwrap();
        }
        let bad = views::why::why(&cat, &all, "bad");
        let failed: Vec<_> = cat.diagnostics().filter(|d| d.source.is_some() && d.path.file_stem().is_some_and(|s| s == "bad")).collect();
        checked += failed.len();
        for d in &failed {
            let f = bad.frameworks.iter().find(|f| f.tool == d.ecosystem).unwrap();
            assert!(f.active || f.near_misses.iter().any(|m| m.path == d.path), "{}: {} not a near miss", case.display(), d.path.display());
        }
        for d in cat.diagnostics() {
            let report = views::file::file(&cat, &all, &d.path);
            let _ = views::file::lines(&report, &cat.roots);
        }
        let mut findings = views::check::findings(&cat);
        views::check::gate(&mut findings, &[], None);
        validate_sarif(&views::check::sarif(&findings, &cat.roots, true));
    }
    assert!(checked >= 10, "only {checked} failed bad files in the corpus");
}
