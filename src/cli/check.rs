//! `agentry check` as text, JSON, SARIF 2.1.0 or GitHub annotations, with the gate
//! of `--fail-on` and `--baseline` ([`crate::views::check`]).

use std::io::{self, Write};
use std::path::PathBuf;

use serde_json::json;

use super::args::CheckFormat;
use super::output::{json_out, SCHEMA};
use super::{exit, Failure};
use crate::model::{Catalog, Roots, Severity, Status};
use crate::text::sanitize;
use crate::views::check::{self as gate, FailOn, Finding};

pub struct CheckArgs<'a> {
    pub format: CheckFormat,
    pub fail_on: &'a [FailOn],
    pub baseline: Option<&'a PathBuf>,
    /// Print info notes too (`--notes`): a first run shows only problems.
    pub notes: bool,
}

/// The finding's path relative to the current folder when it is inside it (so an
/// editor opens it), else as every view prints it ([`crate::views::shown`]).
fn shown(f: &Finding, roots: &Roots) -> Option<String> {
    let cwd = std::env::current_dir().ok().map(|c| crate::model::normalize(&c));
    f.path.as_ref().map(|p| {
        let p = crate::model::normalize(p);
        match cwd.as_ref().filter(|c| p.starts_with(c)) {
            Some(c) => crate::views::shown(&p, &Roots { project: c.clone(), ..roots.clone() }),
            None => crate::views::shown(&p, roots),
        }
    })
}

/// `path:line:col: [severity: ]kind: framework: message`.
fn line(f: &Finding, roots: &Roots) -> String {
    let mut at = shown(f, roots).unwrap_or_default();
    if let Some(l) = f.line {
        at.push_str(&format!(":{l}"));
        if let Some(c) = f.col {
            at.push_str(&format!(":{c}"));
        }
    }
    let severity = match (f.class, f.level) {
        (_, Severity::Error) => "",
        (_, Severity::Warning) => "warning: ",
        (gate::Class::Skipped | gate::Class::Note, _) => "note: ",
        _ if f.fails => "",
        _ => "note: ",
    };
    sanitize::line(&format!("{at}: {severity}{}: {}: {}", f.rule, f.ecosystem, f.message)).into_owned()
}

pub fn check(catalog: &Catalog, args: &CheckArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let baseline = match args.baseline {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::usage(format!("cannot read the baseline {}: {e}", path.display())))?;
            Some(gate::baseline(&text).map_err(Failure::usage)?)
        }
        None if args.fail_on.contains(&FailOn::NewShadow) => {
            return Err(Failure::usage("--fail-on new-shadow needs --baseline FILE"))
        }
        None => None,
    };
    let mut findings = gate::findings(catalog);
    let failed = gate::gate(&mut findings, args.fail_on, baseline.as_ref());
    let io = |e: io::Error| Failure { code: exit::USAGE, message: format!("cannot write output: {e}") };
    match args.format {
        CheckFormat::Json => {
            let diags: Vec<_> = catalog.diagnostics().collect();
            let doc = json!({ "schema": SCHEMA, "agents": catalog.agents().count(), "diagnostics": diags, "findings": findings, "failed": failed });
            json_out(out, &doc).map_err(io)?;
        }
        CheckFormat::Sarif => json_out(out, &gate::sarif(&findings, &catalog.roots.project)).map_err(io)?,
        CheckFormat::Github => {
            for f in findings.iter().filter(|f| f.fails || f.level != Severity::Info) {
                writeln!(out, "{}", gate::github(f, shown(f, &catalog.roots).as_deref())).map_err(io)?;
            }
            summary(catalog, &findings, out).map_err(io)?;
        }
        CheckFormat::Text => {
            // Errors, warnings and the other findings that fail; the notes (skipped
            // files, built-ins not installed) only with `--notes`.
            for f in findings.iter().filter(|f| {
                f.fails
                    || f.level != Severity::Info
                    || (args.notes && matches!(f.class, gate::Class::Skipped | gate::Class::Note))
            }) {
                writeln!(out, "{}", line(f, &catalog.roots)).map_err(io)?;
            }
            summary(catalog, &findings, out).map_err(io)?;
            let hidden = findings
                .iter()
                .filter(|f| !f.fails && f.level == Severity::Info && matches!(f.class, gate::Class::Skipped | gate::Class::Note))
                .count();
            if hidden > 0 && !args.notes {
                writeln!(out, "{hidden} notes not shown (--notes shows them)").map_err(io)?;
            }
        }
    }
    Ok(if failed { exit::FINDINGS } else { exit::OK })
}

fn summary(catalog: &Catalog, findings: &[Finding], out: &mut dyn Write) -> io::Result<()> {
    let valid = catalog.agents().filter(|a| a.status != Status::Invalid).count();
    let count = |c: gate::Class| findings.iter().filter(|f| f.class == c).count();
    let failing = findings.iter().filter(|f| f.fails).count();
    writeln!(
        out,
        "{valid} agents loaded, {} errors, {} warnings, {failing} failing the check",
        count(gate::Class::Error),
        count(gate::Class::Warning)
    )
}
