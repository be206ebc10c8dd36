//! Codex's config layers and the role files under each layer's `agents/` folder
//! (`ConfigLayerStack` and `collect_agent_role_files` of 0.171.0).

use std::path::{Path, PathBuf};

use super::ID;
use crate::discover::walk::{self as walker, Skip, Visit};
use crate::frameworks::LoadContext;
use crate::model::{DiagKind, Diagnostic, Loops, Order, Place, Reach, Scope, Walking};

/// The user layer, then (when `trusted`) every `.codex` folder from the repository
/// root down to the working folder, the closest last. A `.codex` that is not a
/// folder is no layer; folders below the working folder or beside the path are not
/// read. Each layer is the place of its `config.toml` (its `[agents.NAME]` tables),
/// named as rules name it ("the user layer (~/.codex)"), ranked in the tier of its
/// precedence (the closest layer first); its `agents/` folder is [`agents_place`].
pub fn layers(cx: &LoadContext, trusted: bool) -> Vec<Place> {
    let roots = cx.roots;
    let config = Reach::top(&["config.toml"]);
    let mut out = vec![Place::agents(0, Scope::User, &roots.home, roots.home.join(".codex"), config, "the user layer (~/.codex)")];
    if trusted {
        for dir in roots.walk_up().into_iter().rev() {
            let codex = dir.join(".codex");
            if cx.files.kind(&codex) == crate::discover::Kind::Dir {
                let rel = crate::model::relative_to(&codex, &crate::model::normalize(&roots.project));
                out.push(Place::agents(0, Scope::Project, &roots.project, codex, config, format!("the project layer ({rel})")));
            }
        }
    }
    let count = out.len();
    for (i, layer) in out.iter_mut().enumerate() {
        layer.tier = count - 1 - i;
        layer.rank = format!("layer {} of {count}, the last one wins", i + 1);
    }
    out
}

/// The role files of `layer`: its `agents/` folder, `*.toml` at any depth.
pub fn agents_place(layer: &Place) -> Place {
    let label = format!("{}: agents/, any depth", layer.label);
    Place { dir: layer.dir.join("agents"), reach: Reach::tree(&[".toml"]).walking(ROLES_WALK), label, ..layer.clone() }
}

/// A `*.toml` file found under a layer's `agents/` folder.
pub struct Found {
    pub path: PathBuf,
    /// The file itself is a symlink: Codex lists its role but will not open it
    /// through the link when the role is spawned.
    pub symlink: bool,
}

/// What the walk of one `agents/` folder saw.
#[derive(Default)]
pub struct Walk {
    /// Regular files named `*.toml` (exactly), in Codex's order: paths compared
    /// component by component.
    pub files: Vec<Found>,
    /// Files Codex passes over without a word that look meant as roles, with why.
    pub skipped: Vec<(PathBuf, String)>,
    /// Problems agentry met walking (a folder that cannot be listed, a link loop).
    pub diagnostics: Vec<Diagnostic>,
}

/// How an `agents/` folder is walked: any depth, hidden names too, linked folders
/// followed, a folder already on the walk (a link loop) not entered again; agentry
/// stops at its guard depth (a hostile tree) and says so.
const ROLES_WALK: Walking = Walking::to_depth(Some(Walking::GUARD_DEPTH)).order(Order::CodePoints).loops(Loops::OnPath).max_folders(usize::MAX);

/// Every role file of the place (a layer's [`agents_place`]).
pub fn walk(cx: &LoadContext, place: &Place) -> Walk {
    let mut walk = Walk::default();
    walker::walk(cx.files, &place.dir, &place.reach.walk, cx.roots.listing, (), |visit| {
        match visit {
            Visit::Folder(..) => return Some(()),
            Visit::File(v) => file(cx, v.entry, &mut walk),
            Visit::Skipped(v, why @ (Skip::TooDeep | Skip::Loop)) => {
                let why = if why == Skip::TooDeep { "folders nested too deep" } else { "a symlink loop" };
                walk.diagnostics.push(Diagnostic::warning(ID, DiagKind::Io, &*v.entry.path, format!("not entered: {why}")));
            }
            Visit::Skipped(..) => {}
            Visit::Unlisted(dir, e) => walk.diagnostics.push(Diagnostic::warning(ID, DiagKind::Io, dir, format!("cannot list folder: {e}"))),
        }
        None
    });
    walk.files.sort_by(|a, b| a.path.cmp(&b.path));
    walk.skipped.sort();
    walk
}

/// What an entry that is no folder is to Codex.
fn file(cx: &LoadContext, e: &crate::discover::DirEntry, walk: &mut Walk) {
    let path = e.path.to_path_buf();
    let ext = path.extension().map(|x| x.to_string_lossy().into_owned());
    if e.is_file && ext.as_deref() == Some("toml") {
        walk.files.push(Found { path, symlink: e.is_symlink });
    } else if e.is_file && ext.as_deref().is_some_and(|x| x.eq_ignore_ascii_case("toml")) {
        let why = format!("ignored: Codex reads only names ending in `.toml` (this one ends in `.{}`)", ext.unwrap_or_default());
        walk.skipped.push((path, why));
    } else if e.is_symlink && !e.is_file && !e.is_dir && ext.as_deref() == Some("toml") && !cx.files.exists(&path) {
        walk.skipped.push((path, "ignored: dangling symlink".into()));
    }
}

/// Whether the last component of `path` is a symlink (asked through the file cache:
/// the resolved path differs from its folder's resolved path joined with its name).
pub fn is_link(cx: &LoadContext, path: &Path) -> bool {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else { return false };
    match (cx.files.canonicalize(path), cx.files.canonicalize(parent)) {
        (Some(real), Some(folder)) => real != folder.join(name),
        _ => false,
    }
}
