//! Build script: carries the demo workspace (`assets/demo/`) inside the binary, so
//! `agentry --demo` works from an installed copy with no source tree.
//!
//! Writes `$OUT_DIR/demo_files.rs`: one `(relative path, bytes)` per file, each
//! `include_bytes!`d; symlinks are carried as `(relative path, target)`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    // A folder here makes cargo rerun this script when anything below it changes.
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    let mut links = Vec::new();
    walk(&root, &root, &mut files, &mut links);
    files.sort();
    links.sort();
    let mut out = String::from("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in &files {
        let _ = writeln!(out, "    ({rel:?}, include_bytes!({:?})),", abs.display().to_string());
    }
    out.push_str("];\npub static LINKS: &[(&str, &str)] = &[\n");
    for (rel, target) in &links {
        let _ = writeln!(out, "    ({rel:?}, {target:?}),");
    }
    out.push_str("];\n");
    // A digest of the whole demo, stable across builds and runs: it names the folder
    // the demo is laid out in, so another demo never reuses it.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (rel, abs) in &files {
        feed(rel.as_bytes());
        feed(&[0]);
        feed(&std::fs::read(abs).expect("read demo file"));
        feed(&[0]);
    }
    for (rel, target) in &links {
        feed(rel.as_bytes());
        feed(&[1]);
        feed(target.as_bytes());
    }
    let _ = writeln!(out, "pub static DIGEST: &str = \"{hash:016x}-{}\";", env!("CARGO_PKG_VERSION"));
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("demo_files.rs");
    std::fs::write(dest, out).expect("write demo_files.rs");
}

fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>, links: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let rel = path.strip_prefix(root).expect("below root").to_string_lossy().replace('\\', "/");
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_symlink() {
            if let Ok(target) = std::fs::read_link(&path) {
                links.push((rel, target.to_string_lossy().into_owned()));
            }
        } else if kind.is_dir() {
            walk(root, &path, files, links);
        } else if kind.is_file() {
            files.push((rel, path));
        }
    }
}
