//! One `SKILL.md` as Gemini CLI 0.61.0's `loadSkillFromFile` reads it: the agents'
//! `FRONTMATTER_REGEX` split, js-yaml `load` of the front matter taken only when it
//! gives a string `name` and `description`, else `parseSimpleFrontmatter` (line by
//! line: the last `name:` line, a `description:` line and its indented continuation
//! lines), the name's `:\/<>*?"|` made `-`, and the body trimmed.

use super::schema::{self, js_trim};
use crate::jsyaml::{self, Js};
use crate::text::js::is_space;

/// A skill as the loader returns it.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillFile {
    pub name: String,
    pub description: String,
    pub body: String,
    /// 1-based line in the file of the `description` the skill took.
    pub description_line: Option<u32>,
}

/// Why the loader returned nothing for a file (it writes this to its debug log only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    NoFrontmatter,
    NoNameOrDescription,
}

impl Skip {
    pub fn reason(self) -> &'static str {
        match self {
            Skip::NoFrontmatter => "no frontmatter: the file must start with '---' and a line break and have a closing '---' line",
            Skip::NoNameOrDescription => "the frontmatter has no string 'name' and 'description' (neither as YAML nor line by line)",
        }
    }
}

/// Parses one file's bytes, read as Node's `readFile(path, "utf-8")` reads them.
pub fn parse(bytes: &[u8]) -> Result<SkillFile, Skip> {
    let text = String::from_utf8_lossy(bytes);
    let (front, body) = schema::split(&text).ok_or(Skip::NoFrontmatter)?;
    let (name, description, line) = from_yaml(front).or_else(|| line_by_line(front)).ok_or(Skip::NoNameOrDescription)?;
    Ok(SkillFile {
        name: name.chars().map(|c| if ":\\/<>*?\"|".contains(c) { '-' } else { c }).collect(),
        description,
        body: js_trim(body).to_string(),
        // The front matter starts on the file's second line.
        description_line: line.map(|l| l + 1),
    })
}

/// `load(frontmatter)` when it gives an object whose `name` and `description` are
/// both strings (empty ones too).
fn from_yaml(front: &str) -> Option<(String, String, Option<u32>)> {
    let Ok(Js::Map(entries)) = jsyaml::load(front, jsyaml::Version::V4) else { return None };
    let get = |key: &str| entries.iter().find(|(k, _, _)| k == key);
    let (_, Js::Str(name), _) = get("name")? else { return None };
    let (_, Js::Str(description), line) = get("description")? else { return None };
    Some((name.clone(), description.clone(), (*line > 0).then_some(*line)))
}

/// The value of `^\s*KEY:\s*(.*)$` on one line, trimmed: `.` takes no line
/// terminator, so a lone CR (or U+2028/9) after the value's start fails the match.
fn value_of<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start_matches(is_space).strip_prefix(key)?.strip_prefix(':')?;
    let value = rest.trim_start_matches(is_space);
    (!value.contains(['\r', '\u{2028}', '\u{2029}'])).then(|| js_trim(value))
}

/// `parseSimpleFrontmatter`: both keys must be found (an empty value counts).
fn line_by_line(front: &str) -> Option<(String, String, Option<u32>)> {
    let lines: Vec<&str> = front.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        if let Some(v) = value_of(lines[i], "name") {
            name = Some(v.to_string());
        } else if let Some(v) = value_of(lines[i], "description") {
            let at = i;
            let mut parts = vec![v];
            // `^[ \t]+\S`: an indented line that is not blank continues it.
            while let Some(next) = lines.get(i + 1) {
                let after = next.trim_start_matches([' ', '\t']);
                if after.len() == next.len() || after.chars().next().is_none_or(is_space) {
                    break;
                }
                parts.push(js_trim(next));
                i += 1;
            }
            let joined: Vec<&str> = parts.into_iter().filter(|p| !p.is_empty()).collect();
            description = Some((joined.join(" "), at as u32 + 1));
        }
        i += 1;
    }
    let (description, line) = description?;
    Some((name?, description, Some(line)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(text: &str) -> Result<SkillFile, Skip> {
        parse(text.as_bytes())
    }

    #[test]
    fn yaml_strings_are_taken_and_the_name_is_sanitized() {
        let s = skill("---\nname: \"a:b/c<d>*e?f|g\\\\h\"\ndescription: \"\"\n---\n\n Body \n").unwrap();
        assert_eq!((s.name.as_str(), s.description.as_str(), s.body.as_str()), ("a-b-c-d--e-f-g-h", "", "Body"));
        assert_eq!(s.description_line, Some(3));
    }

    #[test]
    fn a_yaml_failure_falls_back_to_lines_with_raw_values() {
        let s = skill("---\nname: \"q\"\ndescription: Broken: yaml\n  more\n\tlines\nmetadata:\n  name: inner\n---\nB").unwrap();
        assert_eq!((s.name.as_str(), s.description.as_str()), ("inner", "Broken: yaml more lines"));
        // A number is no string for YAML; the lines read it as text.
        assert_eq!(skill("---\nname: 42\ndescription: d\n---\n").unwrap().name, "42");
        assert_eq!(skill("---\nname:\ndescription: d\n---\n").unwrap().name, "");
    }

    #[test]
    fn files_without_both_keys_or_front_matter_are_skipped() {
        assert_eq!(skill("---\nname: x\n---\nB"), Err(Skip::NoNameOrDescription));
        assert_eq!(skill("\u{feff}---\nname: x\ndescription: d\n---\n"), Err(Skip::NoFrontmatter));
        assert_eq!(skill("--- \nname: x\ndescription: d\n---\n"), Err(Skip::NoFrontmatter));
        // Text after the closing dashes empties the body.
        assert_eq!(skill("---\nname: x\ndescription: d\n--- end\nlost").unwrap().body, "");
        assert_eq!(skill("---\r\nname: x\r\ndescription: d\r\n---\r\nA\r\nB\r\n").unwrap().body, "A\r\nB");
    }
}
