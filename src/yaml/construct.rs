//! The safe constructor: node graph → [`Node`] tree (PyYAML `SafeConstructor`).
//!
//! Order of work copies PyYAML: scalars are built when met, collections are filled
//! breadth-first from a queue (PyYAML's `state_generators`), so the *first* error
//! reported is the one PyYAML reports. Each graph node is constructed once (aliases
//! share it, like PyYAML's `constructed_objects`); the shared results are then expanded
//! into an owned tree, after checking [`MAX_NODES`] and [`MAX_DEPTH`] on the expansion.

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use super::compose::{Doc, Kind};
use super::key::PyKey;
use super::resolver::*;
use super::scalars;
use super::scanner::{error, Mark};
use super::{Map, Node, Span, Value, YamlError, MAX_DEPTH, MAX_NODES};

type R<T> = Result<T, YamlError>;

#[derive(Clone, Copy)]
struct Item {
    slot: usize,
    span: Span,
}

enum Built {
    Val(Value),
    Seq(Vec<Item>),
    Map(Vec<(Item, Item)>),
    Set(Vec<Item>),
    Pending,
}

struct Slot {
    built: Built,
    start: Mark,
}

pub(crate) struct Constructor<'d> {
    doc: &'d Doc,
    memo: Vec<Option<usize>>,
    slots: Vec<Slot>,
    queue: VecDeque<(usize, usize)>,
    flat: HashMap<usize, Rc<Vec<(usize, usize)>>>,
    flat_total: usize,
}

fn is_collection_tag(tag: &str) -> bool {
    matches!(tag, SEQ | MAP | SET | OMAP | PAIRS)
}

impl<'d> Constructor<'d> {
    /// `construct_document`: builds the whole document or fails with PyYAML's first error.
    pub fn construct_document(doc: &'d Doc) -> R<Node> {
        let mut c = Constructor {
            doc,
            memo: vec![None; doc.nodes.len()],
            slots: Vec::with_capacity(doc.nodes.len() + 1),
            queue: VecDeque::new(),
            flat: HashMap::new(),
            flat_total: 0,
        };
        let root = c.construct_object(doc.root)?;
        while let Some((raw, slot)) = c.queue.pop_front() {
            c.run_generator(raw, slot)?;
        }
        let mut sizes = vec![None; c.slots.len()];
        let (size, _) = c.measure(root, 0, &mut sizes)?;
        if size > MAX_NODES as u64 {
            return Err(error(
                None,
                format!("alias expansion exceeds {MAX_NODES} nodes (the document would expand to more)"),
                c.slots[root].start,
            ));
        }
        let span = doc.nodes[doc.root].start.span();
        let mut uses = c.uses(root);
        Ok(c.assemble(Item { slot: root, span }, &mut uses))
    }

    fn new_slot(&mut self, built: Built, start: Mark) -> usize {
        self.slots.push(Slot { built, start });
        self.slots.len() - 1
    }

    fn construct_object(&mut self, raw: usize) -> R<usize> {
        if let Some(slot) = self.memo[raw] {
            return Ok(slot);
        }
        let node = &self.doc.nodes[raw];
        let start = node.start;
        let built =
            if is_collection_tag(&node.tag) { Built::Pending } else { Built::Val(self.construct_scalar_value(raw)?) };
        let pending = matches!(built, Built::Pending);
        let slot = self.new_slot(built, start);
        self.memo[raw] = Some(slot);
        if pending {
            self.queue.push_back((raw, slot));
        }
        Ok(slot)
    }

