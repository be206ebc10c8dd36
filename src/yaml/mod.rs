//! YAML as the Python frameworks read it: PyYAML 6 `safe_load` (YAML 1.1), with the
//! file position of every node.
//!
//! A span-aware pure-Rust event parser (saphyr-parser) reads the syntax; [`resolve`]
//! applies PyYAML's implicit resolver (`yes` → bool, `0777` → 511, `1:30` → 90,
//! `1e3` → string, dates, …) and its safe constructor (merge keys, duplicate keys
//! last-wins, standard tags only). serde_yaml is kept for typed deserialisation of
//! agentry's own files.

mod interim;
mod value;

pub use interim::{load, load_all};

pub use value::{Date, DateTime, Map, Node, Span, Value, YamlError};
