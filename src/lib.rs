//! agentry — the resolution core.
//!
//! Data flows one way: files → discover → parse → resolve → catalog. Everything in
//! this library but `tui` is free of terminal code; the command line (`cli`) and the
//! explorer (`tui`) are two views of one immutable [`model::Catalog`].

pub mod cli;
pub mod config;
pub mod diff;
pub mod discover;
pub mod export;
pub mod frameworks;
pub mod frontmatter;
pub mod installed;
pub mod jsyaml;
#[doc(hidden)]
pub mod fuzzing;
pub mod load;
pub mod loader;
pub mod model;
pub mod py;
pub mod pyscalar;
pub mod render;
pub mod store;
pub mod text;
#[cfg(feature = "tui")]
pub mod tui;
pub mod yaml;
pub mod views;
pub mod workspace;
