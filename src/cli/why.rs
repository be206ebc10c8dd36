//! `agentry why NAME` as text and JSON ([`crate::views::why`]).

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;

use super::exit;
use super::output::SCHEMA;
use crate::model::Catalog;
use crate::text::sanitize;
use crate::views::bytes::caret_lines;
use crate::views::why::{why as explain, WhyReport};
use crate::frameworks::Framework;

/// A path as people read it: below the project relative to it, below home as `~/…`.
pub fn shown(path: &Path, catalog: &Catalog) -> String {
    if let Ok(rel) = path.strip_prefix(&catalog.roots.project) {
        return crate::model::posix(rel);
    }
    if let Ok(rel) = path.strip_prefix(&catalog.roots.home) {
        return format!("~/{}", crate::model::posix(rel));
    }
    path.display().to_string()
}

pub fn why(catalog: &Catalog, frameworks: &[&dyn Framework], name: &str, json: bool, out: &mut dyn Write) -> io::Result<i32> {
    let report = explain(catalog, frameworks, name);
    let code = if report.active { exit::OK } else { exit::FINDINGS };
    if json {
        let sources: Vec<_> = report
            .frameworks
            .iter()
            .flat_map(|f| f.sources.iter().map(move |s| (f.ecosystem, s)))
            .map(|(eco, s)| json!({ "ecosystem": eco, "status": s.status, "source": s.source, "path": s.path, "shadowed_by": s.shadowed_by, "rule": s.rule }))
            .collect();
        let doc = json!({ "schema": SCHEMA, "name": name, "active": report.active, "sources": sources, "frameworks": report.frameworks, "unscanned": report.unscanned });
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)?;
        return Ok(code);
    }
    text(catalog, &report, out)?;
    Ok(code)
}

fn text(catalog: &Catalog, report: &WhyReport, out: &mut dyn Write) -> io::Result<()> {
    let name = sanitize::line(&report.name);
    let mut blank = false;
    for f in report.frameworks.iter().filter(|f| !f.sources.is_empty()) {
        writeln!(out, "{name} ({})", f.ecosystem)?;
        for s in &f.sources {
            let word = format!("[{}]", s.status.word());
            let mut head = format!("{word:<12} {}", sanitize::line(&s.source));
            if let Some(w) = &s.shadowed_by {
                head.push_str(&format!(" → {}", sanitize::line(w)));
            }
            writeln!(out, "{head}")?;
            writeln!(out, "{:12} {}", "", sanitize::line(&s.rule))?;
        }
        blank = true;
    }
    let mut quiet = Vec::new();
    for f in report.frameworks.iter().filter(|f| !f.active) {
        if f.near_misses.is_empty() && f.similar.is_empty() {
            quiet.push(f.ecosystem);
            continue;
        }
        if blank {
            writeln!(out)?;
        }
        blank = true;
        writeln!(out, "{name} is not active in {} ({}):", f.ecosystem, f.title)?;
        for m in &f.near_misses {
            let mut at = shown(&m.path, catalog);
            if let Some(l) = m.line {
                at.push_str(&format!(":{l}"));
            }
            writeln!(out, "  {:<10} {}", m.kind, sanitize::line(&at))?;
            writeln!(out, "  {:10} {}", "", sanitize::line(&m.reason))?;
            for c in &m.causes {
                writeln!(out, "  {:10} {}:{} {}: {}", "", c.line, c.col, c.kind, sanitize::line(&c.message))?;
                for l in caret_lines(c, &format!("  {:10} ", "")) {
                    writeln!(out, "{}", sanitize::line(&l))?;
                }
            }
            if m.kind == "unscanned" {
                let places: Vec<String> = f.looks_in.iter().map(|p| format!("{} ({})", shown(&p.dir, catalog), p.label)).collect();
                writeln!(out, "  {:10} {} looks in: {}", "", f.title, sanitize::line(&places.join("; ")))?;
            }
        }
        for s in &f.similar {
            let how = match s.difference {
                "case" => "differs only in case".to_string(),
                "separators" => "differs only in separators".to_string(),
                _ => format!("{} edit(s) away", s.distance),
            };
            writeln!(
                out,
                "  {:<10} `{}` [{}] {}: {how}; {} looks agents up by their exact name",
                "near name",
                sanitize::line(&s.name),
                s.status.word(),
                sanitize::line(&s.source),
                f.title
            )?;
        }
    }
    if !quiet.is_empty() {
        if blank {
            writeln!(out)?;
        }
        writeln!(out, "{name} is not active in {}: no file, near miss or near name", quiet.join(", "))?;
    }
    for u in &report.unscanned {
        writeln!(out, "named like {name}, read by no tool: {} ({})", sanitize::line(&shown(&u.path, catalog)), u.reason)?;
    }
    Ok(())
}
