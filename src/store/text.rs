//! A prompt or message text: held in memory, or left in the file that holds it
//! verbatim and read when it is shown. The explorer keeps most of a workspace's bytes
//! in its prompts, and shows one at a time. A rendered text is left there in pieces
//! ([`pieces`]): the lines its template holds verbatim.

mod pieces;

pub use pieces::Part;

use std::borrow::Cow;
use std::fmt;
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::{Serialize, Serializer};

/// How a load keeps the texts it finds verbatim in a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextForm {
    /// In memory: what the command line prints is never read twice.
    #[default]
    Held,
    /// As a place in the file, read when it is shown (the explorer).
    OnDisk,
}

/// A text of a definition (a system prompt, say).
#[derive(Clone)]
pub struct Text(Kept);

#[derive(Clone)]
enum Kept {
    Held(Arc<str>),
    OnDisk(Arc<Stored>),
    InPieces(Arc<pieces::Pieces>),
}

/// Where a text kept on disk is, and what it was when the snapshot was taken.
struct Stored {
    file: Arc<Path>,
    start: u64,
    len: usize,
    digest: u128,
}

/// Why a text kept on disk cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// The bytes at its place are not what was loaded.
    Changed(PathBuf),
    Unreadable(PathBuf, String),
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Changed(p) => {
                write!(f, "The file changed since this snapshot; the next refresh shows the new text ({}).", p.display())
            }
            TextError::Unreadable(p, e) => write!(f, "The file cannot be read ({}: {e}).", p.display()),
        }
    }
}

impl std::error::Error for TextError {}

impl Text {
    pub fn held(text: impl Into<Arc<str>>) -> Text {
        Text(Kept::Held(text.into()))
    }

    /// `text` in the form asked for. It is kept on disk only where `bytes`, the
    /// contents of `file`, hold it verbatim, and only when it is longer than the
    /// record of its place.
    pub fn from_file(form: TextForm, file: &Path, bytes: &[u8], text: &str) -> Text {
        if form == TextForm::Held || text.len() <= std::mem::size_of::<Stored>() {
            return Text::held(text);
        }
        let within = (text.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize);
        let start = match within.filter(|&at| at + text.len() <= bytes.len()) {
            Some(at) => Some(at),
            None => find(bytes, text.as_bytes()),
        };
        match start {
            Some(at) => Text::stored(file, at, text),
            None => Text::held(text),
        }
    }

    /// `text`, rendered from the file whose contents are `bytes`, in the form asked
    /// for. On disk, the lines `bytes` holds verbatim are left there and the rest
    /// held, when that takes less memory than holding it all.
    pub fn from_rendering(form: TextForm, file: &Path, bytes: &[u8], text: &str) -> Text {
        Text::from_rendering_of_parts(form, &[Part { file, start: 0, bytes }], text)
    }

    /// As [`Text::from_rendering`], rendered from parts of files (their lines in the
    /// text in the parts' order).
    pub fn from_rendering_of_parts(form: TextForm, parts: &[Part], text: &str) -> Text {
        if form == TextForm::Held || text.len() <= std::mem::size_of::<Stored>() {
            return Text::held(text);
        }
        match pieces::split(parts, text) {
            Some(pieces::Split::Slice { file, start }) => Text::stored(file, start, text),
            Some(pieces::Split::Pieces(p)) => Text(Kept::InPieces(Arc::new(p))),
            None => Text::held(text),
        }
    }

    fn stored(file: &Path, start: usize, text: &str) -> Text {
        Text(Kept::OnDisk(Arc::new(Stored {
            file: super::shared_path(file),
            start: start as u64,
            len: text.len(),
            digest: digest(text.as_bytes()),
        })))
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Kept::Held(s) => s.len(),
            Kept::OnDisk(s) => s.len,
            Kept::InPieces(p) => p.len,
        }
    }

    /// Length and digest, what texts compare by.
    fn measure(&self) -> (usize, u128) {
        match &self.0 {
            Kept::Held(s) => (s.len(), digest(s.as_bytes())),
            Kept::OnDisk(s) => (s.len, s.digest),
            Kept::InPieces(p) => (p.len, p.digest),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text, when it is in memory.
    pub fn as_held(&self) -> Option<&str> {
        match &self.0 {
            Kept::Held(s) => Some(s),
            Kept::OnDisk(_) | Kept::InPieces(_) => None,
        }
    }

    /// The text: borrowed when held, else read from its place in the file and checked
    /// against what was loaded.
    pub fn read(&self) -> Result<Cow<'_, str>, TextError> {
        match &self.0 {
            Kept::Held(s) => Ok(Cow::Borrowed(s)),
            Kept::OnDisk(s) => s.read().map(Cow::Owned),
            Kept::InPieces(p) => p.read().map(Cow::Owned),
        }
    }
}

