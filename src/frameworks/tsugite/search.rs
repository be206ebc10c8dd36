//! Where tsugite looks: `config.json` (`agent_paths`, `default_base_agent`), the
//! search list of `agent_inheritance.iter_agent_search_paths` (de-duplicated by
//! `Path.resolve()`), and `find_agent_file` (paths vs names, first `exists()` wins).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value as Json;

use crate::discover::{Files, Hold};

/// The keys of `config.json` that matter for agents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TsuConfig {
    /// The file read, if any.
    pub path: Option<PathBuf>,
    /// `default_base_agent`: `None` means `default`, `Some("")` disables it.
    pub default_base_agent: Option<String>,
    pub agent_paths: Vec<String>,
    /// Why the file was ignored (tsugite prints a warning and uses the defaults).
    pub problem: Option<String>,
}

/// `config.load_config()`: `X/tsugite/config.json` if it exists, else
/// `H/.config/tsugite/config.json`; invalid JSON or values → all defaults. The
/// model strips white space around every string (`str_strip_whitespace`): a
/// `default_base_agent` of `"  "` switches the implicit base off.
pub fn load_config(files: Files, xdg: &Path, home: &Path) -> TsuConfig {
    let candidates = [
        xdg.join("tsugite/config.json"),
        home.join(".config/tsugite/config.json"),
    ];
    let Some(path) = candidates.into_iter().find(|p| exists(files, p)) else {
        return TsuConfig::default();
    };
    let mut config = TsuConfig {
        path: Some(path.clone()),
        ..TsuConfig::default()
    };
    let parsed = files
        .read(&path, Hold::Kept)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice::<Json>(&b).map_err(|e| format!("invalid JSON: {e}")));
    let problem = match parsed {
        Err(e) => Some(e),
        Ok(Json::Object(map)) => {
            let base = match map.get("default_base_agent") {
                None | Some(Json::Null) => Ok(None),
                Some(Json::String(s)) => Ok(Some(crate::py::strip(s).to_string())),
                Some(_) => Err("default_base_agent: Input should be a valid string".to_string()),
            };
            let paths = match map.get("agent_paths") {
                None => Ok(Vec::new()),
                Some(Json::Array(items)) => items
                    .iter()
                    .map(|i| {
                        i.as_str()
                            .map(|s| crate::py::strip(s).to_string())
                            .ok_or_else(|| "agent_paths: items must be strings".to_string())
                    })
                    .collect(),
                Some(_) => Err("agent_paths: Input should be a valid list".to_string()),
            };
            match (base, paths) {
                (Ok(b), Ok(p)) => {
                    config.default_base_agent = b;
                    config.agent_paths = p;
                    None
                }
                (Err(e), _) | (_, Err(e)) => Some(e),
            }
        }
        Ok(_) => Some("the config is not a JSON object".to_string()),
    };
    config.problem = problem;
    config
}

/// Python's `Path.exists()`: follows symlinks, false on any error.
pub fn exists(files: Files, path: &Path) -> bool {
    files.exists(path)
}

pub fn is_file(files: Files, path: &Path) -> bool {
    files.is_file(path)
}

/// Python's `Path.resolve()` (non-strict): symlinks followed as far as the path
/// exists, the rest appended lexically. `None` for a symlink loop (Python raises).
pub fn py_resolve(files: Files, path: &Path) -> Option<PathBuf> {
    let absolute = crate::model::normalize(path);
    let mut existing = absolute.clone();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    loop {
        match files.canonicalize_or_os_error(&existing) {
            Ok(mut real) => {
                for part in rest.iter().rev() {
                    real.push(part);
                }
                return Some(crate::model::normalize(&real));
            }
            Err(e) if is_loop(&e) => return None,
            Err(_) => {
                let name = existing.file_name()?.to_os_string();
                rest.push(name);
                if !existing.pop() {
                    return Some(absolute);
                }
            }
        }
    }
}

fn is_loop(raw_os_error: &Option<i32>) -> bool {
    // ELOOP: "Too many levels of symbolic links".
    *raw_os_error == Some(40) || *raw_os_error == Some(62) && cfg!(target_os = "macos")
}

/// What a search folder is, for the report.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchEntry {
    pub path: PathBuf,
    pub role: String,
}

/// The fixed inputs of every search: config folders, built-ins and global folders.
pub struct SearchSpace {
    pub config_dirs: Vec<PathBuf>,
    pub builtins: Option<PathBuf>,
    pub xdg_agents: PathBuf,
    pub home_agents: PathBuf,
    /// Names everything above, for the memo of search lists ([`SearchSpace::dirs`]).
    key: u64,
}

