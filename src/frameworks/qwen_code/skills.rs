//! Qwen Code 0.24.4 skills: `SkillManager.listSkillsAtLevel` (project
//! `<start>/.qwen/skills` and `<start>/.agents/skills`, user `~/.qwen/skills`,
//! `~/.agents/skills` and settings `skills.directories`, each active extension's
//! `skills/` as `<extension>:<name>`, the bundled skills), `loadSkillsFromDir`
//! (every folder entry, or link to one, holding a `SKILL.md`), `loadSkill` (project >
//! user > extension > bundled, the first of a level winning, names exact), the
//! settings `skills.disabled` and `skills.disabledLevels`, and which winners the
//! `<available_skills>` reminder names.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value as Json;

use super::skill_file::{self, SkillFile};
use super::{project_root, qwen_home, LoadContext, ID};
use crate::discover::{self, Hold};
use crate::frameworks::node::strip_json_comments;
use crate::frameworks::precedence::{rank, Candidate, Ladder, Tier};
use crate::model::{Agent, AgentRecord, Diagnostic, EcosystemReport, Field, FieldOrigin, Kind, Place, Reach, Scope, Source, Status};

/// The skills in the CLI's `bundled/` folder (names only: agentry copies no text).
const BUNDLED: [&str; 16] = [
    "batch", "browser-use", "computer-use", "coordinate", "dataviz", "extension-creator", "goal-draft", "loop", "new-app", "qc-helper",
    "review", "simplify", "stuck", "workflow-authoring", "workflow-creator", "zvec-grep-install",
];

/// Bundled skills with `disable-model-invocation`: the user's only, never listed.
const BUNDLED_USER_ONLY: [&str; 2] = ["coordinate", "zvec-grep-install"];

const PROJECT: usize = 0;
const USER: usize = 1;
const EXTENSION: usize = 2;
const BUNDLED_TIER: usize = 3;
const LEVELS: [&str; 4] = ["project", "user", "extension", "bundled"];

/// What the settings say about skills: user settings, and the workspace's unless
/// folder trust is on and the folder is not trusted (lists of both scopes joined).
pub(super) struct SkillSettings {
    disabled: Vec<String>,
    disabled_levels: Vec<String>,
    directories: Vec<String>,
}

fn read_json(cx: &LoadContext, path: &Path) -> Json {
    let Ok(bytes) = cx.files.read(path, Hold::Kept) else { return Json::Null };
    serde_json::from_str(&strip_json_comments(&String::from_utf8_lossy(&bytes))).unwrap_or(Json::Null)
}

fn list(v: &Json, key: &str) -> Vec<String> {
    v.pointer(&format!("/skills/{key}")).and_then(Json::as_array).into_iter().flatten().filter_map(Json::as_str).map(str::to_string).collect()
}

impl SkillSettings {
    pub(super) fn read(cx: &LoadContext) -> SkillSettings {
        let user_file = qwen_home(cx).join("settings.json");
        let user = read_json(cx, &user_file);
        let trust = user.pointer("/security/folderTrust/enabled").and_then(Json::as_bool).unwrap_or(false);
        let workspace_file = project_root(cx.roots).join(".qwen/settings.json");
        let workspace = if (!trust || cx.roots.trusted) && workspace_file != user_file { read_json(cx, &workspace_file) } else { Json::Null };
        let both = |key: &str| [&user, &workspace].into_iter().flat_map(|v| list(v, key)).collect::<Vec<_>>();
        SkillSettings {
            disabled: both("disabled").iter().map(|n| js_trim_lower(n)).collect(),
            disabled_levels: both("disabledLevels"),
            directories: both("directories"),
        }
    }

    fn level_off(&self, tier: usize) -> bool {
        self.disabled_levels.iter().any(|l| l == LEVELS[tier])
    }
}

fn js_trim_lower(s: &str) -> String {
    crate::text::js::trim(s).to_lowercase()
}

