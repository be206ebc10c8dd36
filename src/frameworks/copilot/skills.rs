//! Copilot CLI 1.0.102's skills (spec "Skills", observed by the oracle): the places
//! in precedence order — `.github/skills`, `.agents/skills`, `.claude/skills`, each
//! from the working folder up to the repository root, then `~/.copilot/skills`,
//! `~/.agents/skills`, the built-in skills, and last `.claude/commands/*.md` from the
//! working folder up. **Project beats user** (the reverse of agents). The first
//! place with a skill of a name that loads wins it; the others are dropped without a
//! message, and a broken file claims nothing. Names are case-sensitive, but the
//! model's `skill` tool matches them without case and refuses a name two skills
//! share that way. Files: [`skill_walk`](super::skill_walk), [`skill_file`](super::skill_file);
//! what the model is told: [`skill_listing`](super::skill_listing).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::json;

use super::skill_file::{self, Form, SkillDef, UNDERIVABLE};
use super::skill_listing::{self, Entry};
use super::skill_walk::{self, SkillFound};
use super::ID;
use crate::discover::{self, Hold};
use crate::frameworks::precedence::{rank, Candidate, Ladder, Tier};
use crate::frameworks::LoadContext;
use crate::model::{relative_to, Agent, AgentRecord, DiagKind, Edge, EdgeKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Kind, Place, Reach, Roots, Scope, Source, Status, Text};

/// The skills compiled into CLI 1.0.102 (offline; names only). A custom skill of
/// such a name replaces it; a command of such a name loses to it.
pub const BUILTIN_SKILLS: [&str; 2] = ["customize-cloud-agent", "github-pr-media"];

/// A skills place and the tool's word for where its skills come from.
struct SkillPlace {
    place: Place,
    form: Form,
    location: &'static str,
}

/// The places in precedence order; the built-ins rank at `builtin_tier`, between
/// the user's folders and the commands. `copilot_home` is `$COPILOT_HOME` where the
/// user's environment sets it (then `~/.agents/skills` is not read).
fn places(roots: &Roots, copilot_home: Option<&Path>) -> (Vec<SkillPlace>, usize) {
    let skill_md = Reach::tree(&["SKILL.md"]).walking(skill_walk::SKILLS_WALK);
    let up = roots.walk_up();
    let mut out: Vec<SkillPlace> = Vec::new();
    let project = |out: &mut Vec<SkillPlace>, sub: &str, reach: Reach, form: Form| {
        for (i, dir) in up.iter().enumerate() {
            let rel = relative_to(dir, &roots.project);
            let at = if rel == "." { sub.to_string() } else { format!("{rel}/{sub}") };
            let whose = if i == 0 { "the working folder's" } else { "a parent of the working folder" };
            let location = if i == 0 { "project" } else { "inherited" };
            let tier = out.len();
            let place = Place::skills(tier, Scope::Project, &roots.project, dir.join(sub), reach, format!("project {at} ({whose})"));
            out.push(SkillPlace { place, form, location });
        }
    };
    for sub in [".github/skills", ".agents/skills", ".claude/skills"] {
        project(&mut out, sub, skill_md, Form::Skill);
    }
    let (user, label) = match copilot_home {
        Some(dir) => (dir.join("skills"), "user $COPILOT_HOME/skills"),
        None => (roots.home.join(".copilot/skills"), "user ~/.copilot/skills"),
    };
    let tier = out.len();
    out.push(SkillPlace { place: Place::skills(tier, Scope::User, &roots.home, user, skill_md, label), form: Form::Skill, location: "personal-copilot" });
    if copilot_home.is_none() {
        let (dir, tier) = (roots.home.join(".agents/skills"), out.len());
        out.push(SkillPlace { place: Place::skills(tier, Scope::User, &roots.home, dir, skill_md, "user ~/.agents/skills"), form: Form::Skill, location: "personal-agents" });
    }
    let builtin_tier = out.len();
    let before = out.len();
    project(&mut out, ".claude/commands", Reach::top(&[".md"]), Form::Command);
    for p in &mut out[before..] {
        p.place.tier += 1;
        p.place.label = p.place.label.replace(" (", " command files (");
    }
    (out, builtin_tier)
}

