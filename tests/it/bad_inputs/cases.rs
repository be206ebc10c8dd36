//! The committed bad-input corpus and the bad inputs particular to some readers
//! (extend chains and cycles, templates, permissions; the matrix of every reader and
//! place is `mod.rs`; the workspace `case_workspace.rs`): every case is a workspace holding one kind of hostile input
//! for each framework it applies to (`tests/bad_inputs/<case>/`, byte-exact, or
//! generated here when it is huge, deep or made of links) next to one good agent per
//! framework. Each test asserts the diagnostic (kind, file, line where there is one)
//! and that every good agent still loads and wins: bad input never crashes agentry
//! and never hides the rest of the workspace.

use std::path::Path;
use std::time::Instant;

use agentry::discover::{FileCache, MAX_FILE_BYTES};
use agentry::frameworks::RenderMode;
use agentry::load::load;
use agentry::model::{DiagKind, Status};

use super::case_workspace::{Loaded, Workspace, FA, KI, OH, TS};

/// Every framework reports a YAML error in front matter or spec at its line, with
/// the line each framework's own parser gives.
#[test]
fn invalid_yaml_of_every_kind_is_a_parse_error_at_its_line() {
    // (case, OpenHands, Tsugite, fast-agent, Kimi) lines.
    let cases = [
        ("yaml_unclosed_flow", 4, 4, 4, 4),
        ("yaml_bad_indentation", 4, 4, 4, 3),
        ("yaml_unterminated_quote", 4, 4, 4, 3),
        ("yaml_undefined_alias", 3, 3, 3, 2),
        // OpenHands reads front matter with libyaml, which stops at the tab itself.
        ("yaml_tab_indentation", 2, 3, 3, 2),
        ("alias_bomb", 8, 8, 8, 8),
        ("deep_flow", 3, 3, 3, 3),
    ];
    for (case, oh, ts, fa, ki) in cases {
        let loaded = Workspace::case(case).load();
        loaded.assert_good_agents_win();
        loaded.assert_error("openhands", OH, DiagKind::Parse, Some(oh));
        loaded.assert_error("tsugite", TS, DiagKind::Parse, Some(ts));
        loaded.assert_error("fast-agent", FA, DiagKind::Parse, Some(fa));
        loaded.assert_error("kimi", KI, DiagKind::Parse, Some(ki));
        if case == "alias_bomb" {
            let d = loaded.assert_error("kimi", KI, DiagKind::Parse, Some(ki));
            assert!(d.message.contains("alias expansion exceeds 1000000 nodes"), "{}", d.message);
        }
        if case == "deep_flow" {
            let d = loaded.assert_error("openhands", OH, DiagKind::Parse, Some(oh));
            assert!(d.message.contains("maximum nesting depth of 512"), "{}", d.message);
        }
    }
}

/// Bytes that are not UTF-8 (Latin-1, UTF-16, binary) are decode errors where the
/// framework reads the file as an agent, and skipped where the framework skips them:
/// fast-agent only takes a Markdown file whose text is UTF-8 with front matter, and
/// Kimi's entry points are files with an `agent:` line, which UTF-16 bytes never have.
#[test]
fn non_utf8_utf16_and_binary_files_are_decode_errors_or_skipped_as_the_framework_does() {
    for (case, oh, ts, ki) in [("non_utf8_latin1", 3, 3, Some(2)), ("utf16_le_bom", 1, 1, None), ("binary", 1, 1, Some(2))] {
        let loaded = Workspace::case(case).load();
        loaded.assert_good_agents_win();
        for (eco, rel, line) in [("openhands", OH, Some(oh)), ("tsugite", TS, Some(ts)), ("kimi", KI, ki)] {
            let Some(line) = line else {
                assert!(loaded.diags(eco, rel).is_empty(), "{case}: {eco}\n{}", loaded.dump());
                continue;
            };
            let d = loaded.assert_error(eco, rel, DiagKind::Parse, Some(line));
            assert!(d.message.contains("UnicodeDecodeError"), "{case}: {}", d.message);
        }
        let card = loaded.catalog.agents().any(|a| a.ecosystem == "fast-agent" && a.source.path.ends_with(FA));
        assert!(!card && loaded.diags("fast-agent", FA).is_empty(), "{case}: fast-agent\n{}", loaded.dump());
    }
}

