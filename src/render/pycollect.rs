//! Jinja2's filters over sequences where minijinja's differ (`join`, `sum`, `min`,
//! `max` with their keyword arguments, `groupby`'s tuples, `urlencode`, `attr`), the
//! `cycler` global with its `current`, and the `str` methods minijinja-contrib lacks.
//! Each walks at most [`MAX_ITEMS`] items: a lazy sequence costs nothing to make
//! (`[1] * 10**8`), walking it item by item no fuel bounds.

use std::sync::{Arc, Mutex};

use minijinja::value::{Enumerator, Kwargs, Object, ObjectRepr, Rest, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};

use super::python::{py_str, too_large, MAX_TEXT};

/// Most items a filter walks.
const MAX_ITEMS: usize = 1 << 20;

pub fn walkable(v: &Value) -> Result<(), Error> {
    match v.len() {
        Some(n) if n > MAX_ITEMS => Err(Error::new(
            ErrorKind::WriteFailure,
            format!("a sequence of {n} items, more than the {MAX_ITEMS} agentry walks"),
        )),
        _ => Ok(()),
    }
}

fn text_of(v: &Value) -> String {
    v.as_str().map_or_else(|| py_str(v), str::to_string)
}

/// `environment.getitem(item, attribute)` for a dotted `attribute` (`a.b`, `0`).
fn attribute(item: &Value, path: &str) -> Value {
    path.split('.').fold(item.clone(), |v, part| match part.parse::<i64>() {
        Ok(i) => v.get_item(&Value::from(i)).unwrap_or_default(),
        Err(_) => v.get_attr(part).unwrap_or_default(),
    })
}

fn items_of(v: &Value, attr: Option<&str>) -> Result<Vec<Value>, Error> {
    walkable(v)?;
    let items = v.try_iter()?;
    Ok(match attr {
        Some(path) => items.map(|x| attribute(&x, path)).collect(),
        None => items.collect(),
    })
}

/// Jinja2's `join(d='', attribute=None)` without autoescape:
/// `str(d).join(map(str, value))`.
pub fn join(v: Value, joiner: Option<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let joiner = joiner.or(kwargs.get("d")?).map_or_else(String::new, |j| text_of(&j));
    let attr: Option<String> = kwargs.get("attribute")?;
    kwargs.assert_all_used()?;
    if let (Some(text), None) = (v.as_str(), &attr) {
        return Ok(Value::from(text.chars().map(String::from).collect::<Vec<_>>().join(&joiner)));
    }
    let mut out = String::new();
    for (i, item) in items_of(&v, attr.as_deref())?.iter().enumerate() {
        if i > 0 {
            out.push_str(&joiner);
        }
        out.push_str(&text_of(item));
        if out.len() > MAX_TEXT {
            return Err(too_large());
        }
    }
    Ok(Value::from(out))
}

/// A Python number as `sum` adds it: an integer until a float joins.
enum Total {
    Int(i128),
    Float(f64),
}

/// Jinja2's `sum(iterable, attribute=None, start=0)`: Python's `sum`, left to right.
pub fn sum(v: Value, attribute: Option<String>, start: Option<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let attribute = attribute.or(kwargs.get("attribute")?);
    let start = start.or(kwargs.get("start")?);
    kwargs.assert_all_used()?;
    let number = |x: &Value| -> Result<Total, Error> {
        match x.kind() {
            ValueKind::Bool => Ok(Total::Int(i128::from(x.is_true()))),
            ValueKind::Number if x.is_integer() => Ok(Total::Int(i128::try_from(x.clone())?)),
            ValueKind::Number => Ok(Total::Float(f64::try_from(x.clone())?)),
            _ => Err(Error::new(ErrorKind::InvalidOperation, format!("TypeError: unsupported operand type(s) for +: 'int' and '{}'", kind_name(x)))),
        }
    };
    let mut total = match &start {
        Some(s) => number(s)?,
        None => Total::Int(0),
    };
    for item in items_of(&v, attribute.as_deref())? {
        total = match (total, number(&item)?) {
            (Total::Int(a), Total::Int(b)) => Total::Int(a.checked_add(b).ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "the sum is too large"))?),
            (Total::Int(a), Total::Float(b)) => Total::Float(a as f64 + b),
            (Total::Float(a), Total::Int(b)) => Total::Float(a + b as f64),
            (Total::Float(a), Total::Float(b)) => Total::Float(a + b),
        };
    }
    Ok(match total {
        Total::Int(i) => Value::from(i),
        Total::Float(f) => Value::from(f),
    })
}

