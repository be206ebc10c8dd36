//! The keys of a definition's own file, packed ([`Attributes`]).

use std::borrow::Borrow;
use std::fmt;

use serde::{Serialize, Serializer};
use serde_json::Value as Json;

use crate::store::{Counted, Reader, Writer};
use super::Attribute;

/// A definition's attributes in order, packed into one allocation: how many, then
/// key, line and value of each. Reading one unpacks an [`Attribute`]. Cloning shares
/// the bytes.
#[derive(Clone, Default)]
pub struct Attributes(Counted);

impl Attributes {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each attribute, unpacked.
    pub fn iter(&self) -> Iter<'_> {
        let (reader, left) = self.0.items();
        Iter { reader, left }
    }

    /// Each attribute's key and line, without unpacking values.
    pub fn lines(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        let mut iter = self.iter();
        std::iter::from_fn(move || {
            if iter.left == 0 {
                return None;
            }
            iter.left -= 1;
            let key = iter.reader.text();
            let line = iter.reader.varint() as u32;
            iter.reader.skip_value();
            Some((key, line))
        })
    }

    /// The attribute at `index`, unpacked.
    pub fn get(&self, index: usize) -> Option<Attribute> {
        self.iter().nth(index)
    }
}

pub struct Iter<'a> {
    reader: Reader<'a>,
    left: usize,
}

impl Iterator for Iter<'_> {
    type Item = Attribute;

    fn next(&mut self) -> Option<Attribute> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let key = self.reader.text().into();
        let line = self.reader.varint() as u32;
        let value = self.reader.value();
        Some(Attribute { key, line, value })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }

    fn nth(&mut self, n: usize) -> Option<Attribute> {
        for _ in 0..n.min(self.left) {
            self.left -= 1;
            self.reader.text();
            self.reader.varint();
            self.reader.skip_value();
        }
        self.next()
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// Packs attributes as a file is read, from the values as serde_json has them: no
/// [`Attribute`] is made.
#[derive(Default)]
pub struct AttributesBuilder {
    w: Writer,
    len: u32,
}


impl AttributesBuilder {
    pub fn push(&mut self, key: &str, line: u32, value: &Json) {
        self.start(key, line);
        self.w.value(value);
    }

    fn start(&mut self, key: &str, line: u32) {
        self.len += 1;
        self.w.text(key);
        self.w.varint(u64::from(line));
    }

    pub fn finish(self) -> Attributes {
        Attributes(Counted::new(u64::from(self.len), |_| {}, &self.w.bytes))
    }
}

impl<A: Borrow<Attribute>> FromIterator<A> for Attributes {
    fn from_iter<I: IntoIterator<Item = A>>(attributes: I) -> Attributes {
        let mut builder = AttributesBuilder::default();
        for a in attributes {
            let a = a.borrow();
            builder.start(&a.key, a.line);
            builder.w.value(&a.value);
        }
        builder.finish()
    }
}

impl From<Vec<Attribute>> for Attributes {
    fn from(attributes: Vec<Attribute>) -> Attributes {
        attributes.iter().collect()
    }
}

impl PartialEq for Attributes {
    fn eq(&self, other: &Attributes) -> bool {
        self.0.same(&other.0) || self.0.same_bytes(&other.0) || (self.len() == other.len() && self.iter().eq(other.iter()))
    }
}

impl fmt::Debug for Attributes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Attributes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn attributes_unpack_as_they_were_packed() {
        let attributes = vec![
            Attribute::new("name", 2, json!("coder")),
            Attribute::new("tools", 3, json!(["a", "b"])),
            Attribute::new("a key of many words", 700, json!({"x": 1.5})),
        ];
        let packed = Attributes::from(attributes.clone());
        assert_eq!(packed.iter().collect::<Vec<_>>(), attributes);
        assert_eq!(packed.lines().collect::<Vec<_>>(), [("name", 2), ("tools", 3), ("a key of many words", 700)]);
        assert_eq!(packed.get(1).as_ref(), Some(&attributes[1]));
        assert_eq!(packed.get(3), None);
        assert_eq!(serde_json::to_value(&packed).unwrap(), serde_json::to_value(&attributes).unwrap());
        assert_eq!(packed, Attributes::from(attributes[..].to_vec()));
        assert_ne!(packed, Attributes::from(attributes[..2].to_vec()));
        assert!(Attributes::default().is_empty());
        let mut built = AttributesBuilder::default();
        for a in &attributes {
            built.push(&a.key, a.line, &a.value.to_json());
        }
        let built = built.finish();
        assert!(built.0.same_bytes(&packed.0));
        assert!(AttributesBuilder::default().finish().is_empty());
    }
}
