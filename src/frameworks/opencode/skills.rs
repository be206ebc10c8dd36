//! OpenCode 1.18.33's skills (spec "Skills"): every `SKILL.md` of its scans
//! ([`skill_scan`](super::skill_scan)) read as `ConfigMarkdown.parse` reads agent
//! files; the name is the front matter's `name` string and nothing else. All files
//! are parsed at once and each sets `skills[name]`, so of several files of one name
//! the **last read to finish wins**, which changes from run to run: agentry lists
//! them in the nominal order (the last scanned first) and marks the race. The
//! built-in `customize-opencode` is set before any read, so one file of that name
//! replaces it. A skill without a description loads but is never listed; the
//! default agent's `permission.skill` rules hide skills from the listing.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{json, Map, Value as Json};

use super::skill_scan::{self, Found, Scan};
use super::{markdown, ID};
use crate::discover::{self, Hold};
use crate::frameworks::precedence::{rank, Candidate, Ladder, Tier};
use crate::frameworks::LoadContext;
use crate::model::{Agent, AgentRecord, DiagKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Kind, Source, Status, Text};

pub const BUILTIN_SKILL: &str = "customize-opencode";
/// The built-in's description length in 1.18.33's listing (its text is the tool's).
const BUILTIN_DESCRIPTION_LEN: usize = 395;

const RACE: &str = "files of one name are parsed at once and the last read to finish wins (it changes from run to run)";

/// A loaded skill file: name, description (when a string) and trimmed body.
pub(crate) struct Loaded {
    name: String,
    description: Option<String>,
    description_line: Option<u32>,
    body: Text,
}

pub(crate) enum Outcome {
    Loaded(Loaded),
    /// Dropped without a word (no string `name`, a non-string `description`).
    Dropped,
    /// `failed to load skill`: YAML that still fails after the colon rewrite.
    Broken(String),
    /// `failed to load skill`: the file cannot be read (a dangling link).
    Unreadable(String),
}

fn parse(cx: &LoadContext, found: &Found) -> Arc<Outcome> {
    if !found.is_file {
        return Arc::new(Outcome::Unreadable("failed to load skill: ENOENT: no such file or directory".into()));
    }
    let context = discover::hash_key((cx.key, ID, "skill"));
    let path = &found.path;
    let parsed = cx.files.parse(path, Hold::Not, context, |bytes| read(bytes, |body| cx.prompts.from_file(path, bytes, body)));
    parsed.unwrap_or_else(|e| Arc::new(Outcome::Unreadable(format!("failed to load skill: {e}"))))
}

/// One `SKILL.md`'s bytes as `ConfigMarkdown.parse` and the scan read them; `body`
/// makes the model's text of the trimmed body.
pub(crate) fn read(bytes: &[u8], body: impl FnOnce(&str) -> Text) -> Outcome {
    let p = match markdown::parse(bytes) {
        Ok(p) => p,
        Err(message) => return Outcome::Broken(format!("failed to load skill: ConfigFrontmatterError: {message}")),
    };
    // A YAML timestamp is a JavaScript Date, not a string.
    let date = |key: &str| p.dates.iter().any(|d| d == key);
    let name = p.data.get("name").and_then(Json::as_str).filter(|_| !date("name"));
    let description = match p.data.get("description") {
        None => Ok(None),
        Some(_) if date("description") => Err(()),
        Some(Json::String(d)) => Ok(Some(d.clone())),
        Some(_) => Err(()),
    };
    let (Some(name), Ok(description)) = (name, description) else { return Outcome::Dropped };
    let line = p.lines.iter().find(|(k, _)| k == "description").map(|&(_, l)| l);
    Outcome::Loaded(Loaded { name: name.to_string(), description, description_line: line, body: body(&p.body) })
}

