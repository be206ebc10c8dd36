//! What agentry prints about itself: shell completions and the man page, both
//! generated from the clap definitions so they never drift from the real options.

use std::io::Write;

use clap::CommandFactory;

use super::Cli;

/// A completion script for `shell` (install lines in README).
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "agentry", out);
    Ok(())
}

/// The man page in roff, with a section for every subcommand.
pub fn man(out: &mut dyn Write) -> std::io::Result<()> {
    let command = Cli::command();
    clap_mangen::Man::new(command.clone()).render(out)?;
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        writeln!(out, ".SH \"AGENTRY {}\"", sub.get_name().to_uppercase())?;
        let man = clap_mangen::Man::new(sub.clone());
        man.render_description_section(out)?;
        man.render_options_section(out)?;
    }
    Ok(())
}
