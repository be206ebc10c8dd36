use std::path::PathBuf;

use serde::Serialize;

use super::{Agent, Diagnostic, Place, Roots};

/// Everything one framework decided about one workspace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EcosystemReport {
    pub ecosystem: &'static str,
    /// Every definition found, in precedence order (for each name the winner first).
    pub agents: Vec<Agent>,
    pub diagnostics: Vec<Diagnostic>,
    /// Every place the framework reads definitions from, in its precedence order
    /// (and the folders of files reached from them): the watcher watches these.
    pub places: Vec<Place>,
    /// The built-in agents folder used, if any.
    pub builtins: Option<PathBuf>,
}

impl EcosystemReport {
    pub fn new(ecosystem: &'static str) -> Self {
        EcosystemReport { ecosystem, agents: Vec::new(), diagnostics: Vec::new(), places: Vec::new(), builtins: None }
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
