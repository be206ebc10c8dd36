//! Where Codex 0.171.0 looks for skills and how it walks each root
//! (`skill_roots` and `discover_skills_under_root` of its skills loader).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::discover::walk::{self as walker, Skip, Visit};
use crate::frameworks::LoadContext;
use crate::model::{Loops, Order, Place, Reach, Scope, Traversal, Walking};

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

/// How Codex walks a root: breadth first in name order, `.`-names left out, linked
/// folders followed (each real folder once per root, walked by its real path), at
/// most six folders deep (`MAX_SCAN_DEPTH`), at most 2000 folders
/// (`MAX_SKILLS_DIRS_PER_ROOT`).
const SKILLS_WALK: Walking = Walking::to_depth(Some(6))
    .order(Order::Bytes)
    .traversal(Traversal::BreadthFirst)
    .loops(Loops::Once)
    .skip(true, &[])
    .max_folders(2000)
    .real_paths();

/// What a skills root reads: `SKILL.md` up to six folders below it, and the
/// `agents/openai.yaml` beside each (one folder further).
pub const REACH: Reach = Reach::new(match SKILLS_WALK.depth {
    Some(d) => Some(d + 1),
    None => None,
}, &["SKILL.md", "openai.yaml"])
.walking(SKILLS_WALK);

/// How agentry looks past what Codex reads, to name the files it ignores: down to 24
/// folders, links followed, a folder already on the way not entered again.
const REPORT_WALK: Walking = Walking::to_depth(Some(24)).order(Order::Bytes).loops(Loops::OnPath);

/// The place of each root ([`REACH`]).
pub fn places(cx: &LoadContext, roots: &[Root]) -> Vec<Place> {
    roots
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (scope, base) = match r.scope {
                SkillScope::Repo => (Scope::Project, &cx.roots.project),
                SkillScope::User => (Scope::User, &cx.roots.home),
            };
            Place::skills(i, scope, base, r.dir.clone(), REACH, r.label.clone())
                .ranked(format!("root {} of {}: every skill loads, none shadows another", i + 1, roots.len()))
        })
        .collect()
}

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

/// Walks the place of every root as its [`Walking`] says; only regular files named
/// exactly `SKILL.md` are read.
pub fn walk(cx: &LoadContext, places: &[Place]) -> Walk {
    let mut w = Walk::default();
    let system = crate::model::normalize(&cx.roots.home.join(".codex/skills/.system"));
    for (ri, place) in places.iter().enumerate() {
        let Some(real_root) = cx.files.canonicalize(&place.dir) else { continue };
        let how = &place.reach.walk;
        walker::walk(cx.files, &place.dir, how, cx.roots.listing, (), |visit| {
            match visit {
                Visit::Folder(v, real) => {
                    if v.entry.is_symlink && !real.starts_with(&real_root) {
                        w.linked.push(real.to_path_buf());
                    }
                    return Some(());
                }
                Visit::Skipped(v, Skip::Hidden) if crate::model::normalize(&v.entry.path) != system => {
                    let why = format!("ignored: Codex skips names starting with `.` (`{}`)", v.name);
                    report(cx, &v.entry.path, &why, &mut w.ignored);
                }
                Visit::Skipped(v, Skip::TooDeep) => {
                    let why = format!("ignored: more than {} folders below the skills root", how.depth.unwrap_or_default());
                    report(cx, &v.entry.path, &why, &mut w.ignored);
                }
                Visit::File(v) if v.name.eq_ignore_ascii_case(SKILL_FILE) => {
                    let (e, path) = (v.entry, v.entry.path.to_path_buf());
                    if let Some(why) = passed_over(e.is_symlink, e.is_file, v.name) {
                        w.ignored.push((path, why));
                    } else if e.is_file {
                        w.found.push(Found { path, root: ri });
                    }
                }
                _ => {}
            }
            None
        });
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

/// Every file named like a skill below `dir`, a folder Codex does not enter (or
/// a file), with `why`.
fn report(cx: &LoadContext, dir: &Path, why: &str, out: &mut Vec<(PathBuf, String)>) {
    walker::walk(cx.files, dir, &REPORT_WALK, cx.roots.listing, (), |visit| {
        match visit {
            Visit::Folder(..) => return Some(()),
            Visit::File(v) if v.name.eq_ignore_ascii_case(SKILL_FILE) && (v.entry.is_file || v.entry.is_symlink) => {
                let e = v.entry;
                let path = if e.is_symlink { e.path.to_path_buf() } else { cx.files.canonicalize(&e.path).unwrap_or_else(|| e.path.to_path_buf()) };
                out.push((path, why.to_string()));
            }
            _ => {}
        }
        None
    });
}
