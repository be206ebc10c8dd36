//! The resolution report (`agentry.resolution/1`, see README): one framework's
//! decisions in the form the frameworks' own loaders print them, so the two can be
//! compared key by key.
//!
//! The document borrows from the report ([`Document`]) and is written straight out:
//! a JSON tree of it would copy every field value and prompt first (on `large`, the
//! copy cost more than the writing).

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as Json;

use crate::model::{Agent, Diagnostic, EcosystemReport, Field, Severity, Status};

pub const FORMAT: &str = "agentry.resolution/1";

/// The report as a JSON value (tests compare it with the oracle's).
pub fn report(r: &EcosystemReport) -> Json {
    serde_json::to_value(document(r)).unwrap_or(Json::Null)
}

/// The report, pretty-printed to `out`.
pub fn write(r: &EcosystemReport, out: &mut dyn std::io::Write) -> serde_json::Result<()> {
    serde_json::to_writer_pretty(out, &document(r))
}

/// What the report says, borrowed from the framework's report.
#[derive(serde::Serialize)]
pub struct Document<'a> {
    format: &'static str,
    ecosystem: &'a str,
    agents: Vec<AgentEntry<'a>>,
    errors: Vec<ErrorEntry<'a>>,
}

#[derive(serde::Serialize)]
struct AgentEntry<'a> {
    name: &'a str,
    source: String,
    status: &'static str,
    shadowed_by: &'a Option<String>,
    chain: &'a [String],
    fields: Fields<'a>,
    system_prompt: Option<&'a str>,
}

#[derive(serde::Serialize)]
struct ErrorEntry<'a> {
    source: &'a str,
    kind: &'static str,
    message: &'a str,
    line: Option<u32>,
}

/// An agent's fields as one JSON object, by key in order.
struct Fields<'a>(&'a [Field]);

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fields = self.0;
        let repeated = fields.iter().enumerate().any(|(i, f)| fields[..i].iter().any(|g| g.key == f.key));
        if repeated {
            // As a JSON object keeps it: the first position, the last value.
            let map: serde_json::Map<String, Json> = fields.iter().map(|f| (f.key.clone(), f.value.clone())).collect();
            return map.serialize(s);
        }
        let mut map = s.serialize_map(Some(fields.len()))?;
        for f in fields {
            map.serialize_entry(&f.key, &f.value)?;
        }
        map.end()
    }
}

pub fn document(r: &EcosystemReport) -> Document<'_> {
    Document {
        format: FORMAT,
        ecosystem: r.ecosystem,
        agents: r.agents.iter().filter(|a| a.status != Status::Invalid).map(agent_entry).collect(),
        errors: r.diagnostics.iter().filter_map(error_entry).collect(),
    }
}

fn agent_entry(a: &Agent) -> AgentEntry<'_> {
    AgentEntry {
        name: &a.name,
        source: a.source.key(),
        status: if a.status.is_active() { "active" } else { "shadowed" },
        shadowed_by: &a.shadowed_by,
        chain: &a.chain,
        fields: Fields(&a.fields),
        system_prompt: a.system_prompt.as_deref(),
    }
}

fn error_entry(d: &Diagnostic) -> Option<ErrorEntry<'_>> {
    if d.severity != Severity::Error {
        return None;
    }
    Some(ErrorEntry { source: d.source.as_deref()?, kind: d.kind.as_str(), message: &d.message, line: d.line })
}
