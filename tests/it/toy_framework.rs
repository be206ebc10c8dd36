//! A framework on the shared engine alone: two ordered folders, the first
//! definition of a name wins, two files of one name in one folder. It shows up in
//! `list` with the right status words and rules, with no view naming it.

use crate::support;

use agentry::frameworks::precedence::{rank, Candidate, Ladder, Tier};
use agentry::frameworks::{Framework, LoadContext};
use agentry::model::{Agent, EcosystemReport, Scope, Source, Status, Text};

struct Toy;

const FOLDERS: [&str; 2] = ["toy-a", "toy-b"];

impl Framework for Toy {
    fn id(&self) -> &'static str {
        "toy"
    }
    fn title(&self) -> &'static str {
        "Toy"
    }
    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new("toy");
        let mut candidates = Vec::new();
        for (tier, folder) in FOLDERS.iter().enumerate() {
            let Ok(Some(entries)) = cx.files.list_dir(&cx.roots.project.join(folder)) else { continue };
            for e in entries.iter().filter(|e| e.is_file) {
                // The name is the file's first line.
                let Ok(bytes) = cx.files.read(&e.path, agentry::discover::Hold::Kept) else { continue };
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let name = text.lines().next().unwrap_or_default().to_string();
                let source = Source::new(Scope::Project, &cx.roots.project, e.path.to_path_buf());
                let mut agent = Agent::new("toy", name, source, Status::Wins, String::new());
                agent.system_prompt = Some(Text::held(text));
                candidates.push(Candidate { tier, agent });
            }
        }
        let ladder = Ladder::new(FOLDERS.iter().map(|f| Tier::first(format!("project {f}"))).collect());
        report.agents = rank(&ladder, candidates);
        report
    }
}

#[test]
fn a_toy_framework_on_the_engine_shows_in_list() {
    let root = support::Scratch::new("toy");
    for (path, text) in [("toy-a/1.md", "alpha\n"), ("toy-a/2.md", "alpha\nagain\n"), ("toy-b/1.md", "alpha\n"), ("toy-b/3.md", "beta\n")] {
        std::fs::create_dir_all(root.join("project").join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join("project").join(path), text).unwrap();
    }
    let opts = agentry::load::LoadOptions {
        roots: agentry::model::Roots::new(root.join("project"), root.join("home"), root.join("home/.config"), None),
        ecosystems: Vec::new(),
        render: agentry::frameworks::RenderMode::Export,
        env: Default::default(),
        options: Default::default(),
        texts: agentry::model::TextForm::Held,
    };
    let catalog = agentry::load::load_with(&[&Toy], &opts, &agentry::discover::FileCache::new(), 1);
    let mut out = Vec::new();
    let code = agentry::cli::write(&agentry::cli::Command::List { json: false }, &catalog, &mut out).ok();
    assert_eq!(code, Some(0));
    let rows: Vec<String> = String::from_utf8(out).unwrap().lines().skip(1).map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(rows, ["alpha toy WINS project toy-a/1.md", "alpha toy SHADOWED project toy-a/2.md", "alpha toy EQUIVALENT project toy-b/1.md", "beta toy WINS project toy-b/3.md"]);
    let loser = catalog.agents().find(|a| a.source.rel == "toy-b/1.md").unwrap();
    assert_eq!(loser.shadowed_by.as_deref(), Some("project:toy-a/1.md"));
    assert!(loser.rule.contains("project toy-a ranks above project toy-b"), "{}", loser.rule);
}
