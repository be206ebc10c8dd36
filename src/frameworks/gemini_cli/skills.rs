//! Gemini CLI 0.61.0 skills: `SkillManager.discoverSkills` (built-ins, each active
//! extension's `skills/`, `~/.gemini/skills`, `~/.agents/skills`, then — in a
//! trusted folder — `<cwd>/.gemini/skills` and `<cwd>/.agents/skills`; a later skill
//! of a name replaces the earlier one, keeping its place in the list),
//! `loadSkillsFromDir` (glob `SKILL.md` and `*/SKILL.md`), `setDisabledSkills`,
//! `renderAgentSkills` (what the model is told) and `ActivateSkillTool` (the body it
//! receives: the first skill whose name matches case-insensitively).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::precedence::{self, Candidate, Ladder, Tier};
use super::settings::{self, Settings};
use super::skill_file::{self, SkillFile};
use super::{LoadContext, ID};
use crate::discover::{self, Hold};
use crate::model::{Agent, AgentRecord, Diagnostic, EcosystemReport, Field, FieldOrigin, Kind, Place, Reach, Scope, Source, Status, Text};

/// The skills in the CLI's `bundle/builtin/` (names only: agentry copies no text).
const BUILTINS: [&str; 2] = ["skill-creator", "antigravity-support"];

/// Tiers, highest precedence first (the last folder added wins).
const PROJECT_ALIAS: usize = 0;
const PROJECT: usize = 1;
const USER_ALIAS: usize = 2;
const USER: usize = 3;
const EXTENSION: usize = 4;
const BUILTIN: usize = 5;

const IN_FOLDER: &str = "the glob's order in the folder (the top SKILL.md, then subfolders, seen in descending name order; Gemini CLI does not define it)";

/// The skill folders in the order `discoverSkills` adds them (the last one wins).
pub(super) fn places(cx: &LoadContext, home: &Path, extensions: &[settings::Extension], project_read: bool) -> Vec<Place> {
    let r = cx.roots;
    let reach = Reach::to_depth(1, &["SKILL.md"]);
    let mut out: Vec<Place> = extensions
        .iter()
        .map(|e| Place::skills(EXTENSION, Scope::User, &r.home, e.dir.join("skills"), reach, format!("extension `{}` skills", e.name)))
        .collect();
    out.push(Place::skills(USER, Scope::User, &r.home, home.join(".gemini/skills"), reach, "user ~/.gemini/skills"));
    out.push(Place::skills(USER_ALIAS, Scope::User, &r.home, home.join(".agents/skills"), reach, "user ~/.agents/skills"));
    out.push(Place::skills(PROJECT, Scope::Project, &r.project, r.cwd.join(".gemini/skills"), reach, "project <cwd>/.gemini/skills").held(!project_read));
    out.push(Place::skills(PROJECT_ALIAS, Scope::Project, &r.project, r.cwd.join(".agents/skills"), reach, "project <cwd>/.agents/skills").held(!project_read));
    let n = out.len();
    for (i, p) in out.iter_mut().enumerate() {
        p.rank = format!("added {} of {n} after the built-ins; the last added wins", i + 1);
    }
    out
}

fn ladder() -> Ladder {
    let mut tiers: Vec<Tier> = [
        "project <cwd>/.agents/skills (added last; the last skill added wins)",
        "project <cwd>/.gemini/skills (added after the user's)",
        "user ~/.agents/skills (added after ~/.gemini/skills)",
        "user ~/.gemini/skills (added after the extensions')",
        "extension skills (added after the built-ins, later extensions last)",
    ]
        .into_iter()
        .map(|label| Tier::last(label).undocumented(IN_FOLDER))
        .collect();
    tiers.push(Tier::last("the built-in skills (added first, so any other skill of the name replaces them)"));
    Ladder::new(tiers)
}

/// A file's parse, shared through the file cache, with its body as a text (the
/// extension variables substituted).
struct Parsed {
    result: Result<SkillFile, skill_file::Skip>,
    body: Option<Text>,
}

/// One `SKILL.md` the glob found.
struct Found {
    place: usize,
    path: PathBuf,
    parsed: Result<Arc<Parsed>, String>,
}

