//! What fields and attributes are both packed as ([`Counted`]).

use std::sync::Arc;

use super::codec::{Reader, Writer};

/// A packed list in one shared allocation: how many items, then their bytes; none
/// when it is empty.
#[derive(Clone, Default)]
pub struct Counted(Option<Arc<[u8]>>);

impl Counted {
    /// `count` items: what `head` writes (a table the items refer to), then `items`.
    pub fn new(count: u64, head: impl FnOnce(&mut Writer), items: &[u8]) -> Counted {
        if count == 0 {
            return Counted(None);
        }
        let mut w = Writer { bytes: Vec::with_capacity(items.len() + 64) };
        w.varint(count);
        head(&mut w);
        w.bytes.extend_from_slice(items);
        Counted(Some(w.bytes.into()))
    }

    pub fn len(&self) -> usize {
        self.items().1
    }

    /// A reader past the count, and the count.
    pub fn items(&self) -> (Reader<'_>, usize) {
        let Some(bytes) = &self.0 else { return (Reader::new(&[]), 0) };
        let mut reader = Reader::new(bytes);
        let count = reader.varint() as usize;
        (reader, count)
    }

    /// Whether both are one packing (clones of each other).
    pub fn same(&self, other: &Counted) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// Whether both hold the same bytes.
    pub fn same_bytes(&self, other: &Counted) -> bool {
        self.0.as_deref() == other.0.as_deref()
    }
}
