//! Loading and registering cards as `FastAgent.load_agents` does, file by file in CLI
//! order (agent-cards, then tool-cards): a failing file is reported and skipped (the
//! real CLI stops at the first one), a name loaded twice by the same kind of folder is
//! an error, and a tool card replaces an agent card of the same name. Then the
//! start-up checks: workflow references (`validate_workflow_references`) and reference
//! cycles (`find_dependency_cycle`, repeated until none is left).

use crate::discover::Hold;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::parse::FileKind;
use super::raw::{Env, Failure, Message};
use super::rfc::Dialect;
use super::rules::CardType;
use super::validate::{self, Card, CardContext, InstructionRule};
use super::{agents, home_of, source_of, ID};
use crate::frameworks::precedence::{self, Candidate, Ladder, Order, Tier};
use crate::frameworks::LoadContext;
use crate::model::{DiagKind, Diagnostic, EcosystemReport, Fields, Source};

/// What every step of the load shares.
pub struct LoadState<'a> {
    pub cx: &'a LoadContext<'a>,
    pub env: &'a Env,
    pub date: &'a str,
    pub dialect: Dialect,
    /// A hash of `env` and `date`, for the memo keys of cards.
    pub key: u64,
}

/// One card that loaded, with where it came from.
/// An agent's fields and the history they were built with.
pub type BuiltFields = (Vec<Message>, Fields);

#[derive(Clone)]
pub struct Loaded {
    /// Shared by the memo of its file and every load that reuses it.
    pub card: Arc<Card>,
    /// Its `path` is the file as registered (symlinks resolved): see [`Loaded::path`].
    pub source: Source,
    /// Its folder is literally named `tool-cards`.
    pub is_tool: bool,
    /// The agent's fields with an empty history ([`agents::card_fields`]): what most
    /// agents get as they are.
    pub card_fields: Fields,
    /// The agent's fields for a history that is not empty, once built, with that
    /// history: they depend only on the card, its source and the history, so a
    /// refresh that reuses the file's memo reuses them too.
    pub fields: Arc<OnceLock<BuiltFields>>,
}

impl Loaded {
    /// The file as registered (symlinks resolved).
    pub fn path(&self) -> &Path {
        &self.source.path
    }
}

/// Reads and validates every card of one file. The file's failure is returned with
/// the line it points at; a file either loads completely or not at all. Memoized per
/// file and dialect: a refresh reads again only the cards whose files changed.
pub fn load_file(s: &LoadState, discovered: &Path) -> Result<Vec<Loaded>, Failure> {
    let key = s.cx.memo_key(ID, &format!("{}\0{:?}\0{}", s.key, s.dialect, discovered.display()));
    let loaded = s.cx.files.definition(key, |files| {
        let cx = s.cx.with_files(files);
        load_file_once(&LoadState { cx: &cx, ..*s }, discovered)
    });
    (*loaded).clone()
}

/// [`load_file`] without keeping the result: for a reading nothing else reuses.
pub fn load_file_once(s: &LoadState, discovered: &Path) -> Result<Vec<Loaded>, Failure> {
    let path = s.cx.files.canonicalize(discovered).unwrap_or_else(|| discovered.to_path_buf());
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if file_name == "SKILL.md" {
        return Err(Failure::validation("SKILL.md is an Agent Skill manifest, not an AgentCard", None));
    }
    let Some(kind) = FileKind::of(&file_name) else {
        return Err(Failure::validation(format!("Unsupported AgentCard file extension: {}", path.display()), None));
    };
    // Held for the pass: the dialect check right after may read the file again (the
    // loader lets go of the bytes once it is done), and the next load reuses the
    // memoized cards instead.
    let bytes = s.cx.files.read(&path, Hold::ForPass).map_err(|e| Failure::new(DiagKind::Io, format!("cannot read the card: {e}"), None))?;
    let raws = match s.dialect {
        Dialect::Released => vec![(None, super::parse::released(kind, &bytes, s.env)?)],
        Dialect::Rfc => super::rfc::parse(kind, &bytes, s.env)?,
    };
    let in_bundle = raws.len() > 1;
    let home = home_of(s.env);
    let exists = |p: &Path| s.cx.files.exists(p);
    let resolve = |p: &Path| s.cx.files.canonicalize(p);
    let source_key = |p: &Path| source_of(s.cx, p).key();
    let cx = CardContext {
        path: &path,
        bytes: &bytes,
        prompts: s.cx.prompts,
        home: &home,
        date: s.date,
        rule: if s.dialect == Dialect::Rfc { InstructionRule::Rfc } else { InstructionRule::Released },
        exists: &exists,
        resolve: &resolve,
        source_key: &source_key,
    };
    let mut out: Vec<Loaded> = Vec::with_capacity(raws.len());
    for (label, raw) in raws {
        if s.dialect == Dialect::Rfc {
            super::rfc::check_card(&raw, in_bundle)?;
        }
        let (card, stored) = validate::build(raw, &cx).map_err(|f| match &label {
            Some(l) if in_bundle => Failure { message: format!("card {l}: {}", f.message), ..f },
            _ => f,
        })?;
        if let Some(first) = out.iter().find(|l| l.card.name == card.name) {
            return Err(Failure::validation(
                format!("Duplicate agent name '{}' in {} (first at line {})", card.name, path.display(), first.card.name_line.unwrap_or(0)),
                card.name_line,
            ));
        }
        let mut source = source_of(s.cx, &path);
        if in_bundle {
            source.card = Some(card.name.clone());
        }
        let is_tool = path.parent().and_then(Path::file_name).is_some_and(|n| n == "tool-cards");
        let card_fields = agents::card_fields(&card, &source.key(), stored);
        out.push(Loaded { card: Arc::new(card), source, is_tool, card_fields, fields: Arc::default() });
    }
    Ok(out)
}

