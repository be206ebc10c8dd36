//! OpenHands skills (openhands-sdk 1.58.2, `skills/skill.py`), as a conversation
//! started in the working folder W loads them (`AgentContext(load_user_skills=True,
//! load_project_skills=True)` and `load_project_skills(W)`):
//!
//! 1. third-party files (`AGENTS.md`, `agent.md`, `CLAUDE.md`, `GEMINI.md`,
//!    `.cursorrules`, any case) in W, then in the git root R — always in the context;
//! 2. the same files below W (`git ls-files`) as path rules `agents:<dir>`;
//! 3. `.agents/skills`, `.openhands/skills`, `.openhands/microagents` in W, then R;
//! 4. the same three folders in the home (`~/.openhands` = `$OH_PERSISTENCE_DIR`).
//!
//! The first definition of a name wins across places; inside one skills folder the
//! loader fills three maps — repo (no trigger), knowledge (a trigger), AgentSkills —
//! where a later file replaces an earlier one, and merges them in that order. A root
//! third-party file that is not UTF-8 raises out of `load_project_skills`: every
//! project skill is lost. agentry takes R to be the project root (the repository's
//! top folder); the public skills (a git clone), installed skills and plugins are
//! not read.

mod folder;
pub(crate) mod listing;
pub(crate) mod parse;
mod walk;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::ID;
use crate::discover::Hold;
use crate::frameworks::precedence::{self, Candidate, Ladder, Order, Tier};
use crate::frameworks::LoadContext;
use crate::model::{Agent, AgentRecord, Diagnostic, Kind, Place, Reach, Scope, Source, Status};
use parse::{Form, McpJson};

/// What the skills part of a load gives the report.
pub struct Loaded {
    pub places: Vec<Place>,
    pub skills: Vec<Agent>,
    pub diagnostics: Vec<Diagnostic>,
    pub listing: Option<String>,
}

/// The third-party file names as places read them (compared without case).
const THIRD_PARTY_FILES: &[&str] = &["AGENTS.md", "agent.md", "CLAUDE.md", "GEMINI.md"];
const SKILL_DIRS: [(&str, &str); 3] = [(".agents/skills", ".agents/skills"), (".openhands/skills", ".openhands/skills"), (".openhands/microagents", ".openhands/microagents")];

/// One file's outcome before ranking.
pub(super) struct Read {
    tier: usize,
    skill: Option<parse::Skill>,
    agent: Agent,
}

/// Builds the ladder and places while scanning, in OpenHands' order.
pub(super) struct Scan<'a> {
    cx: &'a LoadContext<'a>,
    tiers: Vec<Tier>,
    places: Vec<Place>,
    reads: Vec<Read>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Scan<'a> {
    fn tier(&mut self, label: String, last: bool) -> usize {
        self.tiers.push(if last { Tier::last(label) } else { Tier::first(label) });
        self.tiers.len() - 1
    }

    fn place(&mut self, scope: Scope, base: &Path, dir: PathBuf, reach: Reach, label: &str) {
        let n = self.places.len();
        self.places.push(Place::skills(n, scope, base, dir, reach, label).ranked(format!("skills place {}", n + 1)));
    }

    /// A skills folder: `.md` files at any depth, and each skill folder's `.mcp.json`,
    /// read from its `SKILL.md`.
    fn skills_place(&mut self, scope: Scope, base: &Path, dir: PathBuf, label: &str) {
        self.place(scope, base, dir.clone(), Reach::tree(&[".md"]), label);
        let mcp = Place::reached(scope, base, dir, Reach::to_depth(1, &[]), format!("{label}: a SKILL.md folder's .mcp.json"));
        self.places.push(mcp);
    }

    /// Loads one file; `false` when it is a root third-party file that is not UTF-8.
    /// `tier` is the place's; a skills folder's file goes to the tier of its map
    /// (`by_map`: `tier` plus the map's rank).
    fn load(&mut self, tier: usize, by_map: bool, scope: Scope, base: &Path, path: &Path, form: Form<'_>) -> bool {
        let cx = self.cx;
        let source = Source::new(scope, base, path.to_path_buf());
        let key = source.key();
        let third_party = matches!(form, Form::ThirdParty);
        let is_skill_md = matches!(form, Form::AgentSkills);
        let parsed = match cx.files.read(path, Hold::Not) {
            Err(e) => Err(parse::read_failure(&e)),
            Ok(bytes) => {
                let mcp = if is_skill_md { mcp_json(cx, path) } else { McpJson::None };
                parse::load(&bytes, path, form, &key, mcp, cx.env, cx.prompts)
            }
        };
        match parsed {
            Ok(skill) => {
                let tier = if by_map { tier + skill.map() as usize } else { tier };
                let mut record = AgentRecord {
                    kind: Kind::Skill,
                    description: skill.description.clone().unwrap_or_default().into(),
                    fields: skill.fields.clone().into(),
                    attributes: skill.attributes.clone(),
                    system_prompt: Some(skill.content.clone()),
                    ..AgentRecord::new(ID, skill.name.clone(), source, Status::Wins, String::new())
                };
                record.listed = None;
                self.reads.push(Read { tier, skill: Some(skill), agent: record.into() });
                true
            }
            Err(f) => {
                let fatal = third_party && f.message.starts_with("UnicodeDecodeError");
                let mut message = f.message.clone();
                if fatal {
                    message.push_str(" — load_project_skills raises on a root instruction file that is not UTF-8: OpenHands loads no project skill");
                }
                let d = Diagnostic::error(ID, f.kind, path, message).at(f.line, f.col).about(Kind::Skill).failing(key);
                self.diagnostics.push(d);
                !fatal
            }
        }
    }
}

