//! Qwen Code's front-matter YAML (`packages/core/src/utils/yaml-parser.ts`,
//! `parse`): the `yaml` package (eemeli/yaml 2) with the YAML 1.2 core schema,
//! then — when it throws or gives no mapping — the tool's own line parser
//! (`parseSimple`); nulls are stripped either way (`stripNullValues`).
//!
//! The full parse runs on yaml-rust's event parser (a YAML 1.2 parser, already in the
//! dependency tree through syntect), with the core schema's scalar resolution, the
//! `yaml` package's refusal of repeated keys and of several documents, and `<<` as a
//! plain key (merge keys are off in YAML 1.2). `tests/goldens/qwen-code-yaml/` holds
//! the tool's own answers for tricky inputs.

use yaml_rust::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust::scanner::{Marker, TScalarStyle};

use super::js::{self, Js};
use super::lines::{parse_simple, tab_indented_line};
use super::scalars::resolve;

pub use super::lines::claims_outside_block_scalars;

/// Nesting deeper than this is refused (and falls back) rather than risk the stack.
const MAX_DEPTH: usize = 512;
/// The `yaml` package's `maxAliasCount` (its default, which Qwen Code keeps).
const MAX_ALIAS_COUNT: u64 = 100;

/// What the YAML text gave.
pub struct Parsed {
    /// The object `parse` returns (nulls stripped).
    pub object: Vec<(String, Js, u32)>,
    /// The full parser's document as `toJS` gives it (nulls kept), when it parsed
    /// without error; `None` when the line parser was used because of an error.
    pub document: Option<Js>,
    /// Why the full parser failed (it then fell back), with the line (1-based,
    /// within the front matter).
    pub error: Option<(String, usize)>,
}

/// Qwen's `parse(yamlString)`.
pub fn parse(text: &str) -> Parsed {
    match full(text) {
        Ok(doc) => match &doc {
            Js::Map(entries) => Parsed { object: strip_nulls(entries), document: Some(doc.clone()), error: None },
            _ => Parsed { object: strip_nulls(&parse_simple(text)), document: Some(doc), error: None },
        },
        Err(e) => Parsed { object: strip_nulls(&parse_simple(text)), document: None, error: Some(e) },
    }
}

/// The `yaml` package's `parse(text, { schema: "core" })`: the first document's
/// value, or the first error.
pub fn full(text: &str) -> Result<Js, (String, usize)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // yaml-rust's block parser recurses once per level, and a block level needs one
    // more space of indentation: deeper text is refused (and falls back) before it
    // can exhaust the stack.
    if let Some(i) = text.split('\n').position(|l| l.bytes().take_while(|&b| b == b' ').count() >= MAX_DEPTH) {
        return Err(("nesting too deep".into(), i + 1));
    }
    let text = match tab_indented_line(text) {
        Err(line) => return Err(("Tabs are not allowed as indentation".into(), line)),
        Ok(text) => text,
    };
    // The `yaml` package ends the last line of a block scalar with a line break
    // even at the end of the text (the front matter never has one).
    let text = if text.ends_with('\n') { text } else { std::borrow::Cow::Owned(format!("{text}\n")) };
    let mut builder = Builder { lines: text.split('\n').collect(), ..Builder::default() };
    let mut parser = Parser::new(text.chars());
    if let Err(e) = parser.load(&mut builder, true) {
        // The position goes with the diagnostic, not into its words.
        let message = e.to_string();
        let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m).to_string();
        return Err((message, e.marker().line()));
    }
    if let Some(e) = builder.error {
        return Err(e);
    }
    if builder.documents > 1 {
        return Err(("Source contains multiple documents".into(), 1));
    }
    Ok(builder.root.unwrap_or(Js::Null))
}

/// `flow_within`: for a flow collection in a block one, the indentation its later
/// lines need (see [`Builder::within`]).
enum Frame {
    Seq { anchor: usize, items: Vec<Js>, start: Marker, block: bool, flow_within: Option<usize> },
    /// `pending`: the key read, waiting for its value, and where it starts.
    Map {
        anchor: usize,
        entries: Vec<(String, Js, u32)>,
        keys: Vec<Js>,
        pending: Option<(Js, Option<Marker>)>,
        start: Marker,
        flow_within: Option<usize>,
    },
}

