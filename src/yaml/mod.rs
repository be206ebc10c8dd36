//! YAML as the Python frameworks read it: PyYAML 6 `safe_load` (YAML 1.1), with the
//! file position of every node.
//!
//! The pipeline is a port of PyYAML's own, stage by stage, so acceptance, values and
//! error positions agree with it:
//!
//! * `scanner` — `reader.py` + `scanner.py`: characters → tokens (tabs, simple keys,
//!   escapes, block scalars, … with PyYAML's error texts and marks);
//! * `parser` — `parser.py`: tokens → events;
//! * `compose` — `composer.py` + `resolver` (`resolver.py`): events → a tagged node
//!   graph, plain scalars resolved by the YAML 1.1 rules (`yes` → bool, `0777` → 511,
//!   `1:30` → 90, `1e3` → str, dates, …);
//! * `construct` + `scalars` + `key` — `SafeConstructor`: merge keys, duplicate keys
//!   last-wins with Python equality, standard tags only;
//! * `json` — accessors and [`Value::to_json`];
//! * `fast` — a one-pass loader for the block-style subset nearly every agent file is
//!   written in, producing exactly the pipeline's nodes; anything outside the subset
//!   goes through the whole pipeline above.
//!
//! Every rule is pinned by goldens from the real PyYAML 6.0.3
//! (`tests/goldens/pyyaml`, both `SafeLoader` and `CSafeLoader`, see [`Loader`]).
//!
//! Known differences from PyYAML, all deliberate or unrepresentable:
//!
//! * bounds against hostile input: nesting deeper than [`MAX_DEPTH`] and documents that
//!   expand past [`MAX_NODES`] nodes are errors;
//! * recursive aliases (`&a [*a]`, which PyYAML builds as a self-containing list) are
//!   errors;
//! * a set ([`Value::Set`]) keeps first-occurrence order; Python prints sets in hash
//!   order, so `repr()` of a set can list the same items in another order;
//! * `!!omap`/`!!pairs` items are Python tuples; here they are 2-item lists, so their
//!   `repr()` shows `['k', 1]` instead of `('k', 1)`;
//! * escapes that Python turns into lone surrogates (`"\ud800"`) are errors (a Rust
//!   string cannot hold them);
//! * integers beyond about 4300 decimal digits are errors (Python refuses to print them
//!   anyway);
//! * error messages are PyYAML's `context: problem` texts at PyYAML's problem mark; for
//!   `CSafe`, only acceptance and values follow libyaml, not its error texts.
//!
//! serde_yaml is kept for typed deserialisation of agentry's own files.

mod compose;
mod construct;
mod fast;
mod json;
mod key;
mod parser;
pub mod repr;
mod resolver;
mod scalars;
mod scanner;
mod value;

pub use json::json_nonfinite;
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

/// Which PyYAML loader to mirror. Both build the same values (same resolver and safe
/// constructor); they differ in what the scanner accepts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Loader {
    /// `yaml.safe_load` / `yaml.SafeLoader`, pure Python — the reference.
    #[default]
    Safe,
    /// `yaml.CSafeLoader` (libyaml 0.2.5; OpenHands reads front matter with it). Modelled
    /// differences: tabs separate tokens after `key:`, inside flow collections, inside
    /// plain scalars, after tags and block-scalar headers (`a:\t1` loads); a BOM at the
    /// start of any line is skipped; `?` does not end a plain scalar in flow context and
    /// `:` followed by a flow indicator there is an error; `,[]` end a non-verbatim tag;
    /// `|#c` is a header with a comment; a tab in block-scalar indentation, unknown `%`
    /// directives and `[?]`-style empty flow keys are errors. libyaml's own error texts
    /// and marks are not modelled (errors read as the pure loader's).
    CSafe,
}

/// PyYAML `yaml.safe_load(text)`: the single document of the stream, `Ok(None)` for an
/// empty or comment-only stream (an explicit empty document `---` is `Some(Null)`), an
/// error for a second document ("expected a single document in the stream"). The text
/// length is the caller's bound; everything else is bounded by [`MAX_DEPTH`] and
/// [`MAX_NODES`].
pub fn load(text: &str) -> Result<Option<Node>, YamlError> {
    load_with(text, Loader::Safe)
}

/// [`load`] with the rules of the given PyYAML [`Loader`].
pub fn load_with(text: &str, loader: Loader) -> Result<Option<Node>, YamlError> {
    match fast::load(text) {
        Some(node) => Ok(Some(node)),
        None => load_full_pipeline(text, loader),
    }
}

/// [`load_with`] through every stage (scanner, parser, composer, constructor), without
/// the fast path for common documents.
fn load_full_pipeline(text: &str, loader: Loader) -> Result<Option<Node>, YamlError> {
    let mut composer = compose::Composer::new(text, loader)?;
    match composer.get_single_node()? {
        None => Ok(None),
        Some(doc) => construct::Constructor::construct_document(&doc).map(Some),
    }
}

/// PyYAML `yaml.safe_load_all(text)`: every document in order. Each element is
/// `Some(node)` (an empty explicit document is a `Null` node, PyYAML's `None`); an
/// empty stream gives an empty vector. All-or-nothing: the first error is returned.
pub fn load_all(text: &str) -> Result<Vec<Option<Node>>, YamlError> {
    load_all_with(text, Loader::Safe)
}

/// [`load_all`] with the rules of the given PyYAML [`Loader`].
pub fn load_all_with(text: &str, loader: Loader) -> Result<Vec<Option<Node>>, YamlError> {
    match fast::load_documents(text, usize::MAX) {
        Some(docs) => Ok(docs.into_iter().map(Some).collect()),
        None => load_all_full_pipeline(text, loader),
    }
}

/// [`load_all_with`] through every stage, without the fast path.
fn load_all_full_pipeline(text: &str, loader: Loader) -> Result<Vec<Option<Node>>, YamlError> {
    let mut composer = compose::Composer::new(text, loader)?;
    let mut docs = Vec::new();
    while composer.check_node()? {
        let doc = composer.compose_document()?;
        docs.push(Some(construct::Constructor::construct_document(&doc)?));
    }
    Ok(docs)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fast_tests;