fn kind_name(v: &Value) -> &'static str {
    match v.kind() {
        ValueKind::String => "str",
        ValueKind::Seq => "list",
        ValueKind::Map => "dict",
        ValueKind::None | ValueKind::Undefined => "NoneType",
        _ => "object",
    }
}

/// Jinja2's `min`/`max(value, case_sensitive=False, attribute=None)`: the first
/// smallest (largest) item by the attribute, strings compared lower-cased unless
/// case-sensitive.
fn extreme(v: Value, case_sensitive: Option<bool>, attribute: Option<String>, kwargs: Kwargs, largest: bool) -> Result<Value, Error> {
    let case_sensitive = case_sensitive.or(kwargs.get("case_sensitive")?).unwrap_or(false);
    let attribute = attribute.or(kwargs.get("attribute")?);
    kwargs.assert_all_used()?;
    walkable(&v)?;
    let key = |x: &Value| -> Value {
        let k = attribute.as_deref().map_or_else(|| x.clone(), |a| attribute_of(x, a));
        match k.as_str() {
            Some(s) if !case_sensitive && k.kind() == ValueKind::String => Value::from(s.to_lowercase()),
            _ => k,
        }
    };
    let mut best: Option<(Value, Value)> = None;
    for item in v.try_iter()? {
        let k = key(&item);
        let better = match &best {
            None => true,
            Some((_, bk)) => {
                let order = k.partial_cmp(bk).ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "TypeError: the items cannot be compared"))?;
                if largest { order.is_gt() } else { order.is_lt() }
            }
        };
        if better {
            best = Some((item, k));
        }
    }
    best.map(|(item, _)| item).ok_or_else(|| Error::new(ErrorKind::UndefinedError, "No aggregated item, sequence was empty."))
}

fn attribute_of(x: &Value, path: &str) -> Value {
    attribute(x, path)
}

pub fn min(v: Value, case_sensitive: Option<bool>, attribute: Option<String>, kwargs: Kwargs) -> Result<Value, Error> {
    extreme(v, case_sensitive, attribute, kwargs, false)
}

pub fn max(v: Value, case_sensitive: Option<bool>, attribute: Option<String>, kwargs: Kwargs) -> Result<Value, Error> {
    extreme(v, case_sensitive, attribute, kwargs, true)
}

/// A group of `groupby`: a named tuple `(grouper, list)`, printed as a tuple.
#[derive(Debug)]
pub struct GroupTuple {
    grouper: Value,
    list: Value,
}

impl Object for GroupTuple {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match (key.as_i64(), key.as_str()) {
            (Some(0 | -2), _) | (_, Some("grouper")) => Some(self.grouper.clone()),
            (Some(1 | -1), _) | (_, Some("list")) => Some(self.list.clone()),
            _ => None,
        }
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(2)
    }
}

/// Jinja2's `groupby`: minijinja's groups, as the named tuples Jinja2 prints.
pub fn groupby(v: Value, attribute: Option<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    walkable(&v)?;
    let attribute = attribute.map(|a| text_of(&a));
    let groups = minijinja::filters::groupby(v, attribute.as_deref(), kwargs)?;
    let groups: Vec<Value> = groups
        .try_iter()?
        .map(|g| {
            let grouper = g.get_attr("grouper").unwrap_or_default();
            let list = g.get_attr("list").unwrap_or_default();
            Value::from_object(GroupTuple { grouper, list })
        })
        .collect();
    Ok(Value::from(groups))
}

