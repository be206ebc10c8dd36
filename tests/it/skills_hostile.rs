//! Hostile skill files in every skills place every reader declares: binary bytes,
//! UTF-16, Latin-1, NUL, an unclosed front matter, a deep YAML nest, an alias bomb, a
//! BOM with CRLF, a huge file, a dangling link and a folder loop, each beside one good
//! skill in the same place. The places come from the readers' own tables
//! (`report.places`), so a reader that gains a skills place is covered without an edit
//! here. Bad input never crashes a load and never hides the good skill.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Catalog, Kind, Roots, Scope, TextForm};

use crate::support;

const GOOD: &str = "---\nname: good\ndescription: A good skill\n---\nI am good.\n";

fn hostile() -> Vec<(&'static str, Vec<u8>)> {
    let deep = format!("---\nname: deep\ndescription: {}x{}\n---\nbody\n", "[".repeat(20_000), "]".repeat(20_000));
    let mut bomb = String::from("---\nname: bomb\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..20 {
        let prev = if i == 0 { "a".to_string() } else { format!("a{}", i - 1) };
        bomb.push_str(&format!("a{i}: &a{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    bomb.push_str("description: boom\n---\nbody\n");
    let utf16: Vec<u8> = "\u{feff}---\nname: wide\ndescription: d\n---\nbody\n".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let mut huge = b"---\nname: huge\ndescription: big\n---\n".to_vec();
    huge.extend(std::iter::repeat_n(b'x', 12 * 1024 * 1024));
    vec![
        ("binary", (0..=255u8).cycle().take(4096).collect()),
        ("utf16", utf16),
        ("latin1", b"---\nname: latin\ndescription: caf\xe9\n---\nbody\n".to_vec()),
        ("nul", b"---\nname: nul\x00\ndescription: d\n---\nbo\x00dy\n".to_vec()),
        ("unclosed", b"---\nname: open\ndescription: never closed\nbody\n".to_vec()),
        ("deep", deep.into_bytes()),
        ("bomb", bomb.into_bytes()),
        ("bom_crlf", b"\xef\xbb\xbf---\r\nname: crlf\r\ndescription: d\r\n---\r\nbody\r\n".to_vec()),
        ("control", "---\nname: \"ctl\\u001b[2J\\u202e\"\ndescription: \"\\u001b]52;c;eA==\\u0007\"\n---\n\u{1b}[31mred\n".as_bytes().to_vec()),
        ("huge", huge),
    ]
}

fn options(root: &Path) -> LoadOptions {
    let roots = Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(support::empty_dir()));
    LoadOptions {
        roots,
        ecosystems: Vec::new(),
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: TextForm::Held,
    }
}

/// Every skills folder the readers declare for this workspace (not the built-ins').
fn skill_places(catalog: &Catalog) -> Vec<(&'static str, PathBuf)> {
    let mut out = Vec::new();
    for r in &catalog.reports {
        for p in r.places.iter().filter(|p| p.holds_skills() && !p.reached && !p.reach.file && p.scope != Scope::Builtin) {
            out.push((r.ecosystem, p.dir.clone()));
        }
    }
    out
}

#[test]
fn hostile_skill_files_are_diagnostics_and_the_good_skill_still_loads() {
    let root = support::Scratch::new("skills-hostile");
    std::fs::create_dir_all(root.join("project/.git")).expect(".git");
    std::fs::create_dir_all(root.join("home")).expect("home");
    let first = load(&options(&root), &FileCache::new(), 1);
    let places = skill_places(&first);
    assert!(places.len() >= 8, "too few skills places: {places:?}");
    for (_, dir) in &places {
        let _ = std::fs::create_dir_all(dir.join("good"));
        let _ = std::fs::write(dir.join("good/SKILL.md"), GOOD);
        for (name, bytes) in hostile() {
            let _ = std::fs::create_dir_all(dir.join(name));
            let _ = std::fs::write(dir.join(name).join("SKILL.md"), &bytes);
        }
        #[cfg(unix)]
        {
            let _ = std::fs::create_dir_all(dir.join("dangling"));
            let _ = std::os::unix::fs::symlink(dir.join("nowhere/SKILL.md"), dir.join("dangling/SKILL.md"));
            let _ = std::fs::create_dir_all(dir.join("loop"));
            let _ = std::os::unix::fs::symlink(dir, dir.join("loop/again"));
        }
    }
    let catalog = load(&options(&root), &FileCache::new(), 1);
    for report in &catalog.reports {
        let reads: Vec<&PathBuf> = places.iter().filter(|(t, _)| *t == report.ecosystem).map(|(_, d)| d).collect();
        if reads.is_empty() {
            continue;
        }
        let good: Vec<_> = report.agents.iter().filter(|a| a.kind == Kind::Skill && a.name == "good").collect();
        assert!(
            good.iter().any(|a| a.status.is_active() || a.status == agentry::model::Status::Held),
            "{}: the good skill is not loaded beside the hostile files: {:?}",
            report.ecosystem,
            good.iter().map(|a| (a.source.key(), a.status, a.rule.clone())).collect::<Vec<_>>()
        );
        // Nothing a tool reports about a hostile file reaches the terminal raw.
        for a in report.agents.iter().filter(|a| a.kind == Kind::Skill) {
            let shown = agentry::text::sanitize::line(&a.name);
            assert!(!shown.contains('\u{1b}') && !shown.contains('\u{202e}'), "{}: {shown:?}", report.ecosystem);
        }
    }
}
