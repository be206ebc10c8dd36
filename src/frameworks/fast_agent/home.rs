//! Where fast-agent looks for cards: the settings file (found without walking up), the
//! fast-agent home it may move (`home:`), and the home's `agent-cards/` and
//! `tool-cards/` folders, each used only when it directly holds a card file.

use std::path::{Path, PathBuf};

use super::parse::{look, FileKind};
use super::raw::{decode_text, entries_of, Env, Failure};
use super::validate::expand_user;
use crate::discover::{Files, Hold};
use crate::model::{normalize, DiagKind, Diagnostic};
use crate::yaml::{self, Map, Node, Value};

/// Settings file names, in the order `home.discover_config_files` tries them.
const CONFIG_NAMES: [&str; 3] = ["fast-agent.yaml", "fast-agent.config.yaml", "fastagent.config.yaml"];
/// Secrets file names (`home.SECRETS_FILENAMES`).
const SECRETS_NAMES: [&str; 2] = ["fast-agent.secrets.yaml", "fastagent.secrets.yaml"];

/// The outcome of settings discovery.
pub enum Settings {
    /// The home folder, and why it is the home.
    Home { home: PathBuf, rule: String },
    /// The settings could not be loaded: the CLI exits before reading any card.
    Broken(Vec<(PathBuf, Failure)>),
}

/// Every settings file present in the folders discovery looks at.
fn present_configs(files: Files, folders: &[PathBuf]) -> Vec<PathBuf> {
    folders
        .iter()
        .flat_map(|f| CONFIG_NAMES.iter().map(move |n| f.join(n)))
        .filter(|p| files.is_file(p))
        .collect()
}

fn env_home(project: &Path, env: &Env) -> Option<PathBuf> {
    env.get("FAST_AGENT_HOME").filter(|h| !h.is_empty()).map(|h| normalize(&project.join(h)))
}

/// The folders settings discovery looks in, in order (no parent folders): the home as
/// discovery sees it (`$FAST_AGENT_HOME` or `.fast-agent/`), then the project.
pub fn settings_folders(project: &Path, env: &Env) -> [PathBuf; 2] {
    [env_home(project, env).unwrap_or_else(|| project.join(".fast-agent")), project.to_path_buf()]
}

/// The single file of `names` in `folder` (`find_config_in_directory`,
/// `find_secrets_in_directory`); `Err` lists them when more than one exists.
fn single_in(files: Files, folder: &Path, names: &[&str]) -> Result<Option<PathBuf>, Vec<PathBuf>> {
    let found: Vec<PathBuf> = names.iter().map(|n| folder.join(n)).filter(|p| files.is_file(p)).collect();
    if found.len() > 1 { Err(found) } else { Ok(found.into_iter().next()) }
}

fn ambiguity(what: &str, found: &[PathBuf], error: &str) -> String {
    let names: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
    format!("ambiguous {what}: {} (fast-agent stops with {error})", names.join(" and "))
}

/// `load_yaml_mapping`: `safe_load(f) or {}`, `${VAR}` resolved, a document that is not
/// a mapping read as empty.
fn load_mapping(files: Files, path: &Path, env: &Env) -> Result<Map, (String, Option<u32>)> {
    let bytes = files.read(path, Hold::Kept).map_err(|e| (format!("cannot read {}: {e}", path.display()), None))?;
    let text = decode_text(&bytes).map_err(|_| (format!("{} is not UTF-8", path.display()), None))?;
    let doc = yaml::load(&text).map_err(|e| (format!("invalid YAML in {}: {}", path.display(), e.message), Some(e.line)))?;
    let Some(Node { value: Value::Map(map), .. }) = doc else { return Ok(Map::default()) };
    let mut resolved = map.clone();
    for ((_, v), e) in resolved.entries.iter_mut().zip(entries_of(&map, 0, env)) {
        *v = e.value;
    }
    Ok(resolved)
}

/// `config.deep_merge`: the secrets' keys over the settings', mappings merged key by key.
fn deep_merge(base: &mut Map, update: Map) {
    for (key, value) in update.entries {
        match base.entries.iter_mut().find(|(k, _)| k.value == key.value) {
            Some((_, old)) => match (&mut old.value, value.value) {
                (Value::Map(old_map), Value::Map(new_map)) => deep_merge(old_map, new_map),
                (_, new) => *old = Node { value: new, ..value },
            },
            None => base.entries.push((key, value)),
        }
    }
}

