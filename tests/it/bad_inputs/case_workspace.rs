//! The workspace the committed bad-input cases (`cases.rs`) load: one good agent per
//! Python reader and Qwen Code, the case's files copied in, and the assertions on
//! what each reader made of them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{Catalog, DiagKind, Diagnostic, Roots, Status};

/// One good agent per framework, in the folder that framework searches.
pub(super) const GOOD: [(&str, &str, &str); 5] = [
    ("openhands", ".agents/agents/good.md", "---\nname: good\ndescription: A good agent\n---\nI am good.\n"),
    ("tsugite", "agents/good.md", "---\nname: good\nextends: none\n---\nI am good.\n"),
    ("fast-agent", ".fast-agent/agent-cards/good.md", "---\ntype: agent\nname: good\n---\nI am good.\n"),
    ("kimi", "kimi/good.yaml", "agent:\n  name: good\n  system_prompt_path: good.md\n  tools: []\n"),
    ("qwen-code", ".qwen/agents/good.md", "---\nname: good\ndescription: A good agent\n---\nI am a good agent.\n"),
];

/// The bad files of each framework, where the committed cases keep them.
pub(super) const OH: &str = ".agents/agents/bad.md";
pub(super) const TS: &str = "agents/bad.md";
pub(super) const FA: &str = ".fast-agent/agent-cards/bad.md";
pub(super) const KI: &str = "kimi/bad.yaml";

/// A temporary workspace: `project/` (with the good agents), `home/`, and an empty
/// built-ins folder so no installed package is looked for.
pub(super) struct Workspace {
    pub(super) root: PathBuf,
}

impl Workspace {
    pub(super) fn new(tag: &str) -> Workspace {
        let root = std::env::temp_dir().join(format!("agentry-bad-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["project", "home", "builtins"] {
            std::fs::create_dir_all(root.join(dir)).expect("temp dir");
        }
        let ws = Workspace { root };
        for (_, rel, text) in GOOD {
            ws.write(rel, text);
        }
        ws.write("kimi/good.md", "I am good.\n");
        ws
    }

    /// A workspace holding the committed case `tests/bad_inputs/<case>/`.
    pub(super) fn case(case: &str) -> Workspace {
        let ws = Workspace::new(case);
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs").join(case);
        copy_tree(&from, &ws.project());
        ws
    }

    pub(super) fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    pub(super) fn path(&self, rel: &str) -> PathBuf {
        self.project().join(rel)
    }

    pub(super) fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }

    #[cfg(unix)]
    pub(super) fn link(&self, target: impl AsRef<Path>, rel: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::os::unix::fs::symlink(target, path).expect("symlink");
    }

    pub(super) fn options(&self, render: RenderMode) -> LoadOptions {
        LoadOptions {
            roots: Roots::new(self.project(), self.root.join("home"), self.root.join("home/.config"), Some(self.root.join("builtins"))),
            ecosystems: Vec::new(),
            render,
            env: BTreeMap::new(),
            options: BTreeMap::new(),
            texts: agentry::model::TextForm::Held,
        }
    }

    /// A cold load of every framework. No wall-clock limit (the machine may be
    /// loaded): a case that hangs never returns, and the test runner reports it.
    pub(super) fn load(&self) -> Loaded {
        let catalog = load(&self.options(RenderMode::Export), &FileCache::new(), 1);
        Loaded { catalog, project: self.project() }
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        restore_permissions(&self.root);
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

pub(super) fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("case folder") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Gives every folder back its permissions so the temporary tree can be removed.
pub(super) fn restore_permissions(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                    restore_permissions(&e.path());
                }
            }
        }
    }
}

pub(super) struct Loaded {
    pub(super) catalog: Catalog,
    pub(super) project: PathBuf,
}

impl Loaded {
    /// Every framework's good agent is there and wins.
    pub(super) fn assert_good_agents_win(&self) {
        for (eco, rel, _) in GOOD {
            let good = self.catalog.agents().find(|a| a.ecosystem == eco && a.name == "good");
            let good = good.unwrap_or_else(|| panic!("{eco}: the good agent ({rel}) is lost\n{}", self.dump()));
            assert_eq!(good.status, Status::Wins, "{eco}: {rel}\n{}", self.dump());
        }
    }

    /// The diagnostics of one framework about one file of the project.
    pub(super) fn diags(&self, eco: &str, rel: &str) -> Vec<&Diagnostic> {
        let path = self.project.join(rel);
        self.catalog.diagnostics().filter(|d| d.ecosystem == eco && d.path == path).collect()
    }

    /// Exactly the expected diagnostic (kind and line) is reported about `rel`, as an
    /// error that fails the definition.
    #[track_caller]
    pub(super) fn assert_error(&self, eco: &str, rel: &str, kind: DiagKind, line: Option<u32>) -> &Diagnostic {
        let found = self.diags(eco, rel);
        let hit = found.iter().find(|d| d.kind == kind && d.source.is_some());
        let hit = hit.unwrap_or_else(|| panic!("{eco}: no {kind:?} error about {rel}\n{}", self.dump()));
        assert_eq!(hit.line, line, "{eco}: {rel}: {}", hit.message);
        hit
    }

    /// The definition at `rel` loaded and wins under the name `name`.
    #[track_caller]
    pub(super) fn assert_loads(&self, eco: &str, rel: &str, name: &str) {
        let path = self.project.join(rel);
        let agent = self.catalog.agents().find(|a| a.ecosystem == eco && *a.source.path == *path);
        let agent = agent.unwrap_or_else(|| panic!("{eco}: {rel} did not load\n{}", self.dump()));
        assert_eq!((agent.name.as_str(), agent.status), (name, Status::Wins), "{eco}: {rel}\n{}", self.dump());
    }

    pub(super) fn dump(&self) -> String {
        let mut out = String::new();
        for a in self.catalog.agents() {
            out += &format!("agent {} {} {:?} {}\n", a.ecosystem, a.name, a.status, a.source.key());
        }
        for d in self.catalog.diagnostics() {
            let msg: String = d.message.chars().take(160).collect();
            out += &format!(
                "diag {} {:?} {:?} {} {:?} {:?}: {msg}\n",
                d.ecosystem,
                d.severity,
                d.kind,
                d.path.strip_prefix(&self.project).unwrap_or(&d.path).display(),
                d.line,
                d.source
            );
        }
        out
    }
}