/// The skill folders in `loadSkill`'s order, and the settings files read.
pub(super) fn places(cx: &LoadContext, extensions: &[(String, PathBuf)], settings: &SkillSettings) -> Vec<Place> {
    let r = cx.roots;
    let reach = Reach::to_depth(1, &["SKILL.md"]);
    let root = project_root(r);
    let mut out = Vec::new();
    // `listSkillsAtLevel` reads no project level when the start folder is the home.
    if crate::model::normalize(&root) != crate::model::normalize(&r.home) {
        out.push(Place::skills(PROJECT, Scope::Project, &r.project, root.join(".qwen/skills"), reach, "project .qwen/skills (in the start folder)"));
        out.push(Place::skills(PROJECT, Scope::Project, &r.project, root.join(".agents/skills"), reach, "project .agents/skills (in the start folder)"));
    }
    let mut user: Vec<PathBuf> = vec![qwen_home(cx).join("skills"), r.home.join(".agents/skills")];
    for d in &settings.directories {
        // `expandHomeDir`, then `path.resolve` against the start folder.
        let expanded = match d.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => r.home.join(rest.trim_start_matches('/')),
            _ => root.join(d),
        };
        let expanded = crate::model::normalize(&expanded);
        if !user.contains(&expanded) {
            user.push(expanded);
        }
    }
    for (i, dir) in user.into_iter().enumerate() {
        let label = match i {
            0 => "user ~/.qwen/skills".to_string(),
            1 => "user ~/.agents/skills".to_string(),
            _ => format!("user {} (settings skills.directories)", dir.display()),
        };
        out.push(Place::skills(USER, Scope::User, &r.home, dir, reach, label));
    }
    for (name, dir) in extensions {
        out.push(Place::skills(EXTENSION, Scope::User, &r.home, dir.join("skills"), reach, format!("extension `{name}` skills")));
    }
    crate::model::numbered(&mut out, "looked up");
    // Each folder is a rung of its own: the first folder holding a name wins.
    for (i, p) in out.iter_mut().enumerate() {
        p.tier = i;
    }
    out.push(Place::settings(Scope::User, &r.home, qwen_home(cx), Reach::top(&["settings.json"]), "user settings ~/.qwen/settings.json"));
    out.push(Place::settings(Scope::Project, &r.project, root.join(".qwen"), Reach::top(&["settings.json"]), "workspace settings .qwen/settings.json"));
    out
}

/// One rung per folder in lookup order (project, user, extension levels), then the
/// bundled skills.
fn ladder(places: &[Place]) -> Ladder {
    let order = "the folder's listing order (readdir), which Qwen Code does not sort";
    let mut tiers: Vec<Tier> = places.iter().map(|p| Tier::first(p.label.clone()).undocumented(order)).collect();
    tiers.push(Tier::first("the bundled skills"));
    Ladder::new(tiers)
}

/// The level of a skills place: what `skills.disabledLevels` names.
fn level(place: &Place, extensions: &[(String, PathBuf)]) -> usize {
    if place.scope == Scope::Project {
        PROJECT
    } else if extensions.iter().any(|(_, dir)| dir.join("skills") == place.dir) {
        EXTENSION
    } else {
        USER
    }
}

/// The `SKILL.md` files of a skills folder: each entry that is a folder or a link to
/// one (install artifacts `*.backup-N-N`, `*.installing-N-N` skipped), whose
/// `SKILL.md` exists (a dangling link does not).
fn manifests(cx: &LoadContext, dir: &Path) -> Vec<PathBuf> {
    let Ok(Some(entries)) = cx.files.list_dir(dir) else { return Vec::new() };
    let artifact = |name: &str| {
        ["backup", "installing"].iter().any(|w| {
            name.rsplit_once(&format!(".{w}-")).is_some_and(|(_, tail)| {
                tail.split_once('-').is_some_and(|(a, b)| !a.is_empty() && !b.is_empty() && (a.to_string() + b).bytes().all(|c| c.is_ascii_digit()))
            })
        })
    };
    let mut out = Vec::new();
    for e in discover::in_listing_order(&entries, cx.roots.listing) {
        if !e.is_dir || artifact(&e.name()) {
            continue;
        }
        let Ok(Some(inner)) = cx.files.list_dir(&e.path) else { continue };
        if let Some(m) = inner.iter().find(|m| m.name() == "SKILL.md" && (m.is_dir || m.is_file)) {
            out.push(m.path.to_path_buf());
        }
    }
    out
}

struct Parsed {
    result: Result<SkillFile, skill_file::Failure>,
    body: Option<crate::model::Text>,
}

fn read(cx: &LoadContext, path: &Path, extension: bool) -> Arc<Parsed> {
    let context = discover::hash_key(("qwen-code skill file", cx.prompts, extension));
    cx.files
        .parse(path, Hold::Not, context, |bytes| {
            let result = skill_file::parse(bytes, extension);
            let body = result.as_ref().ok().map(|s| cx.prompts.from_file(path, bytes, &s.body));
            Parsed { result, body }
        })
        .unwrap_or_else(|e| {
            let message = match e {
                discover::ReadError::IsDir => "Failed to read skill file: EISDIR: illegal operation on a directory, read".to_string(),
                other => format!("Failed to read skill file: {other}"),
            };
            Arc::new(Parsed { result: Err(skill_file::Failure { cause: super::definition::Cause::Io, message, line: None }), body: None })
        })
}

