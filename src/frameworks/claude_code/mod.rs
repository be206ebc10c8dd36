//! Claude Code subagents, as `@anthropic-ai/claude-code` 2.1.337 reads them.
//!
//! Mirrors the release's bundled loader: `wvs` (load every agent), `N2`
//! (`loadMarkdownFilesFromDir`: recursive, every `*.md`, symlinks followed, files
//! de-duplicated by their `lstat` inode, user before project), `qc`/`Bar` (front
//! matter and its lenient retry, [`frontmatter`]), `Pyn`/`rGr` (one `.claude/agents`
//! file, [`definition`]), `O3n` (a plugin's agent), `GQ` (the merge: built-ins,
//! plugins, user, project folders from the shallowest to the deepest, each set by
//! name, the last set winning) and the spawn's tool resolution ([`tools`]).
//!
//! Places, highest precedence first: every `.claude/agents` on the walk from the
//! working folder up to the repository root (the nearest wins), `~/.claude/agents`,
//! the agents of plugins auto-loaded from `~/.claude/skills/<p>/` and the working
//! folder's `.claude/skills/<p>/` (held when the project is untrusted), then the
//! built-in agents (names only). Inside one folder tree the file read last wins, in
//! the file system's listing order. Managed agents, `--agents` JSON, `--add-dir`
//! folders and marketplace plugins are not read; nor, in a git worktree, the main
//! checkout's `.claude/agents` that the tool adds (`qit`); without a repository the
//! tool walks up to the home folder, where agentry stops at the working folder.

mod agent;
mod bun_indent;
pub(crate) mod definition;
pub(crate) mod frontmatter;
mod hooks;
mod lf_retry;
mod listing;
mod scan;
pub(crate) mod skill_file;
mod skill_links;
mod skills;
mod tools;

use crate::discover::Hold;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::precedence::{self, Candidate, Ladder, Tier};
use super::{Framework, LoadContext, RenderMode};
use crate::model::{Agent, DiagKind, Diagnostic, EcosystemReport, Place, Reach, Roots, Scope, Source, Status};

pub struct ClaudeCode;

pub const ID: &str = "claude-code";
/// The release whose rules agentry follows.
pub const RELEASE: &str = "2.1.337";

/// The built-in agents of print and SDK mode (the interactive CLI adds
/// `claude-code-guide`).
const BUILTINS: &[&str] = &["claude", "Explore", "general-purpose", "Plan", "statusline-setup"];

const LISTING: &str = "the file system's listing order (Claude Code reads folders as readdir gives them, unsorted)";

