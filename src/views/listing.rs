//! `agentry listing`: what each tool tells its model exists. A definition the tool
//! loads but leaves out of its listing (a skill without a description, an agent a
//! permission rule denies, a listing cut at its budget) is invisible to the model: the
//! user sees it in the tool, the model never picks it. The readers set `listed` on each
//! definition and, where they know it, the listing's text as the model receives it.

use serde::Serialize;

use crate::frameworks::Framework;
use crate::model::{Agent, Catalog, Kind, Roots};
use crate::text::sanitize;

#[derive(Clone, Debug, Serialize)]
pub struct ListingReport {
    pub tools: Vec<ToolListing>,
    /// Tools of the set whose listing agentry does not know.
    pub unknown: Vec<&'static str>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ToolListing {
    pub tool: &'static str,
    pub title: &'static str,
    /// One section per kind the tool lists (agents, skills), where known.
    pub sections: Vec<Section>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Section {
    pub kind: Kind,
    /// The listing's text as the model receives it, where the reader knows it.
    pub text: Option<String>,
    /// The active definitions the model is told about, in the catalog's order.
    pub listed: Vec<Entry>,
    /// Active definitions the tool loads but does not list.
    pub unlisted: Vec<Entry>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub name: String,
    pub source: String,
    /// Why it is where it is (the definition's rule).
    pub rule: String,
}

fn entry(a: &Agent) -> Entry {
    Entry { name: a.name.clone(), source: a.source.key(), rule: a.rule.clone() }
}

pub fn listing(catalog: &Catalog, frameworks: &[&dyn Framework]) -> ListingReport {
    let mut tools = Vec::new();
    let mut unknown = Vec::new();
    for report in &catalog.reports {
        let Some(framework) = frameworks.iter().find(|f| f.id() == report.ecosystem) else { continue };
        let mut sections = Vec::new();
        for (kind, text) in [(Kind::Agent, &report.agent_listing), (Kind::Skill, &report.skill_listing)] {
            let active = || report.agents.iter().filter(move |a| a.kind == kind && a.status.is_active());
            if text.is_none() && active().all(|a| a.listed.is_none()) {
                continue;
            }
            sections.push(Section {
                kind,
                text: text.clone(),
                listed: active().filter(|a| a.listed == Some(true)).map(entry).collect(),
                unlisted: active().filter(|a| a.listed == Some(false)).map(entry).collect(),
            });
        }
        if sections.is_empty() {
            unknown.push(report.ecosystem);
        } else {
            tools.push(ToolListing { tool: report.ecosystem, title: framework.title(), sections });
        }
    }
    ListingReport { tools, unknown }
}

/// The report as text lines (sanitised), as `agentry listing` prints it and the
/// explorer's listing overlay shows it.
pub fn lines(report: &ListingReport, roots: &Roots) -> Vec<String> {
    let s = |t: &str| sanitize::line(&super::quoted(t, roots)).into_owned();
    let mut out = Vec::new();
    for tool in &report.tools {
        if !out.is_empty() {
            out.push(String::new());
        }
        for section in &tool.sections {
            let kind = if section.kind == Kind::Skill { "skills" } else { "agents" };
            out.push(format!(
                "{} ({}) lists {} of its {} active {kind} to the model",
                tool.tool,
                tool.title,
                section.listed.len(),
                section.listed.len() + section.unlisted.len()
            ));
            if let Some(text) = &section.text {
                out.push("  as the model reads it:".to_string());
                for line in sanitize::text(text).lines() {
                    out.push(format!("  │ {line}"));
                }
            } else {
                for e in &section.listed {
                    out.push(format!("  listed      `{}` {}", s(&e.name), s(&e.source)));
                }
            }
            for e in &section.unlisted {
                out.push(format!("  not listed  `{}` {}", s(&e.name), s(&e.source)));
                if !e.rule.is_empty() {
                    out.push(format!("  {:11} {}", "", s(&e.rule)));
                }
            }
        }
    }
    if !report.unknown.is_empty() {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.push(format!("agentry does not know what {} tell their model (no listing read)", report.unknown.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::{AgentRecord, EcosystemReport, Scope, Source, Status};

    struct Toy;
    impl Framework for Toy {
        fn id(&self) -> &'static str {
            "toy"
        }
        fn title(&self) -> &'static str {
            "Toy"
        }
        fn load(&self, _: &crate::frameworks::LoadContext) -> EcosystemReport {
            EcosystemReport::new("toy")
        }
    }

    fn skill(name: &str, status: Status, listed: Option<bool>, rule: &str) -> Agent {
        let root = std::path::Path::new("/p");
        let source = Source::new(Scope::Project, root, root.join(format!(".agents/skills/{name}/SKILL.md")));
        AgentRecord { kind: Kind::Skill, listed, ..AgentRecord::new("toy", name.into(), source, status, rule.into()) }.into()
    }

    fn catalog(report: EcosystemReport) -> Catalog {
        let roots = Roots::new("/p".into(), "/h".into(), "/h/.config".into(), None);
        Catalog { generation: 1, roots, reports: vec![Arc::new(report)] }
    }

    #[test]
    fn active_definitions_are_listed_or_not_and_shadowed_ones_are_neither() {
        let mut report = EcosystemReport::new("toy");
        report.agents = vec![
            skill("deploy", Status::Wins, Some(true), "first place wins"),
            skill("deploy", Status::Shadowed, Some(false), "the project's wins"),
            skill("notes", Status::Wins, Some(false), "no description: loaded, never listed"),
        ];
        report.skill_listing = Some("- deploy: ship it\u{1b}[2J".into());
        let out = listing(&catalog(report), &[&Toy]);
        assert!(out.unknown.is_empty());
        let section = &out.tools[0].sections[0];
        assert_eq!(section.kind, Kind::Skill);
        assert_eq!(section.listed.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["deploy"]);
        assert_eq!(section.unlisted.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["notes"]);
        let text = lines(&out, &crate::model::Roots::new("/p".into(), "/h".into(), "/h/.config".into(), None)).join("\n");
        assert!(text.contains("toy (Toy) lists 1 of its 2 active skills to the model"), "{text}");
        assert!(text.contains("not listed  `notes` project:.agents/skills/notes/SKILL.md"), "{text}");
        assert!(text.contains("no description: loaded, never listed"), "{text}");
        assert!(!text.contains('\u{1b}'), "control characters reach the terminal: {text:?}");
    }

    #[test]
    fn a_tool_whose_listing_is_not_known_is_named_once() {
        let mut report = EcosystemReport::new("toy");
        report.agents = vec![skill("deploy", Status::Wins, None, "")];
        let out = listing(&catalog(report), &[&Toy]);
        assert!(out.tools.is_empty());
        assert_eq!(out.unknown, ["toy"]);
    }
}
