//! Human and JSON output of the read-only commands. Every string that came from a
//! file goes through [`sanitize`] before it is printed as text.

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;

use super::exit;
use crate::model::{Agent, Catalog};
use crate::text::sanitize;
use crate::views::refusal::Refusal;

/// The `--json` schema version of `list`, `why`, `show` and `check`.
pub const SCHEMA: &str = "agentry/2";

pub(super) fn json_out(out: &mut dyn Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// Pads cells to aligned columns; the last column is not padded.
pub(super) fn table(out: &mut dyn Write, rows: &[Vec<String>]) -> io::Result<()> {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> =
        (0..cols).map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0)).collect();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if c + 1 < row.len() {
                line.extend(std::iter::repeat_n(' ', widths[c] - cell.chars().count() + 2));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

pub fn list(catalog: &Catalog, json: bool, out: &mut dyn Write) -> io::Result<i32> {
    if json {
        // Serialised straight from the catalog: no intermediate JSON tree of every agent.
        #[derive(serde::Serialize)]
        struct List<'a> {
            schema: &'a str,
            generation: u64,
            tools: &'a crate::model::toolset::ToolSet,
            agents: Vec<&'a Agent>,
            /// Tools that do not start because of a file: their agents are listed
            /// with the status they have once it is fixed.
            refusals: Vec<Refusal>,
        }
        let doc = List {
            schema: SCHEMA,
            generation: catalog.generation,
            tools: &catalog.roots.tools,
            agents: catalog.agents().collect(),
            refusals: Refusal::all(catalog),
        };
        json_out(out, &doc)?;
        return Ok(exit::OK);
    }
    // The kind column only where there are skills: a tool set without them lists as before.
    let kinds = catalog.agents().any(|a| a.kind == crate::model::Kind::Skill);
    let mut head: Vec<String> = vec!["NAME".into(), "TOOL".into(), "STATUS".into(), "SCOPE".into(), "PATH".into()];
    if kinds {
        head.insert(1, "KIND".into());
    }
    let mut rows = vec![head];
    for a in catalog.agents() {
        // Built-ins by their name in the tool; files as every view prints a path.
        let mut path = match a.source.scope {
            crate::model::Scope::Builtin => a.source.rel.clone(),
            _ => crate::views::shown(&a.source.path, &catalog.roots),
        };
        if let Some(card) = &a.source.card {
            path = format!("{path}#{card}");
        }
        let mut row = vec![
            sanitize::line(&a.shown_name()).into_owned(),
            a.ecosystem.to_string(),
            a.status.word().to_string(),
            a.source.scope.as_str().to_string(),
            sanitize::line(&path).into_owned(),
        ];
        if kinds {
            row.insert(1, a.kind.word().to_string());
        }
        rows.push(row);
    }
    if rows.len() > 1 {
        table(out, &rows)?;
    }
    for refusal in Refusal::all(catalog) {
        let rows = if catalog.agents().any(|a| a.ecosystem == refusal.tool) { "; its rows above are what it loads once that is fixed" } else { "" };
        writeln!(out, "{}{rows}", refusal.line(&catalog.roots))?;
    }
    if let Some(looked) = super::check::nothing_found(catalog) {
        writeln!(out, "{looked}")?;
    }
    Ok(exit::OK)
}

fn named<'a>(catalog: &'a Catalog, name: &str) -> Vec<&'a Agent> {
    catalog.agents().filter(|a| a.name == name).collect()
}

fn not_found(out: &mut dyn Write, name: &str, json: bool) -> io::Result<i32> {
    if json {
        json_out(out, &json!({ "schema": SCHEMA, "name": name, "sources": [] }))?;
    } else {
        writeln!(out, "no agent or skill named `{}`", sanitize::line(name))?;
    }
    Ok(exit::FINDINGS)
}