/// Finds the settings file and the fast-agent home, as `resolve_home_dir` does without
/// `--home`: `home:` from the settings, else `$FAST_AGENT_HOME`, else `<cwd>/.fast-agent`.
/// The settings are the settings file deep-merged with the secrets file
/// (`fast-agent.secrets.yaml` or `fastagent.secrets.yaml`) that `discover_config_files`
/// pairs with it: beside the settings file, or, without one, in the home, else the
/// project (`get_settings`).
pub fn settings(project: &Path, env: &Env, files: Files) -> Settings {
    let env_home = env_home(project, env);
    let folders = settings_folders(project, env);
    let discovery_home = folders[0].clone();
    // When the settings cannot load, the oracle blames every settings file present, or
    // the project when there is none (a refused secrets file alone).
    let broken = |kind: DiagKind, message: String, line: Option<u32>| {
        let blamed = present_configs(files, &folders);
        let (kind, blamed) = if blamed.is_empty() { (DiagKind::Validation, vec![project.to_path_buf()]) } else { (kind, blamed) };
        let failure = Failure::new(kind, message, line);
        Settings::Broken(blamed.into_iter().map(|p| (p, failure.clone())).collect())
    };
    let mut chosen = None;
    for folder in &folders {
        match single_in(files, folder, &CONFIG_NAMES) {
            Err(found) => return broken(DiagKind::Parse, ambiguity("settings", &found, "AmbiguousConfigFilesError"), None),
            Ok(Some(p)) => {
                chosen = Some(p);
                break;
            }
            Ok(None) => {}
        }
    }
    let secrets_folders: Vec<&Path> = match &chosen {
        Some(config) => config.parent().into_iter().collect(),
        None if folders[0] == folders[1] => vec![&folders[0]],
        None => folders.iter().map(PathBuf::as_path).collect(),
    };
    let mut secrets = None;
    for folder in secrets_folders {
        match single_in(files, folder, &SECRETS_NAMES) {
            Err(found) => return broken(DiagKind::Parse, ambiguity("secrets", &found, "AmbiguousSecretsFilesError"), None),
            Ok(Some(p)) => {
                secrets = Some(p);
                break;
            }
            Ok(None) => {}
        }
    }
    let default_rule = || match &env_home {
        Some(h) => format!("$FAST_AGENT_HOME points at {}", h.display()),
        None => "the fast-agent home is `.fast-agent/` in the project".to_string(),
    };
    if chosen.is_none() && secrets.is_none() {
        return Settings::Home { home: discovery_home, rule: default_rule() };
    }
    let mut merged = Map::default();
    for path in chosen.iter().chain(&secrets) {
        match load_mapping(files, path, env) {
            Ok(map) => deep_merge(&mut merged, map),
            Err((message, line)) => return broken(DiagKind::Parse, message, line),
        }
    }
    if let Err(refusal) = super::settings::refusal(&Value::Map(merged.clone())) {
        let message = format!("fast-agent refuses these settings and loads no agent: {}", refusal.message);
        return broken(DiagKind::Parse, message, Some(refusal.line));
    }
    let read_from: Vec<String> = chosen.iter().chain(&secrets).map(|p| p.display().to_string()).collect();
    let read_from = read_from.join(" with ");
    let home_entry = merged.entries.into_iter().find(|(k, _)| matches!(&k.value, Value::Str(s) if s == "home"));
    match home_entry.map(|(k, v)| (v.value, k.span.line)) {
        None | Some((Value::Null, _)) => Settings::Home { home: discovery_home, rule: format!("{} (settings: {read_from})", default_rule()) },
        Some((Value::Str(h), line)) => {
            let home = normalize(&project.join(expand_user(&h, Path::new(env.get("HOME").map(String::as_str).unwrap_or("/")))));
            Settings::Home { rule: format!("`home: {h}` in {read_from} (line {line}) moves the fast-agent home"), home }
        }
        Some((_, line)) => broken(DiagKind::Parse, "`home` must be a string".into(), Some(line)),
    }
}

/// `merge_card_sources(None, folder)`: the folder is used only when it is a folder that
/// directly holds a regular file with a card extension.
pub fn holds_card_file(files: Files, folder: &Path) -> bool {
    match files.list_dir(folder) {
        Ok(Some(entries)) => entries.iter().any(|e| !e.is_dir && files.is_file(&e.path) && FileKind::of(&e.name()).is_some()),
        _ => false,
    }
}

/// `_collect_agent_card_files`: the card files directly in `root`, sorted; Markdown
/// files must sniff as having front matter; broken links and folders are skipped.
/// A Markdown file agentry cannot read (too large, no permission) is skipped too, as
/// it cannot be sniffed, but with a warning in `skipped` so it is not lost silently.
pub fn card_files(root: &Path, files: Files, skipped: &mut Vec<Diagnostic>) -> std::io::Result<Vec<PathBuf>> {
    let Some(entries) = files.list_dir(root)? else { return Ok(Vec::new()) };
    Ok(entries
        .iter()
        .filter(|e| !e.is_dir && files.is_file(&e.path))
        .filter(|e| match FileKind::of(&e.name()) {
            Some(FileKind::Yaml) => true,
            Some(FileKind::Markdown) => match look(files, &e.path, FileKind::Markdown) {
                Ok(look) => look.markdown_card,
                Err(err) => {
                    let message = format!("cannot read: {err}; not looked at as a card");
                    skipped.push(Diagnostic::warning(super::ID, DiagKind::Io, &*e.path, message));
                    false
                }
            },
            None => false,
        })
        .map(|e| e.path.to_path_buf())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Map {
        match yaml::load(text).unwrap().unwrap().value {
            Value::Map(m) => m,
            other => panic!("not a mapping: {other:?}"),
        }
    }

    #[test]
    fn secrets_merge_into_settings_key_by_key() {
        let mut merged = map("home: h2\nlogger: {level: info, batch_size: 5}\nmcp: 5\n");
        deep_merge(&mut merged, map("home: ~\nlogger: {batch_size: true}\nmcp: {servers: {}}\nopenai: {api_key: x}\n"));
        let json = Value::Map(merged).to_json();
        assert_eq!(
            json,
            serde_json::json!({"home": null, "logger": {"level": "info", "batch_size": true}, "mcp": {"servers": {}}, "openai": {"api_key": "x"}})
        );
    }
}
