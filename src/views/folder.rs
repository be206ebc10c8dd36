//! `agentry file DIR`: every definition file below a folder (a shared
//! `.agents/skills`, a `.claude` folder) with each tool's verdict side by side —
//! loaded, shadowed, racing, skipped, listed to the model or not, not read — since
//! one folder is read by several tools with different rules. Each cell is the one-file
//! view ([`super::file`]) in a word.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::file::{self, FileReport};
use crate::frameworks::Framework;
use crate::model::{normalize, Catalog, Status};

#[derive(Clone, Debug, Serialize)]
pub struct FolderReport {
    pub dir: PathBuf,
    /// The tools of the set, in the catalog's order: the columns.
    pub tools: Vec<&'static str>,
    pub files: Vec<FileRow>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FileRow {
    pub path: PathBuf,
    /// One verdict per tool of [`FolderReport::tools`], in that order.
    pub verdicts: Vec<Verdict>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// `WINS`, `SHADOWED`, …, `not read`.
    pub word: String,
    /// The name it was loaded as, the winner that hides it, the reason it was skipped.
    pub detail: String,
}

/// The files of the catalog (definitions and files with diagnostics) below `dir`.
fn files_below(catalog: &Catalog, dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = catalog
        .agents()
        .filter(|a| !a.source.is_compiled_in())
        .map(|a| normalize(&a.source.path))
        .chain(catalog.diagnostics().filter(|d| !d.path.as_os_str().is_empty()).map(|d| normalize(&d.path)))
        .filter(|p| p.starts_with(dir) && p != dir)
        .collect();
    files.sort();
    files.dedup();
    files
}

fn verdict(report: &FileReport, tool: &str) -> Verdict {
    let Some(reading) = report.readings.iter().find(|r| r.tool == tool) else {
        return Verdict { word: "not read".into(), detail: String::new() };
    };
    let Some(d) = reading.definitions.first() else {
        let word = if reading.diagnostics.is_empty() { "not loaded" } else { "SKIPPED" };
        let detail = reading.diagnostics.first().map(|n| n.message.clone()).unwrap_or_default();
        return Verdict { word: word.into(), detail };
    };
    let mut word = d.status.word().to_string();
    if d.undocumented_order.is_some() {
        word.push_str(" (race)");
    }
    if d.listed == Some(false) && !d.status.is_unloaded() && d.status != Status::Shadowed {
        word.push_str(", unlisted");
    }
    let detail = match &d.shadowed_by {
        Some(w) => format!("`{}` → {w}", d.name),
        None => format!("`{}`", d.name),
    };
    Verdict { word, detail }
}

pub fn folder(catalog: &Catalog, frameworks: &[&dyn Framework], dir: &Path) -> FolderReport {
    let dir = normalize(dir);
    let tools: Vec<&'static str> =
        catalog.reports.iter().map(|r| r.ecosystem).filter(|id| catalog.roots.tools.contains(id)).collect();
    let files = files_below(catalog, &dir)
        .into_iter()
        .map(|path| {
            let report = file::file(catalog, frameworks, &path);
            FileRow { verdicts: tools.iter().map(|t| verdict(&report, t)).collect(), path }
        })
        .filter(|row| row.verdicts.iter().any(|v| v.word != "not read"))
        .collect();
    FolderReport { dir, tools, files }
}

/// The report as text lines (sanitised): a table, one row per file and one column per
/// tool that reads some file below the folder (the others named once under it).
pub fn lines(report: &FolderReport, roots: &crate::model::Roots) -> Vec<String> {
    use crate::text::sanitize;
    let s = |t: &str| sanitize::line(&super::quoted(t, roots)).into_owned();
    let dir = super::shown(&report.dir, roots);
    let mut out = Vec::new();
    if report.files.is_empty() {
        out.push(format!("{}: no tool of this project reads a file below it", s(&dir)));
        return out;
    }
    let reading: Vec<usize> =
        (0..report.tools.len()).filter(|&t| report.files.iter().any(|f| f.verdicts[t].word != "not read")).collect();
    let mut rows = vec![std::iter::once("FILE".to_string()).chain(reading.iter().map(|&t| report.tools[t].to_string())).collect::<Vec<_>>()];
    for row in &report.files {
        let path = s(&super::shown(&row.path, roots));
        rows.push(std::iter::once(path).chain(reading.iter().map(|&t| row.verdicts[t].word.clone())).collect());
    }
    let widths: Vec<usize> = (0..rows[0].len()).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for r in &rows {
        let cells: Vec<String> = r.iter().zip(&widths).map(|(cell, w)| format!("{cell:<w$}")).collect();
        out.push(cells.join("  ").trim_end().to_string());
    }
    let silent: Vec<&str> = (0..report.tools.len()).filter(|t| !reading.contains(t)).map(|t| report.tools[t]).collect();
    if !silent.is_empty() {
        out.push(format!("not read by {}", silent.join(", ")));
    }
    out.push("`agentry file FILE` gives one file's reasons (the rule, what shadows it, why it is skipped)".into());
    out
}
