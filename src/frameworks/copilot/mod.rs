//! GitHub Copilot CLI custom agents (npm `@github/copilot` 1.0.102; its loader is
//! native code, so every rule here was observed by running that release, see
//! `shared/oracle/copilot`).
//!
//! Folder trees in precedence order: `~/.copilot/agents`, then `.github/agents` in
//! the working folder and each parent up to the repository root, then
//! `.claude/agents` in the same folders. Each tree is walked recursively
//! ([`walk`]); an agent's ID is its relative path (`team/lint.agent.md` →
//! `team--lint`), and inside one tree the first path in byte order claims the ID
//! before it is parsed, so a broken claimant leaves the tree without that agent.
//! Across trees the first tree with a loaded agent wins the ID. The model reaches
//! agents by their `name` through the `task` tool, which finds a built-in first.
//! Front matter: [`frontmatter`] (serde_yaml, as the CLI); keys: [`schema`];
//! tools a sub-agent gets: [`tools`].

mod frontmatter;
mod schema;
mod tools;
mod walk;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::precedence::{rank, Candidate, Ladder, Tier};
use super::{Framework, LoadContext, Location};
use crate::discover::{self, ReadError};
use crate::model::{
    relative_to, Agent, AgentRecord, Attribute, DiagKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Roots,
    Scope, SearchDir, Severity, Source, Status, Text,
};

use frontmatter::Failure;
/// The front-matter keys Copilot CLI reads; any other key loads with a warning
/// (`unknown field ignored: KEY`) and is ignored.
pub use schema::KNOWN as KNOWN_KEYS;
use schema::Definition;

pub struct Copilot;

const ID: &str = "copilot";

/// The agents compiled into CLI 1.0.102: the names its `task` tool accepts
/// offline (names only; the CLI looks a name up among them first).
pub const BUILTINS: [&str; 7] = ["explore", "task", "general-purpose", "rubber-duck", "code-review", "research", "security-review"];

/// One folder tree, in precedence order.
struct Tree {
    scope: Scope,
    /// What source paths are relative to.
    base: PathBuf,
    path: PathBuf,
    label: String,
}

/// The trees in precedence order; `copilot_home` is `$COPILOT_HOME` where the
/// user's environment sets it (default `~/.copilot`).
fn trees(roots: &Roots, copilot_home: Option<&Path>) -> Vec<Tree> {
    let (user, label) = match copilot_home {
        Some(dir) => (dir.join("agents"), "user $COPILOT_HOME/agents".to_string()),
        None => (roots.home.join(".copilot/agents"), "user ~/.copilot/agents".to_string()),
    };
    let mut out = vec![Tree { scope: Scope::User, base: roots.home.clone(), path: user, label }];
    let up = roots.walk_up();
    for sub in [".github/agents", ".claude/agents"] {
        for (i, dir) in up.iter().enumerate() {
            let rel = relative_to(dir, &roots.project);
            let at = if rel == "." { sub.to_string() } else { format!("{rel}/{sub}") };
            let whose = if i == 0 { "the working folder's" } else { "a parent of the working folder" };
            out.push(Tree {
                scope: Scope::Project,
                base: roots.project.clone(),
                path: dir.join(sub),
                label: format!("project {at} ({whose})"),
            });
        }
    }
    out
}

/// A file that loaded: what the CLI shows of it, its prompt and its sub-agent's
/// tools.
struct Loaded {
    def: Definition,
    prompt: Text,
    effective: Vec<&'static str>,
}

type Outcome = Result<Loaded, Failure>;

fn parse_file(cx: &LoadContext, path: &Path, id: &str) -> Arc<Outcome> {
    let context = discover::hash_key((cx.key, ID, id));
    cx.files
        .derived(path, context, |bytes| {
            let split = frontmatter::split(bytes)?;
            let def = schema::check(&split, id)?;
            let prompt = Text::from_file(cx.texts, path, bytes, &def.body);
            let effective = tools::effective(&def.tools, def.body.is_empty());
            Ok(Loaded { def, prompt, effective })
        })
        .unwrap_or_else(|e| {
            let message = match e {
                ReadError::NotFound => "no such file (it went away while being read)".to_string(),
                other => format!("cannot read the file: {other}"),
            };
            Arc::new(Err(Failure { kind: DiagKind::Io, message, line: None, col: None }))
        })
}

