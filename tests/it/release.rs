//! Getting agentry without a Rust toolchain, tried against a local folder standing in
//! for a GitHub release (no network): the shell installer checks the archive's
//! SHA-256 before it installs; the GitHub Action's script takes the release for the
//! runner into the tool cache, refuses a bad checksum, and builds with `cargo
//! install` only when the release has no archive for the runner. Every place that
//! pins a release names the crate's own version.

use crate::support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The release target `install.sh` picks on this machine (its `uname` mapping).
fn host_target() -> String {
    let arch = match std::env::consts::ARCH {
        "aarch64" => "aarch64",
        other => other,
    };
    match std::env::consts::OS {
        "macos" => format!("{arch}-apple-darwin"),
        _ => format!("{arch}-unknown-linux-musl"),
    }
}

fn sha256(file: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(file)
        .output()
        .or_else(|_| Command::new("shasum").args(["-a", "256"]).arg(file).output())
        .expect("sha256sum or shasum");
    String::from_utf8_lossy(&out.stdout).split_whitespace().next().expect("a hash").to_string()
}

/// A release folder holding this test build as the host's archive and its checksum,
/// laid out as `assets/release/build.sh` writes them.
fn release(root: &Path) -> PathBuf {
    let dir = root.join("release");
    let name = format!("agentry-{VERSION}-{}", host_target());
    let stage = root.join("stage").join(&name);
    std::fs::create_dir_all(&stage).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_agentry"), stage.join("agentry")).unwrap();
    for f in ["LICENSE-MIT", "LICENSE-APACHE", "README.md"] {
        std::fs::copy(manifest().join(f), stage.join(f)).unwrap();
    }
    let archive = dir.join(format!("{name}.tar.gz"));
    let tar = Command::new("tar").arg("-C").arg(root.join("stage")).arg("-czf").arg(&archive).arg(&name).status().unwrap();
    assert!(tar.success());
    std::fs::write(dir.join(format!("{name}.tar.gz.sha256")), format!("{}  {name}.tar.gz\n", sha256(&archive))).unwrap();
    dir
}

