//! `agentry why NAME` as text and JSON ([`crate::views::why`]).

use std::io::{self, Write};

use serde_json::json;

use super::exit;
use super::output::SCHEMA;
use crate::frameworks::Framework;
use crate::model::Catalog;
use crate::views::why::why as explain;

pub fn why(
    catalog: &Catalog,
    frameworks: &[&dyn Framework],
    name: &str,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<i32> {
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
    for line in crate::views::why::lines(&report, &catalog.roots) {
        writeln!(out, "{line}")?;
    }
    Ok(code)
}
