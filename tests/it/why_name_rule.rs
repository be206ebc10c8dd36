//! `why NAME` takes the tool's name rule per kind: Kimi Code looks skills up without
//! case (its agents must be kebab-case), so `deploy` finds the skill `Deploy`, and a
//! near name's line says how skills, not agents, are matched.

use crate::support;

fn skill_workspace() -> support::Scratch {
    let root = support::Scratch::new("why-name-rule");
    let skill = root.join("project/.kimi-code/skills/Deploy");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::create_dir_all(root.join("project/.git")).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: Deploy\ndescription: Ships it\n---\nDo it.\n",
    )
    .unwrap();
    root
}

fn why(root: &std::path::Path, name: &str, json: bool) -> (i32, String) {
    let args: Vec<&str> = if json {
        vec!["why", name, "--json"]
    } else {
        vec!["why", name]
    };
    let out = support::run_agentry(root, "builtins", &args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_skill_name_in_another_case_is_the_skill_where_the_tool_ignores_case() {
    let root = skill_workspace();
    let (code, out) = why(&root, "deploy", true);
    assert_eq!(code, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let kimi = doc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tool"] == "kimi-code")
        .expect("kimi-code");
    assert_eq!(kimi["active"], true, "{kimi:#}");
    assert!(
        kimi["sources"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("Deploy/SKILL.md"),
        "{kimi:#}"
    );
    assert!(kimi["similar"].as_array().unwrap().is_empty(), "{kimi:#}");
    let rules = kimi["name_matching"].as_array().unwrap();
    let rule = |kind: &str| {
        rules
            .iter()
            .find(|r| r["kind"] == kind)
            .map(|r| r["ignores_case"].clone())
    };
    assert_eq!(
        rule("skill"),
        Some(serde_json::Value::Bool(true)),
        "{rules:#?}"
    );
}

#[test]
fn the_near_name_line_gives_the_skill_rule() {
    let root = skill_workspace();
    let (code, out) = why(&root, "deploys", false);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("`Deploy` [WINS]"), "{out}");
    let line = out
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("how Kimi Code finds"))
        .unwrap_or_default();
    assert_eq!(
        line, "how Kimi Code finds a skill: by name, ignoring case (`Deploy` finds `deploy`)",
        "{out}"
    );
    assert!(!out.contains("finds an agent"), "{out}");
}
