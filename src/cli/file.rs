//! `agentry file PATH` as text and JSON ([`crate::views::file`]).

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;

use super::exit;
use super::output::SCHEMA;
use crate::frameworks::Framework;
use crate::model::Catalog;

pub fn file(
    catalog: &Catalog,
    frameworks: &[&dyn Framework],
    path: &Path,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<i32> {
    let report = crate::views::file::file(catalog, frameworks, path);
    let code = if report.readings.is_empty() { exit::FINDINGS } else { exit::OK };
    if json {
        serde_json::to_writer_pretty(&mut *out, &json!({ "schema": SCHEMA, "file": report }))?;
        writeln!(out)?;
        return Ok(code);
    }
    for line in crate::views::file::lines(&report, &catalog.roots) {
        writeln!(out, "{line}")?;
    }
    Ok(code)
}
