//! `load_agent_roles` of Codex 0.171.0: per layer, the `[agents.*]` tables (by key)
//! then the discovered files (path order), a second definition of a name in one
//! layer dropped; across layers, lowest first, the higher role replaces the lower
//! one and takes `description`, `config_file` and `nickname_candidates` from it when
//! it has none (`merge_missing_role_fields`); a role still without description is
//! dropped and feeds nothing above it.

use crate::discover::Hold;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::layers;
use crate::model::Place as Layer;
use super::role::{self, RoleFile, TableRole, Valued};
use super::toml_read::Failure;
use super::ID;
use crate::frameworks::LoadContext;
use crate::model::{Attributes, DiagKind, Diagnostic, Source};

/// A value, the file that wrote it (source key) and its line.
#[derive(Clone, Debug)]
pub struct Written<T> {
    pub value: T,
    pub site: Arc<str>,
    pub line: Option<u32>,
}

/// One definition that loaded: a discovered file or a table.
pub struct Def {
    pub layer: usize,
    pub source: Source,
    pub key: String,
    pub name: String,
    /// The table's key, for tables.
    pub table: Option<String>,
    pub description: Option<Written<String>>,
    pub nickname: Option<Written<Vec<String>>>,
    /// The role file: the file itself, or the table's `config_file`.
    pub config_file: Option<Written<PathBuf>>,
    /// The role file as read, and whether it is opened through a symlink (then no
    /// spawn can read it).
    pub role: Option<(Arc<RoleFile>, Arc<str>, bool)>,
    pub attributes: Attributes,
}

/// A role after one layer's merge: its definition and which definition gave each
/// of the three fields that fill from below.
#[derive(Clone, Debug)]
pub struct State {
    pub name: String,
    pub winner: usize,
    pub description: Option<usize>,
    pub config_file: Option<usize>,
    pub nickname: Option<usize>,
}

/// A definition that did not load: its source, and the diagnostic saying why.
pub struct Dropped {
    pub name: String,
    pub source: Source,
    pub diagnostic: Diagnostic,
}

/// The outcome of one load.
#[derive(Default)]
pub struct Merge {
    pub defs: Vec<Def>,
    /// The roles Codex ends with, by name.
    pub finals: BTreeMap<String, State>,
    /// Every state a name went through, lowest layer first (the last is final).
    pub history: BTreeMap<String, Vec<State>>,
    pub dropped: Vec<Dropped>,
    pub diagnostics: Vec<Diagnostic>,
    /// The role files a table's `config_file` names, read from there.
    pub reached: Vec<PathBuf>,
}

/// Reads every layer's `config.toml` first: any that fails stops Codex before a
/// single role is loaded. The tables of each layer, or the fatal diagnostic.
pub fn read_configs(cx: &LoadContext, layers: &[Layer]) -> Result<Vec<Vec<TableRole>>, Diagnostic> {
    let mut out = Vec::with_capacity(layers.len());
    for layer in layers {
        let path = layer.dir.join("config.toml");
        if !cx.files.is_file(&path) {
            out.push(Vec::new());
            continue;
        }
        let key = cx.roots.source(&path, None).key();
        let bytes = cx.files.read(&path, Hold::Kept).map_err(|e| {
            Diagnostic::error(ID, DiagKind::Io, &path, format!("Error loading config.toml: {e}")).failing(&key).fatal()
        })?;
        match role::read_config(&bytes, &path.display().to_string()) {
            Ok(tables) => out.push(tables),
            Err(f) => return Err(Diagnostic::error(ID, f.kind, &path, f.message).at(f.line, f.col).failing(key).fatal()),
        }
    }
    Ok(out)
}

