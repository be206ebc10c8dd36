//! Views across frameworks, built from the catalog and the places each report
//! declares ([`crate::model::Place`]), never from a framework's own code: `why` (near
//! misses of a name), `check` (findings and the CI gate), `file` (one file as every
//! tool reads it). Free of terminal code; the command line and the explorer render
//! these types.

pub mod bytes;
pub mod check;
pub mod file;
pub mod hook;
pub mod places;
pub mod walk;
pub mod why;

// The one way a view prints a path; it lives with the paths (`model`), as readers
// name paths in their messages the same way.
pub use crate::model::shown;
