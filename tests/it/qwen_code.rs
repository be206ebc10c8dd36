//! Qwen Code reader against hostile input: binary and invalid UTF-8 bytes, BOMs,
//! CRLF, deep nesting, a huge file, symlink loops and folders named `x.md` never
//! crash it and never hide the good agent next to them; each dropped file is a
//! `skipped` diagnostic naming the file (with a line where the tool's reason has
//! one).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, Roots, Status};

const GOOD: &str = "---\nname: good\ndescription: A good agent\n---\nI am a good agent.\n";

struct Workspace(PathBuf);

impl Workspace {
    fn new(tag: &str) -> Workspace {
        let root = std::env::temp_dir().join(format!("agentry-qwen-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("project/.qwen/agents")).unwrap();
        std::fs::create_dir_all(root.join("home/.qwen/agents")).unwrap();
        std::fs::create_dir_all(root.join("builtins")).unwrap();
        let ws = Workspace(root);
        ws.write("good.md", GOOD);
        ws
    }

    fn agents(&self) -> PathBuf {
        self.0.join("project/.qwen/agents")
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) {
        std::fs::write(self.agents().join(name), bytes).unwrap();
    }

    fn report(&self) -> agentry::model::EcosystemReport {
        let opts = LoadOptions {
            roots: Roots::new(self.0.join("project"), self.0.join("home"), self.0.join("home/.config"), Some(self.0.join("builtins"))),
            ecosystems: vec!["qwen-code".into()],
            render: RenderMode::Export,
            env: BTreeMap::new(),
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::Held,
        };
        let catalog = load(&opts, &FileCache::new(), 1);
        (*catalog.reports[0]).clone()
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn skipped_at(report: &agentry::model::EcosystemReport, file: &Path) -> Option<Option<u32>> {
    report
        .diagnostics
        .iter()
        .find(|d| d.path == file && d.kind == DiagKind::Skipped && d.source.is_some())
        .map(|d| d.line)
}

#[test]
fn hostile_files_are_skipped_with_their_reason_and_the_good_agent_still_wins() {
    let ws = Workspace::new("hostile");
    ws.write("binary.md", [0u8, 159, 146, 150, 0, 255, 254, 0, 1, 2]);
    ws.write("invalid-utf8.md", b"---\nname: \xff\xfe\ndescription: bad bytes\n---\nShort\n");
    ws.write("bom-crlf.md", b"\xef\xbb\xbf---\r\nname: bom-crlf\r\ndescription: BOM and CRLF\r\n---\r\nLoaded despite the BOM.\r\n");
    let deep = format!("---\nname: deep\ndescription: {}x{}\n---\nDeeply nested value.\n", "[".repeat(100_000), "]".repeat(100_000));
    ws.write("deep.md", deep);
    let nested = format!("---\nname: nested\ndescription: nested maps\nrunConfig:\n{}\n---\nDeep block nesting.\n", (0..2000).map(|i| format!("{}k{i}:", " ".repeat(i))).collect::<Vec<_>>().join("\n"));
    ws.write("nested.md", nested);
    let huge = format!("---\nname: huge\ndescription: a big prompt\n---\n{}\n", "word ".repeat(2_000_000));
    ws.write("huge.md", huge);
    ws.write("no-frontmatter.md", "just text\n");
    std::fs::create_dir_all(ws.agents().join("folder.md")).unwrap();
    std::os::unix::fs::symlink("loop.md", ws.agents().join("loop.md")).unwrap();
    std::os::unix::fs::symlink("missing-target.md", ws.agents().join("dangling.md")).unwrap();

    let report = ws.report();
    let status = |name: &str| report.agents.iter().find(|a| a.name == name).map(|a| a.status);
    assert_eq!(status("good"), Some(Status::Wins), "{:#?}", report.agents);
    assert_eq!(status("bom-crlf"), Some(Status::Wins));
    assert_eq!(status("huge"), Some(Status::Wins));
    // Deep nesting makes the YAML fall back to the line parser: the agent loads.
    assert_eq!(status("deep"), Some(Status::Wins));
    assert_eq!(status("nested"), Some(Status::Wins));
    let agents = ws.agents();
    assert_eq!(skipped_at(&report, &agents.join("binary.md")), Some(Some(1)));
    assert_eq!(skipped_at(&report, &agents.join("no-frontmatter.md")), Some(Some(1)));
    // `\xff\xfe` decodes to two replacement characters: no valid name, and the
    // prompt is too short; the reason points at the name line.
    assert_eq!(skipped_at(&report, &agents.join("invalid-utf8.md")), Some(Some(2)));
    for io in ["folder.md", "loop.md", "dangling.md"] {
        assert!(skipped_at(&report, &agents.join(io)).is_some(), "{io}: {:#?}", report.diagnostics);
    }
}

#[test]
fn the_parser_never_panics_on_arbitrary_front_matter() {
    let samples: [&[u8]; 8] = [
        b"---\n---\n",
        b"---\n\n---\n",
        b"---\n: :\n---\nxxxxxxxxxxxx",
        b"---\n&a [*a]\n---\nxxxxxxxxxxxx",
        b"---\nname: *x\n---\nxxxxxxxxxxxx",
        b"---\n\t\t- \xff\n---\n",
        b"---\nname: a\n  - b\n c: |\n\t\n---\n",
        b"---\n!!binary ====\n---\n",
    ];
    for s in samples {
        agentry::fuzzing::qwen_code(s);
    }
}

/// A dropped file that declares an executor for a name makes Qwen Code refuse to
/// dispatch that name (`throwRecordedExecutorRefusal`): the definitions of lower
/// levels, the built-in included, do not run; a definition of the same level that
/// loads still does.
#[test]
fn a_broken_executor_declaration_refuses_the_name_below_its_level() {
    let ws = Workspace::new("refusal");
    ws.write("codex.md", "---\nname: codex\ndescription: external\nmodel: 'openai:'\nexecutor:\n  kind: acp\n  command: agent\n---\nRun it elsewhere, please.\n");
    ws.write("helper-exec.md", "---\nname: helper\ndescription: broken\nexecutor: ~\n---\nRun it elsewhere, please.\n");
    ws.write("helper.md", "---\nname: Helper\ndescription: loads\n---\nA helper that loads fine.\n");
    std::fs::write(ws.0.join("home/.qwen/agents/codex.md"), "---\nname: codex\ndescription: user codex\n---\nThe user's codex agent.\n").unwrap();
    let report = ws.report();
    let refusing = "project:.qwen/agents/codex.md";
    for source in ["user:.qwen/agents/codex.md", "builtin:codex"] {
        let a = report.agents.iter().find(|a| a.source.key() == source).expect(source);
        assert_eq!((a.status, a.shadowed_by.as_deref()), (Status::Shadowed, Some(refusing)), "{source}: {}", a.rule);
    }
    let helper = report.agents.iter().find(|a| a.name == "Helper").unwrap();
    assert_eq!(helper.status, Status::Wins, "{}", helper.rule);
    assert!(report.diagnostics.iter().any(|d| d.path.ends_with("codex.md") && d.message.contains("refuses to run `codex`")));
}

/// A file name that is not UTF-8 reaches Qwen Code with replacement characters
/// (Node's `readdir`), so the path it opens does not exist: the file is skipped.
#[test]
fn a_file_name_that_is_not_utf8_is_skipped_as_unreadable() {
    use std::os::unix::ffi::OsStrExt;
    let ws = Workspace::new("latin1-name");
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.md");
    std::fs::write(ws.agents().join(name), GOOD.replace("name: good", "name: cafe")).unwrap();
    let report = ws.report();
    assert!(report.agents.iter().all(|a| a.name != "cafe" || a.status == Status::Skipped), "{:#?}", report.agents);
    assert!(skipped_at(&report, &ws.agents().join(name)).is_some(), "{:#?}", report.diagnostics);
    assert!(report.agents.iter().any(|a| a.name == "good" && a.status == Status::Wins));
}