fn archive_of(release: &Path) -> PathBuf {
    release.join(format!("agentry-{VERSION}-{}.tar.gz", host_target()))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn install_sh(release: &Path, dir: &Path, home: &Path) -> Output {
    Command::new("sh")
        .arg(manifest().join("assets/release/install.sh"))
        .env("AGENTRY_BASE_URL", format!("file://{}", release.display()))
        .env("AGENTRY_INSTALL_DIR", dir)
        .env("HOME", home)
        .env_remove("AGENTRY_VERSION")
        .output()
        .unwrap()
}

#[test]
fn the_installer_checks_the_checksum_then_installs_a_binary_that_runs() {
    let root = support::Scratch::new("install-sh");
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let release = release(&root);

    let bin_dir = root.join("bin");
    let out = install_sh(&release, &bin_dir, &home);
    assert!(out.status.success(), "{}", text(&out));
    let demo = Command::new(bin_dir.join("agentry")).args(["--demo", "list"]).env("HOME", &home).output().unwrap();
    assert!(demo.status.success(), "{}", text(&demo));
    assert!(String::from_utf8_lossy(&demo.stdout).contains("code-reviewer"));

    // One byte changed in the archive: refused, and nothing installed.
    let mut bytes = std::fs::read(archive_of(&release)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(archive_of(&release), bytes).unwrap();
    let refused = root.join("refused");
    let out = install_sh(&release, &refused, &home);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("checksum mismatch"), "{}", text(&out));
    assert!(!refused.join("agentry").exists());

    // No archive for this machine: exit 3, which the Action takes as "build it".
    std::fs::remove_file(archive_of(&release)).unwrap();
    let out = install_sh(&release, &refused, &home);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    assert!(text(&out).contains("has no agentry-"), "{}", text(&out));
}

/// A `cargo` that records its arguments and "installs" the test build into
/// `--root`, as `cargo install --root` would.
fn fake_cargo(root: &Path) -> (PathBuf, PathBuf) {
    let dir = root.join("fake-bin");
    std::fs::create_dir_all(&dir).unwrap();
    let log = root.join("cargo.log");
    let script = format!(
        "#!/bin/sh\necho \"$@\" >>'{log}'\nwhile [ $# -gt 0 ]; do [ \"$1\" = --root ] && r=\"$2\"; shift; done\nmkdir -p \"$r/bin\" && cp '{bin}' \"$r/bin/agentry\"\n",
        log = log.display(),
        bin = env!("CARGO_BIN_EXE_agentry"),
    );
    std::fs::write(dir.join("cargo"), script).unwrap();
    std::fs::set_permissions(dir.join("cargo"), std::fs::Permissions::from_mode(0o755)).unwrap();
    (dir, log)
}

struct Runner {
    checkout: PathBuf,
    home: PathBuf,
    temp: PathBuf,
    tool_cache: PathBuf,
    output: PathBuf,
    path: String,
}

impl Runner {
    fn new(root: &Path, tag: &str, fake_bin: &Path) -> Runner {
        let base = root.join(tag);
        let r = Runner {
            checkout: base.join("checkout"),
            home: base.join("home"),
            temp: base.join("runner-temp"),
            tool_cache: base.join("tool-cache"),
            output: base.join("github-output"),
            path: format!("{}:/usr/bin:/bin", fake_bin.display()),
        };
        for d in [&r.checkout, &r.home, &r.temp, &r.tool_cache] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::create_dir_all(r.checkout.join(".git")).unwrap();
        std::fs::create_dir_all(r.checkout.join(".claude/agents")).unwrap();
        std::fs::write(r.checkout.join(".claude/agents/reviewer.md"), "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n")
            .unwrap();
        r
    }

    fn run(&self, release: &Path, env: &[(&str, &str)]) -> Output {
        let mut c = Command::new("bash");
        c.arg(manifest().join("assets/github-action/run.sh"))
            .current_dir(&self.checkout)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", &self.home)
            .env("RUNNER_TEMP", &self.temp)
            .env("RUNNER_TOOL_CACHE", &self.tool_cache)
            .env("GITHUB_OUTPUT", &self.output)
            .env("AGENTRY_BASE_URL", format!("file://{}", release.display()))
            .env("AGENTRY_SOURCE", manifest())
            .env("AGENTRY_VERSION", VERSION)
            .env("AGENTRY_FORMAT", "sarif");
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    }

    fn checkout_files(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self.checkout.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                if e.file_type().unwrap().is_dir() {
                    stack.push(e.path());
                } else {
                    out.push(e.path().strip_prefix(&self.checkout).unwrap().display().to_string());
                }
            }
        }
        out.sort();
        out
    }
}

fn cached(runner: &Runner) -> PathBuf {
    let arch = if std::env::consts::ARCH == "aarch64" { "arm64" } else { "x64" };
    runner.tool_cache.join("agentry").join(VERSION).join(arch)
}

