//! `discoverAgentFiles` (`agentFileDiscovery.ts`): one loader's folders walked in
//! order, each recursively in JavaScript's default sort order (UTF-16 code units), a
//! subfolder walked where its name sorts; dot entries and `node_modules` skipped;
//! folders entered down to depth 8; only names ending in `.md` (case-sensitive) that
//! are regular files after following links are read.

use std::path::PathBuf;
use std::sync::Arc;

use super::agent_file::{self, Definition, Failure};
use super::{render, ID, SYSTEM_MD};
use crate::discover::walk::{self as walker, Skip, Visit};
use crate::discover::{self, Hold};
use crate::frameworks::LoadContext;
use crate::model::{Attributes, DiagKind, Diagnostic, EcosystemReport, Loops, Order, Place, Text, Walking};

/// How Kimi Code walks an agent folder: JavaScript's sort order, dot entries and
/// `node_modules` left out, folders entered down to `MAX_AGENT_SCAN_DEPTH` (the agent
/// folder is depth 0), links followed without a check for loops. A few links back
/// to their own folder would make the tool walk 8 levels of every combination:
/// agentry stops at the folder budget and says so.
pub const WALKING: Walking = Walking::to_depth(Some(8)).order(Order::Utf16).loops(Loops::Unchecked).skip(true, &["node_modules"]);
/// `ELOOP` on Linux and macOS' `ELOOP`.
const ELOOP: [i32; 2] = [40, 62];

/// A file the walk read, in read order, and what it defines.
pub struct Found {
    pub path: PathBuf,
    /// The name it was found under (a link's own name).
    pub file_name: String,
    pub parsed: Arc<Parsed>,
}

/// One version of a file as the load keeps it: the definition without its body, and
/// the prompt rendered with the load's variables, made by `cx.prompts` (on disk in
/// the explorer, where the file holds its lines).
pub struct Parsed {
    pub result: Result<Definition, Failure>,
    pub prompt: Option<Text>,
    /// The definition's keys, packed as the catalog shows them (shared with it); the
    /// definition's own `keys` are dropped.
    pub attributes: Attributes,
    /// The variables of the rendered prompt only the running tool fills, in words.
    pub runtime_note: Option<String>,
}

/// The folder's agent files in read order, each parsed (on every core: only the
/// listing must go in order).
pub fn walk(cx: &LoadContext, folder: &Place, vars: &render::Vars, report: &mut EcosystemReport) -> Vec<Found> {
    use rayon::prelude::*;
    let files = walk_folder(cx, folder, report);
    let with_base = folder.tier != SYSTEM_MD;
    // The prompt depends on the variables it is rendered with and the texts' form.
    let context = discover::hash_key((ID, cx.prompts, with_base, &vars.cwd, &vars.base_prompt));
    files.into_par_iter().map(|(path, file_name)| parse(cx, path, file_name, vars, with_base, context)).collect()
}

/// `parseAgentFileText` on one file, once per version of it.
fn parse(cx: &LoadContext, path: PathBuf, file_name: String, vars: &render::Vars, with_base: bool, context: u64) -> Found {
    let shown = path.to_string_lossy().into_owned();
    let context = discover::hash_key((context, &file_name));
    let parsed = cx
        .files
        .parse(&path, Hold::Not, context, |bytes| {
            let mut result = agent_file::parse(&String::from_utf8_lossy(bytes), &shown, &file_name);
            let (prompt, attributes, runtime_note) = match &mut result {
                Ok(def) => {
                    // The body is only needed to render the prompt, and the keys to
                    // pack them: the kept parse drops both.
                    let rendered = render::render(&std::mem::take(&mut def.prompt), vars, with_base);
                    let attributes = std::mem::take(&mut def.keys).iter().map(|(k, line, v)| crate::model::Attribute::new(k, *line, v.clone())).collect();
                    (Some(cx.prompts.rendered(&path, bytes, &rendered)), attributes, render::runtime_note(&rendered))
                }
                Err(_) => (None, Attributes::default(), None),
            };
            Parsed { result, prompt, attributes, runtime_note }
        })
        .unwrap_or_else(|e| {
            Arc::new(Parsed {
                result: Err(Failure {
                    kind: DiagKind::Io,
                    message: format!("Skipping agent file at {shown} due to unexpected error: {e}"),
                    line: None,
                    col: None,
                }),
                prompt: None,
                attributes: Attributes::default(),
                runtime_note: None,
            })
        });
    Found { path, file_name, parsed }
}