/// A UTF-8 BOM and CRLF line ends: what each framework makes of them.
#[test]
fn byte_order_marks_and_crlf_line_ends_load_as_the_frameworks_load_them() {
    let loaded = Workspace::case("crlf").load();
    loaded.assert_good_agents_win();
    loaded.assert_loads("openhands", OH, "bommed");
    loaded.assert_loads("tsugite", TS, "bad");
    loaded.assert_loads("fast-agent", FA, "bommed");
    loaded.assert_loads("kimi", KI, "bommed");
    let desc = |eco: &str| {
        let a = loaded.catalog.agents().find(|a| a.ecosystem == eco && a.source.path.ends_with("bad.md"));
        a.and_then(|a| a.field("description")).map(|f| f.value.to_json())
    };
    assert_eq!(desc("openhands"), Some("d".into()), "CR is not part of the value");

    let loaded = Workspace::case("utf8_bom").load();
    loaded.assert_good_agents_win();
    // OpenHands and Tsugite do not see front matter behind a BOM: OpenHands takes the
    // whole file as the prompt of an agent named after the file, Tsugite refuses it.
    loaded.assert_loads("openhands", OH, "bad");
    loaded.assert_error("tsugite", TS, DiagKind::Parse, Some(1));
    loaded.assert_loads("fast-agent", FA, "bommed");
    loaded.assert_loads("kimi", KI, "bommed");
}

#[test]
fn an_empty_file_is_an_agent_an_error_or_nothing_as_each_framework_decides() {
    let loaded = Workspace::case("empty").load();
    loaded.assert_good_agents_win();
    loaded.assert_loads("openhands", OH, "bad");
    loaded.assert_error("tsugite", TS, DiagKind::Parse, Some(1));
    assert!(loaded.diags("fast-agent", FA).is_empty());
    // Kimi: an empty file is not an entry point; extending it fails the child, at the
    // empty file.
    let d = loaded.assert_error("kimi", KI, DiagKind::Parse, None);
    assert_eq!(d.source.as_deref(), Some("project:kimi/uses_empty.yaml"));
}

/// Templates that loop for ever or print gigabytes stop at the render bounds (fuel,
/// output size) in well under the test's time limit, with a template diagnostic.
#[test]
fn templates_that_loop_or_render_gigabytes_stop_at_the_render_bounds() {
    // (case, tsugite's bound, Kimi's prompt file, Kimi's bound and line)
    let bounds = [
        ("template_loop", "ran longer than agentry allows (5000000 steps)", "kimi/loop.md", "ran out of fuel", Some(1)),
        ("template_gigabytes", "output larger than 4194304 bytes", "kimi/huge.md", "exceeds 1048576 bytes", None),
    ];
    for (case, tsugite_bound, prompt, kimi_bound, kimi_line) in bounds {
        let loaded = Workspace::case(case).load();
        loaded.assert_good_agents_win();
        let d = loaded.assert_error("tsugite", TS, DiagKind::Template, Some(5));
        assert!(d.message.contains(tsugite_bound), "{case}: {}", d.message);
        let d = loaded.assert_error("kimi", prompt, DiagKind::Template, kimi_line);
        assert!(d.message.contains(kimi_bound), "{case}: {}", d.message);
        assert_eq!(d.source.as_deref(), Some("project:kimi/bad.yaml"));
    }
}

/// A 100 MB file (sparse, so the test costs no disk) is never read: every framework
/// that looks at it says it is too large.
#[test]
fn a_file_over_the_size_bound_is_an_io_diagnostic_and_never_read() {
    let ws = Workspace::new("huge");
    let huge = ["agents/huge.md", ".agents/agents/huge.md", ".fast-agent/agent-cards/huge.md", "kimi/huge.yaml"];
    for rel in huge {
        ws.write(rel, b"");
        let file = std::fs::OpenOptions::new().write(true).open(ws.path(rel)).expect("open");
        file.set_len(100 * 1024 * 1024).expect("grow");
    }
    let files = FileCache::new();
    let loaded = Loaded { catalog: load(&ws.options(RenderMode::Export), &files, 1), project: ws.project() };
    loaded.assert_good_agents_win();
    for (eco, rel) in [("tsugite", huge[0]), ("openhands", huge[1]), ("fast-agent", huge[2]), ("kimi", huge[3])] {
        let d = loaded.diags(eco, rel);
        let d = d.iter().find(|d| d.kind == DiagKind::Io).unwrap_or_else(|| panic!("{eco}\n{}", loaded.dump()));
        let bound = format!("file too large (104857600 bytes; agentry reads at most {MAX_FILE_BYTES} bytes)");
        assert!(d.message.contains(&bound), "{eco}: {}", d.message);
    }
    // OpenHands and Tsugite would load it as an agent, so it fails; fast-agent and
    // Kimi only look into it to see whether it is one, so it is a warning.
    assert!(loaded.assert_error("openhands", huge[1], DiagKind::Io, None).source.is_some());
    assert!(loaded.assert_error("tsugite", huge[0], DiagKind::Io, None).source.is_some());
    assert!(files.counts().bytes_read < 1024 * 1024, "the huge files were read: {:?}", files.counts());
}

