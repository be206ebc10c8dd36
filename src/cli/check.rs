//! `agentry check` as text, JSON, SARIF 2.1.0 or GitHub annotations, with the gate
//! of `--fail-on` and `--baseline` ([`crate::views::check`]).

use std::io::{self, Write};
use std::path::PathBuf;

use serde_json::json;

use super::args::CheckFormat;
use super::output::{json_out, SCHEMA};
use super::{exit, Failure};
use crate::model::{Catalog, Kind, Roots, Severity};
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
    // Editors' problem matchers read the word: every finding has one.
    let severity = match (f.level, f.fails) {
        (Severity::Error, _) | (_, true) => "error",
        (Severity::Warning, _) => "warning",
        (Severity::Info, false) => "note",
    };
    // A tool's message of several lines keeps them, indented under the first.
    let message: Vec<String> = f.message.lines().map(|l| sanitize::line(l).into_owned()).collect();
    let head = sanitize::line(&format!("{at}: {severity}: {}: {}: ", f.rule, f.tool)).into_owned();
    format!("{head}{}", message.join("\n    "))
}

/// `1 error`, `2 errors`.
pub(super) fn count(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
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
            let refusals = crate::views::refusal::Refusal::all(catalog);
            let doc = json!({ "schema": SCHEMA, "tools": catalog.roots.tools, "agents": catalog.agents().filter(|a| a.kind == Kind::Agent).count(), "skills": catalog.agents().filter(|a| a.kind == Kind::Skill).count(), "refusals": refusals, "diagnostics": diags, "findings": findings, "failed": failed });
            json_out(out, &doc).map_err(io)?;
        }
        CheckFormat::Sarif => json_out(out, &gate::sarif(&findings, &catalog.roots, args.notes)).map_err(io)?,
        CheckFormat::Github => {
            let shown_findings: Vec<&Finding> = findings.iter().filter(|f| gate::shown_finding(f, args.notes)).collect();
            let path = |f: &Finding| shown(f, &catalog.roots);
            for annotation in gate::github_all(&shown_findings, &path) {
                writeln!(out, "{annotation}").map_err(io)?;
            }
            let totals = totals(catalog, &findings);
            if let Some(file) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|f| !f.is_empty()) {
                let text = gate::github_summary(&shown_findings, &path, &totals);
                let written = std::fs::OpenOptions::new()
                    .append(true)
                    .create(true)
                    .open(&file)
                    .and_then(|mut f| f.write_all(text.as_bytes()));
                if let Err(e) = written {
                    return Err(Failure::usage(format!("cannot write the step summary ($GITHUB_STEP_SUMMARY): {e}")));
                }
            }
            writeln!(out, "{totals}").map_err(io)?;
        }
        CheckFormat::Text => {
            for f in findings.iter().filter(|f| gate::shown_finding(f, args.notes)) {
                writeln!(out, "{}", line(f, &catalog.roots)).map_err(io)?;
            }
            if let Some(looked) = nothing_found(catalog) {
                writeln!(out, "{looked}").map_err(io)?;
            }
            writeln!(out, "{}", totals(catalog, &findings)).map_err(io)?;
            let hidden = findings
                .iter()
                .filter(|f| !f.fails && f.level == Severity::Info && matches!(f.class, gate::Class::Skipped | gate::Class::Note))
                .count();
            if hidden > 0 && !args.notes {
                writeln!(out, "{} not shown (--notes shows {})", count(hidden, "note"), if hidden == 1 { "it" } else { "them" }).map_err(io)?;
            }
        }
    }
    Ok(if failed { exit::FINDINGS } else { exit::OK })
}

/// The closing line: the agents (as `list` counts them), errors, warnings and what
/// fails.
fn totals(catalog: &Catalog, findings: &[Finding]) -> String {
    let of = |c: gate::Class| findings.iter().filter(|f| f.class == c).count();
    let failing = findings.iter().filter(|f| f.fails).count();
    let skills = catalog.agents().filter(|a| a.kind == Kind::Skill).count();
    let skills = if skills > 0 { format!(", {}", count(skills, "skill")) } else { String::new() };
    format!(
        "{}{skills}, {}, {}, {failing} failing the check",
        count(catalog.agents().filter(|a| a.kind == Kind::Agent).count(), "agent"),
        count(of(gate::Class::Error), "error"),
        count(of(gate::Class::Warning), "warning"),
    )
}

/// When the shown tools have no agent file at all: that, and where each looked.
pub(super) fn nothing_found(catalog: &Catalog) -> Option<String> {
    if catalog.agents().any(|a| a.source.scope != crate::model::Scope::Builtin) {
        return None;
    }
    let rows = crate::views::places::looked_in(catalog);
    let skills = catalog.reports.iter().flat_map(|r| &r.places).any(|p| p.holds_skills());
    let what = if skills { "agent or skill files" } else { "agent files" };
    Some(if rows.is_empty() {
        format!("no {what} found, and no tool to look for them (the tools line above says how to name one)")
    } else {
        let mut lines = vec![format!("no {what} found; where each tool looks:")];
        lines.extend(crate::views::places::looked_in_lines(&rows));
        lines.join("\n")
    })
}
