//! What Gemini CLI and Qwen Code tell their models about skills where no oracle case
//! pins it: Gemini's `<available_skills>` text (built when no built-in is listed, in
//! the manager's first-insertion order, unescaped) and the readers' rules for skills
//! the model is not shown; hostile skill files are diagnostics, not crashes.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{EcosystemReport, Kind, Roots, Status};

fn write(path: &Path, text: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn report(ws: &Path, ecosystem: &str) -> std::sync::Arc<EcosystemReport> {
    let opts = LoadOptions {
        roots: Roots::new(ws.join("project"), ws.join("home"), ws.join("home/.config"), None),
        ecosystems: vec![ecosystem.into()],
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: agentry::model::TextForm::Held,
    };
    load(&opts, &FileCache::new(), 1).reports.remove(0)
}

#[test]
fn gemini_lists_file_skills_in_first_insertion_order_when_no_built_in_is_listed() {
    let ws = support::Scratch::new("gemini-skill-listing");
    write(&ws.join("home/.gemini/settings.json"), br#"{"skills": {"disabled": ["skill-creator", "ANTIGRAVITY-SUPPORT"]}}"#);
    write(&ws.join("home/.gemini/skills/deploy/SKILL.md"), b"---\nname: deploy\ndescription: User deploy\n---\nUser.\n");
    write(&ws.join("project/.gemini/skills/b/SKILL.md"), b"---\nname: b-skill\ndescription: Uses <b> & more\n---\nB.\n");
    write(&ws.join("project/.agents/skills/deploy/SKILL.md"), b"---\nname: deploy\ndescription: Project deploy\n---\nProject.\n");
    let r = report(&ws, "gemini-cli");
    let deploy = ws.join("project/.agents/skills/deploy/SKILL.md");
    let b = ws.join("project/.gemini/skills/b/SKILL.md");
    let expected = format!(
        "<available_skills>\n  <skill>\n    <name>deploy</name>\n    <description>Project deploy</description>\n    <location>{}</location>\n  </skill>\n  <skill>\n    <name>b-skill</name>\n    <description>Uses <b> & more</description>\n    <location>{}</location>\n  </skill>\n</available_skills>",
        deploy.display(),
        b.display()
    );
    assert_eq!(r.skill_listing.as_deref(), Some(expected.as_str()));
    let skipped = r.agents.iter().filter(|a| a.kind == Kind::Skill && a.status == Status::Skipped).count();
    assert_eq!(skipped, 2, "both built-ins disabled");
}

#[test]
fn gemini_has_no_listing_text_while_a_built_in_is_listed() {
    let ws = support::Scratch::new("gemini-skill-builtins");
    write(&ws.join("project/.gemini/skills/x/SKILL.md"), b"---\nname: x\ndescription: d\n---\n");
    let r = report(&ws, "gemini-cli");
    assert_eq!(r.skill_listing, None);
    assert!(r.agents.iter().filter(|a| a.kind == Kind::Skill && a.status == Status::Wins).all(|a| a.listed == Some(true)));
}

#[test]
fn qwen_says_why_an_active_skill_is_not_listed() {
    let ws = support::Scratch::new("qwen-skill-unlisted");
    write(&ws.join("project/.qwen/skills/c/SKILL.md"), b"---\nname: c\ndescription: d\npaths: [src/*.ts]\n---\nC.\n");
    write(&ws.join("project/.qwen/skills/u/SKILL.md"), b"---\nname: u\ndescription: d\ndisable-model-invocation: true\n---\nU.\n");
    let r = report(&ws, "qwen-code");
    let skill = |name: &str| r.agents.iter().find(|a| a.kind == Kind::Skill && a.name == name).expect(name);
    assert_eq!((skill("c").status, skill("c").listed), (Status::Wins, Some(false)));
    assert!(skill("c").rule.contains("`paths`"), "{}", skill("c").rule);
    assert!(skill("u").rule.contains("disable-model-invocation"), "{}", skill("u").rule);
    assert_eq!(skill("coordinate").listed, Some(false));
    assert_eq!(skill("review").listed, Some(true));
}

#[test]
fn hostile_skill_files_are_diagnostics_and_the_good_skill_still_wins() {
    let ws = support::Scratch::new("skills-hostile");
    for (tool, dir) in [("gemini-cli", "project/.gemini/skills"), ("qwen-code", "project/.qwen/skills")] {
        let dir = ws.join(dir);
        write(&dir.join("good/SKILL.md"), b"---\nname: good\ndescription: d\n---\nGood.\n");
        write(&dir.join("binary/SKILL.md"), b"\x00\x01\xff\xfe garbage");
        write(&dir.join("latin1/SKILL.md"), b"---\nname: caf\xe9\ndescription: d\r---\n");
        write(&dir.join("crs/SKILL.md"), b"---\rname: x\rdescription:\r---\r");
        let mut deep = b"---\nname: deep\ndescription: ".to_vec();
        deep.extend(std::iter::repeat(b'[').take(100_000));
        deep.extend(b"\n---\n");
        write(&dir.join("deep/SKILL.md"), &deep);
        std::fs::create_dir_all(dir.join("dir/SKILL.md")).expect("a folder named SKILL.md");
        #[cfg(unix)]
        {
            std::fs::create_dir_all(dir.join("loop")).expect("loop");
            let _ = std::os::unix::fs::symlink("SKILL.md", dir.join("loop/SKILL.md"));
        }
        let r = report(&ws, tool);
        let good = r.agents.iter().find(|a| a.kind == Kind::Skill && a.name == "good").expect("good");
        assert_eq!(good.status, Status::Wins, "{tool}");
        for d in r.diagnostics.iter().filter(|d| d.source.is_some()) {
            assert!(d.path.starts_with(&*ws), "{tool}: {d:?}");
        }
    }
}
