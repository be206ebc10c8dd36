//! The files Copilot CLI 1.0.102 reads as skills in one place (spec "Skills" K2,
//! observed): in a skills folder, every folder (in name order, links followed, a
//! link back to an ancestor not walked again) holding a file named exactly
//! `SKILL.md` is one skill, and nothing below it is looked at; in
//! `.claude/commands`, the top level's `.md` files.

use std::path::{Path, PathBuf};

use crate::discover::DirEntry;
use crate::frameworks::LoadContext;

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

/// Folders visited past this stop the walk of one place (a hostile tree of links).
const MAX_FOLDERS: usize = 20_000;

/// The skills of one skills folder, in the tool's order; `shown` names a file as
/// the report does (for the skipped files' reason).
pub fn skills_folder(cx: &LoadContext, root: &Path, shown: &dyn Fn(&Path) -> String) -> Vec<SkillFound> {
    let mut out = Vec::new();
    if cx.files.kind(root) != crate::discover::Kind::Dir {
        return out;
    }
    let real = cx.files.canonicalize(root).unwrap_or_else(|| root.to_path_buf());
    let mut budget = MAX_FOLDERS;
    visit(cx, root, false, vec![real], shown, &mut budget, &mut out);
    out
}

/// Whether the folder `real` leads back to one of `ancestors` (or is one).
fn loops(ancestors: &[PathBuf], real: &Path) -> bool {
    ancestors.iter().any(|a| a.starts_with(real))
}

fn visit(cx: &LoadContext, dir: &Path, hidden: bool, ancestors: Vec<PathBuf>, shown: &dyn Fn(&Path) -> String, budget: &mut usize, out: &mut Vec<SkillFound>) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let entries = sorted(cx, dir);
    if let Some(skill) = entries.iter().find(|e| e.is_file && e.name() == "SKILL.md") {
        let skip = hidden.then(|| "in a folder whose name starts with '.': the tool ignores it without a message".to_string());
        out.push(SkillFound { path: skill.path.to_path_buf(), fallback: name_of(dir), skip });
        let why = format!("inside the folder of {}: the tool does not look below a folder that holds a SKILL.md", shown(&skill.path));
        below(cx, &entries, &why, &ancestors, budget, out);
        return;
    }
    for e in entries.iter().filter(|e| e.is_dir) {
        let real = cx.files.canonicalize(&e.path).unwrap_or_else(|| e.path.to_path_buf());
        if loops(&ancestors, &real) {
            continue;
        }
        let mut next = ancestors.clone();
        next.push(real);
        visit(cx, &e.path, hidden || e.name().starts_with('.'), next, shown, budget, out);
    }
}

/// The `SKILL.md` files below a skill's folder, which the tool never reads.
fn below(cx: &LoadContext, entries: &[DirEntry], why: &str, ancestors: &[PathBuf], budget: &mut usize, out: &mut Vec<SkillFound>) {
    for e in entries.iter().filter(|e| e.is_dir) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let real = cx.files.canonicalize(&e.path).unwrap_or_else(|| e.path.to_path_buf());
        if loops(ancestors, &real) {
            continue;
        }
        let inner = sorted(cx, &e.path);
        if let Some(skill) = inner.iter().find(|s| s.is_file && s.name() == "SKILL.md") {
            out.push(SkillFound { path: skill.path.to_path_buf(), fallback: name_of(&e.path), skip: Some(why.to_string()) });
        }
        let mut next = ancestors.to_vec();
        next.push(real);
        below(cx, &inner, why, &next, budget, out);
    }
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
