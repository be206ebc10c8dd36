//! Qwen Code subagents (`@qwen-code/qwen-code` 0.24.4).
//!
//! Mirrors `SubagentManager` (`packages/core/src/subagents/subagent-manager.ts`):
//! `listSubagentsAtLevel` reads `<start folder>/.qwen/agents`, `~/.qwen/agents` and
//! the `agents/` folder of each active extension (`loadSubagentFromDir`): every
//! entry whose name ends in `.md`, no recursion, symlinks followed, no `_` or dot
//! rule. `parseSubagentContent` reads a file (see [`definition`]); a file that fails
//! is dropped with a debug-log line only (reported as `skipped`). What runs for a
//! name is `loadSubagent`: project, user, extension, then the built-ins, names
//! compared case-insensitively, the first match of a level winning — so an
//! extension agent replaces a built-in, and of `Helper.md` and `helper.md` the first
//! listed serves both spellings.

mod definition;
mod js;
mod lines;
mod scalars;
pub(crate) mod skill_file;
mod skills;
pub mod yaml;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::precedence::{rank, Candidate, Ladder, NameKey, Tier};
use super::{Framework, LoadContext};
use crate::discover::{self, Hold, ReadError};
use crate::model::{
    Agent, AgentRecord, Attribute, DiagKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Place, Reach, Roots,
    Scope, Source, Status,
};

pub use definition::{parse as parse_definition, split as split_front_matter};

pub struct QwenCode;

const ID: &str = "qwen-code";

/// The agents compiled into Qwen Code 0.24.4 (`BuiltinAgentRegistry.BUILTIN_AGENTS`).
pub const BUILTINS: [&str; 6] = ["general-purpose", "Explore", "statusline-setup", "review-agent", "claude-code", "codex"];

const PROJECT: usize = 0;
const USER: usize = 1;
const EXTENSION: usize = 2;
const BUILTIN: usize = 3;

/// `~/.qwen`: `$QWEN_HOME` where set in a live run, else `~/.qwen`.
fn qwen_home(cx: &LoadContext) -> PathBuf {
    match (&cx.render, cx.env.get("QWEN_HOME")) {
        (super::RenderMode::Live { .. }, Some(p)) if !p.is_empty() => crate::model::normalize(Path::new(p)),
        _ => cx.roots.home.join(".qwen"),
    }
}

/// `Config.getProjectRoot()`: the folder Qwen starts in, not the repository root.
fn project_root(roots: &Roots) -> PathBuf {
    crate::model::normalize(&roots.cwd)
}

fn ladder() -> Ladder {
    let order = "the folder's listing order (readdir), which Qwen Code does not sort";
    let mut ladder = Ladder::new(vec![
        Tier::first("project .qwen/agents (in the start folder)").undocumented(order),
        Tier::first("user ~/.qwen/agents").undocumented(order),
        Tier::first("extension agents (active extensions, in folder order)").undocumented(order),
        Tier::first("the built-in agents"),
    ]);
    ladder.names = NameKey::CaseInsensitive;
    ladder
}

/// The folders read, in `loadSubagent`'s order: project, user, then each active
/// extension's `agents/`.
fn folders(cx: &LoadContext, extensions: &[(String, PathBuf)]) -> Vec<Place> {
    let roots = cx.roots;
    let home = qwen_home(cx);
    let project = project_root(roots);
    let md = |tier, scope, base: &Path, dir, label| Place::agents(tier, scope, base, dir, Reach::top(&[".md"]), label);
    let mut out = Vec::new();
    // `listSubagentsAtLevel` reads no project level when the project is the home folder.
    if crate::model::normalize(&project) != crate::model::normalize(&roots.home) {
        out.push(md(PROJECT, Scope::Project, &roots.project, project.join(".qwen/agents"), "project .qwen/agents".into()));
    }
    out.push(md(USER, Scope::User, &roots.home, home.join("agents"), "user ~/.qwen/agents".into()));
    for (name, dir) in extensions {
        out.push(md(EXTENSION, Scope::User, &roots.home, dir.join("agents"), format!("extension `{name}`")));
    }
    crate::model::numbered(&mut out, "searched");
    // Each extension's manifest, and the linked folder's where an install record
    // points elsewhere; which extensions are enabled.
    let manifests = Reach::to_depth(1, &["qwen-extension.json", ".qwen-extension-install.json", "extension-enablement.json"]);
    let linked: Vec<Place> = out
        .iter()
        .filter(|p| p.tier == EXTENSION && !p.dir.starts_with(home.join("extensions")))
        .filter_map(|p| p.dir.parent())
        .map(|root| Place::settings(Scope::User, &roots.home, root.to_path_buf(), Reach::top(&["qwen-extension.json"]), "a linked extension's manifest"))
        .collect();
    out.push(Place::settings(Scope::User, &roots.home, home.join("extensions"), manifests, "extension manifests ~/.qwen/extensions"));
    out.extend(linked);
    out
}

