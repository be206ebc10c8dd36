//! Kimi Code CLI custom agents (npm `@moonshot-ai/kimi-code` 2.1.0, the TypeScript
//! successor of the Python kimi-cli that [`super::kimi`] reads).
//!
//! Mirrors, from the release's `dist/main.mjs`: `projectAgentRoots`,
//! `configuredAgentRoots` and `userAgentRoots` (the folders, taken by real path, the
//! project root being the nearest `.git`), `discoverAgentFiles` (recursive walk to
//! depth 8 in UTF-16 name order, dot entries and `node_modules` skipped, lower-case
//! `.md` only, the first file of a name wins inside one loader),
//! `parseFrontmatter` + `parseAgentFileText` ([`agent_file`], js-yaml semantics in
//! [`crate::jsyaml`]), `loadSystemMdProfile`, `SessionAgentProfileCatalogService.reproject`
//! (sources by priority — workspace > extra > user > built-in — where a file named
//! like a built-in needs `override: true`, checked per candidate), `isToolActive`
//! and `renderPromptTemplateResult` ([`render`]).

pub mod agent_file;
mod render;
pub(crate) mod skill_file;
pub(crate) mod skills;
mod walk;

use crate::discover::Hold;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::precedence::{rank_with, Candidate, Ladder, Tier};
use super::{Framework, LoadContext, RenderMode};
use crate::model::{
    Agent, AgentRecord, DiagKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Place, Reach, Scope, Source,
    Status, Text,
};

pub struct KimiCode;

const ID: &str = "kimi-code";

/// The built-in profiles, in the tool's catalog order (`init_profiles`, `plan.ts`).
const BUILTINS: [&str; 4] = ["plan", "agent", "coder", "explore"];
/// The built-in main agent's `subagents`, inherited by a file that replaces it.
const MAIN_SUBAGENTS: [&str; 3] = ["coder", "explore", "plan"];

/// The loaders, highest priority first (`AGENT_PROFILE_SOURCE_PRIORITY`); SYSTEM.md
/// is part of the user loader but replaces its files' `agent`, so it ranks above them.
const WORKSPACE: usize = 0;
const EXTRA: usize = 1;
pub(super) const SYSTEM_MD: usize = 2;
const USER: usize = 3;
const BUILTIN: usize = 4;

fn ladder() -> Ladder {
    Ladder::new(vec![
        Tier::first("the project source (.kimi-code/agents, then .agents/agents)"),
        Tier::first("the extra_agent_dirs source (config.toml, in list order)"),
        Tier::first("the user's SYSTEM.md"),
        Tier::first("the user source (~/.kimi-code/agents, then ~/.agents/agents)"),
        Tier::first("the built-in set"),
    ])
}

/// `$KIMI_CODE_HOME`, default `~/.kimi-code` (the report is made without the variable).
fn kimi_home(cx: &LoadContext) -> PathBuf {
    match (&cx.render, cx.env.get("KIMI_CODE_HOME")) {
        (RenderMode::Live { .. }, Some(p)) if !p.is_empty() => crate::model::normalize(Path::new(p)),
        _ => cx.roots.home.join(".kimi-code"),
    }
}

/// `findProjectRoot`: the nearest folder from the working folder up that holds
/// `.git`; the project root agentry was given when none does (it stands for the
/// repository, as the oracle's `git init` makes it).
fn project_root(cx: &LoadContext) -> PathBuf {
    let levels = cx.roots.walk_up();
    levels.iter().find(|d| cx.files.exists(&d.join(".git"))).cloned().unwrap_or_else(|| cx.roots.project.clone())
}

/// `resolveAgentPath`: `~` and `~/x` under the home, absolute as is, anything else
/// under the project root.
fn resolve_extra(dir: &str, root: &Path, home: &Path) -> PathBuf {
    let path = if dir == "~" {
        home.to_path_buf()
    } else if let Some(rest) = dir.strip_prefix("~/") {
        home.join(rest)
    } else if Path::new(dir).is_absolute() {
        PathBuf::from(dir)
    } else {
        root.join(dir)
    };
    crate::model::normalize(&path)
}

