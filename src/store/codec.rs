//! The byte form of packed values: numbers as LEB128 varints, texts as a length and
//! their UTF-8, a JSON value as a tag and its parts. Only this module's own writer
//! makes the bytes its reader reads. One encoder writes both JSON types the catalog
//! packs (serde_json's as files are read, [`CompactJson`] as fields are built), so
//! the two cannot drift apart.

use std::borrow::Cow;

use serde_json::{Number, Value as Json};

use super::literals;
use super::CompactJson;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const UNSIGNED: u8 = 3;
const NEGATIVE: u8 = 4;
const FLOAT: u8 = 5;
const STRING: u8 = 6;
const ARRAY: u8 = 7;
const OBJECT: u8 = 8;

#[derive(Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn byte(&mut self, b: u8) {
        self.bytes.push(b);
    }

    pub fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.bytes.push(n as u8 | 0x80);
            n >>= 7;
        }
        self.bytes.push(n as u8);
    }

    pub fn text(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.bytes.extend_from_slice(s.as_bytes());
    }

    /// A key or rule: a program text by its number, any other by its bytes. The low
    /// bit tells them apart.
    // The `Cow` itself: its variant tells a literal from a made text.
    #[allow(clippy::ptr_arg)]
    pub fn label(&mut self, label: &Cow<'static, str>) {
        if let Cow::Borrowed(text) = label {
            if let Some(n) = literals::number(text) {
                return self.varint(u64::from(n) << 1 | 1);
            }
        }
        self.varint((label.len() as u64) << 1);
        self.bytes.extend_from_slice(label.as_bytes());
    }

    pub fn value<V: JsonValue>(&mut self, value: &V) {
        match value.shape() {
            Shape::Null => self.byte(NULL),
            Shape::Bool(false) => self.byte(FALSE),
            Shape::Bool(true) => self.byte(TRUE),
            Shape::Number(n) => self.number(n),
            // Its bits, which the reader finds not finite.
            Shape::NonFinite(f) => {
                self.byte(FLOAT);
                self.bytes.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Shape::String(s) => {
                self.byte(STRING);
                self.text(s);
            }
            Shape::Array(items) => {
                self.byte(ARRAY);
                self.varint(items.len() as u64);
                items.iter().for_each(|item| self.value(item));
            }
            Shape::Object(entries) => {
                self.byte(OBJECT);
                self.varint(entries.len() as u64);
                for (k, v) in entries {
                    self.text(k);
                    self.value(v);
                }
            }
        }
    }

    /// Exactly: an integer as its magnitude, a float as its bits (`-0.0` and `1.0`
    /// print as written).
    fn number(&mut self, n: &Number) {
        if let Some(u) = n.as_u64() {
            self.byte(UNSIGNED);
            self.varint(u);
        } else if let Some(i) = n.as_i64() {
            self.byte(NEGATIVE);
            self.varint(i.unsigned_abs());
        } else {
            self.byte(FLOAT);
            self.bytes.extend_from_slice(&n.as_f64().unwrap_or_default().to_bits().to_le_bytes());
        }
    }
}

/// A JSON value as the codec sees it.
pub enum Shape<'a, V: JsonValue + 'a> {
    Null,
    Bool(bool),
    Number(&'a Number),
    String(&'a str),
    Array(&'a [V]),
    Object(V::Entries<'a>),
    /// NaN or an infinity (`CompactJson::NonFinite`, or its marker in serde_json's).
    NonFinite(f64),
}

/// What [`Writer::value`] writes: a JSON value that shows its [`Shape`].
pub trait JsonValue: Sized {
    type Entries<'a>: ExactSizeIterator<Item = (&'a str, &'a Self)>
    where
        Self: 'a;
    fn shape(&self) -> Shape<'_, Self>;
}

type JsonEntry<'a> = (&'a String, &'a Json);

fn json_entry<'a>((k, v): JsonEntry<'a>) -> (&'a str, &'a Json) {
    (k, v)
}

impl JsonValue for Json {
    type Entries<'a> = std::iter::Map<serde_json::map::Iter<'a>, fn(JsonEntry<'a>) -> (&'a str, &'a Json)>;

    fn shape<'a>(&'a self) -> Shape<'a, Json> {
        match self {
            Json::Null => Shape::Null,
            Json::Bool(b) => Shape::Bool(*b),
            Json::Number(n) => Shape::Number(n),
            Json::String(s) => Shape::String(s),
            Json::Array(items) => Shape::Array(items),
            Json::Object(map) => match super::json::as_nonfinite(self) {
                Some(f) => Shape::NonFinite(f),
                None => Shape::Object(map.iter().map(json_entry as fn(JsonEntry<'a>) -> (&'a str, &'a Json))),
            },
        }
    }
}

pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.bytes[self.at];
        self.at += 1;
        b
    }

    pub fn varint(&mut self) -> u64 {
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte();
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return n;
            }
            shift += 7;
        }
    }

    fn bytes(&mut self, len: usize) -> &'a [u8] {
        let out = &self.bytes[self.at..self.at + len];
        self.at += len;
        out
    }

