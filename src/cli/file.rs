//! `agentry file PATH` as text and JSON ([`crate::views::file`]).

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;

use super::exit;
use super::output::SCHEMA;
use super::why::shown;
use crate::frameworks::Framework;
use crate::model::Catalog;
use crate::text::sanitize;

pub fn file(catalog: &Catalog, frameworks: &[&dyn Framework], path: &Path, json: bool, out: &mut dyn Write) -> io::Result<i32> {
    let report = crate::views::file::file(catalog, frameworks, path);
    let code = if report.readings.is_empty() { exit::FINDINGS } else { exit::OK };
    if json {
        serde_json::to_writer_pretty(&mut *out, &json!({ "schema": SCHEMA, "file": report }))?;
        writeln!(out)?;
        return Ok(code);
    }
    let s = |t: &str| sanitize::line(t).into_owned();
    writeln!(out, "{}{}", s(&shown(&report.path, catalog)), if report.exists { "" } else { " (no such file)" })?;
    for r in &report.readings {
        writeln!(out, "  {} ({}) — {}", r.ecosystem, r.title, s(&r.location))?;
        writeln!(out, "    {}", s(&r.outcome))?;
        for d in &r.definitions {
            writeln!(out, "    [{}] `{}` {}: {}", d.status.word(), s(&d.name), s(&d.source), s(&d.rule))?;
            if let Some(w) = &d.shadowed_by {
                writeln!(out, "      shadowed by {}", s(w))?;
            }
            if d.ladder.len() > 1 {
                let rungs: Vec<String> = d.ladder.iter().map(|r| format!("[{}] {}{}", r.status.word(), s(&r.source), if r.this { " (this file)" } else { "" })).collect();
                writeln!(out, "      ladder: {}", rungs.join(" > "))?;
            }
            for k in &d.keys {
                let note = k.note.as_deref().map(|n| format!(" — {}", s(n))).unwrap_or_default();
                writeln!(out, "      {:<9} {}:{}{note}", k.verdict, s(&k.key), k.line)?;
            }
        }
        for n in &r.diagnostics {
            let at = n.line.map(|l| format!(":{l}")).unwrap_or_default();
            writeln!(out, "    {:?}{at} {}: {}", n.severity, n.kind, s(&n.message))?;
        }
    }
    if report.readings.is_empty() {
        writeln!(out, "  no tool agentry knows scans this path")?;
        for w in &report.would_read {
            writeln!(out, "  {} would read it in {} ({})", w.ecosystem, s(&shown(&w.dir, catalog)), s(&w.label))?;
        }
    }
    Ok(code)
}