impl Default for Config {
    fn default() -> Config {
        Config { extra_dirs: Vec::new(), tools_enabled: None, tools_disabled: None, extra_skill_dirs: Vec::new(), builtin_product_skills: true }
    }
}

/// What `$KIMI_CODE_HOME/config.toml` says about agents: `extra_agent_dirs`, and the
/// global tool switches `[tools] enabled` / `disabled` every agent is held to.
pub(crate) struct Config {
    pub extra_dirs: Vec<String>,
    pub tools_enabled: Option<Vec<String>>,
    pub tools_disabled: Option<Vec<String>>,
    /// `extra_skill_dirs`, resolved as `extra_agent_dirs` are.
    pub extra_skill_dirs: Vec<String>,
    /// `builtin_product_skills` (default true): `false` removes the product skills.
    pub builtin_product_skills: bool,
}

fn config(cx: &LoadContext, path: &Path, report: &mut EcosystemReport) -> Config {
    let Ok(bytes) = cx.files.read(path, Hold::Kept) else { return Config::default() };
    let text = String::from_utf8_lossy(&bytes);
    let table: toml::Table = match toml::from_str(&text) {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() as u32 + 1);
            let d = Diagnostic::warning(ID, DiagKind::Parse, path, format!("config.toml is not valid TOML; its agent settings are not read: {}", e.message()));
            report.diagnostics.push(d.at(line, None));
            return Config::default();
        }
    };
    let mut strings = |value: Option<&toml::Value>, what: &str| -> Option<Vec<String>> {
        match value? {
            toml::Value::Array(items) if items.iter().all(|i| i.is_str()) => {
                Some(items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect())
            }
            _ => {
                report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Validation, path, format!("{what} must be a list of strings; not read")));
                None
            }
        }
    };
    let tools = table.get("tools").and_then(|t| t.as_table());
    Config {
        extra_dirs: strings(table.get("extra_agent_dirs"), "extra_agent_dirs").unwrap_or_default(),
        tools_enabled: strings(tools.and_then(|t| t.get("enabled")), "[tools] enabled").filter(|l| !l.is_empty()),
        tools_disabled: strings(tools.and_then(|t| t.get("disabled")), "[tools] disabled"),
        extra_skill_dirs: strings(table.get("extra_skill_dirs"), "extra_skill_dirs").unwrap_or_default(),
        builtin_product_skills: table.get("builtin_product_skills").and_then(|v| v.as_bool()) != Some(false),
    }
}

/// Every place Kimi Code reads, in its order: the agent folders loader by loader (the
/// project's at the nearest `.git` root, `extra_agent_dirs`, `$KIMI_CODE_HOME`'s, the
/// user's) and the user's `SYSTEM.md`.
fn places(cx: &LoadContext, config: &Config) -> Vec<Place> {
    let r = cx.roots;
    let root = project_root(cx);
    let home = kimi_home(cx);
    let tree = Reach::new(walk::WALKING.depth, &[".md"]).walking(walk::WALKING);
    let folder = |tier, dir: PathBuf, label: String| {
        let scope = r.locate(&dir, None).0;
        let base = if scope == Scope::Project { &r.project } else { &r.home };
        Place::agents(tier, scope, base, dir, tree, label)
    };
    let mut out = vec![
        folder(WORKSPACE, root.join(".kimi-code/agents"), "project .kimi-code/agents".into()),
        folder(WORKSPACE, root.join(".agents/agents"), "project .agents/agents".into()),
    ];
    for dir in &config.extra_dirs {
        out.push(folder(EXTRA, resolve_extra(dir, &root, &r.home), format!("extra_agent_dirs entry `{dir}`")));
    }
    out.push(folder(USER, home.join("agents"), "user ~/.kimi-code/agents".into()));
    out.push(folder(USER, r.home.join(".agents/agents"), "user ~/.agents/agents".into()));
    crate::model::numbered(&mut out, "searched");
    let system = Place::agents(SYSTEM_MD, Scope::User, &r.home, home.clone(), Reach::top(&["SYSTEM.md"]), "user SYSTEM.md (replaces the main agent `agent`)");
    out.push(system);
    out.push(Place::settings(Scope::User, &r.home, home, Reach::top(&["config.toml"]), "config.toml (extra_agent_dirs, [tools])"));
    out
}