/// The agent files of the folder's tree, in walk order, with the name each was found under.
fn walk_folder(cx: &LoadContext, folder: &Place, report: &mut EcosystemReport) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let how = &folder.reach.walk;
    walker::walk(cx.files, &folder.dir, how, cx.roots.listing, (), |visit| {
        match visit {
            Visit::Folder(..) => return Some(()),
            Visit::File(v) => {
                if let Some(file) = agent_file(cx, v.entry, v.name, report) {
                    out.push(file);
                }
            }
            Visit::Skipped(v, Skip::Hidden | Skip::Named) => {
                let (name, entry) = (v.name, v.entry);
                if name.ends_with(".md") || (entry.is_dir && name == "node_modules") {
                    let why = if name == "node_modules" { "a `node_modules` folder" } else { "its name starts with `.`" };
                    report.diagnostics.push(Diagnostic::skipped(ID, &*entry.path, format!("not read by Kimi Code: {why}")));
                }
            }
            Visit::Skipped(v, Skip::TooDeep) => {
                let depth = how.depth.unwrap_or_default();
                let msg = format!("not read by Kimi Code: folders deeper than {depth} levels below an agent folder are not entered");
                report.diagnostics.push(Diagnostic::skipped(ID, &*v.entry.path, msg));
            }
            Visit::Skipped(v, Skip::Budget) => {
                let (max, depth) = (how.max_folders, how.depth.unwrap_or_default());
                let d = Diagnostic::warning(ID, DiagKind::Io, &*v.entry.path, format!("more than {max} folders below one agent folder (links back to their own folder?): agentry stops walking here; Kimi Code would go on to depth {depth}"));
                report.diagnostics.push(d);
            }
            Visit::Skipped(..) => {}
            Visit::Unlisted(dir, e) => {
                let d = Diagnostic::error(ID, DiagKind::Io, dir, format!("Skipping unreadable directory {}: {e}", dir.display()));
                report.diagnostics.push(d);
            }
        }
        None
    });
    out
}

/// The file an entry that is no folder gives the walk, or why not in `report`.
fn agent_file(cx: &LoadContext, entry: &discover::DirEntry, name: &str, report: &mut EcosystemReport) -> Option<(PathBuf, String)> {
    if entry.is_symlink && !entry.is_file {
        // `realpath` failing other than "missing" is a warning of the tool's.
        if let Err(Some(code)) = cx.files.canonicalize_or_os_error(&entry.path) {
            if ELOOP.contains(&code) {
                let msg = format!("Skipping unreadable agent path {}: a symbolic link loop", entry.path.display());
                // The tool's log names the path: the report lists it as an error of that file.
                let key = cx.roots.source(&entry.path, None).key();
                report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Io, &*entry.path, msg).failing(key));
                return None;
            }
        }
    }
    if !name.ends_with(".md") {
        if discover::suffix(name).eq_ignore_ascii_case(".md") {
            let msg = "not read by Kimi Code: only names ending in lower-case `.md` are agent files";
            report.diagnostics.push(Diagnostic::skipped(ID, &*entry.path, msg));
        }
        return None;
    }
    if !entry.is_file {
        let msg = "not read by Kimi Code: not a regular file (a dangling link?)";
        report.diagnostics.push(Diagnostic::skipped(ID, &*entry.path, msg));
        return None;
    }
    Some((entry.path.to_path_buf(), name.to_string()))
}