/// One agent file's bytes read as the CLI reads them (front matter, keys, tools),
/// as if it had the ID `id`: the fields it loads with, or the tool's message.
/// For the fuzz target and the tests; the reader goes through the file cache.
#[doc(hidden)]
pub fn read_bytes(bytes: &[u8], id: &str) -> Result<Vec<Field>, String> {
    let split = frontmatter::split(bytes).map_err(|f| f.message)?;
    let def = schema::check(&split, id).map_err(|f| f.message)?;
    let effective = tools::effective(&def.tools, def.body.is_empty());
    let loaded = Loaded { prompt: Text::held(def.body.as_str()), def, effective };
    Ok(fields(&loaded, &Arc::from(format!("project:.github/agents/{id}.agent.md"))))
}

/// The fields the CLI's event shows for a loaded file, plus the sub-agent's tools.
fn fields(loaded: &Loaded, source: &Arc<str>) -> Vec<Field> {
    let def = &loaded.def;
    let line = |key: &str| def.keys.iter().find(|k| k.name == key).map(|k| k.line);
    let own = |key: &str, rule: &'static str| FieldOrigin::own(source, line(key), rule);
    let mut out = vec![Field::new("description", json!(def.description), own("description", "set by `description`"))];
    let dmi_origin = match (line("disable-model-invocation"), line("infer")) {
        (Some(l), _) => FieldOrigin::own(source, Some(l), "set by `disable-model-invocation` (it wins over `infer`)"),
        (None, Some(l)) => FieldOrigin::own(source, Some(l), "`infer: false` hides the agent from the model"),
        (None, None) => FieldOrigin::default("default: false (the model may call it)"),
    };
    out.push(Field::new("disableModelInvocation", json!(def.disable_model_invocation), dmi_origin));
    if let Some(models) = &def.models {
        if let Some(first) = models.first() {
            out.push(Field::new("model", json!(first), own("model", "set by `model` (its first entry)")));
        }
        out.push(Field::new("models", json!(models), own("model", "set by `model`, in order")));
    }
    let name_origin = if def.keys.iter().any(|k| k.name == "name" && k.value.as_str().is_some_and(|s| !s.is_empty())) {
        own("name", "set by `name`: the name the model calls it by (the ID stays the path)")
    } else {
        FieldOrigin::default("default: the ID (no `name`, or an empty one)")
    };
    out.push(Field::new("name", json!(def.name), name_origin));
    let tools_origin = if def.tools_given {
        own("tools", "set by `tools` (as written; a string is split at commas)")
    } else {
        FieldOrigin::default("default: `*`, every tool (no `tools`)")
    };
    out.push(Field::new("tools", json!(def.tools), tools_origin));
    let ui_origin = match line("user-invocable") {
        Some(l) => FieldOrigin::own(source, Some(l), "set by `user-invocable`"),
        None => FieldOrigin::default("default: true"),
    };
    out.push(Field::new("userInvocable", json!(def.user_invocable), ui_origin));
    let effective_rule = if def.body.is_empty() {
        "the body is empty: the sub-agent gets every tool of the session, whatever `tools` says"
    } else if tools::is_all(&def.tools) {
        "`*`: every tool of the session (offline: no GitHub or web tools)"
    } else {
        "`tools` mapped to the session's tools (aliases and Claude names, any case; unknown names give nothing)"
    };
    let effective_origin = match line("tools") {
        Some(l) => FieldOrigin::own(source, Some(l), effective_rule),
        None => FieldOrigin::default(effective_rule),
    };
    out.push(Field::new("effective_tools", json!(loaded.effective), effective_origin));
    out
}

fn attributes(def: &Definition) -> crate::model::Attributes {
    def.keys.iter().map(|k| Attribute::new(&k.name, k.line, k.value.clone())).collect::<Vec<_>>().into()
}

fn loaded_agent(id: &str, source: Source, loaded: &Loaded) -> Agent {
    let key: Arc<str> = source.key().into();
    AgentRecord {
        description: loaded.def.description.as_str().into(),
        fields: fields(loaded, &key).into_iter().collect(),
        attributes: attributes(&loaded.def),
        system_prompt: Some(loaded.prompt.clone()),
        ..AgentRecord::new(ID, id.to_string(), source, Status::Wins, String::new())
    }
    .into()
}

/// Every `.md` file of one tree that the CLI lists, in byte order of its relative
/// path, with the ID it claims.
struct Listed {
    tier: usize,
    id: String,
    found: walk::Found,
    source: Source,
}