/// 10,000 files, each extending the one before: no stack overflow, no hang; the
/// chain is followed as far as each framework's bound and every deeper agent fails
/// with one diagnostic.
#[test]
fn ten_thousand_level_extends_chains_neither_overflow_nor_hang() {
    const LEVELS: usize = 10_000;
    let ws = Workspace::new("chain");
    ws.write("agents/c0.md", "---\nname: c0\nextends: none\n---\nRoot.\n");
    ws.write("kimi/k0.yaml", "agent:\n  name: k0\n  system_prompt_path: good.md\n  tools: []\n");
    for i in 1..LEVELS {
        ws.write(&format!("agents/c{i}.md"), format!("---\nname: c{i}\nextends: c{}\n---\nLevel {i}.\n", i - 1));
        ws.write(&format!("kimi/k{i}.yaml"), format!("agent:\n  extend: k{}.yaml\n  name: k{i}\n", i - 1));
    }
    let started = Instant::now();
    // Every one of the 20,000 agents walks its chain to the bound; a hang would
    // never end (the time is printed, not asserted: benchmarks measure speed).
    let loaded = ws.load();
    eprintln!("two {LEVELS}-level chains loaded in {:?}", started.elapsed());
    loaded.assert_good_agents_win();
    let status = |eco: &str, name: &str| {
        loaded.catalog.agents().find(|a| a.ecosystem == eco && a.name == name).map(|a| (a.status, a.chain.len()))
    };
    // Tsugite follows 256 parents (agentry's bound); Kimi 485 (Python's recursion limit).
    assert_eq!(status("tsugite", "c256"), Some((Status::Wins, 257)));
    assert_eq!(status("tsugite", "c257").map(|s| s.0), Some(Status::Invalid));
    assert_eq!(status("kimi", "k485"), Some((Status::Wins, 486)));
    assert_eq!(status("kimi", "k486").map(|s| s.0), Some(Status::Invalid));
    let last = format!("c{}", LEVELS - 1);
    let d = loaded.assert_error("tsugite", &format!("agents/c{}.md", LEVELS - 1 - 257), DiagKind::Cycle, Some(3));
    assert_eq!(d.source.as_deref(), Some(format!("project:agents/{last}.md").as_str()));
    assert!(d.message.contains("deeper than 256 levels"), "{}", d.message);
    let deepest = format!("project:kimi/k{}.yaml", LEVELS - 1);
    let deep: Vec<_> = loaded.catalog.diagnostics().filter(|d| d.source.as_deref() == Some(deepest.as_str())).collect();
    assert!(deep.len() == 1 && deep[0].kind == DiagKind::Cycle, "{deep:?}");
}