    pub fn text(&mut self) -> &'a str {
        let len = self.varint() as usize;
        // The writer wrote a `str`; a failure here is a bug, shown as an empty text.
        std::str::from_utf8(self.bytes(len)).unwrap_or_default()
    }

    pub fn label(&mut self) -> Cow<'static, str> {
        let n = self.varint();
        if n & 1 == 1 {
            return Cow::Borrowed(literals::text((n >> 1) as u32));
        }
        let bytes = self.bytes((n >> 1) as usize);
        Cow::Owned(String::from_utf8_lossy(bytes).into_owned())
    }

    pub fn skip_label(&mut self) {
        let n = self.varint();
        if n & 1 == 0 {
            self.at += (n >> 1) as usize;
        }
    }

    pub fn value(&mut self) -> CompactJson {
        match self.byte() {
            FALSE => CompactJson::Bool(false),
            TRUE => CompactJson::Bool(true),
            UNSIGNED => CompactJson::Number(self.varint().into()),
            NEGATIVE => {
                let magnitude = self.varint();
                CompactJson::Number((0i64.wrapping_sub_unsigned(magnitude)).into())
            }
            FLOAT => {
                let bits = u64::from_le_bytes(self.bytes(8).try_into().unwrap_or_default());
                let f = f64::from_bits(bits);
                Number::from_f64(f).map_or(CompactJson::NonFinite(f), CompactJson::Number)
            }
            STRING => CompactJson::String(self.text().into()),
            ARRAY => {
                let len = self.varint() as usize;
                CompactJson::Array((0..len).map(|_| self.value()).collect())
            }
            OBJECT => {
                let len = self.varint() as usize;
                CompactJson::Object((0..len).map(|_| (Box::from(self.text()), self.value())).collect())
            }
            _ => CompactJson::Null,
        }
    }

    pub fn skip_value(&mut self) {
        match self.byte() {
            UNSIGNED | NEGATIVE => {
                self.varint();
            }
            FLOAT => self.at += 8,
            STRING => {
                let len = self.varint() as usize;
                self.at += len;
            }
            ARRAY => {
                for _ in 0..self.varint() {
                    self.skip_value();
                }
            }
            OBJECT => {
                for _ in 0..self.varint() {
                    let len = self.varint() as usize;
                    self.at += len;
                    self.skip_value();
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_come_back_as_they_were_written() {
        let values = [
            json!(null),
            json!(false),
            json!(true),
            json!(0),
            json!(18446744073709551615u64),
            json!(-1),
            json!(-9223372036854775808i64),
            json!(0.1),
            json!(-0.0),
            json!(1.0),
            json!(1e300),
            json!("quote \" é \u{7} \u{2028}"),
            json!([]),
            json!({}),
            json!({"z": 1, "a": [1, 2.5, {"y": null, "b": "x"}], "m": {"k": {}}}),
            json!("x".repeat(300)),
        ];
        let mut w = Writer::default();
        for v in &values {
            w.value(&CompactJson::from(v.clone()));
            let mut direct = Writer::default();
            direct.value(v);
            let mut compact = Writer::default();
            compact.value(&CompactJson::from(v.clone()));
            assert_eq!(direct.bytes, compact.bytes);
            w.label(&Cow::Borrowed("a codec test label"));
            w.label(&Cow::Owned("made".into()));
        }
        let mut r = Reader::new(&w.bytes);
        for v in &values {
            let back = r.value();
            assert_eq!(back.to_string(), v.to_string());
            assert_eq!(back.to_json(), *v);
            assert_eq!(r.label(), "a codec test label");
            assert!(matches!(r.label(), Cow::Owned(s) if s == "made"));
        }
        assert_eq!(r.at, w.bytes.len());
        let mut skipping = Reader::new(&w.bytes);
        for _ in &values {
            skipping.skip_value();
            skipping.skip_label();
            skipping.skip_label();
        }
        assert_eq!(skipping.at, w.bytes.len());
    }
}
