use std::path::PathBuf;

use serde::Serialize;

use super::{Agent, Diagnostic, Roots, Scope};

/// A folder a framework looked in, in search order. The live loader watches these.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchDir {
    pub scope: Scope,
    pub path: PathBuf,
    /// How the framework ranks this folder, in words ("searched 2nd, after …").
    pub role: String,
}

/// Everything one framework decided about one workspace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EcosystemReport {
    pub ecosystem: &'static str,
    /// Every definition found, in precedence order (for each name the winner first).
    pub agents: Vec<Agent>,
    pub diagnostics: Vec<Diagnostic>,
    pub searched: Vec<SearchDir>,
    /// The built-in agents folder used, if any.
    pub builtins: Option<PathBuf>,
}

impl EcosystemReport {
    pub fn new(ecosystem: &'static str) -> Self {
        EcosystemReport { ecosystem, agents: Vec::new(), diagnostics: Vec::new(), searched: Vec::new(), builtins: None }
    }
}

/// One immutable snapshot of a workspace, across every framework.
#[derive(Clone, Debug, Serialize)]
pub struct Catalog {
    pub generation: u64,
    pub roots: Roots,
    /// Shared: a refresh that leaves a framework's report as it was reuses it.
    pub reports: Vec<std::sync::Arc<EcosystemReport>>,
}

impl Catalog {
    pub fn agents(&self) -> impl Iterator<Item = &Agent> {
        self.reports.iter().flat_map(|r| r.agents.iter())
    }

    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.reports.iter().flat_map(|r| r.diagnostics.iter())
    }
}
