//! Kimi CLI beyond the fixtures: where Kimi itself crashes or loops (extend cycles,
//! chains deeper than Python's recursion limit, broken files next to good ones),
//! agentry reports one clear diagnostic and still loads everything else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, EcosystemReport, EdgeKind, Provenance, Roots, Severity, Status, Text};

struct Workspace {
    root: PathBuf,
}

impl Workspace {
    fn new(name: &str) -> Workspace {
        let root = std::env::temp_dir().join(format!("agentry-kimi-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("project")).expect("temp dir");
        std::fs::create_dir_all(root.join("home")).expect("temp dir");
        Workspace { root }
    }

    fn write(&self, rel: &str, text: impl AsRef<[u8]>) {
        let path = self.root.join("project").join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    fn load(&self, render: RenderMode) -> EcosystemReport {
        let empty = self.root.join("no-builtins");
        std::fs::create_dir_all(&empty).expect("mkdir");
        let opts = LoadOptions {
            roots: Roots::new(self.root.join("project"), self.root.join("home"), self.root.join("home/.config"), Some(empty)),
            ecosystems: vec!["kimi".into()],
            render,
            env: BTreeMap::new(),
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

fn errors_of<'a>(report: &'a EcosystemReport, source: &str) -> Vec<&'a agentry::model::Diagnostic> {
    report.diagnostics.iter().filter(|d| d.severity == Severity::Error && d.source.as_deref() == Some(source)).collect()
}

fn winners(report: &EcosystemReport) -> Vec<String> {
    report.agents.iter().filter(|a| a.status == Status::Wins).map(|a| a.name.clone()).collect()
}

const GOOD: &str = "agent:\n  name: good\n  system_prompt_path: p.md\n  tools: []\n";

#[test]
fn extend_cycles_are_one_diagnostic_each_naming_the_loop_and_the_rest_loads() {
    let ws = Workspace::new("cycles");
    ws.write("p.md", "Prompt.");
    ws.write("good.yaml", GOOD);
    ws.write("a.yaml", "agent:\n  extend: ./b.yaml\n  name: a\n");
    ws.write("b.yaml", "agent:\n  extend: a.yaml\n  name: b\n");
    ws.write("self.yaml", "agent:\n  extend: self.yaml\n  name: self\n");
    let report = ws.load(RenderMode::Export);

    assert_eq!(winners(&report), vec!["good"]);
    let a = errors_of(&report, "project:a.yaml");
    assert_eq!(a.len(), 1, "{a:?}");
    assert_eq!(a[0].kind, DiagKind::Cycle);
    assert!(a[0].message.contains("project:a.yaml → project:b.yaml → project:a.yaml"), "{}", a[0].message);
    assert_eq!(a[0].line, Some(2), "the line of the `extend` that closes the loop");
    let own = errors_of(&report, "project:self.yaml");
    assert_eq!(own.len(), 1);
    assert_eq!(own[0].kind, DiagKind::Cycle);
    assert!(own[0].message.contains("project:self.yaml → project:self.yaml"), "{}", own[0].message);
    // The broken definitions are still shown, as invalid.
    let invalid: Vec<_> = report.agents.iter().filter(|a| a.status == Status::Invalid).map(|a| a.name.as_str()).collect();
    assert_eq!(invalid, vec!["a", "b", "self"]);
}

#[test]
fn chains_deeper_than_python_survives_fail_as_kimi_does_without_overflowing() {
    let ws = Workspace::new("deep");
    ws.write("p.md", "Deep.");
    ws.write("f0.yaml", "agent:\n  name: f0\n  system_prompt_path: p.md\n  tools: []\n");
    let n = 520;
    for i in 1..=n {
        ws.write(&format!("f{i}.yaml"), format!("agent:\n  extend: f{}.yaml\n  name: f{i}\n", i - 1));
    }
    let report = ws.load(RenderMode::Export);
    let f485 = report.agents.iter().find(|a| a.name == "f485").expect("f485");
    assert_eq!(f485.status, Status::Wins);
    assert_eq!(f485.chain.len(), 486);
    let deep = errors_of(&report, "project:f486.yaml");
    assert_eq!(deep.len(), 1);
    assert_eq!(deep[0].kind, DiagKind::Cycle);
    assert_eq!(winners(&report).len(), 486);
}

#[test]
fn a_long_subagent_chain_is_walked_without_recursion() {
    let ws = Workspace::new("subchain");
    ws.write("p.md", "Sub.");
    let n = 3000;
    for i in 0..n {
        let subagents = if i + 1 < n {
            format!("  subagents:\n    next:\n      path: s{}.yml\n      description: step {}\n", i + 1, i + 1)
        } else {
            String::new()
        };
        ws.write(&format!("s{i}.yml"), format!("agent:\n  name: s{i}\n  system_prompt_path: p.md\n  tools: []\n{subagents}"));
    }
    let report = ws.load(RenderMode::Export);
    assert_eq!(winners(&report).len(), n);
    let first = report.agents.iter().find(|a| a.name == "s0").expect("s0");
    assert_eq!(first.edges.len(), 1);
    assert_eq!(first.edges[0].kind, EdgeKind::Subagent);
    assert_eq!(first.edges[0].target.as_deref(), Some("project:s1.yml"));
}

#[test]
fn broken_files_are_diagnostics_at_their_line_and_never_hide_the_rest() {
    let ws = Workspace::new("broken");
    ws.write("p.md", "Prompt.");
    ws.write("good.yaml", GOOD);
    ws.write("empty.yaml", "");
    ws.write("uses_empty.yaml", "agent:\n  extend: empty.yaml\n  name: x\n");
    ws.write("not_map.yaml", "agent: [1, 2]\n");
    ws.write("binary.yaml", b"agent:\n\x00\xff\xfe garbage\n".as_slice());
    ws.write("wrong.yaml", "agent:\n  name: w\n  system_prompt_path: p.md\n  tools: []\n  model: 7\n");
    ws.write("lost.yaml", "agent:\n  name: lost\n  system_prompt_path: p.md\n  tools: []\n  subagents:\n    gone:\n      path: gone.yaml\n      description: not there\n");
    let report = ws.load(RenderMode::Export);

    let mut names = winners(&report);
    names.sort();
    assert_eq!(names, vec!["good", "lost"]);
    let kind = |src: &str| errors_of(&report, src).iter().map(|d| d.kind).collect::<Vec<_>>();
    assert_eq!(kind("project:uses_empty.yaml"), vec![DiagKind::Parse]);
    assert_eq!(kind("project:not_map.yaml"), vec![DiagKind::Validation]);
    assert_eq!(kind("project:binary.yaml"), vec![DiagKind::Parse]);
    assert_eq!(kind("project:gone.yaml"), vec![DiagKind::Missing]);
    let wrong = errors_of(&report, "project:wrong.yaml");
    assert_eq!(wrong[0].kind, DiagKind::Validation);
    assert_eq!(wrong[0].line, Some(5), "the line of `model: 7`");
    // The empty parent is named as the place of the problem.
    let empty = errors_of(&report, "project:uses_empty.yaml");
    assert!(empty[0].path.ends_with("empty.yaml"), "{:?}", empty[0].path);
    assert!(errors_of(&report, "project:empty.yaml").is_empty(), "an empty file is not an entry point");
}

#[test]
fn fields_keep_their_origin_and_the_tree_its_edges() {
    let ws = Workspace::new("origins");
    ws.write("base.md", "${A} ${B}");
    ws.write(
        "lib/base.yaml",
        "agent:\n  name: base\n  system_prompt_path: ../base.md\n  system_prompt_args:\n    A: a\n    B: b\n  tools: [\"t:X\"]\n",
    );
    ws.write("kid.yaml", "agent:\n  extend: lib/base.yaml\n  name: kid\n  system_prompt_args:\n    B: kid-b\n");
    let report = ws.load(RenderMode::Export);
    let kid = report.agents.iter().find(|a| a.name == "kid").expect("kid");
    assert_eq!(kid.system_prompt.as_ref().and_then(Text::as_held), Some("a kid-b"));
    assert_eq!(*kid.chain, ["project:kid.yaml", "project:lib/base.yaml"]);
    let args = kid.field("system_prompt_args").expect("args");
    assert_eq!(args.origin.provenance, Provenance::Merged);
    assert_eq!(args.origin.sites.len(), 2);
    let tools = kid.field("tools").expect("tools");
    assert_eq!(tools.origin.provenance, Provenance::Inherited);
    assert_eq!(&*tools.origin.sites[0].source, "project:lib/base.yaml");
    assert_eq!(tools.origin.sites[0].line, Some(7));
    assert_eq!(kid.field("name").expect("name").origin.provenance, Provenance::Own);
    assert_eq!(kid.field("allowed_tools").expect("allowed").origin.provenance, Provenance::Default);
    assert_eq!(kid.edges[0].kind, EdgeKind::Extends);
    assert_eq!(kid.edges[0].target.as_deref(), Some("project:lib/base.yaml"));
    assert!(kid.attributes.iter().any(|a| &*a.key == "extend" && a.line == 2));
}

#[test]
fn live_prompts_get_real_values_and_spec_args_still_win() {
    let ws = Workspace::new("live");
    ws.write("p.md", "os=${KIMI_OS} cwd=${KIMI_WORK_DIR} me=${ME}\n${KIMI_WORK_DIR_LS}");
    ws.write("a.yaml", "agent:\n  name: a\n  system_prompt_path: p.md\n  tools: []\n  system_prompt_args:\n    ME: spec\n");
    let report = ws.load(RenderMode::Live { user_prompt: String::new() });
    let prompt = report.agents[0].system_prompt.as_ref().and_then(Text::as_held).expect("rendered");
    let project: &Path = &ws.root.join("project");
    assert!(!prompt.contains("<KIMI_OS>"), "{prompt}");
    assert!(prompt.contains(&format!("cwd={}", project.display())), "{prompt}");
    assert!(prompt.contains("me=spec"));
    assert!(prompt.contains("├── a.yaml") && prompt.contains("└── p.md"), "{prompt}");
}

#[test]
fn symlink_loops_and_self_including_prompts_are_diagnostics() {
    let ws = Workspace::new("links");
    let project = ws.root.join("project");
    ws.write("p.md", "P");
    ws.write("selfinc.md", "x{% include \"selfinc.md\" %}");
    ws.write("selfinc.yaml", "agent:\n  name: selfinc\n  system_prompt_path: selfinc.md\n  tools: []\n");
    ws.write(
        "ok.yaml",
        "agent:\n  name: ok\n  system_prompt_path: p.md\n  tools: []\n  subagents:\n    l:\n      path: loopa.yaml\n      description: x\n",
    );
    std::fs::create_dir_all(project.join("d")).expect("mkdir");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(".", project.join("d/self")).expect("link");
        std::os::unix::fs::symlink("..", project.join("d/up")).expect("link");
        std::os::unix::fs::symlink("loopb.yaml", project.join("loopa.yaml")).expect("link");
        std::os::unix::fs::symlink("loopa.yaml", project.join("loopb.yaml")).expect("link");
    }
    let report = ws.load(RenderMode::Export);
    assert_eq!(winners(&report), vec!["ok"]);
    // Checked against the oracle: Jinja recurses into the include until RecursionError.
    assert_eq!(errors_of(&report, "project:selfinc.yaml")[0].kind, DiagKind::Cycle);
    #[cfg(unix)]
    {
        let lost = errors_of(&report, "project:loopa.yaml");
        assert_eq!(lost[0].kind, DiagKind::Missing);
        assert_eq!(lost[0].line, Some(6), "reported at the subagent entry");
    }
}