#[test]
fn the_action_downloads_the_release_refuses_a_bad_checksum_and_builds_only_without_one() {
    let root = support::Scratch::new("action-release");
    let release = release(&root);
    let (fake_bin, cargo_log) = fake_cargo(&root);

    // The release has the runner's archive: installed into the tool cache, SARIF
    // written under RUNNER_TEMP, its absolute path given to the upload step, and
    // the checkout left as it was.
    let runner = Runner::new(&root, "good", &fake_bin);
    let before = runner.checkout_files();
    let out = runner.run(&release, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let sarif = runner.temp.join("agentry.sarif");
    let log: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(std::fs::read_to_string(&runner.output).unwrap().trim(), format!("sarif-file={}", sarif.display()));
    assert!(cached(&runner).join("agentry").is_file() && cached(&runner).with_extension("complete").exists());
    assert_eq!(runner.checkout_files(), before, "the action wrote into the checkout");
    // The next run of the same runner takes it from the tool cache.
    let empty = root.join("no-release");
    std::fs::create_dir_all(&empty).unwrap();
    let out = runner.run(&empty, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("from the tool cache"), "{}", text(&out));
    // An absolute sarif-file is written where it says.
    let elsewhere = root.join("elsewhere/out.sarif");
    let out = runner.run(&empty, &[("AGENTRY_SARIF", &elsewhere.display().to_string())]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(elsewhere.is_file());

    // A bad checksum: refused with a clear message, nothing cached, nothing built.
    let mut bytes = std::fs::read(archive_of(&release)).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(archive_of(&release), bytes).unwrap();
    let runner = Runner::new(&root, "bad", &fake_bin);
    let out = runner.run(&release, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("checksum mismatch"), "{}", text(&out));
    assert!(!cached(&runner).join("agentry").exists() && !runner.temp.join("agentry.sarif").exists());
    assert!(!cargo_log.exists(), "cargo ran after a checksum refusal");

    // No archive for this runner: built from the action's source tree with cargo.
    let runner = Runner::new(&root, "missing", &fake_bin);
    let out = runner.run(&empty, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("building it with cargo install"), "{}", text(&out));
    let calls = std::fs::read_to_string(&cargo_log).unwrap();
    assert!(calls.starts_with("install --locked") && calls.contains(&format!("--path {}", manifest().display())), "{calls}");
    assert!(runner.temp.join("agentry.sarif").is_file());
    assert!(cached(&runner).join("agentry").is_file());
    assert!(!runner.checkout_files().iter().any(|f| f.contains("target")), "{:?}", runner.checkout_files());
}

/// The inputs `tools`, `cwd`, `untrusted` and `args` reach `agentry check` as its
/// options, with a stand-in binary that prints its arguments.
#[test]
fn the_action_passes_its_inputs_as_options() {
    let root = support::Scratch::new("action-inputs");
    let (fake_bin, _) = fake_cargo(&root);
    let runner = Runner::new(&root, "inputs", &fake_bin);
    let echo = root.join("echo-args");
    std::fs::write(&echo, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n").unwrap();
    std::fs::set_permissions(&echo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let echo = echo.display().to_string();
    let out = runner.run(
        &root.join("none"),
        &[
            ("AGENTRY_BIN", &echo),
            ("AGENTRY_FORMAT", "github"),
            ("AGENTRY_TOOLS", "claude-code, copilot opencode"),
            ("AGENTRY_CWD", "services/api"),
            ("AGENTRY_UNTRUSTED", "true"),
            ("AGENTRY_ARGS", "--notes --dialect agentcard-rfc"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let args: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(
        args,
        [
            "check", "--format", "github", "--fail-on", "error", "-e", "claude-code", "-e", "copilot", "-e", "opencode",
            "--cwd", "services/api", "--untrusted", "--notes", "--dialect", "agentcard-rfc"
        ]
    );
    let out = runner.run(&root.join("none"), &[("AGENTRY_BIN", &echo), ("AGENTRY_UNTRUSTED", "yes")]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// Every place that names a release to fetch names this version, so a version bump
/// that forgets one fails here.
#[test]
fn every_pinned_release_is_the_crate_version() {
    let read = |p: &str| std::fs::read_to_string(manifest().join(p)).unwrap();
    for script in ["assets/release/install.sh", "assets/github-action/run.sh"] {
        assert!(read(script).contains(&format!("AGENTRY_VERSION:-{VERSION}}}")), "{script}");
    }
    assert!(read("assets/release/install.ps1").contains(&format!("else {{ '{VERSION}' }}")));
    let action: serde_yaml::Value = serde_yaml::from_str(&read("assets/github-action/action.yml")).unwrap();
    assert_eq!(action["inputs"]["version"]["default"].as_str(), Some(VERSION));
    let npm: serde_json::Value = serde_json::from_str(&read("assets/npm/agentry/package.json")).unwrap();
    assert_eq!(npm["version"], VERSION);
    let optional = npm["optionalDependencies"].as_object().unwrap();
    assert_eq!(optional.len(), 5, "one package per release target");
    assert!(optional.values().all(|v| v == VERSION), "{optional:?}");
    let root: serde_json::Value = serde_json::from_str(&read("package.json")).unwrap();
    assert_eq!(root["version"], VERSION, "package.json (the pre-commit hook's)");
    let hooks: serde_yaml::Value = serde_yaml::from_str(&read(".pre-commit-hooks.yaml")).unwrap();
    let node = hooks.as_sequence().unwrap().iter().find(|h| h["language"] == "node").expect("a node hook");
    assert_eq!(node["additional_dependencies"][0].as_str(), Some(format!("agentry@{VERSION}").as_str()));
    // One pattern for every hook: they differ only in how agentry is installed.
    let patterns: Vec<_> = hooks.as_sequence().unwrap().iter().map(|h| (&h["files"], &h["types_or"], &h["entry"])).collect();
    assert!(patterns.windows(2).all(|w| w[0] == w[1]), "{patterns:?}");
}
