//! The project's tool set: whose questions agentry answers. Every reader declares
//! what shows that a person uses its tool ([`Evidence`], its folders or config in the
//! project or the home); a project's `.agentry.yaml` (`tools: [claude-code]`) fixes
//! the set for the team, `-e/--tool` picks it for one run, `--all-tools` takes every
//! reader. Every framework is still loaded: the views show the set's tools, and
//! `why`/`file` name the others that read a file. `export` is not filtered.

use std::path::{Path, PathBuf};

use serde::Serialize;

/// Where a marker of use is looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// The project root.
    Project,
    /// The home folder (`~`).
    Home,
    /// The XDG config folder (`~/.config`).
    Xdg,
}

/// A file or folder whose presence shows that someone uses a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evidence {
    pub base: Base,
    pub path: &'static str,
}

impl Evidence {
    pub const fn project(path: &'static str) -> Evidence {
        Evidence { base: Base::Project, path }
    }
    pub const fn home(path: &'static str) -> Evidence {
        Evidence { base: Base::Home, path }
    }
    pub const fn xdg(path: &'static str) -> Evidence {
        Evidence { base: Base::Xdg, path }
    }

    fn at(&self, roots: &super::Roots) -> PathBuf {
        match self.base {
            Base::Project => roots.project.join(self.path),
            Base::Home => roots.home.join(self.path),
            Base::Xdg => roots.xdg.join(self.path),
        }
    }
}

/// Why the set is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Every reader (`--all-tools`, or a caller that asked for no set).
    All,
    /// Named on the command line (`-e/--tool`).
    Chosen,
    /// Named by the project's `.agentry.yaml`.
    Configured,
    /// Found from the tools' folders and config in the project and home.
    Detected,
}

/// One tool of a detected set and the marker that brought it in, as shown (`.claude`,
/// `~/.copilot`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    pub tool: &'static str,
    pub marker: String,
}

/// The tools whose views agentry shows, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolSet {
    pub tools: Vec<&'static str>,
    pub reason: Reason,
    /// For a detected set, what brought each tool in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<Found>,
    /// Built-in agents are shown (`--no-builtins` hides them).
    pub builtins: bool,
    /// The one kind of definition the views show (`--kind`); `None` is both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<super::Kind>,
}

impl Default for ToolSet {
    fn default() -> Self {
        ToolSet::all(Vec::new())
    }
}

/// A reader's id and the markers that show its tool is used.
pub type Markers = (&'static str, &'static [Evidence]);

/// The project file that names the project's tools.
pub const CONFIG_FILE: &str = ".agentry.yaml";

impl ToolSet {
    /// Every reader agentry has (`readers`: their ids).
    pub fn all(readers: Vec<&'static str>) -> ToolSet {
        ToolSet { tools: readers, reason: Reason::All, found: Vec::new(), builtins: true, kind: None }
    }

