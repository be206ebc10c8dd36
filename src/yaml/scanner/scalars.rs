//! The scalar scanners of [`Scanner`] (PyYAML `scan_block_scalar`, `scan_flow_scalar`,
//! `scan_plain` and their helpers), kept apart from the token machinery.

use super::{error, is_blankz, is_break, is_breakz, is_spacez, Mark, Scanner, Token, R, T};

impl Scanner<'_> {
    pub(super) fn scan_block_scalar(&mut self, style: char) -> R<Token> {
        const CTX: Option<&str> = Some("while scanning a block scalar");
        let folded = style == '>';
        let mut chunks = String::new();
        let start = self.mark();
        self.forward1();
        // indicators
        let mut chomping: Option<bool> = None;
        let mut increment: Option<usize> = None;
        let ch = self.peek();
        if ch == '+' || ch == '-' {
            chomping = Some(ch == '+');
            self.forward1();
            let c = self.peek();
            if c.is_ascii_digit() {
                if c == '0' {
                    return Err(error(
                        CTX,
                        "expected indentation indicator in the range 1-9, but found 0",
                        self.mark(),
                    ));
                }
                increment = Some(c as usize - '0' as usize);
                self.forward1();
            }
        } else if ch.is_ascii_digit() {
            if ch == '0' {
                return Err(error(CTX, "expected indentation indicator in the range 1-9, but found 0", self.mark()));
            }
            increment = Some(ch as usize - '0' as usize);
            self.forward1();
            let c = self.peek();
            if c == '+' || c == '-' {
                chomping = Some(c == '+');
                self.forward1();
            }
        }
        let c = self.peek();
        // (libyaml has no such check: `|#c` is a header with a comment there)
        if !(is_spacez(c) || self.libyaml) {
            return Err(self.expected(CTX, "chomping or indentation indicators", c));
        }
        // ignored line
        while self.peek() == ' ' || (self.libyaml && self.peek() == '\t') {
            self.forward1();
        }
        if self.peek() == '#' {
            self.forward_in_line(self.line_length());
        }
        if !is_breakz(self.peek()) {
            return Err(self.expected(CTX, "a comment or a line break", self.peek()));
        }
        self.scan_line_break();

        let min_indent = (self.indent + 1).max(1) as usize;
        let (mut breaks, mut end, indent);
        match increment {
            None => {
                let (b, max_indent, e) = self.scan_block_scalar_indentation()?;
                breaks = b;
                end = e;
                indent = min_indent.max(max_indent);
            }
            Some(inc) => {
                indent = min_indent + inc - 1;
                let (b, e) = self.scan_block_scalar_breaks(indent)?;
                breaks = b;
                end = e;
            }
        }
        let mut line_break = "";
        while self.column == indent && self.peek() != '\0' {
            chunks.push_str(&breaks);
            let leading_non_space = !matches!(self.peek(), ' ' | '\t');
            let length = self.line_length();
            self.push_prefix(&mut chunks, length);
            self.forward_in_line(length);
            line_break = self.scan_line_break();
            let (b, e) = self.scan_block_scalar_breaks(indent)?;
            breaks = b;
            end = e;
            if self.column == indent && self.peek() != '\0' {
                if folded && line_break == "\n" && leading_non_space && !matches!(self.peek(), ' ' | '\t') {
                    if breaks.is_empty() {
                        chunks.push(' ');
                    }
                } else {
                    chunks.push_str(line_break);
                }
            } else {
                break;
            }
        }
        if chomping != Some(false) {
            chunks.push_str(line_break);
        }
        if chomping == Some(true) {
            chunks.push_str(&breaks);
        }
        let mut tok = Token::new(T::Scalar, start, end);
        tok.value = chunks;
        tok.style = Some(style);
        Ok(tok)
    }

    pub(super) fn scan_block_scalar_indentation(&mut self) -> R<(String, usize, Mark)> {
        let mut chunks = String::new();
        let mut max_indent = 0;
        let mut end = self.mark();
        while self.peek() == ' ' || is_break(self.peek()) {
            if self.peek() != ' ' {
                chunks.push_str(self.scan_line_break());
                end = self.mark();
            } else {
                self.forward1();
                max_indent = max_indent.max(self.column);
            }
        }
        self.check_block_tab(true)?;
        Ok((chunks, max_indent, end))
    }

    /// libyaml rejects a tab where block scalar indentation is still expected.
    fn check_block_tab(&self, short: bool) -> R<()> {
        if self.libyaml && short && self.peek() == '\t' {
            return Err(error(
                Some("while scanning a block scalar"),
                "found a tab character where an indentation space is expected",
                self.mark(),
            ));
        }
        Ok(())
    }

    pub(super) fn scan_block_scalar_breaks(&mut self, indent: usize) -> R<(String, Mark)> {
        let mut chunks = String::new();
        let mut end = self.mark();
        while self.column < indent && self.peek() == ' ' {
            self.forward1();
        }
        self.check_block_tab(self.column < indent)?;
        while is_break(self.peek()) {
            chunks.push_str(self.scan_line_break());
            end = self.mark();
            while self.column < indent && self.peek() == ' ' {
                self.forward1();
            }
            self.check_block_tab(self.column < indent)?;
        }
        Ok((chunks, end))
    }

    pub(super) fn scan_flow_scalar(&mut self, style: char) -> R<Token> {
        let double = style == '"';
        let mut chunks = String::new();
        let start = self.mark();
        let quote = self.peek();
        self.forward1();
        self.scan_flow_scalar_non_spaces(double, &mut chunks)?;
        while self.peek() != quote {
            self.scan_flow_scalar_spaces(&mut chunks)?;
            self.scan_flow_scalar_non_spaces(double, &mut chunks)?;
        }
        self.forward1();
        let mut tok = Token::new(T::Scalar, start, self.mark());
        tok.value = chunks;
        tok.style = Some(style);
        Ok(tok)
    }

    pub(super) fn scan_flow_scalar_non_spaces(&mut self, double: bool, chunks: &mut String) -> R<()> {
        const CTX: Option<&str> = Some("while scanning a double-quoted scalar");
        loop {
            let mut length = 0;
            while !matches!(self.peek_at(length), '\'' | '"' | '\\' | ' ' | '\t') && !is_breakz(self.peek_at(length)) {
                length += 1;
            }
            if length > 0 {
                self.push_prefix(chunks, length);
                self.forward_in_line(length);
            }
            let ch = self.peek();
            if !double && ch == '\'' && self.peek_at(1) == '\'' {
                chunks.push('\'');
                self.forward(2);
            } else if (double && ch == '\'') || (!double && (ch == '"' || ch == '\\')) {
                chunks.push(ch);
                self.forward1();
            } else if double && ch == '\\' {
                self.forward1();
                let ch = self.peek();
                let replacement = match ch {
                    '0' => Some('\0'),
                    'a' => Some('\x07'),
                    'b' => Some('\x08'),
                    't' | '\t' => Some('\t'),
                    'n' => Some('\n'),
                    'v' => Some('\x0b'),
                    'f' => Some('\x0c'),
                    'r' => Some('\r'),
                    'e' => Some('\x1b'),
                    ' ' => Some(' '),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '/' => Some('/'),
                    'N' => Some('\u{85}'),
                    '_' => Some('\u{a0}'),
                    'L' => Some('\u{2028}'),
                    'P' => Some('\u{2029}'),
                    _ => None,
                };
                if let Some(r) = replacement {
                    chunks.push(r);
                    self.forward1();
                } else if let Some(length) = match ch {
                    'x' => Some(2),
                    'u' => Some(4),
                    'U' => Some(8),
                    _ => None,
                } {
                    self.forward1();
                    for k in 0..length {
                        if !self.peek_at(k).is_ascii_hexdigit() {
                            return Err(error(
                                CTX,
                                format!(
                                    "expected escape sequence of {length} hexadecimal numbers, but found {}",
                                    self.found(self.peek_at(k))
                                ),
                                self.mark(),
                            ));
                        }
                    }
                    let code = u32::from_str_radix(&self.prefix(length), 16).unwrap_or(u32::MAX);
                    match char::from_u32(code) {
                        Some(c) => chunks.push(c),
                        // Python's chr() raises ValueError for surrogates / > 0x10FFFF.
                        None => {
                            return Err(error(
                                CTX,
                                format!("ValueError: chr() arg not in range or a surrogate (0x{code:x})"),
                                self.mark(),
                            ))
                        }
                    }
                    self.forward(length);
                } else if is_break(ch) {
                    self.scan_line_break();
                    self.scan_flow_scalar_breaks(chunks)?;
                } else {
                    return Err(error(CTX, format!("found unknown escape character {}", self.found(ch)), self.mark()));
                }
            } else {
                return Ok(());
            }
        }
    }

    pub(super) fn scan_flow_scalar_spaces(&mut self, chunks: &mut String) -> R<()> {
        let mut length = 0;
        while matches!(self.peek_at(length), ' ' | '\t') {
            length += 1;
        }
        let ws_start = self.offset; // spaces and tabs: one byte each
        self.forward_in_line(length);
        let ch = self.peek();
        if ch == '\0' {
            return Err(error(Some("while scanning a quoted scalar"), "found unexpected end of stream", self.mark()));
        } else if is_break(ch) {
            let line_break = self.scan_line_break();
            let mut breaks = String::new();
            self.scan_flow_scalar_breaks(&mut breaks)?;
            if line_break != "\n" {
                chunks.push_str(line_break);
            } else if breaks.is_empty() {
                chunks.push(' ');
            }
            chunks.push_str(&breaks);
        } else {
            chunks.push_str(&self.text[ws_start..ws_start + length]);
        }
        Ok(())
    }

    pub(super) fn scan_flow_scalar_breaks(&mut self, chunks: &mut String) -> R<()> {
        loop {
            if (self.prefix_is("---") || self.prefix_is("...")) && is_blankz(self.peek_at(3)) {
                return Err(error(
                    Some("while scanning a quoted scalar"),
                    "found unexpected document separator",
                    self.mark(),
                ));
            }
            while matches!(self.peek(), ' ' | '\t') {
                self.forward1();
            }
            if is_break(self.peek()) {
                chunks.push_str(self.scan_line_break());
            } else {
                return Ok(());
            }
        }
    }

    pub(super) fn scan_plain(&mut self) -> R<Token> {
        // While no line break has been folded, the value is exactly the source text from
        // `start` to `end`, so it is copied once at the end (`verbatim`).
        let mut chunks = String::new();
        let mut verbatim = true;
        let mut folded = false;
        let start = self.mark();
        let mut end = start;
        let indent = self.indent + 1;
        let mut spaces: Option<String> = Some(String::new());
        loop {
            let mut length = 0;
            if self.peek() == '#' {
                break;
            }
            loop {
                let ch = self.peek_at(length);
                if self.libyaml {
                    // libyaml 0.2.5: `?` does not end a plain scalar in flow context, and
                    // `:` followed by a flow indicator is an error there.
                    let flow = self.flow_level > 0;
                    let next = self.peek_at(length + 1);
                    if flow && ch == ':' && matches!(next, ',' | '?' | '[' | ']' | '{' | '}') {
                        return Err(error(Some("while scanning a plain scalar"), "found unexpected ':'", start));
                    }
                    if is_blankz(ch)
                        || (ch == ':' && is_blankz(next))
                        || (flow && matches!(ch, ',' | '[' | ']' | '{' | '}'))
                    {
                        break;
                    }
                } else if is_blankz(ch)
                    || (ch == ':' && {
                        let n = self.peek_at(length + 1);
                        is_blankz(n) || (self.flow_level > 0 && matches!(n, ',' | '[' | ']' | '{' | '}'))
                    })
                    || (self.flow_level > 0 && matches!(ch, ',' | '?' | '[' | ']' | '{' | '}'))
                {
                    break;
                }
                length += 1;
            }
            if length == 0 {
                break;
            }
            self.allow_simple_key = false;
            if verbatim && folded {
                chunks.push_str(&self.text[start.offset..end.offset]);
                verbatim = false;
            }
            if !verbatim {
                if let Some(s) = &spaces {
                    chunks.push_str(s);
                }
                self.push_prefix(&mut chunks, length);
            }
            self.forward_in_line(length);
            end = self.mark();
            let line = self.line;
            spaces = self.scan_plain_spaces(indent, start)?;
            folded = self.line != line;
            match &spaces {
                None => break,
                Some(s) if s.is_empty() => break,
                _ => {}
            }
            if self.peek() == '#' || (self.flow_level == 0 && (self.column as isize) < indent) {
                break;
            }
        }
        if verbatim {
            chunks.push_str(&self.text[start.offset..end.offset]);
        }
        let mut tok = Token::new(T::Scalar, start, end);
        tok.value = chunks;
        tok.plain = true;
        Ok(tok)
    }

    /// `None` mirrors PyYAML's bare `return` (a document marker follows). Under
    /// libyaml tabs count as blanks too, but a tab in the indentation of a
    /// continuation line is an error.
    pub(super) fn scan_plain_spaces(&mut self, indent: isize, start: Mark) -> R<Option<String>> {
        let tabs = self.libyaml;
        let blank = |c: char| c == ' ' || (tabs && c == '\t');
        let mut chunks = String::new();
        let mut length = 0;
        while blank(self.peek_at(length)) {
            length += 1;
        }
        let ws_start = self.offset; // spaces and tabs: one byte each
        self.forward_in_line(length);
        let ch = self.peek();
        let doc_marker = |s: &Self| (s.prefix_is("---") || s.prefix_is("...")) && is_blankz(s.peek_at(3));
        if is_break(ch) {
            let line_break = self.scan_line_break();
            self.allow_simple_key = true;
            if doc_marker(self) {
                return Ok(None);
            }
            let mut breaks = String::new();
            while blank(self.peek()) || is_break(self.peek()) {
                if tabs && self.peek() == '\t' && (self.column as isize) < indent {
                    return Err(error(
                        Some("while scanning a plain scalar"),
                        "found a tab character that violates indentation",
                        start,
                    ));
                }
                if blank(self.peek()) {
                    self.forward1();
                } else {
                    breaks.push_str(self.scan_line_break());
                    if doc_marker(self) {
                        return Ok(None);
                    }
                }
            }
            if line_break != "\n" {
                chunks.push_str(line_break);
            } else if breaks.is_empty() {
                chunks.push(' ');
            }
            chunks.push_str(&breaks);
        } else if length > 0 {
            chunks.push_str(&self.text[ws_start..ws_start + length]);
        }
        Ok(Some(chunks))
    }
}
