//! YAML as the Python frameworks read it: PyYAML 6 `safe_load` (YAML 1.1), with the
//! file position of every node.
//!
//! The pipeline is a port of PyYAML's own, stage by stage, so acceptance, values and
//! error positions agree with it:
//!
//! * [`scanner`] — `reader.py` + `scanner.py`: characters → tokens (tabs, simple keys,
//!   escapes, block scalars, … with PyYAML's error texts and marks);
//! * [`parser`] — `parser.py`: tokens → events;
//! * [`compose`] — `composer.py` + [`resolver`] (`resolver.py`): events → a tagged node
//!   graph, plain scalars resolved by the YAML 1.1 rules (`yes` → bool, `0777` → 511,
//!   `1:30` → 90, `1e3` → str, dates, …);
//! * [`construct`] + [`scalars`] + [`key`] — `SafeConstructor`: merge keys, duplicate
//!   keys last-wins with Python equality, standard tags only;
//! * [`json`] — accessors and [`Value::to_json`].
//!
//! Deliberate differences (bounds against hostile input): [`MAX_DEPTH`], [`MAX_NODES`],
//! and recursive aliases (`&a [*a]`, which PyYAML builds as a self-containing list) are
//! errors. serde_yaml is kept for typed deserialisation of agentry's own files.

mod compose;
mod construct;
mod json;
mod key;
mod parser;
mod resolver;
mod scalars;
mod scanner;
mod value;

pub use value::{Date, DateTime, Map, Node, Span, Value, YamlError};

/// Maximum nesting depth of collections, counted after alias expansion. Deeper input is
/// an error (PyYAML itself fails with `RecursionError` at roughly this depth), so no
/// input can exhaust the stack.
pub const MAX_DEPTH: usize = 512;

/// Maximum number of nodes one document may expand to, counting every copy an alias
/// produces (keys included); merge-key expansion is capped by the same number. A
/// "billion laughs" document fails fast with "alias expansion exceeds …" before any
/// copy is made.
pub const MAX_NODES: usize = 1_000_000;

/// PyYAML `yaml.safe_load(text)`: the single document of the stream, `Ok(None)` for an
/// empty or comment-only stream (an explicit empty document `---` is `Some(Null)`), an
/// error for a second document ("expected a single document in the stream"). The text
/// length is the caller's bound; everything else is bounded by [`MAX_DEPTH`] and
/// [`MAX_NODES`].
pub fn load(text: &str) -> Result<Option<Node>, YamlError> {
    let mut composer = compose::Composer::new(text)?;
    match composer.get_single_node()? {
        None => Ok(None),
        Some(doc) => construct::Constructor::construct_document(&doc).map(Some),
    }
}

/// PyYAML `yaml.safe_load_all(text)`: every document in order. Each element is
/// `Some(node)` (an empty explicit document is a `Null` node, PyYAML's `None`); an
/// empty stream gives an empty vector. All-or-nothing: the first error is returned.
pub fn load_all(text: &str) -> Result<Vec<Option<Node>>, YamlError> {
    let mut composer = compose::Composer::new(text)?;
    let mut docs = Vec::new();
    while composer.check_node()? {
        let doc = composer.compose_document()?;
        docs.push(Some(construct::Constructor::construct_document(&doc)?));
    }
    Ok(docs)
}

#[cfg(test)]
mod tests;
