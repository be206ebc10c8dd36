//! How agentry writes paths: lexical normalisation, `/`-separated text, a path
//! relative to another, and the one way every view shows a path to people
//! ([`shown`]); plus Python's `Path.suffix` and `Path.stem` of a file name.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use super::Roots;

/// Lexical normalisation (`os.path.normpath` of an absolute path): `.` dropped, `..`
/// folded, symlinks kept.
pub fn normalize(path: &Path) -> PathBuf {
    normalized(path).into_owned()
}

/// [`normalize`] without a copy when `path` is already normal: absolute, no `.` or
/// `..` part, no doubled or trailing `/`.
pub fn normalized(path: &Path) -> Cow<'_, Path> {
    if is_normal(path) {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(normalize_slow(path))
    }
}

/// Absolute, and no part is empty, `.` or `..`: no `//`, no trailing `/`, and no `/.`
/// starting a part of dots only. Found with prebuilt SIMD searchers (a byte loop was
/// most of the cost): most paths a load asks about are normal, and this is asked of
/// each of them several times.
pub(crate) fn is_normal(path: &Path) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static DOUBLE_SLASH: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"//"));
    static SLASH_DOT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"/."));
    let bytes = path.as_os_str().as_encoded_bytes();
    match bytes {
        [b'/'] => true,
        [b'/', .., last] => {
            *last != b'/'
                && DOUBLE_SLASH.find(bytes).is_none()
                && SLASH_DOT
                    .find_iter(bytes)
                    .all(|at| !matches!(&bytes[at + 2..], [] | [b'/', ..] | [b'.'] | [b'.', b'/', ..]))
        }
        _ => false,
    }
}