#[derive(Default)]
struct Builder<'a> {
    /// The text's lines, to tell a block sequence (`- `) from a flow one.
    lines: Vec<&'a str>,
    stack: Vec<Frame>,
    anchors: Vec<(usize, Js)>,
    /// Per anchor, the `yaml` package's alias bookkeeping: its `aliasCount` (the
    /// most alias weight below the node; 1 for a scalar) and how often it was aliased.
    alias_counts: Vec<(usize, u64, u64)>,
    /// Per open collection, the most alias weight among its nodes so far.
    weights: Vec<u64>,
    root: Option<Js>,
    documents: usize,
    error: Option<(String, usize)>,
}

impl Builder<'_> {
    /// The indentation the later lines of a flow node (a quoted scalar, a flow
    /// collection) need where it is a block collection's value or item: one more than
    /// its key's or its `- `'s column (the `yaml` lexer's `indentNext`; yaml-rust
    /// takes any). `None` inside a flow collection or at the top.
    fn within(&self) -> Option<usize> {
        match self.stack.last()? {
            Frame::Seq { block: true, start, .. } => Some(start.col() + 1),
            Frame::Map { pending: Some((_, Some(key))), start, .. } if !self.flow_at(*start) => Some(key.col() + 1),
            _ => None,
        }
    }

    fn flow_at(&self, mark: Marker) -> bool {
        at(&self.lines, mark).is_some_and(|rest| rest.starts_with(['{', '[']))
    }

    /// The first line after `first` up to `last` (1-based) that a flow node needing
    /// `within` spaces of indentation cannot continue on: a line that is not blank
    /// (spaces, a CRLF's CR) with fewer spaces; in a flow collection a comment line
    /// passes, and so does its closing bracket one space short.
    fn short_line(&self, first: usize, last: usize, within: usize, collection: Option<Marker>) -> Option<usize> {
        (first + 1..=last).find(|&n| {
            let Some(line) = self.lines.get(n - 1) else { return false };
            let indent = line.bytes().take_while(|&b| b == b' ').count();
            let rest = &line[indent..];
            if rest.is_empty() || rest == "\r" || indent >= within {
                return false;
            }
            match collection {
                Some(end) => {
                    let rest = rest.trim_start_matches([' ', '\t']);
                    let closer = n == end.line() && indent + 1 == within && rest.starts_with([']', '}']);
                    !(rest.starts_with('#') || closer)
                }
                None => true,
            }
        })
    }

    /// The line a quoted scalar starting at `mark` ends on (its closing quote), as
    /// the `yaml` lexer finds it.
    fn quoted_end(&self, mark: Marker) -> Option<usize> {
        let start = self.lines.get(mark.line().checked_sub(1)?)?;
        let from = start.char_indices().nth(mark.col())?.0;
        let quote = start[from..].chars().next()?;
        let mut escaped = false;
        let mut first = true;
        let mut pending_quote = false;
        for (n, line) in self.lines.iter().enumerate().skip(mark.line() - 1) {
            let text = if first { &line[from + 1..] } else { line };
            first = false;
            for c in text.chars() {
                if pending_quote {
                    pending_quote = false;
                    if c == '\'' {
                        continue;
                    }
                    return Some(n + 1);
                }
                match (quote, c) {
                    ('"', '\\') => escaped = !escaped,
                    ('"', '"') if !escaped => return Some(n + 1),
                    ('\'', '\'') => pending_quote = true,
                    _ => escaped = false,
                }
            }
            if pending_quote {
                return Some(n + 1);
            }
            escaped = false;
        }
        None
    }

    fn fail(&mut self, message: impl Into<String>, mark: Marker) {
        if self.error.is_none() {
            self.error = Some((message.into(), mark.line()));
        }
    }

    fn anchor(&mut self, id: usize, value: &Js, weight: u64) {
        if id > 0 {
            self.anchors.retain(|(a, _)| *a != id);
            self.anchors.push((id, value.clone()));
            self.alias_counts.retain(|(a, _, _)| *a != id);
            // `toJS` starts an anchor's count at 1.
            self.alias_counts.push((id, weight, 1));
        }
    }

    /// A node of `weight` joins the open collection (`getAliasCount` takes the most
    /// of a collection's items, keys and values).
    fn weigh(&mut self, weight: u64) {
        if let Some(top) = self.weights.last_mut() {
            *top = (*top).max(weight);
        }
    }

    /// One more alias of anchor `id`: the `yaml` package refuses a document whose
    /// aliases would expand past `maxAliasCount` (`Alias.toJS`: count × aliasCount),
    /// which also bounds what agentry copies. The alias's weight, or `None` past it.
    fn alias_weight(&mut self, id: usize) -> Option<u64> {
        let (_, alias_count, count) = self.alias_counts.iter_mut().rev().find(|(a, _, _)| *a == id)?;
        *count += 1;
        let weight = count.saturating_mul(*alias_count);
        (weight <= MAX_ALIAS_COUNT).then_some(weight)
    }

    /// Adds a node that starts at `mark` (`None`: an empty value with no place in
    /// the text); `block_seq` when it is a block sequence (which may sit at its
    /// key's indentation).
    fn put(&mut self, value: Js, mark: Option<Marker>, block_seq: bool) {
        match self.stack.last_mut() {
            None => {
                if self.documents <= 1 {
                    self.root = Some(value);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map { entries, keys, pending, .. }) => match pending.take() {
                None => {
                    if keys.iter().any(|k| same_key(k, &value)) {
                        self.error.get_or_insert(("Map keys must be unique".into(), mark.map_or(1, |m| m.line())));
                    }
                    keys.push(value.clone());
                    *pending = Some((value, mark));
                }
                Some((key, Some(key_mark))) if mark.is_some_and(|m| m.line() > key_mark.line() && m.col() <= key_mark.col()) => {
                    let mark = mark.unwrap_or(key_mark);
                    // A value on a later line must be indented deeper than its key
                    // (yaml-rust takes `key:\nvalue`; the `yaml` package does not).
                    if !block_seq && !explicit(&self.lines, mark) {
                        self.error.get_or_insert(("a value must be indented deeper than its key".into(), mark.line()));
                    }
                    Js::set(entries, key_string(&key), value, 0)
                }
                Some((key, _)) => Js::set(entries, key_string(&key), value, 0),
            },
        }
    }
}