/// OpenCode's `Wildcard.match`: `*` any text, `?` one character, the rest literal.
fn wildcard(pattern: &str, text: &str) -> bool {
    let mut re = String::from("^");
    for c in pattern.chars() {
        match c {
            '*' => re.push_str(".*"),
            '?' => re.push('.'),
            c => re.push_str(&regex::escape(&c.to_string())),
        }
    }
    re.push('$');
    regex::RegexBuilder::new(&re).dot_matches_new_line(true).build().is_ok_and(|r| r.is_match(text))
}

/// The `skill` rules of the config's and the default agent's `permission`, in order
/// (the last rule that matches decides): (pattern, action).
fn skill_rules(config: &Map<String, Json>, agent: Option<&Map<String, Json>>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for perm in std::iter::once(config).chain(agent) {
        for (key, value) in perm {
            if !wildcard(key, "skill") {
                continue;
            }
            match value {
                Json::String(action) => out.push(("*".to_string(), action.clone())),
                Json::Object(m) => out.extend(m.iter().filter_map(|(p, a)| a.as_str().map(|a| (p.clone(), a.to_string())))),
                _ => {}
            }
        }
    }
    out
}

fn action<'a>(rules: &'a [(String, String)], name: &str) -> Option<&'a (String, String)> {
    rules.iter().rev().find(|(p, _)| wildcard(p, name))
}

