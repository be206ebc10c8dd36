//! agentry's own settings: `$XDG_CONFIG_HOME/agentry/config.yaml` (else
//! `~/.config/agentry/config.yaml`, or the file named by `AGENTRY_CONFIG`), laid key
//! by key over the embedded defaults (`default.yaml`). A broken file never stops
//! the explorer: the error is kept for the status bar and the defaults apply.
//!
//! agentry's own YAML is read with serde_yaml into typed settings; agent files are
//! read with `crate::yaml`, which follows PyYAML as the frameworks do.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;


const DEFAULTS: &str = include_str!("default.yaml");

/// The largest config file read; anything bigger is certainly not a config.
const MAX_BYTES: u64 = 1 << 20;

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub theme: String,
    pub watch: bool,
    pub poll_secs: u64,
    #[serde(default)]
    pub keys: BTreeMap<String, Keys>,
    #[serde(default)]
    pub roles: BTreeMap<String, StyleSpec>,
}

/// One key or several: `diff: D` and `diff: [D, ctrl-d]` both work.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Keys {
    One(String),
    Many(Vec<String>),
}

impl Keys {
    pub fn list(&self) -> Vec<String> {
        match self {
            Keys::One(k) => vec![k.clone()],
            Keys::Many(ks) => ks.clone(),
        }
    }
}

/// A loaded config: the effective settings, and the problem with the file, if any.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub config: Config,
    pub error: Option<String>,
}

impl Config {
    /// The embedded defaults alone.
    pub fn defaults() -> Config {
        // The embedded file is checked by a test; this cannot fail in a release.
        serde_yaml::from_str(DEFAULTS).unwrap_or(Config {
            theme: "auto".into(),
            watch: true,
            poll_secs: 0,
            keys: BTreeMap::new(),
            roles: BTreeMap::new(),
        })
    }

    /// The rebindings in the keymap's shape (action → keys).
    pub fn key_overrides(&self) -> BTreeMap<String, Vec<String>> {
        self.keys.iter().map(|(k, v)| (k.clone(), v.list())).collect()
    }
}

/// Where the user's config lives: `AGENTRY_CONFIG`, else the XDG config folder.
pub fn default_path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(p) = env("AGENTRY_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let base = match env("XDG_CONFIG_HOME").filter(|p| !p.is_empty()) {
        Some(x) => PathBuf::from(x),
        None => PathBuf::from(env("HOME")?).join(".config"),
    };
    Some(base.join("agentry").join("config.yaml"))
}

/// Loads the config at `path` over the defaults. A missing file is not an error.
pub fn load(path: Option<&Path>) -> Loaded {
    let Some(path) = path else {
        return Loaded { config: Config::defaults(), error: None };
    };
    let text = match std::fs::metadata(path) {
        Err(_) => return Loaded { config: Config::defaults(), error: None },
        Ok(m) if m.len() > MAX_BYTES => Err(format!("larger than {MAX_BYTES} bytes")),
        Ok(_) => std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8".to_string())),
    };
    let result = text.and_then(|t| layered(&t));
    match result {
        Ok(config) => Loaded { config, error: None },
        Err(e) => Loaded {
            config: Config::defaults(),
            error: Some(crate::text::sanitize::line(&format!("{}: {e}; using defaults", path.display())).into_owned()),
        },
    }
}

/// The defaults with the user's text laid over them, mapping by mapping.
pub fn layered(user: &str) -> Result<Config, String> {
    use serde_yaml::Value;
    let mut base: Value = serde_yaml::from_str(DEFAULTS).map_err(|e| e.to_string())?;
    let over: Value = serde_yaml::from_str(user).map_err(|e| e.to_string())?;
    match over {
        // An empty file is no override.
        Value::Null => {}
        Value::Mapping(_) => merge(&mut base, over),
        _ => return Err("the config must be a mapping of settings".into()),
    }
    serde_yaml::from_value(base).map_err(|e| e.to_string())
}

fn merge(base: &mut serde_yaml::Value, over: serde_yaml::Value) {
    use serde_yaml::Value;
    match (base, over) {
        (Value::Mapping(b), Value::Mapping(o)) => {
            for (key, value) in o {
                match b.get_mut(&key) {
                    Some(slot @ Value::Mapping(_)) if value.is_mapping() => merge(slot, value),
                    _ => {
                        b.insert(key, value);
                    }
                }
            }
        }
        (slot, over) => *slot = over,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse() {
        let d: Config = serde_yaml::from_str(DEFAULTS).expect("embedded defaults");
        assert_eq!(d, Config::defaults());
        assert_eq!(d.theme, "auto");
    }

    #[test]
    fn user_values_lay_over_defaults_key_by_key() {
        let c = layered("theme: light\nkeys:\n  diff: D\n  quit: [q, ctrl-q]\n").expect("config");
        assert_eq!(c.theme, "light");
        assert!(c.watch, "unset keys keep the default");
        assert_eq!(c.key_overrides()["diff"], vec!["D"]);
        assert_eq!(c.key_overrides()["quit"], vec!["q", "ctrl-q"]);
    }

    #[test]
    fn a_broken_file_reports_and_falls_back() {
        let dir = std::env::temp_dir().join(format!("agentry-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp");
        let path = dir.join("config.yaml");
        std::fs::write(&path, "theme: [unclosed\n").expect("write");
        let loaded = load(Some(&path));
        assert_eq!(loaded.config, Config::defaults());
        let error = loaded.error.expect("error kept");
        assert!(error.contains("config.yaml") && error.contains("using defaults"), "{error}");
        assert!(!error.contains('\n'));
        std::fs::write(&path, "colour: 1\n").expect("write");
        assert!(load(Some(&path)).error.expect("unknown key").contains("colour"));
        assert!(load(Some(&dir.join("missing.yaml"))).error.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn path_follows_agentry_config_then_xdg_then_home() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(default_path(&env(&[("AGENTRY_CONFIG", "/c.yaml"), ("HOME", "/h")])), Some("/c.yaml".into()));
        assert_eq!(
            default_path(&env(&[("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")])),
            Some("/x/agentry/config.yaml".into())
        );
        assert_eq!(default_path(&env(&[("HOME", "/h")])), Some("/h/.config/agentry/config.yaml".into()));
    }
}

/// One role's style as written in a theme file.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StyleSpec {
    pub fg: Option<String>,
    pub bg: Option<String>,
    #[serde(default)]
    pub bold: bool,
    #[serde(default)]
    pub italic: bool,
    #[serde(default)]
    pub underline: bool,
    #[serde(default)]
    pub dim: bool,
    #[serde(default)]
    pub reversed: bool,
    #[serde(default)]
    pub crossed_out: bool,
}
