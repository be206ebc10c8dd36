//! Views across frameworks, built from the catalog and the places each report
//! declares ([`crate::model::Place`]), never from a framework's own code: `why` (near
//! misses of a name), `check` (findings and the CI gate), `file` (one file as every
//! tool reads it). Free of terminal code; the command line and the explorer render
//! these types.

pub mod bytes;
pub mod check;
pub mod file;
pub mod hook;
pub mod places;
pub mod walk;
pub mod why;

use std::path::Path;

use crate::model::Roots;

/// A path as people read it, the one way every view prints one: normalised first (no
/// `.` or `..` part), below the project relative to it (`.` for the project itself),
/// below home as `~/…`, else absolute. A relative path whose first part is a literal
/// `~` (a folder a framework did not expand) is written `./~/…`, never read as home.
pub fn shown(path: &Path, roots: &Roots) -> String {
    let path = crate::model::normalize(path);
    let project = crate::model::normalize(&roots.project);
    let home = crate::model::normalize(&roots.home);
    // The nearer root names it (a project inside home is relative to the project).
    if let Ok(rel) = path.strip_prefix(&project) {
        let rel = crate::model::posix(rel);
        return if rel.is_empty() {
            ".".into()
        } else if rel == "~" || rel.starts_with("~/") {
            format!("./{rel}")
        } else {
            rel
        };
    }
    if let Ok(rel) = path.strip_prefix(&home) {
        let rel = crate::model::posix(rel);
        return if rel.is_empty() { "~".into() } else { format!("~/{rel}") };
    }
    crate::model::posix(&path)
}

#[cfg(test)]
mod shown_tests {
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
}