/// Loads the skills into `report` (after its agents, whose places and default agent
/// it reads).
pub fn load(cx: &LoadContext, report: &mut EcosystemReport) {
    let settings = skill_scan::settings(cx, &report.places);
    let scans = skill_scan::scans(cx, &settings.paths);
    if report.diagnostics.iter().any(|d| d.fatal) {
        // OpenCode stops before any skill loads.
        report.places.extend(scans.into_iter().map(|s| s.place));
        return;
    }
    let mut seen = std::collections::HashSet::new();
    let mut files: Vec<(usize, Found)> = Vec::new();
    for (i, scan) in scans.iter().enumerate() {
        if !scan.place.dir.as_os_str().is_empty() && cx.files.kind(&scan.place.dir) != crate::discover::Kind::Dir && i + settings.paths.len() >= scans.len() {
            let d = Diagnostic::warning(ID, DiagKind::Missing, &scan.place.dir, format!("{}: skill path not found (OpenCode logs a warning and skips it)", scan.place.label));
            report.diagnostics.push(d);
            continue;
        }
        for f in skill_scan::glob(cx, &scan.place) {
            if seen.insert(f.path.clone()) {
                files.push((i, f));
            }
        }
    }
    let outcomes: Vec<Arc<Outcome>> = {
        use rayon::prelude::*;
        files.par_iter().map(|(_, f)| parse(cx, f)).collect()
    };
    let source_of = |scan: &Scan, f: &Found| Source::new(scan.place.scope, &scan.place.base, f.path.clone());
    let ladder = Ladder::new(vec![Tier::last("every scanned folder alike").undocumented(RACE), Tier::first("the built-in skill")]);
    let mut candidates = vec![Candidate { tier: 1, agent: Agent::skill(ID, BUILTIN_SKILL.into(), Source::builtin(BUILTIN_SKILL), Status::Wins, String::new()) }];
    let mut unloaded = Vec::new();
    let mut described: BTreeMap<String, bool> = BTreeMap::new();
    let mut paths: BTreeMap<String, String> = BTreeMap::new();
    for ((i, f), outcome) in files.iter().zip(&outcomes) {
        let source = source_of(&scans[*i], f);
        let key = source.key();
        let fallback = f.path.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match &**outcome {
            Outcome::Unreadable(message) | Outcome::Broken(message) => {
                let kind = if matches!(**outcome, Outcome::Unreadable(_)) { DiagKind::Io } else { DiagKind::Parse };
                report.diagnostics.push(Diagnostic::error(ID, kind, &f.path, message.clone()).about(Kind::Skill).failing(key));
                unloaded.push(Agent::skill(ID, fallback, source, Status::Invalid, "failed to load: OpenCode logs `failed to load skill` and goes on without it".into()));
            }
            Outcome::Dropped => {
                let why = "OpenCode drops it without a message: no front matter, a `name` that is not a string, or a `description` that is not a string";
                report.diagnostics.push(Diagnostic::skipped(ID, &f.path, why).about(Kind::Skill).failing(key));
                unloaded.push(Agent::skill(ID, fallback, source, Status::Skipped, format!("skipped: {why}")));
            }
            Outcome::Loaded(l) => {
                let k: Arc<str> = key.clone().into();
                let fields: Vec<Field> = l
                    .description
                    .iter()
                    .map(|d| Field::new("description", json!(d), FieldOrigin::own(&k, l.description_line, "set by `description`")))
                    .collect();
                described.insert(key.clone(), l.description.is_some());
                paths.insert(key, f.path.display().to_string());
                let agent = AgentRecord {
                    kind: Kind::Skill,
                    description: l.description.as_deref().unwrap_or_default().into(),
                    fields: fields.into_iter().collect(),
                    system_prompt: Some(l.body.clone()),
                    ..AgentRecord::new(ID, l.name.clone(), source, Status::Wins, String::new())
                };
                candidates.push(Candidate { tier: 0, agent: agent.into() });
            }
        }
    }
    let mut skills = rank(&ladder, candidates);
    note_races(report, &mut skills);
    let agent_permission = {
        let default = settings.default_agent.as_deref().unwrap_or("build");
        report.agents.iter().find(|a| a.kind == Kind::Agent && a.status == Status::Wins && a.name == default).and_then(|a| {
            a.fields.iter().find(|f| f.key == "permission").and_then(|f| f.value.to_json().as_object().cloned())
        })
    };
    let rules = skill_rules(&settings.permission, agent_permission.as_ref());
    // `PermissionNext.disabled`: the last rule for `skill` denies `*`.
    let off = rules.last().is_some_and(|(p, a)| p == "*" && a == "deny");
    for s in &mut skills {
        let denied = action(&rules, &s.name).filter(|(_, a)| a == "deny");
        let has_description = s.source.is_compiled_in() || described.get(&s.source.key()).copied().unwrap_or(false);
        s.listed = Some(s.status == Status::Wins && has_description && denied.is_none() && !off);
        if s.status != Status::Wins {
            continue;
        }
        if off {
            s.rule.push_str("; `permission.skill` denies every skill: OpenCode drops the skills section and the `skill` tool");
            s.system_prompt = None;
        } else if let Some((pattern, _)) = denied {
            s.rule.push_str(&format!("; not listed and refused by the `skill` tool: `permission.skill` `{pattern}` is `deny`"));
            s.system_prompt = None;
        } else if !has_description {
            s.rule.push_str("; not listed (no description): the model may still load it by name");
        }
    }
    report.skill_listing = (!off).then(|| listing(&skills, &paths));
    unloaded.sort_by(|a, b| a.name.cmp(&b.name));
    report.agents.extend(skills);
    report.agents.extend(unloaded);
    report.places.extend(scans.into_iter().map(|s| s.place));
}

/// Each file of a name several files give: a `validation` error naming them all.
fn note_races(report: &mut EcosystemReport, skills: &mut [Agent]) {
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in skills.iter().enumerate().filter(|(_, s)| !s.source.is_compiled_in()) {
        by_name.entry(s.name.clone()).or_default().push(i);
    }
    for (name, group) in by_name.iter().filter(|(_, g)| g.len() > 1) {
        let all: Vec<String> = group.iter().map(|&i| skills[i].source.key()).collect();
        let message = format!(
            "skill '{name}' is defined by several files ({}); OpenCode reads them all at once and keeps the one whose read finishes last (not deterministic), with a 'duplicate skill name' warning in its log",
            all.join(", ")
        );
        for &i in group {
            let s = &mut skills[i];
            report.diagnostics.push(Diagnostic::error(ID, DiagKind::Validation, &*s.source.path, message.clone()).about(Kind::Skill).failing(s.source.key()));
            s.rule = if s.status == Status::Wins {
                format!("races with {} other file(s) of `{name}`: the last scanned, so the nominal winner, but {RACE}", group.len() - 1)
            } else {
                format!("races with the other files of `{name}`: it loses when {} finishes reading after it, which {RACE}", s.shadowed_by.as_deref().unwrap_or("another"))
            };
        }
    }
}

