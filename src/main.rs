use std::process::ExitCode;

use clap::Parser;

use agentry::cli::{exit, load_for, write, Cli};

// A load allocates millions of small strings and maps from two threads; glibc malloc
// spent about a third of a load's instructions (and one mprotect per heap growth in
// the worker's arena), mimalloc a fraction of that.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = &cli.command else {
        return explore(&cli);
    };
    // Line-buffered stdout would cost one write per line of a large JSON document.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    // What was loaded is never dropped: freeing every file, parse and agent one by
    // one took a tenth of a large workspace's `list` (callgrind), and the process is
    // about to exit, which frees it all at once.
    let result = if command.needs_no_workspace() {
        agentry::cli::write_without_workspace(command, &mut out)
    } else if let agentry::cli::Command::Tools { json } = command {
        agentry::cli::tools(&cli.workspace, *json, &mut out)
    } else {
        load_for(&cli.workspace, command).and_then(|loaded| {
        if let Some(line) = agentry::cli::tools_line(command, &loaded.0) {
            if let Some(demo) = agentry::cli::demo_line(&cli.workspace, &loaded.0) {
                eprintln!("{demo}");
            }
            eprintln!("{line}");
        }
        let code = write(command, &loaded.0, &mut out);
        std::mem::forget(loaded);
        code
    })
    };
    if let Err(e) = std::io::Write::flush(&mut out) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("agentry: cannot write output: {e}");
            return ExitCode::from(exit::USAGE as u8);
        }
    }
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(f) => {
            eprintln!("agentry: {}", f.message);
            ExitCode::from(f.code as u8)
        }
    }
}

/// The explorer: what `agentry` with no subcommand starts.
#[cfg(feature = "tui")]
fn explore(cli: &Cli) -> ExitCode {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        eprintln!("agentry: the explorer needs a terminal; for text or JSON output use a subcommand (`agentry list`, `agentry check`, `agentry --help`)");
        return ExitCode::from(exit::USAGE as u8);
    }
    let options = agentry::tui::Options {
        theme: cli.theme.clone(),
        no_watch: cli.no_watch,
        poll: cli.poll,
    };
    match agentry::tui::run(&cli.workspace, &options) {
        Ok(code) => ExitCode::from(code as u8),
        Err(f) => {
            eprintln!("agentry: {}", f.message);
            ExitCode::from(f.code as u8)
        }
    }
}

#[cfg(not(feature = "tui"))]
fn explore(_cli: &Cli) -> ExitCode {
    eprintln!("agentry: this build has no explorer (built without the `tui` feature); use a subcommand (`agentry list`, `agentry --help`)");
    ExitCode::from(exit::USAGE as u8)
}