impl MarkedEventReceiver for Builder<'_> {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        match ev {
            Event::DocumentStart => self.documents += 1,
            Event::Scalar(text, style, anchor, tag) => {
                let value = resolve(&text, style, tag.as_ref());
                self.anchor(anchor, &value, 1);
                self.weigh(1);
                // An empty value yaml-rust supplies is marked where the next token
                // starts: it is no node of the text, so it sits at no indentation.
                let written = at(&self.lines, mark).is_some_and(|rest| match style {
                    // yaml-rust's own empty value reads `~`: a written `~` ends there.
                    TScalarStyle::Plain if text == "~" => {
                        rest.strip_prefix('~').is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', ',', ']', '}', '#']))
                    }
                    TScalarStyle::Plain => !text.is_empty() && (rest.starts_with(text.as_str()) || tag.is_some() || anchor > 0),
                    TScalarStyle::SingleQuoted => rest.starts_with('\''),
                    TScalarStyle::DoubleQuoted => rest.starts_with('"'),
                    // yaml-rust marks a block scalar where its content ends.
                    _ => false,
                });
                if written && matches!(style, TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted) {
                    if let (Some(within), Some(end)) = (self.within(), self.quoted_end(mark)) {
                        if let Some(line) = self.short_line(mark.line(), end, within, None) {
                            self.error = Some(("Missing closing quote: a line of the quoted text is not indented enough".into(), line));
                            return;
                        }
                    }
                }
                self.put(value, written.then_some(mark), false);
            }
            Event::Alias(id) => match self.anchors.iter().rev().find(|(a, _)| *a == id) {
                Some((_, v)) => {
                    let v = v.clone();
                    match self.alias_weight(id) {
                        Some(weight) => self.weigh(weight),
                        None => return self.fail("Excessive alias count indicates a resource exhaustion attack", mark),
                    }
                    self.put(v, Some(mark), false)
                }
                None => self.fail("Aliased anchor not found", mark),
            },
            Event::SequenceStart(anchor) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.fail("nesting too deep", mark);
                }
                let block = self
                    .lines
                    .get(mark.line().wrapping_sub(1))
                    .and_then(|l| l.chars().nth(mark.col()))
                    .is_some_and(|c| c == '-');
                let flow_within = if block { None } else { self.within() };
                self.weights.push(0);
                self.stack.push(Frame::Seq { anchor, items: Vec::new(), start: mark, block, flow_within })
            }
            Event::MappingStart(anchor) => {
                if self.stack.len() >= MAX_DEPTH {
                    return self.fail("nesting too deep", mark);
                }
                let flow_within = if self.flow_at(mark) { self.within() } else { None };
                self.weights.push(0);
                self.stack.push(Frame::Map { anchor, entries: Vec::new(), keys: Vec::new(), pending: None, start: mark, flow_within })
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (anchor, value, start, block, flow_within) = match self.stack.pop() {
                    Some(Frame::Seq { anchor, items, start, block, flow_within }) => {
                        (anchor, Js::Seq(items), start, block, flow_within)
                    }
                    Some(Frame::Map { anchor, entries, start, flow_within, .. }) => {
                        (anchor, Js::Map(entries), start, false, flow_within)
                    }
                    None => return,
                };
                if let Some(within) = flow_within {
                    if let Some(line) = self.short_line(start.line(), mark.line(), within, Some(mark)) {
                        let what = if matches!(value, Js::Seq(_)) { "sequence" } else { "mapping" };
                        self.error = Some((format!("Flow {what} in block collection must be sufficiently indented"), line));
                        return;
                    }
                }
                let weight = self.weights.pop().unwrap_or(0);
                self.anchor(anchor, &value, weight);
                self.weigh(weight);
                self.put(value, Some(start), block);
            }
            _ => {}
        }
    }
}

