//! What OpenHands reads in one folder: the third-party files of a root
//! (`find_third_party_files`) and a skills folder's files (`load_skills_from_dir`:
//! `find_skill_md_directories`, then `find_regular_md_files`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::parse::{third_party_name, Form};
use super::{Scan, ID};
use crate::discover::walk::{self as walker, Visit};
use crate::model::{DiagKind, Diagnostic, Kind, Links, Loops, Order, Scope, Walking};

/// `Path.rglob`: Python's sorted order, any depth, linked folders not entered (so
/// no loop to check).
const RGLOB: Walking = Walking::to_depth(None).order(Order::CodePoints).links(Links::NotEntered).loops(Loops::Unchecked).max_folders(usize::MAX);

/// The third-party files directly in `dir`, sorted; the second file of one lower-case
/// name, and a link to a file already taken, are left out silently. A link left out
/// does not take its name: `CLAUDE.md -> AGENTS.md` leaves `Claude.md` to be read.
/// `false` when one is not UTF-8 (every project skill is then lost).
pub(super) fn third_party(scan: &mut Scan<'_>, tier: usize, base: &Path, dir: &Path) -> bool {
    let Ok(Some(entries)) = scan.cx.files.list_dir(dir) else { return true };
    let (mut names, mut reals) = (HashSet::new(), HashSet::new());
    for e in entries.iter() {
        let name = e.name();
        if !e.is_file || third_party_name(&name).is_none() || names.contains(&name.to_lowercase()) {
            continue;
        }
        let real = scan.cx.files.canonicalize(&e.path).unwrap_or_else(|| e.path.to_path_buf());
        if !reals.insert(real) {
            continue;
        }
        names.insert(name.to_lowercase());
        if !scan.load(tier, false, Scope::Project, base, &e.path, Form::ThirdParty) {
            return false;
        }
    }
    true
}

/// A skills folder: each direct subfolder's `SKILL.md` (any case; the first in sorted
/// order), then every other `*.md` below it in sorted order — not `README.md`, not a
/// `SKILL.md`, not inside a `SKILL.md` folder or `exclude`; linked folders are not
/// entered for these. `tier` is the folder's first tier (its repo map).
pub(super) fn skills_dir(scan: &mut Scan<'_>, tier: usize, scope: Scope, base: &Path, dir: &Path, exclude: Option<&Path>) {
    let files = scan.cx.files;
    let entries = match files.list_dir(dir) {
        Ok(Some(entries)) => entries,
        Ok(None) => return,
        Err(e) => {
            let d = Diagnostic::error(ID, DiagKind::Io, dir, format!("cannot list folder: {e}; OpenHands skips the folder")).about(Kind::Skill);
            scan.diagnostics.push(d);
            return;
        }
    };
    let mut skill_dirs: Vec<PathBuf> = Vec::new();
    for e in entries.iter().filter(|e| e.is_dir) {
        let Ok(Some(inner)) = files.list_dir(&e.path) else { continue };
        if let Some(md) = inner.iter().find(|f| f.is_file && f.name().eq_ignore_ascii_case("skill.md")) {
            skill_dirs.push(e.path.to_path_buf());
            scan.load(tier, true, scope, base, &md.path, Form::AgentSkills);
        }
    }
    let mut regular: Vec<(Vec<String>, PathBuf)> = Vec::new();
    rglob_md(scan, dir, &mut regular);
    regular.sort();
    for (_, path) in regular {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let excluded = skill_dirs.iter().map(PathBuf::as_path).chain(exclude).any(|d| path.starts_with(d));
        if name == "README.md" || name.eq_ignore_ascii_case("skill.md") || excluded {
            continue;
        }
        scan.load(tier, true, scope, base, &path, Form::Legacy { skills_dir: dir });
    }
}

/// `Path.rglob("*.md")`: every entry named `*.md` (folders and dangling links too)
/// below `dir`; each with its path parts for sorting.
fn rglob_md(scan: &Scan<'_>, dir: &Path, out: &mut Vec<(Vec<String>, PathBuf)>) {
    walker::walk(scan.cx.files, dir, &RGLOB, scan.cx.roots.listing, (), |visit| {
        let (Visit::Folder(v, _) | Visit::File(v)) = &visit else { return None };
        if v.name.ends_with(".md") {
            let parts = v.names.iter().cloned().chain([v.name.to_string()]).collect();
            out.push((parts, v.entry.path.to_path_buf()));
        }
        matches!(visit, Visit::Folder(..)).then_some(())
    });
}
