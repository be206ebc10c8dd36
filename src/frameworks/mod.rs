//! One module per framework, each behind [`Framework`].
//!
//! # Adding a framework
//!
//! A newcomer's list, in the order the work goes (the smallest readers, `openhands`
//! and `kimi_code`, are the templates):
//!
//! 1. **The places table**: `fn places(cx, …) -> Vec<Place>` ([`crate::model::Place`]),
//!    the tool's "where it looks" written once from `cx.roots`, `cx.env` and the
//!    settings it reads: each folder (or file) with its scope and base, how far it is
//!    read ([`crate::model::Reach`]: top level, any depth or a depth limit, file
//!    endings, and for a tree how the tool walks it, [`crate::model::Walking`]:
//!    order, traversal, links, loops, names skipped), the tier it ranks in, its label (the words rules use), its rank in
//!    words, whether trust or a setting holds it; settings and manifest files as
//!    [`crate::model::Place::settings`], files reached only from definitions
//!    (`extends`, a prompt path, `config_file`) as [`crate::model::Place::reached`].
//!    The report keeps it (`report.places`): `why`, `file`, `walk`, the watcher, the
//!    Sources pane and the pre-commit hook's pattern (`views::hook`) read it, and
//!    `tests/it/places.rs` fails when a fixture case's load names or reads a file outside
//!    it.
//! 2. **Scan and parse**: `src/frameworks/<id>/`, its module doc naming the tool's
//!    release and the tool's own functions each part mirrors. `load` walks the places
//!    (trees with the one walker, `crate::discover::walk`, as the place's `Walking`
//!    says) and parses each file, every file-system question through `cx.files` (so a
//!    refresh re-reads only what changed: `read` or `parse` with the `Hold` chosen
//!    there; prompt texts made by `cx.prompts` from the file's bytes or the rendered
//!    string; `cx.roots` gives the project, home, working folder, trust and listing
//!    order). Parse with the tool's own YAML or TOML semantics and prove it with
//!    goldens from the tool's parser:
//!
//!    | the tool parses with | agentry's module |
//!    |---|---|
//!    | PyYAML | `crate::yaml` |
//!    | js-yaml 3 or 4 | `crate::jsyaml` (the release is a `Version`) |
//!    | Bun's YAML | `claude_code/frontmatter.rs` |
//!    | npm `yaml` | `qwen_code/yaml.rs` |
//!    | serde_yaml | the `serde_yaml` crate |
//!    | TOML 0.9 (Rust `toml` 0.9.11) | the `toml_codex` crate, through `codex/toml_read.rs` |
//!
//!    A library one tool uses lives in that reader; one two or more share lives at
//!    the top level.
//! 3. **The rules**: rank with [`precedence`] — `Ladder::over(&places, …)` where the
//!    tiers are the places (or tiers built from the same table where they are layers
//!    or merged entries), first or last wins inside a tier, an undocumented order
//!    marked, `Rules` for the tool's own words, `merge_fields` for tools that
//!    assemble one agent from several sources. Every definition says in its `rule`
//!    why it won, lost, was skipped or held; a file the tool ignores silently is
//!    `SKIPPED` (an info diagnostic), never an error.
//! 4. **The fixtures**: `tests/fixtures/<id>/<case>/` with the oracle's
//!    `expected.json` (`tests/fixtures/vendor.sh`); the conformance test runs every
//!    folder there and fails for one with no registered framework.
//! 5. **The demo expectation**: `tests/demo/<id>.expected.json`, written by the oracle
//!    over `assets/demo` (`tests/demo/regen.sh <id>`, after adding the id to its
//!    `all=(…)`); `tests/demo.rs` fails for a registered framework without one.
//! 6. **The release**: `release()` names the tool's release followed, its packages and
//!    commands (`agentry tools`, README's table and the installed-release note come
//!    from it).
//! 7. **The one list**: a line in [`all`]. Tests, benches and the hook pattern iterate
//!    it (regenerate `files:` in `.pre-commit-hooks.yaml` as `tests/it/places.rs` prints).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::discover::Files;
use crate::model::{EcosystemReport, Roots};
pub use crate::store::Prompts;

pub mod claude_code;
pub mod codex;
pub mod copilot;
pub mod fast_agent;
pub mod gemini_cli;
pub mod kimi;
pub mod kimi_code;
pub(crate) mod node;
pub mod opencode;
pub mod openhands;
pub mod precedence;
pub mod qwen_code;
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
///
/// Every file-system question goes through `files`, which records it: the live
/// loader reuses a framework's report, or one definition's resolution
/// ([`Files::definition`]), only while none of the answers it saw changed.
pub struct LoadContext<'a> {
    pub roots: &'a Roots,
    pub files: Files<'a>,
    pub render: RenderMode,
    /// Environment variables the frameworks would see (`${VAR}` substitution).
    pub env: &'a BTreeMap<String, String>,
    /// Framework-specific options from the command line or the config
    /// (`dialect = "agentcard-rfc"`).
    pub options: &'a BTreeMap<String, String>,
    /// How prompt texts are made from a file's bytes or a rendered string.
    pub prompts: Prompts,
    /// A hash of everything above except `files`: memo keys start from it, so a
    /// result is never reused under other roots, environment or options.
    pub key: u64,
}