/// A file as the walk found it, with its place.
struct Listed {
    place: usize,
    found: SkillFound,
    source: Source,
}

/// A file that loaded, with the body the model gets (secrets masked).
type Outcome = Result<(SkillDef, Text), crate::model::Failure>;

fn parse(cx: &LoadContext, l: &Listed, form: Form) -> Arc<Outcome> {
    let context = discover::hash_key((cx.key, ID, "skill", form == Form::Command, l.found.fallback.as_str()));
    let path = &l.found.path;
    let parsed = cx.files.parse(path, Hold::Not, context, |bytes| {
        let def = skill_file::parse(bytes, form, &l.found.fallback)?;
        let prompt = cx.prompts.rendered(path, bytes, &skill_listing::masked(&def.body));
        Ok((def, prompt))
    });
    parsed.unwrap_or_else(|e| {
        let message = format!("Failed to read skill file: {e}");
        Arc::new(Err(crate::model::Failure { kind: DiagKind::Io, message, line: None, col: None }))
    })
}

/// The fields the tool's `session.skills_loaded` event shows (and what else the
/// file sets that decides how the skill is used).
fn fields(def: &SkillDef, key: &Arc<str>) -> Vec<Field> {
    let own = |k: &str, rule: &'static str| FieldOrigin::own(key, def.line(k), rule);
    let description = if def.described {
        own("description", "set by `description`")
    } else {
        FieldOrigin::default("default: the body's first three non-empty lines that are not headings, joined with spaces")
    };
    let mut out = vec![Field::new("description", json!(def.description), description)];
    let ui = if def.line("user-invocable").is_some() { own("user-invocable", "set by `user-invocable`") } else { FieldOrigin::default("default: true") };
    out.push(Field::new("userInvocable", json!(def.user_invocable), ui));
    out.push(Field::new("enabled", json!(true), FieldOrigin::default("default: true (no setting disables it)")));
    let dmi = if def.line("disable-model-invocation").is_some() {
        own("disable-model-invocation", "set by `disable-model-invocation`: true keeps it out of the listing and the `skill` tool")
    } else {
        FieldOrigin::default("default: false (the model is told about it and may invoke it)")
    };
    out.push(Field::new("disableModelInvocation", json!(def.disable_model_invocation), dmi));
    if let Some(tools) = &def.allowed_tools {
        out.push(Field::new("allowed-tools", tools.clone(), own("allowed-tools", "set by `allowed-tools`")));
    }
    out
}