/// The agent folders of `places` that exist, each taken once per loader by real path
/// and written under the workspace root that holds it: where the walks start.
fn walked(cx: &LoadContext, places: &[Place]) -> Vec<Place> {
    let mut out: Vec<(Place, PathBuf)> = Vec::new();
    for place in places.iter().filter(|p| p.holds_agents() && p.tier != SYSTEM_MD) {
        if cx.files.kind(&place.dir) != crate::discover::Kind::Dir {
            continue;
        }
        let Some(real) = cx.files.canonicalize(&place.dir) else { continue };
        if out.iter().any(|(f, r)| f.tier == place.tier && *r == real) {
            continue;
        }
        let shown = shown_path(cx, &real);
        out.push((Place { dir: shown, ..place.clone() }, real));
    }
    out.into_iter().map(|(f, _)| f).collect()
}

/// A real path written under the workspace root that holds it (the project or the
/// home as given, which may themselves be reached through links).
fn shown_path(cx: &LoadContext, real: &Path) -> PathBuf {
    let r = cx.roots;
    let mut best: Option<(usize, PathBuf)> = None;
    for root in [&r.project, &r.home] {
        let Some(canon) = cx.files.canonicalize(root) else { continue };
        if let Ok(rest) = real.strip_prefix(&canon) {
            if best.as_ref().is_none_or(|(len, _)| canon.as_os_str().len() > *len) {
                best = Some((canon.as_os_str().len(), if rest.as_os_str().is_empty() { root.clone() } else { root.join(rest) }));
            }
        }
    }
    best.map_or_else(|| real.to_path_buf(), |(_, p)| p)
}

/// The file-defined agent, before ranking.
fn file_agent(def: &agent_file::Definition, parsed: &walk::Parsed, source: Source, vars: &render::Vars) -> Agent {
    let key: Arc<str> = source.key().into();
    let line_of = |field: &str| parsed.attributes.lines().find(|(k, _)| *k == field).map(|(_, l)| l);
    let own = |field: &str, rule: &'static str| FieldOrigin::own(&key, line_of(field), rule);
    let list = |l: &Option<Vec<String>>| l.as_ref().map_or(Json::Null, |v| json!(v));
    let mut fields = vec![
        Field::new("description", json!(def.description), own("description", "required; trimmed")),
        Field::new(
            "whenToUse",
            def.when_to_use.as_ref().map_or(Json::Null, |w| json!(w)),
            own("whenToUse", "a non-empty string, trimmed; any other value is dropped without a word"),
        ),
        Field::new("override", json!(def.override_builtin), own("override", "needed to replace a built-in agent of the same name")),
        Field::new(
            "tools",
            json!(vars.tools(def.tools.as_deref(), def.disallowed_tools.as_deref())),
            own(
                "tools",
                "the tools the model receives in a default 2.1.0 session (26 built-in tools; no MCP servers, no web search, experimental flags off): `tools` keeps exact names (`*` alone = all), then `disallowedTools` removes, then config.toml's `[tools] enabled`/`disabled`; unknown names are dropped",
            ),
        ),
        Field::new("disallowedTools", list(&def.disallowed_tools), own("disallowedTools", "as written; applied after `tools`")),
    ];
    // A replacement for the built-in main agent keeps its sub-agents when it names none.
    let inherits = def.name == "agent" && def.override_builtin && def.subagents.is_none();
    fields.push(if inherits {
        let rule = "inherited from the built-in `agent` it replaces (the file names no `subagents`)";
        Field::new("subagents", json!(MAIN_SUBAGENTS), FieldOrigin::inherited(&Arc::from("builtin:agent"), None, rule))
    } else {
        Field::new("subagents", list(&def.subagents), own("subagents", "as written: the agent types it may delegate to"))
    });
    AgentRecord {
        description: def.description.as_str().into(),
        fields: fields.into_iter().map(Arc::new).collect::<Vec<_>>().into(),
        attributes: parsed.attributes.clone(),
        system_prompt: parsed.prompt.clone(),
        ..AgentRecord::new(ID, def.name.clone(), source, Status::Wins, String::new())
    }
    .into()
}

