//! Which Claude Code is installed, found without running it: the `claude` on `PATH`,
//! followed to its file, then its npm package's `package.json` (`version`) or the
//! native installer's `versions/<version>` file name.

use crate::discover::Hold;
use std::path::{Path, PathBuf};

use crate::frameworks::{LoadContext, RenderMode};

const PACKAGE: &str = "@anthropic-ai/claude-code";

/// The installed release and the file it was read from, when one is found.
pub fn installed(cx: &LoadContext) -> Option<(String, PathBuf)> {
    // The resolution report never depends on the machine.
    if cx.render == RenderMode::Export {
        return None;
    }
    let path = cx.env.get("PATH")?;
    for dir in std::env::split_paths(path) {
        let candidate = dir.join("claude");
        if !cx.files.is_file(&candidate) {
            continue;
        }
        let real = cx.files.canonicalize(&candidate)?;
        return version_of(cx, &real).map(|v| (v, real));
    }
    None
}

fn version_of(cx: &LoadContext, real: &Path) -> Option<String> {
    // The native installer keeps each release as `…/versions/<version>`.
    if real.parent().and_then(Path::file_name).is_some_and(|n| n == "versions") {
        return real.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    for dir in real.ancestors().skip(1).take(6) {
        let Ok(bytes) = cx.files.read(&dir.join("package.json"), Hold::Kept) else { continue };
        let Ok(json) = serde_json::from_slice::<serde_json::Value>(&bytes) else { continue };
        if json["name"] == PACKAGE {
            return json["version"].as_str().map(str::to_string);
        }
    }
    None
}
