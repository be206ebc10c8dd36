//! The folders OpenCode 1.18.33 scans for skills (`Skill.discovery`, spec "Skills"
//! K1) and its glob `**/SKILL.md` (node-glob, `follow: true`, `nodir: true`, dot
//! folders only where asked), and the settings that move or hide them: the merged
//! config's `skills.paths`, `permission` and `default_agent`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};

use super::jsonc;
use crate::discover::walk::{self as walker, Visit};
use crate::discover::Hold;
use crate::frameworks::LoadContext;
use crate::model::{Order, Place, Reach, Roots, Scope, Traversal, Walking};

/// One scanned folder.
pub struct Scan {
    pub place: Place,
}

/// How the glob walks a folder: a folder's entries in name order, then its
/// subfolders; links followed, not back into an ancestor; dot folders left out
/// where the scan does not search them.
const GLOB: Walking = Walking::to_depth(None).order(Order::Bytes).traversal(Traversal::FilesFirst);

fn live_var<'a>(cx: &'a LoadContext, name: &str) -> Option<&'a str> {
    match cx.render {
        crate::frameworks::RenderMode::Live { .. } => cx.env.get(name).map(String::as_str).filter(|v| !v.is_empty()),
        _ => None,
    }
}

/// The scope and base a path outside the fixed places is shown under.
pub fn scope_of(roots: &Roots, path: &Path) -> (Scope, PathBuf) {
    if path.starts_with(&roots.project) {
        (Scope::Project, roots.project.clone())
    } else if path.starts_with(&roots.xdg) {
        (Scope::Xdg, roots.xdg.clone())
    } else {
        (Scope::User, roots.home.clone())
    }
}

/// The scans in OpenCode's order; `paths` is the merged `skills.paths`.
pub fn scans(cx: &LoadContext, paths: &[String]) -> Vec<Scan> {
    let r = cx.roots;
    let reach = |dots: bool| Reach::tree(&["SKILL.md"]).walking(GLOB.skip(!dots, &[]));
    let external = live_var(cx, "OPENCODE_DISABLE_EXTERNAL_SKILLS").is_none();
    let claude = external && live_var(cx, "OPENCODE_DISABLE_CLAUDE_CODE").is_none() && live_var(cx, "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS").is_none();
    let mut out: Vec<Scan> = Vec::new();
    let mut push = |scope: Scope, base: &Path, dir: PathBuf, dots: bool, label: String| {
        let place = Place::skills(0, scope, base, dir, reach(dots), label).ranked("read with all the others at once: the last read to finish wins");
        out.push(Scan { place });
    };
    if claude {
        push(Scope::User, &r.home, r.home.join(".claude/skills"), true, "user ~/.claude/skills".into());
    }
    if external {
        push(Scope::User, &r.home, r.home.join(".agents/skills"), true, "user ~/.agents/skills".into());
        for dir in r.walk_up() {
            let rel = crate::model::relative_to(&dir, &r.project);
            let at = |sub: &str| if rel == "." { sub.to_string() } else { format!("{rel}/{sub}") };
            if claude {
                push(Scope::Project, &r.project, dir.join(".claude/skills"), true, format!("project {}", at(".claude/skills")));
            }
            push(Scope::Project, &r.project, dir.join(".agents/skills"), true, format!("project {}", at(".agents/skills")));
        }
    }
    let mut config_dirs: Vec<(Scope, PathBuf, PathBuf, String)> = vec![(Scope::Xdg, r.xdg.clone(), r.xdg.join("opencode"), "$XDG_CONFIG_HOME/opencode".into())];
    if live_var(cx, "OPENCODE_DISABLE_PROJECT_CONFIG").is_none() {
        for dir in r.walk_up() {
            let rel = crate::model::relative_to(&dir.join(".opencode"), &r.project);
            config_dirs.push((Scope::Project, r.project.clone(), dir.join(".opencode"), format!("project {rel}")));
        }
    }
    config_dirs.push((Scope::User, r.home.clone(), r.home.join(".opencode"), "~/.opencode".into()));
    if let Some(dir) = live_var(cx, "OPENCODE_CONFIG_DIR") {
        let dir = crate::model::normalize(&r.cwd.join(dir));
        let (scope, base) = scope_of(r, &dir);
        config_dirs.push((scope, base, dir, "$OPENCODE_CONFIG_DIR".into()));
    }
    let mut seen = std::collections::HashSet::new();
    config_dirs.retain(|d| seen.insert(d.2.clone()));
    for (scope, base, dir, label) in config_dirs {
        for sub in ["skill", "skills"] {
            push(scope, &base, dir.join(sub), false, format!("{label}/{sub}"));
        }
    }
    for p in paths {
        let dir = match p.strip_prefix("~/") {
            Some(rest) => r.home.join(rest),
            None => r.cwd.join(p),
        };
        let dir = crate::model::normalize(&dir);
        let (scope, base) = scope_of(r, &dir);
        push(scope, &base, dir, false, format!("skills.paths `{p}`"));
    }
    for (i, s) in out.iter_mut().enumerate() {
        s.place.tier = i;
    }
    out
}

