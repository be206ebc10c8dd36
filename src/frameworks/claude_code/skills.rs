//! Claude Code 2.1.337's skills: `bKo` (load every skills folder and the legacy
//! commands), `aV` (one skills folder: `<dir>/SKILL.md` per entry, sorted by name),
//! `Pqi`/`Rqi` (commands: `**/*.md`, a folder holding a `SKILL.md` is one command
//! named after the folder), the same-file de-duplication by real path, and the
//! skills of plugins auto-loaded from a skills folder.
//!
//! Places, first wins: `~/.claude/skills`, the `.claude/skills` of every folder on
//! the walk from the working folder up to the repository root (nearest first),
//! `~/.claude/commands`, the walk's `.claude/commands`, plugins (`p:skill`), then the
//! bundled skills and built-in commands (names only). A custom skill replaces a
//! built-in of its name. Managed skills, account-synced skills and `--add-dir`
//! folders are not read; nor folders below the working folder, which the tool finds
//! only when a file there is touched.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;

use super::skill_file::{self, SkillDef};
use super::{listing, scan, ID};
use crate::discover::{self, Hold, ReadError};
use crate::frameworks::precedence::{self, Candidate, Ladder, Tier};
use crate::frameworks::LoadContext;
use crate::model::{
    Agent, AgentRecord, DiagKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Kind, Place, Reach, Scope, Source, Status,
};

/// The bundled skills and built-in slash commands of print mode (observed, s13):
/// a custom skill or command of the same name replaces either.
const BUILTINS: &[&str] = &[
    "__remote-workflow", "agents", "auto-mode-setup", "autocompact", "batch", "claude-api", "clear", "code-review", "color",
    "compact", "config", "context", "dataviz", "debug", "deep-research", "doctor", "effort", "fast", "fewer-permission-prompts",
    "focus", "goal", "heapdump", "init", "insights", "keybindings-help", "list-agents", "loop", "mcp", "model", "output-style",
    "plugin-authoring", "recap", "reload-plugins", "reload-skills", "rename", "run", "run-skill-generator", "security-review",
    "simplify", "team-onboarding", "update-config", "usage", "verify", "workflow-authoring", "workflow-launch-exec",
];

