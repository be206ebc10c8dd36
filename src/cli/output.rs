//! Human and JSON output of the read-only commands. Every string that came from a
//! file goes through [`sanitize`] before it is printed as text.

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;

use super::exit;
use crate::model::{Agent, Catalog, Diagnostic, Provenance, Severity};
use crate::text::sanitize;

/// The `--json` schema version of `list`, `why`, `show` and `check`.
pub const SCHEMA: &str = "agentry/1";

fn json_out(out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// Pads cells to aligned columns; the last column is not padded.
fn table(out: &mut dyn Write, rows: &[Vec<String>]) -> io::Result<()> {
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
            agents: Vec<&'a Agent>,
        }
        let doc = List { schema: SCHEMA, generation: catalog.generation, agents: catalog.agents().collect() };
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)?;
        return Ok(exit::OK);
    }
    let mut rows = vec![vec!["NAME".into(), "FRAMEWORK".into(), "STATUS".into(), "SCOPE".into(), "PATH".into()]];
    for a in catalog.agents() {
        let mut path = a.source.rel.clone();
        if let Some(card) = &a.source.card {
            path = format!("{path}#{card}");
        }
        rows.push(vec![
            sanitize::line(&a.name).into_owned(),
            a.ecosystem.to_string(),
            a.status.word().to_string(),
            a.source.scope.as_str().to_string(),
            sanitize::line(&path).into_owned(),
        ]);
    }
    table(out, &rows)?;
    Ok(exit::OK)
}

fn named<'a>(catalog: &'a Catalog, name: &str) -> Vec<&'a Agent> {
    catalog.agents().filter(|a| a.name == name).collect()
}

fn not_found(out: &mut dyn Write, name: &str, json: bool) -> io::Result<i32> {
    if json {
        json_out(out, &json!({ "schema": SCHEMA, "name": name, "sources": [] }))?;
    } else {
        writeln!(out, "no agent named `{}`", sanitize::line(name))?;
    }
    Ok(exit::FINDINGS)
}

pub fn why(catalog: &Catalog, name: &str, json: bool, out: &mut dyn Write) -> io::Result<i32> {
    let agents = named(catalog, name);
    if agents.is_empty() {
        return not_found(out, name, json);
    }
    if json {
        let sources: Vec<_> = agents
            .iter()
            .map(|a| {
                json!({
                    "ecosystem": a.ecosystem, "status": a.status, "source": a.source.key(),
                    "path": a.source.path, "shadowed_by": a.shadowed_by, "rule": a.rule,
                })
            })
            .collect();
        json_out(out, &json!({ "schema": SCHEMA, "name": name, "sources": sources }))?;
        return Ok(exit::OK);
    }
    let mut ecosystem = "";
    for a in agents {
        if a.ecosystem != ecosystem {
            ecosystem = a.ecosystem;
            writeln!(out, "{} ({ecosystem})", sanitize::line(name))?;
        }
        let word = format!("[{}]", a.status.word());
        let mut head = format!("{word:<12} {}", sanitize::line(&a.source.key()));
        if let Some(w) = &a.shadowed_by {
            head.push_str(&format!(" → {}", sanitize::line(w)));
        }
        writeln!(out, "{head}")?;
        writeln!(out, "{:12} {}", "", sanitize::line(&a.rule))?;
    }
    Ok(exit::OK)
}

fn site_text(f: &crate::model::Field) -> String {
    if f.origin.sites.is_empty() {
        return "(default)".into();
    }
    f.origin
        .sites
        .iter()
        .map(|s| match s.line {
            Some(l) => format!("{}:{l}", s.source),
            None => s.source.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
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
        writeln!(
            out,
            "{}  ({}, {}, {})",
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
                let mark = match f.origin.provenance {
                    Provenance::Own => "own",
                    Provenance::Inherited => "inherited",
                    Provenance::Merged => "merged",
                    Provenance::Default => "default",
                };
                row.push(sanitize::line(&site_text(&f)).into_owned());
                row.push(mark.to_string());
            }
            row.push(sanitize::line(&f.key).into_owned());
            row.push(value);
            if origins {
                row.push(format!("# {}", sanitize::line(&f.origin.rule)));
            }
            rows.push(row);
        }
        table(out, &rows)?;
        match &a.system_prompt {
            Some(p) => {
                writeln!(out, "--- system prompt ---")?;
                writeln!(out, "{}", sanitize::text(&p.read().map_err(io::Error::other)?))?;
            }
            None => writeln!(out, "--- no system prompt without running the agent ---")?,
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

/// `path:line:col: kind: message`, the path relative to the current folder when it
/// is inside it.
pub fn diagnostic_line(d: &Diagnostic) -> String {
    let cwd = std::env::current_dir().ok();
    let path = cwd.as_deref().and_then(|c| d.path.strip_prefix(c).ok()).unwrap_or(&d.path);
    let mut at = path.display().to_string();
    if let Some(l) = d.line {
        at.push_str(&format!(":{l}"));
        if let Some(c) = d.col {
            at.push_str(&format!(":{c}"));
        }
    }
    let severity = match d.severity {
        Severity::Error => "",
        Severity::Warning => "warning: ",
        Severity::Info => "note: ",
    };
    sanitize::line(&format!("{at}: {severity}{}: {}", d.kind.as_str(), d.message)).into_owned()
}

pub fn check(catalog: &Catalog, json: bool, out: &mut dyn Write) -> io::Result<i32> {
    let diags: Vec<&Diagnostic> = catalog.diagnostics().collect();
    let findings = diags.iter().any(|d| d.severity != Severity::Info);
    if json {
        let agents = catalog.agents().count();
        json_out(out, &json!({ "schema": SCHEMA, "agents": agents, "diagnostics": diags }))?;
    } else {
        for d in &diags {
            writeln!(out, "{}", diagnostic_line(d))?;
        }
        let valid = catalog.agents().filter(|a| a.status != crate::model::Status::Invalid).count();
        let errors = diags.iter().filter(|d| d.severity == Severity::Error).count();
        let warnings = diags.iter().filter(|d| d.severity == Severity::Warning).count();
        writeln!(out, "{valid} agents loaded, {errors} errors, {warnings} warnings")?;
    }
    Ok(if findings { exit::FINDINGS } else { exit::OK })
}
