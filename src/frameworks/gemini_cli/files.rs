//! Reading the agent folders as `loadAgentsFromDirectory` does (regular top-level
//! `*.md` files, `_` names skipped, symlinks ignored, files parsed once per version
//! through the file cache), and the agent each definition gives, with the
//! ExtensionManager's variables substituted for extension agents.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value as Json;

use super::{extension_of, schema, settings, LoadContext, ID};
use crate::model::Place;
use crate::discover::{self, Hold, ReadError};
use crate::model::{Agent, AgentRecord, AttributesBuilder, DiagKind, Diagnostic, EcosystemReport, Field, FieldOrigin, Source, Status, Text};

/// A file's parse, shared through the file cache, with its content's digest (the
/// acknowledgement compares content hashes).
pub(super) struct Parsed {
    result: Result<Vec<schema::Definition>, schema::Failure>,
    /// Each definition's prompt, its variables substituted, as the load makes prompt
    /// texts (on disk in the explorer): the definitions keep no copy.
    prompts: Vec<Option<Text>>,
    digest: u128,
}

/// One definition (or failing file) in registration order.
pub(super) struct Read {
    pub(super) folder: usize,
    pub(super) agent: Agent,
    pub(super) digest: u128,
    pub(super) remote: bool,
    pub(super) failure: Option<Diagnostic>,
}

pub(super) fn scan(cx: &LoadContext, folders: &[Place], report: &mut EcosystemReport) -> Vec<Read> {
    use rayon::prelude::*;
    // Listed in order here; the files are parsed on every core below, in order.
    let mut files: Vec<(usize, Arc<Path>)> = Vec::new();
    let mut out = Vec::new();
    for (i, f) in folders.iter().enumerate() {
        let entries = match cx.files.list_dir(&f.dir) {
            Ok(Some(entries)) => entries,
            // Only a missing folder is fine (ENOENT); a file in its place is not.
            Ok(None) if matches!(cx.files.kind(&f.dir), discover::Kind::Missing) => continue,
            Ok(None) => {
                out.push(listing_failure(i, f, "ENOTDIR: not a directory".into()));
                continue;
            }
            Err(e) => {
                out.push(listing_failure(i, f, e.to_string()));
                continue;
            }
        };
        for e in discover::in_listing_order(&entries, cx.roots.listing) {
            let name = e.name();
            if e.is_dir {
                continue;
            }
            // `Dirent.isFile()`: a symlink is not a file, whatever it points to.
            let ignored = if e.is_symlink {
                Some("a symlink: Gemini CLI keeps only regular files (Dirent.isFile())")
            } else if name.starts_with('_') {
                Some("its name starts with `_`: Gemini CLI skips it before reading")
            } else if !name.ends_with(".md") {
                Some("only names ending in `.md` (exactly, case-sensitive) are read")
            } else {
                None
            };
            if let Some(why) = ignored {
                if name.to_ascii_lowercase().ends_with(".md") {
                    report.diagnostics.push(Diagnostic::skipped(ID, &*e.path, format!("not read: {why}")));
                }
                continue;
            }
            if !e.is_file {
                continue;
            }
            files.push((i, Arc::clone(&e.path)));
        }
    }
    // A folder that cannot be listed comes before the files of later folders.
    let parsed: Vec<Vec<Read>> = files.par_iter().map(|(i, path)| read_file(cx, *i, &folders[*i], path)).collect();
    out.extend(parsed.into_iter().flatten());
    out.sort_by_key(|r| r.folder);
    out
}

/// A folder the loader cannot list: reported like a file that fails to load.
fn listing_failure(index: usize, folder: &Place, why: String) -> Read {
    let source = Source::new(folder.scope, &folder.base, folder.dir.clone());
    let message = format!("Failed to load agent from {}: Could not list directory: {why}", folder.dir.display());
    let d = Diagnostic::error(ID, DiagKind::Io, &folder.dir, message).failing(source.key());
    let agent = Agent::new(ID, "agents".into(), source, Status::Invalid, "the agents folder cannot be listed: Gemini CLI reports it".into());
    Read { folder: index, agent, digest: 0, remote: false, failure: Some(d) }
}

