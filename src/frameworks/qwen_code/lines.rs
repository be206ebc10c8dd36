//! Qwen Code's front matter read line by line: its fallback parser (`parseSimple`,
//! `parseValue` in `yaml-parser.ts`), and the line scans that stand in for what the
//! `yaml` package decides from the text's layout (tabs in indentation, keys claimed
//! outside block scalars).

use std::borrow::Cow;

use super::js::{self, Js};

/// For each line of `text`, whether it lies in the body of a block scalar (`|`,
/// `>`): the lines after a header that are blank or indented deeper than the
/// header's line, down to the first content line's indentation.
fn block_scalar_bodies(lines: &[&str]) -> Vec<bool> {
    let mut inside = Vec::with_capacity(lines.len());
    // (indentation of the line that opened it, indentation of its content once seen)
    let mut block: Option<(usize, Option<usize>)> = None;
    for line in lines {
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        let content = line.trim_start_matches([' ', '\t']);
        if let Some((parent, inner)) = block {
            let body = match inner {
                _ if content.is_empty() => true,
                None if spaces > parent => {
                    block = Some((parent, Some(spaces)));
                    true
                }
                Some(m) => spaces >= m,
                None => false,
            };
            if body {
                inside.push(true);
                continue;
            }
            block = None;
        }
        inside.push(false);
        if !content.is_empty() && opens_block_scalar(content) {
            block = Some((spaces, None));
        }
    }
    inside
}

/// The first line (1-based) the `yaml` package refuses for a tab in its
/// indentation: leading white space holding a tab, then content that is not a
/// comment, outside the body of a block scalar. Otherwise the text with the tabs
/// that lead blank and comment lines outside block scalars removed (the `yaml`
/// package takes them; yaml-rust does not).
pub fn tab_indented_line(text: &str) -> Result<Cow<'_, str>, usize> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut cleaned: Option<Vec<String>> = None;
    for (i, (line, in_block)) in lines.iter().zip(block_scalar_bodies(&lines)).enumerate() {
        let content = line.trim_start_matches([' ', '\t']);
        if in_block || !line[..line.len() - content.len()].contains('\t') {
            continue;
        }
        if !content.is_empty() && !content.starts_with('#') {
            return Err(i + 1);
        }
        cleaned.get_or_insert_with(|| lines.iter().map(|l| l.to_string()).collect())[i] = content.to_string();
    }
    Ok(match cleaned {
        Some(lines) => Cow::Owned(lines.join("\n")),
        None => Cow::Borrowed(text),
    })
}

/// `^[ \t]*["']?KEY["']?[ \t]*:` on a line outside the body of a block scalar
/// (`probeMatchInsideBlockScalar`): the front matter claims the key.
pub fn claims_outside_block_scalars(text: &str, key: &str) -> bool {
    let claims = |line: &str| {
        let l = line.trim_start_matches([' ', '\t']);
        let l = l.strip_prefix(['"', '\'']).unwrap_or(l);
        l.strip_prefix(key).is_some_and(|rest| {
            let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
            rest.trim_start_matches([' ', '\t']).starts_with(':')
        })
    };
    let lines: Vec<&str> = text.split('\n').collect();
    lines.iter().zip(block_scalar_bodies(&lines)).any(|(line, in_block)| !in_block && claims(line))
}

/// Whether a line ends with a block scalar header (`key: |`, `- >-`, `|2 # c`).
fn opens_block_scalar(content: &str) -> bool {
    let code = match content.find(" #") {
        Some(i) => &content[..i],
        None => content,
    };
    let code = code.trim_end_matches([' ', '\t']);
    let header_start = code.rfind(['|', '>']);
    let Some(at) = header_start else { return false };
    let indicators = &code[at + 1..];
    indicators.len() <= 2
        && indicators.chars().all(|c| c == '-' || c == '+' || c.is_ascii_digit())
        && (at == 0 || code[..at].ends_with([' ', '\t']))
}

/// Qwen's `parseSimple`: `key: value` lines split at the first colon, `  - item`
/// lists and one level of `  key: value` objects.
pub fn parse_simple(text: &str) -> Vec<(String, Js, u32)> {
    let lines: Vec<&str> = text
        .split('\n')
        .filter(|l| {
            let t = js::trim(l);
            !t.is_empty() && !t.starts_with('#')
        })
        .collect();
    let mut result: Vec<(String, Js, u32)> = Vec::new();
    let mut current_key = String::new();
    let mut array: Vec<Js> = Vec::new();
    let mut in_array = false;
    let mut object: Vec<(String, Js, u32)> = Vec::new();
    let mut in_object = false;
    let mut object_key = String::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(item) = line.strip_prefix("  - ") {
            if !in_array {
                in_array = true;
                array = Vec::new();
            }
            array.push(parse_value(js::trim(item)));
            continue;
        }
        if in_array {
            Js::set(&mut result, std::mem::take(&mut current_key), Js::Seq(std::mem::take(&mut array)), 0);
            in_array = false;
        }
        if line.starts_with("  ") && in_object {
            let t = js::trim(line);
            let (key, value) = t.split_once(':').unwrap_or((t, ""));
            Js::set(&mut object, js::trim(key).to_string(), parse_value(js::trim(value)), 0);
            continue;
        }
        if in_object && !line.starts_with("  ") {
            Js::set(&mut result, std::mem::take(&mut object_key), Js::Map(std::mem::take(&mut object)), 0);
            in_object = false;
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = js::trim(value);
            if value.is_empty() {
                current_key = js::trim(key).to_string();
                if let Some(next) = lines.get(i + 1) {
                    if next.starts_with("  - ") {
                        continue;
                    } else if next.starts_with("  ") {
                        in_object = true;
                        object_key = std::mem::take(&mut current_key);
                        object = Vec::new();
                        continue;
                    }
                }
            } else {
                Js::set(&mut result, js::trim(key).to_string(), parse_value(value), 0);
            }
        }
    }
    if in_array {
        Js::set(&mut result, current_key, Js::Seq(array), 0);
    }
    if in_object {
        Js::set(&mut result, object_key, Js::Map(object), 0);
    }
    result
}

/// Qwen's `parseValue` for the line parser.
fn parse_value(value: &str) -> Js {
    match value {
        "true" => return Js::Bool(true),
        "false" => return Js::Bool(false),
        "null" => return Js::Null,
        "" => return Js::Str(String::new()),
        _ => {}
    }
    if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') && js::js_len(value) >= 2 {
        let inner = &value[1..value.len() - 1];
        return Js::Str(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    match js::string_to_number(value) {
        Some(n) if n.is_finite() => Js::Num(n),
        _ => Js::Str(value.to_string()),
    }
}

