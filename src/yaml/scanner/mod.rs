//! The tokenizer: a line-by-line port of PyYAML 6.0.3 `reader.py` + `scanner.py`.
//!
//! Porting (rather than adapting a YAML 1.2 parser) keeps PyYAML's exact acceptance
//! rules and error marks: tabs, simple-key limits (one line, 1024 characters), the
//! `: ` rules of plain scalars, escapes, block scalar indentation, directives.
//! Positions are [`Mark`]s: character index, 0-based line/column as PyYAML counts them
//! (a BOM does not advance the column), plus the byte offset.

use std::collections::VecDeque;

use super::{Loader, YamlError, MAX_DEPTH};

mod scalars;
mod tags;

/// A position, PyYAML-style (0-based line and column, in characters) plus the byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mark {
    pub index: usize,
    pub line: usize,
    pub column: usize,
    pub offset: usize,
}

impl Mark {
    pub fn span(&self) -> super::Span {
        super::Span {
            line: u32::try_from(self.line + 1).unwrap_or(u32::MAX),
            col: u32::try_from(self.column + 1).unwrap_or(u32::MAX),
            offset: self.offset,
        }
    }
}

/// Builds a [`YamlError`] at `mark` from PyYAML's `context` and `problem` texts.
pub(crate) fn error(context: Option<&str>, problem: impl Into<String>, mark: Mark) -> YamlError {
    let problem = problem.into();
    let span = mark.span();
    YamlError {
        line: span.line,
        col: span.col,
        message: match context {
            Some(c) => format!("{c}: {problem}"),
            None => problem,
        },
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum T {
    StreamStart,
    StreamEnd,
    Directive,
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    Key,
    Value,
    BlockEntry,
    FlowEntry,
    Alias,
    Anchor,
    Tag,
    Scalar,
}

impl T {
    /// PyYAML's `Token.id`, quoted as `%r` shows it in messages.
    pub fn id(self) -> &'static str {
        match self {
            T::StreamStart => "'<stream start>'",
            T::StreamEnd => "'<stream end>'",
            T::Directive => "'<directive>'",
            T::DocumentStart => "'<document start>'",
            T::DocumentEnd => "'<document end>'",
            T::BlockSequenceStart => "'<block sequence start>'",
            T::BlockMappingStart => "'<block mapping start>'",
            T::BlockEnd => "'<block end>'",
            T::FlowSequenceStart => "'['",
            T::FlowMappingStart => "'{'",
            T::FlowSequenceEnd => "']'",
            T::FlowMappingEnd => "'}'",
            T::Key => "'?'",
            T::Value => "':'",
            T::BlockEntry => "'-'",
            T::FlowEntry => "','",
            T::Alias => "'<alias>'",
            T::Anchor => "'<anchor>'",
            T::Tag => "'<tag>'",
            T::Scalar => "'<scalar>'",
        }
    }
}

/// Directive payload: `%YAML major.minor` or `%TAG handle prefix`.
#[derive(Clone, Debug)]
pub(crate) enum Directive {
    Yaml(u64),
    Tag(String, String),
    Other,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub t: T,
    pub start: Mark,
    pub end: Mark,
    /// Scalar text, alias/anchor name, directive name, tag suffix.
    pub value: String,
    /// Tag handle (`None` for verbatim `!<...>` and the lone `!`).
    pub handle: Option<String>,
    pub plain: bool,
    pub style: Option<char>,
    pub directive: Option<Box<Directive>>,
}

impl Token {
    fn new(t: T, start: Mark, end: Mark) -> Token {
        Token { t, start, end, value: String::new(), handle: None, plain: false, style: None, directive: None }
    }
}

struct SimpleKey {
    token_number: usize,
    required: bool,
    index: usize,
    line: usize,
    column: usize,
    mark: Mark,
}

type R<T> = Result<T, YamlError>;

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}
/// `'\0\r\n\x85\u2028\u2029'`
fn is_breakz(c: char) -> bool {
    c == '\0' || is_break(c)
}
/// `'\0 \r\n\x85\u2028\u2029'` (no tab)
fn is_spacez(c: char) -> bool {
    c == ' ' || is_breakz(c)
}
/// `'\0 \t\r\n\x85\u2028\u2029'`
fn is_blankz(c: char) -> bool {
    c == ' ' || c == '\t' || is_breakz(c)
}
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// PyYAML's `Reader.NON_PRINTABLE` complement.
fn is_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

