//! A tool that refuses to start because of one file ([`EcosystemReport::refusal`]):
//! every view says so once, naming the file and line, and shows the tool's agents
//! with the status they have once that file is fixed (the tool itself shows none).

use std::path::PathBuf;

use serde::Serialize;

use crate::model::{Catalog, Diagnostic, EcosystemReport, Roots};
use crate::text::sanitize;

/// One tool that does not start, and the file that stops it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refusal {
    pub tool: &'static str,
    pub title: &'static str,
    /// The file that stops it.
    pub path: PathBuf,
    pub line: Option<u32>,
    pub col: Option<u32>,
    /// The tool's message about the file.
    pub message: String,
}

impl Refusal {
    pub fn of(report: &EcosystemReport) -> Option<Refusal> {
        let d = report.refusal()?;
        Some(Refusal {
            tool: report.ecosystem,
            title: title(report.ecosystem),
            path: d.path.clone(),
            line: d.line,
            col: d.col,
            message: d.message.clone(),
        })
    }

    /// Every tool of `catalog` that refuses to start, in the catalog's order.
    pub fn all(catalog: &Catalog) -> Vec<Refusal> {
        catalog.reports.iter().filter_map(|r| Refusal::of(r)).collect()
    }

    /// `OpenCode refuses to start: opencode.json:3: <the message's first line>`
    /// (sanitised; paths as every view writes them).
    pub fn line(&self, roots: &Roots) -> String {
        let mut at = super::shown(&self.path, roots);
        if let Some(l) = self.line {
            at.push_str(&format!(":{l}"));
        }
        let message = super::quoted(&self.message, roots);
        // The message's first line, without the tool's own word that it refuses.
        let said = format!(" ({} refuses to start)", self.title);
        let first = message.lines().next().unwrap_or_default().replace(&said, "");
        sanitize::line(&format!("{} refuses to start: {at}: {first}", self.title)).into_owned()
    }
}

/// The words that open the message of the diagnostic that stops a tool.
pub fn headline(title: &str) -> String {
    format!("{title} refuses to start because of this file")
}

/// What opens the message of the diagnostic that stops the tool `title`: its
/// [`headline`], unless the tool's message says so already.
pub fn opening(title: &str, message: &str) -> Option<String> {
    (!message.contains("refuses to start")).then(|| headline(title))
}

/// The message of the diagnostic that stops the tool `title`, as the views show it.
pub fn stopping_message(title: &str, message: &str) -> String {
    match opening(title, message) {
        Some(head) => format!("{head}: {message}"),
        None => message.to_string(),
    }
}

/// The title of the tool `d` stops from starting, when `d` is the problem that
/// stops it (not merely another problem of a tool that does not start).
pub fn stops(catalog: &Catalog, d: &Diagnostic) -> Option<&'static str> {
    catalog
        .reports
        .iter()
        .find(|r| r.refusal().is_some_and(|f| std::ptr::eq(f, d)))
        .map(|r| title(r.ecosystem))
}

/// A tool's name as people know it (its id when agentry has no such reader).
fn title(id: &'static str) -> &'static str {
    crate::frameworks::by_id(id).map_or(id, |f| f.title())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DiagKind, Diagnostic};

    fn refused() -> (Catalog, Roots) {
        let roots = Roots::new("/w/p".into(), "/w/h".into(), "/w/h/.config".into(), None);
        let mut report = EcosystemReport::new("opencode");
        report.diagnostics.push(Diagnostic::warning("opencode", DiagKind::Parse, "/w/p/.opencode/agents/a.md", "unread"));
        let stop = Diagnostic::error("opencode", DiagKind::Parse, "/w/p/opencode.json", "Config file is not valid JSON(C): x\nmore");
        report.diagnostics.push(stop.at(Some(3), Some(5)).fatal());
        let catalog = Catalog { generation: 1, roots: roots.clone(), reports: vec![std::sync::Arc::new(report)] };
        (catalog, roots)
    }

    #[test]
    fn a_refusal_names_the_tool_the_file_and_line_once() {
        let (catalog, roots) = refused();
        let all = Refusal::all(&catalog);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].line(&roots), "OpenCode refuses to start: opencode.json:3: Config file is not valid JSON(C): x");
        let titles: Vec<_> = catalog.diagnostics().map(|d| stops(&catalog, d)).collect();
        assert_eq!(titles, [None, Some("OpenCode")]);
        assert_eq!(stopping_message("OpenCode", "bad JSON"), "OpenCode refuses to start because of this file: bad JSON");
        // A tool's message that says it already is not told twice.
        assert_eq!(stopping_message("OpenCode", "invalid (OpenCode refuses to start)"), "invalid (OpenCode refuses to start)");
    }

    #[test]
    fn a_tool_without_a_fatal_problem_starts() {
        let (catalog, _) = refused();
        let mut report = (*catalog.reports[0]).clone();
        report.diagnostics.retain(|d| !d.fatal);
        assert_eq!(Refusal::of(&report), None);
    }
}
