//! `agentry check`: every finding of the catalog in one list (diagnostics, held,
//! shadowed and undocumented-order definitions), what fails the run (`--fail-on`,
//! `--baseline`), and the findings as SARIF 2.1.0 and GitHub workflow annotations.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{json, Value};

use crate::model::{Catalog, DiagKind, Severity, Status};

/// What a finding is, as `--fail-on` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    Error,
    Warning,
    Skipped,
    Held,
    Shadowed,
    Undocumented,
    /// Information that never fails a run (a missing built-ins package).
    Note,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Error => "error",
            Class::Warning => "warning",
            Class::Skipped => "skipped",
            Class::Held => "held",
            Class::Shadowed => "shadowed",
            Class::Undocumented => "undocumented",
            Class::Note => "note",
        }
    }
}

/// What `--fail-on` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Class(Class),
    /// Shadowed findings not in the baseline.
    NewShadow,
}

impl std::str::FromStr for FailOn {
    type Err = String;
    fn from_str(s: &str) -> Result<FailOn, String> {
        use Class::*;
        if s == "new-shadow" {
            return Ok(FailOn::NewShadow);
        }
        let classes = [Error, Warning, Skipped, Held, Shadowed, Undocumented];
        classes.into_iter().find(|c| c.as_str() == s).map(FailOn::Class).ok_or_else(|| {
            format!("unknown --fail-on `{s}` (error, warning, skipped, held, shadowed, undocumented, new-shadow)")
        })
    }
}

/// One finding.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub class: Class,
    /// The rule id: the diagnostic's kind (`parse`, `validation`, …) or the class.
    pub rule: &'static str,
    pub level: Severity,
    pub ecosystem: &'static str,
    pub path: Option<PathBuf>,
    pub line: Option<u32>,
    pub col: Option<u32>,
    pub message: String,
    /// Stable across line moves, for `--baseline`: class, framework, rule, the
    /// path below the project and what the finding is about.
    pub fingerprint: String,
    /// Set when this finding fails the run.
    pub fails: bool,
}

/// Every finding of `catalog`, diagnostics first, in the catalog's order.
pub fn findings(catalog: &Catalog) -> Vec<Finding> {
    let project = &catalog.roots.project;
    let rel =
        |p: &Path| p.strip_prefix(project).map(|r| r.display().to_string()).unwrap_or_else(|_| p.display().to_string());
    let mut out = Vec::new();
    for d in catalog.diagnostics() {
        let class = match (d.severity, d.kind) {
            (_, DiagKind::Skipped) => Class::Skipped,
            (Severity::Error, _) => Class::Error,
            (Severity::Warning, _) => Class::Warning,
            (Severity::Info, _) => Class::Note,
        };
        let path = (!d.path.as_os_str().is_empty()).then(|| d.path.clone());
        let fingerprint =
            format!("{}|{}|{}|{}|{}", class.as_str(), d.ecosystem, d.kind.as_str(), rel(&d.path), d.message);
        out.push(Finding {
            class,
            rule: d.kind.as_str(),
            level: d.severity,
            ecosystem: d.ecosystem,
            path,
            line: d.line,
            col: d.col,
            message: d.message.clone(),
            fingerprint,
            fails: false,
        });
    }
    for a in catalog.agents() {
        let path = (!a.source.is_compiled_in()).then(|| a.source.path.to_path_buf());
        let (class, message) = match a.status {
            Status::Held => (Class::Held, format!("`{}` ({}) is held: {}", a.name, a.source.key(), a.rule)),
            Status::Shadowed => (
                Class::Shadowed,
                format!(
                    "`{}` ({}) is shadowed by {}: {}",
                    a.name,
                    a.source.key(),
                    a.shadowed_by.as_deref().unwrap_or("another definition"),
                    a.rule
                ),
            ),
            Status::Wins if a.undocumented_order.is_some() => (
                Class::Undocumented,
                format!(
                    "`{}` ({}) wins by an order the tool does not promise: {}",
                    a.name,
                    a.source.key(),
                    a.undocumented_order.as_deref().unwrap_or("")
                ),
            ),
            _ => continue,
        };
        let fingerprint = format!(
            "{}|{}|{}|{}|{}",
            class.as_str(),
            a.ecosystem,
            a.name,
            a.source.key(),
            a.shadowed_by.as_deref().unwrap_or("")
        );
        out.push(Finding {
            class,
            rule: class.as_str(),
            level: Severity::Info,
            ecosystem: a.ecosystem,
            path,
            line: None,
            col: None,
            message,
            fingerprint,
            fails: false,
        });
    }
    out
}

