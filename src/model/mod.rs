//! The catalog's vocabulary: where a definition lives ([`Source`], [`Scope`]), what it
//! resolved to ([`Agent`], an agent or a skill by its [`Kind`]; [`Field`] with its [`FieldOrigin`]), why it won or lost
//! ([`Status`] plus a rule in words) and what went wrong ([`Diagnostic`]).
//!
//! These types are the `--json` schema too: the command line serialises them as they are.
//! How they are kept in memory (packed, on disk, shared) is [`crate::store`]'s.

mod agent;
mod attributes;
mod catalog;
mod diagnostic;
mod fields;
mod path;
mod place;
pub mod toolset;
mod source;
mod walking;

pub use agent::{Agent, AgentRecord, Attribute, Edge, EdgeKind, Field, FieldOrigin, Kind, Message, Provenance, Site, Status};
pub use catalog::{Catalog, EcosystemReport};
pub use place::{numbered, Place, PlaceKind, Reach};
pub use diagnostic::{DiagKind, Diagnostic, Failure, Severity};
pub use attributes::{Attributes, AttributesBuilder};
pub use fields::Fields;
// Kept by `store`; named here too as they are the vocabulary's value and text types.
pub use crate::store::{digest, CompactJson, Part, Text, TextError, TextForm};
pub use path::{normalize, normalized, posix, relative_to, shown, stem, suffix};
pub(crate) use path::is_normal;
pub use source::{ListingOrder, Roots, Scope, Source};
pub use walking::{Links, Loops, Order, Traversal, Walking};
