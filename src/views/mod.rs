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