/// Marks the findings that fail the run: errors always; the classes in `fail_on`
/// (`warning` also takes errors' place as a threshold); with a baseline, only
/// findings whose fingerprint it does not hold. Returns whether any fails.
pub fn gate(findings: &mut [Finding], fail_on: &[FailOn], baseline: Option<&BTreeSet<String>>) -> bool {
    let named = fail_on.iter().map(|f| match f {
        FailOn::Class(c) => *c,
        FailOn::NewShadow => Class::Shadowed,
    });
    let classes: BTreeSet<Class> = named.chain([Class::Error]).collect();
    let mut any = false;
    for f in findings.iter_mut() {
        let old = baseline.is_some_and(|b| b.contains(&f.fingerprint));
        f.fails = classes.contains(&f.class) && !old;
        any |= f.fails;
    }
    any
}

/// The fingerprints of a saved `check --format json`.
pub fn baseline(text: &str) -> Result<BTreeSet<String>, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("the baseline is not JSON: {e}"))?;
    let findings = doc
        .get("findings")
        .and_then(Value::as_array)
        .ok_or("the baseline has no `findings` (save it with `agentry check --format json`)")?;
    Ok(findings.iter().filter_map(|f| f.get("fingerprint").and_then(Value::as_str)).map(str::to_string).collect())
}

/// The SARIF level of a finding: what fails the run is an error.
fn sarif_level(f: &Finding) -> &'static str {
    match (f.fails, f.level) {
        (true, _) | (_, Severity::Error) => "error",
        (_, Severity::Warning) => "warning",
        _ => "note",
    }
}

/// A path as a URI reference: relative (to `%SRCROOT%`) inside the project,
/// else an absolute `file://` URI; reserved bytes percent-encoded.
fn uri(path: &Path, project: &Path) -> (String, bool) {
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
    match path.strip_prefix(project) {
        Ok(rel) => (encode(&crate::model::posix(rel)), true),
        Err(_) => (format!("file://{}", encode(&crate::model::posix(path))), false),
    }
}

/// The findings as one SARIF 2.1.0 log.
pub fn sarif(findings: &[Finding], project: &Path) -> Value {
    let mut rules: Vec<&'static str> = Vec::new();
    for f in findings {
        if !rules.contains(&f.rule) {
            rules.push(f.rule);
        }
    }
    let rule_objects: Vec<Value> =
        rules.iter().map(|r| json!({ "id": r, "name": r, "shortDescription": { "text": rule_text(r) } })).collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let mut result = json!({
                "ruleId": f.rule,
                "ruleIndex": rules.iter().position(|r| *r == f.rule).unwrap_or(0),
                "level": sarif_level(f),
                "message": { "text": format!("{} ({})", f.message, f.ecosystem) },
                "partialFingerprints": { "agentry/v1": f.fingerprint },
                "properties": { "ecosystem": f.ecosystem, "class": f.class.as_str() },
            });
            if let Some(path) = &f.path {
                let (uri, relative) = uri(path, project);
                let mut artifact = json!({ "uri": uri });
                if relative {
                    artifact["uriBaseId"] = json!("%SRCROOT%");
                }
                let mut physical = json!({ "artifactLocation": artifact });
                if let Some(line) = f.line.filter(|l| *l > 0) {
                    let mut region = json!({ "startLine": line });
                    if let Some(col) = f.col.filter(|c| *c > 0) {
                        region["startColumn"] = json!(col);
                    }
                    physical["region"] = region;
                }
                result["locations"] = json!([{ "physicalLocation": physical }]);
            }
            result
        })
        .collect();
    let (root, _) = uri(project, Path::new("\0"));
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
            "originalUriBaseIds": { "%SRCROOT%": { "uri": format!("{root}/") } },
            "results": results,
        }],
    })
}

