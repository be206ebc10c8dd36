//! The event parser: a port of PyYAML 6.0.3 `parser.py` (same states, same errors).
//!
//! It pulls tokens lazily from the [`Scanner`], so errors surface in the same order as
//! in PyYAML (a syntax error after the first document is reported only once the
//! composer asks for the next event).

use std::collections::HashMap;

use super::scanner::{error, Directive, Mark, Scanner, T};
use super::{Loader, YamlError};

type R<T> = Result<T, YamlError>;

#[derive(Clone, Debug)]
pub(crate) enum Ev {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(String),
    Scalar { anchor: Option<String>, tag: Option<String>, implicit: (bool, bool), value: String },
    SequenceStart { anchor: Option<String>, tag: Option<String> },
    SequenceEnd,
    MappingStart { anchor: Option<String>, tag: Option<String> },
    MappingEnd,
}

#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub ev: Ev,
    pub start: Mark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    Done,
}

pub(crate) struct Parser<'a> {
    scanner: Scanner<'a>,
    current: Option<Event>,
    /// `%TAG` handles of the current document (PyYAML's `tag_handles` minus the two
    /// defaults, which [`Parser::tag_prefix`] falls back to).
    tag_handles: HashMap<String, String>,
    states: Vec<St>,
    marks: Vec<Mark>,
    state: St,
}

fn default_tag(handle: &str) -> Option<&'static str> {
    match handle {
        "!" => Some("!"),
        "!!" => Some("tag:yaml.org,2002:"),
        _ => None,
    }
}

