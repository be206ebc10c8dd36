//! Byte-level causes of "my agent is not loaded", read from a file's bytes alone (no
//! framework): a UTF-8 BOM, CRLF line endings, tab indentation, a missing space after
//! a colon, an unquoted `": "` in a value, an unclosed front matter fence and a
//! forbidden character in the name. Each cause points at a line and column, so a view
//! can print the line with a caret under the byte.

use serde::Serialize;

/// One suspicious byte sequence, at a 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ByteCause {
    /// `bom`, `crlf`, `tab-indent`, `no-space-after-colon`, `unquoted-colon`,
    /// `unclosed-fence`, `name-character`.
    pub kind: &'static str,
    pub line: u32,
    pub col: u32,
    /// The line as written, without its line ending (lossy UTF-8).
    pub text: String,
    pub message: String,
}

/// The most a view reads of one file to explain it.
pub const MAX_BYTES: usize = 1 << 20;

/// [`causes`] for a file at `path`: TOML and JSON files get the encoding causes
/// only (a BOM, CRLF), since their syntax is not YAML's.
pub fn causes_in(path: &std::path::Path, bytes: &[u8]) -> Vec<ByteCause> {
    let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
    let mut found = causes(bytes);
    if matches!(ext.as_str(), "toml" | "json" | "jsonc") {
        found.retain(|c| matches!(c.kind, "bom" | "crlf"));
    }
    found
}

/// Every cause found in `bytes` read as YAML or Markdown front matter, in line order;
/// at most one of each kind per line.
pub fn causes(bytes: &[u8]) -> Vec<ByteCause> {
    let bytes = &bytes[..bytes.len().min(MAX_BYTES)];
    let mut out = Vec::new();
    let lines: Vec<&[u8]> = split_lines(bytes);
    let text = |i: usize| {
        let l = lines[i];
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        let l = if i == 0 { l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l) } else { l };
        String::from_utf8_lossy(l).into_owned()
    };
    let mut push = |kind, i: usize, col: usize, message: String| {
        out.push(ByteCause { kind, line: i as u32 + 1, col: col as u32 + 1, text: text(i), message });
    };
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        push("bom", 0, 0, "the file starts with a UTF-8 byte order mark (EF BB BF): tools that look for `---` on the first line see no front matter".into());
    }
    if let Some(i) = lines.iter().position(|l| l.ends_with(b"\r")) {
        let col = char_col(&text(i), text(i).len());
        push(
            "crlf",
            i,
            col,
            "CRLF line endings (\\r\\n): the \\r stays in values of parsers that split on \\n only".into(),
        );
    }
    let first = lines.first().map(|l| trim_end(strip_bom(l))).unwrap_or(b"");
    let fenced = first == b"---";
    // The lines holding `key: value` pairs: the front matter, or the whole file
    // when it has none (YAML and TOML definitions).
    let (start, end) = if fenced {
        match lines.iter().skip(1).position(|l| matches!(trim_end(l), b"---" | b"...")) {
            Some(close) => (1, close + 1),
            None => {
                push(
                    "unclosed-fence",
                    0,
                    0,
                    "the front matter opened with `---` is never closed by a `---` line".into(),
                );
                (1, lines.len())
            }
        }
    } else {
        (0, lines.len())
    };
    for i in start..end {
        let line = text(i);
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        if let Some(tab) = line[..indent].find('\t') {
            push(
                "tab-indent",
                i,
                char_col(&line, tab),
                "indented with a tab: YAML allows only spaces for indentation".into(),
            );
        }
        let body = &line[indent..];
        if body.starts_with('#') || body.starts_with('-') {
            continue;
        }
        let Some(colon) = key_colon(body) else { continue };
        let after = &body[colon + 1..];
        let at = indent + colon;
        if !after.is_empty() && !after.starts_with([' ', '\t']) && !after.starts_with("//") {
            push(
                "no-space-after-colon",
                i,
                char_col(&line, at + 1),
                "no space after the colon: YAML reads `key:value` as one plain string, not a key".into(),
            );
            continue;
        }
        let value = after.trim_start();
        let value_at = indent + colon + 1 + (after.len() - value.len());
        if !value.starts_with(['"', '\'', '[', '{', '|', '>', '&', '*', '!']) {
            if let Some(c) = value.find(": ") {
                push(
                    "unquoted-colon",
                    i,
                    char_col(&line, value_at + c),
                    "an unquoted `: ` inside the value: YAML reads a second mapping here (quote the value)".into(),
                );
            } else if value.ends_with(':') {
                push(
                    "unquoted-colon",
                    i,
                    char_col(&line, value_at + value.len() - 1),
                    "the value ends with an unquoted `:`".into(),
                );
            }
        }
        let key = body[..colon].trim();
        if key == "name" && indent == 0 {
            let name = unquote(value);
            if let Some(bad) = name.find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))) {
                let c = name[bad..].chars().next().unwrap_or(' ');
                push(
                    "name-character",
                    i,
                    char_col(&line, value_at + (value.len() - value.trim_start_matches(['"', '\'']).len()) + bad),
                    format!("the name holds {c:?}: most tools allow only letters, digits, `-`, `_` and `.` in a name"),
                );
            }
        }
    }
    out
}