/// Codex's merge over `layers` (lowest first) with their tables.
pub fn merge(cx: &LoadContext, layers: &[Layer], tables: Vec<Vec<TableRole>>) -> Merge {
    let mut m = Merge::default();
    for (li, (layer, tables)) in layers.iter().zip(tables).enumerate() {
        let mut layer_roles: BTreeMap<String, usize> = BTreeMap::new();
        let mut declared: HashSet<PathBuf> = HashSet::new();
        for table in tables {
            let Some(def) = read_table(cx, &mut m, li, layer, table, &mut declared) else { continue };
            if layer_roles.contains_key(&def.name) {
                let msg = format!("duplicate agent role name `{}` declared in the same config layer", def.name);
                drop_def(&mut m, def.name.clone(), def.source.clone(), DiagKind::Validation, &def.source.path, msg, None);
                continue;
            }
            layer_roles.insert(def.name.clone(), m.defs.len());
            m.defs.push(def);
        }
        let agents = layers::agents_place(layer);
        let walk = layers::walk(cx, &agents);
        m.diagnostics.extend(walk.diagnostics);
        for (path, why) in walk.skipped {
            let key = cx.roots.source(&path, None).key();
            m.diagnostics.push(Diagnostic::skipped(ID, &path, why).failing(key));
        }
        let mut discovered: BTreeMap<String, usize> = BTreeMap::new();
        for found in walk.files {
            let path = crate::model::normalize(&found.path);
            if declared.contains(&path) {
                continue;
            }
            let source = cx.roots.source(&found.path, None);
            let key = source.key();
            let role = match read_role(cx, &found.path, None) {
                Ok(role) => role,
                Err(f) => {
                    let name = file_stem(&found.path);
                    // Codex's UTF-8 message names no file: the report's says which.
                    let message = if f.message.contains("utf-8") && !f.message.contains(" agent role file") { format!("{key}: {}", f.message) } else { f.message };
                    drop_def(&mut m, name, source, f.kind, &found.path, message, f.line);
                    continue;
                }
            };
            let name = role.name.clone().unwrap_or_default();
            if discovered.contains_key(&name) {
                let msg = format!("duplicate agent role name `{name}` discovered in {}", agents.dir.display());
                drop_def(&mut m, name, source, DiagKind::Validation, &found.path, msg, None);
                continue;
            }
            let site: Arc<str> = key.as_str().into();
            let def = Def {
                layer: li,
                name: name.clone(),
                table: None,
                description: role.description.clone().map(|v| written(v, &site)),
                nickname: role.nickname_candidates.clone().map(|v| written(v, &site)),
                config_file: Some(Written { value: path, site: site.clone(), line: None }),
                attributes: role.attributes.clone(),
                role: Some((role, site, found.symlink)),
                source,
                key,
            };
            discovered.insert(name, m.defs.len());
            m.defs.push(def);
        }
        for (name, index) in discovered {
            if layer_roles.contains_key(&name) {
                let d = &m.defs[index];
                let msg = format!("duplicate agent role name `{name}` declared in the same config layer");
                let (source, path) = (d.source.clone(), d.source.path.to_path_buf());
                drop_def(&mut m, name, source, DiagKind::Validation, &path, msg, None);
                continue;
            }
            layer_roles.insert(name, index);
        }
        for (name, index) in layer_roles {
            let def = &m.defs[index];
            let below = m.finals.get(&name);
            let pick = |own: bool, lower: Option<usize>| if own { Some(index) } else { lower };
            let state = State {
                name: name.clone(),
                winner: index,
                description: pick(def.description.is_some(), below.and_then(|s| s.description)),
                config_file: pick(def.config_file.is_some(), below.and_then(|s| s.config_file)),
                nickname: pick(def.nickname.is_some(), below.and_then(|s| s.nickname)),
            };
            if state.description.is_none() {
                let msg = format!("agent role `{name}` must define a description");
                let (source, path) = (def.source.clone(), def.source.path.to_path_buf());
                drop_def(&mut m, name, source, DiagKind::Validation, &path, msg, None);
                continue;
            }
            m.history.entry(name.clone()).or_default().push(state.clone());
            m.finals.insert(name, state);
        }
    }
    m
}

fn written<T>(v: Valued<T>, site: &Arc<str>) -> Written<T> {
    Written { value: v.value, site: site.clone(), line: v.line }
}

fn file_stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

#[allow(clippy::too_many_arguments)]
fn drop_def(m: &mut Merge, name: String, source: Source, kind: DiagKind, path: &Path, msg: String, line: Option<u32>) {
    let diagnostic = Diagnostic::error(ID, kind, path, msg).at(line, None).failing(source.key());
    m.dropped.push(Dropped { name, source, diagnostic });
}

