//! `agentry why NAME`: for each framework, the definitions of NAME (when it has
//! one), and where it has no active one, every near miss: files that would define
//! NAME but are skipped, invalid or held (with the tool's reason and the byte-level
//! causes), files named like NAME in places the tool does not scan, and names that
//! differ only in case, separators or spelling.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::bytes::{self, ByteCause};
use super::places::{self as views_places, Miss};
use super::refusal::Refusal;
use super::shown;
use super::walk;
use crate::frameworks::{Framework, NameRule};
use crate::model::{Agent, Catalog, Diagnostic, Kind, Place, Roots, Status};
use crate::text::sanitize;

#[derive(Clone, Debug, Serialize)]
pub struct WhyReport {
    pub name: String,
    /// Whether some framework has an active definition of the name.
    pub active: bool,
    /// Each tool's answer (`tools` in JSON).
    #[serde(rename = "tools")]
    pub frameworks: Vec<FrameworkWhy>,
    /// Files named like NAME that no framework scans, and what no framework is close to.
    pub unscanned: Vec<Unscanned>,
    /// Tools outside the project's tool set that define NAME or have a near miss of
    /// it: named, not explained.
    pub others: Vec<&'static str>,
}

/// One framework's answer.
#[derive(Clone, Debug, Serialize)]
pub struct FrameworkWhy {
    pub tool: &'static str,
    pub title: &'static str,
    pub active: bool,
    /// The definitions of NAME, winner first.
    pub sources: Vec<SourceView>,
    pub near_misses: Vec<NearMiss>,
    pub similar: Vec<Similar>,
    /// How the tool matches a name asked for, per kind of definition it read
    /// ([`Framework::name_matching`]).
    pub name_matching: Vec<NameMatching>,
    /// Where the tool looks, in its order.
    pub looks_in: Vec<Place>,
    /// The note that the tool installed here is another release than the one
    /// agentry follows ([`crate::installed`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// The file that stops the tool from starting: until it is fixed the tool loads
    /// none of these definitions (each keeps the status it has then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SourceView {
    pub kind: Kind,
    pub status: Status,
    pub source: String,
    pub path: PathBuf,
    pub shadowed_by: Option<String>,
    pub rule: String,
    /// The order that decided this winner, where the tool does not document it.
    pub undocumented_order: Option<String>,
}

/// A file that would define NAME for this tool, and why it does not.
#[derive(Clone, Debug, Serialize)]
pub struct NearMiss {
    pub path: PathBuf,
    /// `skipped`, `invalid`, `held`, `unscanned` or `unreported`.
    pub kind: &'static str,
    pub source: Option<String>,
    /// The reason in words: the tool's diagnostic, or the place rule.
    pub reason: String,
    pub line: Option<u32>,
    pub miss: Option<Miss>,
    pub causes: Vec<ByteCause>,
}

/// How one tool matches a name for one kind of definition.
#[derive(Clone, Debug, Serialize)]
pub struct NameMatching {
    pub kind: Kind,
    #[serde(flatten)]
    pub rule: NameRule,
}

