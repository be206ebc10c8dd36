//! [`Prompts`]: the one storage choice a load hands its readers, as a type that only
//! makes texts (the readers never name a [`TextForm`]).

use std::path::Path;

use super::{Part, Text, TextForm};

/// How a load makes the prompt and message texts its readers find (a reader's load
/// context carries one): a reader hands over the file's bytes or the rendered string
/// and never names where the text is kept (held in memory for the command line, left
/// on disk for the explorer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prompts(TextForm);

impl Prompts {
    /// Texts held in memory, whatever the load keeps: for a parse outside a load.
    pub const HELD: Prompts = Prompts(TextForm::Held);
    /// Texts left on disk where they can be, whatever the load keeps.
    pub const ON_DISK: Prompts = Prompts(TextForm::OnDisk);

    pub fn new(form: TextForm) -> Prompts {
        Prompts(form)
    }

    /// `text`, found verbatim in `bytes`, the contents of `file` (a slice of `bytes`,
    /// or any text `bytes` hold once): on disk, the range of the file it takes, read
    /// again when shown; held when the load holds texts or `bytes` do not hold it.
    pub fn from_file(self, file: &Path, bytes: &[u8], text: &str) -> Text {
        Text::from_file(self.0, file, bytes, text)
    }

    /// `text`, rendered from the file whose contents are `bytes`: on disk, the lines
    /// `bytes` hold verbatim are left there and the rest held, when that takes less
    /// memory than holding it all.
    pub fn rendered(self, file: &Path, bytes: &[u8], text: &str) -> Text {
        Text::from_rendering(self.0, file, bytes, text)
    }

    /// [`Prompts::rendered`] from parts of files (their lines in the text in the
    /// parts' order). With no parts the text is held.
    pub fn rendered_from_parts(self, parts: &[Part], text: &str) -> Text {
        Text::from_rendering_of_parts(self.0, parts, text)
    }

    /// Whether texts are left on disk: a renderer gathers the parts of files it
    /// renders from only then.
    pub fn on_disk(self) -> bool {
        self.0 == TextForm::OnDisk
    }
}
