//! A rendered text kept as pieces: runs of its lines that its file holds verbatim,
//! in order, kept as places in the file, and the rest (what a substitution or a
//! template put there) held. A rendered prompt is mostly its template's own lines.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::{digest, TextError};

/// Lines at least this long are looked for further on in the files; a shorter one
/// is kept on disk only where it follows the previous run directly (or starts the
/// next file's part), as a new run for a few bytes would cost more than holding them.
const SEARCHED_LINE: usize = 2 * std::mem::size_of::<Piece>();

/// A part of a file a text was rendered from: the file's bytes from `start` on.
#[derive(Clone, Copy)]
pub struct Part<'a> {
    pub file: &'a Path,
    pub start: usize,
    pub bytes: &'a [u8],
}

pub(super) struct Pieces {
    files: Box<[Arc<Path>]>,
    pub(super) len: usize,
    pub(super) digest: u128,
    pieces: Box<[Piece]>,
}

enum Piece {
    /// Bytes `start..start + len` of `files[file]`.
    InFile { file: u32, len: u32, start: u64 },
    Held(Box<str>),
}

/// A run of a text's lines while it is split: found in a part, at `start` of its
/// bytes, or not found.
enum Run {
    InPart { part: usize, start: usize, len: usize },
    Held(String),
}

/// What a text splits into: one run of a file (kept as a plain slice), or pieces.
pub(super) enum Split<'a> {
    Slice { file: &'a Path, start: usize },
    Pieces(Pieces),
}

/// `text` as pieces of `parts`, in whose order its lines are looked for (the last
/// being the file the text is for), when keeping them saves memory over holding it.
pub(super) fn split<'a>(parts: &[Part<'a>], text: &str) -> Option<Split<'a>> {
    if u32::try_from(text.len()).is_err() || u32::try_from(parts.len()).is_err() {
        return None;
    }
    let mut runs: Vec<Run> = Vec::new();
    // Just after the previous line found: the part and where in its bytes.
    let mut cursor = (0, 0);
    let mut lines = None;
    let count = text.split_inclusive('\n').count();
    for (n, line) in text.split_inclusive('\n').enumerate() {
        // A trimmed rendering starts or ends inside a line of its file.
        let inside = n == 0 || n + 1 == count;
        let found = find(parts, cursor, line.as_bytes(), inside, &mut lines);
        match (found, runs.last_mut()) {
            (Some((part, at)), Some(Run::InPart { part: p, start, len })) if *p == part && *start + *len == at => {
                *len += line.len()
            }
            (Some((part, at)), _) => runs.push(Run::InPart { part, start: at, len: line.len() }),
            (None, Some(Run::Held(held))) => held.push_str(line),
            (None, _) => runs.push(Run::Held(line.to_string())),
        }
        if let Some((part, at)) = found {
            cursor = (part, at + line.len());
        }
    }
    if let [Run::InPart { part, start, .. }] = runs[..] {
        return Some(Split::Slice { file: parts[part].file, start: parts[part].start + start });
    }
    let held: usize = runs.iter().map(|r| if let Run::Held(s) = r { s.len() } else { 0 }).sum();
    let kept = std::mem::size_of::<Pieces>()
        + parts.len() * std::mem::size_of::<Arc<Path>>()
        + runs.len() * std::mem::size_of::<Piece>()
        + held;
    if kept >= text.len() {
        return None;
    }
    let pieces = runs
        .into_iter()
        .map(|r| match r {
            Run::InPart { part, start, len } => {
                Piece::InFile { file: part as u32, len: len as u32, start: (parts[part].start + start) as u64 }
            }
            Run::Held(s) => Piece::Held(s.into_boxed_str()),
        })
        .collect();
    let files = parts.iter().map(|p| crate::store::shared_path(p.file)).collect();
    Some(Split::Pieces(Pieces { files, len: text.len(), digest: digest(text.as_bytes()), pieces }))
}