/// `loadSystemMdProfile`: a user-level `agent` with `override: true`, the built-in
/// main agent's description, tools and sub-agents, and the raw text as its template.
fn system_md_agent(rendered: String, source: Source, vars: &render::Vars) -> Agent {
    let key: Arc<str> = source.key().into();
    let builtin = |rule: &'static str| FieldOrigin::inherited(&Arc::from("builtin:agent"), None, rule);
    let fields = vec![
        Field::new("description", json!("Default agent"), builtin("the built-in main agent's description")),
        Field::new("whenToUse", Json::Null, builtin("SYSTEM.md sets none")),
        Field::new("override", json!(true), FieldOrigin::own(&key, None, "SYSTEM.md always replaces the built-in main agent")),
        Field::new("tools", json!(vars.tools(None, None)), builtin("the built-in main agent's tools (all of a default session, less config.toml's switches)")),
        Field::new("disallowedTools", Json::Null, builtin("the built-in main agent's")),
        Field::new("subagents", json!(MAIN_SUBAGENTS), builtin("the built-in main agent's")),
    ];
    let mut agent = AgentRecord::new(ID, "agent".into(), source, Status::Wins, String::new());
    agent.description = "Default agent".into();
    agent.fields = fields.into_iter().map(Arc::new).collect::<Vec<_>>().into();
    agent.system_prompt = Some(Text::held(rendered));
    agent.into()
}

/// Whether the main agent's prompt carries the skills listing: its profile (the
/// built-in one, SYSTEM.md's or a file's `agent`) has the `Skill` tool and its
/// template uses `${skills_section}` (or `${skills}`).
fn main_agent_lists_skills(agents: &[Agent]) -> bool {
    let Some(main) = agents.iter().find(|a| a.name == "agent" && a.status == Status::Wins) else { return true };
    if main.source.is_compiled_in() {
        return true;
    }
    let has_skill_tool = main.fields.iter().any(|f| f.key == "tools" && f.value.to_json().as_array().is_some_and(|t| t.iter().any(|x| x == "Skill")));
    let prompt = main.system_prompt.as_ref().and_then(|t| t.read().ok().map(|p| p.into_owned())).unwrap_or_default();
    has_skill_tool && (prompt.contains("${skills_section}") || prompt.contains("${skills}"))
}