/// Where a place's files come from.
enum Kind {
    /// A `.claude/agents` folder; the settings source Claude Code names it by.
    Agents { settings: &'static str },
    /// A plugin's agent folder or named file; `unread` lists the files of that
    /// folder the tool does read (named in `plugin.json`), when the folder is read
    /// only to report the rest.
    Plugin { name: String, root: PathBuf, rejected: Option<String>, unread: Option<Vec<PathBuf>> },
}

/// The walk from the working folder up to the repository root, nearest first; it
/// also stops at the home folder, which is the user's place, not the project's.
fn walk(roots: &Roots) -> Vec<PathBuf> {
    let home = crate::model::normalize(&roots.home);
    roots.walk_up().into_iter().take_while(|d| *d != home).collect()
}

fn where_in(roots: &Roots, dir: &Path) -> String {
    let rel = crate::model::relative_to(dir, &roots.project);
    if rel == "." || rel.is_empty() { "the repository root".into() } else { format!("`{rel}`") }
}

/// Every place read for agent files, highest precedence first (tiers), with the
/// plugin places last (a plugin's agent folder, or one agent file it names); with
/// each, where its files come from. `roots` gets the skills folders plugins are
/// found in.
fn places(cx: &LoadContext, roots: &mut Vec<Place>) -> Vec<(Place, Kind)> {
    let r = cx.roots;
    let walk = walk(r);
    let md = Reach::tree(&[".md"]).walking(scan::WALKING);
    let mut out = Vec::new();
    for (i, d) in walk.iter().enumerate() {
        let label = format!("project .claude/agents in {} (step {} of the walk up from the working folder)", where_in(r, d), i + 1);
        out.push((Place::agents(i, Scope::Project, &r.project, d.join(".claude/agents"), md, label), Kind::Agents { settings: "projectSettings" }));
    }
    let user_tier = walk.len();
    let user = Place::agents(user_tier, Scope::User, &r.home, r.home.join(".claude/agents"), md, "user ~/.claude/agents");
    out.push((user, Kind::Agents { settings: "userSettings" }));
    // Plugins auto-load from the user's skills folder and the working folder's (not
    // the other folders on the walk: observed); a plugin name already loaded keeps
    // its first folder, the user's before the project's.
    let mut skills: Vec<(Scope, PathBuf, PathBuf, bool, bool)> =
        vec![(Scope::User, r.home.clone(), r.home.join(".claude/skills"), false, true)];
    for (i, d) in walk.iter().enumerate() {
        skills.push((Scope::Project, r.project.clone(), d.join(".claude/skills"), !r.trusted, i == 0));
    }
    let mut loaded_plugins: Vec<(String, String)> = Vec::new();
    for (scope, base, dir, held, read) in skills {
        let shown = crate::model::posix(&dir);
        let whose = match (scope, read) {
            (Scope::User, _) => "~/.claude/skills".to_string(),
            (_, true) => ".claude/skills of the working folder (held when untrusted)".to_string(),
            _ => format!("{shown} (not auto-loaded: not the working folder's)"),
        };
        if read {
            let label = format!("plugin agents: <plugin>/agents in {whose}, with .claude-plugin/plugin.json");
            roots.push(Place::agents(user_tier + 1, scope, &base, dir.clone(), md, label).held(held));
        }
        let manifests = Reach::to_depth(2, &["plugin.json"]);
        roots.push(Place::settings(scope, &base, dir.clone(), manifests, format!("plugin manifests in {whose}")).held(held));
        for mut p in scan::plugins(cx, &dir) {
            if !read && p.rejected.is_none() {
                p.rejected = Some(format!(
                    "{shown} is not the working folder's .claude/skills: Claude Code auto-loads project plugins only from the folder it starts in"
                ));
                p.agent_paths = vec![p.root.join("agents")];
            }
            if p.rejected.is_none() {
                match loaded_plugins.iter().find(|(n, _)| *n == p.name) {
                    Some((_, first)) => {
                        p.rejected = Some(format!("a plugin named `{}` is already loaded from {first}: Claude Code keeps the first", p.name));
                        p.agent_paths = vec![p.root.join("agents")];
                    }
                    None => loaded_plugins.push((p.name.clone(), shown.clone())),
                }
            }
            let label = format!("plugin `{}` (auto-loaded from {shown})", p.name);
            for path in &p.agent_paths {
                let place = Place::agents(user_tier + 1, scope, &base, path.clone(), md, label.clone()).held(held);
                out.push((place, Kind::Plugin { name: p.name.clone(), root: p.root.clone(), rejected: p.rejected.clone(), unread: None }));
            }
            // `agents` in plugin.json replaces the agents/ folder: its other files are
            // not read (the oracle lists them as ignored).
            let folder = p.root.join("agents");
            if p.rejected.is_none() && p.agent_paths != [folder.clone()] {
                let why = "the plugin's plugin.json `agents` names the files it loads, which replaces the agents/ folder: Claude Code does not read this file".to_string();
                let named = p.agent_paths.iter().map(|a| crate::model::normalize(a)).collect();
                let place = Place::agents(user_tier + 1, scope, &base, folder, md, label).held(held);
                out.push((place, Kind::Plugin { name: p.name.clone(), root: p.root.clone(), rejected: Some(why), unread: Some(named) }));
            }
        }
    }
    out
}

/// The built-ins this user's settings leave (`disableAgentView` removes `claude`,
/// `CLAUDE_CODE_DISABLE_EXPLORE_PLAN_AGENTS` removes Explore and Plan).
fn builtins(cx: &LoadContext) -> Vec<&'static str> {
    let settings: serde_json::Value = cx
        .files
        .read(&cx.roots.home.join(".claude/settings.json"), Hold::Kept)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let truthy = |v: Option<&str>| v.is_some_and(|v| !matches!(v.trim().to_lowercase().as_str(), "" | "0" | "false" | "no" | "off"));
    let live_env = match cx.render {
        RenderMode::Live { .. } => cx.env.get("CLAUDE_CODE_DISABLE_EXPLORE_PLAN_AGENTS").map(String::as_str),
        RenderMode::Export => None,
    };
    let no_explore_plan = truthy(settings["env"]["CLAUDE_CODE_DISABLE_EXPLORE_PLAN_AGENTS"].as_str()) || truthy(live_env);
    let no_claude = settings["disableAgentView"] == serde_json::Value::Bool(true);
    BUILTINS
        .iter()
        .copied()
        .filter(|b| !(no_claude && *b == "claude" || no_explore_plan && matches!(*b, "Explore" | "Plan")))
        .collect()
}