/// A `SKILL.md` path the glob finds, and whether it is a readable file (a dangling
/// link is found too, and fails to read).
pub struct Found {
    pub path: PathBuf,
    pub is_file: bool,
}

/// `**/SKILL.md` below the place's folder, as its [`Walking`] says.
pub fn glob(cx: &LoadContext, place: &Place) -> Vec<Found> {
    let mut out = Vec::new();
    walker::walk(cx.files, &place.dir, &place.reach.walk, cx.roots.listing, (), |visit| {
        match visit {
            Visit::Folder(..) => return Some(()),
            Visit::File(v) if v.name == "SKILL.md" => out.push(Found { path: v.entry.path.to_path_buf(), is_file: v.entry.is_file }),
            _ => {}
        }
        None
    });
    out
}

/// What the merged configuration says about skills.
#[derive(Default)]
pub struct Settings {
    pub paths: Vec<String>,
    /// `permission` of the merged config, keys in order.
    pub permission: Map<String, Json>,
    pub default_agent: Option<String>,
}

/// `a` deep-merged with `b` (remeda `mergeDeep`: objects merge, anything else is
/// replaced by the later value).
fn merge_deep(a: &mut Map<String, Json>, b: &Map<String, Json>) {
    for (k, v) in b {
        match (a.get_mut(k), v) {
            (Some(Json::Object(old)), Json::Object(new)) => merge_deep(old, new),
            _ => {
                a.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Reads the JSON config files of `places` (the agents reader's, in merge order).
pub fn settings(cx: &LoadContext, places: &[Place]) -> Settings {
    let mut merged = Map::new();
    for place in places.iter().filter(|p| p.holds_agents() && !p.reached) {
        let files: Vec<PathBuf> = if place.reach.file {
            vec![place.dir.clone()]
        } else if place.reach.suffixes.iter().any(|s| s.ends_with(".json") || s.ends_with(".jsonc")) {
            place.reach.suffixes.iter().map(|s| place.dir.join(s)).collect()
        } else {
            continue;
        };
        for file in files {
            let Ok(bytes) = cx.files.read(&file, Hold::Kept) else { continue };
            if let Ok(Json::Object(config)) = jsonc::parse(&String::from_utf8_lossy(&bytes)) {
                let picked: Map<String, Json> =
                    config.into_iter().filter(|(k, _)| matches!(k.as_str(), "skills" | "permission" | "default_agent")).collect();
                merge_deep(&mut merged, &picked);
            }
        }
    }
    let paths = merged.get("skills").and_then(|s| s.get("paths")).and_then(Json::as_array);
    Settings {
        paths: paths.into_iter().flatten().filter_map(|p| p.as_str().map(String::from)).collect(),
        permission: match merged.get("permission") {
            Some(Json::Object(m)) => m.clone(),
            Some(Json::String(s)) => Map::from_iter([("*".to_string(), Json::from(s.as_str()))]),
            _ => Map::new(),
        },
        default_agent: merged.get("default_agent").and_then(Json::as_str).map(String::from),
    }
}
