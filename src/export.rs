//! The resolution report (`agentry.resolution/1`, see README): one framework's
//! decisions in the form the frameworks' own loaders print them, so the two can be
//! compared key by key.

use serde_json::{json, Map, Value as Json};

use crate::model::{EcosystemReport, Severity, Status};

pub const FORMAT: &str = "agentry.resolution/1";

pub fn report(r: &EcosystemReport) -> Json {
    let agents: Vec<Json> = r
        .agents
        .iter()
        .filter(|a| a.status != Status::Invalid)
        .map(|a| {
            let fields: Map<String, Json> = a.fields.iter().map(|f| (f.key.clone(), f.value.clone())).collect();
            json!({
                "name": a.name,
                "source": a.source.key(),
                "status": if a.status.is_active() { "active" } else { "shadowed" },
                "shadowed_by": a.shadowed_by,
                "chain": a.chain,
                "fields": fields,
                "system_prompt": a.system_prompt,
            })
        })
        .collect();
    let errors: Vec<Json> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter_map(|d| {
            let source = d.source.as_ref()?;
            Some(json!({
                "source": source,
                "kind": d.kind.as_str(),
                "message": d.message,
                "line": d.line,
            }))
        })
        .collect();
    json!({
        "format": FORMAT,
        "ecosystem": r.ecosystem,
        "agents": agents,
        "errors": errors,
    })
}