/// How a place's files are laid out.
#[derive(Clone)]
enum Layout {
    /// `<dir>/SKILL.md` per entry; the settings source the tool names it by.
    Skills(&'static str),
    /// `**/*.md`, subfolders joined with `:`.
    Commands(&'static str),
    /// A plugin's `skills/<s>/SKILL.md` or `commands/**/*.md`, named `plugin:…`;
    /// why none of them loads, if so.
    Plugin { name: String, commands: bool, rejected: Option<String> },
}

/// One file found, with the name it defines (its key) and why it is not read, if so.
struct Found {
    path: PathBuf,
    key: String,
    skip: Option<String>,
    command: bool,
}

const UNREAD: &str = "ignored without a message: the tool loads no skill from this file and logs nothing about it";

/// The skills places, highest precedence first.
fn places(cx: &LoadContext, walk: &[PathBuf]) -> Vec<(Place, Layout)> {
    let r = cx.roots;
    let n = walk.len();
    let skills = Reach::to_depth(1, &[".md"]);
    let md = Reach::tree(&[".md"]).walking(scan::WALKING);
    let mut out = vec![(Place::skills(0, Scope::User, &r.home, r.home.join(".claude/skills"), skills, "user ~/.claude/skills"), Layout::Skills("userSettings"))];
    for (i, d) in walk.iter().enumerate() {
        let label = format!("project .claude/skills (step {} of the walk up from the working folder)", i + 1);
        out.push((Place::skills(1 + i, Scope::Project, &r.project, d.join(".claude/skills"), skills, label), Layout::Skills("projectSettings")));
    }
    out.push((Place::skills(n + 1, Scope::User, &r.home, r.home.join(".claude/commands"), md, "user ~/.claude/commands"), Layout::Commands("userSettings")));
    for (i, d) in walk.iter().enumerate() {
        let label = format!("project .claude/commands (step {} of the walk up from the working folder)", i + 1);
        out.push((Place::skills(n + 2 + i, Scope::Project, &r.project, d.join(".claude/commands"), md, label), Layout::Commands("projectSettings")));
    }
    // Plugins auto-load from the user's skills folder and the working folder's (the
    // project's held when untrusted); a plugin name already loaded keeps its first.
    let tier = 2 * n + 2;
    // The other folders on the walk are not auto-loaded from: their plugins' files are
    // reported, not read (observed).
    let mut sources: Vec<(Scope, PathBuf, PathBuf, bool, bool)> = vec![(Scope::User, r.home.clone(), r.home.join(".claude/skills"), false, true)];
    for (i, d) in walk.iter().enumerate() {
        sources.push((Scope::Project, r.project.clone(), d.join(".claude/skills"), !r.trusted, i == 0));
    }
    let mut seen: Vec<String> = Vec::new();
    for (scope, base, dir, held, read) in sources {
        for p in scan::plugins(cx, &dir) {
            let rejected = if !read {
                Some(format!(
                    "{} is not the working folder's .claude/skills: Claude Code auto-loads project plugins only from the folder it starts in",
                    crate::model::posix(&dir)
                ))
            } else if let Some(why) = &p.invalid {
                Some(format!("{why}: Claude Code loads none of `{}`'s skills", p.name))
            } else if seen.contains(&p.name) {
                Some(format!("a plugin named `{}` is already loaded from another skills folder: Claude Code keeps the first", p.name))
            } else {
                seen.push(p.name.clone());
                None
            };
            let label = format!("plugin `{}` skills (auto-loaded from {})", p.name, crate::model::posix(&dir));
            let place = Place::skills(tier, scope, &base, p.root.join("skills"), Reach::to_depth(1, &["SKILL.md"]), label.clone()).held(held);
            out.push((place, Layout::Plugin { name: p.name.clone(), commands: false, rejected: rejected.clone() }));
            let place = Place::skills(tier, scope, &base, p.root.join("commands"), md, label.replace(" skills ", " commands ")).held(held);
            out.push((place, Layout::Plugin { name: p.name.clone(), commands: true, rejected }));
        }
    }
    out
}

/// The files of one place, in the order the tool loads them (sorted by name).
fn found(cx: &LoadContext, place: &Place, layout: &Layout, diags: &mut Vec<Diagnostic>) -> Vec<Found> {
    let mut out = Vec::new();
    let commands = matches!(layout, Layout::Commands(_) | Layout::Plugin { commands: true, .. });
    if commands {
        let mut too_deep = Vec::new();
        let files = scan::walk(cx, place, scan::Walker::Agents, &mut too_deep);
        for dir in too_deep {
            diags.push(Diagnostic::warning(ID, DiagKind::Io, dir, "folders nested this deep are not followed by agentry"));
        }
        // `Rqi`: in a folder holding a `SKILL.md` (any case), that file is the command.
        let is_skill = |f: &scan::Found| f.path.file_name().is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("skill.md"));
        let mut taken: HashMap<PathBuf, PathBuf> = HashMap::new();
        for f in files.iter().filter(|f| is_skill(f)) {
            taken.entry(f.path.parent().map(Path::to_path_buf).unwrap_or_default()).or_insert_with(|| f.path.clone());
        }
        for f in files {
            let dir = f.path.parent().map(Path::to_path_buf).unwrap_or_default();
            let (key, skip) = match taken.get(&dir) {
                Some(first) if *first == f.path => {
                    let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let mut parts = f.namespace.clone();
                    if parts.is_empty() {
                        parts.push(folder);
                    }
                    (parts.join(":"), None)
                }
                Some(first) => {
                    let why = format!("the folder holds {}, which Claude Code loads as the command instead of the other files", first.display());
                    (f.stem.clone(), Some(why))
                }
                None => (f.namespace.iter().cloned().chain([f.stem.clone()]).collect::<Vec<_>>().join(":"), None),
            };
            let skip = skip.or(match f.problem {
                Some(scan::Problem::Dangling) => Some("a symlink that leads nowhere: Claude Code cannot read it".into()),
                Some(_) => Some("not a regular file: Claude Code skips it".into()),
                None => None,
            });
            out.push(Found { path: f.path, key, skip, command: true });
        }
    } else if let Ok(Some(entries)) = cx.files.list_dir(&place.dir) {
        for e in discover::in_listing_order(&entries, cx.roots.listing) {
            let name = e.name().into_owned();
            if !e.is_dir {
                // A loose file, or a link to nothing: no skill; the oracle lists loose `.md`.
                if e.is_file && name.ends_with(".md") {
                    out.push(Found { path: e.path.to_path_buf(), key: name.trim_end_matches(".md").into(), skip: Some(UNREAD.into()), command: false });
                }
                continue;
            }
            let file = e.path.join("SKILL.md");
            if cx.files.kind(&file) == discover::Kind::File {
                out.push(Found { path: file, key: name, skip: None, command: false });
                continue;
            }
            // `SKILL.md` in another case is not found (on a case-sensitive disk).
            let Ok(Some(inner)) = cx.files.list_dir(&e.path) else { continue };
            for i in inner.iter().filter(|i| i.name().eq_ignore_ascii_case("skill.md")) {
                out.push(Found { path: i.path.to_path_buf(), key: name.clone(), skip: Some(UNREAD.into()), command: false });
            }
        }
        if matches!(layout, Layout::Plugin { .. }) {
            for f in &mut out {
                f.key = plugin_skill_key(&f.key);
            }
        }
        // `pKn`: by name, then the folder whose name is the key itself, then folder order.
        let folder = |f: &Found| f.path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        out.sort_by(|a, b| {
            let (fa, fb) = (folder(a), folder(b));
            listing::locale_cmp(&a.key, &b.key).then((fb == b.key).cmp(&(fa == a.key))).then_with(|| fa.encode_utf16().cmp(fb.encode_utf16()))
        });
    }
    if let Layout::Plugin { name, .. } = layout {
        for f in &mut out {
            f.key = format!("{name}:{}", f.key);
        }
    }
    out
}

/// `FNn`: a plugin skill is named after its folder with every UTF-16 unit but ASCII
/// letters, digits, `_` and `-` turned into `-` (`with.dot` is `with-dot`).
fn plugin_skill_key(folder: &str) -> String {
    let kept = |c: &char| c.is_ascii_alphanumeric() || *c == '_' || *c == '-';
    folder.encode_utf16().map(|u| char::from_u32(u32::from(u)).filter(kept).unwrap_or('-')).collect()
}

/// A parsed file, kept per version of the file.
struct Parsed {
    def: Option<SkillDef>,
    body: Option<crate::model::Text>,
    size: usize,
}

/// Loads every skill and command into `report` (records, places, diagnostics).
pub fn load(cx: &LoadContext, walk: &[PathBuf], report: &mut EcosystemReport) {
    let places = places(cx, walk);
    let builtin_tier = 2 * walk.len() + 3;
    let mut tiers: Vec<Tier> = (0..builtin_tier).map(|t| {
        let label = places.iter().find(|(p, _)| p.tier == t).map_or("plugin skills".to_string(), |(p, _)| p.label.clone());
        Tier::first(label)
    }).collect();
    tiers.push(Tier::first("the bundled skills and built-in commands"));
    let ladder = Ladder::new(tiers);
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut first_file: HashMap<PathBuf, &'static str> = HashMap::new();
    let mut display: HashMap<String, String> = HashMap::new();
    for (place, layout) in &places {
        for f in found(cx, place, layout, &mut report.diagnostics) {
            let source = Source::new(place.scope, &place.base, f.path.clone());
            let key = source.key();
            let unloaded = |status, rule: String| Agent::skill(ID, f.key.clone(), source.clone(), status, rule);
            let rejected = match layout {
                Layout::Plugin { rejected: Some(why), .. } => Some(why.clone()),
                _ => None,
            };
            if let Some(why) = f.skip.as_ref().or(rejected.as_ref()) {
                report.diagnostics.push(Diagnostic::ignored_definition(ID, &*f.path, why.clone()).about(Kind::Skill).failing(key.clone()));
                candidates.push(Candidate { tier: place.tier, agent: unloaded(Status::Skipped, format!("skipped: {why}")) });
                continue;
            }
            // The same file again (a folder link): the first loading is kept.
            let settings = match layout {
                Layout::Skills(s) | Layout::Commands(s) => Some(*s),
                Layout::Plugin { .. } => None,
            };
            if let (Some(settings), Some(real)) = (settings, cx.files.canonicalize(&f.path)) {
                if let Some(first) = first_file.get(&real) {
                    let message = format!("Skipping duplicate skill '{}' from {settings} (same file already loaded from {first})", f.key);
                    report.diagnostics.push(Diagnostic::skipped(ID, &*f.path, message).about(Kind::Skill).failing(key.clone()));
                    let rule = "skipped: the same file was already loaded from another place (Claude Code keeps the first)".to_string();
                    candidates.push(Candidate { tier: place.tier, agent: unloaded(Status::Skipped, rule) });
                    continue;
                }
                first_file.insert(real, settings);
            }
            let prompts = cx.prompts;
            let reading = match (layout, f.command) {
                (Layout::Plugin { .. }, true) => skill_file::PLUGIN_COMMAND,
                (Layout::Plugin { .. }, false) => skill_file::PLUGIN_SKILL,
                (_, true) => skill_file::COMMAND,
                (_, false) => skill_file::SKILL,
            };
            let context = discover::hash_key((ID, "skill", reading, format!("{prompts:?}")));
            let path = f.path.clone();
            let parsed = cx.files.parse(&f.path, Hold::Not, context, move |bytes| {
                if bytes.len() as u64 > skill_file::MAX_BYTES {
                    return Parsed { def: None, body: None, size: bytes.len() };
                }
                let mut def = skill_file::parse(bytes, reading);
                let body = prompts.rendered(&path, bytes, &std::mem::take(&mut def.body));
                Parsed { def: Some(def), body: Some(body), size: bytes.len() }
            });
            let io = |message: String| Diagnostic::error(ID, DiagKind::Io, &*f.path, message).about(Kind::Skill).failing(key.clone());
            let parsed = match parsed {
                Ok(p) => p,
                Err(e) => {
                    let why = match e {
                        ReadError::NotFound => "[skills] failed to read: no such file".to_string(),
                        e => format!("[skills] failed to read {}: {e}", f.path.display()),
                    };
                    report.diagnostics.push(io(why));
                    candidates.push(Candidate { tier: place.tier, agent: unloaded(Status::Invalid, "failed to load: Claude Code cannot read the file".into()) });
                    continue;
                }
            };
            let (Some(def), Some(body)) = (&parsed.def, &parsed.body) else {
                report.diagnostics.push(io(format!("[skills] skipping {}: {} bytes exceeds {} byte limit", f.path.display(), parsed.size, skill_file::MAX_BYTES)));
                candidates.push(Candidate { tier: place.tier, agent: unloaded(Status::Invalid, "failed to load: over the size Claude Code reads".into()) });
                continue;
            };
            if let Some(e) = &def.parse_error {
                let msg = format!("[skills] YAML frontmatter failed to parse and was ignored: {e} (the skill loads without it, its description from the body)");
                report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Parse, &*f.path, msg).at(Some(def.first_line()), None).about(Kind::Skill));
            }
            if def.retried && def.parse_error.is_none() {
                let msg = "the front matter is not valid YAML as written; Claude Code reads it only after quoting risky values (its lenient retry)";
                report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Ambiguous, &*f.path, msg).at(Some(def.first_line()), None).about(Kind::Skill));
            }
            let shown = match (&def.display, layout) {
                (Some(d), Layout::Plugin { name, .. }) => Some(format!("{name}:{d}")),
                (d, _) => d.clone(),
            }
            .filter(|d| *d != f.key);
            let plugin = matches!(layout, Layout::Plugin { .. });
            let mut agent = record(&f, source.clone(), def, body.clone(), shown.as_deref(), plugin);
            if let Some(d) = shown {
                display.insert(key.clone(), d);
            }
            if !def.user_invocable && agent.listed == Some(false) {
                let why = if def.model_disabled {
                    "`user-invocable: false` and `disable-model-invocation: true`: neither the user nor the model can call it, and Claude Code shows it nowhere"
                } else {
                    "`user-invocable` is not true, and a plugin's skill without a written `description` or `when_to_use` is not in the model's listing: neither the user nor the model can call it, and Claude Code shows it nowhere"
                };
                report.diagnostics.push(Diagnostic::ignored_definition(ID, &*f.path, why).about(Kind::Skill).failing(key.clone()));
                agent.status = Status::Skipped;
                agent.rule = format!("skipped: {why}");
            } else if place.held {
                agent.status = Status::Held;
                agent.rule = "held: the project is not trusted, and Claude Code loads plugins from the project's .claude/skills only in a trusted folder".into();
            }
            candidates.push(Candidate { tier: place.tier, agent });
        }
    }
    for b in BUILTINS {
        candidates.push(Candidate { tier: builtin_tier, agent: Agent::skill(ID, (*b).to_string(), Source::builtin(b), Status::Wins, String::new()) });
    }
    let mut ranked = precedence::rank(&ladder, candidates);
    // The folder name is the key the rule ranks by; the name shown is the front
    // matter's, where it gives one.
    for a in &mut ranked {
        if let Some(d) = display.get(&a.source.key()) {
            a.name = d.clone();
        }
    }
    model_fallback(&mut ranked, &mut report.diagnostics);
    over_budget(&ranked, &cx.roots.project, &mut report.diagnostics);
    report.places.extend(places.into_iter().map(|(p, _)| p));
    report.agents.extend(ranked);
}

