//! A one-pass loader for the shape almost every agent file has: block mappings and
//! block sequences (indentless ones too) of single-line plain scalars, simply quoted
//! strings, single-line flow collections of plain words and literal block scalars,
//! with comments and blank lines.
//!
//! It builds exactly the [`Node`] the full pipeline builds (values, tags, positions)
//! and answers `None` as soon as the text leaves that subset (nested or multi-line
//! flow collections, anchors, tags, escapes, folded or multi-line plain scalars, tabs,
//! CRs, odd indentation, duplicate or non-string keys, any error, ...); the caller then
//! runs the full pipeline on the whole text, so a document is never half fast, half
//! full. The subset avoids every rule where `Loader::Safe` and `Loader::CSafe` differ,
//! so one answer serves both.

use std::cell::Cell;

use super::resolver::{resolve_scalar, BOOL, FLOAT, INT, NULL, STR, TIMESTAMP};
use super::scalars;
use super::{Map, Node, Span, Value};

/// Deeper documents are left to the full pipeline and its depth bound.
const MAX_FAST_DEPTH: usize = 64;

/// Bigger documents are left to the full pipeline and its node bound.
const MAX_FAST_NODES: usize = 100_000;

/// Bigger mappings are left to the full pipeline's hashed duplicate-key check.
const MAX_FAST_ENTRIES: usize = 256;

/// Past this length a simple key runs into PyYAML's 1024-character limit.
const MAX_KEY_LEN: usize = 1000;

/// The single document of `text` if it lies in the fast subset, else `None`.
pub(crate) fn load(text: &str) -> Option<Node> {
    load_documents(text, 1)?.pop()
}

/// The documents of `text`, separated by `---` lines, if there are at most `limit`
/// and all lie in the fast subset, else `None` (never an empty list).
pub(crate) fn load_documents(text: &str, limit: usize) -> Option<Vec<Node>> {
    let ascii = text.is_ascii();
    let markers = document_markers(text, ascii)?;
    let mut docs = Vec::new();
    let mut start = (0, 0);
    for (i, end) in markers.iter().map(|&(offset, _)| offset).chain(std::iter::once(text.len())).enumerate() {
        match document(text, ascii, start, end)? {
            Some(doc) => docs.push(doc),
            // text before the first `---` need not hold a document; an explicit empty
            // document is the full pipeline's (a null at the next token)
            None if i == 0 && !markers.is_empty() => {}
            None => return None,
        }
        if docs.len() > limit {
            return None;
        }
        if let Some(&(offset, line)) = markers.get(i) {
            start = ((offset + 4).min(text.len()), line + 1);
        }
    }
    Some(docs)
}

/// The document between `start` (a line start and its line) and `end`: `Some(None)`
/// when that stretch holds only blank and comment lines.
fn document(text: &str, ascii: bool, (start, line): (usize, usize), end: usize) -> Option<Option<Node>> {
    let b = &text.as_bytes()[..end];
    let mut p = FastLoader {
        text: &text[..end],
        b,
        ascii,
        pos: start,
        line,
        line_start: start,
        nodes: 0,
        last_column: Cell::new((0, 0)),
    };
    p.skip_insignificant_lines();
    if p.pos == end {
        return Some(None);
    }
    let col = p.line_indent();
    p.pos = p.line_start + col;
    let root = p.collection_at(col, 0)?;
    p.skip_insignificant_lines();
    (p.pos == end && p.nodes <= MAX_FAST_NODES).then_some(Some(root))
}