impl Stored {
    fn read(&self) -> Result<String, TextError> {
        let unreadable = |e: std::io::Error| TextError::Unreadable(self.file.to_path_buf(), e.to_string());
        let mut file = File::open(&self.file).map_err(unreadable)?;
        file.seek(SeekFrom::Start(self.start)).map_err(unreadable)?;
        let mut bytes = Vec::with_capacity(self.len);
        file.take(self.len as u64).read_to_end(&mut bytes).map_err(unreadable)?;
        let changed = || TextError::Changed(self.file.to_path_buf());
        if bytes.len() != self.len || digest(&bytes) != self.digest {
            return Err(changed());
        }
        String::from_utf8(bytes).map_err(|_| changed())
    }
}

/// Two foldhash hashes under unrelated secrets and random seeds, fixed for the
/// process: a text read again is compared with what was loaded by length and this,
/// and a load may take two byte strings with the same digest to be the same. (A load
/// digests every prompt it keeps on disk: SipHash took a tenth of the explorer's load.)
pub fn digest(bytes: &[u8]) -> u128 {
    use foldhash::{quality::SeedableRandomState, SharedSeed};
    static OTHER_SECRETS: SharedSeed = SharedSeed::from_u64(0x6b69_6d69_6b65_7973);
    static SEEDS: OnceLock<(SeedableRandomState, SeedableRandomState)> = OnceLock::new();
    let (a, b) = SEEDS.get_or_init(|| {
        let seed = std::hash::RandomState::new().hash_one(0u8);
        (SeedableRandomState::random(), SeedableRandomState::with_seed(seed, &OTHER_SECRETS))
    });
    (u128::from(a.hash_one(bytes)) << 64) | u128::from(b.hash_one(bytes))
}

/// Where `needle` first occurs in `haystack`, as `memchr::memmem::find` says, mostly
/// without building a searcher for the whole needle: texts and lines are looked for
/// once each, and building one for a long needle cost more than the search. The
/// first few occurrences of a short prefix are checked in order; past those (a
/// repetitive file), the whole needle is searched for, so time stays linear.
pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    const PREFIX: usize = 16;
    const TRIES: usize = 4;
    if needle.len() <= PREFIX {
        return memchr::memmem::find(haystack, needle);
    }
    let last_start = haystack.len().checked_sub(needle.len())?;
    let starts = memchr::memmem::find_iter(&haystack[..last_start + PREFIX], &needle[..PREFIX]);
    for (tried, at) in starts.enumerate() {
        if haystack[at..].starts_with(needle) {
            return Some(at);
        }
        if tried + 1 == TRIES {
            let from = at + 1;
            return memchr::memmem::find(&haystack[from..], needle).map(|i| from + i);
        }
    }
    None
}

/// Held texts compare by content, texts on disk by length and digest; a held text is
/// digested to be compared with one on disk.
impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        match (&self.0, &other.0) {
            (Kept::Held(a), Kept::Held(b)) => a == b,
            _ => self.len() == other.len() && self.measure() == other.measure(),
        }
    }
}

impl Eq for Text {}

/// As [`PartialEq`] compares: by length and digest, so equal texts hash alike
/// whatever their form.
impl std::hash::Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let (len, digest) = self.measure();
        state.write_usize(len);
        state.write_u128(digest);
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kept::Held(s) => fmt::Debug::fmt(s, f),
            Kept::OnDisk(s) => write!(f, "{}[{}..+{}]", s.file.display(), s.start, s.len),
            Kept::InPieces(p) => f.write_str(&p.describe()),
        }
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::held(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::held(s)
    }
}