/// The active extensions under `~/.qwen/extensions`, in folder order
/// (`loadExtensionsFromExtensionsDir`): a folder with a `qwen-extension.json` that
/// names the extension, not disabled for the start folder.
fn extensions(cx: &LoadContext, dir: &Path, report: &mut EcosystemReport) -> Vec<(String, PathBuf)> {
    let Ok(Some(entries)) = cx.files.list_dir(dir) else { return Vec::new() };
    let enablement = cx
        .files
        .read(&dir.join("extension-enablement.json"), Hold::Kept)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
    let mut out = Vec::new();
    for entry in discover::in_listing_order(&entries, cx.roots.listing) {
        if !entry.is_dir {
            continue;
        }
        // `qwen extensions link`: the install record points at the folder in use.
        let mut root = entry.path.to_path_buf();
        if let Some(source) = cx
            .files
            .read(&entry.path.join(".qwen-extension-install.json"), Hold::Kept)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .filter(|m| m.get("type").and_then(|t| t.as_str()) == Some("link"))
            .and_then(|m| m.get("source").and_then(|s| s.as_str()).filter(|s| !s.is_empty()).map(PathBuf::from))
        {
            root = crate::model::normalize(&entry.path.join(source));
        }
        let manifest = root.join("qwen-extension.json");
        let Ok(bytes) = cx.files.read(&manifest, Hold::Kept) else { continue };
        let name = match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Ok(v) => match v.get("name").and_then(|n| n.as_str()).filter(|n| valid_extension_name(n)) {
                Some(n) => n.to_string(),
                None => {
                    report.diagnostics.push(Diagnostic::info(
                        ID,
                        DiagKind::Validation,
                        &manifest,
                        "extension skipped: its manifest has no valid \"name\" (letters, digits, `_`, `.`, `-`)",
                    ));
                    continue;
                }
            },
            Err(e) => {
                let d = Diagnostic::warning(ID, DiagKind::Parse, &manifest, format!("extension skipped: its manifest is not JSON ({e})"))
                    .at(Some(e.line() as u32), Some(e.column() as u32));
                report.diagnostics.push(d);
                continue;
            }
        };
        if disabled(cx, enablement.as_ref(), &name, &project_root(cx.roots)) {
            continue;
        }
        out.push((name, root));
    }
    out
}

/// `validateName` of an extension manifest: `^[a-zA-Z0-9-_.]+$`.
fn valid_extension_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

/// `ExtensionManager.isEnabled`: the last override rule matching the start folder
/// (as written or resolved, with a slash at each end) decides; `!` disables.
fn disabled(cx: &LoadContext, enablement: Option<&serde_json::Value>, name: &str, cwd: &Path) -> bool {
    let Some(rules) = enablement.and_then(|e| e.get(name)).and_then(|c| c.get("overrides")).and_then(|o| o.as_array()) else {
        return false;
    };
    let slashed = |p: &Path| {
        let mut s = p.to_string_lossy().replace('\\', "/");
        if !s.starts_with('/') {
            s.insert(0, '/');
        }
        if !s.ends_with('/') {
            s.push('/');
        }
        s
    };
    let lexical = slashed(cwd);
    let canonical = cx.files.canonicalize(cwd).map_or_else(|| lexical.clone(), |p| slashed(&p));
    let mut enabled = true;
    for rule in rules.iter().filter_map(|r| r.as_str()) {
        let (disable, glob) = match rule.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, rule),
        };
        if let Some(re) = glob_regex(glob) {
            if re.is_match(&lexical) || re.is_match(&canonical) {
                enabled = !disable;
            }
        }
    }
    !enabled
}

