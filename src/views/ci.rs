//! `agentry check` for CI: the findings as one SARIF 2.1.0 log and as GitHub workflow
//! annotations with a step summary ([`super::check`] finds and gates them).

use std::path::Path;

use serde_json::{json, Value};

use super::check::{Class, Finding};
use crate::model::Severity;

/// The SARIF level of a finding: what fails the run is an error.
fn sarif_level(f: &Finding) -> &'static str {
    match (f.fails, f.level) {
        (true, _) | (_, Severity::Error) => "error",
        (_, Severity::Warning) => "warning",
        _ => "note",
    }
}

/// A path as a URI reference and its base: relative to `%SRCROOT%` inside the
/// project, to `%HOME%` inside home; reserved bytes percent-encoded. Elsewhere (a
/// tool's installed package) `None`: no machine's path goes into the log.
pub(crate) fn uri(path: &Path, roots: &crate::model::Roots) -> Option<(String, &'static str)> {
    let encode = |s: &str| {
        let mut out = String::new();
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    };
    let path = crate::model::normalize(path);
    let relative = |base: &Path| path.strip_prefix(crate::model::normalize(base)).ok().map(|r| encode(&crate::model::posix(r)));
    match (relative(&roots.project), relative(&roots.home)) {
        (Some(rel), _) if !rel.is_empty() => Some((rel, "%SRCROOT%")),
        (_, Some(rel)) if !rel.is_empty() => Some((rel, "%HOME%")),
        _ => None,
    }
}

/// Whether a finding is printed: what fails the run, errors and warnings; the notes
/// (skipped files, built-ins not installed) only when asked for (`--notes`).
pub fn shown_finding(f: &Finding, notes: bool) -> bool {
    f.fails || f.level != Severity::Info || (notes && matches!(f.class, Class::Skipped | Class::Note))
}

/// The SARIF rule of a finding: one per class of finding, so that code scanning
/// groups like with like (a key a tool ignores is not a definition it rejects).
fn sarif_rule(f: &Finding) -> &'static str {
    match (f.class, f.rule, f.level) {
        (Class::Warning, "skipped", _) => "ignored-definition",
        (_, "parse", Severity::Error) => "parse-error",
        (_, "parse", _) => "parse-warning",
        (_, "validation", Severity::Error) => "invalid-definition",
        (_, "validation", _) => "ignored-value",
        (_, rule, _) => rule,
    }
}

/// The findings as one SARIF 2.1.0 log: those shown ([`shown_finding`]) with a file
/// as results, the others as the run's notifications.
pub fn sarif(findings: &[Finding], roots: &crate::model::Roots, notes: bool) -> Value {
    let mut rules: Vec<&'static str> = Vec::new();
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for f in findings.iter().filter(|f| shown_finding(f, notes)) {
        let message = json!({ "text": format!("{} ({})", f.message, f.tool) });
        let Some((uri, base)) = f.path.as_deref().and_then(|p| uri(p, roots)) else {
            notifications.push(json!({ "level": sarif_level(f), "message": message, "descriptor": { "id": sarif_rule(f) } }));
            continue;
        };
        let rule = sarif_rule(f);
        if !rules.contains(&rule) {
            rules.push(rule);
        }
        let mut physical = json!({ "artifactLocation": { "uri": uri, "uriBaseId": base } });
        if let Some(line) = f.line.filter(|l| *l > 0) {
            let mut region = json!({ "startLine": line });
            if let Some(col) = f.col.filter(|c| *c > 0) {
                region["startColumn"] = json!(col);
            }
            physical["region"] = region;
        }
        results.push(json!({
            "ruleId": rule,
            "ruleIndex": rules.iter().position(|r| *r == rule).unwrap_or(0),
            "level": sarif_level(f),
            "message": message,
            "locations": [{ "physicalLocation": physical }],
            "partialFingerprints": { "agentry/v1": f.fingerprint },
            "properties": { "tool": f.tool, "class": f.class.as_str() },
        }));
    }
    let rule_objects: Vec<Value> = rules
        .iter()
        .map(|r| {
            let (short, help) = rule_text(r);
            json!({ "id": r, "name": r, "shortDescription": { "text": short }, "help": { "text": help } })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "agentry",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://crates.io/crates/agentry",
                "rules": rule_objects,
            }},
            "originalUriBaseIds": {
                "%SRCROOT%": { "description": { "text": "the project root (the repository)" } },
                "%HOME%": { "description": { "text": "the home folder of the user whose tools read the agents (~)" } },
            },
            "invocations": [{ "executionSuccessful": true, "toolExecutionNotifications": notifications }],
            "results": results,
        }],
    })
}

