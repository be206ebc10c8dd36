//! The bad-input matrix: every reader of [`agentry::frameworks::all`], every agents
//! and skills place it declares for a workspace (`report.places`, so a reader that
//! gains a place is covered without an edit here), and in each place every hostile
//! input below beside one good definition. One load reads them all. It asserts what
//! holds for every reader — nothing crashes or hangs, the good file beside the bad
//! ones still loads with no word against it, every line a diagnostic gives is a line
//! of its file, no text from a file reaches the terminal raw — and records what each
//! reader makes of each bad file (loaded, or which diagnostic at which line, or
//! nothing) in the snapshot `it__bad_inputs__outcomes.snap`, which a reviewer reads
//! against the tools' behaviour. Readers' own bad inputs (extend chains, templates,
//! the committed corpus with each tool's line) are in `bad_input_cases.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Agent, Catalog, Diagnostic, EcosystemReport, Place, PlaceKind, Roots, Scope, Status, TextForm};

use crate::support;

mod case_workspace;
mod cases;
mod per_tool;

/// How a place's files are written: Markdown with front matter, a YAML spec (Kimi
/// CLI) or a TOML role (Codex). Each hostile input is written in the place's format
/// so it reaches the parser behind the first line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Markdown,
    Yaml,
    Toml,
}

fn format_of(file: &Path) -> Format {
    match file.extension().and_then(|e| e.to_str()) {
        Some("yaml" | "yml") => Format::Yaml,
        Some("toml") => Format::Toml,
        _ => Format::Markdown,
    }
}

/// One hostile input: its name (the file's stem or folder) and bytes. The 12 MB
/// file (`HUGE_BYTES`) is one file hard-linked into every place, so it is written
/// once. TOML has no aliases: its "alias bomb" is invalid TOML at its first alias line.
fn hostile(format: Format) -> Vec<(&'static str, Vec<u8>)> {
    // Keys as each format writes them: `name` is where the hostile value goes.
    let (open, key, close, indent) = match format {
        Format::Markdown => ("---\n", ": ", "---\nbody\n", ""),
        Format::Yaml => ("agent:\n", ": ", "", "  "),
        Format::Toml => ("", " = ", "", ""),
    };
    let field = |k: &str, v: &str| -> Vec<u8> {
        let v = if format == Format::Toml && !v.starts_with(['[', '"', '{']) { format!("\"{v}\"") } else { v.to_string() };
        format!("{indent}{k}{key}{v}\n").into_bytes()
    };
    let doc = |fields: &[(&str, &str)]| -> Vec<u8> {
        let mut out = open.as_bytes().to_vec();
        for (k, v) in fields {
            out.extend(field(k, v));
        }
        out.extend(close.as_bytes());
        out
    };
    let nest = format!("{}x{}", "[".repeat(20_000), "]".repeat(20_000));
    let nest = if format == Format::Toml { format!("[{}]", "[".repeat(19_999) + &"]".repeat(19_999)) } else { nest };
    let deep = doc(&[("name", "deep"), ("description", &nest)]);
    let mut bomb = doc(&[("name", "bomb")]);
    let mut links = format!("{indent}a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..20 {
        let prev = if i == 0 { "a".to_string() } else { format!("a{}", i - 1) };
        links.push_str(&format!("{indent}a{i}: &a{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    let at = bomb.len() - close.len();
    bomb.splice(at..at, links.into_bytes());
    let utf16: String = String::from_utf8(doc(&[("name", "wide"), ("description", "d")])).map(|t| format!("\u{feff}{t}")).expect("UTF-8");
    let utf16 = utf16.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let replace = |bytes: Vec<u8>, from: &[u8], to: &[u8]| -> Vec<u8> {
        let at = bytes.windows(from.len()).position(|w| w == from).expect("a marker");
        [&bytes[..at], to, &bytes[at + from.len()..]].concat()
    };
    let latin1 = replace(doc(&[("name", "latin"), ("description", "cafe")]), b"cafe", b"caf\xe9");
    let nul = replace(doc(&[("name", "nul"), ("description", "d")]), b"nul", b"nul\x00");
    let unclosed = match format {
        Format::Markdown => b"---\nname: open\ndescription: never closed\nbody\n".to_vec(),
        _ => replace(doc(&[("name", "open"), ("description", "d")]), b"open", b"\"open"),
    };
    let crlf = doc(&[("name", "crlf"), ("description", "d")]).into_iter().flat_map(|b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] });
    let bom_crlf = b"\xef\xbb\xbf".iter().copied().chain(crlf).collect();
    let mut control = doc(&[("name", "\"ctl\\u001b[2J\\u202e\""), ("description", "\"\\u001b]52;c;eA==\\u0007\"")]);
    if format == Format::Markdown {
        control.extend("\u{1b}[31mred\n".as_bytes());
    }
    vec![
        ("binary", (0..=255u8).cycle().take(4096).collect()),
        ("utf16", utf16),
        ("latin1", latin1),
        ("nul", nul),
        ("unclosed", unclosed),
        ("deep", deep),
        ("bomb", bomb),
        ("bom_crlf", bom_crlf),
        ("control", control),
    ]
}

const HUGE_BYTES: usize = 12 * 1024 * 1024;

/// A good agent as each reader wants one; Markdown with a name and a description
/// suits the rest.
fn good_agent(tool: &str, name: &str) -> String {
    match tool {
        "tsugite" => format!("---\nname: {name}\nextends: none\n---\nI am good.\n"),
        "fast-agent" => format!("---\ntype: agent\nname: {name}\n---\nI am good.\n"),
        "kimi" => format!("agent:\n  name: {name}\n  system_prompt_path: {name}.prompt\n  tools: []\n"),
        "codex" => format!("name = \"{name}\"\ndescription = \"A good agent\"\ndeveloper_instructions = \"I am good.\"\n"),
        _ => format!("---\nname: {name}\ndescription: A good agent\n---\nI am good.\n"),
    }
}

fn good_skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: A good skill\n---\nI am good.\n")
}

