//! The explorer on the demo's Codex roles: the reviewer a project table rewords
//! shows each field's origin, the fields filled from the user layer named so.

use crate::support;

use std::ffi::OsString;
use std::path::Path;

use support::pty::Session;

#[test]
fn the_inheritance_pane_names_the_layer_each_codex_field_came_from() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    let mut args: Vec<OsString> = Vec::new();
    for (flag, dir) in [("--project", demo.join("project")), ("--home", demo.join("home")), ("--builtins", support::empty_dir())] {
        args.push(flag.into());
        args.push(dir.into());
    }
    args.extend(["--ecosystem", "codex", "--no-watch", "--theme", "dark"].map(OsString::from));
    let mut s = Session::start(&args, &demo, &[]);
    s.wait_for("the loaded roles", |t| t.contains("reviewer") && t.contains("triage"));
    s.keys(b"/");
    s.wait_for("the finder", |t| t.contains("enter keep"));
    s.keys(b"reviewer\r");
    let screen = s.wait_for("the reviewer's fields", |t| t.contains("filter /reviewer") && t.contains("Fields of reviewer"));
    assert!(screen.contains("chain: project:.codex/config.toml#reviewer → user:.codex/agents/reviewer.toml"), "{screen}");
    assert!(screen.contains("config_file, developer_instructions, model filled from the"), "{screen}");
    assert!(screen.contains("model                  \"gpt-5-mini\"  user:.codex/agents/reviewer.toml:8"), "{screen}");
    assert!(screen.contains("nickname_candidates    [\"Ada\",\"Grace\"]  project:.codex/config.toml#reviewer:4"), "{screen}");
    s.keys(b"q");
    assert!(s.wait_exit().success());
}