/// ICU's `localeCompare` for names, closely enough: letters without case first,
/// lower case before upper on a tie.
fn locale_key(name: &str) -> (String, String) {
    (name.to_lowercase(), name.chars().map(|c| if c.is_uppercase() { 'B' } else { 'A' }).collect())
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// The `<available_skills>` block of the default agent's system prompt.
fn listing(skills: &[Agent], paths: &BTreeMap<String, String>) -> String {
    let mut listed: Vec<&Agent> = skills.iter().filter(|s| s.listed == Some(true)).collect();
    if listed.is_empty() {
        return "No skills are currently available.".to_string();
    }
    listed.sort_by_key(|s| locale_key(&s.name));
    let mut out = String::from("<available_skills>\n");
    for s in listed {
        let (description, location) = if s.source.is_compiled_in() {
            (format!("[the built-in skill's own description, {BUILTIN_DESCRIPTION_LEN} characters, not copied by agentry]"), "<built-in>".to_string())
        } else {
            (s.description.to_string(), paths.get(&s.source.key()).cloned().unwrap_or_default())
        };
        out.push_str(&format!(
            "  <skill>\n    <name>{}</name>\n    <description>{description}</description>\n    <location>{}</location>\n  </skill>\n",
            s.name,
            escape_html(&location)
        ));
    }
    out.push_str("</available_skills>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(v: Json) -> Map<String, Json> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn the_last_matching_skill_rule_decides() {
        let config = obj(json!({"skill": {"*": "allow", "internal-*": "deny", "risky": "ask"}}));
        let rules = skill_rules(&config, None);
        assert_eq!(action(&rules, "internal-a").map(|r| r.1.as_str()), Some("deny"));
        assert_eq!(action(&rules, "risky").map(|r| r.1.as_str()), Some("ask"));
        assert_eq!(action(&rules, "public").map(|r| r.1.as_str()), Some("allow"));
        // The agent's rules come after the config's; a string is `{"*": value}`.
        let agent = obj(json!({"skill": "deny"}));
        let rules = skill_rules(&config, Some(&agent));
        assert_eq!(rules.last().map(|r| (r.0.as_str(), r.1.as_str())), Some(("*", "deny")));
        // A key that is a pattern matching `skill` counts; others do not.
        assert_eq!(skill_rules(&obj(json!({"*": "deny", "bash": "allow"})), None), [("*".to_string(), "deny".to_string())]);
        assert!(wildcard("a?c", "abc") && !wildcard("a?c", "abbc") && wildcard("ops-*", "ops-deploy") && !wildcard("ops.*", "opsx"));
    }

    #[test]
    fn the_listing_is_sorted_without_case_and_not_escaped() {
        let skill = |name: &str, description: &str| {
            let mut s = Agent::skill(ID, name.into(), Source::builtin(name), Status::Wins, String::new());
            s.source.scope = crate::model::Scope::Project;
            s.source.path = std::path::Path::new("/p/x/SKILL.md").into();
            s.description = description.into();
            s.listed = Some(true);
            s
        };
        let skills = [skill("beta", "b & <c>"), skill("Alpha", "a")];
        let paths = BTreeMap::from([(skills[0].source.key(), "/p/<b>/SKILL.md".to_string())]);
        let text = listing(&skills, &paths);
        assert!(text.starts_with("<available_skills>\n  <skill>\n    <name>Alpha</name>"), "{text}");
        assert!(text.contains("<description>b & <c></description>\n    <location>/p/&lt;b&gt;/SKILL.md</location>"), "{text}");
        assert_eq!(listing(&[], &paths), "No skills are currently available.");
    }
}