/// The listing's default budget: 1% of a 200k-token context window, 4 characters a
/// token (`skillListingBudgetFraction`; `SLASH_COMMAND_TOOL_CHAR_BUDGET` overrides it).
const LISTING_BUDGET: usize = 8000;

/// When the custom skills' lines alone pass the listing's default budget, the tool
/// shows some of them by name only: said once, at the project.
fn over_budget(ranked: &[Agent], project: &Path, diags: &mut Vec<Diagnostic>) {
    let text = |a: &Agent, key: &str| a.fields.iter().find(|f| f.key == key).and_then(|f| f.value.to_json().as_str().map(str::to_string));
    let total: usize = ranked
        .iter()
        .filter(|a| a.listed == Some(true) && (a.status == Status::Wins || a.rule.starts_with("shadowed for the user's")))
        .map(|a| {
            let name = text(a, "listed-as").unwrap_or_else(|| a.name.clone());
            format!("- {name}: {}\n", text(a, "listing").unwrap_or_default()).chars().count()
        })
        .sum();
    if total > LISTING_BUDGET {
        let msg = format!(
            "the custom skills' listing is {total} characters, over Claude Code's default budget of {LISTING_BUDGET} (1% of a 200k-token context): it shows the less used skills by name only, without their descriptions"
        );
        diags.push(Diagnostic::info(ID, DiagKind::Ambiguous, project, msg).about(Kind::Skill));
    }
}

