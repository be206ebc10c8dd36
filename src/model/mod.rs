//! The catalog's vocabulary: where a definition lives ([`Source`], [`Scope`]), what it
//! resolved to ([`Agent`], [`Field`] with its [`FieldOrigin`]), why it won or lost
//! ([`Status`] plus a rule in words) and what went wrong ([`Diagnostic`]).
//!
//! These types are the `--json` schema too: the command line serialises them as they are.

mod agent;
mod catalog;
mod diagnostic;
mod json;
mod packed;
mod paths;
mod shared;
mod source;
mod text;

pub use agent::{Agent, AgentRecord, Attribute, Edge, EdgeKind, Field, FieldOrigin, Message, Provenance, Site, Status};
pub use catalog::{Catalog, EcosystemReport, SearchDir};
pub use diagnostic::{DiagKind, Diagnostic, Failure, Severity};
pub use json::CompactJson;
pub use packed::{Attributes, AttributesBuilder, Fields};
pub use paths::{prune_shared_paths, shared_path, shared_path_by};
pub use text::{digest, Part, Text, TextError, TextForm};
pub use source::{normalize, normalized, posix, relative_to, ListingOrder, Roots, Scope, Source};
pub(crate) use source::is_normal;
