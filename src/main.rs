use std::process::ExitCode;

use clap::Parser;

use agentry::cli::{exit, run, Cli};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = &cli.command else {
        eprintln!("agentry: the explorer is not built yet; try `agentry list`");
        return ExitCode::from(exit::USAGE as u8);
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(&cli.workspace, command, &mut out) {
        Ok(code) => ExitCode::from(code as u8),
        Err(f) => {
            eprintln!("agentry: {}", f.message);
            ExitCode::from(f.code as u8)
        }
    }
}
