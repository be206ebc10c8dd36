//! Where fast-agent looks for cards: the settings file (found without walking up), the
//! fast-agent home it may move (`home:`), and the home's `agent-cards/` and
//! `tool-cards/` folders, each used only when it directly holds a card file.

use std::path::{Path, PathBuf};

use super::parse::{look, FileKind};
use super::raw::{decode_text, entries_of, Env, Failure};
use super::validate::expand_user;
use crate::discover::{Files, Hold};
use crate::model::{normalize, DiagKind, Diagnostic};
use crate::yaml::{self, Value};

/// Settings file names, in the order `home.discover_config_files` tries them.
const CONFIG_NAMES: [&str; 3] = ["fast-agent.yaml", "fast-agent.config.yaml", "fastagent.config.yaml"];

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

/// Finds the settings file and the fast-agent home, as `resolve_home_dir` does without
/// `--home`: `home:` from the settings, else `$FAST_AGENT_HOME`, else `<cwd>/.fast-agent`.
pub fn settings(project: &Path, env: &Env, files: Files) -> Settings {
    let env_home = env_home(project, env);
    let folders = settings_folders(project, env);
    let discovery_home = folders[0].clone();
    let mut chosen = None;
    for folder in &folders {
        let found: Vec<PathBuf> = CONFIG_NAMES.iter().map(|n| folder.join(n)).filter(|p| files.is_file(p)).collect();
        if found.len() > 1 {
            let names: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
            let failure = Failure::new(
                DiagKind::Parse,
                format!("ambiguous settings: {} (fast-agent stops with AmbiguousConfigFilesError)", names.join(" and ")),
                None,
            );
            return Settings::Broken(present_configs(files, &folders).into_iter().map(|p| (p, failure.clone())).collect());
        }
        if let Some(p) = found.into_iter().next() {
            chosen = Some(p);
            break;
        }
    }
    let default_rule = || match &env_home {
        Some(h) => format!("$FAST_AGENT_HOME points at {}", h.display()),
        None => "the fast-agent home is `.fast-agent/` in the project".to_string(),
    };
    let Some(config) = chosen else {
        return Settings::Home { home: discovery_home, rule: default_rule() };
    };
    let broken = |message: String, line: Option<u32>| {
        let failure = Failure::new(DiagKind::Parse, message, line);
        Settings::Broken(present_configs(files, &folders).into_iter().map(|p| (p, failure.clone())).collect())
    };
    let bytes = match files.read(&config, Hold::Kept) {
        Ok(b) => b,
        Err(e) => return broken(format!("cannot read the settings file: {e}"), None),
    };
    let Ok(text) = decode_text(&bytes) else { return broken("the settings file is not UTF-8".into(), None) };
    let doc = match yaml::load(&text) {
        Ok(doc) => doc,
        Err(e) => return broken(format!("invalid settings YAML: {}", e.message), Some(e.line)),
    };
    // `load_yaml_mapping`: `${VAR}` resolved, a document that is not a mapping read as empty.
    let home_entry = match doc.map(|n| n.value) {
        Some(Value::Map(map)) => {
            let entries = entries_of(&map, 0, env);
            let mut resolved = map.clone();
            for ((_, v), e) in resolved.entries.iter_mut().zip(&entries) {
                *v = e.value.clone();
            }
            if let Err(refusal) = super::settings::refusal(&Value::Map(resolved)) {
                return broken(format!("fast-agent refuses these settings and loads no agent: {}", refusal.message), Some(refusal.line));
            }
            entries.into_iter().find(|e| e.key_is_str && e.key == "home")
        }
        _ => None,
    };
    match home_entry.map(|e| (e.value.value, e.line)) {
        None | Some((Value::Null, _)) => Settings::Home { home: discovery_home, rule: format!("{} (settings: {})", default_rule(), config.display()) },
        Some((Value::Str(h), line)) => {
            let home = normalize(&project.join(expand_user(&h, Path::new(env.get("HOME").map(String::as_str).unwrap_or("/")))));
            Settings::Home {
                rule: format!("`home: {h}` in {} (line {line}) moves the fast-agent home", config.display()),
                home,
            }
        }
        Some((_, line)) => broken("`home` must be a string".into(), Some(line)),
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