/// Loads the skills into `report`: entries, places, diagnostics and the listing.
pub fn load(cx: &LoadContext, report: &mut EcosystemReport, copilot_home: Option<&Path>) {
    let (places, builtin_tier) = places(cx.roots, copilot_home);
    let shown = |p: &Path| {
        let (scope, base) = if p.starts_with(&cx.roots.project) { (Scope::Project, &cx.roots.project) } else { (Scope::User, &cx.roots.home) };
        Source::new(scope, base, p.to_path_buf()).key()
    };
    let mut listed: Vec<Listed> = Vec::new();
    for (i, sp) in places.iter().enumerate() {
        let found = match sp.form {
            Form::Skill => skill_walk::skills_folder(cx, &sp.place, &shown),
            Form::Command => skill_walk::commands_folder(cx, &sp.place.dir),
        };
        listed.extend(found.into_iter().map(|found| Listed { place: i, source: Source::new(sp.place.scope, &sp.place.base, found.path.clone()), found }));
    }
    let outcomes: Vec<Arc<Outcome>> = {
        use rayon::prelude::*;
        listed.par_iter().map(|l| parse(cx, l, places[l.place].form)).collect()
    };
    let mut tiers: Vec<Tier> = places.iter().map(|p| Tier::first(p.place.label.clone())).collect();
    tiers.insert(builtin_tier, Tier::first("the CLI's built-in set"));
    let ladder = Ladder::new(tiers);
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut unloaded: Vec<Agent> = Vec::new();
    let mut hidden_from_model: Vec<String> = Vec::new();
    let mut locations: BTreeMap<String, &'static str> = BTreeMap::new();
    for (l, outcome) in listed.iter().zip(&outcomes) {
        let key = l.source.key();
        let sp = &places[l.place];
        let skip = l.found.skip.clone().or_else(|| match &**outcome {
            Err(f) if sp.form == Form::Command && f.message == UNDERIVABLE => {
                Some("the file name is not a valid skill name and there is no `name`: the tool drops it without a message".to_string())
            }
            _ => None,
        });
        if let Some(why) = skip {
            report.diagnostics.push(Diagnostic::skipped(ID, &*l.source.path, why.clone()).about(Kind::Skill).failing(key));
            unloaded.push(Agent::skill(ID, l.found.fallback.clone(), l.source.clone(), Status::Skipped, format!("skipped: {why}")));
            continue;
        }
        match &**outcome {
            Err(f) => {
                report.diagnostics.push(Diagnostic::error(ID, f.kind, &*l.source.path, f.message.clone()).at(f.line, f.col).about(Kind::Skill).failing(key));
                let rule = "failed to load: it claims no name, so the next place's skill of its name wins (the tool shows the error only in `copilot skill list`)";
                unloaded.push(Agent::skill(ID, l.found.fallback.clone(), l.source.clone(), Status::Invalid, rule.to_string()));
            }
            Ok((def, prompt)) => {
                let source_key: Arc<str> = key.clone().into();
                if def.disable_model_invocation {
                    hidden_from_model.push(key.clone());
                }
                locations.insert(key, sp.location);
                let agent = AgentRecord {
                    kind: Kind::Skill,
                    description: def.description.as_str().into(),
                    fields: fields(def, &source_key).into_iter().collect(),
                    system_prompt: Some(prompt.clone()),
                    ..AgentRecord::new(ID, def.name.clone(), l.source.clone(), Status::Wins, String::new())
                };
                let tier = if l.place >= builtin_tier { l.place + 1 } else { l.place };
                candidates.push(Candidate { tier, agent: agent.into() });
            }
        }
    }
    for name in BUILTIN_SKILLS {
        let agent = Agent::skill(ID, name.to_string(), Source::builtin(name), Status::Wins, String::new());
        candidates.push(Candidate { tier: builtin_tier, agent });
    }
    let mut skills = rank(&ladder, candidates);
    for s in &mut skills {
        s.listed = Some(s.status == Status::Wins && !hidden_from_model.contains(&s.source.key()));
        if s.status == Status::Wins && !s.listed.unwrap_or(false) {
            s.rule.push_str("; not listed for the model and refused by its `skill` tool (`disable-model-invocation: true`): only a user or an agent's `skills:` brings it in");
        }
    }
    note_ambiguous(report, &mut skills);
    report.skill_listing = listing(report, &mut skills, &locations);
    unloaded.sort_by(|a, b| a.name.cmp(&b.name));
    report.agents.extend(skills);
    report.agents.extend(unloaded);
    report.places.extend(places.into_iter().map(|p| p.place));
}