impl Framework for Copilot {
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "GitHub Copilot CLI"
    }

    fn locations(&self, roots: &Roots) -> Vec<Location> {
        trees(roots, None)
            .into_iter()
            .map(|t| Location { scope: t.scope, dir: t.path, depth: None, suffixes: &[".md"], label: t.label })
            .collect()
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        // `$COPILOT_HOME` moves the user's folder; the resolution report is made
        // without it, as the oracle runs the CLI.
        let copilot_home = match (&cx.render, cx.env.get("COPILOT_HOME")) {
            (super::RenderMode::Live { .. }, Some(dir)) if !dir.is_empty() => Some(crate::model::normalize(Path::new(dir))),
            _ => None,
        };
        let trees = trees(cx.roots, copilot_home.as_deref());
        report.searched = trees
            .iter()
            .enumerate()
            .map(|(i, t)| SearchDir { scope: t.scope, path: t.path.clone(), role: format!("{} (searched {})", t.label, i + 1) })
            .collect();
        let mut ladder_tiers = vec![Tier::first("the built-in agents (the `task` tool finds a built-in name first)")];
        ladder_tiers.extend(trees.iter().map(|t| Tier::first(t.label.clone())));
        let ladder = Ladder::new(ladder_tiers);

        let mut unloaded: Vec<Agent> = Vec::new();
        let mut listed: Vec<Listed> = Vec::new();
        for (i, tree) in trees.iter().enumerate() {
            let walked = walk::walk(cx, &tree.path);
            note_walk_problems(&mut report, tree, &walked);
            let mut first_path: BTreeMap<&Path, String> = BTreeMap::new();
            let mut files: Vec<Listed> = Vec::new();
            for found in &walked.files {
                let source = Source::new(tree.scope, &tree.base, found.path.clone());
                let key = source.key();
                let why = if found.hidden {
                    Some("name or folder starts with '.'; the tool does not list it".to_string())
                } else if found.real.is_none() {
                    Some(if found.link {
                        "symlink that resolves to no file; ignored without a message".to_string()
                    } else {
                        "not a regular file; ignored without a message".to_string()
                    })
                } else {
                    None
                };
                if let Some(why) = why {
                    report.diagnostics.push(Diagnostic::skipped(ID, &*source.path, why.clone()).failing(key));
                    let name = walk::agent_id(&found.rel);
                    unloaded.push(Agent::new(ID, name, source, Status::Skipped, format!("skipped: {why}")));
                    continue;
                }
                let real = found.real.as_deref().unwrap_or(&found.path);
                if let Some(kept) = first_path.get(real) {
                    let why = format!(
                        "same file as {kept} in this folder tree: the tool keeps the path it lists first (listing order{})",
                        if cx.roots.listing == crate::model::ListingOrder::Name { ", pinned to sorted order" } else { ", which the tool does not document" }
                    );
                    report.diagnostics.push(Diagnostic::skipped(ID, &*source.path, why.clone()).failing(key));
                    unloaded.push(Agent::new(ID, walk::agent_id(&found.rel), source, Status::Skipped, format!("skipped: {why}")));
                    continue;
                }
                first_path.insert(real, key);
                files.push(Listed { tier: i + 1, id: walk::agent_id(&found.rel), found: found.clone(), source });
            }
            files.sort_by(|a, b| a.found.rel.as_bytes().cmp(b.found.rel.as_bytes()));
            listed.extend(files);
        }

        // Claims: inside a tree the first path of an ID (byte order) claims it.
        let mut claimant: BTreeMap<(usize, &str), usize> = BTreeMap::new();
        for (n, l) in listed.iter().enumerate() {
            claimant.entry((l.tier, l.id.as_str())).or_insert(n);
        }
        let outcomes: Vec<Arc<Outcome>> = {
            use rayon::prelude::*;
            listed.par_iter().map(|l| parse_file(cx, &l.found.path, &l.id)).collect()
        };

        let mut candidates: Vec<Candidate> = BUILTINS
            .iter()
            .map(|b| Candidate {
                tier: 0,
                agent: Agent::new(ID, b.to_string(), Source::builtin(b), Status::Wins, String::new()),
            })
            .collect();
        // Files that never get parsed because another path of their tree claimed
        // the ID: (their entry, the claimant's index).
        let mut unclaimed: Vec<(Agent, usize, usize)> = Vec::new();
        for (n, l) in listed.iter().enumerate() {
            let claim = claimant[&(l.tier, l.id.as_str())];
            let key = l.source.key();
            if claim != n {
                let winner = &listed[claim];
                let twin = l.found.rel.strip_suffix(".md").is_some_and(|s| !l.found.rel.ends_with(".agent.md") && winner.found.rel == format!("{s}.agent.md"));
                if !twin {
                    let msg = format!("agent ID \"{}\" conflicts with \"{}\"; chosen file: \"{}\"", l.id, winner.source.key(), winner.source.key());
                    report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Validation, &*l.source.path, msg));
                }
                let agent = match &*outcomes[n] {
                    Ok(loaded) => loaded_agent(&l.id, l.source.clone(), loaded),
                    Err(f) => {
                        let mut a = Agent::new(ID, l.id.clone(), l.source.clone(), Status::Shadowed, String::new());
                        a.rule = format!("alone it fails: {}", f.message);
                        a
                    }
                };
                unclaimed.push((agent, n, claim));
                continue;
            }
            match &*outcomes[n] {
                Err(f) => {
                    report.diagnostics.push(Diagnostic::error(ID, f.kind, &*l.source.path, f.message.clone()).at(f.line, f.col).failing(key));
                    let rule = "failed to load: this tree gives no agent for the ID (a later path of the same ID here is never read); other trees still may".to_string();
                    unloaded.push(Agent::new(ID, l.id.clone(), l.source.clone(), Status::Invalid, rule));
                }
                Ok(loaded) => {
                    note_loaded(&mut report, &l.source, loaded);
                    if let Some(msg) = schema::unknown_warning(&loaded.def.unknown) {
                        let line = loaded.def.unknown.first().map(|k| k.line);
                        report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Validation, &*l.source.path, msg).at(line, None));
                    }
                    candidates.push(Candidate { tier: l.tier, agent: loaded_agent(&l.id, l.source.clone(), loaded) });
                }
            }
        }

        let ranked = rank(&ladder, candidates);
        let mut by_id: BTreeMap<String, Vec<Agent>> = BTreeMap::new();
        for a in ranked {
            by_id.entry(a.name.clone()).or_default().push(a);
        }
        unclaimed.sort_by(|a, b| (listed[a.1].tier, listed[a.1].found.rel.as_bytes()).cmp(&(listed[b.1].tier, listed[b.1].found.rel.as_bytes())));
        for (mut agent, _, claim) in unclaimed {
            let winner = &listed[claim];
            let group = by_id.entry(agent.name.clone()).or_default();
            let top = group.iter().find(|a| a.status == Status::Wins).map(|a| a.source.key());
            let failed = agent.fields.is_empty();
            let mut rule = format!(
                "shadowed: never parsed: {} claims ID `{}` first in {} (paths are taken in byte order; the first claims the ID before it is parsed)",
                winner.source.rel,
                agent.name,
                trees[winner.tier - 1].label
            );
            if top.is_none() {
                rule.push_str("; that file fails to load, so this tree gives no agent for the ID");
            }
            if failed {
                rule.push_str(&format!("; {}", agent.rule));
            }
            agent.status = Status::Shadowed;
            agent.shadowed_by = Some(top.unwrap_or_else(|| winner.source.key()));
            agent.rule = rule;
            group.push(agent);
        }
        for group in by_id.values_mut() {
            let never_parsed = group.iter().filter(|a| a.rule.starts_with("shadowed: never parsed")).count();
            if let Some(w) = group.iter_mut().find(|a| a.status == Status::Wins && never_parsed > 0) {
                if let Some(rest) = w.rule.strip_prefix("the only definition of") {
                    w.rule = format!("the only definition that loads of{rest}");
                }
                w.rule.push_str(&format!(" ({never_parsed} more path(s) of this ID never parsed: another path of their tree claimed it first)"));
            }
        }
        let tiers: BTreeMap<String, usize> = listed.iter().map(|l| (l.source.key(), l.tier)).collect();
        note_reachability(&mut report, &mut by_id, &tiers);
        let mut agents: Vec<Agent> = by_id.into_values().flatten().collect();
        unloaded.sort_by(|a, b| a.name.cmp(&b.name));
        agents.extend(unloaded);
        report.agents = agents;
        report
    }
}

