//! Bad input never crashes the Gemini CLI reader and never hides the rest of the
//! workspace: each hostile file in `.gemini/agents` becomes a diagnostic with its file
//! (and line where one exists) or is ignored as the CLI ignores it, and the good agent
//! next to them still loads and wins.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use agentry::discover::{FileCache, MAX_FILE_BYTES};
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, Roots, Status};

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

#[test]
fn hostile_agent_files_are_diagnostics_and_the_good_agent_still_wins() {
    let ws = support::Scratch::new("gemini-hostile");
    let agents = ws.join("project/.gemini/agents");
    std::fs::create_dir_all(ws.join("home")).expect("home");
    write(&agents.join("good.md"), b"---\nname: good\ndescription: A good agent\n---\nI am good.\n");
    write(&agents.join("binary.md"), b"\x00\x01\x02\xff\xfe\x00garbage");
    write(&agents.join("latin1.md"), b"---\nname: caf\xe9\ndescription: d\n---\nBody\n");
    write(&agents.join("bom.md"), b"\xef\xbb\xbf---\nname: bom\ndescription: d\n---\n");
    write(&agents.join("crlf.md"), b"---\r\nname: crlf\r\ndescription: d\r\n---\r\nBody\r\n");
    let mut deep = b"---\nname: deep\ndescription: ".to_vec();
    deep.extend(std::iter::repeat(b'[').take(200_000));
    deep.extend(std::iter::repeat(b']').take(200_000));
    deep.extend(b"\n---\n");
    write(&agents.join("deep.md"), &deep);
    let mut bomb = b"---\nname: bomb\ndescription: d\nmodel: x\n".to_vec();
    bomb.extend(b"l0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        bomb.extend(format!("l{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n").as_bytes());
    }
    bomb.extend(b"---\n");
    write(&agents.join("bomb.md"), &bomb);
    let huge = std::fs::File::create(agents.join("huge.md")).expect("huge");
    huge.set_len(MAX_FILE_BYTES + 1).expect("sparse file");
    #[cfg(unix)]
    std::os::unix::fs::symlink("loop.md", agents.join("loop.md")).expect("symlink loop");

    let opts = LoadOptions {
        roots: Roots::new(ws.join("project"), ws.join("home"), ws.join("home/.config"), None),
        ecosystems: vec!["gemini-cli".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    let started = Instant::now();
    let catalog = load(&opts, &FileCache::new(), 1);
    // A hang guard (an unbounded blow-up), not a timing: the suite shares two cores.
    assert!(started.elapsed().as_secs() < 120, "took {:?}", started.elapsed());
    let report = &catalog.reports[0];
    let status = |name: &str| report.agents.iter().find(|a| a.name == name).map(|a| a.status);
    assert_eq!(status("good"), Some(Status::Wins));
    assert_eq!(status("crlf"), Some(Status::Wins));
    let diag = |file: &str| {
        report.diagnostics.iter().find(|d| d.path.file_name().is_some_and(|n| n == file)).unwrap_or_else(|| panic!("no diagnostic for {file}: {:#?}", report.diagnostics))
    };
    for (file, kind) in [("binary.md", DiagKind::Parse), ("bom.md", DiagKind::Parse), ("latin1.md", DiagKind::Validation), ("deep.md", DiagKind::Parse), ("bomb.md", DiagKind::Parse)] {
        let d = diag(file);
        assert_eq!(d.kind, kind, "{file}: {}", d.message);
        assert!(d.line.is_some(), "{file}: no line");
        assert!(d.source.is_some(), "{file}: not reported as failing");
    }
    assert_eq!(diag("huge.md").kind, DiagKind::Io);
    #[cfg(unix)]
    assert_eq!(diag("loop.md").kind, DiagKind::Skipped, "a symlink is ignored as Dirent.isFile() ignores it");
}
