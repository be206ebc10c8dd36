//! Every source OpenCode 1.18.33 merges agents from, read into [`Entry`]s in its merge
//! order (`Config.state` in `config/config.ts`, `loadAgent`/`loadMode` in
//! `config/agent.ts`): global JSON, project `opencode.json[c]` from the root down,
//! then the config folders (`~/.config/opencode`, each `.opencode` from the working
//! folder up, `~/.opencode`) with their JSON, `agent(s)/**/*.md` and `mode(s)/*.md`,
//! and last every legacy JSON `mode` map entry.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};

use super::{jsonc, markdown, schema, ID};
use crate::discover::walk::{self as walker, Visit};
use crate::discover::{self, Hold, ReadError};
use crate::frameworks::LoadContext;
use crate::model::{DiagKind, Diagnostic, Loops, Place, Reach, Scope, Source, Walking};

/// One definition of one name from one source, normalised as OpenCode keeps it.
pub struct Entry {
    pub name: String,
    pub source: Source,
    /// How the place is named in rules ("project .opencode/agents").
    pub label: String,
    pub fields: Map<String, Json>,
    /// The line each key is written on.
    pub lines: Vec<(String, u32)>,
    /// `Some(rule)` for a file another file of the same folder scan replaced: it
    /// takes no part in the merge.
    pub replaced: Option<String>,
    /// The winner of a clash between sibling folders of one scan (OpenCode's outcome
    /// depends on which folder read finishes first).
    pub raced: bool,
    /// Which folder scan read it (`None` for a JSON entry).
    pub scan: Option<usize>,
}

impl Entry {
    pub fn line(&self, key: &str) -> Option<u32> {
        self.lines.iter().find(|(k, _)| k == key).map(|&(_, l)| l)
    }
}

pub struct Reader<'c, 'a> {
    cx: &'c LoadContext<'a>,
    pub entries: Vec<Entry>,
    /// Legacy `mode` map entries, merged after everything else.
    modes: Vec<Entry>,
    pub diagnostics: Vec<Diagnostic>,
    /// Files a `{file:PATH}` of a config file read.
    pub reached: std::cell::RefCell<Vec<PathBuf>>,
    scans: usize,
}

fn rel_label(scope: Scope, root: &Path, path: &Path) -> String {
    let rel = crate::model::relative_to(path, root);
    match scope {
        Scope::Project => format!("project {rel}"),
        Scope::User => format!("~/{rel}"),
        Scope::Xdg => format!("$XDG_CONFIG_HOME/{rel}"),
        Scope::Builtin => rel,
    }
}

impl<'c, 'a> Reader<'c, 'a> {
    /// Reads `places` ([`places`]) in their order.
    pub fn read_all(cx: &'c LoadContext<'a>, places: &[Place]) -> Reader<'c, 'a> {
        let mut r = Reader { cx, entries: Vec::new(), modes: Vec::new(), diagnostics: Vec::new(), reached: Default::default(), scans: 0 };
        let mut rest = places;
        while let Some(place) = rest.first() {
            if place.reach.suffixes == MARKDOWN {
                // `agent/` and `agents/` (or `mode/` and `modes/`) are one scan.
                let scan = rest.iter().take_while(|p| p.reach == place.reach && p.dir.parent() == place.dir.parent()).count();
                r.markdown_scan(&rest[..scan]);
                rest = &rest[scan..];
            } else {
                if place.reach.file {
                    r.json_file(place.scope, &place.base, &place.dir);
                }
                for file in place.reach.suffixes {
                    r.json_file(place.scope, &place.base, &place.dir.join(file));
                }
                rest = &rest[1..];
            }
        }
        let modes = std::mem::take(&mut r.modes);
        r.entries.extend(modes);
        r
    }

