//! Hostile agent files for the Kimi Code reader: each is reported with its file (and
//! line where there is one), and a good agent beside it still loads and wins.

use crate::support;

use std::path::Path;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{DiagKind, Roots, Status};

const GOOD: &str = "---\ndescription: A good agent\n---\nI am good.\n";

fn load_project(root: &Path) -> agentry::model::Catalog {
    let mut roots = Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), None);
    roots.listing = agentry::model::ListingOrder::Name;
    let opts = LoadOptions {
        roots,
        ecosystems: vec!["kimi-code".into()],
        render: RenderMode::Export,
        env: Default::default(),
        options: Default::default(),
        texts: agentry::model::TextForm::Held,
    };
    load(&opts, &FileCache::new(), 1)
}

#[test]
fn hostile_files_are_reported_and_the_good_agent_still_wins() {
    let root = support::Scratch::new("kimi-code-hostile");
    let agents = root.join("project/.kimi-code/agents");
    std::fs::create_dir_all(&agents).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    std::fs::write(agents.join("good.md"), GOOD).unwrap();
    let deep = format!("---\ndescription: deep\ntools: {}{}\n---\nBody.\n", "[".repeat(100_000), "]".repeat(100_000));
    let cases: Vec<(&str, Vec<u8>, DiagKind, Option<u32>)> = vec![
        ("binary.md", vec![0, 159, 146, 150, 255, 0, 1, 2], DiagKind::Parse, Some(1)),
        ("latin1.md", b"---\ndescription: caf\xe9\n  bad: [\n---\nBody.\n".to_vec(), DiagKind::Parse, None),
        ("nul.md", b"---\ndescription: a\x00b\n---\nBody.\n".to_vec(), DiagKind::Parse, Some(2)),
        ("deep.md", deep.into_bytes(), DiagKind::Parse, Some(3)),
        ("nobody.md", b"\xef\xbb\xbf---\r\ndescription: BOM and CRLF, no body\r\n---\r\n\r\n".to_vec(), DiagKind::Validation, Some(4)),
        ("dup.md", b"---\ndescription: a\ndescription: b\n---\nBody.\n".to_vec(), DiagKind::Parse, Some(3)),
        ("huge.md", {
            let mut v = b"---\ndescription: huge\nx: [".to_vec();
            v.extend(std::iter::repeat_n(b'a', 40 << 20));
            v
        }, DiagKind::Parse, None),
    ];
    for (name, bytes, _, _) in &cases {
        std::fs::write(agents.join(name), bytes).unwrap();
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("loop.md", agents.join("loop.md")).unwrap();
        std::os::unix::fs::symlink(".", agents.join("zz-again")).unwrap();
    }
    let started = std::time::Instant::now();
    let catalog = load_project(&root);
    assert!(started.elapsed().as_secs() < 60, "took {:?}", started.elapsed());
    let report = &catalog.reports[0];
    let good: Vec<_> = report.agents.iter().filter(|a| a.name == "good").collect();
    assert_eq!(good[0].status, Status::Wins, "{:?}", good[0].rule);
    assert_eq!(good[0].source.rel, ".kimi-code/agents/good.md");
    // The folder link back to its own folder is walked to depth 8, as the tool does:
    // its copies of good.md are read, and lose to the first.
    #[cfg(unix)]
    assert_eq!(good.len(), 9, "{:?}", good.iter().map(|a| &a.source.rel).collect::<Vec<_>>());
    for (name, _, kind, line) in &cases {
        let d = report.diagnostics.iter().find(|d| d.path.ends_with(name)).unwrap_or_else(|| panic!("no diagnostic for {name}: {:?}", report.diagnostics));
        if *name != "huge.md" {
            assert_eq!(d.kind, *kind, "{name}: {}", d.message);
        }
        if line.is_some() {
            assert_eq!(d.line, *line, "{name}: {}", d.message);
        }
    }
    #[cfg(unix)]
    assert!(report.diagnostics.iter().any(|d| d.path.ends_with("loop.md") && d.kind == DiagKind::Io));
}

/// Links back to their own folder multiply the walk (4 links: 4^8 folders by depth
/// 8); agentry stops after a bounded number of folders, says so, and still loads.
#[cfg(unix)]
#[test]
fn a_fan_of_folder_links_is_bounded() {
    let root = support::Scratch::new("kimi-code-fan");
    let agents = root.join("project/.agents/agents");
    std::fs::create_dir_all(&agents).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    std::fs::write(agents.join("good.md"), GOOD).unwrap();
    for l in ["l1", "l2", "l3", "l4"] {
        std::os::unix::fs::symlink(".", agents.join(l)).unwrap();
    }
    let started = std::time::Instant::now();
    let catalog = load_project(&root);
    assert!(started.elapsed().as_secs() < 60, "took {:?}", started.elapsed());
    let report = &catalog.reports[0];
    assert!(report.agents.iter().any(|a| a.name == "good" && a.status == Status::Wins && a.source.rel == ".agents/agents/good.md"));
    assert_eq!(report.diagnostics.iter().filter(|d| d.message.contains("agentry stops walking here")).count(), 1);
}
