//! Views across frameworks, built from the catalog and the places each report
//! declares ([`crate::model::Place`]), never from a framework's own code: `why` (near
//! misses of a name), `check` (findings and the CI gate), `file` (one file as every
//! tool reads it), `refusal` (a tool that does not start because of one file). Free
//! of terminal code; the command line and the explorer render these types.

pub mod bytes;
pub mod check;
pub mod ci;
pub mod file;
pub mod folder;
pub mod hook;
pub mod listing;
pub mod places;
pub mod refusal;
pub mod walk;
pub mod why;

// The one way a view prints a path; it lives with the paths (`model`), as readers
// name paths in their messages the same way.
pub use crate::model::shown;

use crate::model::Roots;

/// A message quoted from a tool, with the workspace's absolute paths written as
/// every view writes them: the project's relative, home's `~/…`.
pub fn quoted(message: &str, roots: &Roots) -> String {
    let project = crate::model::posix(&crate::model::normalize(&roots.project));
    let home = crate::model::posix(&crate::model::normalize(&roots.home));
    let mut out = message.to_string();
    // The longer root first: a project inside home is named from the project.
    let mut bases = [(project, ""), (home, "~/")];
    bases.sort_by_key(|(b, _)| std::cmp::Reverse(b.len()));
    for (base, short) in bases {
        if base.len() <= 1 {
            continue;
        }
        out = out.replace(&format!("{base}/"), short);
        if short.is_empty() {
            out = replace_whole(&out, &base, ".");
        } else {
            out = replace_whole(&out, &base, "~");
        }
    }
    out
}

/// `text` with `word` replaced by `by` where it is not followed by a path character
/// (the root itself, not a sibling folder whose name starts like it).
fn replace_whole(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let after = &rest[i + word.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_alphanumeric() || "-_.".contains(c)) {
            out.push_str(word);
        } else {
            out.push_str(by);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod quoted_tests {
    use super::*;

    #[test]
    fn a_quoted_message_names_the_workspace_as_the_views_do() {
        let roots = Roots::new("/h/work/p".into(), "/h".into(), "/h/.config".into(), None);
        assert_eq!(
            quoted("Failed to load agent from /h/work/p/.gemini/a.md and /h/.x (in /h/work/p; not /h/work/px)", &roots),
            "Failed to load agent from .gemini/a.md and ~/.x (in .; not ~/work/px)"
        );
    }
}