/// Names the model's `skill` tool cannot load: two listed skills whose names differ
/// only in case (the tool matches without case and answers "ambiguous").
fn note_ambiguous(report: &mut EcosystemReport, skills: &mut [Agent]) {
    let mut by_lower: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in skills.iter().enumerate() {
        if s.listed == Some(true) {
            by_lower.entry(s.name.to_lowercase()).or_default().push(i);
        }
    }
    for group in by_lower.values().filter(|g| g.len() > 1) {
        let names: Vec<String> = group.iter().map(|&i| skills[i].name.clone()).collect();
        for &i in group {
            let why = format!(
                "the model's `skill` tool matches names without case and refuses `{}`: it is ambiguous with {} (both listed, neither loadable by the model)",
                skills[i].name,
                names.iter().filter(|n| **n != skills[i].name).map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            );
            if !skills[i].source.is_compiled_in() {
                report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Ambiguous, &*skills[i].source.path, why.clone()).about(Kind::Skill));
            }
            skills[i].rule.push_str(&format!("; {why}"));
        }
    }
}

/// The `<available_skills>` listing: listed winners, custom skills by name, then
/// the built-ins, then commands; entries past the budget by name only.
fn listing(report: &mut EcosystemReport, skills: &mut [Agent], locations: &BTreeMap<String, &'static str>) -> Option<String> {
    let group = |s: &Agent| {
        if s.source.is_compiled_in() {
            1
        } else if s.source.rel.contains(".claude/commands/") {
            2
        } else {
            0
        }
    };
    let mut order: Vec<usize> = (0..skills.len()).filter(|&i| skills[i].listed == Some(true)).collect();
    order.sort_by(|&a, &b| (group(&skills[a]), &skills[a].name).cmp(&(group(&skills[b]), &skills[b].name)));
    if order.is_empty() {
        return None;
    }
    let (text, name_only) = {
        let entries: Vec<Entry<'_>> = order
            .iter()
            .map(|&i| {
                let s = &skills[i];
                let location = locations.get(&s.source.key()).copied().unwrap_or("builtin");
                Entry { name: &s.name, description: (!s.source.is_compiled_in()).then_some(&*s.description), location }
            })
            .collect();
        skill_listing::render(&entries)
    };
    for &i in &order {
        if name_only.contains(&skills[i].name) {
            let why = format!(
                "listed by name only (\"Additional skills available\"): the listing's {}-character budget was spent on the skills before it, so the model sees no description",
                skill_listing::CHAR_BUDGET
            );
            if !skills[i].source.is_compiled_in() {
                report.diagnostics.push(Diagnostic::info(ID, DiagKind::Ambiguous, &*skills[i].source.path, why.clone()).about(Kind::Skill));
            }
            skills[i].rule.push_str(&format!("; {why}"));
        }
    }
    Some(text)
}

/// The winning skill of each name, for agents' `skills:` lists.
pub fn winners(report: &EcosystemReport) -> BTreeMap<String, String> {
    report.agents.iter().filter(|a| a.kind == Kind::Skill && a.status == Status::Wins).map(|a| (a.name.clone(), a.source.key())).collect()
}

/// Each loaded agent's `skills:` list as edges to the skills they preload (the
/// winner of each name; the sub-agent gets its body whether or not the model may
/// invoke it), and a warning for a name no skill has: the tool ignores it.
pub fn link_agents(report: &mut EcosystemReport) {
    let winners = winners(report);
    let mut warnings = Vec::new();
    for agent in report.agents.iter_mut().filter(|a| a.kind == Kind::Agent && !a.source.is_compiled_in() && !a.status.is_unloaded()) {
        let Some(attr) = agent.attributes.iter().find(|a| &*a.key == "skills") else { continue };
        let serde_json::Value::Array(names) = attr.value.to_json() else { continue };
        let mut edges = Vec::new();
        for name in names.iter().filter_map(|n| n.as_str()) {
            let target = winners.get(name).cloned();
            if target.is_none() {
                let msg = format!("`skills` names `{name}`, which no skill the tool loads has (names match exactly): the tool ignores it without a message and the sub-agent starts without it");
                warnings.push(Diagnostic::warning(ID, DiagKind::Missing, &*agent.source.path, msg).at(Some(attr.line), None));
            }
            edges.push(Edge { kind: EdgeKind::Skill, name: name.to_string(), target });
        }
        agent.edges = edges.into();
    }
    report.diagnostics.extend(warnings);
}
