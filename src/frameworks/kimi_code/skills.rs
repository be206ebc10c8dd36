//! Kimi Code 2.1.0 skills (`features/skill/`): the folders of each source
//! (`skillRoots.ts`), their walks (`discoverFileSkills` for the user's,
//! `discoverRuntimeSkills` for the project's and `extra_skill_dirs`), each file read
//! by [`super::skill_file`], and the merge (`WorkspaceSkillCatalogService.remerge`):
//! project over user over extra over built-in, names compared without case, the
//! first of a name inside one source.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::skill_file::{self, Refusal, SkillDef};
use super::{kimi_home, project_root, resolve_extra, shown_path, Config, ID};
use crate::discover::Hold;
use crate::frameworks::precedence::{self, Candidate, Ladder, NameKey, Tier};
use crate::frameworks::{LoadContext, RenderMode};
use crate::model::{Agent, AgentRecord, DiagKind, Diagnostic, Field, FieldOrigin, Kind, Place, Reach, Scope, Source, Status, Text};

/// `SKILL_SOURCE_PRIORITY`, highest first: the ladder's tiers.
const PROJECT: usize = 0;
const USER: usize = 1;
const EXTRA: usize = 2;
const BUILTIN: usize = 3;

/// `MAX_SKILL_SCAN_DEPTH`: the skills folder is depth 0.
const MAX_DEPTH: u32 = 8;

/// The built-in skills (names only), and whether each is a product skill that
/// `builtin_product_skills = false` removes.
const BUILTINS: [(&str, bool); 9] = [
    ("mcp-config", true),
    ("import-from-cc-codex", true),
    ("update-config", true),
    ("custom-theme", true),
    ("write-goal", false),
    ("check-kimi-code-docs", true),
    ("sub-skill", false),
    ("sub-skill.review", false),
    ("sub-skill.consolidate", false),
];

/// What the skills of one workspace come to.
pub struct Skills {
    pub skills: Vec<Agent>,
    pub diagnostics: Vec<Diagnostic>,
    pub places: Vec<Place>,
}

/// One skills folder of a source: where it is looked for, and its real path.
struct Root {
    tier: usize,
    place: Place,
    real: Option<PathBuf>,
}

fn roots(cx: &LoadContext, config: &Config) -> Vec<Root> {
    let root = project_root(cx);
    let home = kimi_home(cx);
    let reach = Reach::to_depth(MAX_DEPTH + 1, &[".md"]);
    let folder = |tier, dir: PathBuf, label: String| {
        let scope = cx.roots.locate(&dir, None).0;
        let base = if scope == Scope::Project { &cx.roots.project } else { &cx.roots.home };
        Place::skills(tier, scope, base, dir, reach, label)
    };
    let mut places = vec![
        folder(PROJECT, root.join(".kimi-code/skills"), "project .kimi-code/skills".into()),
        folder(PROJECT, root.join(".agents/skills"), "project .agents/skills".into()),
        folder(USER, home.join("skills"), "user ~/.kimi-code/skills".into()),
        folder(USER, cx.roots.home.join(".agents/skills"), "user ~/.agents/skills".into()),
    ];
    for dir in &config.extra_skill_dirs {
        places.push(folder(EXTRA, resolve_extra(dir, &root, &cx.roots.home), format!("extra_skill_dirs entry `{dir}`")));
    }
    crate::model::numbered(&mut places, "searched");
    let mut out: Vec<Root> = Vec::new();
    for place in places {
        // Each source takes a folder once, by its real path.
        let real = (cx.files.kind(&place.dir) == crate::discover::Kind::Dir).then(|| cx.files.canonicalize(&place.dir)).flatten();
        let real = real.filter(|r| !out.iter().any(|o| o.tier == place.tier && o.real.as_ref() == Some(r)));
        out.push(Root { tier: place.tier, place, real });
    }
    out
}