impl<'a> Parser<'a> {
    pub fn new(text: &'a str, loader: Loader) -> R<Parser<'a>> {
        Ok(Parser {
            scanner: Scanner::new(text, loader)?,
            current: None,
            tag_handles: HashMap::new(),
            states: Vec::new(),
            marks: Vec::new(),
            state: St::StreamStart,
        })
    }

    pub fn peek_event(&mut self) -> R<Option<&Event>> {
        if self.current.is_none() && self.state != St::Done {
            self.current = Some(self.step()?);
        }
        Ok(self.current.as_ref())
    }

    pub fn get_event(&mut self) -> R<Event> {
        self.peek_event()?;
        let m = self.scanner.mark();
        self.current.take().ok_or_else(|| error(None, "unexpected end of the event stream", m))
    }

    fn pop_state(&mut self) -> St {
        self.states.pop().unwrap_or(St::Done)
    }

    fn step(&mut self) -> R<Event> {
        match self.state {
            St::StreamStart => {
                let tok = self.scanner.get_token()?;
                self.state = St::ImplicitDocumentStart;
                Ok(Event { ev: Ev::StreamStart, start: tok.start })
            }
            St::ImplicitDocumentStart => {
                if !self.scanner.check(&[T::Directive, T::DocumentStart, T::StreamEnd])? {
                    self.tag_handles.clear();
                    let start = self.scanner.peek_token()?.start;
                    self.states.push(St::DocumentEnd);
                    self.state = St::BlockNode;
                    Ok(Event { ev: Ev::DocumentStart, start })
                } else {
                    self.parse_document_start()
                }
            }
            St::DocumentStart => self.parse_document_start(),
            St::DocumentEnd => {
                let start = self.scanner.peek_token()?.start;
                if self.scanner.check(&[T::DocumentEnd])? {
                    self.scanner.get_token()?;
                }
                self.state = St::DocumentStart;
                Ok(Event { ev: Ev::DocumentEnd, start })
            }
            St::DocumentContent => {
                if self.scanner.check(&[T::Directive, T::DocumentStart, T::DocumentEnd, T::StreamEnd])? {
                    let m = self.scanner.peek_token()?.start;
                    self.state = self.pop_state();
                    Ok(empty_scalar(m))
                } else {
                    self.parse_node(true, false)
                }
            }
            St::BlockNode => self.parse_node(true, false),
            St::BlockSequenceFirstEntry => {
                let tok = self.scanner.get_token()?;
                self.marks.push(tok.start);
                self.parse_block_sequence_entry()
            }
            St::BlockSequenceEntry => self.parse_block_sequence_entry(),
            St::IndentlessSequenceEntry => {
                if self.scanner.check(&[T::BlockEntry])? {
                    let tok = self.scanner.get_token()?;
                    let ends = [T::BlockEntry, T::Key, T::Value, T::BlockEnd];
                    return self.node_or_empty(tok.end, &ends, St::IndentlessSequenceEntry, true, false);
                }
                let start = self.scanner.peek_token()?.start;
                self.state = self.pop_state();
                Ok(Event { ev: Ev::SequenceEnd, start })
            }
            St::BlockMappingFirstKey => {
                let tok = self.scanner.get_token()?;
                self.marks.push(tok.start);
                self.parse_block_mapping_key()
            }
            St::BlockMappingKey => self.parse_block_mapping_key(),
            St::BlockMappingValue => self.parse_value(&[T::Key, T::Value, T::BlockEnd], St::BlockMappingKey, true),
            St::FlowSequenceFirstEntry => {
                let tok = self.scanner.get_token()?;
                self.marks.push(tok.start);
                self.parse_flow_sequence_entry(true)
            }
            St::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            St::FlowSequenceEntryMappingKey => {
                let mut tok = self.scanner.get_token()?;
                let ends = [T::Value, T::FlowEntry, T::FlowSequenceEnd];
                if self.scanner.check(&ends)? && self.scanner.is_libyaml() {
                    // libyaml 0.2.5 consumes the token after an empty key here (so
                    // `[? : x]` and `[?]` fail with it).
                    tok = self.scanner.get_token()?;
                    self.state = St::FlowSequenceEntryMappingValue;
                    return Ok(empty_scalar(tok.end));
                }
                self.node_or_empty(tok.end, &ends, St::FlowSequenceEntryMappingValue, false, false)
            }
            St::FlowSequenceEntryMappingValue => {
                self.parse_value(&[T::FlowEntry, T::FlowSequenceEnd], St::FlowSequenceEntryMappingEnd, false)
            }
            St::FlowSequenceEntryMappingEnd => {
                self.state = St::FlowSequenceEntry;
                let start = self.scanner.peek_token()?.start;
                Ok(Event { ev: Ev::MappingEnd, start })
            }
            St::FlowMappingFirstKey => {
                let tok = self.scanner.get_token()?;
                self.marks.push(tok.start);
                self.parse_flow_mapping_key(true)
            }
            St::FlowMappingKey => self.parse_flow_mapping_key(false),
            St::FlowMappingValue => self.parse_value(&[T::FlowEntry, T::FlowMappingEnd], St::FlowMappingKey, false),
            St::FlowMappingEmptyValue => {
                self.state = St::FlowMappingKey;
                let m = self.scanner.peek_token()?.start;
                Ok(empty_scalar(m))
            }
            St::Done => Err(error(None, "unexpected end of the event stream", self.scanner.mark())),
        }
    }

    fn parse_document_start(&mut self) -> R<Event> {
        while self.scanner.check(&[T::DocumentEnd])? {
            self.scanner.get_token()?;
        }
        if !self.scanner.check(&[T::StreamEnd])? {
            let start = self.scanner.peek_token()?.start;
            self.process_directives()?;
            if !self.scanner.check(&[T::DocumentStart])? {
                let tok = self.scanner.peek_token()?;
                return Err(error(None, format!("expected '<document start>', but found {}", tok.t.id()), tok.start));
            }
            self.scanner.get_token()?;
            self.states.push(St::DocumentEnd);
            self.state = St::DocumentContent;
            Ok(Event { ev: Ev::DocumentStart, start })
        } else {
            let tok = self.scanner.get_token()?;
            self.state = St::Done;
            Ok(Event { ev: Ev::StreamEnd, start: tok.start })
        }
    }

    fn process_directives(&mut self) -> R<()> {
        let mut version_seen = false;
        self.tag_handles = HashMap::new();
        while self.scanner.check(&[T::Directive])? {
            let tok = self.scanner.get_token()?;
            match tok.directive.map(|d| *d) {
                Some(Directive::Yaml(major)) => {
                    if version_seen {
                        return Err(error(None, "found duplicate YAML directive", tok.start));
                    }
                    if major != 1 {
                        return Err(error(
                            None,
                            "found incompatible YAML document (version 1.* is required)",
                            tok.start,
                        ));
                    }
                    version_seen = true;
                }
                Some(Directive::Tag(handle, prefix)) => {
                    if self.tag_handles.contains_key(&handle) {
                        return Err(error(
                            None,
                            format!("duplicate tag handle {}", crate::pyscalar::repr_str(&handle)),
                            tok.start,
                        ));
                    }
                    self.tag_handles.insert(handle, prefix);
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> R<Event> {
        if self.scanner.check(&[T::Alias])? {
            let tok = self.scanner.get_token()?;
            self.state = self.pop_state();
            return Ok(Event { ev: Ev::Alias(tok.value), start: tok.start });
        }
        let mut anchor = None;
        let mut tag: Option<(Option<String>, String)> = None;
        let mut start: Option<Mark> = None;
        let mut tag_mark = None;
        if self.scanner.check(&[T::Anchor])? {
            let tok = self.scanner.get_token()?;
            start = Some(tok.start);
            anchor = Some(tok.value);
            if self.scanner.check(&[T::Tag])? {
                let tok = self.scanner.get_token()?;
                tag_mark = Some(tok.start);
                tag = Some((tok.handle, tok.value));
            }
        } else if self.scanner.check(&[T::Tag])? {
            let tok = self.scanner.get_token()?;
            start = Some(tok.start);
            tag_mark = Some(tok.start);
            tag = Some((tok.handle, tok.value));
            if self.scanner.check(&[T::Anchor])? {
                let tok = self.scanner.get_token()?;
                anchor = Some(tok.value);
            }
        }
        let tag: Option<String> = match tag {
            None => None,
            Some((Some(handle), suffix)) => {
                match self.tag_handles.get(&handle).map(String::as_str).or(default_tag(&handle)) {
                    Some(prefix) => Some(format!("{prefix}{suffix}")),
                    None => {
                        return Err(error(
                            Some("while parsing a node"),
                            format!("found undefined tag handle {}", crate::pyscalar::repr_str(&handle)),
                            tag_mark.unwrap_or_default(),
                        ))
                    }
                }
            }
            Some((None, suffix)) => Some(suffix),
        };
        let start = match start {
            Some(s) => s,
            None => self.scanner.peek_token()?.start,
        };
        let t = self.scanner.peek_t()?;
        if indentless_sequence && t == T::BlockEntry {
            self.state = St::IndentlessSequenceEntry;
            return Ok(Event { ev: Ev::SequenceStart { anchor, tag }, start });
        }
        match t {
            T::Scalar => {
                let tok = self.scanner.get_token()?;
                let implicit = if (tok.plain && tag.is_none()) || tag.as_deref() == Some("!") {
                    (true, false)
                } else if tag.is_none() {
                    (false, true)
                } else {
                    (false, false)
                };
                self.state = self.pop_state();
                Ok(Event { ev: Ev::Scalar { anchor, tag, implicit, value: tok.value }, start })
            }
            T::FlowSequenceStart => {
                self.state = St::FlowSequenceFirstEntry;
                Ok(Event { ev: Ev::SequenceStart { anchor, tag }, start })
            }
            T::FlowMappingStart => {
                self.state = St::FlowMappingFirstKey;
                Ok(Event { ev: Ev::MappingStart { anchor, tag }, start })
            }
            T::BlockSequenceStart if block => {
                self.state = St::BlockSequenceFirstEntry;
                Ok(Event { ev: Ev::SequenceStart { anchor, tag }, start })
            }
            T::BlockMappingStart if block => {
                self.state = St::BlockMappingFirstKey;
                Ok(Event { ev: Ev::MappingStart { anchor, tag }, start })
            }
            _ if anchor.is_some() || tag.is_some() => {
                // libyaml marks an empty `!`-tagged scalar as not plain-implicit (so it
                // resolves to str, not null)
                let bang = tag.as_deref() == Some("!") && !self.scanner.is_libyaml();
                let implicit = (tag.is_none() || bang, false);
                self.state = self.pop_state();
                Ok(Event { ev: Ev::Scalar { anchor, tag, implicit, value: String::new() }, start })
            }
            _ => {
                let tok = self.scanner.peek_token()?;
                let ctx = if block { "while parsing a block node" } else { "while parsing a flow node" };
                Err(error(Some(ctx), format!("expected the node content, but found {}", tok.t.id()), tok.start))
            }
        }
    }

    /// After an indicator ending at `end`: the node that follows, or an empty scalar
    /// when one of `ends` follows at once. `next` is the state after it.
    fn node_or_empty(&mut self, end: Mark, ends: &[T], next: St, block: bool, indentless: bool) -> R<Event> {
        if !self.scanner.check(ends)? {
            self.states.push(next);
            return self.parse_node(block, indentless);
        }
        self.state = next;
        Ok(empty_scalar(end))
    }

    /// A mapping's value: after a `:`, as [`Self::node_or_empty`]; with no `:`, an
    /// empty scalar.
    fn parse_value(&mut self, ends: &[T], next: St, block: bool) -> R<Event> {
        if self.scanner.check(&[T::Value])? {
            let tok = self.scanner.get_token()?;
            return self.node_or_empty(tok.end, ends, next, block, block);
        }
        self.state = next;
        let m = self.scanner.peek_token()?.start;
        Ok(empty_scalar(m))
    }

    fn parse_block_sequence_entry(&mut self) -> R<Event> {
        if self.scanner.check(&[T::BlockEntry])? {
            let tok = self.scanner.get_token()?;
            return self.node_or_empty(tok.end, &[T::BlockEntry, T::BlockEnd], St::BlockSequenceEntry, true, false);
        }
        self.end_block("while parsing a block collection", Ev::SequenceEnd)
    }

    fn parse_block_mapping_key(&mut self) -> R<Event> {
        if self.scanner.check(&[T::Key])? {
            let tok = self.scanner.get_token()?;
            return self.node_or_empty(tok.end, &[T::Key, T::Value, T::BlockEnd], St::BlockMappingValue, true, true);
        }
        self.end_block("while parsing a block mapping", Ev::MappingEnd)
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> R<Event> {
        if !self.scanner.check(&[T::FlowSequenceEnd])? {
            if !first {
                self.flow_entry("while parsing a flow sequence", "']'")?;
            }
            if self.scanner.check(&[T::Key])? {
                let start = self.scanner.peek_token()?.start;
                self.state = St::FlowSequenceEntryMappingKey;
                return Ok(Event { ev: Ev::MappingStart { anchor: None, tag: None }, start });
            } else if !self.scanner.check(&[T::FlowSequenceEnd])? {
                self.states.push(St::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.end_collection(Ev::SequenceEnd)
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> R<Event> {
        if !self.scanner.check(&[T::FlowMappingEnd])? {
            if !first {
                self.flow_entry("while parsing a flow mapping", "'}'")?;
            }
            if self.scanner.check(&[T::Key])? {
                let tok = self.scanner.get_token()?;
                let ends = [T::Value, T::FlowEntry, T::FlowMappingEnd];
                return self.node_or_empty(tok.end, &ends, St::FlowMappingValue, false, false);
            } else if !self.scanner.check(&[T::FlowMappingEnd])? {
                self.states.push(St::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.end_collection(Ev::MappingEnd)
    }

    /// The end token of a collection: its event, and the state it was entered from.
    fn end_collection(&mut self, ev: Ev) -> R<Event> {
        let tok = self.scanner.get_token()?;
        self.state = self.pop_state();
        self.marks.pop();
        Ok(Event { ev, start: tok.start })
    }

    /// A block collection's end: `<block end>`, else an error `context` names.
    fn end_block(&mut self, context: &str, ev: Ev) -> R<Event> {
        if !self.scanner.check(&[T::BlockEnd])? {
            let tok = self.scanner.peek_token()?;
            return Err(error(Some(context), format!("expected <block end>, but found {}", tok.t.id()), tok.start));
        }
        self.end_collection(ev)
    }

    /// The `,` between two entries of a flow collection closed by `closer`.
    fn flow_entry(&mut self, context: &str, closer: &str) -> R<()> {
        if !self.scanner.check(&[T::FlowEntry])? {
            let tok = self.scanner.peek_token()?;
            return Err(error(Some(context), format!("expected ',' or {closer}, but got {}", tok.t.id()), tok.start));
        }
        self.scanner.get_token()?;
        Ok(())
    }
}

fn empty_scalar(mark: Mark) -> Event {
    Event { ev: Ev::Scalar { anchor: None, tag: None, implicit: (true, false), value: String::new() }, start: mark }
}