/// Where `line` is, at or after `cursor` (a part and a place in its bytes): right at
/// the cursor, at the start of the next part, or, for a long line, further on: at the
/// start of a line (`lines`, made when first needed), or anywhere when it may be
/// `inside` one.
fn find(
    parts: &[Part],
    (part, at): (usize, usize),
    line: &[u8],
    inside: bool,
    lines: &mut Option<Lines>,
) -> Option<(usize, usize)> {
    let rest = parts.get(part).map_or(&[][..], |p| &p.bytes[at..]);
    if rest.starts_with(line) {
        return Some((part, at));
    }
    if parts.get(part + 1).is_some_and(|p| p.bytes.starts_with(line)) {
        return Some((part + 1, 0));
    }
    if line.len() < SEARCHED_LINE {
        return None;
    }
    if inside {
        let mut later = parts.iter().enumerate().skip(part).map(|(n, p)| (n, if n == part { at } else { 0 }, p.bytes));
        return later.find_map(|(n, from, bytes)| super::find(&bytes[from..], line).map(|i| (n, from + i)));
    }
    lines.get_or_insert_with(|| Lines::of(parts)).find(parts, (part, at), line)
}

/// The long lines of the parts by a hash of their text (without the line end), each
/// with where it starts: a rendered text's lines that a substitution changed are
/// looked for once each, not with a scan of every part.
struct Lines(HashMap<u64, Vec<(u32, u32)>, foldhash::fast::FixedState>);

impl Lines {
    fn of(parts: &[Part]) -> Lines {
        let mut map: HashMap<u64, Vec<(u32, u32)>, _> = HashMap::with_hasher(foldhash::fast::FixedState::default());
        for (n, part) in parts.iter().enumerate() {
            let mut start = 0;
            for line in part.bytes.split_inclusive(|&b| b == b'\n') {
                if line.len() >= SEARCHED_LINE {
                    // Parts and files are under 4 GiB (`split` checks the text; a file
                    // is read only below `MAX_FILE_BYTES`); a larger place is not kept.
                    if let (Ok(n), Ok(at)) = (u32::try_from(n), u32::try_from(start)) {
                        map.entry(line_hash(line)).or_default().push((n, at));
                    }
                }
                start += line.len();
            }
        }
        Lines(map)
    }

    /// The first start of a line holding `line` at or after `cursor`.
    fn find(&self, parts: &[Part], cursor: (usize, usize), line: &[u8]) -> Option<(usize, usize)> {
        let places = self.0.get(&line_hash(line))?;
        places
            .iter()
            .map(|&(n, at)| (n as usize, at as usize))
            .filter(|&place| place >= cursor)
            .find(|&(n, at)| parts[n].bytes[at..].starts_with(line))
    }
}

fn line_hash(line: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    const STATE: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0x6c69_6e65_7321);
    STATE.hash_one(line.strip_suffix(b"\n").unwrap_or(line))
}

impl Pieces {
    /// The text put together again from the files as they are now, checked against
    /// what was loaded.
    pub(super) fn read(&self) -> Result<String, TextError> {
        let mut contents: Vec<Option<Vec<u8>>> = vec![None; self.files.len()];
        let mut text = Vec::with_capacity(self.len);
        for piece in self.pieces.iter() {
            match piece {
                Piece::InFile { file, len, start } => {
                    let path = &self.files[*file as usize];
                    let bytes = match &mut contents[*file as usize] {
                        Some(bytes) => bytes,
                        unread => unread.insert(
                            std::fs::read(path).map_err(|e| TextError::Unreadable(path.to_path_buf(), e.to_string()))?,
                        ),
                    };
                    let from = usize::try_from(*start).ok();
                    let run = from.and_then(|from| bytes.get(from..from + *len as usize));
                    text.extend_from_slice(run.ok_or_else(|| TextError::Changed(path.to_path_buf()))?);
                }
                Piece::Held(s) => text.extend_from_slice(s.as_bytes()),
            }
        }
        if text.len() != self.len || digest(&text) != self.digest {
            return Err(self.changed());
        }
        String::from_utf8(text).map_err(|_| self.changed())
    }

    /// A text that no longer adds up names its last file: the one it was rendered
    /// for, the others being what that one builds on.
    fn changed(&self) -> TextError {
        TextError::Changed(self.files.last().map_or_else(Default::default, |f| f.to_path_buf()))
    }

    pub(super) fn describe(&self) -> String {
        let held = self.pieces.iter().filter(|p| matches!(p, Piece::Held(_))).count();
        let files: Vec<String> = self.files.iter().map(|f| f.display().to_string()).collect();
        format!("{}[{} pieces, {held} held; {} bytes]", files.join("+"), self.pieces.len(), self.len)
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
