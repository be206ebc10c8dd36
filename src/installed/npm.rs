//! npm global prefixes, found as npm finds them, and the `package.json` of a package
//! installed in one.

use std::path::{Path, PathBuf};

use super::{is_version, read_small, Install, Machine, Release};
use crate::discover::Files;

/// Every copy of the release's npm packages in a global prefix.
pub(super) fn find(files: Files, machine: &Machine, release: &Release) -> Vec<Install> {
    if release.npm.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (prefix, how) in prefixes(files, machine, release) {
        for package in release.npm {
            // Unix prefixes keep packages in `lib/node_modules`, Windows ones in
            // `node_modules` directly under the prefix.
            for modules in [prefix.join("lib/node_modules"), prefix.join("node_modules")] {
                let manifest = modules.join(package).join("package.json");
                if let Some(version) = version_in(files, &manifest, package) {
                    found.push(Install { version, path: manifest, how });
                }
            }
        }
    }
    found
}

/// The global prefixes to look in, the one npm would install to first: the
/// `prefix` setting (environment, then the user's `.npmrc`), the prefix of each
/// `node` on `PATH` (npm's default), the usual user prefixes, every Node of nvm and
/// fnm, Volta's package images and the tool's private prefixes.
fn prefixes(files: Files, machine: &Machine, release: &Release) -> Vec<(PathBuf, &'static str)> {
    let home = machine.home;
    let mut out: Vec<(PathBuf, &'static str)> = Vec::new();
    // npm reads `npm_config_*` variables in any case.
    let from_env = machine
        .env
        .iter()
        .filter(|(k, v)| k.eq_ignore_ascii_case("npm_config_prefix") && !v.is_empty())
        .map(|(_, v)| PathBuf::from(expand(v, machine)))
        .next();
    out.extend(from_env.map(|p| (p, "npm global")));
    let npmrc = machine.var("NPM_CONFIG_USERCONFIG").or_else(|| machine.var("npm_config_userconfig")).unwrap_or_else(|| home.join(".npmrc"));
    out.extend(prefix_in_npmrc(files, &npmrc, machine).map(|p| (p, "npm global")));
    for dir in machine.path_dirs() {
        if files.is_file(&dir.join("node")) || files.is_file(&dir.join("node.exe")) {
            let real = files.canonicalize(&dir.join("node")).and_then(|n| n.parent().map(Path::to_path_buf)).unwrap_or(dir.clone());
            out.extend(real.parent().map(|p| (p.to_path_buf(), "npm global")));
        }
    }
    out.extend(machine.var("APPDATA").map(|a| (a.join("npm"), "npm global")));
    for rel in [".npm-global", ".npm-packages", ".local"] {
        out.push((home.join(rel), "npm global"));
    }
    let nvm = machine.var("NVM_DIR").unwrap_or_else(|| home.join(".nvm"));
    out.extend(subfolders(files, &nvm.join("versions/node")).into_iter().map(|p| (p, "nvm")));
    let fnm_roots = [machine.var("FNM_DIR"), Some(machine.data_home().join("fnm")), Some(home.join(".fnm")), Some(home.join("Library/Application Support/fnm"))];
    for root in fnm_roots.into_iter().flatten() {
        out.extend(subfolders(files, &root.join("node-versions")).into_iter().map(|p| (p.join("installation"), "fnm")));
    }
    let volta = machine.var("VOLTA_HOME").unwrap_or_else(|| home.join(".volta"));
    for package in release.npm {
        out.push((volta.join("tools/image/packages").join(package), "Volta"));
    }
    for rel in release.npm_prefixes {
        out.push((home.join(rel), "own installer"));
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(p, _)| seen.insert(p.clone()));
    out
}

/// The sub-folders of `dir`, in name order.
fn subfolders(files: Files, dir: &Path) -> Vec<PathBuf> {
    match files.list_dir(dir) {
        Ok(Some(entries)) => entries.iter().filter(|e| e.is_dir).map(|e| e.path.to_path_buf()).collect(),
        _ => Vec::new(),
    }
}

/// The `prefix` an `.npmrc` sets (`prefix=~/.npm-global`; the last one wins, as
/// npm's ini reader keeps it).
fn prefix_in_npmrc(files: Files, npmrc: &Path, machine: &Machine) -> Option<PathBuf> {
    let bytes = read_small(files, npmrc)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut prefix = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with(';') || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        if key.trim() == "prefix" {
            let value = value.trim().trim_matches('"').trim_matches('\'');
            if !value.is_empty() {
                prefix = Some(PathBuf::from(expand(value, machine)));
            }
        }
    }
    prefix
}

/// `~/` and `${VAR}` in a setting, as npm expands them.
fn expand(value: &str, machine: &Machine) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start..].find('}') else { break };
        out.push_str(&rest[..start]);
        let name = &rest[start + 2..start + len];
        out.push_str(machine.env.get(name).map(String::as_str).unwrap_or(""));
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    match out.strip_prefix("~/") {
        Some(tail) => machine.home.join(tail).display().to_string(),
        None => out,
    }
}

/// The `version` of the `package.json` at `manifest` when it is the manifest of
/// `package`. Anything else (unreadable, not JSON, another package, a version that
/// is no version) is no install.
pub(super) fn version_in(files: Files, manifest: &Path, package: &str) -> Option<String> {
    let bytes = read_small(files, manifest)?;
    let json: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    if json.get("name")?.as_str()? != package {
        return None;
    }
    let version = json.get("version")?.as_str()?.trim();
    is_version(version).then(|| version.to_string())
}

/// The npm package of the release that holds `file` (a command's resolved script),
/// read from the nearest `package.json` above it that names one.
pub(super) fn package_above(files: Files, file: &Path, release: &Release) -> Option<Install> {
    for dir in file.ancestors().skip(1).take(6) {
        let manifest = dir.join("package.json");
        for package in release.npm {
            if let Some(version) = version_in(files, &manifest, package) {
                return Some(Install { version, path: manifest, how: "npm" });
            }
        }
    }
    None
}