/// The folder's `.mcp.json` beside a `SKILL.md`, when it is a file.
fn mcp_json(cx: &LoadContext, skill_md: &Path) -> McpJson {
    let file = skill_md.with_file_name(".mcp.json");
    if !cx.files.is_file(&file) {
        return McpJson::None;
    }
    match cx.files.read(&file, Hold::Not) {
        Ok(b) => McpJson::Read(b),
        Err(e) => McpJson::Unreadable(e.to_string()),
    }
}

pub fn load(cx: &LoadContext) -> Loaded {
    let r = cx.roots;
    let (work, root) = (crate::model::normalize(&r.cwd), crate::model::normalize(&r.project));
    let persistence = super::persistence_dir(cx);
    let mut scan = Scan { cx, tiers: Vec::new(), places: Vec::new(), reads: Vec::new(), diagnostics: Vec::new() };
    let mut roots = vec![(work.clone(), "working folder")];
    if root != work {
        roots.push((root.clone(), "repository root"));
    }
    // Project skills: all or nothing (a root third-party file that is not UTF-8).
    let mut lost = false;
    for (dir, label) in &roots {
        let t = scan.tier(format!("{label} instruction files"), false);
        scan.place(Scope::Project, &r.project, dir.clone(), Reach::top(THIRD_PARTY_FILES), &format!("{label} AGENTS.md, CLAUDE.md, GEMINI.md (always-on skills)"));
        scan.place(Scope::Project, &r.project, dir.join(".cursorrules"), Reach::FILE, &format!("{label} .cursorrules (an always-on skill)"));
        if !lost && !folder::third_party(&mut scan, t, &r.project, dir) {
            lost = true;
        }
    }
    let t = scan.tier("instruction files below the working folder (path rules)".into(), false);
    scan.place(Scope::Project, &r.project, work.clone(), Reach::tree(THIRD_PARTY_FILES), "AGENTS.md, CLAUDE.md … below the working folder (path rules)");
    if !lost {
        walk::nested(&mut scan, t, &r.project, &work, &root);
    }
    for (dir, label) in &roots {
        for (rel, name) in SKILL_DIRS {
            let label = format!("{label} {name}");
            let skills_dir = dir.join(rel);
            let base = scan.tiers.len();
            for map in ["repo skills", "keyword and task skills", "SKILL.md skills"] {
                scan.tier(format!("{label} ({map})"), true);
            }
            scan.skills_place(Scope::Project, &r.project, skills_dir.clone(), &label);
            if !lost {
                folder::skills_dir(&mut scan, base, Scope::Project, &r.project, &skills_dir, None);
            }
        }
    }
    if lost {
        scan.reads.retain(|read| read.agent.source.scope != Scope::Project);
    }
    let user_dirs = [(r.home.join(".agents/skills"), "user ~/.agents/skills"), (persistence.join("skills"), "user ~/.openhands/skills"), (persistence.join("microagents"), "user ~/.openhands/microagents")];
    for (i, (dir, label)) in user_dirs.iter().enumerate() {
        let base = scan.tiers.len();
        for map in ["repo skills", "keyword and task skills", "SKILL.md skills"] {
            scan.tier(format!("{label} ({map})"), true);
        }
        scan.skills_place(Scope::User, &r.home, dir.clone(), label);
        // Installed skills live in ~/.openhands/skills/installed and are kept out of it.
        let installed = (i == 1).then(|| dir.join("installed"));
        folder::skills_dir(&mut scan, base, Scope::User, &r.home, dir, installed.as_deref());
    }
    finish(scan)
}

