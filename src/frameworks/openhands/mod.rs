//! OpenHands SDK file agents (openhands-sdk 1.58.2, built-ins from openhands-tools).
//!
//! Four folders in a fixed order — project `.agents/agents`, project
//! `.openhands/agents`, user `~/.agents/agents`, user `<persistence dir>/agents` —
//! then the built-ins; top-level `*.md` only (any case of the suffix, `README.md` and
//! `readme.md` skipped), sorted by name; the first definition of a name wins, and a
//! file that fails to load is skipped without reserving its name. The project folders
//! are the working folder's (a conversation's workspace). Skills: [`skills`]; an agent
//! naming a skill that does not load is skipped at registration ([`register`]).

pub(crate) mod definition;
mod register;
pub(crate) mod skills;
mod validators;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::precedence::{self, Candidate, Contest, Ladder, Order, Within};
use super::{Framework, LoadContext, RenderMode};
use crate::discover::{self, site_packages, Hold, ReadError};
use crate::model::{
    Agent, AgentRecord, DiagKind, Diagnostic, EcosystemReport, Place, Reach, Scope, Source, Status,
};

pub struct OpenHands;

const ID: &str = "openhands";

/// `~/.openhands`, or `$OH_PERSISTENCE_DIR` where it is set; the resolution report
/// is made without it, as the oracle does.
fn persistence_dir(cx: &LoadContext) -> PathBuf {
    match (&cx.render, cx.env.get("OH_PERSISTENCE_DIR")) {
        (RenderMode::Live { .. }, Some(p)) if !p.is_empty() => crate::model::normalize(Path::new(p)),
        _ => cx.roots.home.join(".openhands"),
    }
}

/// The folders OpenHands reads, in its order: top-level `*.md` of four folders, then
/// the built-ins. A conversation's workspace is the working folder: its project
/// folders are read there.
fn places(cx: &LoadContext, builtins: Option<&Path>) -> Vec<Place> {
    let r = cx.roots;
    let persistence = persistence_dir(cx);
    let work = crate::model::normalize(&r.cwd);
    let md = |tier, scope, base: &Path, dir: PathBuf, label: &str| Place::agents(tier, scope, base, dir, Reach::top(&[".md"]), label);
    let mut out = vec![
        md(0, Scope::Project, &r.project, work.join(".agents/agents"), "project .agents/agents"),
        md(1, Scope::Project, &r.project, work.join(".openhands/agents"), "project .openhands/agents"),
        md(2, Scope::User, &r.home, r.home.join(".agents/agents"), "user ~/.agents/agents"),
        md(3, Scope::User, &r.home, persistence.join("agents"), "user ~/.openhands/agents"),
    ];
    out.extend(builtins.map(|b| md(4, Scope::Builtin, b, b.to_path_buf(), "the built-in agents")));
    crate::model::numbered(&mut out, "searched");
    out
}

fn locate_builtins(cx: &LoadContext) -> (Option<PathBuf>, Vec<PathBuf>) {
    let pkg = site_packages::Package {
        rel_path: "openhands/tools/preset/subagents",
        dist_prefix: "openhands_tools-",
        launchers: &["openhands", "openhands-agent-server"],
    };
    site_packages::find(cx.files, cx.roots, cx.env, &pkg)
}

/// A file's outcome, in scan order: its agent as the file defines it (one that loaded
/// is ranked against the others afterwards, in order), and why it failed to load.
/// Made on every core: ranking is the only part that must go in order.
struct Scanned {
    folder: usize,
    agent: Agent,
    failure: Option<Diagnostic>,
}

fn scan(cx: &LoadContext, folders: &[Place], report: &mut EcosystemReport) -> Vec<Scanned> {
    // Each folder is listed on whichever core gets to it first, and its files parsed
    // on every core: no core waits for all the listings before parsing starts.
    let per_folder: Vec<(Option<Diagnostic>, Vec<Scanned>)> = folders
        .par_iter()
        .enumerate()
        .map(|(i, f)| match cx.files.list_dir(&f.dir) {
            Ok(Some(entries)) => (None, scan_folder(cx, i, f, &entries)),
            Ok(None) => (None, Vec::new()),
            // OpenHands lets this escape and fails to start; agentry reports it and
            // goes on with the other folders.
            Err(e) => {
                let d = Diagnostic::error(ID, DiagKind::Io, &f.dir, format!("cannot list folder: {e}"));
                (Some(d), Vec::new())
            }
        })
        .collect();
    let mut scanned = Vec::with_capacity(per_folder.iter().map(|(_, s)| s.len()).sum());
    for (listing_error, files) in per_folder {
        report.diagnostics.extend(listing_error);
        scanned.extend(files);
    }
    scanned
}

