//! Prompts that are text and `${NAME}` variables only, the usual Kimi prompt, filled
//! in without Jinja: compiling the template cost most of a load's rendering. Any
//! other syntax (a block or comment tag, whitespace control, an expression, a name
//! the context lacks, which is an error) is left to the template engine, as is a
//! prompt longer than the engine's output bound.

use std::collections::BTreeMap;

use super::prompt::MAX_OUTPUT_BYTES;

/// Names the engine reads as literals or reserves: never looked up.
const NOT_LOOKED_UP: [&str; 8] = ["true", "True", "false", "False", "none", "None", "loop", "self"];

/// More variables than this are left to the engine, whose fuel bounds a render.
const MAX_VARIABLES: usize = 10_000;

/// `source` rendered with `context` as the engine renders it (Kimi's `${…}`
/// delimiters, strict undefined, no autoescape), when it is text and variables only.
pub fn render(source: &str, context: &BTreeMap<String, String>) -> Option<String> {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    // Up to where `source` is in `out`.
    let mut done = 0;
    let mut variables = 0;
    // Every tag starts with `{`: one pass over them.
    for open in memchr::memchr_iter(b'{', bytes) {
        if matches!(bytes.get(open + 1), Some(b'%' | b'#')) {
            return None;
        }
        if open == 0 || bytes[open - 1] != b'$' {
            continue;
        }
        let start = open + 1;
        let end = start + memchr::memchr(b'}', &bytes[start..])?;
        let name = source[start..end].trim_matches(|c: char| c.is_ascii_whitespace());
        // `${-`, `${+` and `-}` control whitespace; anything but a plain name is an
        // expression (and a plain name holds no `{` this pass would skip).
        if matches!(bytes[start..end].first(), Some(b'-' | b'+')) || !is_plain_name(name) || NOT_LOOKED_UP.contains(&name) {
            return None;
        }
        variables += 1;
        if variables > MAX_VARIABLES {
            return None;
        }
        out.push_str(&source[done..open - 1]);
        out.push_str(context.get(name)?);
        done = end + 1;
    }
    out.push_str(&source[done..]);
    (out.len() <= MAX_OUTPUT_BYTES).then_some(out)
}

fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