/// A file a walk reads: its path under the real root, the name it falls back to,
/// whether it is a folder skill, and the bundle whose sub-skill it is.
struct File {
    path: PathBuf,
    stem: String,
    folder_skill: bool,
    bundle: Option<String>,
}

/// A file read, in walk order, with what it gave.
struct Read {
    tier: usize,
    file: File,
    result: Result<SkillDef, Refusal>,
}

/// `walkSkillDir` of one root: folder skills of each folder first (dot folders and
/// `node_modules` too), then, at the top, flat `NAME.md` files, then the
/// subfolders that are no folder skill (or a bundle with `has-sub-skill`).
/// `stat_files`: the user walk follows links to flat files, the others do not.
fn walk(cx: &LoadContext, dir: &Path, depth: u32, top: bool, bundle: Option<&str>, stat_files: bool, tier: usize, out: &mut Vec<Read>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(Some(entries)) = cx.files.list_dir(dir) else { return };
    let mut sorted: Vec<(String, &crate::discover::DirEntry)> = entries.iter().map(|e| (e.name().into_owned(), e)).collect();
    sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    let mut folder_skills: Vec<&str> = Vec::new();
    let mut subdirs: Vec<&str> = Vec::new();
    for (name, e) in &sorted {
        if e.is_dir && cx.files.is_file(&e.path.join("SKILL.md")) {
            folder_skills.push(name);
        }
        if e.is_dir && name != "node_modules" && !name.starts_with('.') {
            subdirs.push(name);
        }
    }
    let mut bundles: Vec<(&str, String)> = Vec::new();
    for name in &folder_skills {
        let file = File { path: dir.join(name).join("SKILL.md"), stem: name.to_string(), folder_skill: true, bundle: bundle.map(str::to_string) };
        let read = read(cx, file, tier);
        if let Ok(def) = &read.result {
            if def.has_sub_skill {
                bundles.push((name, def.name.clone()));
            }
        }
        out.push(read);
    }
    if top {
        for (name, e) in &sorted {
            let Some(stem) = name.strip_suffix(".md") else { continue };
            let regular = if stat_files { e.is_file } else { e.is_file && !e.is_symlink };
            if name == "SKILL.md" || folder_skills.contains(&stem) || !regular {
                continue;
            }
            out.push(read(cx, File { path: dir.join(name), stem: stem.to_string(), folder_skill: false, bundle: None }, tier));
        }
    }
    for name in subdirs {
        let own = bundles.iter().find(|(b, _)| *b == name).map(|(_, n)| n.as_str());
        if folder_skills.contains(&name) && own.is_none() {
            continue;
        }
        walk(cx, &dir.join(name), depth + 1, false, own.or(bundle), stat_files, tier, out);
    }
}

fn read(cx: &LoadContext, file: File, tier: usize) -> Read {
    let shown = file.path.to_string_lossy().into_owned();
    let result = match cx.files.read(&file.path, Hold::Not) {
        Ok(bytes) => skill_file::parse(&String::from_utf8_lossy(&bytes), &shown, &file.stem, file.folder_skill),
        Err(e) => Err(Refusal { kind: DiagKind::Io, message: format!("Skipping skill at {shown} due to unexpected error: {e}"), line: None }),
    };
    Read { tier, file, result }
}

/// `qualifySubSkillName`.
fn qualified(bundle: &str, name: &str) -> String {
    if name == bundle || name.starts_with(&format!("{bundle}.")) { name.to_string() } else { format!("{bundle}.{name}") }
}

