//! Every vendored fixture case, compared with the frameworks' own decisions
//! (`expected.json`, written by the oracles) under the rules of `compare.py`.

mod support;

fn check(ecosystem: &str) {
    assert!(
        agentry::frameworks::by_id(ecosystem).is_some(),
        "fixtures for {ecosystem} are vendored but the framework is not registered"
    );
    let (cases, failures) = support::run_framework(ecosystem);
    assert!(cases > 0, "no cases for {ecosystem}");
    assert!(failures.is_empty(), "{} of {cases} {ecosystem} cases differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn openhands() {
    check("openhands");
}

#[test]
fn fast_agent() {
    check("fast-agent");
}

#[test]
fn tsugite() {
    check("tsugite");
}

#[test]
fn kimi() {
    check("kimi");
}