/// What a loaded file says that the user may not expect: tool names that give the
/// sub-agent nothing, and MCP servers or hooks that start when it runs.
fn note_loaded(report: &mut EcosystemReport, source: &Source, loaded: &Loaded) {
    let def = &loaded.def;
    let line = |key: &str| def.keys.iter().find(|k| k.name == key).map(|k| k.line);
    let unmatched = tools::unmatched(&def.tools);
    if !unmatched.is_empty() && !def.body.is_empty() {
        let mut d = Diagnostic::warning(
            ID,
            DiagKind::Ambiguous,
            &*source.path,
            format!("`tools` names that give the sub-agent no tool (ignored without a message): {}", unmatched.join(", ")),
        )
        .at(line("tools"), None);
        d.severity = Severity::Info;
        report.diagnostics.push(d);
    }
    if def.starts_processes {
        let mut d = Diagnostic::warning(
            ID,
            DiagKind::Ambiguous,
            &*source.path,
            "declares `mcp-servers` or `hooks`: they start when the agent runs (agentry shows them as written)",
        )
        .at(line("mcp-servers").or(line("hooks")), None);
        d.severity = Severity::Info;
        report.diagnostics.push(d);
    }
}

/// Listing failures, loops, near-miss names and a cut-off walk, as diagnostics
/// that fail no definition.
fn note_walk_problems(report: &mut EcosystemReport, tree: &Tree, walked: &walk::Walk) {
    for (dir, e) in &walked.unlisted {
        report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Io, dir, format!("cannot list folder: {e}")));
    }
    for link in &walked.loops {
        let mut d = Diagnostic::warning(ID, DiagKind::Skipped, link, "folder link back to one of its own ancestors: the tool does not walk it again");
        d.severity = Severity::Info;
        report.diagnostics.push(d);
    }
    for path in &walked.near_misses {
        report.diagnostics.push(Diagnostic::skipped(ID, path, "not read: the tool reads only names ending in lower-case `.md`"));
    }
    if walked.truncated {
        report.diagnostics.push(Diagnostic::warning(
            ID,
            DiagKind::Io,
            &tree.path,
            format!("more than {} entries in {}: agentry stopped walking it", walk::MAX_ENTRIES, tree.label),
        ));
    }
}