impl SearchSpace {
    pub fn new(
        context: u64,
        config: &TsuConfig,
        project: &Path,
        home: &Path,
        xdg: &Path,
        builtins: Option<PathBuf>,
    ) -> Self {
        let config_dirs = config
            .agent_paths
            .iter()
            .map(|p| {
                let expanded = expand_user(p, home);
                if expanded.is_absolute() {
                    expanded
                } else {
                    project.join(expanded)
                }
            })
            .collect();
        let xdg_agents = xdg.join("tsugite/agents");
        let home_agents = home.join(".config/tsugite/agents");
        let key = crate::discover::context_key(&format!(
            "{context}\0{config_dirs:?}\0{builtins:?}\0{xdg_agents:?}\0{home_agents:?}"
        ));
        SearchSpace {
            config_dirs,
            builtins,
            xdg_agents,
            home_agents,
            key,
        }
    }

    /// `iter_agent_search_paths(current_agent_dir=dir)`; `label` names `dir` in the
    /// roles ("the project", or the folder of an agent for inheritance lookups).
    pub fn dirs_labelled(&self, files: Files, dir: &Path, label: &str) -> Vec<SearchEntry> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut add = |path: PathBuf, role: String| {
            if let Some(real) = py_resolve(files, &path) {
                if seen.insert(real) {
                    out.push(SearchEntry { path, role });
                }
            }
        };
        for p in &self.config_dirs {
            add(
                p.clone(),
                "config.json agent_paths entry (searched first)".into(),
            );
        }
        add(dir.join(".tsugite"), format!("`.tsugite/` of {label}"));
        add(
            dir.join(".tsugite/agents"),
            format!("`.tsugite/agents/` of {label}"),
        );
        add(dir.join("agents"), format!("`agents/` of {label}"));
        add(
            dir.to_path_buf(),
            format!("{label} itself (`*.md` directly in it)"),
        );
        if let Some(b) = &self.builtins {
            add(
                b.clone(),
                "built-in agents (before the global folders)".into(),
            );
        }
        add(
            self.xdg_agents.clone(),
            "$XDG_CONFIG_HOME/tsugite/agents (global)".into(),
        );
        add(
            self.home_agents.clone(),
            "~/.config/tsugite/agents (global, last)".into(),
        );
        out
    }

    /// The search list from `dir`, memoized: every inheritance step searches from an
    /// agent's folder, and resolving the list costs a `realpath` per entry.
    pub fn dirs(&self, files: Files, dir: &Path) -> Arc<Vec<SearchEntry>> {
        let key = crate::discover::context_key(&format!("{}\0{}", self.key, dir.display()));
        files.memo(key, |files| self.dirs_labelled(files, dir, "the folder searched from"))
    }

    /// `find_agent_file(reference, dir)`, with `cwd` the process working directory.
    pub fn find(&self, files: Files, reference: &str, dir: &Path, cwd: &Path, home: &Path) -> Option<PathBuf> {
        if reads_as_path(reference) {
            let local = dir.join(reference);
            if exists(files, &local) {
                return py_resolve(files, &local);
            }
            let expanded = expand_user(reference, home);
            let given = if expanded.is_absolute() {
                expanded
            } else {
                cwd.join(expanded)
            };
            if exists(files, &given) {
                return py_resolve(files, &given);
            }
            return None;
        }
        let file = format!("{reference}.md");
        self.dirs(files, dir)
            .iter()
            .map(|e| e.path.join(&file))
            .find(|c| exists(files, c))
            .and_then(|c| py_resolve(files, &c))
    }
}

/// Whether `find_agent_file` takes `reference` for a path rather than a name to
/// search for.
pub fn reads_as_path(reference: &str) -> bool {
    reference.contains('/') || reference.ends_with(".md")
}

/// `Path.expanduser()` with the workspace's home.
fn expand_user(p: &str, home: &Path) -> PathBuf {
    if p == "~" {
        return home.to_path_buf();
    }
    match p.strip_prefix("~/") {
        Some(rest) => home.join(rest),
        None => PathBuf::from(p),
    }
}

/// The stems of `*.md` entries of a folder (Python's `glob` matches dot-files and
/// folders too).
/// A folder that exists but cannot be listed is `Err` (tsugite's glob sees it as
/// empty; agentry says so).
pub fn md_stems(files: Files, dir: &Path) -> Result<Vec<String>, std::io::Error> {
    let Some(entries) = files.list_dir(dir)? else {
        return Ok(Vec::new());
    };
    Ok(entries
        .iter()
        .filter(|e| e.name().ends_with(".md"))
        .map(|e| crate::discover::stem(&e.name()).to_string())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_keeps_missing_tails() {
        let tmp = std::env::temp_dir();
        let real = std::fs::canonicalize(&tmp).unwrap();
        let cache = crate::discover::FileCache::new();
        assert_eq!(
            py_resolve(cache.untracked(), &tmp.join("no/such/x.md")),
            Some(real.join("no/such/x.md"))
        );
    }

    #[test]
    fn user_paths_expand_with_the_workspace_home() {
        assert_eq!(expand_user("~/a", Path::new("/h")), PathBuf::from("/h/a"));
        assert_eq!(expand_user("a/~", Path::new("/h")), PathBuf::from("a/~"));
    }
}
