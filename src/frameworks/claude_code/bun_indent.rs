//! Bun's YAML refuses a multi-line flow node (a quoted scalar, a flow sequence or
//! mapping, a plain scalar inside one) whose continuation line starts at or left of
//! the column of the block entry that holds it; libyaml, which agentry parses with,
//! takes such lines. Probed with Bun 1.4.5 and Claude Code 2.1.337's Bun 1.4.6: in
//! `a: "x⏎y"` the `y` at column 0 is refused ("Unexpected character"); one space
//! loads it. The entry's column is its key's (`- b: "x` → 2) or its `-`'s (`- "x` →
//! 0); a value on a line of its own belongs to the entry above. Blank lines are fine,
//! and inside a flow collection so are lines that start with `]`, `}`, `,` or a
//! comment; a line inside a quoted scalar counts whatever it holds (even the closing
//! quote). At document level (no block collection) nothing is refused.

/// The 1-based line of the first continuation line Bun refuses, if any.
pub fn under_indented(text: &str) -> Option<usize> {
    let lines: Vec<&str> = text.split('\n').collect();
    // (indentation, entry column) of the block lines above, innermost last.
    let mut parents: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        if rest.trim().is_empty() || rest.starts_with('#') || (indent == 0 && is_marker(rest)) {
            i += 1;
            continue;
        }
        while parents.last().is_some_and(|(at, _)| *at >= indent) {
            parents.pop();
        }
        let parent = parents.last().map(|(_, entry)| *entry);
        let (entry, value_at) = structure(line, indent);
        let owner = entry.or(parent);
        parents.push((indent, entry.unwrap_or(indent)));
        let value = &line[value_at..];
        match value.chars().next() {
            Some('"' | '\'' | '[' | '{') => {
                let (end_line, bad) = flow_node(&lines, i, value_at, owner);
                if bad.is_some() {
                    return bad;
                }
                i = end_line + 1;
            }
            Some('|' | '>') | Some(_) if !value.is_empty() => {
                // A block scalar's or a plain scalar's lines: every following line
                // indented past the entry is its text.
                let floor = owner.map_or(0, |o| o + 1);
                i += 1;
                while i < lines.len() {
                    let next = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
                    let at = next.len() - next.trim_start_matches(' ').len();
                    if !next.trim().is_empty() && at < floor.max(1) {
                        break;
                    }
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    None
}

fn is_marker(rest: &str) -> bool {
    rest.starts_with('%') || ["---", "..."].iter().any(|m| rest.starts_with(m) && rest[3..].chars().next().is_none_or(|c| c == ' ' || c == '\t'))
}

/// The column of the innermost block entry the line opens (its key, or its last `-`
/// or `?`), and where its value starts (after anchors and tags).
fn structure(line: &str, indent: usize) -> (Option<usize>, usize) {
    let bytes = line.as_bytes();
    let mut at = indent;
    let mut entry = None;
    loop {
        let skip_blanks = |mut p: usize| {
            while p < bytes.len() && (bytes[p] == b' ' || bytes[p] == b'\t') {
                p += 1;
            }
            p
        };
        if matches!(bytes.get(at), Some(b'-' | b'?')) && matches!(bytes.get(at + 1), None | Some(b' ' | b'\t')) {
            entry = Some(at);
            at = skip_blanks(at + 1);
            continue;
        }
        if let Some(after) = key_end(line, at) {
            entry = Some(at);
            at = skip_blanks(after);
            continue;
        }
        // Anchors and tags before the value.
        if matches!(bytes.get(at), Some(b'&' | b'!')) {
            let end = line[at..].find([' ', '\t']).map_or(line.len(), |e| at + e);
            if end < line.len() {
                at = skip_blanks(end);
                continue;
            }
        }
        return (entry, at);
    }
}

/// Where a `key:` starting at `at` ends (past its colon), if the text there is one.
fn key_end(line: &str, at: usize) -> Option<usize> {
    let rest = &line[at..];
    let colon_ok = |p: usize| rest.as_bytes().get(p) == Some(&b':') && matches!(rest.as_bytes().get(p + 1), None | Some(b' ' | b'\t'));
    match rest.chars().next()? {
        q @ ('"' | '\'') => {
            let close = quote_end(&rest[1..], q)? + 1;
            let after = close + 1;
            let p = after + rest[after..].len() - rest[after..].trim_start_matches([' ', '\t']).len();
            colon_ok(p).then_some(at + p + 1)
        }
        '[' | ']' | '{' | '}' | ',' | '#' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`' => None,
        _ => {
            let mut prev = ' ';
            for (p, c) in rest.char_indices() {
                if c == '#' && (prev == ' ' || prev == '\t') {
                    return None;
                }
                if colon_ok(p) {
                    return Some(at + p + 1);
                }
                prev = c;
            }
            None
        }
    }
}

/// The byte offset of the quote closing a scalar whose text starts at `text`, on
/// this line.
fn quote_end(text: &str, quote: char) -> Option<usize> {
    let mut chars = text.char_indices().peekable();
    while let Some((p, c)) = chars.next() {
        if quote == '"' && c == '\\' {
            chars.next();
        } else if c == quote {
            if quote == '\'' && chars.peek().is_some_and(|(_, n)| *n == '\'') {
                chars.next();
            } else {
                return Some(p);
            }
        }
    }
    None
}

/// Scans the flow node starting at byte `start` of line `first` to its end: the last
/// line it covers, and the first continuation line Bun refuses (1-based).
fn flow_node(lines: &[&str], first: usize, start: usize, owner: Option<usize>) -> (usize, Option<usize>) {
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let mut l = first;
    let mut from = start;
    loop {
        let line = lines[l].strip_suffix('\r').unwrap_or(lines[l]);
        if l > first {
            let indent = line.len() - line.trim_start_matches(' ').len();
            let rest = line[indent..].trim_start_matches([' ', '\t']);
            let exempt = rest.is_empty() || (quote.is_none() && rest.starts_with([']', '}', ',', '#']));
            if !exempt && owner.is_some_and(|o| indent <= o) {
                return (l, Some(l + 1));
            }
        }
        let mut chars = line[from..].chars().peekable();
        let mut prev = ' ';
        while let Some(c) = chars.next() {
            match quote {
                Some('"') if c == '\\' => {
                    chars.next();
                }
                Some(q) if c == q => {
                    if q == '\'' && chars.peek() == Some(&'\'') {
                        chars.next();
                    } else {
                        quote = None;
                        if depth == 0 {
                            return (l, None);
                        }
                    }
                }
                Some(_) => {}
                None => match c {
                    // A quote opens a scalar only where one can start.
                    '"' | '\'' if matches!(prev, ' ' | '\t' | '[' | '{' | ',' | ':') => quote = Some(c),
                    '[' | '{' => depth += 1,
                    ']' | '}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return (l, None);
                        }
                    }
                    '#' if prev == ' ' || prev == '\t' => break,
                    _ => {}
                },
            }
            prev = c;
        }
        l += 1;
        from = 0;
        if l >= lines.len() {
            return (lines.len() - 1, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::under_indented;

    /// Inputs Bun 1.4.5 refuses (`Some`) or loads (`None`), probed one by one.
    #[test]
    fn continuation_lines_left_of_their_entry_are_refused() {
        let refused = [
            "a: \"x\ny\"", "m:\n  a: \"x\n y\"", "m:\n  a: \"x\n  y\"", "a: 'x\ny'", "a: [x,\ny]", "m:\n  a: [x,\n  y]",
            "a: {b: 1,\nc: 2}", "- \"x\ny\"", "a:\n  - \"x\n  y\"", "a:\n- \"x\ny\"", "a: \"x\n\ny\"", "a: \"x\n\ty\"",
            "a: \"x\n\"", "a: [x, [y,\nz]]", "a: [\"x\ny\"]", "a: {b: 1,\n c: 2,\nd: 3}", "a: [x\n,\ny]", "a: [x,\n[y]]",
            "a: [x,\n\"y\"]", "m:\n  a: [\"x\n  y\"]", "m:\n  \"a\": \"x\n  y\"", "a: 'it''s\nx'", "a:\n  b:\n    c: \"x\n    y\"",
            "a:\n- b: \"x\n  y\"", "a: &x \"y\nz\"", "a: !!str \"y\nz\"", "a:\n  \"x\ny\"", "a:\n  [x,\ny]", "- a: \"x\n  y\"",
            "a: \"x\r\ny\"\r\n",
        ];
        for text in refused {
            assert!(under_indented(text).is_some(), "{text:?}");
        }
        let loaded = [
            "a: \"x\n y\"", "m:\n  a: \"x\n   y\"", "a: [x\n]", "m:\n  a: [x,\n   y]", "a: {b: 1\n}", "- \"x\n y\"",
            "a:\n  - \"x\n   y\"", "a:\n- \"x\n y\"", "a: \"x\n\n y\"", "a: \"x\n \"", "\"x\ny\"", "[x,\ny]", "x\ny",
            "a: [x\n, y]", "m:\n  a: \"x\n \n   y\"", "m:\n  a: \"x\n   \ty\"", "a: [x,\n y\n]", "m:\n  a: [x,\n   y\n]",
            "m:\n  a: [x\n  , y]", "a: [x, # c\n# c2\n y]", "a: \"x\n y\"\nb: 1", "a:\n  \"x\n y\"", "a:\n  [x,\n  y]",
            "a: |\n  \"x\nb: 1", "a: [don't,\n y]", "a: plain\n  \"x\nb: 1", "a: x # \"c\nb: \"y\n z\"", "- a: \"x\n   y\"",
        ];
        for text in loaded {
            assert_eq!(under_indented(text), None, "{text:?}");
        }
        assert_eq!(under_indented("name: x\ndescription: \"first\nsecond\"\n"), Some(3));
    }
}
