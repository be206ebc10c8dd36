//! The workspace a run looks at, as the command line and the explorer both take it:
//! the folders and options ([`WorkspaceArgs`], one set of clap arguments) turned into
//! [`LoadOptions`] ([`load_options`]), the demo workspace carried inside the binary,
//! and how a run fails ([`Failure`], with the exit codes README documents).

mod demo;

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use crate::frameworks::RenderMode;
use crate::load::LoadOptions;
use crate::model::{normalize, Roots};

// The workspace arguments of every command and of the explorer (a plain comment: a
// doc comment here would change `--help`).
#[derive(Args, Debug, Clone)]
pub struct WorkspaceArgs {
    /// The project root (default: the nearest folder above the current one that
    /// holds `.git`, else the current folder).
    #[arg(long, global = true, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The folder the tools are started in, relative to the project root (default:
    /// the current folder when it is inside the project, else the project root).
    #[arg(long, global = true, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// The user has not trusted (acknowledged) the project folder: tools that ask
    /// first hold its agents.
    #[arg(long, global = true)]
    pub untrusted: bool,
    /// The home folder standing in for `~` (default: $HOME).
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The XDG config folder (default: $XDG_CONFIG_HOME, else HOME/.config).
    #[arg(long = "xdg-config", global = true, value_name = "DIR")]
    pub xdg_config: Option<PathBuf>,
    /// A folder standing in for the tools' built-in agents (default: found in
    /// the installed packages).
    #[arg(long, global = true, value_name = "DIR")]
    pub builtins: Option<PathBuf>,
    /// Only these tools for this run (repeatable; default: the project's tools, from
    /// `.agentry.yaml` `tools:` or found from their folders in the project and home).
    #[arg(long = "tool", short = 'e', visible_alias = "ecosystem", global = true, value_name = "ID")]
    pub ecosystems: Vec<String>,
    /// Every tool agentry reads, whatever the project uses (`--tool` narrows it).
    #[arg(long, global = true)]
    pub all_tools: bool,
    /// Hide the tools' built-in agents.
    #[arg(long, global = true)]
    pub no_builtins: bool,
    /// Show only agents or only skills (`agent`, `skill`); both by default.
    #[arg(long, global = true, value_name = "KIND", value_parser = parse_kind)]
    pub kind: Option<crate::model::Kind>,
    /// A reader option KEY=VALUE (repeatable), e.g. `dialect=agentcard-rfc`.
    #[arg(long = "set", global = true, value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// The AgentCard dialect: `fast-agent` (released behaviour) or `agentcard-rfc`.
    #[arg(long, global = true, value_name = "DIALECT")]
    pub dialect: Option<String>,
    /// Use the demo workspace shipped with agentry (`assets/demo/`: project and home)
    /// instead of the current folder and $HOME.
    #[arg(long, global = true)]
    pub demo: bool,
}

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
fn tool_set(ws: &WorkspaceArgs, roots: &Roots) -> Result<crate::model::toolset::ToolSet, Failure> {
    use crate::model::toolset::{Reason, ToolSet};
    let readers = crate::frameworks::all();
    let ids: Vec<&'static str> = readers.iter().map(|f| f.id()).collect();
    let mut set = if !ws.ecosystems.is_empty() {
        ToolSet::named(&ids, &ws.ecosystems, Reason::Chosen)
    } else if ws.all_tools || ws.demo {
        // The demo shows every tool agentry reads.
        ToolSet::all(ids)
    } else {
        match crate::model::toolset::configured(&roots.project).map_err(Failure::usage)? {
            Some(names) => {
                for id in &names {
                    known_tool(id, &format!(" in {}", crate::model::toolset::CONFIG_FILE))?;
                }
                ToolSet::named(&ids, &names, Reason::Configured)
            }
            None => ToolSet::detect(roots, &readers.iter().map(|f| (f.id(), f.evidence())).collect::<Vec<_>>()),
        }
    };
    set.builtins = !ws.no_builtins;
    set.kind = ws.kind;
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

fn parse_kind(word: &str) -> Result<crate::model::Kind, String> {
    crate::model::Kind::parse(word).ok_or_else(|| format!("`{word}` is not a kind: agent or skill"))
}
