//! Homebrew: `Cellar/<formula>/<version>` and `Caskroom/<cask>/<version>`, where
//! the folder's name is the release (a formula's `_N` revision and a cask's
//! `,build` suffix are no part of it).

use std::path::{Path, PathBuf};

use super::{is_version, Install, Machine, Release};
use crate::discover::Files;

/// Every Homebrew install of the release's formulae and casks.
pub(super) fn find(files: Files, machine: &Machine, release: &Release) -> Vec<Install> {
    if release.brew.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    for prefix in prefixes(files, machine) {
        for name in release.brew {
            // The linked keg is the one `brew` put on PATH.
            let linked = files.canonicalize(&prefix.join("opt").join(name)).and_then(|p| from_path(&p, release));
            let install = linked.or_else(|| {
                ["Cellar", "Caskroom"].iter().find_map(|room| newest(files, &prefix.join(room).join(name)))
            });
            found.extend(install);
        }
    }
    found
}

/// Homebrew prefixes: `$HOMEBREW_PREFIX`, the folder above each `brew` on `PATH`, the
/// user's `~/.linuxbrew`.
fn prefixes(files: Files, machine: &Machine) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = machine.var("HOMEBREW_PREFIX").into_iter().collect();
    for dir in machine.path_dirs() {
        if files.is_file(&dir.join("brew")) {
            out.extend(dir.parent().map(Path::to_path_buf));
        }
    }
    out.push(machine.home.join(".linuxbrew"));
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out
}

/// The highest release installed in a formula's or cask's folder.
fn newest(files: Files, dir: &Path) -> Option<Install> {
    let Ok(Some(entries)) = files.list_dir(dir) else { return None };
    entries
        .iter()
        .filter(|e| e.is_dir)
        .filter_map(|e| release_of(&e.name()).map(|v| Install { version: v, path: e.path.to_path_buf(), how: "Homebrew" }))
        .max_by(|a, b| crate::text::natural::cmp(&a.version, &b.version))
}

/// The release a keg folder's name names: `2.1.337_1` → `2.1.337`.
fn release_of(folder: &str) -> Option<String> {
    let base = folder.split(',').next().unwrap_or(folder);
    let base = match base.rsplit_once('_') {
        Some((v, revision)) if !revision.is_empty() && revision.bytes().all(|b| b.is_ascii_digit()) => v,
        _ => base,
    };
    is_version(base).then(|| base.to_string())
}

/// A resolved path inside a keg of one of the release's formulae or casks
/// (`…/Cellar/gemini-cli/0.61.0/bin/gemini`).
pub(super) fn from_path(path: &Path, release: &Release) -> Option<Install> {
    let parts: Vec<&std::ffi::OsStr> = path.iter().collect();
    let at = parts.iter().position(|p| *p == "Cellar" || *p == "Caskroom")?;
    let name = parts.get(at + 1)?.to_str()?;
    if !release.brew.contains(&name) {
        return None;
    }
    let version = release_of(parts.get(at + 2)?.to_str()?)?;
    let keg: PathBuf = parts[..at + 3].iter().collect();
    Some(Install { version, path: keg, how: "Homebrew" })
}