/// The listing is de-duplicated after the skills the model may not call are removed
/// (observed, NOTES.md): when a name's winner has `disable-model-invocation`, the
/// model is shown, and may call, the next definition of that name.
fn model_fallback(ranked: &mut [Agent], diags: &mut Vec<Diagnostic>) {
    let winners: HashMap<String, (String, bool)> = ranked
        .iter()
        .filter(|a| a.status == Status::Wins && a.source.scope != Scope::Builtin)
        .map(|a| (a.source.key(), (a.name.clone(), a.listed == Some(false))))
        .collect();
    let mut taken: Vec<String> = Vec::new();
    for a in ranked.iter_mut().filter(|a| a.status == Status::Shadowed && a.listed == Some(true)) {
        let Some(by) = a.shadowed_by.clone() else { continue };
        let Some((name, true)) = winners.get(&by) else { continue };
        if taken.contains(&by) {
            continue;
        }
        taken.push(by.clone());
        a.rule = format!(
            "shadowed for the user's /{name}, but the model is shown this definition and calls it: the winner ({by}) has `disable-model-invocation`, and the listing drops it before it drops the names it shadows"
        );
        let msg = format!("`{name}`: the user's /{name} runs {by}, but the model is shown and calls this definition");
        diags.push(Diagnostic::warning(ID, DiagKind::Ambiguous, &*a.source.path, msg).about(Kind::Skill));
    }
}

