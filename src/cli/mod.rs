//! The command line: a thin view of one [`Catalog`]. Every command has human output
//! (sanitised, aligned) and `--json` (the model types, serialised).

mod args;
mod check;
mod demo;
mod diff;
mod meta;
mod output;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

pub use args::{CheckFormat, Cli, ColorChoice, Command, WorkspaceArgs};

use crate::discover::FileCache;
use crate::frameworks::RenderMode;
use crate::load::{load, LoadOptions};
use crate::model::{normalize, Catalog, Roots};

/// Exit codes, as README documents them.
pub mod exit {
    /// Success; for `check`, no findings.
    pub const OK: i32 = 0;
    /// `check` found problems; `why`/`show` found no agent of that name.
    pub const FINDINGS: i32 = 1;
    /// The command line was wrong.
    pub const USAGE: i32 = 2;
}

/// An error that ends the command with a message and an exit code.
pub struct Failure {
    pub code: i32,
    pub message: String,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: exit::USAGE,
            message: message.into(),
        }
    }
}

/// Turns the workspace arguments into load options. Defaults: project = the current
/// folder, home = `$HOME`, xdg = `$XDG_CONFIG_HOME` or `HOME/.config` (with an
/// explicit `--home`, `HOME/.config`).
pub fn load_options(ws: &WorkspaceArgs, render: RenderMode) -> Result<LoadOptions, Failure> {
    let demo = if ws.demo { Some(demo_dir()?) } else { None };
    let cwd = std::env::current_dir()
        .map_err(|e| Failure::usage(format!("cannot read the current folder: {e}")))?;
    let cwd = normalize(&cwd);
    let default_project = demo.as_ref().map(|d| d.join("project")).unwrap_or_else(|| repository_root(&cwd));
    let project = normalize(&ws.project.clone().unwrap_or(default_project));
    let start = match &ws.cwd {
        Some(dir) => normalize(&project.join(dir)),
        None if demo.is_none() && cwd.starts_with(&project) => cwd.clone(),
        None => project.clone(),
    };
    let home = match (&ws.home, &demo) {
        (Some(h), _) => normalize(h),
        // The demo's home stands in for `~`; its XDG folder is `home/.config` below.
        (None, Some(d)) => d.join("home"),
        (None, None) => std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| project.clone()),
    };
    let explicit_home = ws.home.is_some() || demo.is_some();
    let xdg = match (
        &ws.xdg_config,
        explicit_home,
        std::env::var_os("XDG_CONFIG_HOME"),
    ) {
        (Some(x), _, _) => normalize(x),
        (None, false, Some(x)) if !x.is_empty() => normalize(&PathBuf::from(x)),
        _ => home.join(".config"),
    };
    for id in &ws.ecosystems {
        known_tool(id, "")?;
    }
    let mut options = BTreeMap::new();
    for kv in &ws.set {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| Failure::usage(format!("--set wants KEY=VALUE, got `{kv}`")))?;
        options.insert(k.trim().to_string(), v.trim().to_string());
    }
    if let Some(d) = &ws.dialect {
        options.insert("dialect".into(), d.clone());
    }
    let env = match &demo {
        // The demo's environment is fixed, so it shows the same on every machine: its
        // `venv/` plays the frameworks' installed packages (built-in agents are found
        // there the way a user's `$VIRTUAL_ENV` is searched), and nothing of the
        // user's environment (`OH_PERSISTENCE_DIR`, `FAST_AGENT_HOME`, …) leaks in.
        Some(d) => BTreeMap::from([
            ("HOME".to_string(), home.display().to_string()),
            (
                "VIRTUAL_ENV".to_string(),
                d.join("venv").display().to_string(),
            ),
        ]),
        None => std::env::vars().collect(),
    };
    let mut roots = Roots::new(project, home, xdg, ws.builtins.as_deref().map(normalize));
    roots.cwd = start;
    roots.trusted = !ws.untrusted;
    roots.tools = tool_set(ws, &roots)?;
    Ok(LoadOptions {
        roots,
        // Every tool loads: the views show the tool set's, and `why` and `file` name
        // the others that read a file.
        ecosystems: Vec::new(),
        render,
        env,
        options,
        texts: crate::model::TextForm::Held,
    })
}

/// Refuses a tool id agentry has no reader for, with the nearest known id.
fn known_tool(id: &str, from: &str) -> Result<(), Failure> {
    if crate::frameworks::by_id(id).is_some() {
        return Ok(());
    }
    let known: Vec<_> = crate::frameworks::all().iter().map(|f| f.id()).collect();
    let near = known.iter().find(|k| k.starts_with(id) || id.starts_with(**k)).map(|k| format!("; did you mean `{k}`?")).unwrap_or_default();
    Err(Failure::usage(format!("unknown tool `{id}`{from}{near} (known: {})", known.join(", "))))
}

/// The tools the views show: `--all-tools`, `-e/--tool`, the project's
/// `.agentry.yaml`, else those found from their folders in the project and home.
fn tool_set(ws: &WorkspaceArgs, roots: &Roots) -> Result<crate::toolset::ToolSet, Failure> {
    use crate::toolset::{Reason, ToolSet};
    let mut set = if !ws.ecosystems.is_empty() {
        ToolSet::named(&ws.ecosystems, Reason::Chosen)
    } else if ws.all_tools || ws.demo {
        // The demo shows every tool agentry reads.
        ToolSet::all()
    } else {
        match crate::toolset::configured(&roots.project).map_err(Failure::usage)? {
            Some(ids) => {
                for id in &ids {
                    known_tool(id, &format!(" in {}", crate::toolset::CONFIG_FILE))?;
                }
                ToolSet::named(&ids, Reason::Configured)
            }
            None => ToolSet::detect(roots, &crate::frameworks::all()),
        }
    };
    set.builtins = !ws.no_builtins;
    Ok(set)
}