pub(crate) struct Scanner<'a> {
    /// The source, for copying scalar text by byte range (`Mark::offset`) rather than
    /// character by character from `buf`.
    text: &'a str,
    /// Every character of `text` is ASCII, so character indexes are byte offsets.
    ascii: bool,
    buf: Vec<char>,
    index: usize,
    line: usize,
    column: usize,
    offset: usize,
    done: bool,
    flow_level: usize,
    tokens: VecDeque<Token>,
    tokens_taken: usize,
    indent: isize,
    indents: Vec<isize>,
    allow_simple_key: bool,
    /// PyYAML's `possible_simple_keys` dict (flow level → key); rarely more than one.
    possible_simple_keys: Vec<(usize, SimpleKey)>,
    /// libyaml's (`CSafeLoader`) whitespace rules: tabs separate tokens.
    libyaml: bool,
}

impl<'a> Scanner<'a> {
    /// Reader + scanner start. Fails like PyYAML's `ReaderError` on a non-printable character.
    pub fn new(text: &'a str, loader: Loader) -> R<Scanner<'a>> {
        let ascii = text.is_ascii();
        let buf: Vec<char> = if ascii {
            text.bytes().map(char::from).collect()
        } else {
            let mut buf = Vec::with_capacity(text.len());
            buf.extend(text.chars());
            buf
        };
        let mut s = Scanner {
            text,
            ascii,
            buf,
            index: 0,
            line: 0,
            column: 0,
            offset: 0,
            done: false,
            flow_level: 0,
            tokens: VecDeque::with_capacity(8),
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            possible_simple_keys: Vec::new(),
            libyaml: loader == Loader::CSafe,
        };
        let printable = if ascii {
            text.bytes().position(|b| !matches!(b, b'\t' | b'\n' | b'\r' | b' '..=b'~'))
        } else {
            s.buf.iter().position(|&c| !is_printable(c))
        };
        if let Some(pos) = printable {
            let code = s.buf[pos] as u32;
            s.forward(pos);
            return Err(error(
                None,
                format!("unacceptable character #x{code:04x}: special characters are not allowed"),
                s.mark(),
            ));
        }
        let m = s.mark();
        s.tokens.push_back(Token::new(T::StreamStart, m, m));
        Ok(s)
    }

    // ---- reader -------------------------------------------------------------------

    fn peek_at(&self, n: usize) -> char {
        self.buf.get(self.index + n).copied().unwrap_or('\0')
    }
    fn peek(&self) -> char {
        self.peek_at(0)
    }
    /// Appends the next `n` characters to `out` (PyYAML's `prefix(n)`, without a copy).
    fn push_prefix(&self, out: &mut String, n: usize) {
        let end = (self.index + n).min(self.buf.len());
        if self.ascii {
            out.push_str(&self.text[self.index.min(end)..end]);
        } else {
            out.extend(&self.buf[self.index.min(end)..end]);
        }
    }
    fn prefix(&self, n: usize) -> String {
        let mut out = String::new();
        self.push_prefix(&mut out, n);
        out
    }
    fn prefix_is(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(i, c)| self.peek_at(i) == c)
    }
    fn forward(&mut self, n: usize) {
        let end = (self.index + n).min(self.buf.len());
        while self.index < end {
            let ch = self.buf[self.index];
            self.index += 1;
            // fast path: an ASCII character other than a line break is one byte, one column
            if ch.is_ascii() && ch != '\n' && ch != '\r' {
                self.offset += 1;
                self.column += 1;
                continue;
            }
            self.offset += ch.len_utf8();
            if matches!(ch, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}') || (ch == '\r' && self.peek() != '\n') {
                self.line += 1;
                self.column = 0;
            } else if ch != '\u{feff}' || (self.libyaml && self.index != 1) {
                // PyYAML's reader does not count a BOM as a column; libyaml does (except
                // the leading one, which its reader drops)
                self.column += 1;
            }
        }
    }
    /// The number of characters before the next line break (or the end).
    fn line_length(&self) -> usize {
        if self.ascii {
            // an ASCII text's only line breaks are `\n` and `\r`
            let rest = &self.text.as_bytes()[self.index.min(self.text.len())..];
            memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len())
        } else {
            let mut length = 0;
            while !is_breakz(self.peek_at(length)) {
                length += 1;
            }
            length
        }
    }
    /// `forward(n)` over characters known to hold no line break: an ASCII text needs no
    /// per-character bookkeeping.
    fn forward_in_line(&mut self, n: usize) {
        if self.ascii {
            let n = n.min(self.buf.len() - self.index);
            self.index += n;
            self.column += n;
            self.offset += n;
        } else {
            self.forward(n);
        }
    }
    fn forward1(&mut self) {
        self.forward(1)
    }
    pub fn is_libyaml(&self) -> bool {
        self.libyaml
    }

    pub fn mark(&self) -> Mark {
        Mark { index: self.index, line: self.line, column: self.column, offset: self.offset }
    }

    // ---- public token API -------------------------------------------------------------

    #[inline]
    fn ensure(&mut self) -> R<()> {
        // fast path: a token is queued and no simple key may still insert one before it
        if self.done || (!self.tokens.is_empty() && self.possible_simple_keys.is_empty()) {
            return Ok(());
        }
        self.ensure_slow()
    }

    #[inline(never)]
    fn ensure_slow(&mut self) -> R<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    /// The kind of the next token (`StreamEnd` once the stream is exhausted).
    pub fn peek_t(&mut self) -> R<T> {
        self.ensure()?;
        Ok(self.tokens.front().map_or(T::StreamEnd, |t| t.t))
    }

    pub fn peek_token(&mut self) -> R<&Token> {
        self.ensure()?;
        let m = self.mark();
        self.tokens.front().ok_or_else(|| error(None, "unexpected end of the token stream", m))
    }

    pub fn check(&mut self, choices: &[T]) -> R<bool> {
        let t = self.peek_t()?;
        Ok(choices.contains(&t))
    }

    pub fn get_token(&mut self) -> R<Token> {
        self.ensure()?;
        let m = self.mark();
        match self.tokens.pop_front() {
            Some(t) => {
                self.tokens_taken += 1;
                Ok(t)
            }
            None => Err(error(None, "unexpected end of the token stream", m)),
        }
    }

    fn need_more_tokens(&mut self) -> R<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        self.stale_possible_simple_keys()?;
        Ok(self.next_possible_simple_key() == Some(self.tokens_taken))
    }

    fn fetch_more_tokens(&mut self) -> R<()> {
        self.scan_to_next_token();
        self.stale_possible_simple_keys()?;
        self.unwind_indent(self.column as isize);
        let ch = self.peek();
        match ch {
            '\0' => return self.fetch_stream_end(),
            '%' if self.column == 0 => return self.fetch_directive(),
            '-' if self.check_document_indicator("---") => return self.fetch_document_indicator(T::DocumentStart),
            '.' if self.check_document_indicator("...") => return self.fetch_document_indicator(T::DocumentEnd),
            '[' => return self.fetch_flow_collection_start(T::FlowSequenceStart),
            '{' => return self.fetch_flow_collection_start(T::FlowMappingStart),
            ']' => return self.fetch_flow_collection_end(T::FlowSequenceEnd),
            '}' => return self.fetch_flow_collection_end(T::FlowMappingEnd),
            ',' => return self.fetch_flow_entry(),
            '-' if is_blankz(self.peek_at(1)) => return self.fetch_block_entry_or_key(T::BlockEntry),
            '?' if self.flow_level > 0 || is_blankz(self.peek_at(1)) => return self.fetch_block_entry_or_key(T::Key),
            ':' if self.flow_level > 0 || is_blankz(self.peek_at(1)) => return self.fetch_value(),
            '*' => return self.fetch_anchor(T::Alias),
            '&' => return self.fetch_anchor(T::Anchor),
            '!' => return self.fetch_tag(),
            '|' if self.flow_level == 0 => return self.fetch_block_scalar('|'),
            '>' if self.flow_level == 0 => return self.fetch_block_scalar('>'),
            '\'' => return self.fetch_flow_scalar('\''),
            '"' => return self.fetch_flow_scalar('"'),
            _ => {}
        }
        if self.check_plain() {
            return self.fetch_plain();
        }
        Err(error(
            Some("while scanning for the next token"),
            format!("found character {} that cannot start any token", crate::pyscalar::repr_str(&ch.to_string())),
            self.mark(),
        ))
    }

    // ---- simple keys ----------------------------------------------------------------

    fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible_simple_keys.iter().map(|(_, k)| k.token_number).min()
    }

    fn stale_possible_simple_keys(&mut self) -> R<()> {
        let (line, index) = (self.line, self.index);
        let mut i = 0;
        while i < self.possible_simple_keys.len() {
            let key = &self.possible_simple_keys[i].1;
            if key.line != line || index - key.index > 1024 {
                if key.required {
                    return Err(error(Some("while scanning a simple key"), "could not find expected ':'", self.mark()));
                }
                self.possible_simple_keys.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    fn take_possible_simple_key(&mut self) -> Option<SimpleKey> {
        let level = self.flow_level;
        let i = self.possible_simple_keys.iter().position(|(l, _)| *l == level)?;
        Some(self.possible_simple_keys.remove(i).1)
    }

    fn save_possible_simple_key(&mut self) -> R<()> {
        let required = self.flow_level == 0 && self.indent == self.column as isize;
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            let key = SimpleKey {
                token_number: self.tokens_taken + self.tokens.len(),
                required,
                index: self.index,
                line: self.line,
                column: self.column,
                mark: self.mark(),
            };
            self.possible_simple_keys.push((self.flow_level, key));
        }
        Ok(())
    }

    fn remove_possible_simple_key(&mut self) -> R<()> {
        if let Some(key) = self.take_possible_simple_key() {
            if key.required {
                return Err(error(Some("while scanning a simple key"), "could not find expected ':'", self.mark()));
            }
        }
        Ok(())
    }

    // ---- indentation ----------------------------------------------------------------

    fn unwind_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            let m = self.mark();
            self.indent = self.indents.pop().unwrap_or(-1);
            self.tokens.push_back(Token::new(T::BlockEnd, m, m));
        }
    }

    fn add_indent(&mut self, column: isize) -> R<bool> {
        if self.indent < column {
            if self.indents.len() >= MAX_DEPTH {
                return Err(error(None, format!("exceeded the maximum nesting depth of {MAX_DEPTH}"), self.mark()));
            }
            self.indents.push(self.indent);
            self.indent = column;
            return Ok(true);
        }
        Ok(false)
    }

    // ---- fetchers -------------------------------------------------------------------

    fn fetch_stream_end(&mut self) -> R<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible_simple_keys.clear();
        let m = self.mark();
        self.tokens.push_back(Token::new(T::StreamEnd, m, m));
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> R<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let tok = self.scan_directive()?;
        self.tokens.push_back(tok);
        Ok(())
    }

    fn check_document_indicator(&self, s: &str) -> bool {
        self.column == 0 && self.prefix_is(s) && is_blankz(self.peek_at(3))
    }

    fn fetch_document_indicator(&mut self, t: T) -> R<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let start = self.mark();
        self.forward(3);
        let end = self.mark();
        self.tokens.push_back(Token::new(t, start, end));
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, t: T) -> R<()> {
        self.save_possible_simple_key()?;
        if self.flow_level >= MAX_DEPTH {
            return Err(error(None, format!("exceeded the maximum nesting depth of {MAX_DEPTH}"), self.mark()));
        }
        self.flow_level += 1;
        self.allow_simple_key = true;
        self.push_simple(t);
        Ok(())
    }

    fn push_simple(&mut self, t: T) {
        let start = self.mark();
        self.forward1();
        let end = self.mark();
        self.tokens.push_back(Token::new(t, start, end));
    }

    fn fetch_flow_collection_end(&mut self, t: T) -> R<()> {
        self.remove_possible_simple_key()?;
        self.flow_level = self.flow_level.saturating_sub(1);
        self.allow_simple_key = false;
        self.push_simple(t);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> R<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_simple(T::FlowEntry);
        Ok(())
    }

    /// `-` (a block entry) or `?` (a key): in block context it may open a collection.
    fn fetch_block_entry_or_key(&mut self, t: T) -> R<()> {
        let (start, refusal) = match t {
            T::BlockEntry => (T::BlockSequenceStart, "sequence entries are not allowed here"),
            _ => (T::BlockMappingStart, "mapping keys are not allowed here"),
        };
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(error(None, refusal, self.mark()));
            }
            if self.add_indent(self.column as isize)? {
                let m = self.mark();
                self.tokens.push_back(Token::new(start, m, m));
            }
        }
        // After a key, a simple key may follow only in block context.
        self.allow_simple_key = t == T::BlockEntry || self.flow_level == 0;
        self.remove_possible_simple_key()?;
        self.push_simple(t);
        Ok(())
    }

    fn fetch_value(&mut self) -> R<()> {
        if let Some(key) = self.take_possible_simple_key() {
            let at = key.token_number.saturating_sub(self.tokens_taken).min(self.tokens.len());
            self.tokens.insert(at, Token::new(T::Key, key.mark, key.mark));
            if self.flow_level == 0 && self.add_indent(key.column as isize)? {
                self.tokens.insert(at, Token::new(T::BlockMappingStart, key.mark, key.mark));
            }
            self.allow_simple_key = false;
        } else {
            if self.flow_level == 0 {
                if !self.allow_simple_key {
                    return Err(error(None, "mapping values are not allowed here", self.mark()));
                }
                if self.add_indent(self.column as isize)? {
                    let m = self.mark();
                    self.tokens.push_back(Token::new(T::BlockMappingStart, m, m));
                }
            }
            self.allow_simple_key = self.flow_level == 0;
            self.remove_possible_simple_key()?;
        }
        self.push_simple(T::Value);
        Ok(())
    }

    fn fetch_anchor(&mut self, t: T) -> R<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let tok = self.scan_anchor(t)?;
        self.tokens.push_back(tok);
        Ok(())
    }

    fn fetch_tag(&mut self) -> R<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let tok = self.scan_tag()?;
        self.tokens.push_back(tok);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, style: char) -> R<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let tok = self.scan_block_scalar(style)?;
        self.tokens.push_back(tok);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, style: char) -> R<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let tok = self.scan_flow_scalar(style)?;
        self.tokens.push_back(tok);
        Ok(())
    }

    fn fetch_plain(&mut self) -> R<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let tok = self.scan_plain()?;
        self.tokens.push_back(tok);
        Ok(())
    }

    fn check_plain(&self) -> bool {
        let ch = self.peek();
        let indicator = is_blankz(ch) || "-?:,[]{}#&*!|>'\"%@`".contains(ch);
        !indicator || (!is_blankz(self.peek_at(1)) && (ch == '-' || (self.flow_level == 0 && (ch == '?' || ch == ':'))))
    }

    // ---- scanners -------------------------------------------------------------------

    fn scan_to_next_token(&mut self) {
        if self.index == 0 && self.peek() == '\u{feff}' {
            self.forward1();
        }
        loop {
            // libyaml skips a BOM at the start of any line
            if self.libyaml && self.column == 0 && self.peek() == '\u{feff}' {
                self.forward1();
            }
            // libyaml also skips tabs in flow context and where no simple key may start
            // (after `key:` or a scalar on the same line).
            while self.peek() == ' '
                || (self.libyaml && self.peek() == '\t' && (self.flow_level > 0 || !self.allow_simple_key))
            {
                self.forward1();
            }
            if self.peek() == '#' {
                self.forward_in_line(self.line_length());
            }
            if !self.scan_line_break().is_empty() {
                if self.flow_level == 0 {
                    self.allow_simple_key = true;
                }
            } else {
                break;
            }
        }
    }

    fn found(&self, ch: char) -> String {
        crate::pyscalar::repr_str(&ch.to_string())
    }

    /// PyYAML's "expected WHAT, but found CH" at the current position.
    fn expected(&self, context: Option<&str>, what: &str, ch: char) -> YamlError {
        error(context, format!("expected {what}, but found {}", self.found(ch)), self.mark())
    }

    fn scan_line_break(&mut self) -> &'static str {
        match self.peek() {
            '\r' | '\n' | '\u{85}' => {
                if self.prefix_is("\r\n") {
                    self.forward(2);
                } else {
                    self.forward1();
                }
                "\n"
            }
            '\u{2028}' => {
                self.forward1();
                "\u{2028}"
            }
            '\u{2029}' => {
                self.forward1();
                "\u{2029}"
            }
            _ => "",
        }
    }
}