/// `glob(["SKILL.md", "*/SKILL.md"], {nodir, ignore node_modules and .git})` in
/// `dir`: the top file first, then subfolders (dot folders never) in descending
/// name order. Symlinks are followed; a dangling `SKILL.md` link is found.
fn glob(cx: &LoadContext, dir: &Path) -> Vec<PathBuf> {
    let Ok(Some(entries)) = cx.files.list_dir(dir) else { return Vec::new() };
    let skill_in = |entries: &[discover::DirEntry]| entries.iter().find(|e| e.name() == "SKILL.md" && !e.is_dir).map(|e| e.path.to_path_buf());
    let mut out: Vec<PathBuf> = skill_in(&entries).into_iter().collect();
    let mut subs: Vec<&discover::DirEntry> = entries.iter().filter(|e| e.is_dir && !e.name().starts_with('.') && e.name() != "node_modules").collect();
    subs.sort_by(|a, b| b.name().encode_utf16().cmp(a.name().encode_utf16()));
    for sub in subs {
        if let Ok(Some(inner)) = cx.files.list_dir(&sub.path) {
            out.extend(skill_in(&inner));
        }
    }
    out
}

fn read(cx: &LoadContext, extension: Option<&Path>, path: &Path) -> Result<Arc<Parsed>, String> {
    let context = discover::hash_key(("gemini-cli skill file", cx.prompts, extension, &cx.roots.cwd));
    cx.files
        .parse(path, Hold::Not, context, |bytes| {
            let mut result = skill_file::parse(bytes);
            let body = result.as_mut().ok().map(|s| match extension {
                Some(ext) => {
                    let hydrate = |t: &str| settings::hydrate(t, ext, &cx.roots.cwd);
                    (s.name, s.description) = (hydrate(&s.name), hydrate(&s.description));
                    let hydrated = hydrate(&s.body);
                    if hydrated == s.body { cx.prompts.from_file(path, bytes, &s.body) } else { cx.prompts.rendered(path, bytes, &hydrated) }
                }
                None => cx.prompts.from_file(path, bytes, &s.body),
            });
            Parsed { result, body }
        })
        .map_err(|e| match e {
            discover::ReadError::NotFound => "could not be read (No such file or directory)".to_string(),
            other => format!("could not be read ({other})"),
        })
}

/// A skill file the CLI drops: a warning when the file is broken (`broken`), a note
/// when the settings turn skills off.
fn skipped(report: &mut EcosystemReport, path: &Path, source: Source, message: String, rule: &str, broken: bool) {
    let key = source.key();
    let d = if broken { Diagnostic::ignored_definition(ID, path, message) } else { Diagnostic::skipped(ID, path, message) };
    report.diagnostics.push(d.failing(key).about(Kind::Skill));
    let name = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    report.agents.push(Agent::skill(ID, name, source, Status::Skipped, rule.into()));
}