fn read_file(cx: &LoadContext, index: usize, folder: &Place, path: &Path) -> Vec<Read> {
    let file_source = Source::new(folder.scope, &folder.base, path.to_path_buf());
    let hydrate = hydrator(cx, folder);
    // The prompts depend on the folder's variables and the form of the load's texts.
    let context = discover::hash_key(("gemini-cli agent file", cx.prompts, extension_of(folder), &cx.roots.cwd));
    let parsed = cx
        .files
        .parse(path, Hold::Not, context, |b| {
            let mut result = schema::parse(b);
            let prompts = match &mut result {
                Ok(defs) => defs.iter_mut().map(|def| def.prompt.take().map(|p| prompt_text(cx, path, b, &p, &hydrate))).collect(),
                Err(_) => Vec::new(),
            };
            Parsed { result, prompts, digest: crate::model::digest(b) }
        })
        .unwrap_or_else(|e| {
            Arc::new(Parsed {
                result: Err(schema::Failure { parse: false, message: format!("Could not read file: {}", io_message(&e)), line: None, col: None }),
                prompts: Vec::new(),
                digest: 0,
            })
        });
    let key = file_source.key();
    let defs = match &parsed.result {
        Err(f) => {
            let kind = if f.message.starts_with("Could not read") {
                DiagKind::Io
            } else if f.parse {
                DiagKind::Parse
            } else {
                DiagKind::Validation
            };
            let message = format!("Failed to load agent from {}: {}", path.display(), f.message);
            let d = Diagnostic::error(ID, kind, path, message).at(f.line, f.col).failing(key);
            let name = discover::stem(file_source.rel.rsplit('/').next().unwrap_or_default()).to_string();
            let agent = Agent::new(ID, name, file_source, Status::Invalid, "failed to load: Gemini CLI reports the file and loads the others".into());
            return vec![Read { folder: index, agent, digest: parsed.digest, remote: false, failure: Some(d) }];
        }
        Ok(defs) => defs,
    };
    let several = defs.len() > 1;
    defs.iter()
        .enumerate()
        .map(|(i, def)| {
            let mut source = file_source.clone();
            if several {
                source.card = Some(def.name.clone());
            }
            let agent = agent_of(cx, folder, def, parsed.prompts.get(i).cloned().flatten(), source);
            Read { folder: index, agent, digest: parsed.digest, remote: def.remote, failure: None }
        })
        .collect()
}

fn io_message(e: &ReadError) -> String {
    match e {
        ReadError::NotFound => "ENOENT: no such file (a dangling symlink?)".into(),
        other => other.to_string(),
    }
}

/// The ExtensionManager's substitution of the variables of `folder` (none outside
/// an extension).
fn hydrator<'a>(cx: &'a LoadContext, folder: &'a Place) -> impl Fn(&str) -> String + 'a {
    move |s: &str| match extension_of(folder) {
        Some(ext) => settings::hydrate(s, ext, &cx.roots.cwd),
        None => s.to_string(),
    }
}

/// The prompt `prompt` of the file `path` (whose contents are `bytes`), its variables
/// substituted: left in the file where it is the file's own text.
fn prompt_text(cx: &LoadContext, path: &Path, bytes: &[u8], prompt: &str, hydrate: &dyn Fn(&str) -> String) -> Text {
    let hydrated = hydrate(prompt);
    if hydrated == prompt {
        cx.prompts.from_file(path, bytes, prompt)
    } else {
        cx.prompts.rendered(path, bytes, &hydrated)
    }
}

/// The agent a definition gives, before ranking (extension variables substituted;
/// `prompt` made with the parse).
fn agent_of(cx: &LoadContext, folder: &Place, def: &schema::Definition, prompt: Option<Text>, source: Source) -> Agent {
    let key: Arc<str> = source.key().into();
    let hydrate = hydrator(cx, folder);
    let fields: Vec<Field> = def
        .fields
        .iter()
        .map(|(k, v)| {
            let line = def.lines.iter().find(|(f, _)| f == k).map(|(_, l)| *l);
            let value = if extension_of(folder).is_some() { hydrate_json(v, &hydrate) } else { v.clone() };
            let origin = match line {
                Some(l) => FieldOrigin::own(&key, Some(l), "set in the front matter"),
                None => FieldOrigin::default("Gemini CLI's default (markdownToAgentDefinition)"),
            };
            Field::new(*k, value, origin)
        })
        .collect();
    let description = fields.iter().find(|f| f.key == "description").and_then(|f| f.value.to_json().as_str().map(str::to_string)).unwrap_or_default();
    let mut attributes = AttributesBuilder::default();
    for (k, l, v) in &def.attributes {
        attributes.push(k, *l, v);
    }
    let mut record = AgentRecord::new(ID, def.name.clone(), source, Status::Wins, String::new());
    record.description = description.into();
    record.fields = fields.into();
    record.attributes = attributes.finish();
    record.system_prompt = prompt;
    record.into()
}

fn hydrate_json(v: &Json, hydrate: &dyn Fn(&str) -> String) -> Json {
    match v {
        Json::String(s) => Json::String(hydrate(s)),
        Json::Array(items) => Json::Array(items.iter().map(|i| hydrate_json(i, hydrate)).collect()),
        Json::Object(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), hydrate_json(v, hydrate))).collect()),
        other => other.clone(),
    }
}
