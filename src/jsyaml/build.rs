//! js-yaml's `load`/`safeLoad` on top of `yaml-rust`'s events: the text prepared as
//! js-yaml reads it, then values built with `storeMappingPair`'s rules.

use std::borrow::Cow;
use std::collections::HashMap;

use yaml_rust::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust::scanner::{Marker, TScalarStyle};

use super::{scalars, Error, Js, Version};

/// Nesting agentry builds at most: its values are dropped and shown recursively
/// (js-yaml's recursive reader would run out of stack somewhat deeper).
const MAX_DEPTH: usize = 500;

/// How many values aliases may copy in: js-yaml shares an alias's value, agentry
/// copies it, so a "billion laughs" document is refused here instead of filling memory.
const MAX_ALIAS_NODES: usize = 1_000_000;

/// `load(text)` (or `safeLoad`): `Js::Null` for an empty stream.
pub fn load(text: &str, version: Version) -> Result<Js, Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // js-yaml refuses a NUL byte anywhere (`loadDocuments`, 3.14 on).
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() as u32 + 1;
        return Err(Error { message: "null byte is not allowed in input".into(), at: Some((line, 1)) });
    }
    let (prepared, split_lines) = prepass(text, version)?;
    let text = if version == Version::V4 && prepared.contains('\r') {
        // A lone CR breaks lines for js-yaml; yaml-rust only knows LF and CRLF.
        Cow::Owned(prepared.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        prepared
    };
    // js-yaml ends the input with a line break when it has none (a block scalar at
    // the end keeps its final newline).
    let ended = if text.is_empty() || text.ends_with('\n') { Cow::Borrowed(&*text) } else { Cow::Owned(format!("{text}\n")) };
    let mut builder = Builder { version, stack: Vec::new(), anchors: HashMap::new(), aliased: 0, documents: Vec::new(), error: None };
    if let Err(e) = Parser::new(ended.chars()).load(&mut builder, true) {
        let full = e.to_string();
        let message = full.rsplit_once(" at line ").map_or(&*full, |(m, _)| m).to_string();
        // js-yaml 4 points an unexpected end at the end of the text (its goldens).
        let line = if version == Version::V4 && message.contains("end of stream") { text.matches('\n').count() as u32 + 1 } else { e.marker().line() as u32 };
        let line = line - split_lines.iter().filter(|&&l| l <= line).count() as u32;
        return Err(Error { message, at: Some((line, e.marker().col() as u32 + 1)) });
    }
    if let Some(err) = builder.error {
        return Err(err);
    }
    if builder.documents.len() > 1 {
        return Err(Error { message: "expected a single document in the stream, but found more".into(), at: None });
    }
    Ok(builder.documents.pop().unwrap_or(Js::Null))
}

