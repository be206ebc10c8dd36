//! Hostile bytes and trees in Copilot's agent folders: every broken file is a
//! diagnostic naming the file (and the line, where the file has lines), nothing
//! panics or hangs, and a good agent beside them still loads and wins.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Roots, Status};

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn hostile_files_are_diagnostics_and_the_good_agent_still_wins() {
    let ws = support::Scratch::new("copilot-hostile");
    let project = ws.join("project");
    let agents = ".github/agents";
    write(&project, &format!("{agents}/good.agent.md"), b"---\ndescription: the good one\n---\nGood.\n");
    let mut deep = b"---\ndescription: d\ngithub: ".to_vec();
    deep.extend(std::iter::repeat_n(b'[', 100_000));
    deep.extend_from_slice(b"\n---\nBody.\n");
    let mut huge = b"---\ndescription: huge\ntools: [read]\n---\n".to_vec();
    huge.extend(std::iter::repeat_n(b'x', 3_000_000));
    let mut alias_bomb = b"---\ndescription: d\na: &a [x, x, x, x, x, x, x, x, x]\n".to_vec();
    for (i, prev) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().enumerate() {
        let name = ["b", "c", "d", "e", "f", "g", "h", "i"][i];
        alias_bomb.extend_from_slice(format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n").as_bytes());
    }
    alias_bomb.extend_from_slice(b"---\nBomb.\n");
    let broken: &[(&str, &[u8], Option<u32>)] = &[
        ("binary.agent.md", b"\x00\x01\x02\xff\xfe\x00garbage", Some(1)),
        ("latin1.agent.md", b"---\ndescription: caf\xe9\n---\nBody.\n", Some(2)),
        ("utf16.agent.md", b"\xff\xfe-\x00-\x00-\x00\n\x00", Some(1)),
        ("nul.agent.md", b"---\ndescription: a\x00b\n---\nBody.\n", Some(2)),
        ("deep.agent.md", &deep, Some(3)),
        ("bad-indent.agent.md", b"---\r\ndescription: d\r\n  tools: x\r\n---\r\n", Some(3)),
        ("no-front-matter.agent.md", b"\xef\xbb\xbfJust text.\r\n", Some(1)),
        ("tools-map.agent.md", b"---\ndescription: d\n\ntools: {a: 1}\n---\n", Some(4)),
    ];
    for (name, bytes, _) in broken {
        write(&project, &format!("{agents}/{name}"), bytes);
    }
    write(&project, &format!("{agents}/huge.agent.md"), &huge);
    write(&project, &format!("{agents}/bomb.agent.md"), &alias_bomb);
    write(&project, &format!("{agents}/crlf.agent.md"), b"\xef\xbb\xbf---\r\ndescription: crlf\r\n---\r\nLine.\r\n");
    std::os::unix::fs::symlink("..", project.join(agents).join("loop")).unwrap();
    std::os::unix::fs::symlink("self.agent.md", project.join(agents).join("self.agent.md")).unwrap();
    std::os::unix::fs::symlink(".", project.join(agents).join("here")).unwrap();
    std::fs::create_dir_all(ws.join("home")).unwrap();

    let mut roots = Roots::new(project.clone(), ws.join("home"), ws.join("home/.config"), Some(support::empty_dir()));
    roots.listing = agentry::model::ListingOrder::Name;
    let opts = LoadOptions {
        roots,
        ecosystems: vec!["copilot".into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    let started = std::time::Instant::now();
    let catalog = load(&opts, &FileCache::new(), 1);
    assert!(started.elapsed().as_secs() < 60, "took {:?}", started.elapsed());
    let report = &catalog.reports[0];
    let status = |file: &str| report.agents.iter().find(|a| a.source.rel.ends_with(file)).map(|a| a.status);
    assert_eq!(status("agents/good.agent.md"), Some(Status::Wins));
    assert_eq!(status("agents/crlf.agent.md"), Some(Status::Wins));
    assert_eq!(status("agents/huge.agent.md").map(|s| s == Status::Wins || s == Status::Invalid), Some(true));
    assert_eq!(status("agents/self.agent.md"), Some(Status::Skipped));
    for (name, _, line) in broken {
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.path.ends_with(name) && d.source.is_some())
            .unwrap_or_else(|| panic!("no failing diagnostic for {name}: {:#?}", report.diagnostics));
        assert_eq!(d.line, *line, "{name}: {}", d.message);
        assert_eq!(status(&format!("agents/{name}")), Some(Status::Invalid), "{name}");
    }
    // The links back into the tree are not walked again: every file is read once.
    assert!(!report.agents.iter().any(|a| a.source.rel.contains("/loop/") || a.source.rel.contains("/here/")));
    // The alias bomb is a value serde_yaml builds lazily or refuses; either way it returns.
    assert!(status("agents/bomb.agent.md").is_some());
}
