//! Bad inputs whose outcome is one reader's own rule, beyond what the matrix
//! (`mod.rs`) records for every reader: a value kept across CRLF, the checks a reader
//! makes that the matrix's inputs do not reach, links to themselves, FIFOs, folder
//! links walked as the tool walks them.

use std::collections::BTreeMap;
use std::path::Path;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, EcosystemReport, Roots, Status};

use crate::support;

/// A cold load of one reader on `root/project` and `root/home`.
fn load_one(root: &Path, tool: &str) -> EcosystemReport {
    std::fs::create_dir_all(root.join("project")).expect("project");
    std::fs::create_dir_all(root.join("home")).expect("home");
    let mut roots = Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(support::empty_dir()));
    roots.listing = agentry::model::ListingOrder::Name;
    let opts = LoadOptions {
        roots,
        ecosystems: vec![tool.into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    let mut catalog = load(&opts, &FileCache::new(), 1);
    std::sync::Arc::unwrap_or_clone(catalog.reports.remove(0))
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// The diagnostic that fails the file ending in `file`: its kind and line.
#[track_caller]
fn failing(report: &EcosystemReport, file: &str) -> (DiagKind, Option<u32>) {
    let d = report.diagnostics.iter().find(|d| d.path.ends_with(file) && d.source.is_some());
    let d = d.unwrap_or_else(|| panic!("no diagnostic fails {file}: {:#?}", report.diagnostics));
    (d.kind, d.line)
}

fn status(report: &EcosystemReport, file: &str) -> Option<Status> {
    report.agents.iter().find(|a| a.source.path.ends_with(file)).map(|a| a.status)
}

/// A BOM'd Codex role with CRLF line ends loads, and its multi-line string keeps
/// the CR TOML keeps.
#[test]
fn codex_keeps_the_cr_of_a_multi_line_string_in_a_bom_role() {
    let root = support::Scratch::new("bad-codex-crlf");
    write(&root.join("home/.codex/agents/bom.toml"), b"\xef\xbb\xbfname = \"bom\"\r\ndescription = \"b\"\r\ndeveloper_instructions = \"\"\"\r\nkept\r\n\"\"\"\r\n");
    let report = load_one(&root, "codex");
    let bom = report.agents.iter().find(|a| a.name == "bom" && a.status == Status::Wins).expect("a BOM is accepted");
    assert_eq!(bom.field("developer_instructions").map(|f| f.value.to_json()), Some("kept\r\n".into()));
}

/// Copilot's own checks on CRLF, BOM and key types give their lines; a link to
/// itself is skipped; folder links back into the tree are not walked again.
#[cfg(unix)]
#[test]
fn copilot_checks_lines_self_links_and_links_back_into_the_tree() {
    let root = support::Scratch::new("bad-copilot");
    let agents = root.join("project/.github/agents");
    write(&agents.join("good.agent.md"), b"---\ndescription: the good one\n---\nGood.\n");
    let broken: [(&str, &[u8], u32); 3] = [
        ("bad-indent.agent.md", b"---\r\ndescription: d\r\n  tools: x\r\n---\r\n", 3),
        ("no-front-matter.agent.md", b"\xef\xbb\xbfJust text.\r\n", 1),
        ("tools-map.agent.md", b"---\ndescription: d\n\ntools: {a: 1}\n---\n", 4),
    ];
    for (name, bytes, _) in broken {
        write(&agents.join(name), bytes);
    }
    std::os::unix::fs::symlink("..", agents.join("loop")).expect("symlink");
    std::os::unix::fs::symlink("self.agent.md", agents.join("self.agent.md")).expect("symlink");
    std::os::unix::fs::symlink(".", agents.join("here")).expect("symlink");
    let report = load_one(&root, "copilot");
    assert_eq!(status(&report, "agents/good.agent.md"), Some(Status::Wins));
    for (name, _, line) in broken {
        assert_eq!(failing(&report, name).1, Some(line), "{name}");
        assert_eq!(status(&report, name), Some(Status::Invalid), "{name}");
    }
    assert_eq!(status(&report, "agents/self.agent.md"), Some(Status::Skipped));
    assert!(!report.agents.iter().any(|a| a.source.rel.contains("/loop/") || a.source.rel.contains("/here/")));
}

/// Kimi Code: a duplicate key and a file with no body are refused at their lines; a
/// folder link back to its own folder is walked to depth 8, as the tool does, so
/// the good file is read nine times and the copies lose to the first.
#[test]
fn kimi_code_refuses_duplicate_keys_and_empty_bodies_and_walks_links_to_depth_eight() {
    let root = support::Scratch::new("bad-kimi-code");
    let agents = root.join("project/.kimi-code/agents");
    write(&agents.join("good.md"), b"---\ndescription: A good agent\n---\nI am good.\n");
    write(&agents.join("dup.md"), b"---\ndescription: a\ndescription: b\n---\nBody.\n");
    write(&agents.join("nobody.md"), b"\xef\xbb\xbf---\r\ndescription: BOM and CRLF, no body\r\n---\r\n\r\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(".", agents.join("zz-again")).expect("symlink");
    let report = load_one(&root, "kimi-code");
    assert_eq!(failing(&report, "dup.md"), (DiagKind::Parse, Some(3)));
    assert_eq!(failing(&report, "nobody.md"), (DiagKind::Validation, Some(4)));
    let good: Vec<_> = report.agents.iter().filter(|a| a.name == "good").collect();
    assert_eq!((good[0].status, good[0].source.rel.as_str()), (Status::Wins, ".kimi-code/agents/good.md"));
    #[cfg(unix)]
    assert_eq!(good.len(), 9, "{:?}", good.iter().map(|a| &a.source.rel).collect::<Vec<_>>());
}

/// Links back to their own folder multiply the walk (4 links: 4^8 folders by depth
/// 8); agentry stops after a bounded number of folders, says so, and still loads.
#[cfg(unix)]
#[test]
fn kimi_code_bounds_a_fan_of_folder_links() {
    let root = support::Scratch::new("bad-kimi-code-fan");
    let agents = root.join("project/.agents/agents");
    write(&agents.join("good.md"), b"---\ndescription: A good agent\n---\nI am good.\n");
    for l in ["l1", "l2", "l3", "l4"] {
        std::os::unix::fs::symlink(".", agents.join(l)).expect("symlink");
    }
    let report = load_one(&root, "kimi-code");
    assert!(report.agents.iter().any(|a| a.name == "good" && a.status == Status::Wins && a.source.rel == ".agents/agents/good.md"));
    assert_eq!(report.diagnostics.iter().filter(|d| d.message.contains("agentry stops walking here")).count(), 1);
}

/// Tsugite: an unknown key and a parent that does not exist fail the agent at the
/// key's line; links that lead nowhere are skipped.
#[test]
fn tsugite_refuses_unknown_keys_and_missing_parents_at_their_line() {
    let root = support::Scratch::new("bad-tsugite");
    let agents = root.join("project/agents");
    write(&agents.join("good.md"), b"---\nname: good\nextends: none\n---\nHello.");
    write(&agents.join("unknown.md"), b"---\nname: u\ncolour: red\n---\n");
    write(&agents.join("orphan.md"), b"---\nname: o\nextends: nobody\n---\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink("spin.md", agents.join("spin.md")).expect("symlink");
    let report = load_one(&root, "tsugite");
    assert_eq!(status(&report, "agents/good.md"), Some(Status::Wins));
    assert_eq!(failing(&report, "unknown.md"), (DiagKind::Validation, Some(3)));
    assert_eq!(failing(&report, "orphan.md"), (DiagKind::Missing, Some(3)));
    assert!(!report.diagnostics.iter().any(|d| d.path.ends_with("spin.md") && d.source.is_some()));
}

/// Claude Code retries front matter with CRLF turned into LF: an unquoted `: `
/// loads, with the lenient-retry warning; a BOM and CRLF body keeps its CRs.
#[test]
fn claude_code_reads_crlf_front_matter_through_its_lenient_retry() {
    let root = support::Scratch::new("bad-claude-crlf");
    let dir = root.join("project/.claude/agents");
    write(&dir.join("bom.md"), "\u{feff}---\r\nname: bom\r\ndescription: x\r\n---\r\nA\r\nB\r\n".as_bytes());
    write(&dir.join("colon.md"), b"---\r\nname: colon\r\ndescription: Use: this\r\n---\r\nC\r\n");
    let report = load_one(&root, "claude-code");
    let bom = report.agents.iter().find(|a| a.name == "bom").expect("bom loads");
    assert_eq!(bom.system_prompt.as_ref().and_then(|t| t.read().ok()).as_deref(), Some("A\r\nB"));
    assert_eq!(status(&report, "colon.md"), Some(Status::Wins));
    let about = |kind: DiagKind| report.diagnostics.iter().any(|d| d.path.ends_with("colon.md") && d.kind == kind);
    assert!(about(DiagKind::Ambiguous) && !about(DiagKind::Parse));
}

/// A FIFO named like an agent is never opened for reading (it would block): an
/// `io` diagnostic, and the good agent loads once.
#[cfg(unix)]
#[test]
fn claude_code_never_blocks_on_a_fifo() {
    let root = support::Scratch::new("bad-claude-fifo");
    let dir = root.join("project/.claude/agents");
    write(&dir.join("good.md"), b"---\nname: good\ndescription: A good agent\n---\nI am good.\n");
    let made = std::process::Command::new("mkfifo").arg(dir.join("pipe.md")).status().is_ok_and(|s| s.success());
    let report = load_one(&root, "claude-code");
    assert_eq!(status(&report, "good.md"), Some(Status::Wins));
    if made {
        assert_eq!(failing(&report, "pipe.md").0, DiagKind::Io);
    }
}