/// A rule's one-line description and its help: what it means and what to do.
fn rule_text(rule: &str) -> (&'static str, &'static str) {
    match rule {
        "parse-error" => ("A definition file the tool cannot parse", "The tool does not load this file. Fix the syntax at the line shown (`agentry file PATH` shows how each tool reads it)."),
        "parse-warning" => ("A definition the tool parses differently from what the text suggests", "The tool loads the file but reads part of it differently. Check the line shown."),
        "invalid-definition" => ("A definition the tool rejects", "The tool refuses this definition (a required key missing or a value of the wrong kind). Fix the key at the line shown."),
        "ignored-value" => ("A key or value the tool ignores or drops", "The tool loads the definition without this key or value. If another tool reads the key, the message says so; `.agentry.yaml` `tools:` limits the check to the tools the project uses."),
        "ignored-definition" => ("A file in the tool's agents folder that it ignores without a word", "The tool skips this file silently (for example, no `name` in the front matter). Fix it, or move it out of the agents folder."),
        "missing" => ("A reference to a file or agent that does not exist", "Create the file or agent, or correct the reference."),
        "cycle" => ("An inheritance cycle", "Definitions extend each other in a loop; break the loop."),
        "io" => ("A file that cannot be read", "Check the file's permissions, its symlink target and its size."),
        "template" => ("A prompt template that cannot be rendered", "Fix the template syntax at the line shown."),
        "builtins" => ("The tool's built-in agents were not found", "Install the tool where agentry looks, or name the built-ins with --builtins DIR."),
        "dialect" => ("A file two dialects read differently", "Choose the dialect with --dialect, or write the file so both read it alike."),
        "ambiguous" => ("A value the tool reads differently from what the text suggests", "Quote or rewrite the value so the tool reads what you mean."),
        "skipped" => ("A file in a scanned place that the tool ignores", "The tool passes over this file; nothing to do unless it was meant to be an agent."),
        "release" => ("The installed tool is another release than the one agentry follows", "agentry reads files as the release it follows does; check the tool's changelog, or install that release."),
        "held" => ("A definition not loaded until the project is trusted", "The tool loads it once you trust (acknowledge) the project folder."),
        "shadowed" => ("A definition hidden by another of the same name", "Rename one of the two, or remove the one you do not want (`agentry diff NAME` compares them)."),
        "undocumented" => ("A winner picked by an order the tool does not promise", "Two definitions of one name are ranked by the file system's order; rename one so the choice is explicit."),
        _ => ("An agentry finding", "See `agentry check --help`."),
    }
}

/// GitHub's escaping of an annotation's message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// GitHub's escaping of an annotation's property value.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The annotations GitHub shows per kind (error, warning, notice) in one step.
pub const GITHUB_LIMIT: usize = 10;

/// The annotation kind of a finding.
pub fn github_kind(f: &Finding) -> &'static str {
    match (f.fails, f.level) {
        (true, _) | (_, Severity::Error) => "error",
        (_, Severity::Warning) => "warning",
        _ => "notice",
    }
}

/// The annotations of the shown findings: at most [`GITHUB_LIMIT`] of each kind (one
/// fewer notices), then one notice counting those left out, which the step summary
/// lists.
pub fn github_all(findings: &[&Finding], shown_path: &dyn Fn(&Finding) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut left_out: Vec<(&str, usize)> = Vec::new();
    for kind in ["error", "warning", "notice"] {
        let of_kind: Vec<_> = findings.iter().filter(|f| github_kind(f) == kind).collect();
        let room = if kind == "notice" { GITHUB_LIMIT - 1 } else { GITHUB_LIMIT };
        for f in of_kind.iter().take(room) {
            out.push(github(f, shown_path(f).as_deref()));
        }
        if of_kind.len() > room {
            left_out.push((kind, of_kind.len() - room));
        }
    }
    if !left_out.is_empty() {
        let counts: Vec<String> = left_out.iter().map(|(k, n)| format!("{n} {k}{}", if *n == 1 { "" } else { "s" })).collect();
        out.push(format!(
            "::notice title=agentry::{} not annotated (GitHub shows {GITHUB_LIMIT} of a kind per step); the job summary lists every finding",
            counts.join(", ")
        ));
    }
    out
}

/// The step summary (`$GITHUB_STEP_SUMMARY`): every shown finding as a Markdown table.
pub fn github_summary(findings: &[&Finding], shown_path: &dyn Fn(&Finding) -> Option<String>, totals: &str) -> String {
    let cell = |s: &str| crate::text::sanitize::line(s).replace('|', "\\|");
    let mut out = format!("### agentry check\n\n{}\n", cell(totals));
    if !findings.is_empty() {
        out.push_str("\n| kind | file | tool | finding |\n|---|---|---|---|\n");
        for f in findings {
            let mut at = shown_path(f).unwrap_or_default();
            if let Some(l) = f.line {
                at.push_str(&format!(":{l}"));
            }
            out.push_str(&format!("| {} | `{}` | {} | {}: {} |\n", github_kind(f), cell(&at), f.tool, f.rule, cell(&f.message)));
        }
    }
    out
}

/// One workflow command per finding: `::error file=…,line=…,col=…,title=…::message`;
/// what fails the run is an error, warnings are warnings, the rest notices.
pub fn github(f: &Finding, shown_path: Option<&str>) -> String {
    let command = github_kind(f);
    let mut props = Vec::new();
    // GitHub places an annotation on a file of the checkout only: a file elsewhere
    // (`~/…`) is named in the message.
    let (shown_path, elsewhere) = match shown_path {
        Some(p) if p.starts_with('~') || p.starts_with('/') => (None, Some(p)),
        other => (other, None),
    };
    if let Some(p) = shown_path {
        props.push(format!("file={}", escape_property(p)));
        if let Some(l) = f.line {
            props.push(format!("line={l}"));
            if let Some(c) = f.col {
                props.push(format!("col={c}"));
            }
        }
    }
    props.push(format!("title={}", escape_property(&format!("agentry {} ({})", f.rule, f.tool))));
    let message = match elsewhere {
        Some(p) => format!("{p}: {}", f.message),
        None => f.message.clone(),
    };
    format!("::{command} {}::{}", props.join(","), escape_data(&crate::text::sanitize::text(&message)))
}