#[cfg(unix)]
fn normalize_slow(path: &Path) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    if !path.is_absolute() {
        return normalize_components(path);
    }
    // Byte by byte: paths joined with `..` (Kimi's `extend`, subagent paths) come
    // here once per definition per load.
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    for part in bytes.split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                let cut = out.iter().rposition(|&b| b == b'/').unwrap_or(0);
                out.truncate(cut);
            }
            _ => {
                out.push(b'/');
                out.extend_from_slice(part);
            }
        }
    }
    if out.is_empty() {
        out.push(b'/');
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

#[cfg(not(unix))]
fn normalize_slow(path: &Path) -> PathBuf {
    normalize_components(path)
}

fn normalize_components(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map(|cwd| cwd.join(path)).unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A path written with `/` separators, as the reports print it.
pub fn posix(path: &Path) -> String {
    // A path with only normal parts is already written that way.
    let bytes = path.as_os_str().as_encoded_bytes();
    let plain = !bytes.is_empty()
        && bytes.split(|&b| b == b'/').enumerate().all(|(i, part)| (i == 0 && part.is_empty()) || (!part.is_empty() && part != b"." && part != b".."));
    if plain {
        if let Some(text) = path.to_str() {
            return text.to_string();
        }
    }
    posix_components(path)
}

/// [`posix`] part by part (any path).
fn posix_components(path: &Path) -> String {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            Component::ParentDir => Some("..".into()),
            Component::RootDir => Some(String::new()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// `os.path.relpath(path, base)` for two normalised absolute paths.
pub fn relative_to(path: &Path, base: &Path) -> String {
    let p: Vec<_> = path.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); b.len() - common];
    parts.extend(p[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// A path as people read it, the one way every view prints one: normalised first (no
/// `.` or `..` part), below the project relative to it (`.` for the project itself),
/// below home as `~/…`, else absolute. A relative path whose first part is a literal
/// `~` (a folder a framework did not expand) is written `./~/…`, never read as home.
pub fn shown(path: &Path, roots: &Roots) -> String {
    let path = normalize(path);
    let project = normalize(&roots.project);
    let home = normalize(&roots.home);
    // The nearer root names it (a project inside home is relative to the project).
    if let Ok(rel) = path.strip_prefix(&project) {
        let rel = posix(rel);
        return if rel.is_empty() {
            ".".into()
        } else if rel == "~" || rel.starts_with("~/") {
            format!("./{rel}")
        } else {
            rel
        };
    }
    if let Ok(rel) = path.strip_prefix(&home) {
        let rel = posix(rel);
        return if rel.is_empty() { "~".into() } else { format!("~/{rel}") };
    }
    posix(&path)
}

/// Python's `Path.suffix`: the last `.xxx` of the name, empty for names without one or
/// consisting only of a leading dot (`.md` has no suffix).
pub fn suffix(name: &str) -> &str {
    match name.rfind('.') {
        Some(0) | None => "",
        Some(i) if i + 1 == name.len() => "",
        Some(i) => &name[i..],
    }
}

/// Python's `Path.stem`: the name minus its suffix.
pub fn stem(name: &str) -> &str {
    &name[..name.len() - suffix(name).len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_prints_below_the_project_or_home_without_dots_and_a_literal_tilde_stays_literal() {
        let roots = Roots::new("/h/work/p".into(), "/h".into(), "/h/.config".into(), None);
        let shown = |p: &str| shown(Path::new(p), &roots);
        assert_eq!(shown("/h/work/p"), ".");
        assert_eq!(shown("/h/work/p/a/../b.md"), "b.md");
        assert_eq!(shown("/h/work/p/../q/x.yaml"), "~/work/q/x.yaml");
        assert_eq!(shown("/h/work/p/../../.claude/agents/a.md"), "~/.claude/agents/a.md");
        assert_eq!(shown("/h"), "~");
        assert_eq!(shown("/elsewhere/./x/../y.md"), "/elsewhere/y.md");
        // A folder called `~` that a tool did not expand is not the home folder.
        assert_eq!(shown("/h/work/p/~/x.md"), "./~/x.md");
        assert_eq!(shown("/h/work/p/a/~/x.md"), "a/~/x.md");
        for p in ["/h/work/p/../../../etc/x", "/h/./work/../x"] {
            assert!(!shown(p).contains(".."), "{p}: {}", shown(p));
        }
    }

    #[test]
    fn suffix_and_stem_follow_pathlib() {
        assert_eq!(suffix("a.md"), ".md");
        assert_eq!(suffix(".md"), "");
        assert_eq!(suffix("a."), "");
        assert_eq!(suffix("double.md.md"), ".md");
        assert_eq!(stem("double.md.md"), "double.md");
        assert_eq!(stem(".secret.md"), ".secret");
        assert_eq!(stem("noext"), "noext");
    }

    #[test]
    fn normalising_and_posix_paths_take_the_short_way_only_when_it_gives_the_same() {
        for p in ["/", "/a", "/a/b.md", "/a//b", "/a/b/", "/a/./b", "/a/../b", "/a/b/..", "/.", "/..", "/a/.b/..c", "/a/../../b", "//a/./../c/"] {
            let slow = normalize_components(Path::new(p));
            assert_eq!(normalize_slow(Path::new(p)), slow, "{p}");
            assert_eq!(normalized(Path::new(p)).as_ref(), slow.as_path(), "{p}");
            assert_eq!(normalized(Path::new(p)).as_os_str().len(), slow.as_os_str().len(), "{p}");
        }
        for p in ["/a/b", "a/b", "a", "/", "a//b", "a/./b", "./a", "../a", "a/..", "a/"] {
            let slow = posix_components(Path::new(p));
            assert_eq!(posix(Path::new(p)), slow, "{p}");
        }
    }

    #[test]
    fn is_normal_finds_every_empty_dot_and_dot_dot_part() {
        let by_parts = |p: &str| p.starts_with('/') && (p == "/" || p[1..].split('/').all(|part| !["", ".", ".."].contains(&part)));
        let paths = [
            "/", "//", "/a", "/a/", "/a//b", "/.", "/..", "/a/.", "/a/..", "/a/./b", "/a/../b", "/.a", "/..a", "/a.",
            "/a..", "/a/.b/..c", "/a/b.", "a", "", "./a", "/.../a", "/a/...",
        ];
        for path in paths {
            assert_eq!(is_normal(Path::new(path)), by_parts(path), "{path}");
        }
    }
}
