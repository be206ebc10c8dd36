//! The demo workspace (`assets/demo`): `--demo` points every root at it, its `venv/`
//! is found the way a user's virtual environment is, and for every framework this
//! build registers, agentry reads it exactly as the framework's own loader does
//! (`tests/demo/<framework>.expected.json`, written by the oracles via
//! `tests/demo/regen.sh`).

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::site_packages::{find, Package};
use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::Roots;
use clap::Parser;

fn options(args: &[&str]) -> LoadOptions {
    let cli = agentry::cli::Cli::parse_from(args);
    match agentry::cli::load_options(&cli.workspace, RenderMode::Export) {
        Ok(opts) => opts,
        Err(f) => panic!("{}", f.message),
    }
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo")
}

const SITE: &str = "venv/lib/python3.12/site-packages";

/// Each framework's built-in folder inside the demo's venv, as its spec locates it.
fn packages() -> Vec<(&'static str, Package<'static>)> {
    vec![
        (
            "openhands",
            Package { rel_path: "openhands/tools/preset/subagents", dist_prefix: "openhands_tools-", launchers: &[] },
        ),
        ("tsugite", Package { rel_path: "tsugite/builtin_agents", dist_prefix: "tsugite_cli-", launchers: &[] }),
        ("kimi", Package { rel_path: "kimi_cli/agents", dist_prefix: "kimi_cli-", launchers: &[] }),
    ]
}

#[test]
fn the_demo_flag_points_every_root_at_the_demo() {
    let opts = options(&["agentry", "--demo", "list"]);
    // The binary carries the demo and lays it out in the user's cache.
    let demo = agentry::cli::demo_dir().unwrap_or_else(|f| panic!("{}", f.message));
    assert_eq!(opts.roots.project, demo.join("project"));
    assert_eq!(opts.roots.home, demo.join("home"));
    assert_eq!(opts.roots.xdg, demo.join("home/.config"));
    assert_eq!(opts.roots.builtins, None, "built-ins are located, not named");
    assert_eq!(opts.env.get("VIRTUAL_ENV").map(PathBuf::from), Some(demo.join("venv")));
    // An explicit root still wins over the demo's.
    let opts = options(&["agentry", "--demo", "--project", "/elsewhere", "list"]);
    assert_eq!(opts.roots.project, PathBuf::from("/elsewhere"));
    assert_eq!(opts.roots.home, demo.join("home"));
}

#[test]
fn the_demo_venv_is_where_built_ins_are_looked_for() {
    let opts = options(&["agentry", "--demo", "list"]);
    for (fw, pkg) in packages() {
        let (found, looked) = find(FileCache::new().untracked(), &opts.roots, &opts.env, &pkg);
        let laid_out = agentry::cli::demo_dir().unwrap_or_else(|f| panic!("{}", f.message));
        let want = agentry::model::normalize(&laid_out.join(SITE).join(pkg.rel_path));
        assert_eq!(found, Some(want), "{fw}: looked in {looked:?}");
    }
}

#[test]
fn every_registered_framework_reads_the_demo_as_its_own_loader_does() {
    let mut checked = Vec::new();
    let mut problems = Vec::new();
    for fw in agentry::frameworks::all() {
        let id = fw.id();
        let expected = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/demo/{id}.expected.json"));
        let text = std::fs::read_to_string(&expected).unwrap_or_else(|e| {
            panic!("{id} is registered but the demo has no expectations ({e}); run tests/demo/regen.sh")
        });
        let expected: serde_json::Value = serde_json::from_str(&text).expect("oracle JSON");
        let builtins = packages()
            .into_iter()
            .find(|(f, _)| *f == id)
            .map(|(_, p)| demo().join(SITE).join(p.rel_path))
            .unwrap_or_else(support::empty_dir);
        // The oracles take a folder's entries in name order (FORMAT.md).
        let mut roots = Roots::new(demo().join("project"), demo().join("home"), demo().join("home/.config"), Some(builtins));
        roots.listing = agentry::model::ListingOrder::Name;
        let opts = LoadOptions {
            roots,
            ecosystems: vec![id.to_string()],
            render: RenderMode::Export,
            env: BTreeMap::new(),
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::Held,
        };
        let catalog = load(&opts, &FileCache::new(), 1);
        let actual = agentry::export::report(&catalog.reports[0]);
        problems.extend(support::compare(&expected, &actual).into_iter().map(|p| format!("{id}: {p}")));
        checked.push(id);
    }
    assert!(!checked.is_empty());
    assert!(problems.is_empty(), "the demo differs from the frameworks ({checked:?}):\n{}", problems.join("\n"));
}