/// A registered card and whether the registry kept it.
pub struct Entry {
    pub loaded: Loaded,
    pub history: Vec<Message>,
    /// The source key of the agent card this tool card replaced.
    pub replaced: Option<String>,
}

/// Registers the cards of every file (`loads`: [`load_file`] of each of `files`) and
/// runs the start-up checks.
pub fn resolve(s: &LoadState, files: &[PathBuf], loads: Vec<Result<Vec<Loaded>, Failure>>, report: &mut EcosystemReport) {
    let mut errors: BTreeSet<(String, &'static str)> = BTreeSet::new();
    let mut push_error = |report: &mut EcosystemReport, path: &Path, key: String, f: Failure| {
        if errors.insert((key.clone(), f.kind.as_str())) {
            report.diagnostics.push(Diagnostic::error(ID, f.kind, path, f.message).at(f.line, None).failing(key));
        }
    };
    let mut registered: Vec<Entry> = Vec::new();
    // name → index in `registered` of the card the registry keeps
    let mut winners: HashMap<String, usize> = HashMap::new();
    // `fast.agents` insertion order (a replaced name moves to the end)
    let mut agent_order: Vec<String> = Vec::new();
    for (discovered, loaded) in files.iter().zip(loads) {
        // A file that fails to load, or whose names clash with the registry's.
        let loaded = loaded.and_then(|l| registration_conflict(&l, &registered, &winners).map_or(Ok(l), Err));
        let loaded = match loaded {
            Ok(l) => l,
            Err(f) => {
                let source = source_of(s.cx, discovered);
                let key = source.key();
                report.agents.push(agents::invalid(discovered, source, &f));
                push_error(report, discovered, key, f);
                continue;
            }
        };
        for l in loaded {
            let name = l.card.name.clone();
            let mut replaced = None;
            if let Some(&prev) = winners.get(&name) {
                if registered[prev].loaded.path() == l.path() {
                    continue; // a second link to a file already registered
                }
                replaced = Some(registered[prev].loaded.source.key());
                agent_order.retain(|n| n != &name);
            }
            winners.insert(name.clone(), registered.len());
            agent_order.push(name);
            registered.push(Entry { loaded: l, history: Vec::new(), replaced });
        }
    }

    // History files are read when an agent instance is created; a broken one is
    // reported on the history file and the card stays.
    for entry in &mut registered {
        let mut history = Vec::new();
        for file in &entry.loaded.card.message_files {
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            // Named only for a diagnostic: most history files read cleanly.
            let key = || source_of(s.cx, file).key();
            // Only regular files: a FIFO or device named in `messages:` must not block
            // or flood the load.
            let read = if s.cx.files.is_file(file) { s.cx.files.read(file, Hold::Kept) } else { Err(crate::discover::ReadError::Other("not a regular file".into())) };
            report.places.push(crate::model::Place::reached(source_of(s.cx, file).scope, &s.cx.roots.project, file.clone(), crate::model::Reach::FILE, "a history file a card's `messages:` names"));
            match read {
                Ok(bytes) => match super::history::parse(&name, &bytes) {
                    Ok(messages) => history.extend(messages),
                    Err(e) => push_error(report, file, key(), Failure::new(DiagKind::Parse, format!("history file: {e}"), None)),
                },
                Err(e) => push_error(report, file, key(), Failure::new(DiagKind::Io, format!("history file: {e}"), None)),
            }
        }
        history.extend(entry.loaded.card.inline_history.iter().cloned());
        entry.history = history;
    }

    let by_name: BTreeMap<&str, &Entry> = winners.iter().map(|(n, &i)| (n.as_str(), &registered[i])).collect();
    for (name, entry) in &by_name {
        if let Some(f) = reference_problem(name, &entry.loaded.card, &by_name) {
            push_error(report, entry.loaded.path(), entry.loaded.source.key(), f);
        }
    }
    for (member, cycle) in cycle_members(&agent_order, &by_name) {
        let entry = by_name[member.as_str()];
        let f = Failure::new(DiagKind::Cycle, format!("'{member}' is part of a reference cycle: {cycle}"), entry.loaded.card.name_line);
        push_error(report, entry.loaded.path(), entry.loaded.source.key(), f);
    }

    let winner_keys: HashMap<&str, (String, bool)> =
        by_name.iter().map(|(n, e)| (*n, (e.loaded.source.key(), e.loaded.is_tool))).collect();
    let candidates = registered.iter().map(|entry| Candidate { tier: 0, agent: agents::build(entry, &winner_keys) }).collect();
    // The oracle's order: by name, the card kept, then the replaced ones as registered.
    let ladder = Ladder::new(vec![Tier::last("the registry")]).ordered(Order::WinnerThenRead);
    report.agents.extend(precedence::rank_by(&ladder, candidates, &agents::Registry { registered: &registered }));
}

/// `_validate_changed_agent_cards` for one file: a name twice in the file, or already
/// loaded by the same kind of folder, fails the whole file.
fn registration_conflict(loaded: &[Loaded], registered: &[Entry], winners: &HashMap<String, usize>) -> Option<Failure> {
    for l in loaded {
        let Some(&i) = winners.get(&l.card.name) else { continue };
        let existing = &registered[i].loaded;
        if existing.path() != l.path() && existing.is_tool == l.is_tool {
            return Some(Failure::validation(
                format!("Agent '{}' already loaded from {}", l.card.name, existing.path().display()),
                l.card.name_line,
            ));
        }
    }
    None
}

/// `get_agent_dependencies`: the names a card depends on, by type.
fn dependencies(card: &Card) -> Vec<&str> {
    if card.card_type == CardType::A2a {
        return Vec::new();
    }
    card.references.iter().map(|r| r.name.as_str()).collect()
}

/// `validate_workflow_references` for one agent: the first missing reference, or a
/// planner child that cannot run an LLM.
fn reference_problem(name: &str, card: &Card, agents: &BTreeMap<&str, &Entry>) -> Option<Failure> {
    let checked: Vec<&validate::Reference> = card.references.iter().filter(|r| r.checked).collect();
    let missing: Vec<&&validate::Reference> = checked.iter().filter(|r| !agents.contains_key(r.name.as_str())).collect();
    if let Some(first) = missing.first() {
        let names: Vec<&str> = missing.iter().map(|r| r.name.as_str()).collect();
        return Some(Failure::new(
            DiagKind::Missing,
            format!("{} '{name}' references non-existent {}: {}", card.card_type.key(), first.attribute, names.join(", ")),
            first.line,
        ));
    }
    if matches!(card.card_type, CardType::Orchestrator | CardType::IterativePlanner) {
        for r in &checked {
            if agents.get(r.name.as_str()).is_some_and(|e| e.loaded.card.card_type == CardType::A2a) {
                return Some(Failure::validation(format!("Agent '{}' used by '{name}' lacks LLM capability", r.name), r.line));
            }
        }
    }
    None
}

/// The oracle's cycle enumeration: `find_dependency_cycle` over the remaining agents,
/// dropping the members of each cycle found, until none is left.
/// Each member with its cycle in words (`ping -> pong -> ping`).
fn cycle_members(order: &[String], agents: &BTreeMap<&str, &Entry>) -> Vec<(String, String)> {
    let mut remaining: Vec<&str> = order.iter().map(String::as_str).collect();
    let mut members: Vec<(String, String)> = Vec::new();
    while let Some(cycle) = find_cycle(&remaining, agents) {
        let text = cycle.iter().chain(cycle.first()).cloned().collect::<Vec<_>>().join(" -> ");
        for m in &cycle {
            if !members.iter().any(|(n, _)| n == m) {
                members.push((m.clone(), text.clone()));
            }
        }
        remaining.retain(|n| !cycle.iter().any(|c| c == n));
    }
    members
}

fn find_cycle(names: &[&str], agents: &BTreeMap<&str, &Entry>) -> Option<Vec<String>> {
    let available: BTreeSet<&str> = names.iter().copied().collect();
    let deps = |n: &str| -> Vec<&str> { agents.get(n).map(|e| dependencies(&e.loaded.card)).unwrap_or_default() };
    let mut visited: BTreeSet<&str> = BTreeSet::new();
    for &start in names {
        if visited.contains(start) {
            continue;
        }
        let mut stack: Vec<(&str, Vec<&str>, usize)> = vec![(start, deps(start), 0)];
        while let Some((node, list, next)) = stack.last_mut() {
            let node = *node;
            let Some(&dep) = list.get(*next) else {
                stack.pop();
                visited.insert(node);
                continue;
            };
            *next += 1;
            if !available.contains(dep) {
                continue;
            }
            if let Some(pos) = stack.iter().position(|(n, _, _)| *n == dep) {
                return Some(stack[pos..].iter().map(|(n, _, _)| n.to_string()).collect());
            }
            if visited.contains(dep) {
                continue;
            }
            let d = deps(dep);
            stack.push((dep, d, 0));
        }
    }
    None
}