/// `urllib.parse.quote_from_bytes` of the UTF-8 bytes, `safe` besides the
/// always-safe `A-Za-z0-9_.-~`; in a query (`for_qs`) a space is `+`.
fn url_quote(text: &str, for_qs: bool) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"_.-~".contains(&b) || (!for_qs && b == b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if for_qs {
        out.replace("%20", "+")
    } else {
        out
    }
}

/// Jinja2's `urlencode`: a string quoted (`/` kept), a dict or a sequence of pairs as
/// a query string.
pub fn urlencode(v: Value) -> Result<Value, Error> {
    if v.kind() == ValueKind::String {
        return Ok(Value::from(url_quote(v.as_str().unwrap_or_default(), false)));
    }
    let pairs: Vec<(Value, Value)> = if v.kind() == ValueKind::Map {
        walkable(&v)?;
        v.try_iter()?.map(|k| (k.clone(), v.get_item(&k).unwrap_or_default())).collect()
    } else if matches!(v.kind(), ValueKind::Seq | ValueKind::Iterable) {
        walkable(&v)?;
        let mut pairs = Vec::new();
        for pair in v.try_iter()? {
            let items: Vec<Value> = pair.try_iter()?.collect();
            let [k, x] = <[Value; 2]>::try_from(items).map_err(|_| Error::new(ErrorKind::InvalidOperation, "ValueError: too many values to unpack (expected 2)"))?;
            pairs.push((k, x));
        }
        pairs
    } else {
        return Ok(Value::from(url_quote(&py_str(&v), false)));
    };
    let parts: Vec<String> = pairs.iter().map(|(k, x)| format!("{}={}", url_quote(&text_of(k), true), url_quote(&text_of(x), true))).collect();
    Ok(Value::from(parts.join("&")))
}

/// Jinja2's `attr(obj, name)`: the attribute, never an item (a dict's key is not
/// an attribute of the dict; a `namespace`, which minijinja keeps as a map too, is
/// taken for a dict here).
pub fn attr(v: Value, name: String) -> Value {
    let methods: &[&str] = match v.kind() {
        ValueKind::String => &STR_METHODS,
        ValueKind::Map => &["clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"],
        ValueKind::Seq => &["append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse", "sort"],
        _ => &[],
    };
    if methods.contains(&name.as_str()) {
        return Value::from_object(BoundMethod { value: v, name });
    }
    if matches!(v.kind(), ValueKind::Map | ValueKind::String | ValueKind::Seq) {
        return Value::UNDEFINED;
    }
    v.get_attr(&name).unwrap_or_default()
}

/// Python's `str` methods (what `getattr` finds on a string).
const STR_METHODS: [&str; 47] = [
    "capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format", "format_map",
    "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric",
    "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans", "partition",
    "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split",
    "splitlines", "startswith", "strip", "swapcase", "title", "translate", "upper", "zfill",
];

/// A method of a value, as `attr` finds it: calling it calls the method.
#[derive(Debug)]
pub struct BoundMethod {
    value: Value,
    name: String,
}

impl Object for BoundMethod {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn call(self: &Arc<Self>, state: &State, args: &[Value]) -> Result<Value, Error> {
        self.value.call_method(state, &self.name, args)
    }
}

/// Jinja2's `cycler(*items)`: `next()` gives the current item and moves on,
/// `current` is the item `next()` gives next, `reset()` starts over.
#[derive(Debug)]
pub struct Cycler {
    items: Vec<Value>,
    at: Mutex<usize>,
}