fn skipped(report: &mut EcosystemReport, source: Source, d: Diagnostic, rule: String) {
    let name = source.path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    report.diagnostics.push(d.failing(source.key()).about(Kind::Skill));
    report.agents.push(Agent::skill(ID, name, source, Status::Skipped, rule));
}

/// Loads the skill places of `report.places`, ranks the skills and adds them.
pub(super) fn load(cx: &LoadContext, settings: &SkillSettings, extensions: &[(String, PathBuf)], report: &mut EcosystemReport) {
    let places: Vec<Place> = report.places.iter().filter(|p| p.holds_skills()).cloned().collect();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut hidden: std::collections::HashSet<String> = std::collections::HashSet::new();
    for place in &places {
        let level = level(place, extensions);
        let extension = extensions.iter().find(|(_, dir)| level == EXTENSION && dir.join("skills") == place.dir).map(|(name, _)| name.clone());
        // A level the settings turn off is not read; for a project or user level the
        // skills it holds are reported as such.
        let level_off = settings.level_off(level);
        if level_off && level == EXTENSION {
            continue;
        }
        for path in manifests(cx, &place.dir) {
            let source = if extension.is_some() { cx.roots.source(&path, None) } else { Source::new(place.scope, &place.base, path.clone()) };
            let parsed = read(cx, &path, extension.is_some());
            let skill = match &parsed.result {
                Err(_) if level_off => continue,
                Err(f) => {
                    let message = format!("{} ({}): Qwen Code drops the file with a debug-log line only", f.message, f.cause.word());
                    let d = Diagnostic::ignored_definition(ID, &path, message).at(f.line, None);
                    skipped(report, source, d, format!("skipped: {}", f.message));
                    continue;
                }
                Ok(s) => s,
            };
            if level_off {
                let message = format!("not loaded: skill level '{}' is disabled by settings skills.disabledLevels", LEVELS[level]);
                skipped(report, source, Diagnostic::skipped(ID, &path, message), "skipped: settings skills.disabledLevels turns this level off".into());
                continue;
            }
            let name = match &extension {
                Some(ext) => format!("{ext}:{}", skill.name),
                None => skill.name.clone(),
            };
            let restricted = settings.disabled.contains(&js_trim_lower(&name)) || (extension.is_some() && settings.disabled.contains(&js_trim_lower(&skill.name)));
            if restricted {
                let message = format!("disabled by settings skills.disabled (name '{name}', matched case-insensitively)");
                skipped(report, source, Diagnostic::skipped(ID, &path, message), "skipped: settings skills.disabled names it (any case)".into());
                continue;
            }
            let key: Arc<str> = source.key().into();
            if skill.user_only || skill.conditional {
                hidden.insert(key.to_string());
            }
            let fields: Vec<Field> = skill
                .fields
                .iter()
                .map(|(k, v, line)| match line {
                    Some(l) if !v.is_null() => Field::new(*k, v.clone(), FieldOrigin::own(&key, Some(*l), "as parseSkillContent reads it")),
                    _ => Field::new(*k, v.clone(), FieldOrigin::default("not set")),
                })
                .collect();
            let mut record = AgentRecord { kind: Kind::Skill, ..AgentRecord::new(ID, name, source, Status::Wins, String::new()) };
            record.description = skill.description.as_str().into();
            record.fields = fields.into();
            record.system_prompt = parsed.body.clone();
            candidates.push(Candidate { tier: place.tier, agent: record.into() });
        }
    }
    if !settings.level_off(BUNDLED_TIER) {
        for name in BUNDLED {
            if settings.disabled.contains(&name.to_string()) {
                let message = format!("disabled by settings skills.disabled (name '{name}', matched case-insensitively)");
                report.diagnostics.push(Diagnostic::skipped(ID, "", message).failing(Source::builtin(name).key()).about(Kind::Skill));
                continue;
            }
            if BUNDLED_USER_ONLY.contains(&name) {
                hidden.insert(Source::builtin(name).key());
            }
            candidates.push(Candidate { tier: places.len(), agent: Agent::skill(ID, name.into(), Source::builtin(name), Status::Wins, "bundled with Qwen Code".into()) });
        }
    }
    let mut ranked = rank(&ladder(&places), candidates);
    for a in ranked.iter_mut() {
        let listed = a.status == Status::Wins && !hidden.contains(&a.source.key());
        a.listed = Some(listed);
        if a.status == Status::Wins && !listed {
            let conditional = a.field("paths").is_some_and(|p| !p.value.to_json().is_null());
            a.rule.push_str(if conditional {
                "; not listed to the model until a tool touches a file its `paths` match"
            } else {
                "; not listed to the model: disable-model-invocation makes it the user's only (`/name`)"
            });
        }
    }
    report.agents.extend(ranked);
}