    fn json_file(&mut self, scope: Scope, root: &Path, path: &Path) {
        let bytes = match self.cx.files.read(path, Hold::Kept) {
            Ok(b) => b,
            Err(ReadError::NotFound | ReadError::IsDir) => return,
            Err(e) => {
                self.diagnostics.push(
                    Diagnostic::error(ID, DiagKind::Io, path, format!("cannot read config file: {e}"))
                        .fatal()
                        .failing(Source::new(scope, root, path.to_path_buf()).key()),
                );
                return;
            }
        };
        // An empty file is no configuration at all; blank or comment-only text is
        // invalid JSON(C) (checked with the real tool).
        if bytes.is_empty() {
            return;
        }
        let file_key = Source::new(scope, root, path.to_path_buf()).key();
        let raw = String::from_utf8_lossy(&bytes);
        let text = match self.substitute(&raw, path) {
            Ok(t) => t,
            Err((message, line)) => {
                let d = Diagnostic::error(ID, DiagKind::Missing, path, message).at(Some(line), None);
                self.diagnostics.push(d.fatal().failing(file_key));
                return;
            }
        };
        let value = match jsonc::parse(&text) {
            Ok(v) => v,
            Err(e) => {
                let message = format!("Config file is not valid JSON(C): {}", e.message);
                let d = Diagnostic::error(ID, DiagKind::Parse, path, message).at(Some(e.line), Some(e.col));
                self.diagnostics.push(d.fatal().failing(file_key));
                return;
            }
        };
        let Some(config) = value.as_object() else {
            let d = Diagnostic::error(ID, DiagKind::Validation, path, "Configuration is invalid: expected an object");
            self.diagnostics.push(d.at(Some(1), None).fatal().failing(file_key));
            return;
        };
        let label = rel_label(scope, root, path);
        // V2's plural `permissions`, at the top level or in an agent entry.
        let v2_permissions = config.contains_key("permissions")
            || ["agent", "agents", "mode"].iter().any(|section| {
                config.get(*section).and_then(Json::as_object).is_some_and(|m| {
                    m.values().any(|e| e.as_object().is_some_and(|e| e.contains_key("permissions")))
                })
            });
        if let Some(at) = v2_permissions.then(|| jsonc::find_key(&text, "permissions", 0).unwrap_or(0)) {
            let d = Diagnostic::error(ID, DiagKind::Validation, path, "V2 permissions are not supported by OpenCode V1");
            self.diagnostics.push(d.at(Some(jsonc::line_of(&text, at)), None).fatal().failing(file_key.clone()));
            return;
        }
        let section = |key: &str| config.get(key).map(|v| (v, jsonc::find_key(&text, key, 0).unwrap_or(0)));
        let mut found: Vec<(String, Map<String, Json>, usize)> = Vec::new();
        if let Some((Json::Object(v2), at)) = section("agents") {
            for (name, entry) in v2 {
                // An entry the V2 schema rejects is dropped with a log line only.
                if let Some(translated) = schema::from_v2(entry) {
                    found.push((name.clone(), translated, jsonc::find_key(&text, name, at).unwrap_or(at)));
                }
            }
        }
        for (section_key, legacy) in [("agent", false), ("mode", true)] {
            let Some((map, at)) = section(section_key) else { continue };
            let Some(map) = map.as_object() else {
                let message = format!("Configuration is invalid: Expected object | undefined, got {map} {section_key}");
                let d = Diagnostic::error(ID, DiagKind::Validation, path, message).at(Some(jsonc::line_of(&text, at)), None);
                self.diagnostics.push(d.fatal().failing(file_key.clone()));
                continue;
            };
            for (name, entry) in map {
                let at = jsonc::find_key(&text, name, at).unwrap_or(at);
                let Some(obj) = entry.as_object() else {
                    let message = format!("Configuration is invalid: Expected object, got {entry} {section_key}.{name}");
                    let d = Diagnostic::error(ID, DiagKind::Validation, path, message).at(Some(jsonc::line_of(&text, at)), None);
                    self.diagnostics.push(d.fatal().failing(file_key.clone()));
                    continue;
                };
                if legacy {
                    if let Some(e) = self.json_entry(scope, root, path, &text, name, obj, at, true, &label) {
                        self.modes.push(e);
                    }
                } else {
                    // In one file the V1 `agent` entry wins over the translated V2 one.
                    found.retain(|(n, _, _)| n != name);
                    found.push((name.clone(), obj.clone(), at));
                }
            }
        }
        for (name, obj, at) in found {
            if let Some(e) = self.json_entry(scope, root, path, &text, &name, &obj, at, false, &label) {
                self.entries.push(e);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn json_entry(
        &mut self,
        scope: Scope,
        root: &Path,
        path: &Path,
        text: &str,
        name: &str,
        obj: &Map<String, Json>,
        at: usize,
        legacy: bool,
        label: &str,
    ) -> Option<Entry> {
        let mut source = Source::new(scope, root, path.to_path_buf());
        source.card = Some(if legacy { format!("mode.{name}") } else { name.to_string() });
        let lines: Vec<(String, u32)> = obj
            .keys()
            .map(|k| (k.clone(), jsonc::line_of(text, jsonc::find_key(text, k, at + 1).unwrap_or(at))))
            .collect();
        match schema::normalise(obj) {
            Ok(mut fields) => {
                if legacy {
                    fields.insert("mode".into(), Json::from("primary"));
                }
                let label = if legacy { format!("{label} (legacy `mode` map)") } else { label.to_string() };
                Some(Entry { name: name.to_string(), source, label, fields, lines, replaced: None, raced: false, scan: None })
            }
            Err((message, key)) => {
                let line = lines.iter().find(|(k, _)| *k == key).map(|&(_, l)| l);
                let message = format!("Configuration is invalid (OpenCode refuses to start)\n↳ {message}");
                let d = Diagnostic::error(ID, DiagKind::Validation, path, message).at(line, None);
                // The oracle names the file (a run with only it refuses to start).
                let file_key = Source::new(scope, root, path.to_path_buf()).key();
                self.diagnostics.push(d.fatal().failing(file_key));
                None
            }
        }
    }

    /// `{env:VAR}` and `{file:PATH}` replaced in a JSON config's text, as OpenCode does
    /// before parsing (`{file:}` not on `//` comment lines; the file's text trimmed and
    /// escaped for a JSON string). Err: a `{file:}` target that does not exist.
    fn substitute(&self, text: &str, path: &Path) -> Result<String, (String, u32)> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find("{env:") {
            let Some(end) = rest[i..].find('}') else { break };
            out.push_str(&rest[..i]);
            let var = &rest[i + 5..i + end];
            out.push_str(self.cx.env.get(var).map(String::as_str).unwrap_or(""));
            rest = &rest[i + end + 1..];
        }
        out.push_str(rest);
        let text = out;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        while let Some(i) = text[at..].find("{file:") {
            let start = at + i;
            let Some(end) = text[start..].find('}').map(|e| start + e) else { break };
            let reference = &text[start..=end];
            if reference[6..reference.len() - 1].contains('\n') {
                out.push_str(&text[at..start + 6]);
                at = start + 6;
                continue;
            }
            out.push_str(&text[at..start]);
            let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
            if text[line_start..start].trim_start().starts_with("//") {
                out.push_str(reference);
                at = end + 1;
                continue;
            }
            let target = &reference[6..reference.len() - 1];
            let file = match target.strip_prefix("~/") {
                Some(t) => self.cx.roots.home.join(t),
                None => dir.join(target),
            };
            self.reached.borrow_mut().push(file.clone());
            match self.cx.files.read(&file, Hold::Kept) {
                Ok(bytes) => {
                    let content = String::from_utf8_lossy(&bytes);
                    let quoted = serde_json::to_string(markdown::js_trim(&content)).unwrap_or_default();
                    out.push_str(&quoted[1..quoted.len() - 1]);
                }
                Err(_) => {
                    let message = format!(
                        "Configuration is invalid: bad file reference: \"{reference}\" {} does not exist",
                        file.display()
                    );
                    return Err((message, jsonc::line_of(&text, start)));
                }
            }
            at = end + 1;
        }
        out.push_str(&text[at..]);
        Ok(out)
    }

    /// One folder scan: `{agent,agents}/**/*.md`, or, of places read at the top level
    /// only, `{mode,modes}/*.md`.
    fn markdown_scan(&mut self, places: &[Place]) {
        self.scans += 1;
        let scan = Some(self.scans);
        let Some(d) = places.first() else { return };
        let modes = d.reach.depth.is_some();
        let mut files: Vec<(PathBuf, String)> = Vec::new();
        for place in places {
            self.walk(place, &mut files);
        }
        let mut scanned: Vec<Entry> = Vec::new();
        for (path, derived) in files {
            let source = Source::new(d.scope, &d.base, path.clone());
            let key = source.key();
            let folder = path.parent().map(|p| rel_label(d.scope, &d.base, p)).unwrap_or_default();
            // Parsed once per version of the file: a refresh re-parses only what changed.
            let context = discover::hash_key((ID, "markdown"));
            let parsed = match self.cx.files.parse(&path, Hold::Not, context, markdown::parse) {
                Ok(parsed) => (*parsed).clone(),
                Err(e) => Err(format!("cannot read the file ({e})")),
            };
            let parsed = match parsed {
                Ok(p) => p,
                Err(why) => {
                    let message = format!("OpenCode drops this file without a message: {why}");
                    self.diagnostics.push(Diagnostic::ignored_definition(ID, &path, message).at(Some(1), None).failing(key));
                    continue;
                }
            };
            if let Some((why, line)) = &parsed.unread_frontmatter {
                let message = format!(
                    "OpenCode cannot read this frontmatter ({why}) and loads the file anyway, with no fields and the whole text, frontmatter included, as the prompt"
                );
                self.diagnostics.push(Diagnostic::warning(ID, DiagKind::Parse, &path, message).at(line.or(Some(1)), None));
            }
            // `{name, ...md.data, prompt: md.content.trim()}`
            let mut config = Map::new();
            config.insert("name".into(), Json::from(derived.as_str()));
            config.extend(parsed.data);
            config.insert("prompt".into(), Json::from(parsed.body));
            // The body always sets the prompt (over a frontmatter `prompt:`).
            let mut lines = parsed.lines;
            lines.retain(|(k, _)| k != "prompt");
            lines.push(("prompt".into(), parsed.body_line));
            // A YAML timestamp is a Date, which no field of the schema accepts.
            let date = parsed.dates.iter().find(|k| schema::is_known(k) && *k != "name" && *k != "prompt");
            let checked = match date {
                Some(k) => Err((format!("Expected a non-Date value | undefined, got Date {k}"), k.clone())),
                None => schema::normalise(&config),
            };
            let fields = match checked {
                Ok(f) => f,
                Err((message, field)) => {
                    let line = lines.iter().find(|(k, _)| *k == field).map(|&(_, l)| l);
                    let d = if modes {
                        Diagnostic::ignored_definition(
                            ID,
                            &path,
                            format!("OpenCode drops a mode file that fails validation, without a message: {message}"),
                        )
                    } else {
                        let message = format!("Configuration is invalid (OpenCode refuses to start)\n↳ {message}");
                        Diagnostic::error(ID, DiagKind::Validation, &path, message).fatal()
                    };
                    self.diagnostics.push(d.at(line, None).failing(key));
                    continue;
                }
            };
            let mut fields = fields;
            if modes {
                fields.insert("mode".into(), Json::from("primary"));
            }
            let name = match &fields["name"] {
                Json::String(s) => s.clone(),
                other => other.to_string(),
            };
            let label = if modes { format!("{folder} (mode file: forced primary)") } else { folder };
            scanned.push(Entry { name, source, label, fields, lines, replaced: None, raced: false, scan });
        }
        self.resolve_clashes(&mut scanned);
        self.entries.extend(scanned);
    }

    /// Files of one scan giving one name replace one another (OpenCode keeps the one
    /// read last in a plain object). With folders read in listing order: in one folder
    /// the file listed first is kept, a subfolder's file beats its parents' files, and
    /// files in sibling folders race.
    fn resolve_clashes(&mut self, scanned: &mut [Entry]) {
        let mut by_name: std::collections::BTreeMap<String, Vec<usize>> = std::collections::BTreeMap::new();
        for (i, e) in scanned.iter().enumerate() {
            by_name.entry(e.name.clone()).or_default().push(i);
        }
        for (name, idx) in by_name {
            if idx.len() < 2 {
                continue;
            }
            let folder = |i: usize| scanned[i].source.path.parent().map(Path::to_path_buf).unwrap_or_default();
            let on_one_chain = idx.iter().all(|&a| {
                idx.iter().all(|&b| folder(a).starts_with(folder(b)) || folder(b).starts_with(folder(a)))
            });
            // Deepest folder first, then listing order.
            let winner = *idx
                .iter()
                .min_by_key(|&&i| (std::cmp::Reverse(folder(i).components().count()), i))
                .expect("two or more");
            let winner_key = scanned[winner].source.key();
            let all: Vec<String> = idx.iter().map(|&i| scanned[i].source.key()).collect();
            for &i in &idx {
                if !on_one_chain {
                    let message = format!(
                        "agent '{name}' is defined by several files in sibling folders of one scan ({}); which one OpenCode keeps depends on which folder read finishes first (not deterministic)",
                        all.join(", ")
                    );
                    let d = Diagnostic::error(ID, DiagKind::Validation, &*scanned[i].source.path, message);
                    self.diagnostics.push(d.at(Some(1), None).failing(scanned[i].source.key()));
                }
                if i == winner {
                    scanned[i].raced = !on_one_chain;
                    continue;
                }
                scanned[i].replaced = Some(if on_one_chain {
                    format!(
                        "replaced in one folder scan by {winner_key} (OpenCode keeps the file it reads last: the first listed in a folder, a subfolder's over its parent's); not merged"
                    )
                } else {
                    format!(
                        "replaced, this time, by {winner_key}: files in sibling folders of one scan race and OpenCode keeps whichever is read last (not deterministic); not merged"
                    )
                });
            }
        }
    }

    /// Markdown files of the place, in walk order, with the name OpenCode derives
    /// (the path below `agent(s)/` without `.md`).
    fn walk(&self, place: &Place, out: &mut Vec<(PathBuf, String)>) {
        walker::walk(self.cx.files, &place.dir, &place.reach.walk, self.cx.roots.listing, (), |visit| {
            match visit {
                Visit::Folder(..) => return Some(()),
                Visit::File(v) => {
                    if let Some(derived) = v.rel().strip_suffix(".md") {
                        out.push((v.entry.path.to_path_buf(), derived.to_string()));
                    }
                }
                _ => {}
            }
            None
        });
    }
}

/// An `OPENCODE_*` variable of the user's environment, in a live run only: the
/// resolution report is made without them, as the oracle runs OpenCode.
fn live_var<'e>(cx: &'e LoadContext, name: &str) -> Option<&'e str> {
    match cx.render {
        crate::frameworks::RenderMode::Live { .. } => cx.env.get(name).map(String::as_str).filter(|v| !v.is_empty()),
        crate::frameworks::RenderMode::Export => None,
    }
}