impl<'a> LoadContext<'a> {
    /// The context key of a load with these inputs.
    pub fn key_of(
        roots: &Roots,
        render: &RenderMode,
        env: &BTreeMap<String, String>,
        options: &BTreeMap<String, String>,
        prompts: Prompts,
    ) -> u64 {
        crate::discover::context_key(&format!("{roots:?}\0{render:?}\0{env:?}\0{options:?}\0{prompts:?}"))
    }

    /// The same context asking through another handle (inside a memoized computation).
    pub fn with_files<'b>(&self, files: Files<'b>) -> LoadContext<'b>
    where
        'a: 'b,
    {
        LoadContext { roots: self.roots, files, render: self.render.clone(), env: self.env, options: self.options, prompts: self.prompts, key: self.key }
    }

    /// A memo key for a computation of framework `id` over `parts` in this context.
    pub fn memo_key(&self, id: &str, parts: &str) -> u64 {
        crate::discover::context_key(&format!("{}\0{id}\0{parts}", self.key))
    }

    /// The built-in agents folder for a framework: the one the user named, else the
    /// one `locate` finds in an installed package.
    pub fn builtins(&self, locate: impl FnOnce() -> Option<PathBuf>) -> Option<PathBuf> {
        match &self.roots.builtins {
            Some(dir) => Some(dir.clone()),
            None => locate(),
        }
    }
}

/// How a tool compares a name asked for with a name it loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NameRule {
    /// Whether `Deploy` finds `deploy`.
    pub ignores_case: bool,
    /// The rule in words.
    pub words: &'static str,
}

impl NameRule {
    pub const EXACT: NameRule = NameRule { ignores_case: false, words: "by exact name (case-sensitive)" };
    pub const IGNORING_CASE: NameRule =
        NameRule { ignores_case: true, words: "by name, ignoring case (`Deploy` finds `deploy`)" };

    /// Whether asking for `asked` finds the definition named `name`.
    pub fn matches(self, asked: &str, name: &str) -> bool {
        if self.ignores_case {
            asked.to_lowercase() == name.to_lowercase()
        } else {
            asked == name
        }
    }
}

pub trait Framework: Send + Sync {
    /// The ecosystem id used on the command line and in reports (`openhands`).
    fn id(&self) -> &'static str;
    /// The name shown to people (`OpenHands`).
    fn title(&self) -> &'static str;
    /// Discover, parse and resolve every definition of this framework. Every
    /// file-system question goes through `cx.files`: the live loader reuses the
    /// report while none of the answers asked there changed, so an answer taken
    /// elsewhere would go stale.
    fn load(&self, cx: &LoadContext) -> EcosystemReport;
    /// What shows that a person uses this tool (its folders or config in the project
    /// or home): the project's tool set is detected from it ([`crate::toolset`]).
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        &[]
    }
    /// How the tool matches a name asked for against the names it loaded, for one
    /// kind (a tool may look skills up otherwise than agents): `agentry why` takes
    /// the definitions it matches and shows the rule next to near names.
    fn name_matching(&self, _kind: crate::model::Kind) -> NameRule {
        NameRule::EXACT
    }
    /// The tool release whose rules this reader follows, and the packages it is
    /// installed from ([`crate::installed`] finds the user's copy). Every reader in
    /// [`all`] names one; frameworks made up by tests need not.
    fn release(&self) -> Option<crate::installed::Release> {
        None
    }
}

/// Every framework agentry knows, in the order the explorer groups them.
pub fn all() -> Vec<&'static dyn Framework> {
    vec![&openhands::OpenHands, &tsugite::Tsugite, &fast_agent::FastAgent, &kimi::Kimi, &gemini_cli::GeminiCli, &codex::Codex, &claude_code::ClaudeCode, &kimi_code::KimiCode, &copilot::Copilot, &opencode::OpenCode, &qwen_code::QwenCode]
}

pub fn by_id(id: &str) -> Option<&'static dyn Framework> {
    all().into_iter().find(|f| f.id() == id)
}

/// The frameworks `catalog` was loaded with, for the views built on their reports.
pub fn loaded_in(catalog: &crate::model::Catalog) -> Vec<&'static dyn Framework> {
    all().into_iter().filter(|f| catalog.reports.iter().any(|r| r.ecosystem == f.id())).collect()
}

/// The note every framework gives when its installed package (and so its built-in
/// agents) was not found: one wording for all, at the project root. The loader keeps
/// it only for a framework the workspace uses ([`crate::load`]).
pub fn builtins_not_installed(
    ecosystem: &'static str,
    roots: &Roots,
    package: &str,
    looked: &[PathBuf],
    consequence: &str,
) -> crate::model::Diagnostic {
    let places = if looked.is_empty() {
        "no Python environment was found: project .venv, $VIRTUAL_ENV, launchers on PATH, uv and pipx tools, user site-packages".to_string()
    } else {
        looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    };
    crate::model::Diagnostic::info(
        ecosystem,
        crate::model::DiagKind::Builtins,
        &roots.project,
        format!("{package} is not installed where agentry looked ({places}); {consequence} (--builtins DIR names them)"),
    )
}
