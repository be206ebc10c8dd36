//! Codex 0.171.0 skills: every `SKILL.md` under its roots ([`super::skill_walk`]),
//! read as [`super::skill_file`] says, with its `agents/openai.yaml`
//! ([`super::skill_meta`]). Codex has no precedence for skills: every skill that
//! loads is kept and listed to the model, whatever its name — only one file reached
//! through two roots loads once — so each is `WINS`, and a name held by several
//! skills says that a plain `$NAME` mention selects none of them. The user's
//! `[[skills.config]]` rules disable skills by name or path; `[skills.bundled]
//! enabled = false` removes the bundled ones.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value as Json};

use super::skill_meta::{self, Value};
use super::skill_walk::{self, SkillScope};
use super::ID;
use crate::discover::Hold;
use crate::frameworks::LoadContext;
use crate::model::{Agent, AgentRecord, Diagnostic, Field, FieldOrigin, Kind, Place, Source, Status};

/// The skills bundled with Codex 0.171.0 (written to `$CODEX_HOME/skills/.system`
/// at start-up): names only.
const BUNDLED: [&str; 6] = ["create-statusline", "imagegen", "openai-docs", "review-agent", "skill-creator", "skill-installer"];

/// What the skills of one workspace come to.
pub struct Skills {
    pub skills: Vec<Agent>,
    pub diagnostics: Vec<Diagnostic>,
    pub places: Vec<Place>,
}

/// One skill that loaded, before the config rules.
struct Loaded {
    agent: AgentRecord,
    scope: SkillScope,
    real: PathBuf,
}

/// The skills Codex loads in this workspace. `user_config` is the user layer's
/// `config.toml`, already read (the only one whose skill rules count).
pub fn load(cx: &LoadContext, user_config: Option<&toml_codex::Table>) -> Skills {
    let roots = skill_walk::roots(cx);
    let mut places = skill_walk::places(cx, &roots);
    let walk = skill_walk::walk(cx, &places);
    let mut diagnostics = Vec::new();
    let mut failed = Vec::new();
    for real in &walk.linked {
        let (scope, base) = scope_base(cx, real);
        places.push(Place { reached: true, ..Place::skills(usize::MAX, scope, base, real.clone(), skill_walk::REACH, "a skill folder a symlink in a skills root leads to") });
    }
    for (path, why) in &walk.ignored {
        let key = cx.roots.source(path, None).key();
        diagnostics.push(Diagnostic::skipped(ID, path, why.clone()).failing(key).about(Kind::Skill));
    }
    let mut loaded: Vec<Loaded> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for found in &walk.found {
        // One real file reached through two roots loads once, in the first root's scope.
        if !seen.insert(crate::model::normalize(&found.path)) {
            continue;
        }
        let scope = roots[found.root].scope;
        match read(cx, &found.path, &roots[found.root].label) {
            Ok(Some(agent)) => loaded.push(Loaded { agent, scope, real: found.path.clone() }),
            Ok(None) => {
                let key = cx.roots.source(&found.path, None).key();
                let why = "ignored: `policy.products` in agents/openai.yaml does not include Codex";
                diagnostics.push(Diagnostic::skipped(ID, &found.path, why).failing(key).about(Kind::Skill));
            }
            Err((d, name)) => {
                let source = cx.roots.source(&found.path, None);
                failed.push(Agent::skill(ID, name, source, Status::Invalid, format!("not loaded: {}", d.message)));
                diagnostics.push(d);
            }
        }
    }
    loaded.sort_by(|a, b| (a.scope, a.agent.name.as_bytes(), &a.real).cmp(&(b.scope, b.agent.name.as_bytes(), &b.real)));
    let rules = super::skill_rules::rules(cx, user_config);
    let disabled = super::skill_rules::disabled(&rules, loaded.iter().map(|l| (l.agent.name.as_str(), l.real.as_path())));
    let bundled_on = super::skill_rules::bundled_enabled(user_config);
    let mut count: HashMap<String, usize> = HashMap::new();
    for l in loaded.iter().filter(|l| !disabled.contains_key(&l.real)) {
        *count.entry(l.agent.name.clone()).or_default() += 1;
    }
    if bundled_on {
        for name in BUNDLED {
            *count.entry(name.to_string()).or_default() += 1;
        }
    }
    let config_key = cx.roots.source(&cx.roots.home.join(".codex/config.toml"), None).key();
    let mut skills: Vec<Agent> = Vec::new();
    for mut l in loaded {
        if let Some(rule) = disabled.get(&l.real) {
            let message = format!("disabled: `[[skills.config]]` with `enabled = false` in {config_key}");
            diagnostics.push(Diagnostic::skipped(ID, &l.real, message).failing(l.agent.source.key()).about(Kind::Skill));
            l.agent.status = Status::Skipped;
            l.agent.listed = Some(false);
            l.agent.rule = format!("disabled by the user's config.toml ({rule}): neither listed to the model nor callable");
        } else {
            let n = count.get(&l.agent.name).copied().unwrap_or(1);
            l.agent.rule = wins_rule(&l.agent, n);
        }
        skills.push(l.agent.into());
    }
    if bundled_on {
        for name in BUNDLED {
            let rule = "bundled with Codex 0.171.0 (its name only: agentry does not copy bundled skills); `[skills.bundled] enabled = false` removes it".to_string();
            skills.push(Agent::skill(ID, name.to_string(), Source::builtin(name), Status::Wins, rule));
        }
    }
    skills.extend(failed);
    Skills { skills, diagnostics, places }
}