/// The offsets and lines of the `---` lines of `text`, if every character is one the
/// reader accepts and neither loader treats specially (no tab, CR, BOM, control or
/// non-ASCII line break) and no other line opens with a directive or document marker.
fn document_markers(text: &str, ascii: bool) -> Option<Vec<(usize, usize)>> {
    let b = text.as_bytes();
    let chars_ok = if ascii {
        let mut chunks = b.chunks_exact(8);
        chunks.all(|chunk| ascii_word_is_plain(u64::from_le_bytes(chunk.try_into().unwrap_or_default())))
            && chunks.remainder().iter().all(|&c| matches!(c, b' '..=b'~' | b'\n'))
    } else {
        text.chars().all(|c| {
            matches!(c, ' '..='~' | '\n' | '\u{a0}'..='\u{2027}' | '\u{202a}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}')
                || c >= '\u{10000}'
        })
    };
    if !chars_ok {
        return None;
    }
    let mut markers = Vec::new();
    for (line, start) in std::iter::once(0).chain(memchr::memchr_iter(b'\n', b).map(|i| i + 1)).enumerate() {
        let rest = &b[start..];
        if rest.starts_with(b"---") && (rest.len() == 3 || rest[3] == b'\n') {
            markers.push((start, line));
        } else if rest.starts_with(b"---") || rest.starts_with(b"...") || rest.starts_with(b"%") {
            return None;
        }
    }
    Some(markers)
}

/// Whether 8 ASCII bytes are all printable or `\n`, a lane at a time without branches
/// (the per-lane sums cannot carry: every byte is below 0x80).
fn ascii_word_is_plain(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let is_byte = |value: u8| {
        let diff = x ^ (ONES * u64::from(value));
        !(((diff & !HIGH) + !HIGH) | diff) & HIGH
    };
    let below_space = !(x + ONES * 0x60) & HIGH;
    ((below_space & !is_byte(b'\n')) | is_byte(0x7f)) == 0
}

struct FastLoader<'a> {
    text: &'a str,
    b: &'a [u8],
    ascii: bool,
    pos: usize,
    /// 0-based line of `line_start`.
    line: usize,
    line_start: usize,
    /// Nodes built so far.
    nodes: usize,
    /// The last (offset, column) [`Self::span`] counted on a non-ASCII text, where the
    /// next count on the same line resumes, so a long line costs one pass.
    last_column: Cell<(usize, usize)>,
}

fn skip_spaces(b: &[u8], from: usize) -> usize {
    from + b[from.min(b.len())..].iter().take_while(|&&c| c == b' ').count()
}

fn is_word_end(b: &[u8], i: usize) -> bool {
    i == b.len() || b[i] == b' ' || b[i] == b'\n'
}

impl<'a> FastLoader<'a> {
    /// The position of byte `at` of the current line.
    fn span(&self, at: usize) -> Span {
        let col = if self.ascii {
            at - self.line_start
        } else {
            let (offset, column) = self.last_column.get();
            let (from, base) = if (self.line_start..=at).contains(&offset) { (offset, column) } else { (self.line_start, 0) };
            let col = base + self.b[from..at].iter().filter(|&&c| c & 0xc0 != 0x80).count();
            self.last_column.set((at, col));
            col
        };
        Span { line: (self.line + 1) as u32, col: (col + 1) as u32, offset: at }
    }

    fn line_end(&self, from: usize) -> usize {
        memchr::memchr(b'\n', &self.b[from..]).map_or(self.b.len(), |i| from + i)
    }

    /// Moves to the start of the line after the one holding `at`.
    fn next_line(&mut self, at: usize) {
        let end = self.line_end(at);
        if end < self.b.len() {
            self.pos = end + 1;
            self.line += 1;
            self.line_start = self.pos;
        } else {
            self.pos = end;
            self.line_start = end;
        }
    }

    fn line_indent(&self) -> usize {
        self.b[self.line_start..].iter().take_while(|&&c| c == b' ').count()
    }

    /// From a line start, skips blank and comment-only lines (what the scanner skips
    /// between tokens); stops at the start of the next line with content, or the end.
    fn skip_insignificant_lines(&mut self) {
        while self.pos < self.b.len() {
            let first = self.line_start + self.line_indent();
            if first < self.b.len() && self.b[first] != b'\n' && self.b[first] != b'#' {
                return;
            }
            self.next_line(first);
        }
    }

    fn is_entry(&self, at: usize) -> bool {
        self.b.get(at) == Some(&b'-') && is_word_end(self.b, at + 1)
    }