impl Cycler {
    fn position(&self) -> usize {
        *self.at.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Object for Cycler {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match key.as_str()? {
            "current" => self.items.get(self.position()).cloned(),
            "items" => Some(Value::from(self.items.clone())),
            _ => None,
        }
    }

    fn call_method(self: &Arc<Self>, _state: &State, method: &str, args: &[Value]) -> Result<Value, Error> {
        let mut at = self.at.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match (method, args) {
            ("next", []) => {
                let item = self.items.get(*at).cloned().unwrap_or_default();
                *at = (*at + 1) % self.items.len().max(1);
                Ok(item)
            }
            ("reset", []) => {
                *at = 0;
                Ok(Value::from(()))
            }
            _ => Err(Error::new(ErrorKind::UnknownMethod, format!("cycler has no method named {method}"))),
        }
    }
}

pub fn cycler(items: Rest<Value>) -> Result<Value, Error> {
    if items.0.is_empty() {
        return Err(Error::new(ErrorKind::InvalidOperation, "at least one item has to be provided"));
    }
    Ok(Value::from_object(Cycler { items: items.0, at: Mutex::new(0) }))
}

/// `str` methods minijinja-contrib lacks: padding (`center`, `ljust`, `rjust`,
/// `zfill`), `partition`, `rpartition`, `swapcase`, `casefold`, `removeprefix`,
/// `removesuffix`. None when `method` is none of them.
pub fn string_method(text: &str, method: &str, args: &[Value]) -> Option<Result<Value, Error>> {
    let width = |i: usize| -> Result<usize, Error> {
        let w = args.get(i).and_then(Value::as_i64).ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "TypeError: an integer is required"))?;
        let w = usize::try_from(w).unwrap_or(0);
        if w > MAX_TEXT {
            return Err(too_large());
        }
        Ok(w)
    };
    let fill = || -> Result<char, Error> {
        match args.get(1) {
            None => Ok(' '),
            Some(f) => {
                let mut chars = f.as_str().unwrap_or_default().chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Ok(c),
                    _ => Err(Error::new(ErrorKind::InvalidOperation, "TypeError: The fill character must be exactly one character long")),
                }
            }
        }
    };
    let len = text.chars().count();
    let pad = |n: usize, c: char| c.to_string().repeat(n);
    let tuple = |a: &str, b: &str, c: &str| Value::from_object(super::Tuple(vec![Value::from(a), Value::from(b), Value::from(c)]));
    let result = (|| -> Result<Value, Error> {
        Ok(match method {
            "center" => {
                let (w, c) = (width(0)?, fill()?);
                if w <= len {
                    return Ok(Value::from(text));
                }
                let total = w - len;
                let left = total / 2 + (total & w & 1);
                Value::from(format!("{}{text}{}", pad(left, c), pad(total - left, c)))
            }
            "ljust" => Value::from(format!("{text}{}", pad(width(0)?.saturating_sub(len), fill()?))),
            "rjust" => Value::from(format!("{}{text}", pad(width(0)?.saturating_sub(len), fill()?))),
            "zfill" => {
                let fillers = width(0)?.saturating_sub(len);
                let (sign, digits) = match text.chars().next() {
                    Some(c @ ('+' | '-')) => (c.to_string(), &text[1..]),
                    _ => (String::new(), text),
                };
                Value::from(format!("{sign}{}{digits}", "0".repeat(fillers)))
            }
            "partition" | "rpartition" => {
                let sep = args.first().and_then(Value::as_str).ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "TypeError: must be str"))?;
                if sep.is_empty() {
                    return Err(Error::new(ErrorKind::InvalidOperation, "ValueError: empty separator"));
                }
                let found = if method == "partition" { text.find(sep) } else { text.rfind(sep) };
                match (found, method) {
                    (Some(at), _) => tuple(&text[..at], sep, &text[at + sep.len()..]),
                    (None, "partition") => tuple(text, "", ""),
                    (None, _) => tuple("", "", text),
                }
            }
            "swapcase" => Value::from(
                text.chars()
                    .flat_map(|c| -> Box<dyn Iterator<Item = char>> {
                        if c.is_uppercase() {
                            Box::new(c.to_lowercase())
                        } else if c.is_lowercase() {
                            Box::new(c.to_uppercase())
                        } else {
                            Box::new(std::iter::once(c))
                        }
                    })
                    .collect::<String>(),
            ),
            "casefold" => Value::from(text.to_lowercase().replace('ß', "ss")),
            "removeprefix" | "removesuffix" => {
                let part = args.first().and_then(Value::as_str).unwrap_or_default();
                let kept = if method == "removeprefix" { text.strip_prefix(part) } else { text.strip_suffix(part) };
                Value::from(kept.filter(|_| !part.is_empty()).unwrap_or(text))
            }
            _ => return Err(Error::new(ErrorKind::UnknownMethod, "")),
        })
    })();
    match result {
        Err(e) if e.kind() == ErrorKind::UnknownMethod => None,
        other => Some(other),
    }
}

