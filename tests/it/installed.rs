use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::installed::*;

/// A fresh folder for one test.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agentry-installed-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn manifest(name: &str, version: &str) -> String {
    format!("{{\"name\": \"{name}\", \"version\": \"{version}\", \"bin\": {{}}}}")
}

fn release_of(id: &str) -> Release {
    agentry::frameworks::by_id(id).and_then(|f| f.release()).unwrap()
}

/// What `find` reports as (version, how) for the tool `id`.
fn found(home: &Path, env: &[(&str, String)], id: &str) -> Vec<(String, &'static str)> {
    let env: BTreeMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    let cache = FileCache::new();
    find(cache.untracked(), &Machine { home, env: &env }, &release_of(id)).into_iter().map(|i| (i.version, i.how)).collect()
}

const CLAUDE: &str = "@anthropic-ai/claude-code";

#[test]
fn the_prefix_npm_config_prefix_names_holds_the_global_package() {
    let tmp = scratch("npm-env");
    let prefix = tmp.join("prefix");
    write(&prefix.join("lib/node_modules").join(CLAUDE).join("package.json"), manifest(CLAUDE, "2.1.340"));
    let home = tmp.join("home");
    for var in ["NPM_CONFIG_PREFIX", "npm_config_prefix"] {
        assert_eq!(found(&home, &[(var, prefix.display().to_string())], "claude-code"), [("2.1.340".to_string(), "npm global")], "{var}");
    }
    assert!(found(&home, &[], "claude-code").is_empty());
    let env = BTreeMap::from([("NPM_CONFIG_PREFIX".to_string(), prefix.display().to_string())]);
    let cache = FileCache::new();
    let noted = note("claude-code", &release_of("claude-code"), cache.untracked(), &Machine { home: &home, env: &env }).unwrap();
    assert_eq!(noted.message, "Claude Code 2.1.340 installed; agentry follows 2.1.337: rules may differ");
    assert_eq!(noted.severity, agentry::model::Severity::Info);
    assert_eq!(noted.path, prefix.join("lib/node_modules").join(CLAUDE).join("package.json"));
    // The release followed is no news.
    write(&prefix.join("lib/node_modules").join(CLAUDE).join("package.json"), manifest(CLAUDE, "2.1.337"));
    let cache = FileCache::new();
    assert!(note("claude-code", &release_of("claude-code"), cache.untracked(), &Machine { home: &home, env: &env }).is_none());
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn npmrc_prefix_windows_layout_and_the_prefix_of_node_on_path() {
    let tmp = scratch("npmrc");
    let home = tmp.join("home");
    write(&home.join(".npmrc"), "; a comment\n# another\nprefix = \"~/.npm-custom\"\nregistry=https://example.invalid/\n");
    write(&home.join(".npm-custom/lib/node_modules/@openai/codex/package.json"), manifest("@openai/codex", "0.172.0"));
    assert_eq!(found(&home, &[], "codex"), [("0.172.0".to_string(), "npm global")]);
    // Windows keeps global packages in `node_modules` right under the prefix.
    let appdata = tmp.join("AppData/Roaming");
    write(&appdata.join("npm/node_modules/@github/copilot/package.json"), manifest("@github/copilot", "1.0.103"));
    assert_eq!(found(&home, &[("APPDATA", appdata.display().to_string())], "copilot"), [("1.0.103".to_string(), "npm global")]);
    // npm's default prefix is the folder above the `node` it runs with.
    let system = tmp.join("usr-local");
    write(&system.join("bin/node"), "");
    write(&system.join("lib/node_modules/opencode-ai/package.json"), manifest("opencode-ai", "1.18.40"));
    let path = system.join("bin").display().to_string();
    assert_eq!(found(&home, &[("PATH", path)], "opencode"), [("1.18.40".to_string(), "npm global")]);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn every_node_of_nvm_fnm_and_volta_is_a_prefix() {
    let tmp = scratch("nvm");
    let home = tmp.join("home");
    let gemini = "@google/gemini-cli";
    write(&home.join(".nvm/versions/node/v22.1.0/lib/node_modules").join(gemini).join("package.json"), manifest(gemini, "0.62.0"));
    assert_eq!(found(&home, &[], "gemini-cli"), [("0.62.0".to_string(), "nvm")]);
    let nvm_dir = tmp.join("nvm-elsewhere");
    write(&nvm_dir.join("versions/node/v20.0.0/lib/node_modules").join(gemini).join("package.json"), manifest(gemini, "0.60.1"));
    assert_eq!(found(&home, &[("NVM_DIR", nvm_dir.display().to_string())], "gemini-cli")[0], ("0.60.1".to_string(), "nvm"));
    let qwen = "@qwen-code/qwen-code";
    write(&home.join(".local/share/fnm/node-versions/v22.0.0/installation/lib/node_modules").join(qwen).join("package.json"), manifest(qwen, "0.25.0"));
    assert_eq!(found(&home, &[], "qwen-code"), [("0.25.0".to_string(), "fnm")]);
    let kimi = "@moonshot-ai/kimi-code";
    write(&home.join(".volta/tools/image/packages").join(kimi).join("lib/node_modules").join(kimi).join("package.json"), manifest(kimi, "2.2.0"));
    assert_eq!(found(&home, &[], "kimi-code"), [("2.2.0".to_string(), "Volta")]);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn homebrew_kegs_name_their_release() {
    let tmp = scratch("brew");
    let home = tmp.join("home");
    let brew = tmp.join("homebrew");
    std::fs::create_dir_all(brew.join("Cellar/gemini-cli/0.62.0_1")).unwrap();
    let env = [("HOMEBREW_PREFIX", brew.display().to_string())];
    assert_eq!(found(&home, &env, "gemini-cli"), [("0.62.0".to_string(), "Homebrew")]);
    // With two kegs, the linked one is the one in use.
    std::fs::create_dir_all(brew.join("Cellar/gemini-cli/0.63.0")).unwrap();
    assert_eq!(found(&home, &env, "gemini-cli")[0].0, "0.63.0");
    std::fs::create_dir_all(brew.join("opt")).unwrap();
    std::os::unix::fs::symlink(brew.join("Cellar/gemini-cli/0.62.0_1"), brew.join("opt/gemini-cli")).unwrap();
    assert_eq!(found(&home, &env, "gemini-cli")[0].0, "0.62.0");
    // Casks, and a prefix found from the `brew` on PATH.
    let other = tmp.join("linuxbrew");
    write(&other.join("bin/brew"), "");
    std::fs::create_dir_all(other.join("Caskroom/claude-code/2.1.341")).unwrap();
    std::fs::create_dir_all(other.join("Caskroom/claude-code/not-a-version")).unwrap();
    let env = [("PATH", other.join("bin").display().to_string())];
    assert_eq!(found(&home, &env, "claude-code"), [("2.1.341".to_string(), "Homebrew")]);
    std::fs::remove_dir_all(&tmp).unwrap();
}

fn metadata(name: &str, version: &str) -> String {
    format!("Metadata-Version: 2.4\nName: {name}\nVersion: {version}\nSummary: x\n\nVersion: 9.9.9 (the description, not a header)\n")
}

#[test]
fn pipx_and_uv_tool_environments_hold_python_tools() {
    let tmp = scratch("pipx");
    let home = tmp.join("home");
    let site = home.join(".local/pipx/venvs/tsugite-cli/lib/python3.12/site-packages");
    write(&site.join("tsugite_cli-0.26.0.dist-info/METADATA"), metadata("tsugite-cli", "0.26.0"));
    assert_eq!(found(&home, &[], "tsugite"), [("0.26.0".to_string(), "pipx")]);
    let pipx_home = tmp.join("pipx-home");
    write(
        &pipx_home.join("venvs/openhands/lib/python3.12/site-packages/openhands_sdk-1.58.2.dist-info/METADATA"),
        metadata("openhands-sdk", "1.58.2"),
    );
    assert_eq!(found(&home, &[("PIPX_HOME", pipx_home.display().to_string())], "openhands"), [("1.58.2".to_string(), "pipx")]);
    let uv = tmp.join("uv-tools");
    write(
        &uv.join("fast-agent-mcp/lib/python3.13/site-packages/fast_agent_mcp-0.10.50.dist-info/METADATA"),
        metadata("fast-agent-mcp", "0.10.50"),
    );
    assert_eq!(found(&home, &[("UV_TOOL_DIR", uv.display().to_string())], "fast-agent"), [("0.10.50".to_string(), "uv tool")]);
    write(
        &home.join(".local/share/uv/tools/kimi-cli/lib/python3.13/site-packages/kimi_cli-1.53.0.dist-info/METADATA"),
        metadata("kimi-cli", "1.53.0"),
    );
    assert_eq!(found(&home, &[], "kimi"), [("1.53.0".to_string(), "uv tool")]);
    // A METADATA naming another distribution, or with no usable version, is nothing.
    write(&site.join("tsugite_cli-0.26.0.dist-info/METADATA"), metadata("other", "0.26.0"));
    assert!(found(&home, &[], "tsugite").is_empty());
    write(&site.join("tsugite_cli-0.26.0.dist-info/METADATA"), b"Name: tsugite-cli\nVersion: \x1b[31m\xff\n");
    assert!(found(&home, &[], "tsugite").is_empty());
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn claude_codes_own_install_folders_and_the_command_on_path() {
    let tmp = scratch("claude-native");
    let home = tmp.join("home");
    let versions = home.join(".local/share/claude/versions");
    for v in ["2.1.330", "2.1.340", ".2.1.399.lock"] {
        write(&versions.join(v), "binary");
    }
    assert_eq!(found(&home, &[], "claude-code"), [("2.1.340".to_string(), "own installer")]);
    // The command on PATH goes first, and the release it links to is the one run.
    let bin = home.join(".local/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(versions.join("2.1.330"), bin.join("claude")).unwrap();
    let env = [("PATH", bin.display().to_string())];
    assert_eq!(found(&home, &env, "claude-code"), [("2.1.330".to_string(), "command on PATH"), ("2.1.340".to_string(), "own installer")]);
    std::fs::remove_dir_all(&versions).unwrap();
    std::fs::remove_file(bin.join("claude")).unwrap();
    write(&home.join(".claude/local/node_modules").join(CLAUDE).join("package.json"), manifest(CLAUDE, "2.1.339"));
    assert_eq!(found(&home, &[], "claude-code"), [("2.1.339".to_string(), "own installer")]);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn hostile_package_json_files_are_no_install_and_no_crash() {
    let tmp = scratch("hostile");
    let home = tmp.join("home");
    let prefix = tmp.join("prefix");
    let file = prefix.join("lib/node_modules").join(CLAUDE).join("package.json");
    let env = [("NPM_CONFIG_PREFIX", prefix.display().to_string())];
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let huge = format!("{{\"name\":\"{CLAUDE}\",\"version\":\"2.1.340\",\"x\":\"{}\"}}", "a".repeat(5 * 1024 * 1024));
    let hostile: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"{not json".to_vec(),
        b"\xff\xfe\x00{\"name\"".to_vec(),
        b"[\"@anthropic-ai/claude-code\", \"2.1.340\"]".to_vec(),
        format!("{{\"name\":\"{CLAUDE}\",\"version\":2.1}}").into_bytes(),
        format!("{{\"name\":\"{CLAUDE}\",\"version\":\"2.1.340\\n\\u001b[31mred\"}}").into_bytes(),
        format!("{{\"name\":\"{CLAUDE}\",\"version\":\"{}\"}}", "1.".repeat(100)).into_bytes(),
        manifest("@anthropic-ai/claude-code-impostor", "2.1.340").into_bytes(),
        format!("{{\"version\":\"2.1.340\"}}").into_bytes(),
        deep.into_bytes(),
        huge.into_bytes(),
    ];
    for bytes in hostile {
        write(&file, &bytes);
        assert!(found(&home, &env, "claude-code").is_empty(), "{:?}", String::from_utf8_lossy(&bytes[..bytes.len().min(80)]));
    }
    // A folder where the manifest should be is no install either (a FIFO: tests/releases.rs).
    std::fs::remove_file(&file).unwrap();
    std::fs::create_dir_all(&file).unwrap();
    assert!(found(&home, &env, "claude-code").is_empty());
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn only_release_numbers_are_versions() {
    for good in ["2.1.337", "0.171.0", "1.0.0-beta.3", "1.2.3+build.7", "10.0"] {
        assert!(is_version(good), "{good}");
    }
    for bad in ["", "latest", "v2.1.0", "2", "2.1.0\n", "2.1.0 ", "2.1.0\u{1b}", "２.1.0", &"1.".repeat(40)] {
        assert!(!is_version(bad), "{bad:?}");
    }
}

#[test]
fn every_reader_names_the_release_its_module_doc_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/frameworks");
    for f in agentry::frameworks::all() {
        let release = f.release().unwrap_or_else(|| panic!("{} names no release", f.id()));
        assert!(!release.packages().is_empty() && !release.commands.is_empty(), "{}", f.id());
        let doc = std::fs::read_to_string(root.join(f.id().replace('-', "_")).join("mod.rs")).unwrap();
        let first = doc.lines().next().unwrap_or("");
        assert!(first.contains(release.version), "{}: `{first}` does not name {}", f.id(), release.version);
    }
}