/// The outcomes of the agent files among a folder's `entries`, in order.
fn scan_folder(cx: &LoadContext, index: usize, folder: &Place, entries: &[discover::DirEntry]) -> Vec<Scanned> {
    let is_agent_file = |e: &&discover::DirEntry| {
        !e.is_dir && { let name = e.name(); discover::suffix(&name).eq_ignore_ascii_case(".md") && name != "README.md" && name != "readme.md" }
    };
    let files: Vec<&discover::DirEntry> = entries.iter().filter(is_agent_file).collect();
    files
        .into_par_iter()
        .map(|e| {
            let name = e.name();
            let stem = discover::stem(&name);
            let source = Source::new(folder.scope, &folder.base, e.path.to_path_buf());
            // Parsed once per version of the file: a reload re-parses only what changed.
            // Parsing is the whole resolution (OpenHands has no inheritance), so the
            // memo around it only counts it as the definition resolved.
            let key = source.key();
            // Hashed, not formatted: a refresh looks up every file's memo.
            let memo_key = discover::hash_key((cx.key, ID, source.path.as_os_str(), stem, &key));
            // Both memos share one parse (an `Arc`), not copies of it.
            let parsed = cx.files.definition(memo_key, |files| {
                files
                    .parse(&source.path, Hold::Not, discover::context_key(&key), |b| {
                        definition::parse(b, stem, &key, &source.path, cx.prompts)
                    })
                    .unwrap_or_else(|e| {
                        Arc::new(Err(definition::Failure {
                            kind: DiagKind::Io,
                            message: io_message(&e),
                            line: None,
                            col: None,
                        }))
                    })
            });
            let (agent, failure) = match &**parsed {
                Err(f) => {
                    let d = Diagnostic::error(ID, f.kind, &*source.path, f.message.clone())
                        .at(f.line, f.col)
                        .failing(key);
                    let name = discover::stem(source.rel.rsplit('/').next().unwrap_or_default())
                        .to_string();
                    (invalid_agent(name, source), Some(d))
                }
                Ok(def) => (loaded_agent(def, source), None),
            };
            Scanned {
                folder: index,
                agent,
                failure,
            }
        })
        .collect()
}

/// The agent a loaded file defines, before it is ranked: a winner with no rule yet.
fn loaded_agent(def: &definition::Definition, source: Source) -> Agent {
    AgentRecord {
        description: def.description.clone(),
        fields: def.fields.clone(),
        attributes: def.attributes.clone(),
        system_prompt: Some(def.system_prompt.clone()),
        ..AgentRecord::new(ID, def.name.clone(), source, Status::Wins, String::new())
    }
    .into()
}

fn io_message(e: &ReadError) -> String {
    match e {
        ReadError::NotFound => "OSError: no such file (a dangling symlink?)".into(),
        other => format!("OSError: {other}"),
    }
}

/// OpenHands' rules in its words: the first definition read wins (folders in order,
/// files sorted by name), and a loser that loads exactly as its winner is EQUIVALENT.
struct Registration<'a> {
    folders: &'a [Place],
}

impl precedence::Rules for Registration<'_> {
    fn equivalent(&self, contest: &Contest<'_>, loser: usize) -> bool {
        precedence::same_prompt_and_values(contest.members[loser].agent, contest.winner())
    }

    fn winner_rule(&self, contest: &Contest<'_>) -> Option<String> {
        let label = &self.folders[contest.members[0].tier].label;
        Some(["first definition of `", &contest.winner().name, "`: ", label].concat())
    }

    fn loser_rule(&self, contest: &Contest<'_>, loser: usize, equivalent: bool) -> Option<String> {
        let (winner, loser_member) = (&contest.members[0], &contest.members[loser]);
        let (w, l) = (&self.folders[winner.tier], &self.folders[loser_member.tier]);
        let mut rule = if winner.tier == loser_member.tier {
            let name = |s: &Source| s.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            format!(
                "same folder: `{}` sorts before `{}`, and the first file of a name wins",
                name(&winner.agent.source),
                name(&loser_member.agent.source)
            )
        } else if w.scope == l.scope {
            format!("{} is searched before {}", w.label, l.label)
        } else if l.scope == Scope::Builtin {
            "built-in agents are registered after every file agent, so any file of the same name wins".into()
        } else {
            "project agents are registered before user agents; the first registration of a name wins".into()
        };
        if equivalent {
            rule.push_str(precedence::EQUIVALENT);
        }
        Some(rule)
    }
}

impl Framework for OpenHands {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project(".openhands"), E::project(".agents/agents"), E::home(".openhands"), E::home(".agents/agents")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "OpenHands"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::python("OpenHands SDK", "1.58.2", &["openhands-sdk"]).commands(&["openhands"]))
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let mut looked = Vec::new();
        let builtins = cx.builtins(|| {
            let (found, places) = locate_builtins(cx);
            looked = places;
            found
        });
        if builtins.is_none() {
            report.diagnostics.push(super::builtins_not_installed(ID, cx.roots, "openhands-tools", &looked, "built-in agents are not shown"));
        }
        let folders = places(cx, builtins.as_deref());
        report.builtins = builtins.clone();

        let scanned = scan(cx, &folders, &mut report);
        let mut candidates = Vec::with_capacity(scanned.len());
        for Scanned { folder, agent, failure } in scanned {
            report.diagnostics.extend(failure);
            candidates.push(Candidate { tier: folder, agent });
        }
        // The oracle's order: by name, the winner first, then scan order.
        let ladder = Ladder::over(&folders, Within::First).ordered(Order::WinnerThenRead);
        let mut agents = precedence::rank_by(&ladder, candidates, &Registration { folders: &folders });
        let loaded = skills::load(cx);
        register::resolve_skills(&mut agents, &loaded.skills, &mut report.diagnostics);
        agents.extend(loaded.skills);
        report.agents = agents;
        report.diagnostics.extend(loaded.diagnostics);
        report.skill_listing = loaded.listing;
        report.places = folders;
        report.places.extend(loaded.places);
        report
    }
}

fn invalid_agent(name: String, source: Source) -> Agent {
    let rule = "failed to load: OpenHands skips the file and does not reserve its name".to_string();
    Agent::new(ID, name, source, Status::Invalid, rule)
}