#[cfg(test)]
mod tests {
    fn render(template: &str) -> String {
        let mut env = minijinja::Environment::new();
        super::super::install_jinja2_filters(&mut env);
        env.set_formatter(super::super::python_formatter);
        env.render_str(template, ()).unwrap_or_else(|e| format!("error: {e}"))
    }

    /// Outputs of Jinja2 3.1 (Python 3.11) for the same templates.
    #[test]
    fn sequences_filter_as_jinja2_does() {
        assert_eq!(render("{{ [1, none, 'a', [2, 'b'], 1.5]|join('-') }}{{ 'abc'|join('.') }}{{ [{'n': 'x'}, {'n': 'y'}]|join(',', attribute='n') }}"), "1-None-a-[2, 'b']-1.5a.b.cx,y");
        assert_eq!(render("{{ [1, 2.5]|sum }}{{ [1, 2]|sum(start=10) }}{{ [{'v': 1}, {'v': 2}]|sum(attribute='v') }}"), "3.5133");
        assert_eq!(render("{{ [1, 3, 2]|max }}{{ ['a', 'B']|max }}{{ ['a', 'B']|max(case_sensitive=true) }}{{ [{'v': 1}, {'v': 5}]|max(attribute='v') }}"), "3Ba{'v': 5}");
        assert_eq!(render("{{ [1, 3, 2]|min }}{{ ['a', 'B']|min }}"), "1a");
        assert_eq!(render("{{ [{'k': 2, 'v': 1}, {'k': 1, 'v': 2}, {'k': 2, 'v': 3}]|groupby('k')|list }}"), "[(1, [{'k': 1, 'v': 2}]), (2, [{'k': 2, 'v': 1}, {'k': 2, 'v': 3}])]");
        assert_eq!(render("{% for g, items in [{'k': 'a'}, {'k': 'b'}]|groupby('k') %}{{ g }}{{ items|length }}{% endfor %}"), "a1b1");
        assert_eq!(render("{{ 'a b&c/é'|urlencode }}{{ {'a': 'x y', 'b': 1}|urlencode }}{{ [('k', 'v')]|urlencode }}"), "a%20b%26c/%C3%A9a=x+y&b=1k=v");
        assert_eq!(render("{% set c = cycler(1, 2) %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}"), "1212");
        assert_eq!(render("{{ ([1] * 100000000)|sum }}").starts_with("error"), true);
    }

    #[test]
    fn string_methods_as_python_has_them() {
        assert_eq!(render("{{ 'x'.center(5, '*') }}{{ 'ab'.ljust(4, '.') }}{{ '5'.zfill(3) }}{{ '-5'.zfill(3) }}{{ 'a-b'.partition('-') }}{{ 'AbC'.swapcase() }}"), "**x**ab..005-05('a', '-', 'b')aBc");
        assert_eq!(render("{{ 'abc'.rpartition('x') }}{{ 'abc'.removeprefix('a') }}"), "('', '', 'abc')bc");
    }
}
