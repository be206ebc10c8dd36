//! The resolution report (`agentry.resolution/1`, see README): one framework's
//! decisions in the form the frameworks' own loaders print them, so the two can be
//! compared key by key.
//!
//! The document borrows from the report ([`Document`]) and is written straight out:
//! a JSON tree of it would copy every field value and prompt first (on `large`, the
//! copy cost more than the writing).

mod pretty;


use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as Json;

use crate::model::{Agent, CompactJson, Diagnostic, EcosystemReport, Field, Kind, Scope, Status, Text};

pub const FORMAT: &str = "agentry.resolution/1";

/// The report as a JSON value (tests compare it with the oracle's).
pub fn report(r: &EcosystemReport) -> Json {
    serde_json::to_value(document(r)).unwrap_or(Json::Null)
}

/// The report, pretty-printed to `out`: byte for byte what
/// `serde_json::to_writer_pretty` prints of [`document`], but with the agents printed
/// on every core by `pretty` (serde_json's string escaping, a byte at a time, was a
/// quarter of an export of `large`), a few agents to a buffer. A batch at a time
/// keeps the buffers few.
pub fn write(r: &EcosystemReport, out: &mut dyn std::io::Write) -> serde_json::Result<()> {
    use rayon::prelude::*;
    const BATCH: usize = 512;
    const PER_BUFFER: usize = 32;
    // The entries are made where they are printed: a source key each is a string.
    let agents: Vec<&Agent> = shown(r, Kind::Agent).collect();
    let skills: Vec<SkillEntry<'_>> = shown(r, Kind::Skill).map(skill_entry).collect();
    let errors: Vec<ErrorEntry<'_>> = errors(r).collect();
    let raw = |bytes: &[u8], out: &mut dyn std::io::Write| out.write_all(bytes).map_err(serde_json::Error::io);
    raw(b"{\n  \"format\": ", out)?;
    serde_json::to_writer(&mut *out, FORMAT)?;
    raw(b",\n  \"ecosystem\": ", out)?;
    serde_json::to_writer(&mut *out, r.ecosystem)?;
    raw(b",\n  \"agents\": ", out)?;
    if agents.is_empty() {
        raw(b"[]", out)?;
    } else {
        raw(b"[", out)?;
        for (b, batch) in agents.chunks(BATCH).enumerate() {
            let printed: Vec<Vec<u8>> = batch.par_chunks(PER_BUFFER).map(elements).collect::<serde_json::Result<_>>()?;
            for (i, bytes) in printed.iter().enumerate() {
                // Every element comes after a comma but the array's first.
                raw(if b == 0 && i == 0 { &bytes[1..] } else { bytes }, out)?;
            }
        }
        raw(b"\n  ]", out)?;
    }
    if let Some(listing) = &r.agent_listing {
        raw(b",\n  \"agent_listing\": ", out)?;
        serde_json::to_writer(&mut *out, listing)?;
    }
    raw(b",\n  \"errors\": ", out)?;
    // The errors and skills are few: printed as a nested value of the document is.
    let mut printer = serde_json::Serializer::with_formatter(&mut *out, nested(1)?);
    errors.serialize(&mut printer)?;
    raw(b",\n  \"skills\": ", out)?;
    let mut printer = serde_json::Serializer::with_formatter(&mut *out, nested(1)?);
    skills.serialize(&mut printer)?;
    raw(b"\n}", out)
}

/// Elements of the document's `agents`, each after a comma and on a line of its own,
/// as they are nested there.
fn elements(agents: &[&Agent]) -> serde_json::Result<Vec<u8>> {
    // Room for the prompts and what usually comes with them: one allocation mostly.
    let size: usize = agents.iter().map(|a| 2048 + a.system_prompt.as_ref().map_or(0, Text::len)).sum();
    let mut out = Vec::with_capacity(size);
    for agent in agents {
        out.push(b',');
        pretty::newline(&mut out, 2);
        agent_entry(agent).print(&mut out)?;
    }
    Ok(out)
}

