//! `discoverAgentFiles` (`agentFileDiscovery.ts`): one loader's folders walked in
//! order, each recursively in JavaScript's default sort order (UTF-16 code units), a
//! subfolder walked where its name sorts; dot entries and `node_modules` skipped;
//! folders entered down to depth 8; only names ending in `.md` (case-sensitive) that
//! are regular files after following links are read.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::agent_file::{self, Definition, Failure};
use super::{render, ID, SYSTEM_MD};
use crate::model::Place;
use crate::discover::{self, DirEntry, Hold};
use crate::frameworks::LoadContext;
use crate::model::{Attributes, DiagKind, Diagnostic, EcosystemReport, Text};

/// `MAX_AGENT_SCAN_DEPTH`: the agent folder is depth 0.
pub const MAX_DEPTH: u32 = 8;
/// Folders one walk enters at most: a few links back to their own folder would make
/// the tool walk 8 levels of every combination; agentry stops and says so.
const MAX_FOLDERS: usize = 20_000;
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
    let mut files = Vec::new();
    let mut budget = (MAX_FOLDERS, false);
    walk_dir(cx, &folder.dir, 0, &mut files, &mut budget, report);
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

fn walk_dir(cx: &LoadContext, dir: &Path, depth: u32, out: &mut Vec<(PathBuf, String)>, budget: &mut (usize, bool), report: &mut EcosystemReport) {
    if budget.0 == 0 {
        if !budget.1 {
            let d = Diagnostic::warning(ID, DiagKind::Io, dir, format!("more than {MAX_FOLDERS} folders below one agent folder (links back to their own folder?): agentry stops walking here; Kimi Code would go on to depth {MAX_DEPTH}"));
            report.diagnostics.push(d);
            budget.1 = true;
        }
        return;
    }
    budget.0 -= 1;
    let entries = match cx.files.list_dir(dir) {
        Ok(Some(entries)) => entries,
        Ok(None) => return,
        Err(e) => {
            let d = Diagnostic::error(ID, DiagKind::Io, dir, format!("Skipping unreadable directory {}: {e}", dir.display()));
            report.diagnostics.push(d);
            return;
        }
    };
    let mut sorted: Vec<(String, &DirEntry)> = entries.iter().map(|e| (e.name().into_owned(), e)).collect();
    sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    for (name, entry) in sorted {
        if name.starts_with('.') || name == "node_modules" {
            if name.ends_with(".md") || (entry.is_dir && name == "node_modules") {
                let why = if name == "node_modules" { "a `node_modules` folder" } else { "its name starts with `.`" };
                report.diagnostics.push(Diagnostic::skipped(ID, &*entry.path, format!("not read by Kimi Code: {why}")));
            }
            continue;
        }
        if entry.is_dir {
            if depth + 1 > MAX_DEPTH {
                let msg = format!("not read by Kimi Code: folders deeper than {MAX_DEPTH} levels below an agent folder are not entered");
                report.diagnostics.push(Diagnostic::skipped(ID, &*entry.path, msg));
                continue;
            }
            walk_dir(cx, &entry.path, depth + 1, out, budget, report);
            continue;
        }
        if entry.is_symlink && !entry.is_file {
            // `realpath` failing other than "missing" is a warning of the tool's.
            if let Err(Some(code)) = cx.files.canonicalize_or_os_error(&entry.path) {
                if ELOOP.contains(&code) {
                    let msg = format!("Skipping unreadable agent path {}: a symbolic link loop", entry.path.display());
                    report.diagnostics.push(Diagnostic::warning(ID, DiagKind::Io, &*entry.path, msg));
                    continue;
                }
            }
        }
        if !name.ends_with(".md") {
            if discover::suffix(&name).eq_ignore_ascii_case(".md") {
                let msg = "not read by Kimi Code: only names ending in lower-case `.md` are agent files";
                report.diagnostics.push(Diagnostic::skipped(ID, &*entry.path, msg));
            }
            continue;
        }
        if !entry.is_file {
            let msg = "not read by Kimi Code: not a regular file (a dangling link?)";
            report.diagnostics.push(Diagnostic::skipped(ID, &*entry.path, msg));
            continue;
        }
        out.push((entry.path.to_path_buf(), name));
    }
}