/// A role file, read and checked (remembered per version of the file).
fn read_role(cx: &LoadContext, path: &Path, hint: Option<&str>) -> Result<Arc<RoleFile>, Failure> {
    let label = path.display().to_string();
    // The prompt's form is part of the parse: it is made with it.
    let context = crate::discover::hash_key(("codex-role", &label, hint, cx.prompts));
    let parse = |bytes: &[u8]| {
        let mut role = role::parse_role_file(bytes, &label, hint)?;
        role.prompt = role.developer_instructions().map(|d| cx.prompts.from_file(path, bytes, &d.value));
        Ok(Arc::new(role))
    };
    match cx.files.parse(path, Hold::Not, context, parse) {
        Ok(parsed) => (*parsed).clone(),
        Err(e) => Err(Failure { kind: DiagKind::Io, message: format!("{e}"), line: None, col: None }),
    }
}

/// A table's role (`read_declared_role`): its config_file checked and read, the
/// file's name, description and nicknames over the table's. `None` when it fails
/// (the reason is recorded).
fn read_table(cx: &LoadContext, m: &mut Merge, li: usize, layer: &Layer, table: TableRole, declared: &mut HashSet<PathBuf>) -> Option<Def> {
    let config = layer.dir.join("config.toml");
    let mut source = cx.roots.source(&config, None);
    source.card = Some(table.key.clone());
    let key = source.key();
    let site: Arc<str> = key.as_str().into();
    let k = &table.key;
    let fail = |m: &mut Merge, kind, msg: String, line| drop_def(m, k.clone(), source.clone(), kind, &config, msg, line);
    let config_file = table.config_file.as_ref().map(|cf| {
        let raw = Path::new(&cf.value);
        let path = match cf.value.strip_prefix("~/") {
            Some(rest) => cx.roots.home.join(rest),
            None => layer.dir.join(raw),
        };
        Written { value: crate::model::normalize(&path), site: site.clone(), line: cf.line }
    });
    if let Some(cf) = &config_file {
        let p = cf.value.display();
        match cx.files.kind(&cf.value) {
            crate::discover::Kind::File => m.reached.push(cf.value.clone()),
            crate::discover::Kind::Missing => {
                let msg = format!("agents.{k}.config_file must point to an existing file at {p}: No such file or directory (os error 2)");
                fail(m, DiagKind::Missing, msg, cf.line);
                return None;
            }
            _ => {
                fail(m, DiagKind::Missing, format!("agents.{k}.config_file must point to a file: {p}"), cf.line);
                return None;
            }
        }
    }
    let mut description = None;
    if let Some(d) = &table.description {
        if d.value.trim().is_empty() {
            fail(m, DiagKind::Validation, format!("agents.{k}.description cannot be blank"), d.line);
            return None;
        }
        description = Some(Written { value: d.value.trim().to_string(), site: site.clone(), line: d.line });
    }
    let mut nickname = None;
    if let Some(n) = &table.nickname_candidates {
        let names: Vec<&str> = n.value.iter().map(String::as_str).collect();
        match role::normalize_nicknames(&format!("agents.{k}.nickname_candidates"), &names) {
            Ok(value) => nickname = Some(Written { value, site: site.clone(), line: n.line }),
            Err(f) => {
                fail(m, f.kind, f.message, n.line);
                return None;
            }
        }
    }
    let mut name = k.clone();
    let mut role_file = None;
    if let Some(cf) = &config_file {
        let cf_source = cx.roots.source(&cf.value, None);
        match read_role(cx, &cf.value, Some(k)) {
            Ok(role) => {
                let cf_site: Arc<str> = cf_source.key().into();
                if let Some(n) = &role.name {
                    name = n.clone();
                }
                if let Some(d) = &role.description {
                    description = Some(written(d.clone(), &cf_site));
                }
                if let Some(n) = &role.nickname_candidates {
                    nickname = Some(written(n.clone(), &cf_site));
                }
                let link = layers::is_link(cx, &cf.value);
                role_file = Some((role, cf_site, link));
            }
            Err(f) => {
                // Reported on the file, as Codex's message names it.
                let diagnostic = Diagnostic::error(ID, f.kind, &*cf_source.path, f.message).at(f.line, None).failing(cf_source.key());
                m.dropped.push(Dropped { name: k.clone(), source: source.clone(), diagnostic });
                return None;
            }
        }
        declared.insert(cf.value.clone());
    }
    Some(Def { layer: li, name, table: Some(k.clone()), description, nickname, config_file, role: role_file, attributes: table.attributes, source, key })
}
