//! The composer: events → a graph of tagged nodes (PyYAML `composer.py`).
//!
//! Nodes live in an arena; an alias is an edge to the anchored node (shared, like
//! PyYAML). Tags are resolved here (`resolver.py`). Differences from PyYAML, both
//! deliberate bounds: nesting deeper than [`MAX_DEPTH`] is an error, and an alias to an
//! anchor whose node is not finished (a recursive structure) is an error.

use std::borrow::Cow;
use std::collections::HashMap;

use super::parser::{Ev, Parser};
use super::resolver::{resolve_scalar, MAP, SEQ};
use super::scanner::{error, Mark};
use super::{Loader, YamlError, MAX_DEPTH};

type R<T> = Result<T, YamlError>;

#[derive(Debug)]
pub(crate) enum Kind {
    Scalar(String),
    Seq(Vec<usize>),
    Map(Vec<(usize, usize)>),
}

#[derive(Debug)]
pub(crate) struct RawNode {
    pub tag: Cow<'static, str>,
    pub start: Mark,
    pub kind: Kind,
}

impl RawNode {
    /// PyYAML's `Node.id`.
    pub fn id(&self) -> &'static str {
        match self.kind {
            Kind::Scalar(_) => "scalar",
            Kind::Seq(_) => "sequence",
            Kind::Map(_) => "mapping",
        }
    }
}

/// One composed document: the arena and its root.
pub(crate) struct Doc {
    pub nodes: Vec<RawNode>,
    pub root: usize,
}

pub(crate) struct Composer<'a> {
    parser: Parser<'a>,
    /// A guess at the number of nodes, to size the arena once.
    capacity: usize,
}

impl<'a> Composer<'a> {
    pub fn new(text: &'a str, loader: Loader) -> R<Composer<'a>> {
        Ok(Composer { parser: Parser::new(text, loader)?, capacity: (text.len() / 10 + 4).min(4096) })
    }

    fn check(&mut self, f: impl Fn(&Ev) -> bool) -> R<bool> {
        Ok(self.parser.peek_event()?.is_some_and(|e| f(&e.ev)))
    }

    /// `Composer.check_node`: skips the stream start; true while documents remain.
    pub fn check_node(&mut self) -> R<bool> {
        if self.check(|e| matches!(e, Ev::StreamStart))? {
            self.parser.get_event()?;
        }
        Ok(!self.check(|e| matches!(e, Ev::StreamEnd))?)
    }

    /// `Composer.get_single_node`.
    pub fn get_single_node(&mut self) -> R<Option<Doc>> {
        self.parser.get_event()?; // stream start
        let mut doc = None;
        if !self.check(|e| matches!(e, Ev::StreamEnd))? {
            doc = Some(self.compose_document()?);
        }
        if !self.check(|e| matches!(e, Ev::StreamEnd))? {
            let ev = self.parser.get_event()?;
            return Err(error(
                Some("expected a single document in the stream"),
                "but found another document",
                ev.start,
            ));
        }
        self.parser.get_event()?;
        Ok(doc)
    }

    /// Composes one document without recursion (an explicit stack of open collections).
    pub fn compose_document(&mut self) -> R<Doc> {
        self.parser.get_event()?; // document start
        let mut st = State {
            nodes: Vec::with_capacity(self.capacity),
            anchors: HashMap::new(),
            finished: Vec::with_capacity(self.capacity),
        };
        // open collections, with a mapping's pending key
        let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
        let root = loop {
            let mut done = None;
            if let Some(&(id, _)) = stack.last() {
                let is_seq = matches!(st.nodes[id].kind, Kind::Seq(_));
                if self.check(|e| if is_seq { matches!(e, Ev::SequenceEnd) } else { matches!(e, Ev::MappingEnd) })? {
                    self.parser.get_event()?;
                    st.finished[id] = true;
                    stack.pop();
                    done = Some(id);
                }
            }
            let child = match done {
                Some(id) => id,
                None => {
                    let (id, opened) = self.compose_one(&mut st, stack.len())?;
                    if opened {
                        stack.push((id, None));
                        continue;
                    }
                    id
                }
            };
            let Some((parent, pending)) = stack.last_mut() else { break child };
            match (&mut st.nodes[*parent].kind, pending.take()) {
                (Kind::Seq(items), _) => items.push(child),
                (Kind::Map(pairs), Some(key)) => pairs.push((key, child)),
                (Kind::Map(_), None) => *pending = Some(child),
                (Kind::Scalar(_), _) => {}
            }
        };
        self.parser.get_event()?; // document end
        Ok(Doc { nodes: st.nodes, root })
    }

    /// Consumes one node event (alias, scalar or collection start); returns the node and
    /// whether a collection was opened.
    fn compose_one(&mut self, st: &mut State, depth: usize) -> R<(usize, bool)> {
        let ev = self.parser.get_event()?;
        if let Ev::Alias(name) = &ev.ev {
            return match st.anchors.get(name) {
                None => Err(error(None, format!("found undefined alias {}", crate::pyscalar::repr_str(name)), ev.start)),
                Some(&id) if !st.finished[id] => Err(error(
                    None,
                    format!(
                        "found recursive alias {} (a node containing an alias to itself is not supported)",
                        crate::pyscalar::repr_str(name)
                    ),
                    ev.start,
                )),
                Some(&id) => Ok((id, false)),
            };
        }
        if depth >= MAX_DEPTH {
            return Err(error(None, format!("exceeded the maximum nesting depth of {MAX_DEPTH}"), ev.start));
        }
        let anchor = match &ev.ev {
            Ev::Scalar { anchor, .. } | Ev::SequenceStart { anchor, .. } | Ev::MappingStart { anchor, .. } => {
                anchor.clone()
            }
            _ => None,
        };
        if let Some(a) = &anchor {
            if let Some(&first) = st.anchors.get(a) {
                return Err(error(
                    Some(&format!(
                        "found duplicate anchor {}; first occurrence at line {}",
                        crate::pyscalar::repr_str(a),
                        st.nodes[first].start.line + 1
                    )),
                    "second occurrence",
                    ev.start,
                ));
            }
        }
        let id = st.nodes.len();
        let (tag, kind) = match ev.ev {
            Ev::Scalar { tag, implicit, value, .. } => {
                let tag = match tag {
                    Some(t) if t != "!" => Cow::Owned(t),
                    _ => Cow::Borrowed(resolve_scalar(&value, implicit.0)),
                };
                (tag, Kind::Scalar(value))
            }
            Ev::SequenceStart { tag, .. } => {
                (tag.filter(|t| t != "!").map_or(Cow::Borrowed(SEQ), Cow::Owned), Kind::Seq(Vec::new()))
            }
            Ev::MappingStart { tag, .. } => {
                (tag.filter(|t| t != "!").map_or(Cow::Borrowed(MAP), Cow::Owned), Kind::Map(Vec::new()))
            }
            _ => return Err(error(None, "unexpected event", ev.start)),
        };
        let is_scalar = matches!(kind, Kind::Scalar(_));
        st.nodes.push(RawNode { tag, start: ev.start, kind });
        st.finished.push(is_scalar);
        if let Some(a) = anchor {
            st.anchors.insert(a, id);
        }
        Ok((id, !is_scalar))
    }
}

struct State {
    nodes: Vec<RawNode>,
    anchors: HashMap<String, usize>,
    finished: Vec<bool>,
}
