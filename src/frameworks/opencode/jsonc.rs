//! JSON with comments as OpenCode 1.18.33 reads its config files: `jsonc-parser`'s
//! `parse` with `allowTrailingComma` (line and block comments, trailing commas;
//! anything else JSON forbids is an error). Done here by blanking comments and
//! trailing commas (newlines kept, so lines and columns stay) and handing the rest to
//! serde_json, which then reports exactly the remaining syntax errors.

use serde_json::Value as Json;

/// The text with comments and trailing commas turned into spaces.
pub fn blank_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    // Position of the last comma outside strings and comments, while only blanks follow.
    let mut pending_comma: Option<usize> = None;
    while i < b.len() {
        match b[i] {
            b'"' => {
                pending_comma = None;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    if i < b.len() && b[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                let end = (i + 2).min(b.len());
                for c in &mut out[start..end] {
                    if *c != b'\n' && *c != b'\r' {
                        *c = b' ';
                    }
                }
                i = end;
            }
            b',' => {
                pending_comma = Some(i);
                i += 1;
            }
            b'}' | b']' => {
                if let Some(c) = pending_comma.take() {
                    out[c] = b' ';
                }
                i += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => {
                pending_comma = None;
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// A syntax error: message, line and column (1-based).
#[derive(Debug, PartialEq)]
pub struct SyntaxError {
    pub message: String,
    pub line: u32,
    pub col: u32,
}

pub fn parse(text: &str) -> Result<Json, SyntaxError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let blanked = blank_comments(text);
    serde_json::from_str(&blanked).map_err(|e| SyntaxError {
        message: e.to_string(),
        line: e.line() as u32,
        col: e.column() as u32,
    })
}

/// The 1-based line of byte offset `at`.
pub fn line_of(text: &str, at: usize) -> u32 {
    1 + text.as_bytes()[..at.min(text.len())].iter().filter(|&&c| c == b'\n').count() as u32
}

/// Where `"key"` is first written as a key at or after byte `from` (approximate: the
/// first `"key"` followed by `:`).
pub fn find_key(text: &str, key: &str, from: usize) -> Option<usize> {
    let needle = serde_json::to_string(key).ok()?;
    let mut at = from.min(text.len());
    while let Some(i) = text.get(at..)?.find(&needle) {
        let after = at + i + needle.len();
        if text[after..].trim_start().starts_with(':') {
            return Some(at + i);
        }
        at = after;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas() {
        let v = parse("{\n // c\n \"a\": [1, 2,], /* b */ \"s\": \"//x, }\",\n}").unwrap();
        assert_eq!(v, serde_json::json!({"a": [1, 2], "s": "//x, }"}));
        assert!(parse("{\"a\": 1,, }").is_err());
        assert_eq!(parse("{\n\"a\": ,}").unwrap_err().line, 2);
    }
}
