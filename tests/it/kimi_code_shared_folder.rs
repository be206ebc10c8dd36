//! `.agents/agents/` is read by OpenHands (top level, PyYAML, any name) and by Kimi
//! Code (recursive, js-yaml, kebab-case names, description required): the per-file
//! results of both readers, which `agentry file` shows side by side, differ as the
//! two tools do (fixture 31 of kimi-code).

use crate::support;

use agentry::discover::FileCache;
use agentry::frameworks::RenderMode;
use agentry::load::{load, LoadOptions};
use agentry::model::{EcosystemReport, Scope, Status};

fn reading(report: &EcosystemReport, rel: &str) -> (Option<Status>, bool) {
    let agent = report.agents.iter().find(|a| a.source.rel == rel).map(|a| a.status);
    let error = report.diagnostics.iter().any(|d| d.source.as_deref() == Some(&format!("project:{rel}")));
    (agent, error)
}

#[test]
fn openhands_and_kimi_code_read_the_shared_folder_each_their_way() {
    let case = support::fixtures().join("kimi-code/31_shared_agents_dir_openhands");
    let opts = LoadOptions {
        roots: support::case_roots(&case),
        ecosystems: vec!["openhands".into(), "kimi-code".into()],
        render: RenderMode::Export,
        env: Default::default(),
        options: Default::default(),
        texts: agentry::model::TextForm::Held,
    };
    let catalog = load(&opts, &FileCache::new(), 1);
    let by_id = |id: &str| catalog.reports.iter().find(|r| r.ecosystem == id).expect(id);
    let (oh, kc) = (by_id("openhands"), by_id("kimi-code"));
    let both = ".agents/agents/reviewer.md";
    assert_eq!(reading(oh, both).0, Some(Status::Wins));
    assert_eq!(reading(kc, both).0, Some(Status::Wins));
    // A name that is not kebab-case: an OpenHands agent, a Kimi Code error.
    assert_eq!(reading(oh, ".agents/agents/Summarizer.md").0, Some(Status::Wins));
    assert_eq!(reading(kc, ".agents/agents/Summarizer.md"), (Some(Status::Invalid), true));
    // No description: fine for OpenHands, an error for Kimi Code.
    assert_eq!(reading(oh, ".agents/agents/nodesc.md").0, Some(Status::Wins));
    assert!(reading(kc, ".agents/agents/nodesc.md").1);
    // Subfolders: only Kimi Code; upper-case suffix and dot files: only OpenHands.
    assert_eq!(reading(oh, ".agents/agents/nested/helper.md").0, None);
    assert_eq!(reading(kc, ".agents/agents/nested/helper.md").0, Some(Status::Wins));
    assert_eq!(reading(oh, ".agents/agents/caps.MD").0, Some(Status::Wins));
    assert_eq!(reading(kc, ".agents/agents/caps.MD").0, None);
    assert!(kc.diagnostics.iter().any(|d| d.path.ends_with("caps.MD") && d.source.is_none()), "Kimi Code says why caps.MD is not read");
    // Kimi Code declares the folder, so `agentry file` knows it reads files there.
    let places = &kc.places;
    let dir = support::case_roots(&case).project.join(".agents/agents");
    assert!(places.iter().any(|l| l.scope == Scope::Project && l.dir == dir), "{places:?}");
}