fn rule_text(rule: &str) -> &'static str {
    match rule {
        "parse" => "A definition file the tool cannot parse",
        "validation" => "A definition the tool rejects",
        "missing" => "A reference to a file or agent that does not exist",
        "cycle" => "An inheritance cycle",
        "io" => "A file that cannot be read",
        "template" => "A prompt template that cannot be rendered",
        "builtins" => "The tool's built-in agents were not found",
        "dialect" => "A file two dialects read differently",
        "ambiguous" => "A value the tool reads differently from what the text suggests",
        "skipped" => "A file in a scanned place that the tool ignores",
        "release" => "The installed tool is another release than the one agentry follows",
        "held" => "A definition not loaded until the project is trusted",
        "shadowed" => "A definition hidden by another of the same name",
        "undocumented" => "A winner picked by an order the tool does not promise",
        _ => "An agentry finding",
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

/// One workflow command per finding: `::error file=…,line=…,col=…,title=…::message`;
/// what fails the run is an error, warnings are warnings, the rest notices.
pub fn github(f: &Finding, shown_path: Option<&str>) -> String {
    let command = match (f.fails, f.level) {
        (true, _) | (_, Severity::Error) => "error",
        (_, Severity::Warning) => "warning",
        _ => "notice",
    };
    let mut props = Vec::new();
    if let Some(p) = shown_path {
        props.push(format!("file={}", escape_property(p)));
        if let Some(l) = f.line {
            props.push(format!("line={l}"));
            if let Some(c) = f.col {
                props.push(format!("col={c}"));
            }
        }
    }
    props.push(format!("title={}", escape_property(&format!("agentry {} ({})", f.rule, f.ecosystem))));
    format!("::{command} {}::{}", props.join(","), escape_data(&crate::text::sanitize::text(&f.message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(class: Class, level: Severity, fp: &str) -> Finding {
        Finding {
            class,
            rule: class.as_str(),
            level,
            ecosystem: "toy",
            path: Some("/p/a.md".into()),
            line: Some(3),
            col: Some(2),
            message: "a, b: 100%\nnext".into(),
            fingerprint: fp.into(),
            fails: false,
        }
    }

    #[test]
    fn the_gate_fails_on_errors_and_the_chosen_classes_minus_the_baseline() {
        let mut fs =
            vec![finding(Class::Warning, Severity::Warning, "w"), finding(Class::Shadowed, Severity::Info, "s")];
        assert!(!gate(&mut fs, &[], None));
        assert!(gate(&mut fs, &[FailOn::Class(Class::Warning)], None));
        assert!(gate(&mut fs, &["new-shadow".parse().unwrap()], None));
        let base = BTreeSet::from(["s".to_string()]);
        assert!(!gate(&mut fs, &[FailOn::NewShadow], Some(&base)));
        fs.push(finding(Class::Error, Severity::Error, "e"));
        assert!(gate(&mut fs, &[], Some(&base)));
        assert!("sparkle".parse::<FailOn>().is_err());
    }

    #[test]
    fn annotations_escape_what_github_requires() {
        let f = finding(Class::Error, Severity::Error, "e");
        assert_eq!(
            github(&f, Some("d,1/a:b.md")),
            "::error file=d%2C1/a%3Ab.md,line=3,col=2,title=agentry error (toy)::a, b: 100%25%0Anext"
        );
    }

    #[test]
    fn uris_are_relative_inside_the_project_and_encoded() {
        assert_eq!(uri(Path::new("/p/a b/c#.md"), Path::new("/p")), ("a%20b/c%23.md".into(), true));
        assert_eq!(uri(Path::new("/h/x.md"), Path::new("/p")), ("file:///h/x.md".into(), false));
    }
}
