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
    if source.contains("{%") || source.contains("{#") {
        return None;
    }
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    let mut variables = 0;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find('}')?;
        let name = after[..end].trim_matches(|c: char| c.is_ascii_whitespace());
        // `${-`, `${+` and `-}` control whitespace; anything but a plain name is an
        // expression.
        if after.starts_with(['-', '+']) || !is_plain_name(name) || NOT_LOOKED_UP.contains(&name) {
            return None;
        }
        variables += 1;
        if variables > MAX_VARIABLES {
            return None;
        }
        out.push_str(context.get(name)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    (out.len() <= MAX_OUTPUT_BYTES).then_some(out)
}

fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
