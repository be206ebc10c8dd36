//! The command line: a thin view of one [`Catalog`]. Every command has human output
//! (sanitised, aligned) and `--json` (the model types, serialised).

mod args;
mod check;
mod diff;
mod meta;
mod output;
mod tools;

use std::io::Write;
use std::path::PathBuf;

pub use args::{CheckFormat, Cli, ColorChoice, Command};
pub use tools::{releases_markdown, tools};
// What the explorer shares with the command line: the workspace and how a run fails.
pub use crate::workspace::{demo_dir, exit, load_options, repository_root, Failure, WorkspaceArgs};

use crate::discover::FileCache;
use crate::frameworks::RenderMode;
use crate::load::load;
use crate::model::{normalize, Catalog, Roots};

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
        Command::Listing { json } => *json,
        Command::Diff { json, .. } => *json,
        Command::Check { json, format, .. } => *json || *format != CheckFormat::Text,
        Command::Export { .. } | Command::Tools { .. } | Command::Completions { .. } | Command::Man => true,
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
        Command::Listing { json } => output::listing(&shown, &every, *json, out).map_err(io),
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
        // It reads the machine, not a workspace: [`tools`] runs it from the options.
        Command::Tools { .. } => Err(Failure::usage("`agentry tools` loads no workspace; run it with cli::tools")),
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
