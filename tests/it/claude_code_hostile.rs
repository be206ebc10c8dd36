//! Hostile input for the claude-code reader: binary bytes, invalid UTF-8, BOM and
//! CRLF, deep nesting, a file over the size Claude Code reads, symlink loops, a FIFO.
//! Each case sits next to a good agent: the bad file gets a diagnostic with its file
//! (and line where there is one) or loads as the tool loads it, and the good agent
//! still loads and wins.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Catalog, DiagKind, Roots, Status};

const GOOD: &str = "---\nname: good\ndescription: A good agent\n---\nI am good.\n";

fn workspace(tag: &str) -> support::Scratch {
    let ws = support::Scratch::new(&format!("cc-hostile-{tag}"));
    for d in ["project/.claude/agents", "home/.claude/agents"] {
        std::fs::create_dir_all(ws.join(d)).unwrap();
    }
    std::fs::write(ws.join("project/.claude/agents/good.md"), GOOD).unwrap();
    ws
}

fn load_ws(ws: &Path) -> Catalog {
    let mut roots = Roots::new(ws.join("project"), ws.join("home"), ws.join("home/.config"), Some(support::empty_dir()));
    roots.listing = agentry::model::ListingOrder::Name;
    let opts = LoadOptions {
        roots,
        ecosystems: vec!["claude-code".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    load(&opts, &FileCache::new(), 1)
}

#[track_caller]
fn assert_good_wins(c: &Catalog) {
    let good = c.agents().find(|a| a.name == "good").expect("the good agent is lost");
    assert_eq!(good.status, Status::Wins);
}

/// The diagnostic that fails `rel` (under the project's `.claude/agents`).
#[track_caller]
fn failing(c: &Catalog, ws: &Path, rel: &str) -> (DiagKind, Option<u32>, String) {
    let path = ws.join("project/.claude/agents").join(rel);
    let d = c.diagnostics().find(|d| d.path == path && d.source.is_some());
    let d = d.unwrap_or_else(|| panic!("no diagnostic fails {rel}: {:#?}", c.diagnostics().collect::<Vec<_>>()));
    (d.kind, d.line, d.message.clone())
}

#[test]
fn binary_and_invalid_utf8_files_are_skipped_or_rejected_never_fatal() {
    let ws = workspace("binary");
    let dir = ws.join("project/.claude/agents");
    std::fs::write(dir.join("binary.md"), [0u8, 159, 146, 150, 0, 255, 1, 2, 3]).unwrap();
    std::fs::write(dir.join("latin1.md"), b"---\nname: caf\xe9\ndescription: Latin-1 bytes\n---\nBody.\n").unwrap();
    std::fs::write(dir.join("broken.md"), b"---\nname: \"open\n\xff\xfe: x\n---\n").unwrap();
    let c = load_ws(&ws);
    assert_good_wins(&c);
    assert_eq!(failing(&c, &ws, "binary.md").0, DiagKind::Skipped);
    // Invalid bytes read as U+FFFD, as Claude Code decodes them.
    assert!(c.agents().any(|a| a.name == "caf\u{fffd}" && a.status == Status::Wins));
    let (kind, line, _) = failing(&c, &ws, "broken.md");
    assert_eq!((kind, line), (DiagKind::Parse, Some(2)));
}

#[test]
fn bom_and_crlf_load_and_the_lenient_retry_reads_crlf() {
    let ws = workspace("crlf");
    let dir = ws.join("project/.claude/agents");
    std::fs::write(dir.join("bom.md"), "\u{feff}---\r\nname: bom\r\ndescription: x\r\n---\r\nA\r\nB\r\n").unwrap();
    std::fs::write(dir.join("colon.md"), "---\r\nname: colon\r\ndescription: Use: this\r\n---\r\nC\r\n").unwrap();
    let c = load_ws(&ws);
    assert_good_wins(&c);
    let bom = c.agents().find(|a| a.name == "bom").expect("bom loads");
    assert_eq!(bom.system_prompt.as_ref().unwrap().read().unwrap(), "A\r\nB");
    // 2.1.337 retries the text with CRLF turned into LF: the unquoted `: ` loads,
    // with the lenient-retry warning (2.1.328 logged a parse error).
    let colon = c.agents().find(|a| a.name == "colon").expect("colon loads");
    assert_eq!(colon.status, Status::Wins);
    let path = ws.join("project/.claude/agents/colon.md");
    assert!(c.diagnostics().any(|d| d.path == path && d.kind == DiagKind::Ambiguous));
    assert!(!c.diagnostics().any(|d| d.path == path && d.kind == DiagKind::Parse));
}

#[test]
fn deep_nesting_and_alias_bombs_stop_at_the_parser_bounds() {
    let ws = workspace("deep");
    let dir = ws.join("project/.claude/agents");
    let deep = format!("---\nname: deep\ndescription: x\nnest: {}1{}\n---\n", "[".repeat(100_000), "]".repeat(100_000));
    std::fs::write(dir.join("deep.md"), deep).unwrap();
    let mut bomb = String::from("---\nname: bomb\ndescription: x\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..20 {
        bomb += &format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n", p = i - 1);
    }
    bomb += "---\n";
    std::fs::write(dir.join("bomb.md"), bomb).unwrap();
    let c = load_ws(&ws);
    assert_good_wins(&c);
    // Too deep to parse as written: the lenient retry quotes the value, so it loads.
    let deep = c.agents().find(|a| a.name == "deep").expect("deep loads after the retry");
    assert_eq!(deep.status, Status::Wins);
    let (kind, line, _) = failing(&c, &ws, "bomb.md");
    assert_eq!((kind, line), (DiagKind::Parse, Some(2)));
}

#[test]
fn a_file_over_the_read_limit_is_an_io_error_and_never_parsed() {
    let ws = workspace("huge");
    let mut huge = String::from("---\nname: huge\ndescription: x\n---\n");
    huge.push_str(&"x".repeat(1_048_577));
    std::fs::write(ws.join("project/.claude/agents/huge.md"), huge).unwrap();
    let c = load_ws(&ws);
    assert_good_wins(&c);
    let (kind, _, message) = failing(&c, &ws, "huge.md");
    assert_eq!(kind, DiagKind::Io);
    assert!(message.contains("1048576"), "{message}");
    assert!(!c.agents().any(|a| a.name == "huge" && a.status == Status::Wins));
}

#[cfg(unix)]
#[test]
fn symlink_loops_dangling_links_and_fifos_never_hang() {
    use std::os::unix::fs::symlink;
    let ws = workspace("links");
    let dir = ws.join("project/.claude/agents");
    symlink(".", dir.join("loop")).unwrap();
    symlink("../agents", dir.join("up")).unwrap();
    symlink("self.md", dir.join("self.md")).unwrap();
    symlink("nowhere.md", dir.join("dangling.md")).unwrap();
    let fifo = dir.join("pipe.md");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    let c = load_ws(&ws);
    assert_good_wins(&c);
    // The good file is read once: the loops do not make copies of it.
    assert_eq!(c.agents().filter(|a| a.name == "good").count(), 1);
    for rel in ["self.md", "dangling.md"] {
        assert_eq!(failing(&c, &ws, rel).0, DiagKind::Io, "{rel}");
    }
    if made {
        assert_eq!(failing(&c, &ws, "pipe.md").0, DiagKind::Io);
    }
}

/// `check` notes an installed Claude Code of another release (read from its npm
/// package, never run), and says nothing for the release agentry follows.
#[cfg(unix)]
#[test]
fn an_installed_claude_code_of_another_release_is_noted() {
    let ws = workspace("release");
    for (version, noted) in [("2.2.0", true), ("2.1.337", false)] {
        let pkg = ws.join(format!("npm-{version}/node_modules/@anthropic-ai/claude-code"));
        std::fs::create_dir_all(pkg.join("bin")).unwrap();
        std::fs::write(pkg.join("package.json"), format!("{{\"name\":\"@anthropic-ai/claude-code\",\"version\":\"{version}\"}}")).unwrap();
        std::fs::write(pkg.join("bin/claude.exe"), "#!/bin/sh\n").unwrap();
        let bin = ws.join(format!("bin-{version}"));
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(pkg.join("bin/claude.exe"), bin.join("claude")).unwrap();
        let mut roots = Roots::new(ws.join("project"), ws.join("home"), ws.join("home/.config"), Some(support::empty_dir()));
        roots.listing = agentry::model::ListingOrder::Name;
        let opts = LoadOptions {
            roots,
            ecosystems: vec!["claude-code".into()],
            render: RenderMode::Live { user_prompt: String::new() },
            env: BTreeMap::from([("PATH".to_string(), bin.display().to_string())]),
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::Held,
        };
        let c = load(&opts, &FileCache::new(), 1);
        let note = c.diagnostics().find(|d| d.message.contains("installed; agentry follows"));
        assert_eq!(note.is_some(), noted, "{version}");
        if let Some(n) = note {
            assert!(n.message.contains("2.2.0") && n.message.contains("2.1.337"), "{}", n.message);
        }
        assert_good_wins(&c);
    }
}