/// `globToRegex`: regex characters escaped, each `*` (with the slash before it)
/// matching any rest of the path.
fn glob_regex(glob: &str) -> Option<regex::Regex> {
    let mut out = String::from("^");
    let chars: Vec<char> = glob.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            out.push_str("(/.*)?");
            i += 2;
            continue;
        }
        if c == '*' {
            out.push_str("(.*)?");
        } else if ".+?^${}()|[]\\".contains(c) {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
        i += 1;
    }
    out.push('$');
    regex::Regex::new(&out).ok()
}

/// A file's outcome, in read order.
struct Scanned {
    tier: usize,
    agent: Agent,
    failure: Option<Diagnostic>,
    /// Names whose dispatch this dropped file makes Qwen Code refuse (lower-case).
    refuses: Vec<String>,
}

fn scan_folder(cx: &LoadContext, folder: &Place, out: &mut Vec<Scanned>) {
    let entries = match cx.files.list_dir(&folder.dir) {
        Ok(Some(entries)) => entries,
        // `readdir` failing (missing, not a folder, unreadable): the level is empty.
        _ => return,
    };
    for entry in discover::in_listing_order(&entries, cx.roots.listing) {
        let file_name = entry.name();
        if !file_name.ends_with(".md") {
            continue;
        }
        let source = if folder.tier == EXTENSION {
            cx.roots.source(&entry.path, None)
        } else {
            Source::new(folder.scope, &folder.base, entry.path.to_path_buf())
        };
        let key = source.key();
        // Node decodes a name that is not UTF-8 with replacement characters, and the
        // path joined from it names no file: Qwen Code cannot read it.
        let parsed = if entry.path.file_name().and_then(|n| n.to_str()).is_none() {
            Arc::new(Err(definition::io_failure(
                "Failed to read subagent file: the file name is not UTF-8, and the name Node reads from the folder opens no file".into(),
            )))
        } else {
            cx.files
                .parse(&source.path, Hold::Not, discover::hash_key((ID, cx.prompts)), |bytes| definition::parse(bytes, &source.path, cx.prompts))
                .unwrap_or_else(|e| Arc::new(Err(read_failure(&e))))
        };
        let scanned = match &*parsed {
            Err(f) => {
                let d = Diagnostic::ignored_definition(ID, &*source.path, format!("{} ({}): Qwen Code drops the file with a debug-log line only", f.message, f.cause.word()))
                    .at(f.line, None)
                    .failing(key);
                let rule = format!("skipped: {}", f.message);
                let agent = Agent::new(ID, discover::stem(&file_name).to_string(), source, Status::Skipped, rule);
                Scanned { tier: folder.tier, agent, failure: Some(d), refuses: f.refuses.clone() }
            }
            Ok(def) => Scanned {
                tier: folder.tier,
                agent: loaded(def, source, key, &folder.label),
                failure: lenient_note(def, &entry.path),
                refuses: Vec::new(),
            },
        };
        out.push(scanned);
    }
}

/// `throwRecordedExecutorRefusal`: when a level holds no loadable definition of a
/// name but dropped a file that declared an executor or backend for it, Qwen Code
/// refuses the dispatch rather than fall through, so no definition of a lower level
/// runs for that name.
fn refuse(report: &mut EcosystemReport, tiers: &std::collections::HashMap<String, usize>, refusals: &[(usize, String, String, PathBuf)]) {
    for (level, name, refusing, path) in refusals {
        let tier_of = |a: &Agent| tiers.get(&a.source.key()).copied().unwrap_or(BUILTIN);
        let loaded = |a: &&mut Agent| !a.status.is_unloaded() && a.name.to_lowercase() == *name;
        if report.agents.iter_mut().filter(loaded).any(|a| tier_of(a) <= *level) {
            continue;
        }
        let mut refused = false;
        for agent in report.agents.iter_mut().filter(|a| !a.status.is_unloaded() && a.name.to_lowercase() == *name) {
            refused = true;
            agent.status = Status::Shadowed;
            agent.shadowed_by = Some(refusing.clone());
            agent.undocumented_order = None;
            agent.rule = format!(
                "refused: {refusing} declares an executor or execution backend for `{}` but fails to load, and Qwen Code refuses to dispatch the name rather than fall through to this definition",
                agent.name
            );
        }
        if refused {
            report.diagnostics.push(Diagnostic::warning(
                ID,
                DiagKind::Validation,
                path,
                format!("Qwen Code refuses to run `{name}`: this file declares an executor or execution backend for it but fails to load"),
            ));
        }
    }
}

