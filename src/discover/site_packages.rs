//! Finding a Python distribution's files in the user's installed environments without
//! running Python: the frameworks' built-in agents live inside their installed
//! packages, and agentry reads them where the user's own `kimi`/`fast-agent`/… would.
//!
//! Environments are tried in the order a user most likely runs the framework from:
//! the project's virtual environment (`P/.venv`, `P/venv`, `$VIRTUAL_ENV`), the
//! environment behind a launcher on `PATH` (pipx and uv launchers are symlinks or
//! scripts whose target or `#!` line names `<env>/bin/python`), the uv tool
//! environment, the pipx environment, and finally the user site-packages.

use std::path::{Path, PathBuf};

use crate::model::Roots;

/// `rel_path` (`kimi_cli/agents`) inside the first site-packages folder that holds it
/// next to a `<dist_prefix>-*.dist-info` folder (`kimi_cli-1.52.0.dist-info`).
/// `launcher_names` are the console scripts of the distribution (`kimi`, `kimi-cli`).
pub fn find_in_site_packages(roots: &Roots, rel_path: &str, dist_prefix: &str, launcher_names: &[&str]) -> Option<PathBuf> {
    candidate_site_packages(roots, dist_prefix, launcher_names)
        .into_iter()
        .filter(|sp| has_distribution(sp, dist_prefix))
        .map(|sp| sp.join(rel_path))
        .find(|p| p.exists())
}

/// Every site-packages folder [`find_in_site_packages`] looks at, in order (also the
/// list a "not found" diagnostic names). Folders that do not exist are left out.
pub fn candidate_site_packages(roots: &Roots, dist_prefix: &str, launcher_names: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for env in candidate_environments(roots, dist_prefix, launcher_names) {
        for sp in env_site_packages(&env) {
            if !out.contains(&sp) {
                out.push(sp);
            }
        }
    }
    for sp in user_site_packages(&roots.home) {
        if !out.contains(&sp) {
            out.push(sp);
        }
    }
    out
}

/// Virtual environments (folders with `bin/` or `Scripts/`) that may hold the
/// distribution, in search order.
fn candidate_environments(roots: &Roots, dist_prefix: &str, launcher_names: &[&str]) -> Vec<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let mut envs = vec![roots.project.join(".venv"), roots.project.join("venv")];
    envs.extend(var("VIRTUAL_ENV"));
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            for name in launcher_names {
                envs.extend(launcher_environment(&dir.join(name)));
            }
        }
    }
    // uv and pipx name a tool's environment after the distribution (`kimi-cli`).
    let tool = dist_prefix.replace('_', "-");
    let data_home = var("XDG_DATA_HOME").unwrap_or_else(|| roots.home.join(".local/share"));
    let uv_tools = var("UV_TOOL_DIR").unwrap_or_else(|| data_home.join("uv/tools"));
    envs.push(uv_tools.join(&tool));
    if let Some(appdata) = var("APPDATA") {
        envs.push(appdata.join("uv/data/tools").join(&tool));
    }
    match var("PIPX_HOME") {
        Some(pipx) => envs.push(pipx.join("venvs").join(&tool)),
        None => {
            envs.push(data_home.join("pipx/venvs").join(&tool));
            envs.push(roots.home.join(".local/pipx/venvs").join(&tool));
            envs.push(roots.home.join("pipx/venvs").join(&tool));
        }
    }
    let mut unique = Vec::new();
    for env in envs {
        if env.is_dir() && !unique.contains(&env) {
            unique.push(env);
        }
    }
    unique
}

/// The environment a console script belongs to: its symlink target's or its `#!`
/// interpreter's `<env>/bin/python`, else the environment whose `bin/` holds it.
fn launcher_environment(launcher: &Path) -> Option<PathBuf> {
    if !launcher.is_file() {
        return None;
    }
    let env_of_bin_file = |file: &Path| file.parent().and_then(Path::parent).map(Path::to_path_buf);
    if let Ok(target) = std::fs::canonicalize(launcher) {
        if target != launcher {
            if let Some(env) = env_of_bin_file(&target).filter(|e| e.join("pyvenv.cfg").is_file()) {
                return Some(env);
            }
        }
    }
    if let Some(interpreter) = shebang_interpreter(launcher) {
        if let Some(env) = env_of_bin_file(&interpreter) {
            return Some(env);
        }
    }
    env_of_bin_file(launcher)
}

/// The interpreter named by a script's first line (`#!/x/env/bin/python`), reading
/// at most a few hundred bytes (a launcher may be a large native binary).
fn shebang_interpreter(script: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 512];
    let n = std::fs::File::open(script).ok()?.read(&mut head).ok()?;
    let text = std::str::from_utf8(&head[..n]).ok()?;
    let line = text.lines().next()?.strip_prefix("#!")?;
    let interpreter = line.split_whitespace().next()?;
    Some(PathBuf::from(interpreter))
}

/// `lib/python3.*/site-packages` (newest Python first) and `Lib/site-packages`.
fn env_site_packages(env: &Path) -> Vec<PathBuf> {
    let mut out = python_versions(&env.join("lib"), "python3.", "site-packages");
    let windows = env.join("Lib/site-packages");
    if windows.is_dir() {
        out.push(windows);
    }
    out
}

/// The per-user site-packages folders (`pip install --user`).
fn user_site_packages(home: &Path) -> Vec<PathBuf> {
    let mut out = python_versions(&home.join(".local/lib"), "python3.", "site-packages");
    out.extend(python_versions(&home.join("Library/Python"), "3.", "lib/python/site-packages"));
    if let Some(appdata) = std::env::var_os("APPDATA").filter(|v| !v.is_empty()) {
        out.extend(python_versions(&PathBuf::from(appdata).join("Python"), "Python3", "site-packages"));
    }
    out
}

/// `parent/<prefix>N/tail` for every versioned folder that exists, newest first.
fn python_versions(parent: &Path, prefix: &str, tail: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(parent) else { return Vec::new() };
    let mut found: Vec<(u32, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let minor: u32 = name.strip_prefix(prefix)?.parse().ok()?;
            let dir = e.path().join(tail);
            dir.is_dir().then_some((minor, dir))
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0));
    found.into_iter().map(|(_, p)| p).collect()
}

/// `true` when `site_packages` holds `<dist_prefix>-<version>.dist-info`.
fn has_distribution(site_packages: &Path, dist_prefix: &str) -> bool {
    let wanted = format!("{dist_prefix}-");
    let Ok(entries) = std::fs::read_dir(site_packages) else { return false };
    entries.filter_map(Result::ok).any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.starts_with(&wanted) && name.ends_with(".dist-info")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_package_in_the_project_venv_next_to_its_dist_info() {
        let base = std::env::temp_dir().join(format!("agentry-sp-{}", std::process::id()));
        let sp = base.join("p/.venv/lib/python3.12/site-packages");
        std::fs::create_dir_all(sp.join("kimi_cli/agents/default")).unwrap();
        let roots = Roots { project: base.join("p"), home: base.join("h"), xdg: base.join("h/.config"), builtins: None };
        // Without the dist-info folder the files are not the installed distribution.
        assert_eq!(find_in_site_packages(&roots, "kimi_cli/agents", "kimi_cli", &[]), None);
        std::fs::create_dir_all(sp.join("kimi_cli-1.52.0.dist-info")).unwrap();
        assert_eq!(find_in_site_packages(&roots, "kimi_cli/agents", "kimi_cli", &[]), Some(sp.join("kimi_cli/agents")));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