/// Why a loaded skill is used: alone under its name, or one of several.
fn wins_rule(a: &AgentRecord, same_name: usize) -> String {
    let name = &a.name;
    let mut rule = if same_name > 1 {
        format!(
            "loaded beside {} other `{name}` skill(s): Codex keeps every skill of a name (no precedence, all listed); a plain `${name}` selects none of them, a linked `[${name}](PATH)` selects this one",
            same_name - 1
        )
    } else {
        format!("loaded; `${name}` selects it")
    };
    if a.listed == Some(false) {
        rule.push_str("; not listed to the model: agents/openai.yaml sets `policy.allow_implicit_invocation: false`, so only an explicit mention invokes it");
    }
    rule
}

/// The scope and base folder a path outside the roots is reported in.
fn scope_base<'a>(cx: &'a LoadContext, path: &Path) -> (crate::model::Scope, &'a Path) {
    match cx.roots.locate(path, None).0 {
        crate::model::Scope::User => (crate::model::Scope::User, &cx.roots.home),
        scope => (scope, &cx.roots.project),
    }
}

/// Reads one `SKILL.md` (a real path): the skill, `None` when its openai.yaml
/// leaves Codex out, or the diagnostic and the name it goes by (its folder's).
fn read(cx: &LoadContext, path: &Path, root: &str) -> Result<Option<AgentRecord>, (Diagnostic, String)> {
    let source = cx.roots.source(path, None);
    let key = source.key();
    let dir = path.parent().unwrap_or(path);
    let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let fail = |kind, message: String, line| {
        let d = Diagnostic::warning(ID, kind, path, message).at(line, None).failing(key.clone()).about(Kind::Skill);
        (d, folder.clone().unwrap_or_else(|| "skill".into()))
    };
    let bytes = cx.files.read(path, Hold::Not).map_err(|e| fail(crate::model::DiagKind::Io, format!("failed to read file: {e}"), None))?;
    let skill = super::skill_file::parse(&bytes, folder.as_deref()).map_err(|r| fail(r.kind, r.message, r.line))?;
    let meta_path = dir.join("agents/openai.yaml");
    let meta = if cx.files.is_file(&meta_path) {
        cx.files.read(&meta_path, Hold::Not).ok().and_then(|b| skill_meta::parse(&b, dir)).unwrap_or_default()
    } else {
        skill_meta::Metadata::default()
    };
    if meta.not_for_codex {
        return Ok(None);
    }
    let site: Arc<str> = key.as_str().into();
    let own = |line| FieldOrigin::own(&site, line, format!("set in {}", root));
    let mut fields = vec![Field::new("description", Json::String(skill.description.clone()), own(skill.description_line))];
    if let Some(short) = &skill.short_description {
        fields.push(Field::new("metadata", json!({ "short-description": short }), own(skill.metadata_line)));
    }
    if !meta.interface.is_empty() {
        let mut iface = Map::new();
        for (k, v) in &meta.interface {
            let v = match v {
                Value::Text(t) => Json::String(t.clone()),
                Value::Path(p) => Json::String(cx.roots.source(p, None).key()),
            };
            iface.insert(k.to_string(), v);
        }
        let meta_site: Arc<str> = cx.roots.source(&meta_path, None).key().into();
        fields.push(Field::new("interface", Json::Object(iface), FieldOrigin::own(&meta_site, None, "set in agents/openai.yaml")));
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut record = AgentRecord::new(ID, skill.name, source, Status::Wins, String::new());
    record.kind = Kind::Skill;
    record.description = skill.description.into();
    record.fields = fields.into_iter().collect();
    // What Codex injects when the skill is invoked: the whole file as read.
    record.system_prompt = Some(cx.prompts.from_file(path, &bytes, &text));
    record.listed = Some(meta.implicit != Some(false));
    Ok(Some(record))
}