/// A pass over the text before yaml-rust reads it, outside quoted scalars, flow
/// collections and block scalars. js-yaml 4 refuses a tab in a content line's
/// indentation (`readBlockMapping`, `skipSeparationSpace`), and takes a line of
/// blanks or a comment indented with tabs as nothing, where yaml-rust fails while
/// scanning the plain scalar before it; such lines are handed over emptied.
/// js-yaml 3 reads `key: ? x` as `key` with no value, then `x` as an explicit key of
/// the same mapping; the line is handed over split in two there. Returns the text and
/// the (1-based) lines a split added.
fn prepass(text: &str, version: Version) -> Result<(Cow<'_, str>, Vec<u32>), Error> {
    let mut out = String::new();
    let mut changed = false;
    let mut split_lines = Vec::new();
    let (mut single, mut double, mut flow) = (false, false, 0usize);
    let mut block: Option<usize> = None;
    // The indentation of the line that opened the flow collection being read.
    let mut flow_opened = 0usize;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let mut line_out = true;
        if !(single || double || flow > 0) {
            if let Some(indent) = block {
                if line.trim().is_empty() || spaces > indent {
                    out.push_str(line);
                    continue;
                }
                block = None;
            }
            let lead = line.len() - line.trim_start_matches([' ', '\t']).len();
            let rest = line[lead..].trim_end_matches('\r');
            if version == Version::V3Safe {
                if let Some(at) = explicit_key_after_value(&line[spaces..]).map(|at| spaces + at) {
                    out.push_str(&line[..at]);
                    out.push('\n');
                    split_lines.push((i + split_lines.len()) as u32 + 2);
                    changed = true;
                    out.push_str(&line[..spaces]);
                    out.push_str(&line[at..]);
                    line_out = false;
                }
            } else if line[..lead].contains('\t') {
                if rest.is_empty() || rest.starts_with('#') {
                    changed = true;
                    continue;
                }
                return Err(Error { message: "tab characters must not be used in indentation".into(), at: Some((i as u32 + 1, 1)) });
            }
        }
        if line_out {
            // js-yaml reads a flow collection's later lines at any indentation;
            // yaml-rust wrongly requires a key on a line starting at the block's
            // indentation ("simple key expected"). Leading blanks of such a line are
            // folded away, so it is handed over indented past the line that opened
            // the collection.
            if flow > 0 && spaces <= flow_opened && !line.trim().is_empty() {
                out.push_str(&" ".repeat(flow_opened + 1 - spaces));
                changed = true;
            }
            out.push_str(line);
        }
        let flow_before = flow;
        // Where quotes and flow collections open and close on this line.
        let chars: Vec<char> = line.chars().collect();
        let mut last = None::<char>; // the last non-blank character outside a scalar
        let mut code_end = chars.len();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            if double {
                if c == '\\' {
                    k += 1;
                } else if c == '"' {
                    double = false;
                    last = Some('"');
                }
            } else if single {
                if c == '\'' {
                    if chars.get(k + 1) == Some(&'\'') {
                        k += 1;
                    } else {
                        single = false;
                        last = Some('\'');
                    }
                }
            } else {
                let starts_token = last.is_none_or(|p| matches!(p, ':' | '-' | '[' | '{' | ',' | '?'));
                match c {
                    '#' if k == 0 || chars[k - 1] == ' ' || chars[k - 1] == '\t' => {
                        code_end = k;
                        break;
                    }
                    '"' if starts_token => double = true,
                    '\'' if starts_token => single = true,
                    '[' | '{' if starts_token || flow > 0 => flow += 1,
                    ']' | '}' if flow > 0 => flow -= 1,
                    _ => {}
                }
                if !(c.is_whitespace() || single || double) {
                    last = Some(c);
                }
            }
            k += 1;
        }
        if flow_before == 0 && flow > 0 {
            flow_opened = spaces;
        }
        if !(single || double || flow > 0) {
            let code: String = chars[..code_end].iter().collect();
            let code = code.trim_end();
            let indicator = code.trim_end_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit());
            let opens = |head: &str| head.is_empty() || head.ends_with([':', '-', '?']);
            if (indicator.ends_with('|') || indicator.ends_with('>')) && opens(indicator[..indicator.len() - 1].trim()) {
                block = Some(spaces);
            }
        }
    }
    Ok((if changed { Cow::Owned(out) } else { Cow::Borrowed(text) }, split_lines))
}

/// Where `? ` starts the value of the block mapping key that `line` (its indentation
/// removed) opens: after the key (plain or quoted), its `:`, and any anchor or tag.
fn explicit_key_after_value(line: &str) -> Option<usize> {
    let after_key = match line.chars().next()? {
        q @ ('"' | '\'') => 1 + line[1..].find(q)? + 1,
        '-' | '?' | ':' | '[' | '{' | '#' | '&' | '!' | '*' | '|' | '>' | '%' | '@' | '`' => return None,
        _ => line.find(": ").or_else(|| line.find(":\t"))?,
    };
    let rest = line[after_key..].trim_start_matches([' ', '\t']).strip_prefix(':')?;
    let mut at = line.len() - rest.len();
    loop {
        let token = line[at..].trim_start_matches([' ', '\t']);
        at = line.len() - token.len();
        match token.chars().next() {
            Some('&' | '!') => at += token.find([' ', '\t'])?,
            Some('?') if token[1..].trim_end_matches('\r').is_empty() || token[1..].starts_with([' ', '\t']) => return Some(at),
            _ => return None,
        }
    }
}

enum Frame {
    Seq(Vec<Js>, usize),
    /// Entries, the key waiting for its value (its line, whether it is a merge key),
    /// keys a merge brought in (which the mapping's own keys may overwrite), the anchor.
    Map(Vec<(String, Js, u32)>, Option<(Js, u32, bool)>, Vec<String>, usize),
}

struct Builder {
    version: Version,
    stack: Vec<Frame>,
    /// Each anchor's value and its size in values.
    anchors: HashMap<usize, (Js, usize)>,
    /// Values copied in by aliases so far.
    aliased: usize,
    documents: Vec<Js>,
    error: Option<Error>,
}