/// serde_json's pretty printer as it stands `depth` arrays or objects deep: opening
/// them is all that sets its indentation (its state is private).
fn nested(depth: usize) -> serde_json::Result<serde_json::ser::PrettyFormatter<'static>> {
    use serde_json::ser::Formatter;
    let mut formatter = serde_json::ser::PrettyFormatter::new();
    for _ in 0..depth {
        formatter.begin_array(&mut std::io::sink()).map_err(serde_json::Error::io)?;
    }
    Ok(formatter)
}

/// What the report says, borrowed from the framework's report.
#[derive(serde::Serialize)]
pub struct Document<'a> {
    format: &'static str,
    ecosystem: &'a str,
    agents: Vec<AgentEntry<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_listing: Option<&'a str>,
    errors: Vec<ErrorEntry<'a>>,
    skills: Vec<SkillEntry<'a>>,
}

#[derive(serde::Serialize)]
struct AgentEntry<'a> {
    name: &'a str,
    source: String,
    status: &'static str,
    shadowed_by: &'a Option<String>,
    chain: &'a [String],
    fields: Fields,
    system_prompt: Option<&'a Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    listed: Option<bool>,
}

/// A skill as FORMAT.md "Skills" has it: a built-in one by its name only.
#[derive(serde::Serialize)]
struct SkillEntry<'a> {
    name: &'a str,
    source: String,
    status: &'static str,
    shadowed_by: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fields: Option<Fields>,
    #[serde(skip_serializing_if = "Option::is_none")]
    listed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a Text>,
}

#[derive(serde::Serialize)]
struct ErrorEntry<'a> {
    source: &'a str,
    kind: &'static str,
    message: &'a str,
    line: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    fatal: bool,
    #[serde(skip_serializing_if = "Kind::is_agent")]
    object: Kind,
}

impl AgentEntry<'_> {
    /// The entry as [`write`] prints it, an element of the document's `agents`
    /// (its closing brace two levels deep), by [`pretty`].
    fn print(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        const DEPTH: usize = 2;
        let opt = |out: &mut Vec<u8>, s: Option<&str>| match s {
            Some(s) => pretty::string(out, s),
            None => out.extend_from_slice(b"null"),
        };
        out.push(b'{');
        pretty::key(out, DEPTH + 1, 0, "name");
        pretty::string(out, self.name);
        pretty::key(out, DEPTH + 1, 1, "source");
        pretty::string(out, &self.source);
        pretty::key(out, DEPTH + 1, 2, "status");
        pretty::string(out, self.status);
        pretty::key(out, DEPTH + 1, 3, "shadowed_by");
        opt(out, self.shadowed_by.as_deref());
        pretty::key(out, DEPTH + 1, 4, "chain");
        pretty::array(out, DEPTH + 1, self.chain, |out, key| {
            pretty::string(out, key);
            Ok(())
        })?;
        pretty::key(out, DEPTH + 1, 5, "fields");
        self.fields.print(out, DEPTH + 1)?;
        pretty::key(out, DEPTH + 1, 6, "system_prompt");
        let prompt = self.system_prompt.map(Text::read).transpose().map_err(serde::ser::Error::custom)?;
        opt(out, prompt.as_deref());
        if let Some(listed) = self.listed {
            pretty::key(out, DEPTH + 1, 7, "listed");
            out.extend_from_slice(if listed { b"true" } else { b"false" });
        }
        pretty::newline(out, DEPTH);
        out.push(b'}');
        Ok(())
    }
}

/// An agent's fields as one JSON object, by key in order (unpacked).
struct Fields(Vec<Field>);

