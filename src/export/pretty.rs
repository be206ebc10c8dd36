//! serde_json's pretty printer (two spaces an indent), byte for byte, for the
//! export's agents: strings are searched for what to escape many bytes at a time
//! where serde_json looks up every byte, and a prompt is most of an agent's bytes.

use crate::model::CompactJson;

/// A line break, then the indentation of `depth`.
pub fn newline(out: &mut Vec<u8>, depth: usize) {
    // Copied from one line for the usual depths: filling a few bytes cost a call.
    const LINE: &[u8; 17] = b"\n                ";
    match LINE.get(..1 + 2 * depth) {
        Some(line) => out.extend_from_slice(line),
        None => {
            out.push(b'\n');
            out.resize(out.len() + 2 * depth, b' ');
        }
    }
}

/// An object's key as the object's entry number `index` at `depth`, and the colon.
pub fn key(out: &mut Vec<u8>, depth: usize, index: usize, key: &str) {
    if index > 0 {
        out.push(b',');
    }
    newline(out, depth);
    string(out, key);
    out.extend_from_slice(b": ");
}

/// An object whose closing brace is at `depth`, its entries one deeper.
pub fn object<'a>(
    out: &mut Vec<u8>,
    depth: usize,
    entries: impl IntoIterator<Item = (&'a str, &'a CompactJson)>,
) -> serde_json::Result<()> {
    let mut count = 0;
    for (k, v) in entries {
        if count == 0 {
            out.push(b'{');
        }
        key(out, depth + 1, count, k);
        value(out, depth + 1, v)?;
        count += 1;
    }
    close(out, depth, count, b"{}")
}

/// An array whose closing bracket is at `depth`, its items one deeper.
pub fn array<T>(
    out: &mut Vec<u8>,
    depth: usize,
    items: &[T],
    mut item: impl FnMut(&mut Vec<u8>, &T) -> serde_json::Result<()>,
) -> serde_json::Result<()> {
    for (i, x) in items.iter().enumerate() {
        out.push(if i == 0 { b'[' } else { b',' });
        newline(out, depth + 1);
        item(out, x)?;
    }
    close(out, depth, items.len(), b"[]")
}

/// Ends an object or array of `count` entries: an empty one is its `empty` pair.
fn close(out: &mut Vec<u8>, depth: usize, count: usize, empty: &[u8; 2]) -> serde_json::Result<()> {
    if count == 0 {
        out.extend_from_slice(empty);
    } else {
        newline(out, depth);
        out.push(empty[1]);
    }
    Ok(())
}

/// A JSON value at `depth` (where its closing brace or bracket goes).
pub fn value(out: &mut Vec<u8>, depth: usize, v: &CompactJson) -> serde_json::Result<()> {
    match v {
        CompactJson::String(s) => {
            string(out, s);
            Ok(())
        }
        CompactJson::Array(items) => array(out, depth, items, |out, x| value(out, depth + 1, x)),
        CompactJson::Object(entries) => object(out, depth, entries.iter().map(|(k, v)| (&**k, v))),
        // As Python's `json.dumps` writes it, bare: the report is the oracles' (FORMAT.md).
        CompactJson::NonFinite(f) => {
            out.extend_from_slice(crate::store::python_spelling(*f).as_bytes());
            Ok(())
        }
        // Numbers as serde_json formats them; null and booleans are words.
        scalar => serde_json::to_writer(out, scalar),
    }
}

/// A JSON string, escaped as serde_json escapes it: `"`, `\` and the control
/// characters below 0x20, nothing else.
pub fn string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // One pass that the compiler makes vector compares of tells whether anything is
    // escaped at all (most keys and values are copied whole, without a search that
    // costs more than a short string's bytes), and whether anything but line breaks
    // is: prompts break lines often and hold other control characters seldom, and
    // without those the bytes to escape are found by `memchr3`, many bytes a step.
    let (escaped, other_controls) = bytes.iter().fold((false, false), |(escaped, others), &b| {
        let control = b < 0x20;
        (escaped | control | (b == b'"') | (b == b'\\'), others | (control & (b != b'\n')))
    });
    if !escaped {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    loop {
        let rest = &bytes[start..];
        let found = if other_controls {
            rest.iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\')
        } else {
            memchr::memchr3(b'\n', b'"', b'\\', rest)
        };
        let Some(offset) = found else { break };
        let special = start + offset;
        out.extend_from_slice(&bytes[start..special]);
        escape(out, bytes[special]);
        start = special + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// serde_json's escape of one byte that needs it.
fn escape(out: &mut Vec<u8>, byte: u8) {
    match byte {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\t' => out.extend_from_slice(b"\\t"),
        b'\r' => out.extend_from_slice(b"\\r"),
        0x08 => out.extend_from_slice(b"\\b"),
        0x0c => out.extend_from_slice(b"\\f"),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte that needs escaping, at every position of a word, and texts of
    /// every length around a word's: as serde_json prints them.
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut cases: Vec<String> = vec![String::new(), "é ü \u{7f} \u{2028} 漢字".into()];
        for special in (0u8..0x20).chain([b'"', b'\\', b'/', b' ', 0x7f]) {
            for at in 0..17 {
                let mut text = "abcdefghijklmnopq".to_string();
                text.insert(at, char::from(special));
                cases.push(text);
            }
        }
        for len in 0..20 {
            cases.push("x".repeat(len) + "\n" + &"y".repeat(len));
        }
        for case in cases {
            let mut out = Vec::new();
            string(&mut out, &case);
            assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&case).unwrap(), "{case:?}");
        }
    }
}