fn read_failure(e: &ReadError) -> definition::Failure {
    let message = match e {
        ReadError::NotFound => "Failed to read subagent file: no such file (a dangling symlink?)".to_string(),
        other => format!("Failed to read subagent file: {other}"),
    };
    definition::io_failure(message)
}

/// YAML that did not parse is no error in Qwen Code (its line parser reads it), but
/// what it loads may not be what the text says: a warning, not a failure.
fn lenient_note(def: &definition::Definition, path: &Path) -> Option<Diagnostic> {
    let (message, line) = def.lenient.as_ref()?;
    let d = Diagnostic::warning(
        ID,
        DiagKind::Ambiguous,
        path,
        format!("the front matter is not valid YAML ({message}); Qwen Code reads it with its simple line parser instead"),
    );
    Some(d.at(Some(*line as u32 + 1), None))
}

fn loaded(def: &definition::Definition, source: Source, key: String, label: &str) -> Agent {
    let source_key: Arc<str> = key.as_str().into();
    let fields: Vec<Field> = def
        .fields
        .iter()
        .map(|(k, v, line)| Field::new(*k, v.clone(), FieldOrigin::own(&source_key, *line, "as parseSubagentContent reads it")))
        .collect();
    let attributes: Vec<Attribute> = def.attributes.iter().map(|(k, line, v)| Attribute::new(k, *line, v.clone())).collect();
    AgentRecord {
        description: def.description.as_str().into(),
        fields: fields.into(),
        attributes: attributes.into(),
        system_prompt: Some(def.prompt.clone()),
        ..AgentRecord::new(ID, def.name.clone(), source, Status::Wins, format!("loaded from {label}"))
    }
    .into()
}

impl Framework for QwenCode {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".qwen"), E::project("QWEN.md"), E::home(".qwen")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Qwen Code"
    }

    /// `loadSubagent` finds an agent case-insensitively (spec §4); skills are looked
    /// up by their exact name (spec "Skills").
    fn name_matching(&self, kind: crate::model::Kind) -> super::NameRule {
        match kind {
            crate::model::Kind::Agent => super::NameRule::IGNORING_CASE,
            crate::model::Kind::Skill => super::NameRule::EXACT,
        }
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::npm("Qwen Code", "0.24.4", &["@qwen-code/qwen-code"]).brew(&["qwen-code"]).commands(&["qwen"]))
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let extensions = extensions(cx, &qwen_home(cx).join("extensions"), &mut report);
        let skill_settings = skills::SkillSettings::read(cx);
        let mut folders = folders(cx, &extensions);
        folders.extend(skills::places(cx, &extensions, &skill_settings));
        let mut scanned = Vec::new();
        for folder in folders.iter().filter(|p| p.holds_agents()) {
            scan_folder(cx, folder, &mut scanned);
        }
        let mut candidates = Vec::with_capacity(scanned.len() + BUILTINS.len());
        let mut refusals: Vec<(usize, String, String, PathBuf)> = Vec::new();
        for Scanned { tier, agent, failure, refuses } in scanned {
            report.diagnostics.extend(failure);
            for name in refuses {
                refusals.push((tier, name, agent.source.key(), agent.source.path.to_path_buf()));
            }
            candidates.push(Candidate { tier, agent });
        }
        for name in BUILTINS {
            let rule = "compiled into Qwen Code".to_string();
            candidates.push(Candidate { tier: BUILTIN, agent: Agent::new(ID, name.to_string(), Source::builtin(name), Status::Wins, rule) });
        }
        let tiers: std::collections::HashMap<String, usize> =
            candidates.iter().map(|c| (c.agent.source.key(), c.tier)).collect();
        report.agents = rank(&ladder(), candidates);
        refuse(&mut report, &tiers, &refusals);
        report.places = folders;
        skills::load(cx, &skill_settings, &extensions, &mut report);
        report
    }
}
