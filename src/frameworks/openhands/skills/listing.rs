//! The `<available_skills>` block OpenHands puts in the system message (`to_prompt`,
//! `skills/skill.py`): each skill's name and description, XML-escaped; a skill with
//! no description shows its body's first line that is neither blank nor a heading,
//! followed by how much of the body is left out.

const MAX_DESCRIPTION: usize = 1024;

/// `xml.sax.saxutils.escape`: `&`, `<`, `>`.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The block for `skills` (name, description, body), in catalogue order.
pub fn to_prompt<'a>(skills: impl Iterator<Item = (&'a str, Option<&'a str>, &'a str)>) -> String {
    let mut lines = vec!["<available_skills>".to_string()];
    for (name, description, content) in skills {
        let mut description: String = description.unwrap_or_default().to_string();
        let mut truncated = 0usize;
        if description.is_empty() {
            let mut before = 0usize;
            for line in content.split('\n') {
                let stripped = crate::py::strip(line);
                if stripped.is_empty() || stripped.starts_with('#') {
                    before += line.chars().count() + 1;
                    continue;
                }
                description = stripped.to_string();
                let end = before + line.chars().count();
                truncated = content.chars().count().saturating_sub(end);
                break;
            }
        }
        let length = description.chars().count();
        if length > MAX_DESCRIPTION {
            truncated += length - MAX_DESCRIPTION;
            description = description.chars().take(MAX_DESCRIPTION).collect();
        }
        if truncated > 0 {
            description.push_str(&format!("... [{truncated} characters truncated. Call invoke_skill(name=\"{name}\") to load the full skill]"));
        }
        lines.push("  <skill>".into());
        lines.push(format!("    <name>{}</name>", escape(crate::py::strip(name))));
        lines.push(format!("    <description>{}</description>", escape(crate::py::strip(&description))));
        lines.push("  </skill>".into());
    }
    lines.push("</available_skills>".into());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_without_description_shows_its_first_line() {
        let out = to_prompt([("a&b", Some("x < y"), "body"), ("n", None, "# H\n\nFirst line.\nSecond.")].into_iter());
        assert_eq!(
            out,
            "<available_skills>\n  <skill>\n    <name>a&amp;b</name>\n    <description>x &lt; y</description>\n  </skill>\n  <skill>\n    <name>n</name>\n    <description>First line.... [8 characters truncated. Call invoke_skill(name=\"n\") to load the full skill]</description>\n  </skill>\n</available_skills>"
        );
    }
}