/// A definition of a name close to NAME.
#[derive(Clone, Debug, Serialize)]
pub struct Similar {
    pub kind: Kind,
    pub name: String,
    pub status: Status,
    pub source: String,
    /// `case`, `separators`, `spelling` or `contains` (the name holds the query).
    pub difference: &'static str,
    pub distance: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Unscanned {
    pub path: PathBuf,
    pub reason: String,
}

/// Whether the file at `path` would define `name`: its file name's stem, or the name
/// it declares, folded (case and separators) equals `name` folded.
fn would_define(path: &Path, name: &str) -> bool {
    let want = views_places::fold(name);
    if stem(path).is_some_and(|s| views_places::fold(&s) == want) {
        return true;
    }
    read(path).and_then(|b| bytes::declared_name(&b)).is_some_and(|n| views_places::fold(&n) == want)
}

/// A file name up to its first dot after a leading one (`ghost.agent.md` → `ghost`);
/// a skill's `SKILL.md` by its folder's name, which the tools name the skill by.
pub fn stem(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    if name.eq_ignore_ascii_case("SKILL.md") {
        return Some(path.parent()?.file_name()?.to_string_lossy().into_owned());
    }
    let body = name.strip_prefix('.').unwrap_or(&name);
    Some(body.split('.').next().unwrap_or(body).to_string())
}

fn read(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut buf = Vec::new();
    file.take(bytes::MAX_BYTES as u64).read_to_end(&mut buf).ok()?;
    Some(buf)
}

fn causes_of(path: &Path) -> Vec<ByteCause> {
    read(path).map(|b| bytes::causes_in(path, &b)).unwrap_or_default()
}

fn source_view(a: &Agent) -> SourceView {
    SourceView {
        kind: a.kind,
        status: a.status,
        source: a.source.key(),
        path: a.source.path.to_path_buf(),
        shadowed_by: a.shadowed_by.clone(),
        rule: a.rule.clone(),
        undocumented_order: a.undocumented_order.as_deref().map(str::to_string),
    }
}

/// Explains `name` across `frameworks` (those the catalog was loaded with).
pub fn why(catalog: &Catalog, frameworks: &[&dyn Framework], name: &str) -> WhyReport {
    let roots = &catalog.roots;
    // Where each tool looks for agents (not its settings files).
    let all_places: Vec<(&str, Vec<Place>)> = catalog
        .reports
        .iter()
        .map(|r| (r.ecosystem, r.places.iter().filter(|p| p.holds_definitions()).cloned().collect()))
        .collect();
    let named_files = walk::files_named_like(roots, all_places.iter().flat_map(|(_, l)| l.iter()), name);
    let mut reports = Vec::new();
    let mut close_to_some = BTreeSet::new();
    for report in &catalog.reports {
        let Some(framework) = frameworks.iter().find(|f| f.id() == report.ecosystem) else { continue };
        let Some((_, places)) = all_places.iter().find(|(id, _)| *id == report.ecosystem) else { continue };
        let rule = |kind: Kind| framework.name_matching(kind);
        let sources: Vec<SourceView> = report
            .agents
            .iter()
            .filter(|a| rule(a.kind).matches(name, &a.name) && !a.status.is_unloaded())
            .map(source_view)
            .collect();
        let kinds: BTreeSet<Kind> = report.agents.iter().map(|a| a.kind).collect();
        let active = sources.iter().any(|s| s.status.is_active());
        let mut fw = FrameworkWhy {
            tool: report.ecosystem,
            title: framework.title(),
            active,
            sources,
            near_misses: Vec::new(),
            similar: Vec::new(),
            name_matching: kinds.into_iter().map(|kind| NameMatching { kind, rule: rule(kind) }).collect(),
            looks_in: places.clone(),
            release: report.diagnostics.iter().find(|d| d.kind == crate::model::DiagKind::Release).map(|d| d.message.clone()),
            refusal: Refusal::of(report),
        };
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        if !active {
            // Files the tool found and did not load.
            for a in report.agents.iter().filter(|a| !a.source.is_compiled_in()) {
                let unloaded = matches!(a.status, Status::Held | Status::Invalid | Status::Skipped);
                if !unloaded || !(views_places::fold(&a.name) == views_places::fold(name) || would_define(&a.source.path, name)) {
                    continue;
                }
                let diag = report
                    .diagnostics
                    .iter()
                    .find(|d| d.source.as_deref().is_some_and(|k| a.source.key_is(k)) || d.path == *a.source.path);
                fw.near_misses.push(from_catalog(&a.source.path, a.status, Some(a.source.key()), diag, &a.rule));
                seen.insert(a.source.path.to_path_buf());
            }
            for d in &report.diagnostics {
                if seen.contains(&d.path) || d.path.as_os_str().is_empty() || !would_define(&d.path, name) {
                    continue;
                }
                let status = if d.kind == crate::model::DiagKind::Skipped { Status::Skipped } else { Status::Invalid };
                fw.near_misses.push(from_catalog(&d.path, status, d.source.clone(), Some(d), ""));
                seen.insert(d.path.clone());
            }
            // Files named like NAME that this tool scans but said nothing about, or
            // that sit just outside its places.
            for path in &named_files {
                if seen.contains(path) || report.agents.iter().any(|a| *a.source.path == **path) {
                    continue;
                }
                if let Some(loc) = places.iter().find(|l| l.covers(path)) {
                    close_to_some.insert(path.clone());
                    fw.near_misses.push(NearMiss {
                        path: path.clone(),
                        kind: "unreported",
                        source: None,
                        reason: format!(
                            "in {}, but {} did not read it as an agent (nothing reported about it)",
                            loc.label,
                            framework.title()
                        ),
                        line: None,
                        miss: None,
                        causes: causes_of(path),
                    });
                    continue;
                }
                let miss = views_places::miss(places, roots, path);
                // A file another tool reads where it is is that tool's file, not one
                // misplaced for this tool (unless it sits in this tool's own folder).
                let others =
                    all_places.iter().any(|(id, ls)| *id != report.ecosystem && ls.iter().any(|l| l.covers(path)));
                let near = match &miss {
                    Miss::WrongFolder => false,
                    Miss::OutsideWalk { .. } => !others,
                    _ => true,
                };
                if near {
                    close_to_some.insert(path.clone());
                    fw.near_misses.push(NearMiss {
                        path: path.clone(),
                        kind: "unscanned",
                        source: None,
                        reason: miss.rule(),
                        line: None,
                        miss: Some(miss),
                        causes: Vec::new(),
                    });
                }
            }
            // Each near name once: its winner (or held definition), not its shadowed copies.
            // (A name the tool's rule already matches is a source, not a near name.)
            for a in report.agents.iter().filter(|a| matches!(a.status, Status::Wins | Status::Held)) {
                if rule(a.kind).matches(name, &a.name) {
                    continue;
                }
                if let Some((difference, distance)) = views_places::difference(name, &a.name) {
                    if !fw.similar.iter().any(|s| s.source == a.source.key() && s.name == a.name) {
                        fw.similar.push(Similar {
                            kind: a.kind,
                            name: a.name.clone(),
                            status: a.status,
                            source: a.source.key(),
                            difference,
                            distance,
                        });
                    }
                }
            }
        }
        // Nearest first: case and separators, then fewer edits, then shorter names
        // holding the query.
        fw.similar.sort_by(|a, b| (a.distance, a.difference == "contains").cmp(&(b.distance, b.difference == "contains")));
        for path in &named_files {
            if report.agents.iter().any(|a| *a.source.path == **path)
                || report.diagnostics.iter().any(|d| d.path == *path)
            {
                close_to_some.insert(path.clone());
            }
        }
        reports.push(fw);
    }
    let unscanned = named_files
        .iter()
        .filter(|p| {
            !close_to_some.contains(*p) && !all_places.iter().any(|(_, ls)| ls.iter().any(|l| l.covers(p)))
        })
        .filter(|p| !read_through_a_link(catalog, p))
        .map(|p| Unscanned { path: p.clone(), reason: "no tool agentry knows scans this folder".into() })
        .collect();
    // The tool set's answers are explained; the other tools are named.
    let (reports, outside): (Vec<_>, Vec<_>) = reports.into_iter().partition(|f| roots.tools.contains(f.tool));
    let others =
        outside.iter().filter(|f| !f.sources.is_empty() || !f.near_misses.is_empty()).map(|f| f.tool).collect();
    WhyReport { name: name.to_string(), active: reports.iter().any(|f| f.active), frameworks: reports, unscanned, others }
}

/// Whether `path` is the file a definition's path leads to through a symlink: a tool
/// reads it there.
fn read_through_a_link(catalog: &Catalog, path: &Path) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else { return false };
    catalog.reports.iter().flat_map(|r| r.agents.iter()).any(|a| {
        !a.source.is_compiled_in()
            && *a.source.path != *path
            && std::fs::canonicalize(&*a.source.path).is_ok_and(|r| r == real)
    })
}