impl Framework for ClaudeCode {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".claude"), E::project("CLAUDE.md"), E::home(".claude")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Claude Code"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release { tool: "Claude Code", version: RELEASE, npm: &["@anthropic-ai/claude-code"], python: &[], brew: &["claude-code"], commands: &["claude"], version_folders: &[".local/share/claude/versions"], npm_prefixes: &[".claude/local"] })
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let mut plugin_roots = Vec::new();
        let places = places(cx, &mut plugin_roots);
        report.places = places.iter().map(|(p, _)| p.clone()).chain(plugin_roots).collect();
        let settings = Place::settings(Scope::User, &cx.roots.home, cx.roots.home.join(".claude"), Reach::top(&["settings.json"]), "user settings ~/.claude/settings.json");
        report.places.push(settings);
        let builtin_tier = places.iter().map(|(p, _)| p.tier).max().unwrap_or(0) + 1;
        let mut tiers: Vec<Tier> = Vec::new();
        for t in 0..builtin_tier {
            let label = places.iter().find(|(p, _)| p.tier == t).map_or("plugin agents".to_string(), |(p, kind)| match kind {
                Kind::Plugin { .. } => "plugin agents".to_string(),
                Kind::Agents { .. } => p.label.clone(),
            });
            tiers.push(Tier::last(label).undocumented(LISTING));
        }
        tiers.push(Tier::last("the built-in agents"));
        let ladder = Ladder::new(tiers);

        // Claude Code reads user files before project files, the nearest folder first:
        // a file met again through a folder symlink keeps its first reading.
        let mut read_order: Vec<usize> = places.iter().enumerate().filter(|(_, (p, k))| p.scope == Scope::User && matches!(k, Kind::Agents { .. })).map(|(i, _)| i).collect();
        read_order.extend(places.iter().enumerate().filter(|(_, (p, k))| p.scope == Scope::Project && matches!(k, Kind::Agents { .. })).map(|(i, _)| i));
        read_order.extend(places.iter().enumerate().filter(|(_, (_, k))| matches!(k, Kind::Plugin { .. })).map(|(i, _)| i));
        let mut first_read: HashMap<PathBuf, &'static str> = HashMap::new();
        let mut per_place: Vec<Vec<Agent>> = vec![Vec::new(); places.len()];
        // Each loaded agent's line in the model's listing, by source key.
        let mut lines: HashMap<String, String> = HashMap::new();
        for i in read_order {
            let (place, kind) = &places[i];
            let mut too_deep = Vec::new();
            let found = if cx.files.kind(&place.dir) == crate::discover::Kind::File {
                let name = place.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                match name.strip_suffix(".md") {
                    Some(stem) => vec![scan::Found { path: place.dir.clone(), namespace: Vec::new(), stem: stem.to_string(), problem: None }],
                    None => Vec::new(),
                }
            } else {
                let walker = match kind {
                    Kind::Plugin { .. } => scan::Walker::Plugin,
                    Kind::Agents { .. } => scan::Walker::Agents,
                };
                scan::walk(cx, place, walker, &mut too_deep)
            };
            for dir in too_deep {
                report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Io, dir, "folders nested this deep are not followed by agentry"));
            }
            for f in found {
                let source = Source::new(place.scope, &place.base, f.path.clone());
                if let Kind::Plugin { unread: Some(named), .. } = kind {
                    if named.contains(&crate::model::normalize(&f.path)) {
                        continue;
                    }
                }
                if let Kind::Plugin { rejected: Some(why), .. } = kind {
                    report.diagnostics.push(Diagnostic::skipped(ID, &*f.path, why.clone()).failing(source.key()));
                    per_place[i].push(agent::unloaded(&f, source, Status::Skipped, &format!("skipped: {why}")));
                    continue;
                }
                if let Kind::Agents { settings } = *kind {
                    let id = scan::identity(cx, &f.path);
                    if let Some(first) = first_read.get(&id) {
                        // The tool parses every file of a scan before it drops a second
                        // reading of one inode: a front matter that does not parse is
                        // logged for this path too (observed, 2.1.337).
                        let (agent, diags, _) = agent::from_file(cx, place_view(place, kind), &f, source.clone());
                        if diags.iter().any(|d| d.kind == DiagKind::Parse) {
                            report.diagnostics.extend(diags);
                            per_place[i].push(agent);
                            continue;
                        }
                        let message = format!(
                            "Skipping duplicate file '{}' from {settings} (same inode already loaded from {first}): the same file, reached again through a folder symlink",
                            f.path.display()
                        );
                        report.diagnostics.push(Diagnostic::skipped(ID, &*f.path, message).failing(source.key()));
                        per_place[i].push(agent::unloaded(&f, source, Status::Skipped, "skipped: the same file was already read from another place (Claude Code keeps the first reading)"));
                        continue;
                    }
                    first_read.insert(id, settings);
                }
                let key = source.key();
                let (agent, diags, line) = agent::from_file(cx, place_view(place, kind), &f, source);
                report.diagnostics.extend(diags);
                if let Some(line) = line {
                    lines.insert(key, line);
                }
                per_place[i].push(agent);
            }
        }
        let mut candidates: Vec<Candidate> = Vec::new();
        for b in builtins(cx) {
            let a = Agent::new(ID, b.to_string(), Source::builtin(b), Status::Wins, String::new());
            candidates.push(Candidate { tier: builtin_tier, agent: a });
        }
        for (i, agents) in per_place.into_iter().enumerate() {
            for a in agents {
                candidates.push(Candidate { tier: places[i].0.tier, agent: a });
            }
        }
        report.agents = precedence::rank(&ladder, candidates);
        report.agent_listing = listing::agent_listing(&mut report.agents, &lines, &listing::denied(cx));
        let label = "project settings (`permissions.deny` rules `Agent(NAME)` leave an agent out of the model's listing)";
        let reach = Reach::top(&["settings.json", "settings.local.json"]);
        report.places.push(Place::settings(Scope::Project, &cx.roots.project, cx.roots.project.join(".claude"), reach, label));
        skills::load(cx, &walk(cx.roots), &mut report);
        skill_links::link(&mut report);
        for a in &report.agents {
            if a.status == Status::Wins && a.undocumented_order.is_some() {
                let msg = format!(
                    "several files in one folder tree define `{}`: Claude Code keeps the one it reads last, and reads folders in {LISTING}",
                    a.name
                );
                report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Ambiguous, &*a.source.path, msg));
            }
        }
        report
    }
}

/// What the agent builder needs of a place.
fn place_view<'a>(p: &Place, kind: &'a Kind) -> agent::PlaceView<'a> {
    agent::PlaceView {
        held: p.held,
        plugin: match kind {
            Kind::Plugin { name, root, .. } => Some((name.as_str(), root.as_path())),
            Kind::Agents { .. } => None,
        },
    }
}
