//! Views across frameworks, built from the catalog and each framework's declared
//! [`crate::frameworks::Location`]s, never from a framework's own code: `why` (near
//! misses of a name), `check` (findings and the CI gate), `file` (one file as every
//! tool reads it). Free of terminal code; the command line and the explorer render
//! these types.

pub mod bytes;
pub mod check;
pub mod file;
pub mod places;
pub mod walk;
pub mod why;

use std::path::Path;

use crate::model::Roots;

/// A path as people read it: below the project relative to it (`.` for the project
/// itself), below home as `~/…`, else as it is.
pub fn shown(path: &Path, roots: &Roots) -> String {
    if let Ok(rel) = path.strip_prefix(&roots.project) {
        let rel = crate::model::posix(rel);
        return if rel.is_empty() { ".".into() } else { rel };
    }
    if let Ok(rel) = path.strip_prefix(&roots.home) {
        return format!("~/{}", crate::model::posix(rel));
    }
    path.display().to_string()
}