/// Extend cycles of length 1, 2 and 50: one cycle diagnostic for every agent on a
/// loop, and nothing else lost.
#[test]
fn extend_cycles_of_length_one_two_and_fifty_are_cycle_errors() {
    let ws = Workspace::new("cycles");
    ws.write("agents/a1.md", "---\nname: a1\nextends: a1\n---\nx\n");
    ws.write("kimi/a1.yaml", "agent:\n  extend: a1.yaml\n  name: a1\n");
    for (prefix, len) in [("b", 2), ("c", 50)] {
        for i in 1..=len {
            let next = i % len + 1;
            ws.write(&format!("agents/{prefix}{i}.md"), format!("---\nname: {prefix}{i}\nextends: {prefix}{next}\n---\nx\n"));
            ws.write(&format!("kimi/{prefix}{i}.yaml"), format!("agent:\n  extend: {prefix}{next}.yaml\n  name: {prefix}{i}\n"));
        }
    }
    let loaded = ws.load();
    loaded.assert_good_agents_win();
    let on_loop = |eco: &str| {
        loaded.catalog.diagnostics().filter(|d| d.ecosystem == eco && d.kind == DiagKind::Cycle && d.source.is_some()).count()
    };
    assert_eq!(on_loop("tsugite"), 53, "{}", loaded.dump());
    assert_eq!(on_loop("kimi"), 53, "{}", loaded.dump());
    for eco in ["tsugite", "kimi"] {
        let invalid = loaded.catalog.agents().filter(|a| a.ecosystem == eco && a.status == Status::Invalid).count();
        assert_eq!(invalid, 53, "{eco}");
    }
    let own = loaded.assert_error("kimi", "kimi/a1.yaml", DiagKind::Cycle, Some(2));
    assert!(own.message.contains("project:kimi/a1.yaml → project:kimi/a1.yaml"), "{}", own.message);
    loaded.assert_error("tsugite", "agents/a1.md", DiagKind::Cycle, Some(3));
}

/// Symlinks that loop (to themselves, to each other, a folder to itself), dangle
/// (the file deleted between discovery and reading) or point outside the workspace:
/// the loops and dangling links are skipped or reported, a link to a real file
/// outside is followed as the frameworks follow it, and nothing else is lost.
#[cfg(unix)]
#[test]
fn symlink_loops_dangling_links_and_links_outside_the_workspace() {
    let ws = Workspace::new("links");
    let outside = ws.root.join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(outside.join("tsugite.md"), "---\nname: outsider\nextends: none\n---\nFrom outside.\n").expect("write");
    std::fs::write(outside.join("agent.md"), "---\nname: outsider\n---\nFrom outside.\n").expect("write");
    // Kimi reads a relative prompt path next to the link, not next to its target.
    let spec = format!("agent:\n  name: outsider\n  system_prompt_path: {}\n  tools: []\n", outside.join("p.md").display());
    std::fs::write(outside.join("agent.yaml"), spec).expect("write");
    std::fs::write(outside.join("p.md"), "Outside prompt.\n").expect("write");
    for dir in [".agents/agents", "agents", ".fast-agent/agent-cards", "kimi"] {
        let ext = if dir == "kimi" { "yaml" } else { "md" };
        ws.link(format!("self.{ext}"), &format!("{dir}/self.{ext}"));
        ws.link(format!("ping.{ext}"), &format!("{dir}/pong.{ext}"));
        ws.link(format!("pong.{ext}"), &format!("{dir}/ping.{ext}"));
        ws.link(".", &format!("{dir}/loopdir"));
        ws.link(format!("gone.{ext}"), &format!("{dir}/dangling.{ext}"));
        let target = if dir == "agents" { "tsugite.md".to_string() } else { format!("agent.{ext}") };
        ws.link(outside.join(target), &format!("{dir}/outside.{ext}"));
    }
    let loaded = ws.load();
    loaded.assert_good_agents_win();
    for (eco, dir) in [("openhands", ".agents/agents"), ("tsugite", "agents"), ("fast-agent", ".fast-agent/agent-cards"), ("kimi", "kimi")] {
        let ext = if dir == "kimi" { "yaml" } else { "md" };
        // Followed as Python follows it: the file outside loads like any other
        // (fast-agent names it by its resolved path, tsugite by the link's name).
        let outsider = loaded.catalog.agents().find(|a| {
            a.ecosystem == eco && (a.name == "outsider" || *a.source.path == *ws.path(&format!("{dir}/outside.{ext}")))
        });
        let outsider = outsider.unwrap_or_else(|| panic!("{eco}: the link outside did not load\n{}", loaded.dump()));
        assert_eq!(outsider.status, Status::Wins, "{eco}");
        // No link that leads nowhere becomes an agent.
        for name in ["self", "ping", "pong", "dangling"] {
            let rel = format!("{dir}/{name}.{ext}");
            let agent = loaded.catalog.agents().find(|a| a.ecosystem == eco && *a.source.path == *ws.path(&rel));
            assert!(agent.is_none_or(|a| a.status == Status::Invalid), "{eco}: {rel}\n{}", loaded.dump());
        }
    }
}

/// Whether this process can read a file with mode 000 (root can; CI and this
/// sandbox run as root, a developer usually does not).
#[cfg(unix)]
fn permissions_are_enforced(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = dir.join("probe");
    std::fs::write(&probe, "x").expect("write");
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let enforced = std::fs::read(&probe).is_err();
    let _ = std::fs::remove_file(&probe);
    enforced
}

