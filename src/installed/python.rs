//! Python tools in pipx and uv tool environments, or behind a launcher on `PATH`:
//! the `Version` of the distribution's `*.dist-info/METADATA`.

use std::path::{Path, PathBuf};

use super::{is_version, read_small, Install, Machine, Release};
use crate::discover::site_packages::{launcher_env, site_packages_of};
use crate::discover::Files;

/// Every pipx or uv tool environment holding one of the release's distributions; the
/// environment named after the distribution first.
pub(super) fn find(files: Files, machine: &Machine, release: &Release) -> Vec<Install> {
    if release.python.is_empty() {
        return Vec::new();
    }
    let home = machine.home;
    let uv = machine.var("UV_TOOL_DIR").unwrap_or_else(|| machine.data_home().join("uv/tools"));
    let pipx_homes = [machine.var("PIPX_HOME").map(|p| p.join("venvs")), Some(home.join(".local/share/pipx/venvs")), Some(home.join(".local/pipx/venvs"))];
    let mut found = Vec::new();
    for (tools, how) in pipx_homes.into_iter().flatten().map(|p| (p, "pipx")).chain([(uv, "uv tool")]) {
        let Ok(Some(entries)) = files.list_dir(&tools) else { continue };
        let mut envs: Vec<PathBuf> = entries.iter().filter(|e| e.is_dir).map(|e| e.path.to_path_buf()).collect();
        envs.sort_by_key(|e| !release.python.iter().any(|d| e.file_name().is_some_and(|n| n == *d)));
        for env in envs {
            found.extend(in_environment(files, &env, release).map(|i| Install { how, ..i }));
        }
    }
    found
}

/// The release's distribution in the environment a launcher on `PATH` runs in.
pub(super) fn from_launcher(files: Files, launcher: &Path, release: &Release) -> Option<Install> {
    if release.python.is_empty() {
        return None;
    }
    let env = launcher_env(files, launcher)?;
    in_environment(files, &env, release).map(|i| Install { how: "command on PATH", ..i })
}

/// The first of the release's distributions installed in the environment `env`.
fn in_environment(files: Files, env: &Path, release: &Release) -> Option<Install> {
    for site in site_packages_of(files, env) {
        let Ok(Some(entries)) = files.list_dir(&site) else { continue };
        for dist in release.python {
            for entry in entries.iter().filter(|e| e.is_dir) {
                let name = entry.name();
                let Some(rest) = name.strip_suffix(".dist-info") else { continue };
                // `{name}-{version}.dist-info`, the name with `-` escaped to `_`.
                if !rest.split_once('-').is_some_and(|(n, _)| normalized(n) == normalized(dist)) {
                    continue;
                }
                let metadata = entry.path.join("METADATA");
                if let Some(version) = metadata_version(files, &metadata, dist) {
                    return Some(Install { version, path: metadata, how: "" });
                }
            }
        }
    }
    None
}

/// A distribution name as dist-info folders spell it: lower case, runs of `-`, `_`
/// and `.` as one `_` (PEP 503 with underscores).
fn normalized(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('_') {
                out.push('_');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// The `Version:` header of a `METADATA` file whose `Name:` is `dist`.
pub(super) fn metadata_version(files: Files, metadata: &Path, dist: &str) -> Option<String> {
    let bytes = read_small(files, metadata)?;
    let text = String::from_utf8_lossy(&bytes);
    let (mut name, mut version) = (None, None);
    // The headers end at the first blank line; the description follows.
    for line in text.lines().take_while(|l| !l.trim().is_empty()) {
        if let Some(v) = line.strip_prefix("Name:") {
            name = Some(v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("Version:") {
            version = Some(v.trim().to_string());
        }
    }
    let version = version.filter(|v| is_version(v))?;
    (normalized(&name?) == normalized(dist)).then_some(version)
}