/// The skills of the workspace. `listing`: whether the main agent's prompt carries
/// the skills listing (its profile has the `Skill` tool and uses `${skills_section}`).
pub fn load(cx: &LoadContext, config: &Config, listing: bool) -> Skills {
    let roots = roots(cx, config);
    let mut places: Vec<Place> = roots.iter().map(|r| r.place.clone()).collect();
    let mut reads = Vec::new();
    for root in &roots {
        let Some(real) = &root.real else { continue };
        let shown = shown_path(cx, real);
        if !places.iter().any(|p| p.dir == shown) {
            places.push(Place { dir: shown.clone(), ..root.place.clone() });
        }
        walk(cx, &shown, 0, true, None, root.tier == USER, root.tier, &mut reads);
    }
    let mut diagnostics = Vec::new();
    let mut candidates = Vec::new();
    for r in reads {
        let source = cx.roots.source(&r.file.path, None);
        let key = source.key();
        match r.result {
            Ok(mut def) => {
                let sub = r.file.bundle.is_some();
                if let Some(b) = &r.file.bundle {
                    def.name = qualified(b, &def.name);
                }
                let agent = skill_agent(cx, &def, &r.file.path, source, sub, listing);
                candidates.push(Candidate { tier: r.tier, agent });
            }
            Err(f) => {
                let (d, status, rule) = if f.kind == DiagKind::Skipped {
                    let rule = format!("not loaded: {}; Kimi Code drops the file without a word", f.message);
                    (Diagnostic::skipped(ID, &r.file.path, f.message.clone()), Status::Skipped, rule)
                } else {
                    let rule = "not loaded: Kimi Code skips the file with a warning in its log, and the name stays free".to_string();
                    (Diagnostic::warning(ID, f.kind, &r.file.path, f.message.clone()), Status::Invalid, rule)
                };
                diagnostics.push(d.at(f.line, None).failing(key).about(Kind::Skill));
                candidates.push(Candidate { tier: r.tier, agent: Agent::skill(ID, r.file.stem.clone(), source, status, rule) });
            }
        }
    }
    for (name, product) in BUILTINS {
        if product && !config.builtin_product_skills {
            continue;
        }
        let rule = "built into Kimi Code 2.1.0 (its name only: agentry does not copy built-in skills)".to_string();
        candidates.push(Candidate { tier: BUILTIN, agent: Agent::skill(ID, name.to_string(), Source::builtin(name), Status::Wins, rule) });
    }
    let mut ladder = Ladder::new(vec![
        Tier::first("the project source (.kimi-code/skills, then .agents/skills)"),
        Tier::first("the user source (~/.kimi-code/skills, then ~/.agents/skills)"),
        Tier::first("the extra_skill_dirs source (config.toml, in list order)"),
        Tier::first("the built-in skills"),
    ]);
    ladder.names = NameKey::CaseInsensitive;
    ladder.equivalents = false;
    let mut skills = precedence::rank(&ladder, candidates);
    for s in &mut skills {
        if s.status != Status::Wins && s.listed == Some(true) {
            s.listed = Some(false);
        }
    }
    Skills { skills, diagnostics, places }
}

/// A loaded skill: its fields as the tool keeps them, and its body as the `Skill`
/// tool hands it over without arguments.
fn skill_agent(cx: &LoadContext, def: &SkillDef, path: &Path, source: Source, sub: bool, listing: bool) -> Agent {
    let site: Arc<str> = source.key().into();
    let line = |k: &str| def.lines.iter().find(|(key, _)| key == k).map(|(_, l)| *l);
    let own = |k: &str, rule: &'static str| FieldOrigin::own(&site, line(k), rule);
    let fields = vec![
        Field::new("description", json!(def.description), own("description", "a non-empty string, trimmed; a flat file falls back to its first body line")),
        Field::new("whenToUse", def.when_to_use.as_ref().map_or(Json::Null, |w| json!(w)), own("whenToUse", "a non-empty string (also `when-to-use`, `when_to_use`)")),
        Field::new("disableModelInvocation", json!(def.disable_model_invocation), own("disableModelInvocation", "only the boolean `true` keeps the model from starting it")),
        Field::new("type", def.kind.as_ref().map_or(Json::Null, |k| json!(k)), own("type", "absent, `prompt` or `inline`: the model may start it; `flow`: the user only; `reference`: never started")),
        Field::new("arguments", json!(def.arguments), own("arguments", "the names `$name` placeholders of the body take")),
    ];
    let mut record = AgentRecord::new(ID, def.name.clone(), source, Status::Wins, String::new());
    record.kind = Kind::Skill;
    record.description = def.description.as_str().into();
    record.fields = fields.into_iter().collect();
    // A folder skill's folder; for a flat file, the skills folder.
    let dir = path.parent().unwrap_or(path);
    if def.is_inline() || def.kind.as_deref() == Some("flow") {
        record.system_prompt = Some(Text::held(render_body(&def.content, &def.arguments, &written(cx, dir))));
    }
    record.listed = Some(listing && def.is_inline() && !def.disable_model_invocation && !sub);
    let mut agent: Agent = record.into();
    if sub {
        agent.rule = "a sub-skill of a `has-sub-skill` bundle: callable, never listed to the model".into();
    }
    agent
}

