//! How the catalog is kept in memory: the byte codec its fields and attributes are
//! packed with ([`Writer`], [`Reader`]: one JSON encoder), the numbering of the
//! program's literals that codec writes keys and rules by, the one table of shared
//! paths, and text storage (held, on disk, or in pieces). It imports nothing else of
//! the crate: `model` names what is kept, this module how.

mod codec;
mod counted;
mod json;
mod literals;
mod paths;
mod prompts;
mod text;

pub use codec::{JsonValue, Reader, Shape, Writer};
pub use counted::Counted;
pub use json::{nonfinite_marker, python_spelling, CompactJson};
pub use paths::{prune_shared_paths, shared_path, shared_path_by};
pub use prompts::Prompts;
pub use text::{digest, Part, Text, TextError, TextForm};