fn from_catalog(
    path: &Path,
    status: Status,
    source: Option<String>,
    diag: Option<&Diagnostic>,
    rule: &str,
) -> NearMiss {
    let kind = match status {
        Status::Held => "held",
        Status::Skipped => "skipped",
        _ => "invalid",
    };
    let reason = match diag {
        Some(d) => d.message.clone(),
        None if !rule.is_empty() => rule.to_string(),
        None => "not loaded".into(),
    };
    // A held file loads once trusted: its bytes are not the cause.
    let causes = if status == Status::Held { Vec::new() } else { causes_of(path) };
    NearMiss { path: path.to_path_buf(), kind, source, reason, line: diag.and_then(|d| d.line), miss: None, causes }
}

/// The report as text lines (sanitised), as `agentry why` prints it and the
/// explorer's overlay shows it.
pub fn lines(report: &WhyReport, roots: &Roots) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let name = sanitize::line(&report.name);
    let mut blank = false;
    for f in report.frameworks.iter().filter(|f| !f.sources.is_empty()) {
        let mut kind = None;
        for s in &f.sources {
            // Sources come a kind at a time: an agent and a skill may share the name.
            if kind != Some(s.kind) {
                kind = Some(s.kind);
                let skill = if s.kind == Kind::Skill { " skill" } else { "" };
                out.push(format!("{name} ({}{skill})", f.tool));
            }
            let word = format!("[{}]", s.status.word());
            // A file as every view prints a path (home `~/…`); a built-in by its key.
            let at = if s.path.is_absolute() { shown(&s.path, roots) } else { s.source.clone() };
            let mut head = format!("{word:<12} {}", sanitize::line(&at));
            if let Some(w) = &s.shadowed_by {
                head.push_str(&format!(" → {}", sanitize::line(w)));
            }
            out.push(head);
            out.push(format!("{:12} {}", "", sanitize::line(&super::quoted(&s.rule, roots))));
            if let Some(order) = &s.undocumented_order {
                out.push(format!("{:12} decided by an undocumented order: {}", "", sanitize::line(order)));
            }
        }
        if let Some(note) = &f.release {
            out.push(format!("{:<12} {}", "[release]", sanitize::line(note)));
        }
        blank = true;
    }
    let mut quiet = Vec::new();
    for f in report.frameworks.iter().filter(|f| !f.active) {
        if f.near_misses.is_empty() && f.similar.is_empty() {
            quiet.push(f.tool);
            continue;
        }
        if blank {
            out.push(String::new());
        }
        blank = true;
        out.push(format!("{name} is not active in {} ({}):", f.tool, f.title));
        // Said once per tool: under its definitions when it has some.
        if let Some(note) = f.release.as_ref().filter(|_| f.sources.is_empty()) {
            out.push(format!("  {:<10} {}", "release", sanitize::line(note)));
        }
        for m in &f.near_misses {
            let mut at = shown(&m.path, roots);
            if let Some(l) = m.line {
                at.push_str(&format!(":{l}"));
            }
            out.push(format!("  {:<10} {}", m.kind, sanitize::line(&at)));
            out.push(format!("  {:10} {}", "", sanitize::line(&super::quoted(&m.reason, roots))));
            for c in &m.causes {
                out.push(format!("  {:10} {}:{} {}: {}", "", c.line, c.col, c.kind, sanitize::line(&c.message)));
                for l in bytes::caret_lines(c, &format!("  {:10} ", "")) {
                    out.push(sanitize::line(&l).into_owned());
                }
            }
        }
        if f.near_misses.iter().any(|m| m.kind == "unscanned") {
            out.push(format!("  {} looks in:", f.title));
            for p in &f.looks_in {
                out.push(format!(
                    "  {:10} {:<28} {}",
                    "",
                    sanitize::line(&shown(&p.dir, roots)),
                    sanitize::line(&p.label)
                ));
            }
        }
        for s in &f.similar {
            let how = match s.difference {
                "case" => "differs only in case".to_string(),
                "separators" => "differs only in separators".to_string(),
                "contains" => format!("holds `{name}`"),
                _ => format!("{} edit{} away", s.distance, if s.distance == 1 { "" } else { "s" }),
            };
            out.push(format!(
                "  {:<10} `{}` [{}] {}: {how}",
                "near name",
                sanitize::line(&s.name),
                s.status.word(),
                sanitize::line(&s.source)
            ));
        }
        // The rule of each kind a near name is of: a tool may look skills up otherwise.
        for m in f.name_matching.iter().filter(|m| f.similar.iter().any(|s| s.kind == m.kind)) {
            let article = if m.kind == Kind::Agent { "an" } else { "a" };
            out.push(format!("  {:10} how {} finds {article} {}: {}", "", f.title, m.kind.word(), m.rule.words));
        }
    }
    if !quiet.is_empty() {
        if blank {
            out.push(String::new());
        }
        out.push(format!("{name} is not active in {}: no file, no near miss, no near name", quiet.join(", ")));
        // Where nothing is close, a tool of another release may still read it otherwise.
        for f in report.frameworks.iter().filter(|f| quiet.contains(&f.tool) && f.sources.is_empty()) {
            if let Some(note) = &f.release {
                out.push(format!("  {:<10} {}", "release", sanitize::line(note)));
            }
        }
    }
    if !report.others.is_empty() {
        if blank || !quiet.is_empty() {
            out.push(String::new());
        }
        out.push(format!(
            "{} also {} of {name}; {} not in this project's tools (--all-tools shows {})",
            report.others.join(", "),
            if report.others.len() == 1 { "has a definition or near miss" } else { "have definitions or near misses" },
            if report.others.len() == 1 { "it is" } else { "they are" },
            if report.others.len() == 1 { "it" } else { "them" },
        ));
    }
    for u in &report.unscanned {
        out.push(format!(
            "named like {name}, read by no tool: {} ({})",
            sanitize::line(&shown(&u.path, roots)),
            u.reason
        ));
    }
    // Said once, first: nothing below loads in that tool until the file is fixed.
    let mut refusals: Vec<String> = report
        .frameworks
        .iter()
        .filter_map(|f| f.refusal.as_ref())
        .map(|r| format!("{}; until that is fixed it loads nothing, and what follows is what it does then", r.line(roots)))
        .collect();
    if !refusals.is_empty() && !out.is_empty() {
        refusals.push(String::new());
    }
    refusals.append(&mut out);
    refusals
}
