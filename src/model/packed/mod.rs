//! Fields and attributes as the catalog keeps them. A workspace of a hundred thousand
//! agents has over a million effective fields, and as objects (an `Arc<Field>` each,
//! a boxed slice of sites, every JSON string and array its own allocation) they were
//! a third of the explorer's memory. Packed, an agent's fields are one byte string
//! and a table of the files its sites name; they are unpacked when read, which only
//! the panes on screen, a diff and the command line's output do.

mod attributes;
mod codec;
mod counted;
mod fields;
mod statics;

pub use attributes::{Attributes, AttributesBuilder};
pub use fields::Fields;
