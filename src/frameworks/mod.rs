//! One module per framework, each behind [`Framework`]. Adding a framework is one
//! file here plus its fixtures, and one line in [`all`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::discover::FileCache;
use crate::model::{EcosystemReport, Roots};

pub mod fast_agent;
pub mod kimi;
pub mod openhands;
pub mod tsugite;

/// How prompts are rendered. `Export` uses the fixed context of the resolution report
/// (user prompt `<user prompt>`, cwd `<project>`, clock 2025-01-15 12:00 UTC, empty
/// environment) so results are deterministic; `Live` uses the real values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderMode {
    Export,
    Live { user_prompt: String },
}

/// What a framework's loader is given: the workspace, the file reader all loaders
/// share (each file is read once per load), and the user's options.
pub struct LoadContext<'a> {
    pub roots: &'a Roots,
    pub files: &'a FileCache,
    pub render: RenderMode,
    /// Environment variables the frameworks would see (`${VAR}` substitution).
    pub env: &'a BTreeMap<String, String>,
    /// Framework-specific options from the command line or the config
    /// (`dialect = "agentcard-rfc"`).
    pub options: &'a BTreeMap<String, String>,
}

impl LoadContext<'_> {
    /// The built-in agents folder for a framework: the one the user named, else the
    /// one `locate` finds in an installed package.
    pub fn builtins(&self, locate: impl FnOnce() -> Option<PathBuf>) -> Option<PathBuf> {
        match &self.roots.builtins {
            Some(dir) => Some(dir.clone()),
            None => locate(),
        }
    }
}

pub trait Framework: Send + Sync {
    /// The ecosystem id used on the command line and in reports (`openhands`).
    fn id(&self) -> &'static str;
    /// The name shown to people (`OpenHands`).
    fn title(&self) -> &'static str;
    /// Discover, parse and resolve every definition of this framework.
    fn load(&self, cx: &LoadContext) -> EcosystemReport;
}

/// Every framework agentry knows, in the order the explorer groups them.
pub fn all() -> Vec<&'static dyn Framework> {
    vec![&openhands::OpenHands, &tsugite::Tsugite, &fast_agent::FastAgent, &kimi::Kimi]
}

pub fn by_id(id: &str) -> Option<&'static dyn Framework> {
    all().into_iter().find(|f| f.id() == id)
}

/// `true` when `path` is a folder, following symlinks (Python's `Path.is_dir()`).
pub fn is_dir(path: &Path) -> bool {
    std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false)
}
