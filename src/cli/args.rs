//! The command line, as clap types.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::workspace::WorkspaceArgs;

#[derive(Parser, Debug)]
#[command(name = "agentry", version, about = "Explore AI-agent definitions: where each came from, why it won, what it inherited and what the model reads.")]
pub struct Cli {
    #[command(flatten)]
    pub workspace: WorkspaceArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The explorer's theme: dark, light or mono (default: the config's; NO_COLOR
    /// selects mono).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Do not watch the search folders; `r` still reloads.
    #[arg(long)]
    pub no_watch: bool,
    /// Poll the search folders every SECS seconds instead of watching them.
    #[arg(long, value_name = "SECS")]
    pub poll: Option<u64>,
}

/// When to colour output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when standard output is a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the resolution report of one tool (`agentry.resolution/1`).
    Export {
        #[arg(long)]
        json: bool,
    },
    /// Every definition: name, tool, status, scope and path.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Every source of one name, status word first, with the rule that decided it; in
    /// each tool where it is not active, every near miss (exit 1 when it is
    /// active nowhere).
    Why {
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// The effective fields of the winning definition of a name.
    Show {
        name: String,
        /// Each field's file:line and the rule that set it.
        #[arg(long)]
        origins: bool,
        /// Show this source instead of the winner (a source key or a path).
        #[arg(long, value_name = "SOURCE")]
        source: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// What each tool tells its model exists: the agents and skills it lists, as the
    /// model reads the listing where known, and those it loads but does not list.
    Listing {
        #[arg(long)]
        json: bool,
    },
    /// The winner of a name against another definition of it: field by field, the
    /// two files as text and the two rendered prompts (`diff -u` style when piped).
    Diff {
        name: String,
        /// The definition to compare with (a source key or a path; default: the first
        /// shadowed one).
        #[arg(long, value_name = "SOURCE")]
        against: Option<String>,
        #[arg(long)]
        json: bool,
        /// Two columns instead of one unified listing.
        #[arg(long)]
        side_by_side: bool,
        /// Unchanged lines shown around each change.
        #[arg(long, short = 'U', value_name = "LINES", default_value_t = 3)]
        context: usize,
        #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
    },
    /// Every problem in the workspace, one per line: `path:line:col: severity: kind: tool:
    /// message`; exits 1 when a finding `--fail-on` names is found.
    Check {
        /// The same as `--format json`.
        #[arg(long)]
        json: bool,
        /// text, json, sarif (SARIF 2.1.0) or github (workflow annotations).
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// What fails the run besides errors (repeatable or comma-separated): error,
        /// warning, skipped, held, shadowed, undocumented, new-shadow (with --baseline).
        #[arg(long = "fail-on", value_name = "WHAT", value_delimiter = ',')]
        fail_on: Vec<crate::views::check::FailOn>,
        /// A saved `check --format json`: findings it holds never fail the run.
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
        /// Also print the notes (files a tool skips or reads only when asked for by
        /// name, built-ins not installed); without it only problems are printed.
        #[arg(long)]
        notes: bool,
    },
    /// One file as every tool reads it: loaded as what, which keys each reads or
    /// ignores, where it stands in each tool's ladder; or which tools would read it where.
    File {
        path: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Each tool agentry reads: the release whose rules it follows, and the release
    /// installed here (read from package folders; no tool is run, nothing is fetched).
    Tools {
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `agentry man > agentry.1`.
    Man,
}

impl Command {
    /// Whether the command prints something about the program itself rather than a
    /// workspace (no load).
    pub fn needs_no_workspace(&self) -> bool {
        matches!(self, Command::Completions { .. } | Command::Man)
    }
}

/// `check`'s output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    Sarif,
    Github,
}