fn site_text(f: &crate::model::Field) -> String {
    if f.origin.sites.is_empty() {
        return "(default)".into();
    }
    f.origin.sites.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

pub fn show(
    catalog: &Catalog,
    name: &str,
    source: Option<&str>,
    origins: bool,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<i32> {
    let all = named(catalog, name);
    let chosen: Vec<&Agent> = match source {
        Some(s) => all
            .into_iter()
            .filter(|a| a.source.key() == s || *a.source.path == *Path::new(s) || a.source.rel == s)
            .collect(),
        None => {
            let winners: Vec<_> = all.iter().copied().filter(|a| a.status.is_active()).collect();
            if winners.is_empty() {
                all.into_iter().take(1).collect()
            } else {
                winners
            }
        }
    };
    if chosen.is_empty() {
        return not_found(out, name, json);
    }
    if json {
        json_out(out, &json!({ "schema": SCHEMA, "name": name, "agents": chosen }))?;
        return Ok(exit::OK);
    }
    for (i, a) in chosen.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let skill = if a.kind == crate::model::Kind::Skill { " skill" } else { "" };
        writeln!(
            out,
            "{}  ({}{skill}, {}, {})",
            sanitize::line(&a.name),
            a.ecosystem,
            sanitize::line(&a.source.key()),
            a.status.word()
        )?;
        if a.chain.len() > 1 {
            let chain: Vec<_> = a.chain.iter().map(|c| sanitize::line(c).into_owned()).collect();
            writeln!(out, "chain: {}", chain.join(" → "))?;
        }
        let mut rows = Vec::new();
        for f in a.fields.iter() {
            let value = sanitize::line(&f.value.to_string()).into_owned();
            let mut row = Vec::new();
            if origins {
                row.push(sanitize::line(&site_text(&f)).into_owned());
                row.push(f.origin.provenance.word().to_string());
            }
            row.push(sanitize::line(&f.key).into_owned());
            row.push(value);
            if origins {
                row.push(format!("# {}", sanitize::line(&f.origin.rule)));
            }
            rows.push(row);
        }
        table(out, &rows)?;
        // The skills the agent preloads, each as the file it resolves to.
        for e in a.edges.iter().filter(|e| e.kind == crate::model::EdgeKind::Skill) {
            let target = e.target.as_deref().map_or("resolves to no skill the tool loads".into(), sanitize::line);
            writeln!(out, "preloads skill `{}` → {target}", sanitize::line(&e.name))?;
        }
        if let Some(listed) = a.listed {
            writeln!(out, "listed to the model: {}", if listed { "yes" } else { "no: the tool does not tell its model about it" })?;
        }
        match &a.system_prompt {
            Some(p) if a.kind == crate::model::Kind::Skill => {
                writeln!(out, "--- skill body (what the model reads when it invokes the skill) ---")?;
                writeln!(out, "{}", sanitize::text(&p.read().map_err(io::Error::other)?))?;
            }
            Some(p) => {
                writeln!(out, "--- system prompt ---")?;
                writeln!(out, "{}", sanitize::text(&p.read().map_err(io::Error::other)?))?;
            }
            None => writeln!(out, "--- no system prompt: agentry does not have it (the tool makes it when it runs the agent) ---")?,
        }
        for m in a.messages.iter() {
            match &m.label {
                Some(label) => writeln!(out, "--- {} message: {} ---", sanitize::line(&m.role), sanitize::line(label))?,
                None => writeln!(out, "--- {} message ---", sanitize::line(&m.role))?,
            }
            writeln!(out, "{}", sanitize::text(&m.text.read().map_err(io::Error::other)?))?;
        }
    }
    Ok(exit::OK)
}

/// `agentry listing` as text and JSON ([`crate::views::listing`]).
pub fn listing(catalog: &Catalog, frameworks: &[&dyn crate::frameworks::Framework], json: bool, out: &mut dyn Write) -> io::Result<i32> {
    let report = crate::views::listing::listing(catalog, frameworks);
    if json {
        json_out(out, &json!({ "schema": SCHEMA, "listing": report }))?;
        return Ok(exit::OK);
    }
    for line in crate::views::listing::lines(&report, &catalog.roots) {
        writeln!(out, "{line}")?;
    }
    Ok(exit::OK)
}

/// `agentry file PATH` as text and JSON ([`crate::views::file`]).
pub fn file(
    catalog: &Catalog,
    frameworks: &[&dyn crate::frameworks::Framework],
    path: &Path,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<i32> {
    if path.is_dir() {
        let report = crate::views::folder::folder(catalog, frameworks, path);
        let code = if report.files.is_empty() { exit::FINDINGS } else { exit::OK };
        if json {
            json_out(out, &json!({ "schema": SCHEMA, "folder": report }))?;
            return Ok(code);
        }
        for line in crate::views::folder::lines(&report, &catalog.roots) {
            writeln!(out, "{line}")?;
        }
        return Ok(code);
    }
    let report = crate::views::file::file(catalog, frameworks, path);
    let code = if report.readings.is_empty() { exit::FINDINGS } else { exit::OK };
    if json {
        json_out(out, &json!({ "schema": SCHEMA, "file": report }))?;
        return Ok(code);
    }
    for line in crate::views::file::lines(&report, &catalog.roots) {
        writeln!(out, "{line}")?;
    }
    Ok(code)
}

/// `agentry why NAME` as text and JSON ([`crate::views::why`]).
pub fn why(
    catalog: &Catalog,
    frameworks: &[&dyn crate::frameworks::Framework],
    name: &str,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<i32> {
    let report = crate::views::why::why(catalog, frameworks, name);
    let code = if report.active { exit::OK } else { exit::FINDINGS };
    if json {
        let sources: Vec<_> = report
            .frameworks
            .iter()
            .flat_map(|f| f.sources.iter().map(move |s| (f.tool, s)))
            .map(|(eco, s)| json!({ "tool": eco, "status": s.status, "source": s.source, "path": s.path, "shadowed_by": s.shadowed_by, "rule": s.rule }))
            .collect();
        let doc = json!({ "schema": SCHEMA, "name": name, "active": report.active, "sources": sources, "tools": report.frameworks, "unscanned": report.unscanned });
        json_out(out, &doc)?;
        return Ok(code);
    }
    for line in crate::views::why::lines(&report, &catalog.roots) {
        writeln!(out, "{line}")?;
    }
    Ok(code)
}