/// How a place names the files it reads: inside a folder of their own (a
/// `SKILL.md`, or any skill file of a skills place read one level down or more) or
/// as files with the place's first suffix. `None` for a place of fixed file names
/// (`config.toml`, `AGENTS.md`): it holds one file, not a file per input.
fn file_in(place: &Place, stem: &str) -> Option<PathBuf> {
    let suffix = place.reach.suffixes.first().copied().unwrap_or(".md");
    let nested = place.kind == PlaceKind::Skills && place.reach.depth.is_some_and(|d| d > 0);
    if suffix == "SKILL.md" || (nested && suffix == ".md") {
        Some(place.dir.join(stem).join("SKILL.md"))
    } else if suffix.starts_with('.') {
        Some(place.dir.join(format!("{stem}{suffix}")))
    } else {
        None
    }
}

fn options(root: &Path) -> LoadOptions {
    LoadOptions {
        roots: Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), Some(support::empty_dir())),
        ecosystems: agentry::frameworks::all().iter().map(|f| f.id().to_string()).collect(),
        render: RenderMode::Export,
        env: BTreeMap::new(),
        options: BTreeMap::new(),
        texts: TextForm::Held,
    }
}

/// One reader's place in the matrix.
struct Cell {
    tool: &'static str,
    place: Place,
    good: PathBuf,
}