impl Fields {
    /// The object's entries. As a JSON object keeps repeated keys: the first
    /// position, the last value.
    fn entries(&self) -> Vec<(&str, &CompactJson)> {
        let fields = &self.0;
        let mut entries: Vec<(&str, &CompactJson)> = Vec::with_capacity(fields.len());
        for f in fields {
            match entries.iter_mut().find(|(k, _)| *k == f.key) {
                Some(entry) => entry.1 = &f.value,
                None => entries.push((&f.key, &f.value)),
            }
        }
        entries
    }

    /// The object at `depth`, as serialising it prints it there.
    fn print(&self, out: &mut Vec<u8>, depth: usize) -> serde_json::Result<()> {
        pretty::object(out, depth, self.entries())
    }
}

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let entries = self.entries();
        let mut map = s.serialize_map(Some(entries.len()))?;
        for (k, v) in entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

pub fn document(r: &EcosystemReport) -> Document<'_> {
    Document {
        format: FORMAT,
        ecosystem: r.ecosystem,
        agents: shown(r, Kind::Agent).map(agent_entry).collect(),
        agent_listing: r.agent_listing.as_deref(),
        errors: errors(r).collect(),
        skills: shown(r, Kind::Skill).map(skill_entry).collect(),
    }
}

/// The definitions of `kind` the tool shows: none when it refuses to start (FORMAT.md:
/// `agents` is then empty), though agentry keeps each one's own status for its views.
fn shown(r: &EcosystemReport, kind: Kind) -> impl Iterator<Item = &Agent> {
    let refused = r.refusal().is_some();
    r.agents.iter().filter(move |a| !refused && listed(a, kind))
}

/// The report's errors: when the tool refuses to start, only what stops it (a file
/// it would otherwise drop is never reached).
fn errors(r: &EcosystemReport) -> impl Iterator<Item = ErrorEntry<'_>> {
    let refused = r.refusal().is_some();
    r.diagnostics.iter().filter(move |d| !refused || d.fatal).filter_map(error_entry)
}

/// Whether the document lists the definition among those of `kind`: a file that
/// failed to load is an error.
fn listed(a: &Agent, kind: Kind) -> bool {
    a.kind == kind && !a.status.is_unloaded()
}

/// The report's word for a status (`active`, `shadowed`, `held`).
fn report_word(status: Status) -> &'static str {
    match status {
        Status::Wins => "active",
        Status::Held => "held",
        Status::Skipped => "skipped",
        Status::Invalid => "invalid",
        Status::Shadowed | Status::Equivalent => "shadowed",
    }
}

fn agent_entry(a: &Agent) -> AgentEntry<'_> {
    AgentEntry {
        name: &a.name,
        source: a.source.key(),
        status: report_word(a.status),
        shadowed_by: &a.shadowed_by,
        chain: &a.chain,
        fields: Fields(a.fields.iter().collect()),
        system_prompt: a.system_prompt.as_ref(),
        listed: a.listed,
    }
}

fn skill_entry(a: &Agent) -> SkillEntry<'_> {
    let builtin = a.source.scope == Scope::Builtin;
    SkillEntry {
        name: &a.name,
        source: a.source.key(),
        status: report_word(a.status),
        shadowed_by: &a.shadowed_by,
        fields: (!builtin).then(|| Fields(a.fields.iter().collect())),
        listed: if builtin { None } else { a.listed },
        body: if builtin { None } else { a.system_prompt.as_ref() },
    }
}

fn error_entry(d: &Diagnostic) -> Option<ErrorEntry<'_>> {
    // Every definition the tool failed to load is an error of the report, whatever
    // its weight for the workspace (a skipped file, a file read only on demand).
    Some(ErrorEntry { source: d.source.as_deref()?, kind: d.kind.as_str(), message: &d.message, line: d.line, fatal: d.fatal, object: d.object })
}