fn size(v: &Js) -> usize {
    match v {
        Js::Seq(items) => 1 + items.iter().map(size).sum::<usize>(),
        Js::Map(entries) => 1 + entries.iter().map(|(_, v, _)| size(v)).sum::<usize>(),
        _ => 1,
    }
}

impl Builder {
    fn fail(&mut self, message: impl Into<String>, line: u32, col: u32) {
        self.error.get_or_insert(Error { message: message.into(), at: Some((line, col)) });
    }

    fn push_value(&mut self, value: Js, anchor: usize, merge_key: bool, mark: Marker) {
        if anchor > 0 {
            let n = size(&value);
            self.anchors.insert(anchor, (value.clone(), n));
        }
        let Some(top) = self.stack.last_mut() else { return self.documents.push(value) };
        let (entries, pending, overridable) = match top {
            Frame::Seq(items, _) => return items.push(value),
            Frame::Map(entries, pending, overridable, _) => (entries, pending, overridable),
        };
        let Some((key, line, is_merge)) = pending.take() else {
            *pending = Some((value, mark.line() as u32, merge_key));
            return;
        };
        if is_merge {
            // `mergeMappings`: keys not yet present come in, and may be overwritten.
            let sources = match value {
                Js::Seq(items) => items,
                other => vec![other],
            };
            for source in sources {
                let Js::Map(src) = source else {
                    return self.fail("cannot merge mappings; the provided source object is unacceptable", line, 1);
                };
                for (k, v, l) in src {
                    if !entries.iter().any(|(e, _, _)| *e == k) {
                        overridable.push(k.clone());
                        entries.push((k, v, l));
                    }
                }
            }
            return;
        }
        let key = key.to_js_string();
        match entries.iter().position(|(e, _, _)| *e == key) {
            Some(i) => match overridable.iter().position(|k| *k == key) {
                Some(o) => {
                    overridable.remove(o);
                    entries[i] = (key, value, line);
                }
                None => self.fail("duplicated mapping key", line, 1),
            },
            None => entries.push((key, value, line)),
        }
    }

    fn open(&mut self, frame: Frame, mark: Marker) {
        if self.stack.len() >= MAX_DEPTH {
            let message = format!("nesting deeper than {MAX_DEPTH} levels (agentry stops here; js-yaml would run out of stack)");
            return self.fail(message, mark.line() as u32, mark.col() as u32 + 1);
        }
        self.stack.push(frame)
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        let (line, col) = (mark.line() as u32, mark.col() as u32 + 1);
        match ev {
            Event::Scalar(mut text, style, anchor, tag) => {
                // A plain scalar never starts with a blank: yaml-rust keeps a tab that
                // follows `- ` or `: `, which js-yaml reads as separation.
                if style == TScalarStyle::Plain && text.starts_with([' ', '\t']) {
                    text = text.trim_start_matches([' ', '\t']).to_string();
                }
                // A merge key is only a merge key when written plain and untagged.
                let merge = style == TScalarStyle::Plain && tag.is_none() && text == "<<";
                match scalars::resolve(text, style, tag.as_ref(), self.version) {
                    Ok(v) => self.push_value(v, anchor, merge, mark),
                    Err(m) => self.fail(m, line, col),
                }
            }
            Event::Alias(id) => match self.anchors.get(&id) {
                Some((_, n)) if self.aliased + n > MAX_ALIAS_NODES => {
                    self.fail("aliases expand to too many values (agentry's limit against alias bombs)", line, col)
                }
                Some((v, n)) => {
                    self.aliased += n;
                    let v = v.clone();
                    self.push_value(v, 0, false, mark)
                }
                None => self.fail("unidentified alias", line, col),
            },
            Event::SequenceStart(anchor) => self.open(Frame::Seq(Vec::new(), anchor), mark),
            Event::MappingStart(anchor) => self.open(Frame::Map(Vec::new(), None, Vec::new(), anchor), mark),
            Event::SequenceEnd | Event::MappingEnd => match self.stack.pop() {
                Some(Frame::Seq(items, anchor)) => self.push_value(Js::Seq(items), anchor, false, mark),
                Some(Frame::Map(entries, _, _, anchor)) => self.push_value(Js::Map(entries), anchor, false, mark),
                None => {}
            },
            Event::DocumentStart | Event::DocumentEnd | Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
        }
    }
}