/// A folder as the report writes it: under `<project>` or `<home>` in a resolution
/// report, as is in a live session.
fn written(cx: &LoadContext, dir: &Path) -> String {
    if let RenderMode::Live { .. } = cx.render {
        return dir.to_string_lossy().into_owned();
    }
    for (root, word) in [(&cx.roots.project, "<project>"), (&cx.roots.home, "<home>")] {
        if let Ok(rest) = dir.strip_prefix(root) {
            return if rest.as_os_str().is_empty() { word.to_string() } else { format!("{word}/{}", rest.to_string_lossy()) };
        }
    }
    dir.to_string_lossy().into_owned()
}

/// `expandSkillParameters` with no arguments: every `$name` of `arguments` (not
/// followed by `[` or a word character), `$ARGUMENTS[N]`, `$N` and `$ARGUMENTS`
/// become empty; `${KIMI_SKILL_DIR}` the skill's folder. `${KIMI_SESSION_ID}` is
/// known only to a running session: left as written.
pub fn render_body(body: &str, arguments: &[String], skill_dir: &str) -> String {
    let mut text = body.to_string();
    for name in arguments {
        text = replace_placeholder(&text, name);
    }
    static INDEXED: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"\$ARGUMENTS\[\d+\]").expect("pattern"));
    text = INDEXED.replace_all(&text, "").into_owned();
    text = replace_digits(&text);
    text = text.replace("$ARGUMENTS", "");
    text.replace("${KIMI_SKILL_DIR}", skill_dir)
}

/// `$NAME` not followed by `[` or a word character, removed.
fn replace_placeholder(text: &str, name: &str) -> String {
    let needle = format!("${name}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at + needle.len()..];
        let next = after.chars().next();
        out.push_str(&rest[..at]);
        if next.is_some_and(|c| c == '[' || c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(&needle);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `$N` (digits not followed by a word character), removed.
fn replace_digits(text: &str) -> String {
    static DIGITS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| regex::Regex::new(r"\$(\d+)(\w?)").expect("pattern"));
    DIGITS
        .replace_all(text, |c: &regex::Captures| {
            // The tool's lookahead: `$12abc` is left alone. (`\d+` backtracks in
            // JavaScript, but a shorter run is followed by a digit: a word character.)
            if c[2].is_empty() { String::new() } else { c[0].to_string() }
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_lose_their_placeholders() {
        let body = "Run `pdftotext $file` on pages $pages (all: $ARGUMENTS, first: $0).\nIn ${KIMI_SKILL_DIR}/scripts $files $file[0] $ARGUMENTS[2] $1x";
        let out = render_body(body, &["file".into(), "pages".into()], "<project>/s/pdf");
        assert_eq!(out, "Run `pdftotext ` on pages  (all: , first: ).\nIn <project>/s/pdf/scripts $files $file[0]  $1x");
    }

    #[test]
    fn sub_skills_take_their_bundle_name() {
        assert_eq!(qualified("web", "fetch"), "web.fetch");
        assert_eq!(qualified("web", "web.fetch"), "web.fetch");
        assert_eq!(qualified("web", "web"), "web");
    }
}