/// The scope and its root for a file named by the environment.
fn scope_of(cx: &LoadContext, path: &Path) -> (Scope, PathBuf) {
    let r = cx.roots;
    match r.locate(path, None).0 {
        Scope::User => (Scope::User, r.home.clone()),
        Scope::Xdg => (Scope::Xdg, r.xdg.clone()),
        _ => (Scope::Project, r.project.clone()),
    }
}

const MARKDOWN: &[&str] = &[".md"];
/// How a Markdown folder is walked: listing order, symlinked files and folders
/// followed, a folder already on the walk (a link loop) not entered again, down to
/// agentry's guard depth.
const MARKDOWN_WALK: Walking = Walking::to_depth(Some(Walking::GUARD_DEPTH)).loops(Loops::OnPath).max_folders(usize::MAX);

/// Every place OpenCode merges from, in its merge order: the global JSON files,
/// `$OPENCODE_CONFIG`, each project `opencode.json[c]` from the root down, then each
/// config folder (`~/.config/opencode`, each `.opencode` from the working folder up,
/// `~/.opencode`, `$OPENCODE_CONFIG_DIR`) with its JSON, `agent(s)/**/*.md` and
/// `mode(s)/*.md`. `tier` is the merge order (OpenCode's tiers are its merged
/// entries, ranked in [`super`]).
pub fn places(cx: &LoadContext) -> Vec<Place> {
    let r = cx.roots;
    let json: &'static [&'static str] = &["opencode.json", "opencode.jsonc"];
    let mut out = Vec::new();
    let mut push = |scope, base: &Path, dir: PathBuf, reach, label: String| {
        out.push(Place::agents(out.len(), scope, base, dir, reach, label));
    };
    let global = r.xdg.join("opencode");
    let global_json: &'static [&'static str] = &["config.json", "opencode.json", "opencode.jsonc"];
    push(Scope::Xdg, &r.xdg, global.clone(), Reach::top(global_json), "global config $XDG_CONFIG_HOME/opencode".into());
    if let Some(path) = live_var(cx, "OPENCODE_CONFIG") {
        let path = crate::model::normalize(&r.cwd.join(path));
        let (scope, base) = scope_of(cx, &path);
        push(scope, &base, path, Reach::FILE, "$OPENCODE_CONFIG".into());
    }
    let project = live_var(cx, "OPENCODE_DISABLE_PROJECT_CONFIG").is_none();
    if project {
        for dir in r.walk_up().iter().rev() {
            let label = "project opencode.json[c], from the root down to the working folder".to_string();
            push(Scope::Project, &r.project, dir.clone(), Reach::top(json), label);
        }
    }
    let mut dirs = vec![(Scope::Xdg, r.xdg.clone(), global, false)];
    if project {
        dirs.extend(r.walk_up().into_iter().map(|d| (Scope::Project, r.project.clone(), d.join(".opencode"), true)));
    }
    dirs.push((Scope::User, r.home.clone(), r.home.join(".opencode"), true));
    if let Some(dir) = live_var(cx, "OPENCODE_CONFIG_DIR") {
        let dir = crate::model::normalize(&r.cwd.join(dir));
        let (scope, base) = scope_of(cx, &dir);
        dirs.push((scope, base, dir, true));
    }
    let mut seen = HashSet::new();
    dirs.retain(|d| seen.insert(d.2.clone()));
    for (scope, base, dir, reads_json) in dirs {
        let what = rel_label(scope, &base, &dir);
        if reads_json {
            push(scope, &base, dir.clone(), Reach::top(json), format!("{what} opencode.json[c]"));
        }
        for sub in ["agent", "agents"] {
            push(scope, &base, dir.join(sub), Reach::tree(MARKDOWN).walking(MARKDOWN_WALK), format!("{what}/{sub} (Markdown agents, any depth)"));
        }
        for sub in ["mode", "modes"] {
            push(scope, &base, dir.join(sub), Reach::top(MARKDOWN).walking(MARKDOWN_WALK.depth(Some(0))), format!("{what}/{sub} (Markdown modes, forced primary)"));
        }
    }
    for (i, p) in out.iter_mut().enumerate() {
        p.rank = format!("merged {}", i + 1);
    }
    out
}