/// The text from `mark` to the end of its line.
fn at<'t>(lines: &[&'t str], mark: Marker) -> Option<&'t str> {
    let line = lines.get(mark.line().checked_sub(1)?)?;
    let start = line.char_indices().nth(mark.col()).map_or(line.len(), |(i, _)| i);
    Some(&line[start..])
}

/// Whether the node at `mark` follows an explicit value indicator (`? key` then
/// `: value` on a line of its own).
fn explicit(lines: &[&str], mark: Marker) -> bool {
    let Some(line) = mark.line().checked_sub(1).and_then(|i| lines.get(i)) else { return false };
    let start = line.char_indices().nth(mark.col()).map_or(line.len(), |(i, _)| i);
    line[..start].trim_end().ends_with(':')
}

/// Whether two keys are the same for the `yaml` package's unique-keys check: equal
/// scalar values.
fn same_key(a: &Js, b: &Js) -> bool {
    match (a, b) {
        (Js::Seq(_) | Js::Map(_), _) | (_, Js::Seq(_) | Js::Map(_)) => false,
        (Js::Num(x), Js::Num(y)) => x == y,
        _ => a == b,
    }
}

/// A key as a plain object holds it (`null` becomes the empty string).
fn key_string(key: &Js) -> String {
    match key {
        Js::Null => String::new(),
        Js::Seq(_) | Js::Map(_) => key.to_json().to_string(),
        other => other.to_js_string(),
    }
}


/// `stripNullValues`: null entries removed, and nulls inside lists.
pub fn strip_nulls(entries: &[(String, Js, u32)]) -> Vec<(String, Js, u32)> {
    entries.iter().filter_map(|(k, v, l)| sanitize(v).map(|v| (k.clone(), v, *l))).collect()
}

fn sanitize(v: &Js) -> Option<Js> {
    match v {
        Js::Null => None,
        Js::Map(entries) => Some(Js::Map(strip_nulls(entries))),
        Js::Seq(items) => Some(Js::Seq(items.iter().filter_map(sanitize).collect())),
        other => Some(other.clone()),
    }
}