/// A report's bare `NaN`, `Infinity` and `-Infinity` (outside strings) as strings:
/// the text a strict JSON reader (serde_json) takes, spelt as agentry's other
/// `--json` outputs spell those values.
pub fn with_constants_quoted(text: &str) -> String {
    let (mut out, mut in_string, mut escaped, mut rest) = (String::new(), false, false, text);
    while let Some(c) = rest.chars().next() {
        if let Some(k) = ["-Infinity", "Infinity", "NaN"].into_iter().find(|k| !in_string && rest.starts_with(k)) {
            out.push_str(&format!("\"{k}\""));
            rest = &rest[k.len()..];
            continue;
        }
        if c == '"' && !escaped {
            in_string = !in_string;
        }
        escaped = in_string && !escaped && c == '\\';
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use crate::discover::FileCache;
    use crate::frameworks::RenderMode;
    use crate::load::{load, LoadOptions};
    use crate::model::Roots;

    /// `write` prints what serde_json's pretty printer prints of the document, for
    /// every fixture case of every framework (empty reports and errors included),
    /// but a non-finite float bare, as Python's `json.dumps` does (serde_json: a string).
    #[test]
    fn write_prints_the_document_as_serde_json_does() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let empty = std::env::temp_dir().join(format!("agentry-export-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let mut compared = 0;
        for ecosystem in crate::frameworks::all().iter().map(|f| f.id()) {
            let Ok(cases) = std::fs::read_dir(fixtures.join(ecosystem)) else { continue };
            for case in cases {
                let case = case.unwrap().path();
                let xdg = case.join("xdg");
                let opts = LoadOptions {
                    roots: Roots::new(case.join("project"), case.join("home"), if xdg.is_dir() { xdg } else { case.join("home/.config") }, Some(empty.clone())),
                    ecosystems: vec![ecosystem.to_string()],
                    render: RenderMode::Export,
                    env: BTreeMap::new(),
                    options: BTreeMap::new(),
                    texts: crate::model::TextForm::Held,
                };
                let catalog = load(&opts, &FileCache::new(), 1);
                let report = &catalog.reports[0];
                let mut written = Vec::new();
                super::write(report, &mut written).unwrap();
                let expected = serde_json::to_vec_pretty(&super::document(report)).unwrap();
                assert_eq!(super::with_constants_quoted(&String::from_utf8_lossy(&written)), String::from_utf8_lossy(&expected), "{}", case.display());
                compared += 1;
            }
        }
        let _ = std::fs::remove_dir_all(&empty);
        assert!(compared > 20, "only {compared} cases");
    }

    /// A float a Python tool keeps that is not finite: bare in the report, as the
    /// oracle's `json.dumps` writes it; a string in agentry's other JSON (valid JSON).
    #[test]
    fn nonfinite_floats_are_bare_in_the_report_and_strings_elsewhere() {
        let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fast-agent/nonfinite-floats");
        let empty = std::env::temp_dir().join(format!("agentry-export-nonfinite-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let opts = LoadOptions {
            roots: Roots::new(case.join("project"), case.join("home"), case.join("home/.config"), Some(empty.clone())),
            ecosystems: vec!["fast-agent".to_string()],
            render: RenderMode::Export,
            env: BTreeMap::new(),
            options: BTreeMap::new(),
            texts: crate::model::TextForm::Held,
        };
        let catalog = load(&opts, &FileCache::new(), 1);
        let mut written = Vec::new();
        super::write(&catalog.reports[0], &mut written).unwrap();
        let _ = std::fs::remove_dir_all(&empty);
        let text = String::from_utf8(written).unwrap();
        assert!(text.contains("\"model\": -Infinity,"), "{text}");
        assert!(text.contains("\"model\": NaN,"), "{text}");
        assert!(text.contains("\"temperature\": Infinity,"), "{text}");
        assert!(!text.contains("\"Infinity\"") && !text.contains("\"NaN\""), "{text}");
        let json = serde_json::to_string(&super::document(&catalog.reports[0])).unwrap();
        assert!(json.contains("\"model\":\"-Infinity\""), "{json}");
    }
}
