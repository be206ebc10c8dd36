//! The edits the refresh benchmarks make: which file of each framework, and what is
//! appended to it.

use std::path::{Path, PathBuf};

use agentry::model::{Catalog, Status};

/// For each framework, the first of its agent files that is a plain file in the
/// project, valid (an edit appends a comment, which keeps it valid), and a leaf: no
/// other agent inherits from it (editing a base re-resolves its descendants too).
pub fn leaf_files(c: &Catalog) -> Vec<(&'static str, PathBuf)> {
    let parents: std::collections::HashSet<&str> =
        c.agents().flat_map(|a| a.chain.iter().skip(1).map(String::as_str)).collect();
    c.reports
        .iter()
        .filter_map(|r| {
            r.agents
                .iter()
                .filter(|a| a.status != Status::Invalid && !parents.contains(a.source.key().as_str()))
                .map(|a| a.source.path.to_path_buf())
                .find(|p| p.starts_with(&c.roots.project) && p.is_file())
                .map(|p| (r.ecosystem, p))
        })
        .collect()
}

/// A comment line in the file's own syntax.
pub fn comment(path: &Path, round: usize) -> String {
    match path.extension().and_then(|e| e.to_str()) {
        Some("yaml" | "yml") => format!("\n# edit {round}\n"),
        _ => format!("\n<!-- edit {round} -->\n"),
    }
}
