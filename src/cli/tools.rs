//! `agentry tools`: each reader, the release whose rules it follows, and the release
//! installed on this machine (found in package folders, never run); and the same
//! table of followed releases as README shows it.

use std::io::{self, Write};

use super::output::{json_out, SCHEMA};
use super::{exit, load_options, Failure, WorkspaceArgs};
use crate::discover::FileCache;
use crate::frameworks::{Framework, RenderMode};
use crate::installed::{table, Machine};
use crate::text::sanitize;

/// Prints the table for the frameworks `ws` selects, with what is installed under
/// its home folder and environment. Never fails the run.
pub fn tools(ws: &WorkspaceArgs, json: bool, out: &mut dyn Write) -> Result<i32, Failure> {
    let opts = load_options(ws, RenderMode::Live { user_prompt: String::new() })?;
    let machine = Machine { home: &opts.roots.home, env: &opts.env };
    let cache = FileCache::for_one_load();
    // The project's tools (`--all-tools`: every reader), as every view shows them.
    let shown: Vec<_> = opts.frameworks().into_iter().filter(|f| opts.roots.tools.contains(f.id())).collect();
    let rows = table(releases(&shown), cache.untracked(), Some(&machine));
    let io = |e: io::Error| Failure { code: exit::USAGE, message: format!("cannot write output: {e}") };
    if json {
        json_out(out, &serde_json::json!({ "schema": SCHEMA, "tools": rows })).map_err(io)?;
        return Ok(exit::OK);
    }
    let mut lines = vec![["TOOL", "ID", "FOLLOWS", "INSTALLED", "WHERE"].map(String::from).to_vec()];
    for row in &rows {
        let (installed, place) = match row.installed.first() {
            Some(i) => {
                let mark = if row.differs() { " (differs)" } else { "" };
                (format!("{}{mark}", i.version), format!("{}: {}", i.how, crate::views::shown(&i.path, &opts.roots)))
            }
            None => ("-".to_string(), "not found".to_string()),
        };
        lines.push(vec![row.title.to_string(), row.tool.to_string(), row.follows.to_string(), installed, place]);
    }
    let lines: Vec<Vec<String>> =
        lines.iter().map(|l| l.iter().map(|c| sanitize::line(c).into_owned()).collect()).collect();
    super::output::table(out, &lines).map_err(io)?;
    Ok(exit::OK)
}

/// The table of followed releases as README shows it (between the `releases:start`
/// and `releases:end` markers), made from the readers.
pub fn releases_markdown(frameworks: &[&dyn Framework]) -> String {
    let mut text = String::from("| Tool | `--tool` | Follows | Packages |\n|---|---|---|---|\n");
    for row in table(releases(frameworks), FileCache::for_one_load().untracked(), None) {
        let packages: Vec<String> = row.packages.iter().map(|p| format!("`{p}`")).collect();
        text.push_str(&format!("| {} | `{}` | {} | {} |\n", row.title, row.tool, row.follows, packages.join(", ")));
    }
    text
}

/// Each reader's id and the release it follows.
fn releases(frameworks: &[&dyn Framework]) -> Vec<(&'static str, crate::installed::Release)> {
    frameworks.iter().filter_map(|f| Some((f.id(), f.release()?))).collect()
}
