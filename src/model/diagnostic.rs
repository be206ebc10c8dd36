use std::path::PathBuf;

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// The kind of a problem. The first five are the resolution report's error kinds;
/// the rest are agentry's own findings, which the frameworks do not report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DiagKind {
    Parse,
    Validation,
    Missing,
    Cycle,
    Io,
    /// A template could not be rendered.
    Template,
    /// The framework's installed package (its built-in agents) was not found.
    Builtins,
    /// Two dialects of one format read the file differently.
    Dialect,
    /// A value the framework reads differently from what the text suggests.
    Ambiguous,
    /// A file in a place the tool scans that it ignores without telling the user
    /// (the resolution report's error kind `skipped`).
    Skipped,
    /// The tool installed on this machine is another release than the one the
    /// reader follows.
    Release,
}

impl DiagKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DiagKind::Parse => "parse",
            DiagKind::Validation => "validation",
            DiagKind::Missing => "missing",
            DiagKind::Cycle => "cycle",
            DiagKind::Io => "io",
            DiagKind::Template => "template",
            DiagKind::Builtins => "builtins",
            DiagKind::Dialect => "dialect",
            DiagKind::Ambiguous => "ambiguous",
            DiagKind::Skipped => "skipped",
            DiagKind::Release => "release",
        }
    }
}

/// Why one file did not load, before it becomes a [`Diagnostic`]: the report's error
/// kind, the tool's own message and, where known, the line and column in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: DiagKind,
    pub message: String,
    pub line: Option<u32>,
    pub col: Option<u32>,
}

/// One problem, at a file position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// The tool (reader id) that reported it; `tool` in agentry's JSON.
    #[serde(rename = "tool")]
    pub ecosystem: &'static str,
    pub severity: Severity,
    pub kind: DiagKind,
    /// The file the problem is in.
    pub path: PathBuf,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub message: String,
    /// The source key of the definition that failed because of it. Set exactly when
    /// the framework reports the definition as an error (the resolution report's
    /// `errors`).
    pub source: Option<String>,
    /// The tool refuses to start because of this problem: it shows no agent at all
    /// ([`super::EcosystemReport::refusal`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fatal: bool,
    /// What kind of definition the problem is about (a skill file's errors count
    /// only where skills are asked for).
    #[serde(skip_serializing_if = "super::Kind::is_agent")]
    pub object: super::Kind,
}

impl Diagnostic {
    pub fn error(ecosystem: &'static str, kind: DiagKind, path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Diagnostic {
            ecosystem,
            severity: Severity::Error,
            kind,
            path: path.into(),
            line: None,
            col: None,
            message: message.into(),
            source: None,
            fatal: false,
            object: super::Kind::Agent,
        }
    }

    pub fn warning(ecosystem: &'static str, kind: DiagKind, path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Self::error(ecosystem, kind, path, message) }
    }

    /// A note: worth showing, but no problem of the workspace.
    pub fn info(ecosystem: &'static str, kind: DiagKind, path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Info, ..Self::error(ecosystem, kind, path, message) }
    }

    pub fn at(mut self, line: Option<u32>, col: Option<u32>) -> Self {
        self.line = line;
        self.col = col;
        self
    }

    /// A file the tool skips without a word: reported as the definition's reason
    /// (kind `skipped`), never as an error of the workspace.
    pub fn skipped(ecosystem: &'static str, path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::info(ecosystem, DiagKind::Skipped, path, message)
    }

    /// A file in the tool's own agents folder that the tool ignores without a word
    /// (no `name`, a front matter it cannot read): a warning, since the user put it
    /// there to be an agent, unless its name says it is documentation (`README.md`,
    /// `CLAUDE.md`, `LICENSE`…), which stays a note.
    pub fn ignored_definition(ecosystem: &'static str, path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        let path = path.into();
        let documentation = path.file_name().and_then(|n| n.to_str()).is_some_and(is_documentation);
        let d = Self::skipped(ecosystem, path, message);
        if documentation {
            d
        } else {
            Diagnostic { severity: Severity::Warning, ..d }
        }
    }

    /// Marks the problem as one that stops the tool from starting.
    pub fn fatal(mut self) -> Self {
        self.fatal = true;
        self
    }

    /// Marks the problem as one about a definition of `kind` (a skill's file).
    pub fn about(mut self, kind: super::Kind) -> Self {
        self.object = kind;
        self
    }

    /// Marks the diagnostic as the reason the definition `source` failed to load.
    pub fn failing(mut self, source: impl Into<String>) -> Self {
        self.source = Some(source.into());
        self
    }
}

/// Whether a file's name says it documents a folder rather than defines an agent.
pub fn is_documentation(file_name: &str) -> bool {
    let upper = file_name.to_ascii_uppercase();
    let stem = upper.split('.').next().unwrap_or("");
    ["README", "CHANGELOG", "CHANGES", "LICENSE", "LICENCE", "COPYING", "CONTRIBUTING", "CODE_OF_CONDUCT", "SECURITY", "NOTICE", "AGENTS", "CLAUDE", "GEMINI", "QWEN", "INDEX"]
        .contains(&stem)
}