/// Which active agents the model can call by `name`: the `task` tool looks a name
/// up among the built-ins first, then among the custom agents in precedence order
/// (tree by tree, each by path in byte order: observed); `disable-model-invocation`
/// hides an agent. `tiers` gives each file's tree.
fn note_reachability(report: &mut EcosystemReport, by_id: &mut BTreeMap<String, Vec<Agent>>, tiers: &BTreeMap<String, usize>) {
    let mut winners: Vec<(usize, String, String)> = Vec::new();
    for (id, group) in by_id.iter() {
        for (i, a) in group.iter().enumerate() {
            if a.status == Status::Wins && !a.source.is_compiled_in() {
                let name = a.field("name").and_then(|f| f.value.to_json().as_str().map(str::to_string)).unwrap_or_default();
                winners.push((i, id.clone(), name));
            }
        }
    }
    // Precedence order of the winners: the tree, then the path.
    let order = |a: &Agent| (tiers.get(&a.source.key()).copied().unwrap_or(usize::MAX), a.source.rel.clone());
    winners.sort_by_key(|(i, id, _)| order(&by_id[id][*i]));
    let mut taken: BTreeMap<String, String> = BUILTINS.iter().map(|b| (b.to_string(), format!("builtin:{b}"))).collect();
    for group in by_id.values_mut() {
        for a in group.iter_mut().filter(|a| a.shadowed_by.as_deref().is_some_and(|k| k.starts_with("builtin:"))) {
            a.rule.push_str(" — the model's `task` call for this name runs the built-in's prompt; `--agent` still selects the file");
        }
    }
    for (i, id, name) in winners {
        let agent = &mut by_id.get_mut(&id).expect("grouped")[i];
        let hidden = agent.field("disableModelInvocation").is_some_and(|f| f.value.to_json() == Json::Bool(true));
        let note = if hidden {
            " — hidden from the model (`disable-model-invocation` or `infer: false`); `--agent` and `/agent` still select it".to_string()
        } else if let Some(first) = taken.get(&name) {
            let msg = format!(
                "the model cannot call this agent: its name `{name}` is already taken by {first} (the `task` tool takes the first agent of a name); `--agent {id}` still selects it"
            );
            let mut d = Diagnostic::warning(ID, DiagKind::Ambiguous, &*agent.source.path, msg.clone());
            d.severity = Severity::Warning;
            report.diagnostics.push(d);
            format!(" — {msg}")
        } else {
            taken.insert(name.clone(), agent.source.key());
            format!(" — the model calls it by the name `{name}`")
        };
        agent.rule.push_str(&note);
    }
}