impl Framework for KimiCode {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".kimi-code"), E::project(".agents/agents"), E::home(".kimi-code"), E::home(".agents/agents")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "Kimi Code"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::npm("Kimi Code", "2.1.0", &["@moonshot-ai/kimi-code"]).commands(&["kimi"]))
    }

    /// The `Skill` tool looks a skill up by its lower-cased name (spec "Skills");
    /// agents must be kebab-case, so theirs is compared as written.
    fn name_matching(&self, kind: crate::model::Kind) -> super::NameRule {
        match kind {
            crate::model::Kind::Skill => super::NameRule::IGNORING_CASE,
            crate::model::Kind::Agent => super::NameRule::EXACT,
        }
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let config = config(cx, &kimi_home(cx).join("config.toml"), &mut report);
        let places = places(cx, &config);
        let folders = walked(cx, &places);
        // Every place is watched, found or not (a folder made later is then seen), and
        // a folder reached through a link by its real path too.
        let through_links: Vec<Place> = folders.iter().filter(|f| !places.iter().any(|p| p.dir == f.dir)).cloned().collect();
        report.places = places;
        report.places.extend(through_links);

        // SYSTEM.md first: it is every file agent's `${base_prompt}`.
        let home = kimi_home(cx);
        let system_path = home.join("SYSTEM.md");
        let system_text = if cx.files.is_file(&system_path) {
            cx.files.read(&system_path, Hold::Kept).ok().map(|b| String::from_utf8_lossy(&b).into_owned()).filter(|t| !agent_file::js_trim(t).is_empty())
        } else {
            None
        };
        let mut vars = render::Vars::new(cx);
        vars.global_tools = (config.tools_enabled.clone(), config.tools_disabled.clone());
        if let Some(text) = &system_text {
            vars.base_prompt = Some(render::render(text, &vars, false));
        }

        let mut candidates: Vec<Candidate> = Vec::new();
        let mut overriding: std::collections::HashSet<String> = std::collections::HashSet::new();
        // The rule's words on variables left as written, by source: worked out with
        // the prompt (a prompt on disk is not read back for them).
        let mut notes: std::collections::HashMap<String, String> = std::collections::HashMap::new();
        for folder in &folders {
            for found in walk::walk(cx, folder, &vars, &mut report) {
                let source = cx.roots.source(&found.path, None);
                let key = source.key();
                match &found.parsed.result {
                    Ok(def) => {
                        if let Some(note) = &found.parsed.runtime_note {
                            notes.insert(key.clone(), note.clone());
                        }
                        if def.override_builtin {
                            overriding.insert(key);
                        }
                        let agent = file_agent(def, &found.parsed, source, &vars);
                        candidates.push(Candidate { tier: folder.tier, agent });
                    }
                    Err(f) => {
                        let d = Diagnostic::error(ID, f.kind, &found.path, f.message.clone()).at(f.line, None).failing(key);
                        report.diagnostics.push(d);
                        let name = agent_file::stem_of(&found.file_name).to_string();
                        let rule = "failed to load: Kimi Code skips the file with a warning in its log, and the name stays free".to_string();
                        candidates.push(Candidate { tier: folder.tier, agent: Agent::new(ID, name, source, Status::Invalid, rule) });
                    }
                }
            }
        }
        if let Some(text) = &system_text {
            let source = cx.roots.source(&system_path, None);
            overriding.insert(source.key());
            let rendered = render::render(text, &vars, false);
            if let Some(note) = render::runtime_note(&rendered) {
                notes.insert(source.key(), note);
            }
            candidates.push(Candidate { tier: SYSTEM_MD, agent: system_md_agent(rendered, source, &vars) });
        }
        for name in BUILTINS {
            let rule = "compiled into Kimi Code 2.1.0".to_string();
            candidates.push(Candidate { tier: BUILTIN, agent: Agent::new(ID, name.into(), Source::builtin(name), Status::Wins, rule) });
        }
        let barred = |a: &Agent| {
            let builtin = BUILTINS.contains(&a.name.as_str()) && !a.source.is_compiled_in();
            (builtin && !overriding.contains(&a.source.key())).then(|| {
                format!("`{}` is a built-in agent, and a file replaces it only with `override: true` (the tool logs a warning and keeps the built-in)", a.name)
            })
        };
        report.agents = rank_with(&ladder(), candidates, &barred);
        for agent in &mut report.agents {
            if let Some(note) = notes.get(&agent.source.key()) {
                agent.rule.push_str(note);
            }
        }
        let skills = skills::load(cx, &config, main_agent_lists_skills(&report.agents));
        report.agents.extend(skills.skills);
        report.places.extend(skills.places);
        report.diagnostics.extend(skills.diagnostics);
        report
    }
}