    /// `SafeConstructor.construct_scalar`: a scalar's text, or the `=` value of a mapping.
    fn scalar_text(&self, raw: usize, depth: usize) -> R<&'d str> {
        let node = &self.doc.nodes[raw];
        match &node.kind {
            Kind::Scalar(s) => return Ok(s),
            Kind::Map(pairs) if depth < MAX_DEPTH => {
                for &(k, v) in pairs {
                    if self.doc.nodes[k].tag == VALUE {
                        return self.scalar_text(v, depth + 1);
                    }
                }
            }
            _ => {}
        }
        Err(error(None, format!("expected a scalar node, but found {}", node.id()), node.start))
    }

    fn construct_scalar_value(&self, raw: usize) -> R<Value> {
        let node = &self.doc.nodes[raw];
        let fail = |msg: String| error(None, msg, node.start);
        match node.tag.as_ref() {
            NULL => self.scalar_text(raw, 0).map(|_| Value::Null),
            BOOL => {
                let text = self.scalar_text(raw, 0)?;
                match text.to_lowercase().as_str() {
                    "yes" | "true" | "on" => Ok(Value::Bool(true)),
                    "no" | "false" | "off" => Ok(Value::Bool(false)),
                    _ => Err(fail(format!("KeyError: {}", crate::pyscalar::repr_str(&text.to_lowercase())))),
                }
            }
            STR => self.scalar_text(raw, 0).map(|s| Value::Str(s.to_string())),
            INT => scalars::construct_int(self.scalar_text(raw, 0)?).map_err(fail),
            FLOAT => scalars::construct_float(self.scalar_text(raw, 0)?).map_err(fail),
            BINARY => scalars::construct_binary(self.scalar_text(raw, 0)?).map_err(fail),
            TIMESTAMP => {
                self.scalar_text(raw, 0)?;
                match &node.kind {
                    Kind::Scalar(s) => scalars::construct_timestamp(s).map_err(fail),
                    _ => Err(fail("TypeError: expected string or bytes-like object".to_string())),
                }
            }
            tag => Err(fail(format!("could not determine a constructor for the tag {}", crate::pyscalar::repr_str(tag)))),
        }
    }

    fn item(&mut self, raw: usize) -> R<Item> {
        let slot = self.construct_object(raw)?;
        Ok(Item { slot, span: self.doc.nodes[raw].start.span() })
    }

    fn run_generator(&mut self, raw: usize, slot: usize) -> R<()> {
        let doc = self.doc;
        let node = &doc.nodes[raw];
        let built = match node.tag.as_ref() {
            SEQ => match &node.kind {
                Kind::Seq(items) => Built::Seq(items.iter().map(|&i| self.item(i)).collect::<R<_>>()?),
                _ => return Err(error(None, format!("expected a sequence node, but found {}", node.id()), node.start)),
            },
            MAP => Built::Map(self.construct_mapping(raw)?),
            SET => Built::Set(self.construct_mapping(raw)?.into_iter().map(|(k, _)| k).collect()),
            tag => {
                let what = if tag == OMAP { "while constructing an ordered map" } else { "while constructing pairs" };
                let Kind::Seq(items) = &node.kind else {
                    return Err(error(Some(what), format!("expected a sequence, but found {}", node.id()), node.start));
                };
                let mut out = Vec::new();
                for &sub in items {
                    let subnode = &doc.nodes[sub];
                    let Kind::Map(pairs) = &subnode.kind else {
                        return Err(error(
                            Some(what),
                            format!("expected a mapping of length 1, but found {}", subnode.id()),
                            subnode.start,
                        ));
                    };
                    if pairs.len() != 1 {
                        return Err(error(
                            Some(what),
                            format!("expected a single mapping item, but found {} items", pairs.len()),
                            subnode.start,
                        ));
                    }
                    let (k, v) = pairs[0];
                    let k = self.item(k)?;
                    let v = self.item(v)?;
                    let pair = self.new_slot(Built::Seq(vec![k, v]), subnode.start);
                    out.push(Item { slot: pair, span: subnode.start.span() });
                }
                Built::Seq(out)
            }
        };
        self.slots[slot].built = built;
        Ok(())
    }

    /// `SafeConstructor.flatten_mapping`: merge keys expanded, merged pairs first
    /// (later list elements first, so earlier ones win), own pairs last.
    fn flatten(&mut self, raw: usize, depth: usize) -> R<Rc<Vec<(usize, usize)>>> {
        if let Some(f) = self.flat.get(&raw) {
            return Ok(f.clone());
        }
        let doc = self.doc;
        let node = &doc.nodes[raw];
        if depth >= MAX_DEPTH {
            return Err(error(None, format!("merge keys nest deeper than {MAX_DEPTH}"), node.start));
        }
        let Kind::Map(pairs) = &node.kind else { return Ok(Rc::new(Vec::new())) };
        let mut merge: Vec<(usize, usize)> = Vec::new();
        let mut own = Vec::new();
        for &(k, v) in pairs {
            if doc.nodes[k].tag != MERGE {
                own.push((k, v));
                continue;
            }
            let vnode = &doc.nodes[v];
            match &vnode.kind {
                Kind::Map(_) => merge.extend(self.flatten(v, depth + 1)?.iter().copied()),
                Kind::Seq(items) => {
                    let mut sub = Vec::new();
                    for &s in items {
                        let snode = &doc.nodes[s];
                        if !matches!(snode.kind, Kind::Map(_)) {
                            return Err(error(
                                Some("while constructing a mapping"),
                                format!("expected a mapping for merging, but found {}", snode.id()),
                                snode.start,
                            ));
                        }
                        sub.push(self.flatten(s, depth + 1)?);
                    }
                    for s in sub.iter().rev() {
                        merge.extend(s.iter().copied());
                    }
                }
                Kind::Scalar(_) => {
                    return Err(error(
                        Some("while constructing a mapping"),
                        format!("expected a mapping or list of mappings for merging, but found {}", vnode.id()),
                        vnode.start,
                    ))
                }
            }
        }
        merge.extend(own);
        self.flat_total = self.flat_total.saturating_add(merge.len());
        if self.flat_total > MAX_NODES {
            return Err(error(None, format!("merge key expansion exceeds {MAX_NODES} entries"), node.start));
        }
        let rc = Rc::new(merge);
        self.flat.insert(raw, rc.clone());
        Ok(rc)
    }

    /// `construct_mapping`: Python dict semantics — keys compared with Python equality,
    /// a repeated key keeps its first position and takes the last value.
    fn construct_mapping(&mut self, raw: usize) -> R<Vec<(Item, Item)>> {
        let doc = self.doc;
        let node = &doc.nodes[raw];
        if !matches!(node.kind, Kind::Map(_)) {
            return Err(error(None, format!("expected a mapping node, but found {}", node.id()), node.start));
        }
        let Kind::Map(own) = &node.kind else { return Ok(Vec::new()) };
        let flat;
        let pairs: &[(usize, usize)] = if own.iter().any(|&(k, _)| doc.nodes[k].tag == MERGE) {
            flat = self.flatten(raw, 0)?;
            &flat
        } else {
            own
        };
        // sized once: a mapping has at most one entry per pair
        let mut out: Vec<(Item, Item)> = Vec::with_capacity(pairs.len());
        // small mappings compare keys linearly (borrowed); big ones use a hash index
        let mut keys: Vec<usize> = Vec::with_capacity(pairs.len().min(9));
        let mut index: Option<HashMap<PyKey<'static>, usize>> = None;
        for &(k, v) in pairs.iter() {
            let knode = &doc.nodes[k];
            if is_collection_tag(&knode.tag) {
                return Err(error(Some("while constructing a mapping"), "found unhashable key", knode.start));
            }
            let kslot = if knode.tag == VALUE {
                // flatten_mapping retags `=` keys as str
                let s = self.scalar_text(k, 0)?.to_string();
                self.new_slot(Built::Val(Value::Str(s)), knode.start)
            } else {
                self.construct_object(k)?
            };
            let unhashable = || error(Some("while constructing a mapping"), "found unhashable key", knode.start);
            let Built::Val(kv) = &self.slots[kslot].built else { return Err(unhashable()) };
            let key = PyKey::of(kv, out.len()).ok_or_else(unhashable)?;
            let found = match &index {
                Some(ix) => ix.get(&key).copied(),
                None => keys.iter().position(|&other| match &self.slots[out[other].0.slot].built {
                    Built::Val(ov) => PyKey::of(ov, usize::MAX - 1).is_some_and(|o| o == key),
                    _ => false,
                }),
            };
            let owned = match (&found, &index) {
                (None, Some(_)) => Some(key.into_owned()),
                _ => None,
            };
            let vitem = self.item(v)?;
            let kitem = Item { slot: kslot, span: knode.start.span() };
            match found {
                Some(i) => out[i].1 = vitem,
                None => {
                    if let (Some(ix), Some(key)) = (&mut index, owned) {
                        ix.insert(key, out.len());
                    } else {
                        keys.push(out.len());
                    }
                    out.push((kitem, vitem));
                    if index.is_none() && keys.len() > 8 {
                        let mut ix = HashMap::with_capacity(32);
                        for (i, (ki, _)) in out.iter().enumerate() {
                            if let Built::Val(kv) = &self.slots[ki.slot].built {
                                if let Some(key) = PyKey::of(kv, i) {
                                    ix.insert(key.into_owned(), i);
                                }
                            }
                        }
                        index = Some(ix);
                        keys.clear();
                    }
                }
            }
        }
        Ok(out)
    }

    /// Expanded size and height of a slot (memoized); errors past the bounds.
    fn measure(&self, slot: usize, depth: usize, memo: &mut Vec<Option<(u64, usize)>>) -> R<(u64, usize)> {
        if depth >= MAX_DEPTH {
            return Err(error(
                None,
                format!("exceeded the maximum nesting depth of {MAX_DEPTH} (after alias expansion)"),
                self.slots[slot].start,
            ));
        }
        if let Some((size, height)) = memo[slot] {
            if depth + height > MAX_DEPTH {
                return Err(error(
                    None,
                    format!("exceeded the maximum nesting depth of {MAX_DEPTH} (after alias expansion)"),
                    self.slots[slot].start,
                ));
            }
            return Ok((size, height));
        }
        let (mut size, mut height) = (1u64, 1usize);
        let mut visit = |c: usize, size: &mut u64, height: &mut usize| -> R<()> {
            let (s, h) = self.measure(c, depth + 1, memo)?;
            *size = size.saturating_add(s);
            *height = (*height).max(h + 1);
            if *size > MAX_NODES as u64 {
                return Err(error(
                    None,
                    format!("alias expansion exceeds {MAX_NODES} nodes (the document would expand to more)"),
                    self.slots[slot].start,
                ));
            }
            Ok(())
        };
        match &self.slots[slot].built {
            Built::Val(_) | Built::Pending => {}
            Built::Seq(items) | Built::Set(items) => {
                for i in items {
                    visit(i.slot, &mut size, &mut height)?;
                }
            }
            Built::Map(pairs) => {
                for (k, v) in pairs {
                    visit(k.slot, &mut size, &mut height)?;
                    visit(v.slot, &mut size, &mut height)?;
                }
            }
        }
        memo[slot] = Some((size, height));
        Ok((size, height))
    }

    /// Expands a slot into an owned tree; a slot's last (usually only) use moves its
    /// value instead of cloning it.
    fn assemble(&mut self, item: Item, uses: &mut [u32]) -> Node {
        uses[item.slot] = uses[item.slot].saturating_sub(1);
        let built = if uses[item.slot] == 0 {
            std::mem::replace(&mut self.slots[item.slot].built, Built::Pending)
        } else {
            match &self.slots[item.slot].built {
                Built::Val(v) => Built::Val(v.clone()),
                Built::Pending => Built::Pending,
                Built::Seq(items) => Built::Seq(items.clone()),
                Built::Set(items) => Built::Set(items.clone()),
                Built::Map(pairs) => Built::Map(pairs.clone()),
            }
        };
        let value = match built {
            Built::Val(v) => v,
            Built::Pending => Value::Null,
            Built::Seq(items) => Value::Seq(items.into_iter().map(|i| self.assemble(i, uses)).collect()),
            Built::Set(items) => Value::Set(items.into_iter().map(|i| self.assemble(i, uses)).collect()),
            Built::Map(pairs) => Value::Map(Map {
                entries: pairs.into_iter().map(|(k, v)| (self.assemble(k, uses), self.assemble(v, uses))).collect(),
            }),
        };
        Node { value, span: item.span }
    }

    /// How many times [`Self::assemble`] will visit each slot (aliases make a slot appear
    /// in several places). Bounded by the `measure` check.
    fn uses(&self, root: usize) -> Vec<u32> {
        fn visit(c: &Constructor<'_>, slot: usize, uses: &mut [u32]) {
            uses[slot] = uses[slot].saturating_add(1);
            match &c.slots[slot].built {
                Built::Val(_) | Built::Pending => {}
                Built::Seq(items) | Built::Set(items) => items.iter().for_each(|i| visit(c, i.slot, uses)),
                Built::Map(pairs) => pairs.iter().for_each(|(k, v)| {
                    visit(c, k.slot, uses);
                    visit(c, v.slot, uses);
                }),
            }
        }
        let mut uses = vec![0u32; self.slots.len()];
        visit(self, root, &mut uses);
        uses
    }
}