    /// A plain key at `at` followed by `: ` or a `:` ending the line, resolving to a
    /// string: its text and the position of the colon.
    fn key_at(&self, at: usize) -> Option<(&'a str, usize)> {
        let b = self.b;
        let first = *b.get(at)?;
        if !(first.is_ascii_alphanumeric() || first == b'_') {
            return None;
        }
        let len = b[at..].iter().take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'/')).count();
        let colon = at + len;
        if len > MAX_KEY_LEN || b.get(colon) != Some(&b':') || !is_word_end(b, colon + 1) {
            return None;
        }
        let key = &self.text[at..colon];
        (resolve_scalar(key, true) == STR).then_some((key, colon))
    }

    /// A block collection whose first entry or key is at `self.pos`, column `col`.
    fn collection_at(&mut self, col: usize, depth: usize) -> Option<Node> {
        if self.is_entry(self.pos) {
            self.block_sequence(col, false, depth)
        } else {
            self.block_mapping(col, depth)
        }
    }

    fn block_mapping(&mut self, indent: usize, depth: usize) -> Option<Node> {
        let span = self.span(self.pos);
        let mut entries: Vec<(Node, Node)> = Vec::new();
        loop {
            let (key, colon) = self.key_at(self.pos)?;
            if !is_new_key(&entries, key) {
                return None;
            }
            let key = Node { value: Value::Str(key.to_owned()), span: self.span(self.pos) };
            let value = self.node_after_indicator(colon + 1, indent, true, depth)?;
            entries.push((key, value));
            self.skip_insignificant_lines();
            if self.pos == self.b.len() {
                break;
            }
            let col = self.line_indent();
            if col < indent {
                break;
            }
            if col > indent {
                return None;
            }
            self.pos = self.line_start + col;
        }
        Some(Node { value: Value::Map(Map { entries }), span })
    }

    /// A block sequence whose first `-` is at `self.pos`, column `indent`; an indentless
    /// one (a mapping value at the mapping's own column) ends at the first line that is
    /// not an entry.
    fn block_sequence(&mut self, indent: usize, indentless: bool, depth: usize) -> Option<Node> {
        let span = self.span(self.pos);
        let mut items = Vec::new();
        loop {
            items.push(self.node_after_indicator(self.pos + 1, indent, false, depth)?);
            self.skip_insignificant_lines();
            if self.pos == self.b.len() {
                break;
            }
            let col = self.line_indent();
            if col == indent && self.is_entry(self.line_start + col) {
                self.pos = self.line_start + col;
                continue;
            }
            if indentless || col < indent {
                break;
            }
            return None;
        }
        Some(Node { value: Value::Seq(items), span })
    }

    /// The node after a mapping's `:` or a sequence's `-` (ending at `after`), inside a
    /// collection at column `indent`. Leaves `self.pos` at a line start.
    fn node_after_indicator(&mut self, after: usize, indent: usize, in_mapping: bool, depth: usize) -> Option<Node> {
        self.nodes += 2; // the node, and the key when in a mapping
        if depth > MAX_FAST_DEPTH || self.nodes > MAX_FAST_NODES {
            return None;
        }
        let b = self.b;
        let at = skip_spaces(b, after);
        if at == b.len() || b[at] == b'\n' || b[at] == b'#' {
            // `#` here follows a space: the value, if any, starts on a later line
            let empty = Node { value: Value::Null, span: self.span(after) };
            self.next_line(at);
            self.skip_insignificant_lines();
            if self.pos == b.len() {
                return Some(empty);
            }
            let col = self.line_indent();
            let first = self.line_start + col;
            if col > indent {
                self.pos = first;
                return if self.is_entry(first) || self.key_at(first).is_some() {
                    self.collection_at(col, depth + 1)
                } else {
                    None
                };
            }
            if col == indent && in_mapping && self.is_entry(first) {
                self.pos = first;
                return self.block_sequence(col, true, depth + 1);
            }
            return Some(empty);
        }
        match b[at] {
            b'"' | b'\'' => self.quoted(at),
            b'[' | b'{' => self.flow(at),
            b'|' => self.literal(at, indent),
            _ if self.is_entry(at) => None,
            _ if !in_mapping && self.key_at(at).is_some() => {
                self.pos = at;
                // only spaces and the `-` precede the key on its line
                self.block_mapping(at - self.line_start, depth + 1)
            }
            _ => self.plain(at),
        }
    }

    /// A single-line plain scalar at `at` (a value, so `: ` inside it is an error the
    /// full pipeline reports).
    fn plain(&mut self, at: usize) -> Option<Node> {
        let b = self.b;
        let c = b[at];
        let indicator = matches!(
            c,
            b'-' | b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
                | b'"' | b'%' | b'@' | b'`'
        );
        // PyYAML's `check_plain`: `-`, `?` and `:` start a plain scalar before a non-space
        let starts_plain = !indicator || (matches!(c, b'-' | b'?' | b':') && !is_word_end(b, at + 1));
        if !starts_plain {
            return None;
        }
        let mut i = at;
        let mut end;
        loop {
            while !is_word_end(b, i) {
                if b[i] == b':' && is_word_end(b, i + 1) {
                    return None;
                }
                i += 1;
            }
            end = i;
            i = skip_spaces(b, i);
            if i == b.len() || b[i] == b'\n' {
                break;
            }
            if b[i] == b'#' {
                break;
            }
        }
        // The scanner folds the next line into the scalar when that line is indented past
        // the enclosing collection and not a comment; every caller refuses such a line.
        let node = Node { value: plain_value(&self.text[at..end])?, span: self.span(at) };
        self.next_line(i);
        Some(node)
    }

    /// A single-line quoted scalar without escapes, followed by nothing but a comment.
    fn quoted(&mut self, at: usize) -> Option<Node> {
        let b = self.b;
        let quote = b[at];
        let mut value = String::new();
        let mut i = at + 1;
        loop {
            let run = b[i..].iter().take_while(|&&c| c != quote && c != b'\n' && c != b'\\').count();
            value.push_str(&self.text[i..i + run]);
            i += run;
            match b.get(i) {
                Some(&c) if c == quote && quote == b'\'' && b.get(i + 1) == Some(&b'\'') => {
                    value.push('\'');
                    i += 2;
                }
                Some(&c) if c == quote => break,
                Some(b'\\') if quote == b'\'' => {
                    value.push('\\');
                    i += 1;
                }
                _ => return None,
            }
        }
        let node = Node { value: Value::Str(value), span: self.span(at) };
        self.end_line_after(i + 1)?;
        Some(node)
    }

    /// Moves to the next line if nothing but spaces and a comment follow `from` (a
    /// comment must follow a space to be one).
    fn end_line_after(&mut self, from: usize) -> Option<()> {
        let b = self.b;
        let rest = skip_spaces(b, from);
        if !(rest == b.len() || b[rest] == b'\n' || (b[rest] == b'#' && rest > from)) {
            return None;
        }
        self.next_line(rest);
        Some(())
    }

    /// A single-line flow sequence or mapping of plain words (`[a, b]`, `{path: x}`),
    /// followed by nothing but a comment. Inside, only characters that end or continue
    /// a plain scalar the same way under both loaders are accepted.
    fn flow(&mut self, at: usize) -> Option<Node> {
        let b = self.b;
        let span = self.span(at);
        let mapping = b[at] == b'{';
        let close = if mapping { b'}' } else { b']' };
        let mut entries: Vec<(Node, Node)> = Vec::new();
        let mut items = Vec::new();
        let mut i = skip_spaces(b, at + 1);
        if b.get(i) != Some(&close) {
            loop {
                if mapping {
                    let (key, colon) = self.key_at(i)?;
                    if b.get(colon + 1) != Some(&b' ') || !is_new_key(&entries, key) {
                        return None;
                    }
                    let key = Node { value: Value::Str(key.to_owned()), span: self.span(i) };
                    let (value, next) = self.flow_word(skip_spaces(b, colon + 1))?;
                    entries.push((key, value));
                    i = next;
                } else {
                    let (item, next) = self.flow_word(i)?;
                    items.push(item);
                    i = next;
                }
                self.nodes += 2;
                match b.get(i) {
                    Some(b',') => i = skip_spaces(b, i + 1),
                    Some(&c) if c == close => break,
                    _ => return None,
                }
            }
        }
        let value = if mapping { Value::Map(Map { entries }) } else { Value::Seq(items) };
        self.end_line_after(i + 1)?;
        Some(Node { value, span })
    }

    /// A plain scalar of words (letters, digits, `_-./` and inner spaces) inside a flow
    /// collection, and the position after it and the spaces that follow.
    fn flow_word(&self, at: usize) -> Option<(Node, usize)> {
        let b = self.b;
        let first = *b.get(at)?;
        if !(first.is_ascii_alphanumeric() || matches!(first, b'_' | b'.' | b'/')) {
            return None;
        }
        let mut end = at;
        let mut i = at;
        while let Some(&c) = b.get(i) {
            if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'/') {
                end = i + 1;
            } else if c != b' ' {
                break;
            }
            i += 1;
        }
        let node = Node { value: plain_value(&self.text[at..end])?, span: self.span(at) };
        Some((node, i))
    }

    /// A literal block scalar (`|`, `|-`, `|+`) whose header is at `at`, inside a
    /// collection at column `indent`: PyYAML's `scan_block_scalar` on whole lines.
    fn literal(&mut self, at: usize, indent: usize) -> Option<Node> {
        let b = self.b;
        let span = self.span(at);
        let mut i = at + 1;
        let chomping = match b.get(i) {
            Some(b'-') => Some(false),
            Some(b'+') => Some(true),
            _ => None,
        };
        if chomping.is_some() {
            i += 1;
        }
        let rest = skip_spaces(b, i);
        // libyaml takes `|#` as a header with a comment, PyYAML refuses it
        if !(rest == b.len() || b[rest] == b'\n' || (b[rest] == b'#' && rest > i)) {
            return None;
        }
        self.next_line(rest);
        let min_indent = indent + 1;
        // the indentation: the longest run of spaces up to the first non-space
        let mut breaks = String::new();
        let mut max_indent = 0;
        let mut col = loop {
            let spaces = self.line_indent();
            max_indent = max_indent.max(spaces);
            let first = self.line_start + spaces;
            if first < b.len() && b[first] == b'\n' {
                breaks.push('\n');
                self.next_line(first);
            } else {
                break spaces;
            }
        };
        let block_indent = min_indent.max(max_indent);
        let mut chunks = String::new();
        let mut line_break = false;
        let at_end = |s: &Self, col: usize| s.line_start + col == b.len();
        while col == block_indent && !at_end(self, col) {
            chunks.push_str(&breaks);
            breaks.clear();
            let from = self.line_start + col;
            let end = self.line_end(from);
            chunks.push_str(&self.text[from..end]);
            line_break = end < b.len();
            self.next_line(end);
            if !line_break {
                break;
            }
            loop {
                col = self.line_indent().min(block_indent);
                let first = self.line_start + col;
                if first < b.len() && b[first] == b'\n' {
                    breaks.push('\n');
                    self.next_line(first);
                } else {
                    break;
                }
            }
            if col == block_indent && !at_end(self, col) {
                chunks.push('\n');
            } else {
                break;
            }
        }
        if chomping != Some(false) && line_break {
            chunks.push('\n');
        }
        if chomping == Some(true) {
            chunks.push_str(&breaks);
        }
        self.pos = self.line_start;
        Some(Node { value: Value::Str(chunks), span })
    }
}

/// Whether `key` may join `entries`: a repeated key takes the full pipeline's dict
/// semantics, and a long mapping its hashed check.
fn is_new_key(entries: &[(Node, Node)], key: &str) -> bool {
    entries.len() < MAX_FAST_ENTRIES && !entries.iter().any(|(k, _)| matches!(&k.value, Value::Str(s) if s == key))
}

/// The value the safe constructor builds for a plain scalar, `None` where it would fail
/// or where the tag is not one of the ordinary scalar tags.
fn plain_value(text: &str) -> Option<Value> {
    match resolve_scalar(text, true) {
        NULL => Some(Value::Null),
        BOOL => Some(Value::Bool(matches!(text.as_bytes()[0], b'y' | b'Y' | b't' | b'T') || text.eq_ignore_ascii_case("on"))),
        STR => Some(Value::Str(text.to_owned())),
        INT => scalars::construct_int(text).ok(),
        FLOAT => scalars::construct_float(text).ok(),
        TIMESTAMP => scalars::construct_timestamp(text).ok(),
        _ => None,
    }
}
