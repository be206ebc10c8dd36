//! The user's `[[skills.config]]` rules and `[skills.bundled]` (Codex 0.171.0
//! `config_rules.rs`): read from the user layer's `config.toml` only — a project's
//! are ignored, trusted or not.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use toml_codex::Value;

use crate::frameworks::LoadContext;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    Name(String),
    /// Resolved against `$CODEX_HOME` when relative, then its real path.
    Path(PathBuf),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub selector: Selector,
    pub enabled: bool,
}

/// The rules in force, in file order; a later rule with the same selector replaces
/// the earlier one (and takes its place at the end). A table Codex cannot read as
/// its skills config (a wrong type anywhere) gives no rule at all.
pub fn rules(cx: &LoadContext, user_config: Option<&toml_codex::Table>) -> Vec<Rule> {
    let Some(Value::Table(skills)) = user_config.and_then(|t| t.get("skills")) else { return Vec::new() };
    let entries = match skills.get("config") {
        None => return Vec::new(),
        Some(Value::Array(a)) => a,
        Some(_) => return Vec::new(),
    };
    let codex_home = cx.roots.home.join(".codex");
    let mut out: Vec<Rule> = Vec::new();
    let mut read = Vec::new();
    for entry in entries {
        let Value::Table(t) = entry else { return Vec::new() };
        let Some(Value::Boolean(enabled)) = t.get("enabled") else { return Vec::new() };
        let name = match t.get("name") {
            Some(Value::String(s)) => Some(s.as_str()),
            None => None,
            Some(_) => return Vec::new(),
        };
        let path = match t.get("path") {
            Some(Value::String(s)) => Some(s.as_str()),
            None => None,
            Some(_) => return Vec::new(),
        };
        read.push((name, path, *enabled));
    }
    for (name, path, enabled) in read {
        let selector = match (name, path) {
            (None, Some(p)) => {
                let p = codex_home.join(p);
                Selector::Path(cx.files.canonicalize(&p).unwrap_or(p))
            }
            // Codex warns ("ignoring empty skills.config name override") and goes on.
            (Some(n), None) if !n.trim().is_empty() => Selector::Name(n.trim().to_string()),
            _ => continue,
        };
        out.retain(|r| r.selector != selector);
        out.push(Rule { selector, enabled });
    }
    out
}

/// The skills the rules leave disabled (real path → the rule that did it), given
/// every loaded skill's name and real path.
pub fn disabled<'a>(rules: &[Rule], skills: impl Iterator<Item = (&'a str, &'a Path)> + Clone) -> HashMap<PathBuf, String> {
    let mut off: HashMap<PathBuf, String> = HashMap::new();
    for rule in rules {
        let hit: Vec<PathBuf> = match &rule.selector {
            Selector::Path(p) => vec![p.clone()],
            Selector::Name(n) => skills.clone().filter(|(name, _)| name == n).map(|(_, p)| p.to_path_buf()).collect(),
        };
        for path in hit {
            if rule.enabled {
                off.remove(&path);
            } else {
                let what = match &rule.selector {
                    Selector::Name(n) => format!("`name = \"{n}\"`"),
                    Selector::Path(_) => "a `path` rule naming this file".to_string(),
                };
                off.insert(path, what);
            }
        }
    }
    off
}

/// serde's complaint about a `[skills]` table that does not fit Codex's skills
/// config (the whole config.toml is then refused, as for any typed section; observed:
/// an entry of `[[skills.config]]` without `enabled`): `config` a list of tables, each
/// with the flag `enabled` and optionally the strings `name` and `path`; `bundled` a
/// table whose `enabled` is a flag. Other keys are not checked.
pub fn config_error(value: &Value) -> Option<String> {
    use super::toml_read::invalid_type;
    let Value::Table(skills) = value else { return Some(format!("{}\nin `skills`", invalid_type(value, "struct SkillsConfig"))) };
    let entry_error = |entry: &Value| -> Option<String> {
        let Value::Table(t) = entry else { return Some(invalid_type(entry, "struct SkillConfig")) };
        match t.get("enabled") {
            None => return Some("missing field `enabled`".into()),
            Some(Value::Boolean(_)) => {}
            Some(other) => return Some(invalid_type(other, "a boolean")),
        }
        ["name", "path"].iter().find_map(|k| t.get(*k).filter(|v| !v.is_str()).map(|v| invalid_type(v, "a string")))
    };
    let config = match skills.get("config") {
        None => None,
        Some(Value::Array(entries)) => entries.iter().find_map(entry_error),
        Some(other) => Some(invalid_type(other, "a sequence")),
    };
    if let Some(m) = config {
        return Some(format!("{m}\nin `skills.config`"));
    }
    let bundled = match skills.get("bundled") {
        None => None,
        Some(Value::Table(t)) => t.get("enabled").filter(|v| !v.is_bool()).map(|v| invalid_type(v, "a boolean")),
        Some(other) => Some(invalid_type(other, "struct BundledSkillsConfig")),
    };
    bundled.map(|m| format!("{m}\nin `skills.bundled`"))
}

/// Whether the bundled skills are on (`[skills.bundled] enabled = false` turns
/// them off).
pub fn bundled_enabled(user_config: Option<&toml_codex::Table>) -> bool {
    let bundled = user_config.and_then(|t| t.get("skills")).and_then(|s| s.get("bundled")).and_then(|b| b.get("enabled"));
    !matches!(bundled, Some(Value::Boolean(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_rules_win_and_names_reach_every_scope() {
        let rules = vec![
            Rule { selector: Selector::Name("a".into()), enabled: false },
            Rule { selector: Selector::Path(PathBuf::from("/u/a/SKILL.md")), enabled: true },
        ];
        let skills = [("a", Path::new("/p/a/SKILL.md")), ("a", Path::new("/u/a/SKILL.md")), ("b", Path::new("/p/b/SKILL.md"))];
        let off = disabled(&rules, skills.iter().copied());
        assert!(off.contains_key(Path::new("/p/a/SKILL.md")));
        assert_eq!(off.len(), 1);
    }

    #[test]
    fn a_skills_table_codex_cannot_read_is_named() {
        let t: toml_codex::Table = toml_codex::from_str("[[skills.config]]\nname = \"x\"\n").expect("toml");
        assert_eq!(config_error(&t["skills"]).as_deref(), Some("missing field `enabled`\nin `skills.config`"));
        let t: toml_codex::Table = toml_codex::from_str("[[skills.config]]\nname = \"x\"\nenabled = false\n[skills.bundled]\nenabled = false\n").expect("toml");
        assert_eq!(config_error(&t["skills"]), None);
    }

    #[test]
    fn bundled_skills_turn_off_only_with_false() {
        let t: toml_codex::Table = toml_codex::from_str("[skills.bundled]\nenabled = false\n").expect("toml");
        assert!(!bundled_enabled(Some(&t)));
        assert!(bundled_enabled(None));
    }
}
