//! A rendered text kept as pieces: runs of its lines that its file holds verbatim,
//! in order, kept as places in the file, and the rest (what a substitution or a
//! template put there) held. A rendered prompt is mostly its template's own lines.

use std::path::Path;
use std::sync::Arc;

use super::{digest, TextError};

/// Lines at least this long are looked for further on in the file; a shorter one is
/// kept on disk only where it follows the previous run directly, as a new run for a
/// few bytes would cost more than holding them.
const SEARCHED_LINE: usize = 2 * std::mem::size_of::<Piece>();

pub(super) struct Pieces {
    file: Arc<Path>,
    pub(super) len: usize,
    pub(super) digest: u128,
    parts: Box<[Piece]>,
}

enum Piece {
    /// Bytes `start..start + len` of the file.
    InFile { start: u64, len: u64 },
    Held(Box<str>),
}

/// A run of a text's lines while it is split: `(start, len)` of one found in the
/// file, or the lines themselves.
enum Run {
    InFile(usize, usize),
    Held(String),
}

/// What a text splits into: one run of its file (kept as a plain slice), or pieces.
pub(super) enum Split {
    Slice { start: usize },
    Pieces(Pieces),
}

/// `text` as pieces of `file`, whose bytes from `base` on are `bytes`, when keeping
/// them saves memory over holding it.
pub(super) fn split(file: &Path, base: usize, bytes: &[u8], text: &str) -> Option<Split> {
    let mut runs: Vec<Run> = Vec::new();
    // Where in `bytes` the previous line found there ends: lines are found in order.
    let mut cursor = 0;
    for line in text.split_inclusive('\n') {
        let rest = &bytes[cursor..];
        let found = if rest.starts_with(line.as_bytes()) {
            Some(cursor)
        } else if line.len() >= SEARCHED_LINE {
            memchr::memmem::find(rest, line.as_bytes()).map(|at| cursor + at)
        } else {
            None
        };
        match (found, runs.last_mut()) {
            (Some(at), Some(Run::InFile(start, len))) if *start + *len == at => *len += line.len(),
            (Some(at), _) => runs.push(Run::InFile(at, line.len())),
            (None, Some(Run::Held(held))) => held.push_str(line),
            (None, _) => runs.push(Run::Held(line.to_string())),
        }
        if let Some(at) = found {
            cursor = at + line.len();
        }
    }
    if let [Run::InFile(start, _)] = runs[..] {
        return Some(Split::Slice { start: base + start });
    }
    let held: usize = runs.iter().map(|r| if let Run::Held(s) = r { s.len() } else { 0 }).sum();
    let kept = std::mem::size_of::<Pieces>() + runs.len() * std::mem::size_of::<Piece>() + held;
    if kept >= text.len() {
        return None;
    }
    let parts = runs
        .into_iter()
        .map(|r| match r {
            Run::InFile(start, len) => Piece::InFile { start: (base + start) as u64, len: len as u64 },
            Run::Held(s) => Piece::Held(s.into_boxed_str()),
        })
        .collect();
    Some(Split::Pieces(Pieces { file: file.into(), len: text.len(), digest: digest(text.as_bytes()), parts }))
}

impl Pieces {
    /// The text put together again from the file as it is now, checked against what
    /// was loaded.
    pub(super) fn read(&self) -> Result<String, TextError> {
        let bytes = std::fs::read(&self.file).map_err(|e| TextError::Unreadable(self.file.to_path_buf(), e.to_string()))?;
        let changed = || TextError::Changed(self.file.to_path_buf());
        let mut text = Vec::with_capacity(self.len);
        for part in self.parts.iter() {
            match part {
                Piece::InFile { start, len } => {
                    let range = usize::try_from(*start).ok().zip(usize::try_from(start + len).ok());
                    let run = range.and_then(|(from, to)| bytes.get(from..to)).ok_or_else(changed)?;
                    text.extend_from_slice(run);
                }
                Piece::Held(s) => text.extend_from_slice(s.as_bytes()),
            }
        }
        if text.len() != self.len || digest(&text) != self.digest {
            return Err(changed());
        }
        String::from_utf8(text).map_err(|_| changed())
    }

    pub(super) fn describe(&self) -> String {
        let held = self.parts.iter().filter(|p| matches!(p, Piece::Held(_))).count();
        format!("{}[{} pieces, {held} held; {} bytes]", self.file.display(), self.parts.len(), self.len)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::{Text, TextForm};
    use super::*;

    const TEMPLATE: &str = "You review pull requests for the team that owns this repository.\n\
        Working directory: ${KIMI_WORK_DIR}\n\
        \n\
        Be brief, be kind, and say what to change and why, with the lines it concerns.\n\
        Never approve a change that has no test when it changes behaviour in any way.\n";

    fn rendered() -> String {
        TEMPLATE.replace("${KIMI_WORK_DIR}", "/home/someone/projects/agentry")
    }

    fn in_pieces(name: &str, contents: &str, text: &str) -> (PathBuf, Text) {
        let dir = std::env::temp_dir().join(format!("agentry-pieces-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("system.md");
        std::fs::write(&path, contents).unwrap();
        let text = Text::from_rendering(TextForm::OnDisk, &path, contents.as_bytes(), text);
        (path, text)
    }

    #[test]
    fn a_rendered_text_keeps_its_template_lines_on_disk_and_reads_back_equal() {
        let text = rendered();
        let (path, kept) = in_pieces("built", TEMPLATE, &text);
        assert!(kept.as_held().is_none());
        assert!(format!("{kept:?}").contains("3 pieces, 1 held"), "{kept:?}");
        assert_eq!(kept.len(), text.len());
        assert_eq!(kept, Text::held(text.as_str()));
        assert_eq!(kept.read().unwrap(), text);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn lines_are_found_further_on_but_not_again() {
        // The first line is skipped by the template, the last one repeated.
        let last = TEMPLATE.lines().last().unwrap();
        let text = format!("{}{last}\n", &TEMPLATE[TEMPLATE.find('\n').unwrap() + 1..]);
        let (path, kept) = in_pieces("skipped", TEMPLATE, &text);
        assert!(kept.as_held().is_none());
        assert_eq!(kept.read().unwrap(), text);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_verbatim_rendering_is_a_slice_and_a_mostly_new_one_is_held() {
        let (path, verbatim) = in_pieces("slice", TEMPLATE, &TEMPLATE[1..]);
        assert!(format!("{verbatim:?}").ends_with(&format!("[1..+{}]", TEMPLATE.len() - 1)), "{verbatim:?}");
        let new = "Nothing of this is in the file, line after line after line.\n".repeat(3);
        let (_, held) = in_pieces("held", TEMPLATE, &new);
        assert_eq!(held.as_held(), Some(new.as_str()));
        let crlf = TEMPLATE.replace('\n', "\r\n");
        let (_, translated) = in_pieces("crlf", &crlf, &rendered());
        assert!(translated.as_held().is_some());
        assert!(Text::from_rendering(TextForm::Held, &path, TEMPLATE.as_bytes(), &rendered()).as_held().is_some());
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_changed_file_is_an_error_not_a_wrong_text() {
        let (path, kept) = in_pieces("changed", TEMPLATE, &rendered());
        std::fs::write(&path, TEMPLATE.replace("brief", "terse")).unwrap();
        assert_eq!(kept.read().unwrap_err(), TextError::Changed(path.clone()));
        std::fs::write(&path, &TEMPLATE[..40]).unwrap();
        assert_eq!(kept.read().unwrap_err(), TextError::Changed(path.clone()));
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(kept.read().unwrap_err(), TextError::Unreadable(..)));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
