//! `agentry file PATH`: one file as every framework reads it — each framework whose
//! declared places cover it, what it loaded the file as (name, status, rule), which
//! keys it reads, warns about, rejects or ignores, and where the definition stands in
//! that tool's ladder. For a path no tool scans, where each tool would read a file
//! of that kind.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::frameworks::Framework;
use crate::model::{normalize, Catalog, Kind, Severity, Status};

#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    pub path: PathBuf,
    pub exists: bool,
    /// One entry per framework that scans the path.
    pub readings: Vec<Reading>,
    /// When no framework scans it: the places that read files ending like it.
    pub would_read: Vec<WouldRead>,
    /// Tools outside the project's tool set that read the file: named, not explained.
    pub others: Vec<&'static str>,
    /// Tools of the set that read files of this kind, but not this one: where they do.
    pub not_read: Vec<WouldRead>,
    /// The file is an instruction file (`AGENTS.md`, `CLAUDE.md`, …): tools put it in
    /// the model's context; it defines no agent.
    pub instructions: bool,
}

/// The instruction files the tools read into the model's context as project notes.
const INSTRUCTION_FILES: &[&str] = &["AGENTS.md", "AGENTS.override.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md", "QWEN.md"];

#[derive(Clone, Debug, Serialize)]
pub struct Reading {
    pub tool: &'static str,
    pub title: &'static str,
    /// The place that covers the file.
    pub location: String,
    pub definitions: Vec<Definition>,
    /// The framework's diagnostics about the file.
    pub diagnostics: Vec<Note>,
    /// In words, when the file defines nothing: skipped and why, or not reported.
    pub outcome: String,
    /// The file that stops the tool from starting (this one or another): until it
    /// is fixed the tool loads nothing, whatever the definitions' status says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<super::refusal::Refusal>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Definition {
    pub kind: Kind,
    pub name: String,
    pub source: String,
    pub status: Status,
    pub rule: String,
    pub shadowed_by: Option<String>,
    /// Whether the tool tells its model the definition exists, where known.
    pub listed: Option<bool>,
    /// The order that decided it where the tool does not document one (a race).
    pub undocumented_order: Option<String>,
    /// Every definition of the name in this tool, in its order (this one marked).
    pub ladder: Vec<Rung>,
    pub keys: Vec<KeyReading>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Rung {
    pub source: String,
    pub status: Status,
    pub this: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct KeyReading {
    pub key: String,
    pub line: u32,
    /// `read`, `warned`, `rejected` or `ignored`.
    pub verdict: &'static str,
    pub note: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Note {
    pub severity: Severity,
    pub kind: &'static str,
    pub line: Option<u32>,
    pub message: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct WouldRead {
    pub tool: &'static str,
    pub title: &'static str,
    pub dir: PathBuf,
    pub label: String,
}

/// The file asked about, compared with every path of the catalog: equal once
/// normalised, or (for a path with the same file name) once resolved through
/// symlinks. Resolving only same-named paths keeps a large catalog cheap.
struct Target {
    path: PathBuf,
    real: Option<PathBuf>,
}

impl Target {
    fn is(&self, other: &Path) -> bool {
        if other.as_os_str().is_empty() {
            return false;
        }
        let other = normalize(other);
        other == self.path
            || (other.file_name() == self.path.file_name()
                && self.real.as_ref().is_some_and(|r| std::fs::canonicalize(&other).is_ok_and(|o| o == *r)))
    }
}

pub fn file(catalog: &Catalog, frameworks: &[&dyn Framework], path: &Path) -> FileReport {
    let path = normalize(path);
    let target = Target { real: std::fs::canonicalize(&path).ok(), path: path.clone() };
    let roots = &catalog.roots;
    let mut readings = Vec::new();
    let mut would_read = Vec::new();
    let mut not_read = Vec::new();
    for report in &catalog.reports {
        let Some(framework) = frameworks.iter().find(|f| f.id() == report.ecosystem) else { continue };
        let places: Vec<&crate::model::Place> = report.places.iter().filter(|p| p.holds_definitions()).collect();
        let agents: Vec<_> =
            report.agents.iter().filter(|a| !a.source.is_compiled_in() && target.is(&a.source.path)).collect();
        let diags: Vec<_> = report.diagnostics.iter().filter(|d| target.is(&d.path)).collect();
        // A place of files reached only from definitions (Kimi's prompt paths) covers
        // this file only where a definition did reach it.
        let named = !agents.is_empty() || !diags.is_empty();
        let covering = places.iter().find(|l| l.covers(&path) && (named || !l.reached));
        if covering.is_none() && agents.is_empty() && diags.is_empty() {
            let skill_file = path.file_name().is_some_and(|n| n.eq_ignore_ascii_case("SKILL.md"));
            // Where this tool reads files like it: the first such place is enough to
            // say "not read here" beside the tools that do read it.
            if let Some(l) = places.iter().find(|l| !l.reached && l.ending_read(&path) && l.holds_skills() == skill_file) {
                not_read.push(WouldRead { tool: report.ecosystem, title: framework.title(), dir: l.dir.clone(), label: l.label.clone() });
            }
            // Where a file like it would be read: folders of its own kind (a `SKILL.md`
            // in skill folders), not built-ins or files reached from definitions.
            let like = |l: &&&crate::model::Place| {
                l.ending_read(&path) && !l.reached && !l.reach.file && l.scope != crate::model::Scope::Builtin && l.holds_skills() == skill_file
            };
            for l in places.iter().filter(like) {
                would_read.push(WouldRead {
                    tool: report.ecosystem,
                    title: framework.title(),
                    dir: l.dir.clone(),
                    label: l.label.clone(),
                });
            }
            continue;
        }
        let definitions = agents
            .iter()
            .map(|a| {
                let key = a.source.key();
                let ladder = report
                    .agents
                    .iter()
                    .filter(|b| b.kind == a.kind && b.name == a.name && !b.status.is_unloaded())
                    .map(|b| Rung { source: b.source.key(), status: b.status, this: b.source == a.source })
                    .collect();
                let keys = a
                    .attributes
                    .iter()
                    .map(|attr| {
                        let on_line = diags.iter().find(|d| d.line == Some(attr.line) && d.severity != Severity::Info);
                        // A key is read when a field comes from it, or when it is the
                        // name the definition was loaded under.
                        let read = a.fields.iter().any(|f| {
                            f.key == *attr.key
                                || f.origin.sites.iter().any(|s| *s.source == *key && s.line == Some(attr.line))
                        }) || attr.value.to_json().as_str() == Some(a.name.as_str());
                        let (verdict, note) = match on_line {
                            Some(d) if d.severity == Severity::Error => ("rejected", Some(d.message.clone())),
                            Some(d) => ("warned", Some(d.message.clone())),
                            None if read => ("read", None),
                            None => ("ignored", None),
                        };
                        KeyReading { key: attr.key.to_string(), line: attr.line, verdict, note }
                    })
                    .collect();
                Definition {
                    kind: a.kind,
                    listed: a.listed,
                    undocumented_order: a.undocumented_order.as_deref().map(str::to_string),
                    name: a.name.clone(),
                    source: key,
                    status: a.status,
                    rule: a.rule.clone(),
                    shadowed_by: a.shadowed_by.clone(),
                    ladder,
                    keys,
                }
            })
            .collect::<Vec<_>>();
        let notes: Vec<Note> = diags
            .iter()
            .map(|d| Note { severity: d.severity, kind: d.kind.as_str(), line: d.line, message: d.message.clone() })
            .collect();
        let outcome = if let Some(a) = agents.first() {
            let kind = if a.kind == Kind::Skill { "skill " } else { "" };
            let listed = match a.listed {
                Some(false) if !a.status.is_unloaded() => "; not listed to the model",
                _ => "",
            };
            format!("{} as {kind}`{}`{listed}", a.status.word(), a.name)
        } else if let Some(d) = diags.first() {
            format!("not loaded: {}", d.message)
        } else {
            "scanned, but not read as an agent (nothing reported)".to_string()
        };
        readings.push(Reading {
            tool: report.ecosystem,
            title: framework.title(),
            location: match covering {
                Some(l) => l.label.clone(),
                // Read through a symlink from a place the tool scans, or reached from
                // another definition (`extends`, a referenced prompt file).
                None => agents
                    .first()
                    .and_then(|a| {
                        places
                            .iter()
                            .find(|l| l.covers(&a.source.path))
                            .map(|l| format!("through {} in {}", super::shown(&a.source.path, roots), l.label))
                    })
                    .unwrap_or_else(|| "reached from another definition".into()),
            },
            definitions,
            diagnostics: notes,
            outcome,
            refusal: super::refusal::Refusal::of(report),
        });
    }
    let (readings, outside): (Vec<_>, Vec<_>) = readings.into_iter().partition(|r| roots.tools.contains(r.tool));
    let others = outside.iter().map(|r| r.tool).collect();
    would_read.retain(|w| roots.tools.contains(w.tool));
    not_read.retain(|w| roots.tools.contains(w.tool));
    if readings.is_empty() {
        not_read.clear();
    } else {
        would_read.clear();
    }
    let instructions = path.file_name().is_some_and(|n| INSTRUCTION_FILES.iter().any(|i| n.eq_ignore_ascii_case(i)));
    FileReport { exists: path.exists(), path, readings, would_read, others, not_read, instructions }
}

/// The report as text lines (sanitised), as `agentry file` prints it and the
/// explorer's file view shows it.
pub fn lines(report: &FileReport, roots: &crate::model::Roots) -> Vec<String> {
    use super::shown;
    use crate::text::sanitize;
    let mut out: Vec<String> = Vec::new();
    // Tools' messages and rules name the workspace's files as every view does.
    let s = |t: &str| sanitize::line(&super::quoted(t, roots)).into_owned();
    out.push(format!("{}{}", s(&shown(&report.path, roots)), if report.exists { "" } else { " (no such file)" }));
    for r in &report.readings {
        out.push(format!("  {} ({}) — {}", r.tool, r.title, s(&r.location)));
        out.push(format!("    {}", s(&r.outcome)));
        match &r.refusal {
            Some(f) if target_is(&f.path, &report.path) => out.push(format!(
                "    {}{}: until it is fixed {} loads no agent at all",
                super::refusal::headline(f.title),
                f.line.map(|l| format!(" (line {l})")).unwrap_or_default(),
                f.title
            )),
            Some(f) => out.push(format!("    {}; until that is fixed it loads nothing, this file included", f.line(roots))),
            None => {}
        }
        for d in &r.definitions {
            out.push(format!("    [{}] `{}` {}: {}", d.status.word(), s(&d.name), s(&d.source), s(&d.rule)));
            if let Some(w) = &d.shadowed_by {
                out.push(format!("      shadowed by {}", s(w)));
            }
            if let Some(order) = &d.undocumented_order {
                out.push(format!("      decided by an undocumented order: {}", s(order)));
            }
            if d.ladder.len() > 1 {
                let rungs: Vec<String> = d
                    .ladder
                    .iter()
                    .map(|r| {
                        format!("[{}] {}{}", r.status.word(), s(&r.source), if r.this { " (this file)" } else { "" })
                    })
                    .collect();
                out.push(format!("      ladder: {}", rungs.join(" > ")));
            }
            for k in &d.keys {
                let note = k.note.as_deref().map(|n| format!(" — {}", s(n))).unwrap_or_default();
                out.push(format!("      {:<9} {}:{}{note}", k.verdict, s(&k.key), k.line));
            }
        }
        for n in &r.diagnostics {
            let at = n.line.map(|l| format!(":{l}")).unwrap_or_default();
            let word = match n.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            out.push(format!("    {word}{at}: {}: {}", n.kind, s(&n.message)));
        }
    }
    for w in &report.not_read {
        out.push(format!("  {} ({}) — not read: it reads such files in {}", w.tool, w.title, s(&place_words(w, roots))));
    }
    if report.instructions {
        out.push("  an instruction file: tools put it in the model's context as the project's instructions; it defines no agent".to_string());
    }
    if !report.others.is_empty() {
        let (verb, pronoun) = if report.others.len() == 1 { ("reads", "it is") } else { ("read", "they are") };
        out.push(format!("  {} also {verb} this file; {pronoun} not in this project's tools (--all-tools shows the reading)", report.others.join(", ")));
    }
    if report.readings.is_empty() && !report.others.is_empty() {
        out.push("  none of this project's tools reads it".to_string());
    } else if report.readings.is_empty() {
        out.push("  no tool agentry knows scans this path".to_string());
        let mut tools: Vec<(&str, Vec<String>)> = Vec::new();
        for w in &report.would_read {
            let words = place_words(w, roots);
            match tools.iter_mut().find(|(t, _)| *t == w.tool) {
                Some((_, places)) if !places.contains(&words) => places.push(words),
                Some(_) => {}
                None => tools.push((w.tool, vec![words])),
            }
        }
        if !tools.is_empty() {
            out.push("  where each tool reads such files:".to_string());
        }
        let width = tools.iter().map(|(t, _)| t.len()).max().unwrap_or(0);
        for (tool, mut places) in tools {
            places.sort_by_key(|p| p.starts_with('~'));
            out.push(format!("    {tool:<width$}  {}", s(&places.join(", "))));
        }
    }
    out
}

/// A place as its folder, with what its label says beyond the folder (the walk it is
/// a step of, the variable naming it) in parentheses.
fn place_words(w: &WouldRead, roots: &crate::model::Roots) -> String {
    let dir = super::shown(&w.dir, roots);
    let rest = w.label.strip_prefix("user ").or_else(|| w.label.strip_prefix("project ")).unwrap_or(&w.label);
    let rest = rest.replace("<cwd>/", "");
    if rest == dir {
        return dir;
    }
    match rest.strip_prefix(&format!("{dir} (")).and_then(|r| r.strip_suffix(')')) {
        Some(inner) => format!("{dir} ({inner})"),
        None => format!("{dir} ({})", w.label),
    }
}

/// Whether the refusal's file is the file asked about (both normalised paths).
fn target_is(refused: &Path, asked: &Path) -> bool {
    normalize(refused) == normalize(asked)
}
