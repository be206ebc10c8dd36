//! The files Copilot CLI 1.0.102 reads as skills in one place (spec "Skills" K2,
//! observed): in a skills folder, every folder (in name order, links followed, a
//! link back to an ancestor not walked again) holding a file named exactly
//! `SKILL.md` is one skill, and nothing below it is looked at; in
//! `.claude/commands`, the top level's `.md` files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::discover::walk::{self as walker, Visit};
use crate::discover::DirEntry;
use crate::frameworks::LoadContext;
use crate::model::{Order, Place, Traversal, Walking};

/// How the tool walks a skills folder: name order, a folder's `SKILL.md` before its
/// subfolders, links followed but not back to an ancestor.
pub const SKILLS_WALK: Walking = Walking::to_depth(None).order(Order::Bytes).traversal(Traversal::FilesFirst);

/// A file the walk found: to load, or to report as skipped (`skip` says why).
#[derive(Clone, Debug)]
pub struct SkillFound {
    pub path: PathBuf,
    /// The name used when the file has no `name`: the skill's folder name, or the
    /// command file's stem.
    pub fallback: String,
    pub skip: Option<String>,
}

/// A folder's entries in name order (byte order of the names, as the tool sorts).
fn sorted(cx: &LoadContext, dir: &Path) -> Vec<DirEntry> {
    let Ok(Some(entries)) = cx.files.list_dir(dir) else { return Vec::new() };
    let mut entries: Vec<DirEntry> = entries.to_vec();
    entries.sort_by(|a, b| a.name().as_bytes().cmp(b.name().as_bytes()));
    entries
}

fn name_of(dir: &Path) -> String {
    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Where a folder of the walk is.
#[derive(Clone)]
enum Within {
    /// No skill above: its subfolders are looked at.
    Plain,
    /// It holds this `SKILL.md`: it is a skill.
    Skill(Arc<Path>),
    /// Below a skill's folder, which the tool does not look into: why not.
    Inside(Arc<str>),
}

/// The `SKILL.md` file of a folder, if it holds one.
fn skill_in(cx: &LoadContext, dir: &Path) -> Option<Arc<Path>> {
    let Ok(Some(entries)) = cx.files.list_dir(dir) else { return None };
    entries.iter().find(|e| e.is_file && e.name() == "SKILL.md").map(|e| e.path.clone())
}

/// The skills of one skills folder, in the tool's order; `shown` names a file as
/// the report does (for the skipped files' reason).
pub fn skills_folder(cx: &LoadContext, place: &Place, shown: &dyn Fn(&Path) -> String) -> Vec<SkillFound> {
    let mut out = Vec::new();
    let top = skill_in(cx, &place.dir).map_or(Within::Plain, Within::Skill);
    walker::walk(cx.files, &place.dir, &place.reach.walk, cx.roots.listing, top, |visit| {
        match visit {
            Visit::Folder(v, _) => {
                return Some(match v.state {
                    Within::Plain => skill_in(cx, &v.entry.path).map_or(Within::Plain, Within::Skill),
                    Within::Skill(skill) => {
                        let why = format!("inside the folder of {}: the tool does not look below a folder that holds a SKILL.md", shown(skill));
                        Within::Inside(why.into())
                    }
                    Within::Inside(why) => Within::Inside(why.clone()),
                });
            }
            Visit::File(v) if v.entry.is_file && v.name == "SKILL.md" => {
                let path = v.entry.path.to_path_buf();
                let fallback = path.parent().map(name_of).unwrap_or_default();
                let skip = match v.state {
                    Within::Plain => None,
                    Within::Skill(_) => Some(v.hidden.then(|| "in a folder whose name starts with '.': the tool ignores it without a message".to_string())),
                    Within::Inside(why) => Some(Some(why.to_string())),
                };
                if let Some(skip) = skip {
                    out.push(SkillFound { path, fallback, skip });
                }
            }
            _ => {}
        }
        None
    });
    out
}

/// The command files of one `.claude/commands` folder (top level, `.md` names).
pub fn commands_folder(cx: &LoadContext, dir: &Path) -> Vec<SkillFound> {
    let mut out = Vec::new();
    for e in sorted(cx, dir) {
        let name = e.name();
        let Some(stem) = name.strip_suffix(".md") else { continue };
        if e.is_dir {
            continue;
        }
        let skip = (!e.is_file).then(|| {
            if e.is_symlink { "symlink that resolves to no file; ignored without a message" } else { "not a regular file; ignored without a message" }.to_string()
        });
        out.push(SkillFound { path: e.path.to_path_buf(), fallback: stem.to_string(), skip });
    }
    out
}
