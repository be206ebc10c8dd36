use std::process::ExitCode;

use clap::Parser;

use agentry::cli::{run, Cli};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = &cli.command else {
        let options = agentry::tui::Options { theme: cli.theme.clone(), no_watch: cli.no_watch, poll: cli.poll };
        return match agentry::tui::run(&cli.workspace, &options) {
            Ok(code) => ExitCode::from(code as u8),
            Err(f) => {
                eprintln!("agentry: {}", f.message);
                ExitCode::from(f.code as u8)
            }
        };
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
