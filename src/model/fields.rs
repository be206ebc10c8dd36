//! An agent's effective fields, packed ([`Fields`]).

use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::store::{Counted, Reader, Writer};
use super::{Field, FieldOrigin, Provenance, Site};

/// An agent's effective fields in order, packed into one allocation: how many, the
/// source keys the sites name (each once), then each field's key, rule, sites (by
/// source number) and value. Reading one unpacks a [`Field`]. Cloning shares the
/// bytes.
#[derive(Clone, Default)]
pub struct Fields(Counted);

impl Fields {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each field, unpacked.
    pub fn iter(&self) -> Iter<'_> {
        let (mut reader, left) = self.0.items();
        let sources = if left == 0 { Vec::new() } else { (0..reader.varint()).map(|_| Arc::from(reader.text())).collect() };
        Iter { sources, reader, left }
    }

    /// The field at `index`, unpacked (the ones before it are skipped, not unpacked).
    pub fn get(&self, index: usize) -> Option<Field> {
        let mut iter = self.iter();
        if index >= iter.left {
            return None;
        }
        for _ in 0..index {
            skip(&mut iter.reader);
        }
        iter.left -= index;
        iter.next()
    }

    /// The first field named `key`.
    pub fn find(&self, key: &str) -> Option<Field> {
        self.iter().find(|f| f.key == key)
    }

    /// Whether both are one packing (clones of each other): equal without unpacking.
    pub fn same(&self, other: &Fields) -> bool {
        self.0.same(&other.0)
    }
}

fn provenance(b: u8) -> Provenance {
    match b {
        0 => Provenance::Own,
        1 => Provenance::Inherited,
        2 => Provenance::Merged,
        _ => Provenance::Default,
    }
}

fn skip(r: &mut Reader<'_>) {
    r.byte();
    r.skip_label();
    r.skip_label();
    for _ in 0..r.varint() {
        r.varint();
        r.varint();
    }
    r.skip_value();
}

pub struct Iter<'a> {
    sources: Vec<Arc<str>>,
    reader: Reader<'a>,
    left: usize,
}

impl Iterator for Iter<'_> {
    type Item = Field;

    fn next(&mut self) -> Option<Field> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let r = &mut self.reader;
        let provenance = provenance(r.byte());
        let key = r.label();
        let rule = r.label();
        let sites = (0..r.varint())
            .map(|_| {
                let source = &self.sources[r.varint() as usize];
                let line = r.varint();
                Site::new(source, (line > 0).then(|| (line - 1) as u32))
            })
            .collect();
        let value = r.value();
        Some(Field { key, value, origin: FieldOrigin { provenance, sites, rule } })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<F: Borrow<Field>> FromIterator<F> for Fields {
    fn from_iter<I: IntoIterator<Item = F>>(fields: I) -> Fields {
        let fields = fields.into_iter();
        let mut w = Writer { bytes: Vec::with_capacity(32 * fields.size_hint().0) };
        let mut sources: Vec<Arc<str>> = Vec::new();
        let mut len = 0u64;
        for field in fields {
            let f = field.borrow();
            len += 1;
            w.byte(f.origin.provenance as u8);
            w.label(&f.key);
            w.label(&f.origin.rule);
            w.varint(f.origin.sites.len() as u64);
            for site in f.origin.sites.iter() {
                // Mostly one or two files: found by address, else by text.
                let at = sources.iter().position(|s| Arc::ptr_eq(s, &site.source) || *s == site.source);
                let at = at.unwrap_or_else(|| {
                    sources.push(Arc::clone(&site.source));
                    sources.len() - 1
                });
                w.varint(at as u64);
                w.varint(site.line.map_or(0, |l| u64::from(l) + 1));
            }
            w.value(&f.value);
        }
        let head = |head: &mut Writer| {
            head.varint(sources.len() as u64);
            sources.iter().for_each(|s| head.text(s));
        };
        Fields(Counted::new(len, head, &w.bytes))
    }
}

impl From<Vec<Arc<Field>>> for Fields {
    fn from(fields: Vec<Arc<Field>>) -> Fields {
        fields.iter().map(|f| &**f).collect()
    }
}

impl From<Vec<Field>> for Fields {
    fn from(fields: Vec<Field>) -> Fields {
        fields.iter().collect()
    }
}

impl PartialEq for Fields {
    fn eq(&self, other: &Fields) -> bool {
        self.same(other) || (self.len() == other.len() && self.iter().eq(other.iter()))
    }
}

impl fmt::Debug for Fields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::json;

    use super::*;

    fn sample() -> Vec<Field> {
        let a: Arc<str> = "project:a.md".into();
        let b: Arc<str> = "home:b.md".into();
        vec![
            Field::new("model", json!("gpt-4o"), FieldOrigin::own(&a, Some(3), "set in the file")),
            Field::new("tools", json!(["x", {"k": -2}]), FieldOrigin {
                provenance: Provenance::Merged,
                sites: Box::new([Site::new(&a, Some(4)), Site::new(&b, None), Site::new(&a, Some(9))]),
                rule: Cow::Owned("merged: a then b".into()),
            }),
            Field::new(String::from("made key"), json!(null), FieldOrigin::default("framework default")),
            Field::new("temperature", json!(0.25), FieldOrigin { provenance: Provenance::Inherited, sites: Box::new([Site::new(&b, Some(70000))]), rule: "inherited".into() }),
        ]
    }

    /// Unpacked, each field is the one packed, in order, however it is read.
    #[test]
    fn fields_unpack_as_they_were_packed() {
        let fields = sample();
        let packed = Fields::from(fields.clone());
        assert_eq!(packed.len(), 4);
        assert_eq!(packed.iter().collect::<Vec<_>>(), fields);
        for (i, f) in fields.iter().enumerate() {
            assert_eq!(packed.get(i).as_ref(), Some(f));
        }
        assert_eq!(packed.get(4), None);
        assert_eq!(packed.find("temperature").map(|f| f.value.to_string()), Some("0.25".into()));
        assert_eq!(serde_json::to_value(&packed).unwrap(), serde_json::to_value(&fields).unwrap());
        assert!(packed.iter().nth(1).unwrap().origin.sites.iter().filter(|s| &*s.source == "project:a.md").count() == 2);
        assert_eq!(packed, Fields::from(fields.clone()));
        assert_ne!(packed, Fields::from(fields[..3].to_vec()));
        assert!(Fields::default().is_empty() && Fields::from(Vec::<Field>::new()) == Fields::default());
    }
}
