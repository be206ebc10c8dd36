//! The directive, anchor/alias and tag scanners of [`Scanner`] (PyYAML
//! `scan_directive`, `scan_anchor`, `scan_tag` and the tag handle/URI helpers).

use super::{error, is_blankz, is_breakz, is_spacez, is_word, Directive, Scanner, Token, R, T};

impl Scanner<'_> {
    pub(super) fn scan_directive(&mut self) -> R<Token> {
        const CTX: Option<&str> = Some("while scanning a directive");
        let start = self.mark();
        self.forward1();
        let name = self.scan_directive_name()?;
        let directive = if name == "YAML" {
            while self.peek() == ' ' {
                self.forward1();
            }
            let major = self.scan_yaml_directive_number()?;
            if self.peek() != '.' {
                return Err(self.expected(CTX, "a digit or '.'", self.peek()));
            }
            self.forward1();
            self.scan_yaml_directive_number()?; // minor
            if !is_spacez(self.peek()) {
                return Err(self.expected(CTX, "a digit or ' '", self.peek()));
            }
            Directive::Yaml(major)
        } else if name == "TAG" {
            while self.peek() == ' ' {
                self.forward1();
            }
            let handle = self.scan_tag_handle("directive")?;
            if self.peek() != ' ' {
                return Err(self.expected(CTX, "' '", self.peek()));
            }
            while self.peek() == ' ' {
                self.forward1();
            }
            let prefix = self.scan_tag_uri("directive", true)?;
            if !is_spacez(self.peek()) {
                return Err(self.expected(CTX, "' '", self.peek()));
            }
            Directive::Tag(handle, prefix)
        } else if self.libyaml {
            return Err(error(CTX, "found unknown directive name", start));
        } else {
            while !is_breakz(self.peek()) {
                self.forward1();
            }
            Directive::Other
        };
        let end = self.mark();
        // scan_directive_ignored_line
        while self.peek() == ' ' {
            self.forward1();
        }
        if self.peek() == '#' {
            while !is_breakz(self.peek()) {
                self.forward1();
            }
        }
        if !is_breakz(self.peek()) {
            return Err(self.expected(CTX, "a comment or a line break", self.peek()));
        }
        self.scan_line_break();
        let mut tok = Token::new(T::Directive, start, end);
        tok.value = name;
        tok.directive = Some(Box::new(directive));
        Ok(tok)
    }

    pub(super) fn scan_directive_name(&mut self) -> R<String> {
        let mut length = 0;
        while is_word(self.peek_at(length)) {
            length += 1;
        }
        if length == 0 {
            return Err(self.expected(Some("while scanning a directive"), "alphabetic or numeric character", self.peek()));
        }
        let value = self.prefix(length);
        self.forward(length);
        if !is_spacez(self.peek()) {
            return Err(self.expected(Some("while scanning a directive"), "alphabetic or numeric character", self.peek()));
        }
        Ok(value)
    }

    pub(super) fn scan_yaml_directive_number(&mut self) -> R<u64> {
        if !self.peek().is_ascii_digit() {
            return Err(self.expected(Some("while scanning a directive"), "a digit", self.peek()));
        }
        let mut length = 0;
        while self.peek_at(length).is_ascii_digit() {
            length += 1;
        }
        let text = self.prefix(length);
        self.forward(length);
        // Python ints are unbounded; any huge major version is "not 1" anyway.
        Ok(text.trim_start_matches('0').parse::<u64>().unwrap_or(if text.trim_start_matches('0').is_empty() {
            0
        } else {
            u64::MAX
        }))
    }

    pub(super) fn scan_anchor(&mut self, t: T) -> R<Token> {
        let start = self.mark();
        let ctx = if t == T::Alias { "while scanning an alias" } else { "while scanning an anchor" };
        self.forward1();
        let mut length = 0;
        while is_word(self.peek_at(length)) {
            length += 1;
        }
        if length == 0 {
            return Err(self.expected(Some(ctx), "alphabetic or numeric character", self.peek()));
        }
        let value = self.prefix(length);
        self.forward(length);
        let ch = self.peek();
        if !(is_blankz(ch) || matches!(ch, '?' | ':' | ',' | ']' | '}' | '%' | '@' | '`')) {
            return Err(self.expected(Some(ctx), "alphabetic or numeric character", ch));
        }
        let mut tok = Token::new(t, start, self.mark());
        tok.value = value;
        Ok(tok)
    }

    pub(super) fn scan_tag(&mut self) -> R<Token> {
        let start = self.mark();
        let ch = self.peek_at(1);
        let (handle, suffix);
        if ch == '<' {
            handle = None;
            self.forward(2);
            suffix = self.scan_tag_uri("tag", true)?;
            if self.peek() != '>' {
                return Err(self.expected(Some("while parsing a tag"), "'>'", self.peek()));
            }
            self.forward1();
        } else if is_blankz(ch) {
            handle = None;
            suffix = "!".to_string();
            self.forward1();
        } else {
            let mut length = 1;
            let mut use_handle = false;
            let mut c = ch;
            while !is_spacez(c) {
                if c == '!' {
                    use_handle = true;
                    break;
                }
                length += 1;
                c = self.peek_at(length);
            }
            if use_handle {
                handle = Some(self.scan_tag_handle("tag")?);
            } else {
                handle = Some("!".to_string());
                self.forward1();
            }
            suffix = self.scan_tag_uri("tag", false)?;
        }
        let c = self.peek();
        // libyaml: any blank ends a tag, and so does `,` in flow context
        if !(is_spacez(c) || (self.libyaml && (c == '\t' || (c == ',' && self.flow_level > 0)))) {
            return Err(self.expected(Some("while scanning a tag"), "' '", c));
        }
        let mut tok = Token::new(T::Tag, start, self.mark());
        tok.handle = handle;
        tok.value = suffix;
        Ok(tok)
    }

    pub(super) fn scan_tag_handle(&mut self, name: &str) -> R<String> {
        let ctx = format!("while scanning a {name}");
        let ch = self.peek();
        if ch != '!' {
            return Err(self.expected(Some(&ctx), "'!'", ch));
        }
        let mut length = 1;
        let mut ch = self.peek_at(length);
        if ch != ' ' {
            while is_word(ch) {
                length += 1;
                ch = self.peek_at(length);
            }
            if ch != '!' {
                self.forward(length);
                return Err(self.expected(Some(&ctx), "'!'", ch));
            }
            length += 1;
        }
        let value = self.prefix(length);
        self.forward(length);
        Ok(value)
    }

    /// `verbatim`: inside `!<…>` or a `%TAG` prefix, where libyaml 0.2.5 also accepts the
    /// flow indicators `,[]` (PyYAML accepts them everywhere).
    pub(super) fn scan_tag_uri(&mut self, name: &str, verbatim: bool) -> R<String> {
        let mut chunks = String::new();
        let mut any = false;
        let mut length = 0;
        let mut ch = self.peek_at(length);
        let flow_ok = verbatim || !self.libyaml;
        while ch.is_ascii_alphanumeric()
            || "-;/?:@&=+$_.!~*'()%".contains(ch)
            || (flow_ok && matches!(ch, ',' | '[' | ']'))
        {
            if ch == '%' {
                self.push_prefix(&mut chunks, length);
                self.forward(length);
                length = 0;
                chunks.push_str(&self.scan_uri_escapes(name)?);
                any = true;
            } else {
                length += 1;
            }
            ch = self.peek_at(length);
        }
        if length > 0 {
            self.push_prefix(&mut chunks, length);
            self.forward(length);
            any = true;
        }
        if !any {
            return Err(error(
                Some(&format!("while parsing a {name}")),
                format!("expected URI, but found {}", self.found(ch)),
                self.mark(),
            ));
        }
        Ok(chunks)
    }

    pub(super) fn scan_uri_escapes(&mut self, name: &str) -> R<String> {
        let mut codes = Vec::new();
        let mark = self.mark();
        while self.peek() == '%' {
            self.forward1();
            for k in 0..2 {
                if !self.peek_at(k).is_ascii_hexdigit() {
                    return Err(error(
                        Some(&format!("while scanning a {name}")),
                        format!(
                            "expected URI escape sequence of 2 hexadecimal numbers, but found {}",
                            self.found(self.peek_at(k))
                        ),
                        self.mark(),
                    ));
                }
            }
            codes.push(u8::from_str_radix(&self.prefix(2), 16).unwrap_or(0));
            self.forward(2);
        }
        String::from_utf8(codes).map_err(|e| {
            error(Some(&format!("while scanning a {name}")), format!("'utf-8' codec can't decode: {e}"), mark)
        })
    }
}
