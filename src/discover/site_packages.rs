//! Finding a framework's installed Python package, to read its built-in agents where
//! the user has them (agentry never ships copies). The places are the ones the
//! frameworks' specs list under "Locating built-ins", in this order: the project's
//! virtual environment, the environment behind a launcher on `PATH`, uv tool
//! environments, pipx environments, the user site-packages.
//!
//! Every look goes through [`Files`], so the load that asked records it and a refresh
//! notices a package installed (or removed) since.

use std::path::{Path, PathBuf};

use super::{Files, Hold, Kind};
use crate::model::Roots;

/// What to look for in a site-packages folder.
pub struct Package<'a> {
    /// The folder inside site-packages (`openhands/tools/preset/subagents`).
    pub rel_path: &'a str,
    /// The distribution's dist-info prefix (`openhands_tools-`), which must sit next to it.
    pub dist_prefix: &'a str,
    /// Launcher commands whose environment holds the package (`openhands`).
    pub launchers: &'a [&'a str],
}

/// The first installed copy of the package, with the places looked at (for the
/// "not found" diagnostic).
pub fn find(
    files: Files,
    roots: &Roots,
    env: &std::collections::BTreeMap<String, String>,
    pkg: &Package,
) -> (Option<PathBuf>, Vec<PathBuf>) {
    let mut looked = Vec::new();
    for site in candidates(files, roots, env, pkg) {
        let dir = site.join(pkg.rel_path);
        let found = files.kind(&dir) == Kind::Dir && has_dist_info(files, &site, pkg.dist_prefix);
        looked.push(site);
        if found {
            return (Some(dir), looked);
        }
    }
    (None, looked)
}

fn has_dist_info(files: Files, site: &Path, prefix: &str) -> bool {
    entries(files, site).iter().any(|e| {
        let name = e.name();
        name.starts_with(prefix) && name.ends_with(".dist-info")
    })
}

/// The entries of the folder `dir`; none when it is not a folder or cannot be listed.
fn entries(files: Files, dir: &Path) -> std::sync::Arc<[super::DirEntry]> {
    match files.list_dir(dir) {
        Ok(Some(entries)) => entries,
        _ => std::sync::Arc::from([]),
    }
}

/// `ENV/lib/python3.*/site-packages` (and `ENV/Lib/site-packages` on Windows).
pub(crate) fn site_packages_of(files: Files, env_dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pythons: Vec<PathBuf> = entries(files, &env_dir.join("lib"))
        .iter()
        .filter(|e| e.name().starts_with("python3"))
        .map(|e| e.path.join("site-packages"))
        .filter(|p| files.kind(p) == Kind::Dir)
        .collect();
    pythons.sort();
    out.extend(pythons);
    let win = env_dir.join("Lib/site-packages");
    if files.kind(&win) == Kind::Dir {
        out.push(win);
    }
    out
}

/// The environment a launcher script or symlink on PATH runs in: a symlink to
/// `ENV/bin/x`, or a script whose `#!` line names `ENV/bin/python`.
pub(crate) fn launcher_env(files: Files, launcher: &Path) -> Option<PathBuf> {
    let target = files.canonicalize(launcher)?;
    let bin = if target.parent()?.file_name()? == "bin" {
        target.parent()?.to_path_buf()
    } else {
        // Only its first line is wanted, and only this once.
        let head = files.read(&target, Hold::Not).ok()?;
        let first = head.split(|&b| b == b'\n').next()?;
        let line = std::str::from_utf8(first).ok()?.strip_prefix("#!")?;
        PathBuf::from(line.split_whitespace().next()?).parent()?.to_path_buf()
    };
    Some(bin.parent()?.to_path_buf())
}

fn candidates(files: Files, roots: &Roots, env: &std::collections::BTreeMap<String, String>, pkg: &Package) -> Vec<PathBuf> {
    let var = |k: &str| env.get(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home = &roots.home;
    let mut envs: Vec<PathBuf> = vec![roots.project.join(".venv"), roots.project.join("venv")];
    envs.extend(var("VIRTUAL_ENV"));
    if let Some(path) = env.get("PATH") {
        for dir in std::env::split_paths(path) {
            for name in pkg.launchers {
                let l = dir.join(name);
                if files.is_file(&l) {
                    envs.extend(launcher_env(files, &l));
                }
            }
        }
    }
    let data = var("XDG_DATA_HOME").unwrap_or_else(|| home.join(".local/share"));
    let uv_tools = var("UV_TOOL_DIR").unwrap_or_else(|| data.join("uv/tools"));
    let pipx = var("PIPX_HOME").map(|p| p.join("venvs"));
    for tools in [Some(uv_tools), pipx, Some(home.join(".local/share/pipx/venvs")), Some(home.join(".local/pipx/venvs"))]
        .into_iter()
        .flatten()
    {
        let mut dirs: Vec<PathBuf> = entries(files, &tools).iter().map(|e| e.path.to_path_buf()).collect();
        dirs.sort();
        envs.extend(dirs);
    }
    let mut sites: Vec<PathBuf> = envs.iter().flat_map(|e| site_packages_of(files, e)).collect();
    sites.extend(site_packages_of(files, &home.join(".local")));
    sites.extend(
        entries(files, &home.join("Library/Python"))
            .iter()
            .map(|e| e.path.join("lib/python/site-packages"))
            .filter(|p| files.kind(p) == Kind::Dir),
    );
    sites.dedup();
    sites
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_package_in_the_project_venv_only_with_its_dist_info() {
        let tmp = std::env::temp_dir().join(format!("agentry-sp-{}", std::process::id()));
        let site = tmp.join("p/.venv/lib/python3.12/site-packages");
        std::fs::create_dir_all(site.join("fw/agents")).unwrap();
        let roots = Roots::new(tmp.join("p"), tmp.join("h"), tmp.join("x"), None);
        let pkg = Package { rel_path: "fw/agents", dist_prefix: "fw_pkg-", launchers: &[] };
        let env = Default::default();
        let cache = crate::discover::FileCache::new();
        assert_eq!(find(cache.untracked(), &roots, &env, &pkg).0, None);
        std::fs::create_dir_all(site.join("fw_pkg-1.0.dist-info")).unwrap();
        // A new install is seen by a load that asks again (a validating pass).
        cache.begin_pass(None);
        assert_eq!(find(cache.untracked(), &roots, &env, &pkg).0, Some(site.join("fw/agents")));
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