    /// The tools named, in the readers' order (unknown ids are the caller's to refuse).
    pub fn named(readers: &[&'static str], ids: &[String], reason: Reason) -> ToolSet {
        let tools = readers.iter().copied().filter(|id| ids.iter().any(|i| i == id)).collect();
        ToolSet { tools, reason, found: Vec::new(), builtins: true, kind: None }
    }

    /// The tools with evidence of use in the project or the home, each with the first
    /// marker found.
    pub fn detect(roots: &super::Roots, readers: &[Markers]) -> ToolSet {
        let mut set = ToolSet { tools: Vec::new(), reason: Reason::Detected, found: Vec::new(), builtins: true, kind: None };
        for (id, evidence) in readers {
            if let Some(e) = evidence.iter().find(|e| std::fs::symlink_metadata(e.at(roots)).is_ok()) {
                set.tools.push(id);
                set.found.push(Found { tool: id, marker: super::shown(&e.at(roots), roots) });
            }
        }
        set
    }

    /// Whether the views show tool `id` (every tool, a test's own included, when the
    /// set is all of them).
    pub fn contains(&self, id: &str) -> bool {
        self.reason == Reason::All || self.tools.iter().any(|t| *t == id)
    }

    /// The set in a few words, for a pane's title: `· claude-code, copilot (found)`;
    /// empty for every tool.
    pub fn short(&self) -> String {
        match self.reason {
            // Every tool, as the explorer always showed: nothing to say.
            Reason::All => String::new(),
            Reason::Detected if self.tools.is_empty() => "· no tool found".to_string(),
            Reason::Detected => format!("· {} (found)", self.tools.join(", ")),
            Reason::Configured => format!("· {} ({CONFIG_FILE})", self.tools.join(", ")),
            Reason::Chosen => format!("· {} (--tool)", self.tools.join(", ")),
        }
    }

    /// The one line every view says about the set: which tools and why.
    pub fn describe(&self) -> String {
        let names = self.tools.join(", ");
        match self.reason {
            Reason::All if self.tools.is_empty() => "tools: every tool agentry reads".to_string(),
            Reason::All => format!("tools: all {} that agentry reads", self.tools.len()),
            Reason::Chosen => format!("tools: {names} (chosen with --tool)"),
            Reason::Configured => format!("tools: {names} (from {CONFIG_FILE}; --all-tools shows every tool)"),
            Reason::Detected if self.tools.is_empty() => format!(
                "tools: none found (no tool's folder or config in the project or home); name them in {CONFIG_FILE} `tools:` or with --tool, or see every tool with --all-tools"
            ),
            Reason::Detected => {
                let found: Vec<String> = self.found.iter().map(|f| format!("{} ({})", f.tool, f.marker)).collect();
                format!("tools: {} found; {CONFIG_FILE} `tools:` or --tool sets them, --all-tools shows every tool", found.join(", "))
            }
        }
    }
}

/// The project's `.agentry.yaml`: `tools: [claude-code, copilot]`. `Ok(None)` when
/// there is no such file; an error names the file and what is wrong.
pub fn configured(project: &Path) -> Result<Option<Vec<String>>, String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ProjectConfig {
        tools: Option<Vec<String>>,
    }
    let path = project.join(CONFIG_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {CONFIG_FILE}: {e}")),
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    let config: ProjectConfig = serde_yaml::from_str(&text).map_err(|e| format!("{CONFIG_FILE}: {e}"))?;
    Ok(config.tools)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_takes_the_tools_whose_folders_are_in_the_project_or_home() {
        let dir = std::env::temp_dir().join(format!("agentry-toolset-{}", std::process::id()));
        let (project, home) = (dir.join("p"), dir.join("h"));
        std::fs::create_dir_all(project.join(".claude/agents")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(project.join("AGENTS.md"), "shared instructions").unwrap();
        let roots = super::super::Roots::new(project.clone(), home.clone(), home.join(".config"), None);
        const CLAUDE: &[Evidence] = &[Evidence::project(".claude"), Evidence::home(".claude")];
        const COPILOT: &[Evidence] = &[Evidence::project(".github/agents"), Evidence::home(".copilot")];
        const CODEX: &[Evidence] = &[Evidence::project(".codex")];
        let readers: &[Markers] = &[("claude-code", CLAUDE), ("copilot", COPILOT), ("codex", CODEX)];
        let set = ToolSet::detect(&roots, readers);
        assert_eq!(set.tools, ["claude-code"]);
        assert_eq!(set.found[0].marker, ".claude");
        std::fs::create_dir_all(home.join(".copilot")).unwrap();
        let set = ToolSet::detect(&roots, readers);
        assert_eq!(set.tools, ["claude-code", "copilot"]);
        assert!(set.describe().contains("copilot (~/.copilot)"), "{}", set.describe());
        std::fs::write(project.join(CONFIG_FILE), "tools: [codex]\n").unwrap();
        assert_eq!(configured(&project), Ok(Some(vec!["codex".to_string()])));
        std::fs::write(project.join(CONFIG_FILE), "tool: [codex]\n").unwrap();
        assert!(configured(&project).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