/// The name a file declares (`name: X` or `name = "X"` on a top-level line), read
/// from its bytes whatever else is broken in it.
pub fn declared_name(bytes: &[u8]) -> Option<String> {
    let bytes = &bytes[..bytes.len().min(MAX_BYTES)];
    for (i, raw) in split_lines(bytes).into_iter().enumerate().take(400) {
        let raw = if i == 0 { strip_bom(raw) } else { raw };
        let line = String::from_utf8_lossy(raw);
        let line = line.trim_end_matches(['\r', '\n']);
        // Top level, or one mapping down (`agent:` / `[agents.x]` layouts indent it).
        let body = line.trim_start_matches(' ');
        if line.len() - body.len() > 4 {
            continue;
        }
        let Some(rest) = body.strip_prefix("name") else { continue };
        let rest = rest.trim_start_matches([' ', '\t']);
        let Some(value) = rest.strip_prefix(':').or_else(|| rest.strip_prefix('=')) else { continue };
        let value = unquote(value.trim());
        if !value.is_empty() {
            return Some(value.to_string());
        }
    }
    None
}

fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.len() > 1 && lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn strip_bom(l: &[u8]) -> &[u8] {
    l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l)
}

fn trim_end(l: &[u8]) -> &[u8] {
    let end = l.iter().rposition(|b| !b" \t\r".contains(b)).map_or(0, |p| p + 1);
    &l[..end]
}

/// The byte offset of the colon ending a `key:` at the start of `body`.
fn key_colon(body: &str) -> Option<usize> {
    let key_end = body.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))?;
    if key_end == 0 {
        return None;
    }
    let rest = &body[key_end..];
    let gap = rest.len() - rest.trim_start_matches(' ').len();
    rest[gap..].starts_with(':').then_some(key_end + gap)
}

fn unquote(value: &str) -> &str {
    let value = value.trim();
    let value = value.split(" #").next().unwrap_or(value).trim_end();
    for q in ['"', '\''] {
        if let Some(inner) = value.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner;
        }
    }
    value
}

/// The 0-based character column of byte offset `at` in `line`.
fn char_col(line: &str, at: usize) -> usize {
    line.get(..at.min(line.len())).map_or(at, |s| s.chars().count())
}

/// `line` and a caret under column `col` (1-based), each prefixed with `indent` and
/// the line number gutter; control characters shown as `␍`/`␉`-style pictures.
pub fn caret_lines(cause: &ByteCause, indent: &str) -> [String; 2] {
    // A long line (minified, hostile) is shown as a window around the column.
    const WINDOW: usize = 120;
    let col = cause.col.saturating_sub(1) as usize;
    let skip = col.saturating_sub(WINDOW / 2);
    let mut shown: String = cause.text.chars().skip(skip).take(WINDOW).map(picture).collect();
    if skip > 0 {
        shown.insert(0, '…');
    }
    let gutter = format!("{:>4} | ", cause.line);
    let pad: String = " ".repeat(col - skip + usize::from(skip > 0));
    let mut line = format!("{indent}{gutter}{shown}");
    if cause.kind == "crlf" {
        line.push('␍');
    }
    [line, format!("{indent}{:>4} | {pad}^", "")]
}