/// Ranks the skills read, then says which the model is told of and what it gets.
fn finish(scan: Scan<'_>) -> Loaded {
    let Scan { tiers, places, reads, diagnostics, .. } = scan;
    // A name's first insertion in its tier's map sets its place in the catalogue.
    let mut first_in_tier: HashMap<(usize, String), usize> = HashMap::new();
    let mut facts: HashMap<(String, String), (usize, parse::Skill)> = HashMap::new();
    let mut candidates = Vec::with_capacity(reads.len());
    for (i, read) in reads.into_iter().enumerate() {
        first_in_tier.entry((read.tier, read.agent.name.clone())).or_insert(i);
        if let Some(skill) = read.skill {
            facts.insert((read.agent.source.key(), read.agent.name.clone()), (read.tier, skill));
        }
        candidates.push(Candidate { tier: read.tier, agent: read.agent });
    }
    let mut ladder = Ladder::new(tiers).ordered(Order::Ranked);
    ladder.equivalents = false;
    let mut skills = precedence::rank(&ladder, candidates);
    let mut available: Vec<(usize, usize, Arc<str>, String, Option<String>)> = Vec::new();
    for s in skills.iter_mut() {
        let Some((tier, skill)) = facts.get(&(s.source.key(), s.name.clone())) else { continue };
        if s.status != Status::Wins {
            s.listed = Some(false);
            continue;
        }
        let invocable = skill.agentskills || skill.trigger.is_some();
        if invocable && !skill.disable_model_invocation {
            let (body, commands) = parse::render_body(&skill.content_str);
            if *body != *skill.content_str {
                s.system_prompt = Some(crate::model::Text::held(body));
            }
            if commands {
                s.rule.push_str(" (its body runs inline !`commands` when invoked: shown unrun)");
            }
            let at = first_in_tier.get(&(*tier, s.name.clone())).copied().unwrap_or(usize::MAX);
            available.push((*tier, at, skill.content_str.clone(), s.name.clone(), skill.description.clone()));
            s.listed = Some(true);
        } else if invocable {
            s.listed = Some(false);
            s.rule.push_str(match skill.trigger {
                Some(parse::Trigger::Path) => " — a path rule: not listed to the model, injected when it touches a matching file",
                _ => " — not listed to the model (`disable-model-invocation`): injected only when a trigger word appears",
            });
        } else {
            s.rule.push_str(" — always on: its whole text is in the system message (<REPO_CONTEXT>)");
            // Repo skills: the whole text in <REPO_CONTEXT>; `claude` and `gemini` only
            // for models of that family.
            let lower = s.name.to_lowercase();
            s.listed = (lower != "claude" && lower != "gemini").then_some(true);
        }
    }
    available.sort_by_key(|a| (a.0, a.1));
    let listing = (!available.is_empty()).then(|| listing::to_prompt(available.iter().map(|a| (a.3.as_str(), a.4.as_deref(), &*a.2))));
    Loaded { places, skills, diagnostics, listing }
}

/// The names an agent's `skills:` resolves against (`load_available_skills`, project
/// over user) and the source key each names.
pub fn available(skills: &[Agent]) -> HashMap<&str, String> {
    skills.iter().filter(|s| s.kind == Kind::Skill && s.status == Status::Wins).map(|s| (s.name.as_str(), s.source.key())).collect()
}

#[cfg(test)]
mod tests {
    use super::parse::maybe_truncate;

    #[test]
    fn truncation_keeps_head_and_tail_around_the_notice() {
        let text: String = "a".repeat(10) + &"b".repeat(10);
        assert_eq!(maybe_truncate(&text, 12, "<n>"), "aaaaa<n>bbbb");
        assert_eq!(maybe_truncate("short", 12, "<n>"), "short");
    }
}