impl From<Arc<str>> for Text {
    fn from(s: Arc<str>) -> Text {
        Text(Kept::Held(s))
    }
}

/// As the text itself: one on disk is read (the command line holds its texts).
impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.read().map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_answers_as_memmem_does() {
        let a = "aaaaaaaaaaaaaaaaaaaaab";
        let hays = [
            String::new(),
            "x".repeat(40),
            "a".repeat(100),
            format!("{}{a}{a}", "a".repeat(50)),
            format!("prefix {PROMPT} and again {PROMPT}"),
            format!("{}{}", &PROMPT[..30], PROMPT),
        ];
        let needles = ["", "a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", a, PROMPT, &PROMPT[..17], "zzzzzzzzzzzzzzzzzzzz"];
        for h in &hays {
            for n in needles {
                assert_eq!(find(h.as_bytes(), n.as_bytes()), memchr::memmem::find(h.as_bytes(), n.as_bytes()), "{h:?} {n:?}");
            }
        }
    }

    const PROMPT: &str = "You review pull requests. Be brief, be kind, and say what to change and why.";

    fn on_disk(name: &str, contents: &str, text: &str) -> (PathBuf, Text) {
        let dir = std::env::temp_dir().join(format!("agentry-text-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.md");
        std::fs::write(&path, contents).unwrap();
        let text = Text::from_file(TextForm::OnDisk, &path, contents.as_bytes(), text);
        (path, text)
    }

    #[test]
    fn a_verbatim_slice_is_kept_on_disk_and_read_back_from_its_range() {
        let contents = format!("---\nname: a\n---\n\n{PROMPT}\n");
        let body = &contents[contents.find("You").unwrap()..contents.len() - 1];
        let (path, text) = on_disk("slice", &contents, body);
        assert!(text.as_held().is_none());
        assert_eq!(text.len(), PROMPT.len());
        assert_eq!(text.read().unwrap(), PROMPT);
        // Text that is not a borrow of the bytes is found by its content.
        let (_, found) = on_disk("copy", &contents, PROMPT);
        assert_eq!(found.read().unwrap(), PROMPT);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn what_the_file_does_not_hold_verbatim_or_a_short_text_stays_held() {
        let contents = format!("{PROMPT}\r\n");
        let (path, rendered) = on_disk("held", &contents, &format!("{PROMPT}!"));
        assert_eq!(rendered.as_held(), Some(format!("{PROMPT}!").as_str()));
        let (_, short) = on_disk("short", &contents, &PROMPT[..10]);
        assert!(short.as_held().is_some());
        assert!(Text::from_file(TextForm::Held, &path, contents.as_bytes(), PROMPT).as_held().is_some());
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn equality_is_by_content_whatever_the_form() {
        let (path, disk) = on_disk("eq", PROMPT, PROMPT);
        let (_, other) = on_disk("eq2", &format!("# {PROMPT}"), PROMPT);
        assert_eq!(disk, Text::held(PROMPT));
        assert_eq!(Text::held(PROMPT), disk);
        assert_eq!(disk, other);
        assert_ne!(disk, Text::held(&PROMPT[1..]));
        assert_ne!(Text::held("a"), Text::held("b"));
        let (_, different) = on_disk("ne", &format!("{PROMPT}?"), &format!("{PROMPT}?"));
        assert_ne!(disk, different);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_changed_or_missing_file_is_an_error_not_a_wrong_text() {
        let (path, text) = on_disk("changed", PROMPT, PROMPT);
        std::fs::write(&path, PROMPT.replace("brief", "terse")).unwrap();
        assert_eq!(text.read().unwrap_err(), TextError::Changed(path.clone()));
        std::fs::write(&path, &PROMPT[..20]).unwrap();
        assert_eq!(text.read().unwrap_err(), TextError::Changed(path.clone()));
        std::fs::remove_file(&path).unwrap();
        let missing = text.read().unwrap_err();
        assert!(matches!(missing, TextError::Unreadable(..)), "{missing:?}");
        assert!(missing.to_string().ends_with('.'));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
