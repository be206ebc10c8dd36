//! Where Codex 0.171.0 looks for skills and how it walks each root
//! (`skill_roots` and `discover_skills_under_root` of its skills loader).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::frameworks::LoadContext;
use crate::model::{Place, Reach, Scope};

/// Codex's skill scopes, in the order it sorts skills (repo first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkillScope {
    Repo,
    User,
}

/// One skills root, in Codex's scan order.
pub struct Root {
    pub dir: PathBuf,
    pub scope: SkillScope,
    pub label: String,
}

/// Every root, whether it exists or not, in the order Codex scans them: each
/// project `.codex/skills` (closest layer first; untrusted ones too: skills ignore
/// trust), `$CODEX_HOME/skills`, `~/.agents/skills`, then `.agents/skills` in every
/// folder from the repository root down to the working folder. Its bundled skills'
/// folder (`$CODEX_HOME/skills/.system`) is Codex's own and `/etc/codex/skills`
/// lies outside every workspace.
pub fn roots(cx: &LoadContext) -> Vec<Root> {
    let project = crate::model::normalize(&cx.roots.project);
    let rel = |d: &Path| crate::model::relative_to(d, &project);
    let mut out = Vec::new();
    for dir in cx.roots.walk_up() {
        let skills = dir.join(".codex").join("skills");
        out.push(Root { label: format!("the project's {}", rel(&skills)), dir: skills, scope: SkillScope::Repo });
    }
    let home = &cx.roots.home;
    out.push(Root { dir: home.join(".codex/skills"), scope: SkillScope::User, label: "the user's ~/.codex/skills (deprecated, still read)".into() });
    out.push(Root { dir: home.join(".agents/skills"), scope: SkillScope::User, label: "the user's ~/.agents/skills".into() });
    for dir in cx.roots.walk_up().into_iter().rev() {
        let skills = dir.join(".agents").join("skills");
        out.push(Root { label: format!("the project's {}", rel(&skills)), dir: skills, scope: SkillScope::Repo });
    }
    let mut seen = HashSet::new();
    out.retain(|r| seen.insert(crate::model::normalize(&r.dir)));
    out
}

/// The place of each root: `SKILL.md` up to six folders below it, and the
/// `agents/openai.yaml` beside each.
pub fn places(cx: &LoadContext, roots: &[Root]) -> Vec<Place> {
    roots
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (scope, base) = match r.scope {
                SkillScope::Repo => (Scope::Project, &cx.roots.project),
                SkillScope::User => (Scope::User, &cx.roots.home),
            };
            Place::skills(i, scope, base, r.dir.clone(), Reach::to_depth(MAX_DEPTH as u32 + 1, &["SKILL.md", "openai.yaml"]), r.label.clone())
                .ranked(format!("root {} of {}: every skill loads, none shadows another", i + 1, roots.len()))
        })
        .collect()
}

/// Folders below a root Codex still enters (`MAX_SCAN_DEPTH`).
pub const MAX_DEPTH: usize = 6;
/// Folders Codex enters per root at most (`MAX_SKILLS_DIRS_PER_ROOT`).
const MAX_DIRS: usize = 2000;
/// How deep agentry looks past what Codex reads, to name the files it ignores.
const REPORT_DEPTH: usize = 24;
const SKILL_FILE: &str = "SKILL.md";

/// A `SKILL.md` Codex reads: its real path (folders resolved) and its root.
pub struct Found {
    pub path: PathBuf,
    pub root: usize,
}

/// What the walks of every root saw.
#[derive(Default)]
pub struct Walk {
    pub found: Vec<Found>,
    /// Files named like a skill that Codex passes over without a word, with why
    /// (keyed by the real path, or by the link itself for a linked file).
    pub ignored: Vec<(PathBuf, String)>,
    /// Real folders reached through a symlink outside their root.
    pub linked: Vec<PathBuf>,
}