/// The repository a folder is in, as the coding-agent tools find it: the nearest
/// folder from `dir` up that holds `.git` (a folder, or a file in a worktree); `dir`
/// itself when there is none.
pub fn repository_root(dir: &std::path::Path) -> PathBuf {
    dir.ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        .unwrap_or(dir)
        .to_path_buf()
}

/// The demo workspace (`project/` and `home/`), carried inside the binary and laid
/// out in the user's cache folder on first use.
pub fn demo_dir() -> Result<PathBuf, Failure> {
    demo::folder().map_err(|e| Failure::usage(format!("cannot lay out the demo workspace: {e}")))
}

/// Whether output gets ANSI colours: `auto` means standard output is a terminal and
/// `NO_COLOR` is unset or empty (<https://no-color.org>).
pub fn use_colour(choice: ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// What `command` prints when it needs no workspace (completions, the man page).
pub fn write_without_workspace(command: &Command, out: &mut dyn Write) -> Result<i32, Failure> {
    let empty = Catalog { generation: 0, roots: Roots::new(PathBuf::new(), PathBuf::new(), PathBuf::new(), None), reports: Vec::new() };
    write(command, &empty, out)
}

/// Loads what `command` shows: the catalog, and the cache it was read through.
pub fn load_for(ws: &WorkspaceArgs, command: &Command) -> Result<(Catalog, FileCache), Failure> {
    let render = match command {
        Command::Export { .. } => RenderMode::Export,
        _ => RenderMode::Live {
            user_prompt: String::new(),
        },
    };
    let mut opts = load_options(ws, render)?;
    if matches!(command, Command::Export { .. }) {
        // The resolution report is the tool's own view: one tool, never filtered.
        if ws.ecosystems.len() != 1 {
            return Err(Failure::usage("export needs exactly one --tool (-e)"));
        }
        opts.ecosystems = ws.ecosystems.clone();
    }
    let cache = FileCache::for_one_load();
    let catalog = load(&opts, &cache, 1);
    Ok((catalog, cache))
}

/// The line a command says about the tool set (for people, on standard error), or
/// `None` when its output is all machine-read (JSON, SARIF, annotations) or it shows
/// no workspace or the resolution report.
pub fn tools_line(command: &Command, catalog: &Catalog) -> Option<String> {
    let machine = match command {
        Command::List { json } | Command::Why { json, .. } | Command::Show { json, .. } | Command::File { json, .. } => *json,
        Command::Diff { json, .. } => *json,
        Command::Check { json, format, .. } => *json || *format != CheckFormat::Text,
        Command::Export { .. } | Command::Completions { .. } | Command::Man => true,
    };
    (!machine).then(|| catalog.roots.tools.describe())
}

/// Where `--demo` laid out its workspace, said once on standard error: the demo is
/// unpacked into the cache folder on first use, the one thing agentry writes.
pub fn demo_line(ws: &WorkspaceArgs, catalog: &Catalog) -> Option<String> {
    let folder = catalog.roots.project.parent()?;
    // The user's own home, not the demo's, names the cache folder.
    let user = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let shown = crate::views::shown(folder, &Roots { project: PathBuf::from("\0"), home: user, ..catalog.roots.clone() });
    ws.demo.then(|| format!("demo workspace: unpacked in {shown} (project/ and home/)"))
}

/// Writes what `command` prints of `catalog` to `out`; returns the exit code.
pub fn write(command: &Command, catalog: &Catalog, out: &mut dyn Write) -> Result<i32, Failure> {
    let io = |e: std::io::Error| Failure {
        code: exit::USAGE,
        message: format!("cannot write output: {e}"),
    };
    // The views show the tool set's agents; `why` and `file` see every tool, to name
    // the others that read a file; `export` is the tool's own, unfiltered report.
    let shown = catalog.view();
    let every = crate::frameworks::all();
    match command {
        Command::Export { .. } => {
            crate::export::write(&catalog.reports[0], &mut *out).map_err(|e| io(e.into()))?;
            writeln!(out).map_err(io)?;
            Ok(exit::OK)
        }
        Command::List { json } => output::list(&shown, *json, out).map_err(io),
        Command::Why { name, json } => output::why(catalog, &every, name, *json, out).map_err(io),
        Command::File { path, json } => {
            // A relative path names a file of the current folder, else of the folder
            // the tools start in (with `--demo` or `--project` that is elsewhere).
            let cwd = std::env::current_dir().map_err(|e| Failure::usage(format!("cannot read the current folder: {e}")))?;
            let here = cwd.join(path);
            let path = if path.is_relative() && !here.exists() { catalog.roots.cwd.join(path) } else { here };
            output::file(catalog, &every, &normalize(&path), *json, out).map_err(io)
        }
        Command::Show {
            name,
            origins,
            source,
            json,
        } => output::show(&shown, name, source.as_deref(), *origins, *json, out).map_err(io),
        Command::Check { json, format, fail_on, baseline, notes } => {
            let format = if *json { CheckFormat::Json } else { *format };
            check::check(&shown, &check::CheckArgs { format, fail_on, baseline: baseline.as_ref(), notes: *notes }, out)
        }
        Command::Completions { shell } => meta::completions(*shell, out).map(|_| exit::OK).map_err(io),
        Command::Man => meta::man(out).map(|_| exit::OK).map_err(io),
        Command::Diff {
            name,
            against,
            json,
            side_by_side,
            context,
            color,
        } => {
            let style = diff::Style {
                colour: use_colour(*color),
                side_by_side: *side_by_side,
                context: *context,
            };
            diff::diff(&shown, name, against.as_deref(), *json, &style, out).map_err(io)
        }
    }
}
