//! The data types of the YAML layer: [`Node`] (a value and where it starts), [`Value`]
//! (what PyYAML's safe constructor builds), [`Map`], dates, [`Span`], [`YamlError`].

/// A position in the source text. `line` and `col` are 1-based, `offset` is in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub line: u32,
    pub col: u32,
    pub offset: usize,
}

/// A value with the position where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

/// A calendar date (`datetime.date`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

/// A `datetime.datetime`; `offset_minutes` is `Some` for an aware value (with a
/// zone), `None` for a naive one. `micros` is the fraction PyYAML keeps (6 digits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DateTime {
    pub date: Date,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub micros: u32,
    pub offset_minutes: Option<i32>,
}

/// A mapping in insertion order. Keys are unique under Python equality; a repeated key
/// keeps its first position and takes the last value, as a Python `dict` does.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    pub entries: Vec<(Node, Node)>,
}

/// What PyYAML's safe constructor builds.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A Python `int` that fits in 64 bits.
    Int(i64),
    /// A Python `int` that does not, in decimal.
    BigInt(String),
    Float(f64),
    Str(String),
    /// `!!binary`.
    Bytes(Vec<u8>),
    Date(Date),
    DateTime(DateTime),
    Seq(Vec<Node>),
    Map(Map),
    /// `!!set`: the keys of a mapping with null values.
    Set(Vec<Node>),
}

/// A syntax or construction error, at PyYAML's problem mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Value {
    /// A Python int of this sign and magnitude: `Int` when it fits in `i64`, else
    /// `BigInt`.
    pub fn from_big(magnitude: &crate::pyscalar::num::Big, negative: bool) -> Value {
        let dec = magnitude.to_decimal();
        let signed = if negative && dec != "0" { format!("-{dec}") } else { dec };
        match signed.parse::<i64>() {
            Ok(v) => Value::Int(v),
            Err(_) => Value::BigInt(signed),
        }
    }
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for YamlError {}