/// Loads every skill place of `report.places`, ranks the skills and adds them (and
/// the listing the model receives) to the report.
pub(super) fn load(cx: &LoadContext, settings: &Settings, report: &mut EcosystemReport) {
    let places: Vec<Place> = report.places.iter().filter(|p| p.holds_skills()).cloned().collect();
    // A folder added twice (the working folder is the home) is one location: the
    // later addition is the one that counts (unless it is held back).
    let later_same: Vec<bool> = (0..places.len()).map(|i| places[i + 1..].iter().any(|p| p.dir == places[i].dir && !p.held)).collect();
    let mut found: Vec<Found> = Vec::new();
    for (i, place) in places.iter().enumerate() {
        if later_same[i] || !matches!(cx.files.kind(&place.dir), discover::Kind::Dir) {
            continue;
        }
        let extension = (place.tier == EXTENSION).then(|| place.dir.parent()).flatten();
        for path in glob(cx, &place.dir) {
            let parsed = read(cx, extension, &path);
            found.push(Found { place: i, path, parsed });
        }
    }
    let source = |f: &Found| Source::new(places[f.place].scope, &places[f.place].base, f.path.clone());
    if !settings.skills_enabled {
        for f in found.iter().filter(|f| !places[f.place].held) {
            skipped(report, &f.path, source(f), "skills are disabled (settings skills.enabled = false)".into(), "skipped: settings skills.enabled = false turns every skill off, the built-ins too", false);
        }
        return;
    }
    let mut candidates: Vec<Candidate> = Vec::new();
    for name in BUILTINS {
        let agent = Agent::skill(ID, name.into(), Source::builtin(name), Status::Wins, String::new());
        candidates.push(Candidate { tier: BUILTIN, agent });
    }
    let mut bodies: std::collections::HashMap<String, Option<Text>> = std::collections::HashMap::new();
    for f in &found {
        let place = &places[f.place];
        let parsed = match &f.parsed {
            Ok(p) => p,
            Err(why) if !place.held => {
                skipped(report, &f.path, source(f), format!("not loaded (debug log only): {why}"), "skipped: Gemini CLI cannot read the file and writes that to its debug log only", true);
                continue;
            }
            Err(_) => continue,
        };
        let skill = match &parsed.result {
            Ok(s) => s,
            Err(why) if !place.held => {
                let message = format!("not loaded (debug log only): {}", why.reason());
                skipped(report, &f.path, source(f), message, "skipped: Gemini CLI drops a SKILL.md without front matter or a string name and description, in its debug log only", true);
                continue;
            }
            Err(_) => continue,
        };
        let src = source(f);
        let key: Arc<str> = src.key().into();
        let mut record = AgentRecord { kind: Kind::Skill, ..AgentRecord::new(ID, skill.name.clone(), src, Status::Wins, String::new()) };
        record.description = skill.description.as_str().into();
        let origin = FieldOrigin::own(&key, skill.description_line, "set in the front matter (name and description are the only keys read)");
        record.fields = vec![Field::new("description", serde_json::Value::String(skill.description.clone()), origin)].into();
        record.system_prompt = parsed.body.clone();
        if place.held {
            record.status = Status::Held;
            record.rule = "held: folder trust is on and this folder is not trusted, so Gemini CLI does not read <cwd>/.gemini/skills or <cwd>/.agents/skills".into();
            record.listed = Some(false);
        }
        bodies.insert(key.to_string(), parsed.body.clone());
        candidates.push(Candidate { tier: place.tier, agent: record.into() });
    }
    // `setDisabledSkills`: every copy of a disabled name stays out of the listing and
    // the tool (no other copy of the name can win instead).
    for c in candidates.iter_mut().filter(|c| c.agent.status != Status::Held && settings.skill_disabled(&c.agent.name)) {
        let a = &mut c.agent;
        let message = format!("disabled by settings skills.disabled (name '{}', matched case-insensitively)", a.name);
        report.diagnostics.push(Diagnostic::skipped(ID, &*a.source.path, message).failing(a.source.key()).about(Kind::Skill));
        a.status = Status::Skipped;
        a.rule = "skipped: settings skills.disabled names it (user and workspace lists together, any case)".into();
    }
    // The manager's list: each name where it was first added (built-ins first).
    let mut manager: Vec<String> = Vec::new();
    for c in candidates.iter().filter(|c| c.agent.status == Status::Wins) {
        if !manager.contains(&c.agent.name) {
            manager.push(c.agent.name.clone());
        }
    }
    let read_order: std::collections::HashMap<String, usize> = candidates.iter().enumerate().map(|(i, c)| (c.agent.source.key(), i)).collect();
    let mut ranked = precedence::rank(&ladder(), candidates);
    let winners: Vec<Agent> = manager.iter().filter_map(|n| ranked.iter().find(|a| a.status == Status::Wins && &a.name == n).cloned()).collect();
    for a in ranked.iter_mut() {
        if a.status == Status::Wins {
            a.listed = Some(true);
            // `getSkill`: the first skill in the list whose name matches in any case.
            let lower = a.name.to_lowercase();
            if let Some(first) = winners.iter().find(|w| w.name.to_lowercase() == lower).filter(|w| w.source != a.source) {
                a.system_prompt = bodies.get(&first.source.key()).cloned().flatten();
                a.rule.push_str(&format!(
                    "; activating it gives the model `{}`'s body ({}): Gemini CLI looks a skill up by name in any case and takes the first in its list",
                    first.name,
                    first.source.key()
                ));
            }
        } else if a.status == Status::Shadowed || a.status == Status::Equivalent {
            a.listed = Some(false);
        }
    }
    report.skill_listing = listing(&winners);
    // Held skills of one name, the last added first (the nearest to winning).
    ranked.sort_by_key(|a| if a.status == Status::Held { usize::MAX - read_order.get(&a.source.key()).copied().unwrap_or(0) } else { 0 });
    report.agents.extend(ranked);
}

/// The `<available_skills>` block of the system prompt, where agentry knows every
/// entry: a built-in skill's description and location are the installed CLI's.
fn listing(winners: &[Agent]) -> Option<String> {
    if winners.is_empty() || winners.iter().any(|w| w.source.scope == Scope::Builtin) {
        return None;
    }
    let entries: Vec<String> = winners
        .iter()
        .map(|w| format!("  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>", w.name, w.description, w.source.path.display()))
        .collect();
    Some(format!("<available_skills>\n{}\n</available_skills>", entries.join("\n")))
}
