//! `agents/openai.yaml` beside a `SKILL.md` (Codex 0.171.0 `load_skill_metadata`):
//! optional and fail-open — a file that cannot be read as the struct below is
//! ignored without a word, and each invalid `interface` value is dropped alone.

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use super::skill_file::single_line;

#[derive(Debug, Default, Deserialize)]
struct SkillMetadataFile {
    #[serde(default)]
    interface: Option<Interface>,
    #[serde(default)]
    policy: Option<Policy>,
}

#[derive(Debug, Default, Deserialize)]
struct Interface {
    display_name: Option<String>,
    short_description: Option<String>,
    icon_small: Option<PathBuf>,
    icon_large: Option<PathBuf>,
    brand_color: Option<String>,
    default_prompt: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Policy {
    #[serde(default)]
    allow_implicit_invocation: Option<bool>,
    #[serde(default)]
    products: Vec<String>,
}

/// What Codex keeps of the file.
#[derive(Debug, Default, PartialEq)]
pub struct Metadata {
    /// The `interface` values that passed, in the file's key names; icons as paths.
    pub interface: Vec<(&'static str, Value)>,
    /// `policy.allow_implicit_invocation`: `false` keeps the skill off the model's list.
    pub implicit: Option<bool>,
    /// `policy.products` is set and leaves out Codex: the skill is dropped.
    pub not_for_codex: bool,
}

#[derive(Debug, PartialEq)]
pub enum Value {
    Text(String),
    Path(PathBuf),
}

const MAX_NAME_LEN: usize = 64;
const MAX_TEXT_LEN: usize = 1024;

/// Reads `bytes`, the `agents/openai.yaml` of the skill in `skill_dir`; `None`
/// where Codex ignores the file.
pub fn parse(bytes: &[u8], skill_dir: &Path) -> Option<Metadata> {
    let text = std::str::from_utf8(bytes).ok()?;
    let file: SkillMetadataFile = serde_yaml::from_str(text).ok()?;
    let mut meta = Metadata::default();
    if let Some(i) = file.interface {
        let mut push = |key: &'static str, v: Option<Value>| {
            if let Some(v) = v {
                meta.interface.push((key, v));
            }
        };
        push("display_name", text_value(i.display_name, MAX_NAME_LEN));
        push("short_description", text_value(i.short_description, MAX_TEXT_LEN));
        push("icon_small", icon(skill_dir, i.icon_small));
        push("icon_large", icon(skill_dir, i.icon_large));
        push("brand_color", color(i.brand_color));
        push("default_prompt", text_value(i.default_prompt, MAX_TEXT_LEN));
    }
    if let Some(p) = file.policy {
        meta.implicit = p.allow_implicit_invocation;
        meta.not_for_codex = !p.products.is_empty() && !p.products.iter().any(|x| x.eq_ignore_ascii_case("codex"));
    }
    Some(meta)
}

fn text_value(v: Option<String>, max: usize) -> Option<Value> {
    let v = single_line(&v?);
    (!v.is_empty() && v.chars().count() <= max).then_some(Value::Text(v))
}

/// `#RRGGBB`, trimmed.
fn color(v: Option<String>) -> Option<Value> {
    let v = v?;
    let v = v.trim();
    let hex = v.strip_prefix('#').filter(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()));
    hex.map(|_| Value::Text(v.to_string()))
}

/// An icon must be a relative path under the skill's `assets/` (no `..`: that is
/// for plugins only).
fn icon(skill_dir: &Path, path: Option<PathBuf>) -> Option<Value> {
    let path = path?;
    if path.as_os_str().is_empty() || path.is_absolute() {
        return None;
    }
    let mut normal = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::Normal(part) => normal.push(part),
            _ => return None,
        }
    }
    let under_assets = normal.components().next().is_some_and(|c| c.as_os_str() == "assets");
    under_assets.then(|| Value::Path(skill_dir.join(normal)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_values_are_kept_or_dropped_one_by_one() {
        let dir = Path::new("/s/pretty");
        let text = "interface:\n  display_name: \"   \"\n  brand_color: red\n  default_prompt: Go\n  icon_small: ./assets/a.svg\n  icon_large: ../x.png\n";
        let m = parse(text.as_bytes(), dir).expect("read");
        assert_eq!(m.interface, vec![("icon_small", Value::Path(dir.join("assets/a.svg"))), ("default_prompt", Value::Text("Go".into()))]);
    }

    #[test]
    fn policy_and_broken_files() {
        let dir = Path::new("/s/x");
        assert_eq!(parse(b"policy:\n  allow_implicit_invocation: false\n", dir).map(|m| m.implicit), Some(Some(false)));
        assert_eq!(parse(b"policy:\n  products: [chatgpt]\n", dir).map(|m| m.not_for_codex), Some(true));
        assert_eq!(parse(b"policy:\n  products: [chatgpt, codex]\n", dir).map(|m| m.not_for_codex), Some(false));
        assert_eq!(parse(b"interface: [unclosed\n", dir), None);
    }
}