/// Walks every root as Codex does: breadth first, `.`-names skipped, linked
/// folders followed (each real folder once per root), at most six folders deep,
/// only regular files named exactly `SKILL.md`.
pub fn walk(cx: &LoadContext, roots: &[Root]) -> Walk {
    let mut w = Walk::default();
    let system = crate::model::normalize(&cx.roots.home.join(".codex/skills/.system"));
    for (ri, root) in roots.iter().enumerate() {
        let Some(real_root) = cx.files.canonicalize(&root.dir) else { continue };
        if cx.files.kind(&real_root) != crate::discover::Kind::Dir {
            continue;
        }
        let mut visited: HashSet<PathBuf> = HashSet::from([real_root.clone()]);
        let mut queue = std::collections::VecDeque::from([(real_root.clone(), 0usize)]);
        while let Some((dir, depth)) = queue.pop_front() {
            let Ok(Some(entries)) = cx.files.list_dir(&dir) else { continue };
            let mut entries: Vec<_> = entries.iter().collect();
            entries.sort_by(|a, b| a.path.cmp(&b.path));
            for e in entries {
                let path = e.path.to_path_buf();
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if name.starts_with('.') {
                    if crate::model::normalize(&path) != system {
                        let why = format!("ignored: Codex skips names starting with `.` (`{name}`)");
                        report(cx, &path, &why, 0, &mut Vec::new(), &mut w.ignored);
                    }
                    continue;
                }
                if e.is_dir {
                    let Some(real) = cx.files.canonicalize(&path) else { continue };
                    if e.is_symlink && !real.starts_with(&real_root) {
                        w.linked.push(real.clone());
                    }
                    if depth + 1 > MAX_DEPTH {
                        let why = format!("ignored: more than {MAX_DEPTH} folders below the skills root");
                        report(cx, &path, &why, 0, &mut Vec::new(), &mut w.ignored);
                    } else if visited.len() < MAX_DIRS && visited.insert(real.clone()) {
                        queue.push_back((real, depth + 1));
                    }
                } else if name.eq_ignore_ascii_case(SKILL_FILE) {
                    if let Some(why) = passed_over(e.is_symlink, e.is_file, &name) {
                        w.ignored.push((path, why));
                    } else if e.is_file {
                        w.found.push(Found { path, root: ri });
                    }
                }
            }
        }
    }
    // A file Codex reads through one path is not ignored through another; a linked
    // `SKILL.md` is passed over as the link itself, whatever its target (observed).
    let read: HashSet<PathBuf> = w.found.iter().map(|f| crate::model::normalize(&f.path)).collect();
    w.ignored.retain(|(p, _)| {
        is_link(cx, p) || !read.contains(&crate::model::normalize(&cx.files.canonicalize(p).unwrap_or_else(|| p.clone())))
    });
    let mut seen = HashSet::new();
    w.ignored.retain(|(p, _)| seen.insert(p.clone()));
    w
}

/// Whether `path` is a symlink, as its folder's listing says.
fn is_link(cx: &LoadContext, path: &Path) -> bool {
    let listing = path.parent().and_then(|dir| cx.files.list_dir(dir).ok().flatten());
    listing.is_some_and(|entries| entries.iter().any(|e| &*e.path == path && e.is_symlink))
}

/// Why Codex passes over a file named like `SKILL.md` in a folder it reads.
fn passed_over(symlink: bool, file: bool, name: &str) -> Option<String> {
    if symlink {
        return Some(if file { "ignored: a symlinked file is not followed (only symlinked folders are)".into() } else { "ignored: dangling symlink".into() });
    }
    (file && name != SKILL_FILE).then(|| format!("ignored: Codex reads only files named exactly `{SKILL_FILE}` (not `{name}`)"))
}

/// Every file named like a skill below `dir`, a folder Codex does not enter, with
/// `why` (links followed, loops cut).
fn report(cx: &LoadContext, dir: &Path, why: &str, depth: usize, stack: &mut Vec<PathBuf>, out: &mut Vec<(PathBuf, String)>) {
    if depth > REPORT_DEPTH {
        return;
    }
    let real = cx.files.canonicalize(dir).unwrap_or_else(|| dir.to_path_buf());
    if stack.contains(&real) {
        return;
    }
    let Ok(Some(entries)) = cx.files.list_dir(dir) else { return };
    stack.push(real);
    let mut entries: Vec<_> = entries.iter().collect();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    for e in entries {
        let name = e.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if e.is_dir {
            report(cx, &e.path, why, depth + 1, stack, out);
        } else if name.eq_ignore_ascii_case(SKILL_FILE) && (e.is_file || e.is_symlink) {
            let path = if e.is_symlink { e.path.to_path_buf() } else { cx.files.canonicalize(&e.path).unwrap_or_else(|| e.path.to_path_buf()) };
            out.push((path, why.to_string()));
        }
    }
    stack.pop();
}