/// What `tests/goldens/qwen-code-yaml/golden.mjs` writes for a front matter: the
/// object `parse` returns and whether the full parser accepted the text
/// (non-finite numbers as the strings `Infinity`, `-Infinity`, `NaN`).
pub fn golden(text: &str) -> serde_json::Value {
    fn finite(v: &Js) -> serde_json::Value {
        match v {
            Js::Num(n) if !n.is_finite() => serde_json::Value::from(js::number_to_string(*n)),
            Js::Seq(items) => serde_json::Value::Array(items.iter().map(finite).collect()),
            Js::Map(entries) => serde_json::Value::Object(entries.iter().map(|(k, v, _)| (k.clone(), finite(v))).collect()),
            other => other.to_json(),
        }
    }
    let parsed = parse(text);
    serde_json::json!({ "object": finite(&Js::Map(parsed.object)), "yaml_ok": parsed.error.is_none() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::qwen_code::scalars::plain;

    #[test]
    fn the_line_parser_loads_what_yaml_rejects() {
        let p = parse("name: x\ndescription: [unclosed\nodd: a: b: c\n");
        assert!(p.error.is_some());
        let get = |k: &str| p.object.iter().find(|(key, _, _)| key == k).map(|(_, v, _)| v.clone());
        assert_eq!(get("description"), Some(Js::Str("[unclosed".into())));
        assert_eq!(get("odd"), Some(Js::Str("a: b: c".into())));
    }

    #[test]
    fn repeated_keys_fall_back_and_keep_the_last_value() {
        let p = parse("name: a\nname: b\n");
        assert!(p.error.is_some());
        assert_eq!(p.object, vec![("name".to_string(), Js::Str("b".into()), 0)]);
    }

    #[test]
    fn deep_nesting_falls_back_without_exhausting_the_stack() {
        let block = (0..2000).map(|i| format!("{}k{i}:", " ".repeat(i))).collect::<Vec<_>>().join("\n");
        assert!(full(&format!("runConfig:\n{block}\n")).is_err());
        let flow = format!("d: {}x{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert!(full(&flow).is_err());
    }

    #[test]
    fn aliases_past_the_yaml_packages_max_alias_count_fail_as_it_does() {
        // The `yaml` package's `maxAliasCount` 100: count × aliasCount per alias.
        let scalars = |n: usize| format!("a: &x 1\nl: [{}]\n", vec!["*x"; n].join(", "));
        assert!(full(&scalars(99)).is_ok());
        let (message, line) = full(&scalars(100)).unwrap_err();
        assert_eq!((message.as_str(), line), ("Excessive alias count indicates a resource exhaustion attack", 2));
        // A billion-node alias bomb stops at its third level instead of expanding
        // (checked against yaml 2.8.1, as the scalar limits and a nested 3 × 25).
        let mut bomb = String::from("l0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            bomb += &format!("l{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 10].join(", "));
        }
        assert_eq!(full(&bomb).unwrap_err().1, 3);
        let nested = |k: usize| format!("a: &a [x]\nb: &b [*a, *a, *a]\nl: [{}]\n", vec!["*b"; k].join(", "));
        assert!(full(&nested(24)).is_ok());
        assert!(full(&nested(25)).is_err());
        assert!(parse(&format!("name: bomb\n{bomb}")).error.is_some());
    }

    #[test]
    fn flow_nodes_need_their_block_indentation() {
        // The `yaml` package (the Qwen Code oracle): a quoted scalar's or a flow
        // collection's later line must be indented past its key or `- `.
        for text in ["d: \"a\nb\"\n", "d: 'a\nb'\n", "d: \"a\n\tb\"\n", "t: [a,\nb]\n", "m:\n  n: \"a\n b\"\n", "- \"a\nb\"\n"] {
            assert!(full(text).is_err(), "{text:?}");
        }
        for text in ["d: \"a\n b\"\n", "d: \"a\n\n b\"\n", "t: [a,\n b\n]\n", "m:\n  n: \"a\n   b\"\n", "- \"a\n b\"\n", "\"a\nb\"\n"] {
            assert!(full(text).is_ok(), "{text:?}");
        }
        let p = parse("name: x\ndescription: \"first\nsecond\"\n");
        assert_eq!(p.object.iter().find(|e| e.0 == "description").map(|e| e.1.clone()), Some(Js::Str("\"first".into())));
    }

    #[test]
    fn core_schema_scalars() {
        assert_eq!(plain("0x10"), Js::Num(16.0));
        assert_eq!(plain("0o10"), Js::Num(8.0));
        assert_eq!(plain("010"), Js::Num(10.0));
        assert_eq!(plain("1e3"), Js::Num(1000.0));
        assert_eq!(plain("yes"), Js::Str("yes".into()));
        assert_eq!(plain("0b11"), Js::Str("0b11".into()));
        assert_eq!(plain("-.inf"), Js::Num(f64::NEG_INFINITY));
    }
}

