//! Prompts the explorer's loader left on disk ([`crate::model::Text`]) are read here,
//! off the UI thread: the UI asks by key, the reader answers by event, and the UI
//! redraws. The last few answers are kept, so moving back and forth reads nothing
//! again. The diff view, which reads both files and both prompts, is built here too.

use std::borrow::Cow;
use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::Path;
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;

use super::panes::diff::DiffView;
use crate::model::Agent;

/// Answers kept: the selection and its neighbours, and the two sides of a diff.
const RECENT: usize = 8;

/// Files larger than this are cut before they are diffed.
const MAX_DIFF_BYTES: u64 = 1 << 20;

/// What the model reads from a definition, as far as the UI knows it now.
#[derive(Debug, PartialEq)]
pub enum Shown<'a> {
    /// It cannot be known without running the agent.
    Unknown,
    Text(Cow<'a, str>),
    /// Kept on disk, and on its way.
    Reading,
    /// Kept on disk, and it could not be read: why, in a sentence.
    Failed(&'a str),
}

/// Identifies what a definition's model text is made of: its prompt and messages by
/// content, so definitions with the same prompt share one answer.
pub fn key_of(agent: &Agent) -> u64 {
    let mut h = DefaultHasher::new();
    agent.system_prompt.hash(&mut h);
    for m in agent.messages.iter() {
        (&m.role, &m.label, &m.text).hash(&mut h);
    }
    h.finish()
}

/// Whether showing the definition's model text needs a read.
fn on_disk(agent: &Agent) -> bool {
    agent.system_prompt.as_ref().is_some_and(|p| p.as_held().is_none())
        || agent.messages.iter().any(|m| m.text.as_held().is_none())
}

/// The answers the UI has, newest last.
#[derive(Debug, Default)]
pub struct ModelTexts {
    recent: VecDeque<(u64, Result<Arc<str>, String>)>,
}

impl ModelTexts {
    /// What to show for `agent`: a held text at once (as it always was), one on disk
    /// once the reader answered.
    pub fn shown(&self, agent: &Agent) -> Shown<'_> {
        if !on_disk(agent) {
            // Held texts are never read, so they cannot fail.
            return match agent.model_text() {
                Ok(Some(text)) => Shown::Text(Cow::Owned(text)),
                Ok(None) | Err(_) => Shown::Unknown,
            };
        }
        let key = key_of(agent);
        match self.recent.iter().rev().find(|(k, _)| *k == key) {
            Some((_, Ok(text))) => Shown::Text(Cow::Borrowed(text)),
            Some((_, Err(why))) => Shown::Failed(why),
            None => Shown::Reading,
        }
    }

    /// The key to ask the reader for, when `agent`'s text is on disk and not here.
    pub fn wanted(&self, agent: &Agent) -> Option<u64> {
        let key = key_of(agent);
        (on_disk(agent) && !self.recent.iter().any(|(k, _)| *k == key)).then_some(key)
    }

    pub fn answer(&mut self, read: TextRead) {
        self.recent.retain(|(k, _)| *k != read.key);
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back((read.key, read.text));
    }

    /// Drops the failures: a file that changed may have changed back, and a new
    /// snapshot asks again.
    pub fn forget_failures(&mut self) {
        self.recent.retain(|(_, t)| t.is_ok());
    }
}

/// One model text read, for the key it was asked under.
#[derive(Debug)]
pub struct TextRead {
    pub key: u64,
    pub text: Result<Arc<str>, String>,
}

/// What the reader sends back.
pub enum Answer {
    Text(TextRead),
    Diff { winner: String, other: String, view: DiffView },
}

enum Job {
    Texts(Vec<(u64, Agent)>),
    /// The winner, then the other definition.
    Diff(Box<(Agent, Agent)>),
}

/// The reading thread. Dropping it ends the thread.
pub struct Reader {
    jobs: Sender<Job>,
    /// The keys of the last request not answered yet: asked again, they are not sent.
    pending: Vec<u64>,
}

impl Reader {
    /// Starts the thread; `done` receives each answer (the driver forwards it to the
    /// UI loop).
    pub fn spawn(done: impl Fn(Answer) + Send + 'static) -> Reader {
        let (jobs, rx) = channel::<Job>();
        // Without the thread, texts on disk stay "reading" and diffs "reading both files".
        let _ = std::thread::Builder::new().name("agentry-reader".into()).spawn(move || {
            while let Ok(first) = rx.recv() {
                // When the selection moved fast, only the newest texts and diff matter.
                let (mut texts, mut diff) = (None, None);
                for job in std::iter::once(first).chain(rx.try_iter()) {
                    match job {
                        Job::Texts(t) => texts = Some(t),
                        Job::Diff(pair) => diff = Some(pair),
                    }
                }
                if let Some((winner, other)) = diff.map(|pair| *pair) {
                    let view =
                        DiffView::build(&winner, &other, &read_bounded(&winner.source.path), &read_bounded(&other.source.path));
                    done(Answer::Diff { winner: winner.id(), other: other.id(), view });
                }
                for (key, agent) in texts.into_iter().flatten() {
                    let text = match agent.model_text() {
                        Ok(text) => Ok(text.unwrap_or_default().into()),
                        Err(e) => Err(e.to_string()),
                    };
                    done(Answer::Text(TextRead { key, text }));
                }
            }
        });
        Reader { jobs, pending: Vec::new() }
    }

    /// Asks for the model texts of `wanted` (key, definition), unless they are on
    /// their way. A new request replaces the one before it.
    pub fn read(&mut self, wanted: Vec<(u64, Agent)>) {
        if wanted.iter().all(|(k, _)| self.pending.contains(k)) {
            return;
        }
        self.pending = wanted.iter().map(|(k, _)| *k).collect();
        let _ = self.jobs.send(Job::Texts(wanted));
    }

    /// The text asked under `key` arrived.
    pub fn answered(&mut self, key: u64) {
        self.pending.retain(|k| *k != key);
    }

    /// Asks for the diff view of `other` against `winner`.
    pub fn diff(&self, winner: Agent, other: Agent) {
        let _ = self.jobs.send(Job::Diff(Box::new((winner, other))));
    }
}

/// A file's text for the diff, cut at [`MAX_DIFF_BYTES`]; unreadable files diff as
/// their error message.
fn read_bounded(path: &Path) -> String {
    // An agent compiled into the tool (`builtin:NAME`) has no file.
    if path.as_os_str().is_empty() {
        return String::new();
    }
    let mut bytes = Vec::new();
    match std::fs::File::open(path).and_then(|f| f.take(MAX_DIFF_BYTES).read_to_end(&mut bytes)) {
        Ok(_) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => format!("<cannot read {}: {e}>", path.display()),
    }
}
