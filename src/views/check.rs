//! `agentry check`: every finding of the catalog in one list (diagnostics, held,
//! shadowed and undocumented-order definitions) and what fails the run (`--fail-on`,
//! `--baseline`); [`super::ci`] writes them as SARIF 2.1.0 and GitHub annotations.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

pub use super::ci::{github, github_all, github_kind, github_summary, sarif, shown_finding, GITHUB_LIMIT};

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
    pub tool: &'static str,
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

/// Every finding of `catalog`, sorted by path (findings about no file last), line
/// and column; at one place diagnostics come before definitions' findings.
pub fn findings(catalog: &Catalog) -> Vec<Finding> {
    let roots = &catalog.roots;
    // Below the project relative to it, below home `~/…`: the same on every machine.
    let rel = |p: &Path| if p.as_os_str().is_empty() { String::new() } else { super::shown(p, roots) };
    let readers = KeyReaders::of(catalog);
    let mut out = Vec::new();
    for d in catalog.diagnostics() {
        let class = match (d.severity, d.kind) {
            (Severity::Error, _) => Class::Error,
            // A file the tool ignores without a word where the user put an agent.
            (Severity::Warning, _) => Class::Warning,
            (_, DiagKind::Skipped) => Class::Skipped,
            (Severity::Info, _) => Class::Note,
        };
        let path = (!d.path.as_os_str().is_empty()).then(|| d.path.clone());
        let mut message = super::quoted(&d.message, roots);
        if let Some(title) = super::refusal::stops(catalog, d) {
            message = super::refusal::stopping_message(title, &message);
        }
        if d.severity == Severity::Warning {
            if let Some(line) = d.line {
                message.push_str(&readers.also_read(d.ecosystem, &d.path, line, &d.message));
            }
        }
        let fingerprint =
            format!("{}|{}|{}|{}|{}", class.as_str(), d.ecosystem, d.kind.as_str(), rel(&d.path), super::quoted(&d.message, roots));
        out.push(Finding {
            class,
            rule: d.kind.as_str(),
            level: d.severity,
            tool: d.ecosystem,
            path,
            line: d.line,
            col: d.col,
            message,
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
            tool: a.ecosystem,
            path,
            line: None,
            col: None,
            message,
            fingerprint,
            fails: false,
        });
    }
    // The project's files first, then home's and the rest; stable: at one place, the
    // catalog's order.
    let outside = |p: &Option<PathBuf>| p.as_ref().map_or(2, |p| u8::from(!p.starts_with(&roots.project)));
    out.sort_by(|a, b| {
        (outside(&a.path), &a.path, a.line.unwrap_or(0), a.col.unwrap_or(0)).cmp(&(
            outside(&b.path),
            &b.path,
            b.line.unwrap_or(0),
            b.col.unwrap_or(0),
        ))
    });
    out
}

/// Which tools read which key lines of which files, for a warning about a key one
/// tool ignores: the shown tools' definitions by file.
struct KeyReaders<'a> {
    by_path: std::collections::HashMap<&'a Path, Vec<&'a crate::model::Agent>>,
}

impl<'a> KeyReaders<'a> {
    fn of(catalog: &'a Catalog) -> KeyReaders<'a> {
        let mut by_path: std::collections::HashMap<&Path, Vec<&crate::model::Agent>> = Default::default();
        // Only warnings at a line ask; a workspace without any pays nothing.
        let asked = catalog.diagnostics().any(|d| d.severity == Severity::Warning && d.line.is_some());
        if asked {
            for a in catalog.agents().filter(|a| !a.source.is_compiled_in() && !a.status.is_unloaded()) {
                by_path.entry(&a.source.path).or_default().push(a);
            }
        }
        KeyReaders { by_path }
    }

    /// `"; claude-code reads `maxTurns`"` when another shown tool takes a field from
    /// the key at `line` of `path`, which `ecosystem` warns about.
    fn also_read(&self, ecosystem: &str, path: &Path, line: u32, message: &str) -> String {
        let Some(agents) = self.by_path.get(path) else { return String::new() };
        // The keys the warning is about: the one on its line, and those it names.
        let names = |key: &str| {
            message.match_indices(key).any(|(i, _)| {
                let before = message[..i].chars().next_back();
                let after = message[i + key.len()..].chars().next();
                let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != '-');
                edge(before) && edge(after)
            })
        };
        let mut readers: Vec<(&str, Vec<String>)> = Vec::new();
        for a in agents.iter().filter(|a| a.ecosystem != ecosystem) {
            for (key, _) in a.attributes.lines().filter(|(k, l)| *l == line || names(k)) {
                if a.fields.iter().any(|f| f.key == key) {
                    let at = readers.iter().position(|(t, _)| *t == a.ecosystem).unwrap_or(readers.len());
                    if at == readers.len() {
                        readers.push((a.ecosystem, Vec::new()));
                    }
                    let keys = &mut readers[at].1;
                    if !keys.iter().any(|k| k == key) {
                        keys.push(key.to_string());
                    }
                }
            }
        }
        if readers.is_empty() {
            return String::new();
        }
        let said: Vec<String> = readers
            .iter()
            .map(|(tool, keys)| format!("{tool} reads {}", keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")))
            .collect();
        format!(" ({}; only {ecosystem} ignores {})", said.join("; "), if readers.iter().map(|(_, k)| k.len()).sum::<usize>() == 1 { "it" } else { "them" })
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::ci::uri;

    fn finding(class: Class, level: Severity, fp: &str) -> Finding {
        Finding {
            class,
            rule: class.as_str(),
            level,
            tool: "toy",
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
    fn uris_are_relative_to_the_project_or_home_and_encoded() {
        let roots = crate::model::Roots::new("/p".into(), "/h".into(), "/h/.config".into(), None);
        assert_eq!(uri(Path::new("/p/a b/c#.md"), &roots), Some(("a%20b/c%23.md".into(), "%SRCROOT%")));
        assert_eq!(uri(Path::new("/h/x.md"), &roots), Some(("x.md".into(), "%HOME%")));
        assert_eq!(uri(Path::new("/usr/lib/x.md"), &roots), None);
        assert_eq!(uri(Path::new("/p"), &roots), None);
    }

    #[test]
    fn annotations_stop_at_githubs_limit_and_count_the_rest() {
        let fs: Vec<Finding> = (0..12).map(|i| finding(Class::Warning, Severity::Warning, &i.to_string())).collect();
        let refs: Vec<&Finding> = fs.iter().collect();
        let lines = github_all(&refs, &|_| Some("a.md".into()));
        assert_eq!(lines.iter().filter(|l| l.starts_with("::warning")).count(), GITHUB_LIMIT);
        assert_eq!(lines.last().map(String::as_str), Some("::notice title=agentry::2 warnings not annotated (GitHub shows 10 of a kind per step); the job summary lists every finding"));
        assert!(github_summary(&refs, &|_| Some("a.md".into()), "t").lines().filter(|l| l.starts_with("| warning")).count() == 12);
    }
}