fn picture(c: char) -> char {
    match c {
        '\t' => '␉',
        '\u{feff}' => '␥',
        c if c.is_control() => '�',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &[u8]) -> Vec<(&'static str, u32, u32)> {
        causes(text).into_iter().map(|c| (c.kind, c.line, c.col)).collect()
    }

    #[test]
    fn each_cause_is_found_at_its_byte() {
        assert_eq!(kinds(b"\xEF\xBB\xBF---\nname: a\n---\n"), vec![("bom", 1, 1)]);
        assert_eq!(
            kinds(b"---\r\nname: a\r\ndescription: Haunts: halls\r\n---\r\n"),
            vec![("crlf", 1, 4), ("unquoted-colon", 3, 20)]
        );
        assert_eq!(kinds(b"---\nname: a\ntools:\n\t- read\n---\n"), vec![("tab-indent", 4, 1)]);
        assert_eq!(kinds(b"---\nname:a\n---\n"), vec![("no-space-after-colon", 2, 6)]);
        assert_eq!(kinds(b"---\nname: a\nbody\n"), vec![("unclosed-fence", 1, 1)]);
        assert_eq!(kinds(b"---\nname: team:ghost\n---\n"), vec![("name-character", 2, 11)]);
        assert_eq!(kinds(b"name = \"a b\"\n"), vec![]);
    }

    #[test]
    fn good_files_and_urls_raise_nothing() {
        assert!(
            causes(b"---\nname: ghost\ndescription: \"a: b\"\nurl: https://x.y/z\n---\nBody: with colon\n").is_empty()
        );
        assert!(causes(b"").is_empty());
        assert!(causes(b"\xff\xfe\x00garbage\n\n").is_empty());
    }

    #[test]
    fn toml_files_get_only_the_encoding_causes() {
        let text = b"\xEF\xBB\xBFname = \"a\"\r\n\tdescription = \"x: y\"\r\n";
        let kinds: Vec<_> = causes_in(std::path::Path::new("r.toml"), text).into_iter().map(|c| c.kind).collect();
        assert_eq!(kinds, vec!["bom", "crlf"]);
        assert!(causes_in(std::path::Path::new("r.md"), text).iter().any(|c| c.kind == "tab-indent"));
    }

    #[test]
    fn the_declared_name_survives_broken_bytes() {
        assert_eq!(declared_name(b"\xEF\xBB\xBF---\r\nname: ghost\r\n"), Some("ghost".into()));
        assert_eq!(declared_name(b"name = \"ghost\"\n"), Some("ghost".into()));
        assert_eq!(declared_name(b"agent:\n  name: ghost\n"), Some("ghost".into()));
        assert_eq!(declared_name(b"---\nnames: x\n        name: y\n"), None);
    }

    proptest::proptest! {
        /// Any bytes: no panic, and every cause points inside the file's lines.
        #[test]
        fn hostile_bytes_never_panic(bytes in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::prelude::any::<u8>(),
                // Mostly the bytes the causes look at, so front matter forms often.
                proptest::sample::select(b"-:\r\n\t #name=\"'a\xEF\xBB\xBF\xCE\xA9".to_vec()),
            ],
            0..400,
        )) {
            let lines = bytes.split(|&b| b == b'\n').count() as u32;
            for c in causes(&bytes) {
                proptest::prop_assert!(c.line >= 1 && c.line <= lines && c.col >= 1);
                let _ = caret_lines(&c, "");
            }
            let _ = declared_name(&bytes);
        }
    }

    #[test]
    fn the_caret_sits_under_the_column() {
        let c = &causes(b"---\nname:a\n---\n")[0];
        let [line, caret] = caret_lines(c, "");
        assert_eq!(line, "   2 | name:a");
        assert_eq!(caret, "     |      ^");
        let long = format!("---\nname: {}:x\n---\n", "a".repeat(5000));
        let c = &causes(long.as_bytes())[0];
        let [line, caret] = caret_lines(c, "");
        assert!(line.chars().count() < 140 && line.ends_with(":x"), "{line}");
        assert_eq!(
            caret.find('^').map(|i| caret[..i].chars().count()),
            line.find(":x").map(|i| line[..i].chars().count())
        );
    }
}
