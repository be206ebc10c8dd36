//! `npm i -g agentry` without a registry: `assets/npm/pack.sh` packs the wrapper and
//! this machine's platform package, and an offline global install of the two
//! tarballs (the registry set to an address nothing answers, an empty cache) gives a
//! `bin/agentry` that runs, its arguments and exit code passed through. Skipped, with
//! a line saying so, where `npm` is not installed.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The release build when it is newer than every source (what the release ships;
/// CI builds it first and sets `AGENTRY_REQUIRE_RELEASE`), else this test build.
fn binary() -> PathBuf {
    let built = PathBuf::from(env!("CARGO_BIN_EXE_agentry"));
    let release = manifest().join("target/release/agentry");
    if is_newer_than_sources(&release) {
        return release;
    }
    if std::env::var_os("AGENTRY_REQUIRE_RELEASE").is_some() {
        panic!("{} is missing or older than the sources (AGENTRY_REQUIRE_RELEASE)", release.display());
    }
    eprintln!("{} is missing or older than the sources: packing the test build", release.display());
    built
}

fn is_newer_than_sources(binary: &Path) -> bool {
    let Ok(built) = std::fs::metadata(binary).and_then(|m| m.modified()) else { return false };
    let mut stack: Vec<PathBuf> = ["src", "assets", "themes", "Cargo.toml", "Cargo.lock"].iter().map(|p| manifest().join(p)).collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if meta.is_dir() {
            stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
        } else if meta.modified().is_ok_and(|t| t > built) {
            return false;
        }
    }
    true
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn the_packed_tarballs_install_offline_and_run() {
    if Command::new("npm").arg("--version").output().is_err() {
        eprintln!("npm is not installed: the npm packages were not packed nor installed (skipped)");
        return;
    }
    let root = support::Scratch::new("npm-package");
    let out_dir = root.join("out");
    let packed = Command::new("bash").arg(manifest().join("assets/npm/pack.sh")).arg(binary()).arg(&out_dir).output().unwrap();
    assert!(packed.status.success(), "{}", text(&packed));
    let mut tarballs: Vec<PathBuf> = std::fs::read_dir(&out_dir).unwrap().flatten().map(|e| e.path()).collect();
    tarballs.sort();
    let names: Vec<String> = tarballs.iter().map(|t| t.file_name().unwrap().to_string_lossy().into_owned()).collect();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&format!("agentry-{version}.tgz")), "{names:?}");
    assert!(names.iter().any(|n| n.starts_with("agentry-cli-")), "{names:?}");

    // Offline, with nothing to fall back on: no cache, no registry, no user config.
    let prefix = root.join("T");
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let install = Command::new("npm")
        .args(["install", "-g", "--offline", "--no-audit", "--no-fund", "--registry", "http://127.0.0.1:9/"])
        .arg("--prefix")
        .arg(&prefix)
        .arg("--cache")
        .arg(root.join("npm-cache"))
        .args(&tarballs)
        .env("HOME", &home)
        .env("npm_config_userconfig", root.join("no-npmrc"))
        .output()
        .unwrap();
    assert!(install.status.success(), "{}", text(&install));

    let agentry = prefix.join("bin/agentry");
    let run = |args: &[&str]| Command::new(&agentry).args(args).env("HOME", &home).env("NO_COLOR", "1").output().unwrap();
    let out = run(&["--version"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains(version), "{}", text(&out));
    let out = run(&["--demo", "list"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("code-reviewer"), "{}", text(&out));
    // The binary's exit code comes through the launcher: 2 for a usage error.
    let out = run(&["--no-such-option"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}