/// The agents and skills folders each reader walks in this workspace (not the
/// built-ins', not files a definition reaches, not single files a setting names).
/// An agents place that is also the reader's skills folder holds agents only inside
/// plugin folders (Claude Code's `.claude/skills/<plugin>/agents`): not a place for
/// agent files of its own.
fn places(catalog: &Catalog, root: &Path) -> Vec<(&'static str, Place)> {
    let mut out = Vec::new();
    for r in &catalog.reports {
        let skills: Vec<&Path> = r.places.iter().filter(|p| p.kind == PlaceKind::Skills).map(|p| p.dir.as_path()).collect();
        for p in &r.places {
            let walked = matches!(p.kind, PlaceKind::Agents | PlaceKind::Skills) && !p.reached && !p.reach.file && p.scope != Scope::Builtin;
            let plugins = p.kind == PlaceKind::Agents && skills.contains(&p.dir.as_path());
            let known = out.iter().any(|(t, q): &(&str, Place)| *t == r.ecosystem && q.dir == p.dir && q.kind == p.kind);
            if walked && !plugins && !known && p.dir.starts_with(root) && file_in(p, "x").is_some() {
                out.push((r.ecosystem, p.clone()));
            }
        }
    }
    out
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// Fills every place: the good file, the hostile files, the huge file, a dangling
/// link and a folder looping back to itself.
fn fill(root: &Path, places: &[(&'static str, Place)]) -> Vec<Cell> {
    let mut huge = b"---\nname: huge\ndescription: big\n---\n".to_vec();
    huge.resize(HUGE_BYTES, b'x');
    let huge_file = root.join("huge.bin");
    write(&huge_file, &huge);
    let mut cells = Vec::new();
    for (i, (tool, place)) in places.iter().enumerate() {
        // One name per place: the same name in two places of one reader is a
        // contest (shadowing, or OpenCode's race between sibling folders).
        let name = format!("good-{tool}-{i}");
        let Some(good) = file_in(place, &name) else { continue };
        match place.kind {
            PlaceKind::Skills => write(&good, good_skill(&name)),
            _ => write(&good, good_agent(tool, &name)),
        }
        if *tool == "kimi" {
            write(&place.dir.join(format!("{name}.prompt")), "I am good.\n");
        }
        for (stem, bytes) in hostile(format_of(&good)) {
            write(&file_in(place, stem).expect("a file place"), bytes);
        }
        let big = file_in(place, "huge").expect("a file place");
        if !big.exists() {
            std::fs::create_dir_all(big.parent().expect("a parent")).expect("mkdir");
            std::fs::hard_link(&huge_file, &big).expect("hard link");
        }
        #[cfg(unix)]
        {
            let dangling = file_in(place, "dangling").expect("a file place");
            std::fs::create_dir_all(dangling.parent().expect("a parent")).expect("mkdir");
            let _ = std::os::unix::fs::symlink(place.dir.join("nowhere"), &dangling);
            // A folder holding a link to itself: a walk that follows links without
            // noticing the loop never ends.
            let _ = std::fs::create_dir_all(place.dir.join("loop"));
            let _ = std::os::unix::fs::symlink(place.dir.join("loop"), place.dir.join("loop/again"));
        }
        cells.push(Cell { tool, place: place.clone(), good });
    }
    cells
}

/// The file's line count, for checking that a diagnostic's line is one of them.
fn lines_of(path: &Path) -> usize {
    std::fs::read(path).map(|b| b.split(|&c| c == b'\n').count()).unwrap_or(1)
}

/// What a reader made of one file, in words for the snapshot.
fn outcome(report: &EcosystemReport, path: &Path) -> String {
    let mut words = Vec::new();
    for a in report.agents.iter().filter(|a| *a.source.path == *path) {
        words.push(format!("{:?} {}", a.kind, a.status.word()).to_lowercase());
    }
    for d in report.diagnostics.iter().filter(|d| d.path == path) {
        let at = d.line.map(|l| format!(" at line {l}")).unwrap_or_default();
        let fails = if d.source.is_some() { " failing it" } else { "" };
        words.push(format!("{:?} {:?}{at}{fails}", d.severity, d.kind).to_lowercase());
    }
    if words.is_empty() {
        "nothing".to_string()
    } else {
        words.join(", ")
    }
}

/// What a reader reported inside the looping folder: definitions and diagnostics.
fn through_loop(report: &EcosystemReport, place: &Place) -> String {
    let looped = place.dir.join("loop");
    let found = report.agents.iter().filter(|a| a.source.path.starts_with(&looped)).count();
    let kinds: BTreeSet<String> = report.diagnostics.iter().filter(|d| d.path.starts_with(&looped)).map(|d| format!("{:?} {:?}", d.severity, d.kind).to_lowercase()).collect();
    format!("{found} definitions, diagnostics: {}", if kinds.is_empty() { "none".to_string() } else { kinds.into_iter().collect::<Vec<_>>().join(", ") })
}

#[test]
fn every_reader_survives_every_bad_input_in_every_place_and_still_loads_the_good_file() {
    let root = support::Scratch::new("bad-inputs-matrix");
    std::fs::create_dir_all(root.join("project/.git")).expect(".git");
    std::fs::create_dir_all(root.join("home/.config")).expect("home");
    let first = load(&options(&root), &FileCache::new(), 1);
    let places = places(&first, &root);
    let tools: BTreeSet<&str> = places.iter().map(|(t, _)| *t).collect();
    // Tsugite, fast-agent and Kimi CLI have agents only; every reader has a place.
    assert_eq!(tools.len(), agentry::frameworks::all().len(), "a reader declares no place: {tools:?}");
    let cells = fill(&root, &places);

    let started = std::time::Instant::now();
    let catalog = load(&options(&root), &FileCache::new(), 1);
    eprintln!("{} places of {} readers loaded in {:?}", cells.len(), tools.len(), started.elapsed());

    let mut table = String::new();
    for cell in &cells {
        let report = catalog.reports.iter().find(|r| r.ecosystem == cell.tool).expect("a report per reader");
        let rel = |p: &Path| p.strip_prefix(&*root).unwrap_or(p).display().to_string();
        let good = report.agents.iter().find(|a| *a.source.path == *cell.good);
        let good = good.unwrap_or_else(|| panic!("{}: {} is not read beside the bad files", cell.tool, rel(&cell.good)));
        assert!(!matches!(good.status, Status::Invalid | Status::Skipped), "{}: {} is {:?}: {}", cell.tool, rel(&cell.good), good.status, good.rule);
        let against: Vec<&Diagnostic> = report.diagnostics.iter().filter(|d| d.path == cell.good).collect();
        assert!(against.is_empty(), "{}: a diagnostic about the good file {}: {against:#?}", cell.tool, rel(&cell.good));

        table += &format!("{} {:?} {}\n", cell.tool, cell.place.kind, rel(&cell.place.dir)).to_lowercase();
        let stems = hostile(Format::Markdown).into_iter().map(|(s, _)| s).chain(["huge", "dangling"]);
        for stem in stems {
            let path = file_in(&cell.place, stem).expect("a file place");
            table += &format!("  {stem}: {}\n", outcome(report, &path));
            for d in report.diagnostics.iter().filter(|d| d.path == path) {
                if let Some(line) = d.line {
                    assert!((line as usize) <= lines_of(&path) + 1, "{}: {} has no line {line}: {}", cell.tool, rel(&path), d.message);
                }
            }
        }
        table += &format!("  loop: {}\n", through_loop(report, &cell.place));
        check_sanitized(report.agents.iter());
    }
    insta::assert_snapshot!("outcomes", table);
}

/// Nothing a tool reports about a hostile file reaches the terminal raw.
fn check_sanitized<'a>(agents: impl Iterator<Item = &'a Agent>) {
    for a in agents {
        let shown = agentry::text::sanitize::line(&a.name);
        assert!(!shown.contains('\u{1b}') && !shown.contains('\u{202e}'), "{}: {shown:?}", a.ecosystem);
    }
}