/// An unreadable file and an unreadable folder in every framework: an `io`
/// diagnostic when permissions hold; when they do not (root), the honest outcome is
/// that everything loads.
#[cfg(unix)]
#[test]
fn unreadable_files_and_folders_are_io_diagnostics_or_load_when_permissions_do_not_apply() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Workspace::new("perm");
    let enforced = permissions_are_enforced(&ws.root);
    let locked = [
        ("openhands", ".agents/agents/locked.md", "---\nname: locked\n---\nx\n"),
        ("tsugite", "agents/locked.md", "---\nname: locked\nextends: none\n---\nx\n"),
        ("fast-agent", ".fast-agent/agent-cards/locked.md", "---\ntype: agent\nname: locked\n---\nx\n"),
        ("kimi", "kimi/locked.yaml", "agent:\n  name: locked\n  system_prompt_path: good.md\n  tools: []\n"),
    ];
    let hidden = [
        ("openhands", ".openhands/agents", "hidden.md", "---\nname: hidden\n---\nx\n"),
        ("tsugite", ".tsugite", "hidden.md", "---\nname: hidden\nextends: none\n---\nx\n"),
        ("kimi", "kimi/locked_dir", "hidden.yaml", "agent:\n  name: hidden\n  system_prompt_path: ../good.md\n  tools: []\n"),
    ];
    for (_, rel, text) in locked {
        ws.write(rel, text);
        std::fs::set_permissions(ws.path(rel), std::fs::Permissions::from_mode(0o000)).expect("chmod");
    }
    for (_, dir, file, text) in hidden {
        ws.write(&format!("{dir}/{file}"), text);
        std::fs::set_permissions(ws.path(dir), std::fs::Permissions::from_mode(0o000)).expect("chmod");
    }
    let loaded = ws.load();
    loaded.assert_good_agents_win();
    let named = |eco: &str, name: &str| loaded.catalog.agents().find(|a| a.ecosystem == eco && a.name == name).map(|a| a.status);
    for (eco, rel, _) in locked {
        if enforced {
            let io = loaded.diags(eco, rel).into_iter().any(|d| d.kind == DiagKind::Io);
            assert!(io, "{eco}: no io diagnostic for {rel}\n{}", loaded.dump());
        } else {
            assert_eq!(named(eco, "locked"), Some(Status::Wins), "{eco}: {rel}\n{}", loaded.dump());
        }
    }
    for (eco, dir, _, _) in hidden {
        if enforced {
            let io = loaded.diags(eco, dir).into_iter().any(|d| d.kind == DiagKind::Io);
            assert!(io, "{eco}: no io diagnostic for {dir}\n{}", loaded.dump());
        } else {
            assert_eq!(named(eco, "hidden"), Some(Status::Wins), "{eco}: {dir}\n{}", loaded.dump());
        }
    }
}

/// A searched folder that is a file, and a subagent path through a "folder" that is
/// a file: nothing is listed from it, the rest loads.
#[test]
fn a_folder_replaced_by_a_file() {
    let ws = Workspace::new("replaced");
    ws.write(".openhands/agents", "not a folder\n");
    ws.write(".tsugite", "not a folder\n");
    ws.write(".fast-agent/tool-cards", "not a folder\n");
    ws.write("kimi/team", "not a folder\n");
    ws.write(
        "kimi/lead.yaml",
        "agent:\n  name: lead\n  system_prompt_path: good.md\n  tools: []\n  subagents:\n    member:\n      path: team/member.yaml\n      description: a member\n",
    );
    let loaded = ws.load();
    loaded.assert_good_agents_win();
    loaded.assert_loads("kimi", "kimi/lead.yaml", "lead");
    let d = loaded.assert_error("kimi", "kimi/lead.yaml", DiagKind::Missing, Some(6));
    assert!(d.source.as_deref() == Some("project:kimi/team/member.yaml"), "{d:?}");
    // Agents compiled into a tool load in every workspace: only files count. Kimi Code
    // reads OpenHands' `.agents/agents/good.md` too, so it wins twice.
    let winners = loaded.catalog.agents().filter(|a| a.status == Status::Wins && !a.source.is_compiled_in()).count();
    assert_eq!(winners, 7, "{}", loaded.dump());
}