/// A skill file that loads, as agentry's record.
fn record(f: &Found, source: Source, def: &SkillDef, body: crate::model::Text, shown: Option<&str>, plugin: bool) -> Agent {
    // `Mbe`: a plugin's skill or command is listed only with a written description
    // or `when_to_use`.
    let unlisted_plugin = plugin && !def.own_description && def.when_to_use.as_deref().is_none_or(str::is_empty);
    let src: Arc<str> = source.key().into();
    let own = |k: &str, rule: &'static str| FieldOrigin::own(&src, def.line(k).or(Some(def.first_line())), rule);
    let mut fields = Vec::new();
    let desc_origin = if def.own_description {
        own("description", "set here (control characters become spaces)")
    } else {
        FieldOrigin::default("the body's first non-empty line (no `description` given)")
    };
    fields.push(Field::new("description", json!(def.description), desc_origin));
    let hint = match &def.argument_hint {
        Some(h) => Field::new("argument-hint", json!(h), own("argument-hint", "set here")),
        None => Field::new("argument-hint", json!(""), FieldOrigin::default("none given")),
    };
    fields.push(hint);
    let invocable_origin = if def.value("user-invocable").is_some() {
        own("user-invocable", "set here: whether the user can call it as /NAME")
    } else {
        FieldOrigin::default("default: the user can call it as /NAME")
    };
    fields.push(Field::new("user-invocable", json!(def.user_invocable), invocable_origin));
    if let Some(w) = &def.when_to_use {
        fields.push(Field::new("when_to_use", json!(w), own("when_to_use", "set here: the listing shows DESCRIPTION - WHEN_TO_USE")));
    }
    let (text, cut) = def.listing_text();
    let listing_rule = if def.model_disabled {
        "not in the model's listing: `disable-model-invocation` is set"
    } else if unlisted_plugin {
        "not in the model's listing: a plugin's skill needs a written `description` or `when_to_use` to be listed"
    } else if cut {
        "the model's listing cuts the text at 1536 characters (skillListingMaxDescChars)"
    } else {
        "the text the model's listing gives the skill"
    };
    fields.push(Field::new("listing", json!(text), FieldOrigin::default(listing_rule)));
    if shown.is_some() {
        fields.push(Field::new("aliases", json!([f.key]), own("name", "the front matter `name` is the name shown; the folder name stays the key and an alias")));
        fields.push(Field::new("listed-as", json!(f.key), own("name", "the model's listing names the skill by its folder")));
    }
    for k in skill_file::AS_WRITTEN {
        if let Some(v) = def.value(k) {
            fields.push(Field::new(*k, v, own(k, "as written; not checked against the tool (Claude Code never shows what it made of it)")));
        }
    }
    AgentRecord {
        kind: Kind::Skill,
        description: def.description.as_str().into(),
        fields: fields.into(),
        attributes: def.frontmatter.clone(),
        system_prompt: Some(body),
        listed: Some(!def.model_disabled && !unlisted_plugin),
        chain: Arc::new([source.key()]),
        ..AgentRecord::new(ID, f.key.clone(), source, Status::Wins, String::new())
    }
    .into()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::fs;

    use crate::discover::{FileCache, Files};
    use crate::frameworks::{Framework, LoadContext, Prompts, RenderMode};
    use crate::model::{DiagKind, EdgeKind, Roots, Status, TextForm};

    /// A user-only winner leaves the model the next definition; an agent's `skills:`
    /// names resolve to the active skill or to nothing, with a warning.
    #[test]
    fn a_plugin_skill_is_named_after_its_folder_in_ascii() {
        assert_eq!(super::plugin_skill_key("with.dot"), "with-dot");
        assert_eq!(super::plugin_skill_key("a b_c-D9"), "a-b_c-D9");
        assert_eq!(super::plugin_skill_key("über"), "-ber");
        assert_eq!(super::plugin_skill_key("😀x"), "--x");
    }

    #[test]
    fn the_model_gets_the_next_definition_and_agents_link_their_skills() {
        let root = std::env::temp_dir().join(format!("agentry-cc-skills-{}", std::process::id()));
        let (project, home) = (root.join("p"), root.join("h"));
        let write = |path: std::path::PathBuf, text: &str| {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        write(project.join("pkg/.claude/skills/audit/SKILL.md"), "---\ndescription: nested\ndisable-model-invocation: true\n---\nnested\n");
        write(project.join(".claude/skills/audit/SKILL.md"), "---\ndescription: root\n---\nroot\n");
        write(project.join(".claude/agents/w.md"), "---\nname: w\ndescription: d\nskills: [audit, nope]\n---\nBody\n");
        fs::create_dir_all(&home).unwrap();
        let mut roots = Roots::new(project.clone(), home.clone(), home.join(".config"), None);
        roots.cwd = project.join("pkg");
        let (cache, none) = (FileCache::new(), BTreeMap::new());
        let prompts = Prompts::new(TextForm::Held);
        let key = LoadContext::key_of(&roots, &RenderMode::Export, &none, &none, prompts);
        let cx = LoadContext { roots: &roots, files: Files::new(&cache, None), render: RenderMode::Export, env: &none, options: &none, prompts, key };
        let report = &super::super::ClaudeCode.load(&cx);
        let audits: Vec<_> = report.agents.iter().filter(|a| a.name == "audit").collect();
        assert_eq!((audits[0].status, audits[0].listed), (Status::Wins, Some(false)));
        assert_eq!(audits[1].status, Status::Shadowed);
        assert!(audits[1].rule.contains("the model is shown this definition"), "{}", audits[1].rule);
        let w = report.agents.iter().find(|a| a.name == "w").unwrap();
        let edges: Vec<_> = w.edges.iter().map(|e| (e.kind, e.name.as_str(), e.target.as_deref())).collect();
        assert_eq!(edges, [(EdgeKind::Skill, "audit", Some("project:pkg/.claude/skills/audit/SKILL.md")), (EdgeKind::Skill, "nope", None)]);
        assert!(report.diagnostics.iter().any(|d| d.kind == DiagKind::Missing && d.message.contains("`nope`")));
        // Listed beside the built-ins, whose lines are the tool's own text (not copied):
        // the flags, no listing text.
        assert_eq!(w.listed, Some(true));
        assert!(report.agents.iter().filter(|a| a.source.scope == crate::model::Scope::Builtin && a.kind.is_agent()).all(|a| a.listed == Some(true)));
        assert!(report.agent_listing.is_none());
        let _ = fs::remove_dir_all(&root);
    }
}
