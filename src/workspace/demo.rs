//! The demo workspace, carried inside the binary (`src/build.rs`) and laid out on
//! first use in the user's cache folder, so `--demo` needs no source tree.

use std::io;
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));
}

/// The demo's folder (`project/`, `home/`, `venv/`), written once per content: a
/// folder named by a digest of the demo is complete when its marker exists, so a
/// binary with another demo never reuses it, and an interrupted copy is redone.
pub fn folder() -> io::Result<PathBuf> {
    let base = cache_base().join("agentry");
    let dir = base.join(format!("demo-{}", embedded::DIGEST));
    if dir.join(MARKER).is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&base)?;
    let staging = base.join(format!(".demo-{}-{}", std::process::id(), embedded::DIGEST));
    let _ = std::fs::remove_dir_all(&staging);
    write_all(&staging)?;
    match std::fs::rename(&staging, &dir) {
        Ok(()) => Ok(dir),
        // Another agentry laid it out at the same moment: theirs is as good.
        Err(_) if dir.join(MARKER).is_file() => {
            let _ = std::fs::remove_dir_all(&staging);
            Ok(dir)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            Err(e)
        }
    }
}

const MARKER: &str = ".agentry-demo-complete";

/// `$XDG_CACHE_HOME`, else `~/.cache`, else the temporary folder: a folder of the
/// user's own, never a shared one where another user could plant links.
fn cache_base() -> PathBuf {
    let from = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from);
    from("XDG_CACHE_HOME")
        .or_else(|| from("HOME").map(|h| h.join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
}

fn write_all(root: &Path) -> io::Result<()> {
    for sub in ["project", "home"] {
        std::fs::create_dir_all(root.join(sub))?;
    }
    for (rel, bytes) in embedded::FILES {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
    }
    #[cfg(unix)]
    for (rel, target) in embedded::LINKS {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::os::unix::fs::symlink(target, &path)?;
    }
    std::fs::write(root.join(MARKER), b"")
}

#[cfg(test)]
mod tests {
    /// The embedded demo is the source tree's `assets/demo`, file for file.
    #[test]
    fn the_embedded_demo_is_the_source_tree_demo() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
        assert!(super::embedded::FILES.len() > 10);
        for (rel, bytes) in super::embedded::FILES {
            assert_eq!(std::fs::read(src.join(rel)).expect("in the source tree"), *bytes, "{rel}");
        }
    }
}
