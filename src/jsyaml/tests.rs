use serde_json::json;

use super::*;

fn load4(text: &str) -> Js {
    load(text, Version::V4).unwrap()
}

#[test]
fn core_schema_scalars() {
    let v = load4("a: yes\nb: 0x1F\nc: 2024-05-01\nd: ~\ne: .inf\nf: 1e3\ng: '1'\nh: 0o17\n");
    assert_eq!(v.get("a"), Some(&Js::Str("yes".into())));
    assert_eq!(v.get("b"), Some(&Js::Num(31.0)));
    assert_eq!(v.get("c"), Some(&Js::Date("2024-05-01".into())));
    assert_eq!(v.get("c").and_then(Js::iso).as_deref(), Some("2024-05-01T00:00:00.000Z"));
    assert_eq!(v.get("d"), Some(&Js::Null));
    assert_eq!(v.get("e"), Some(&Js::Num(f64::INFINITY)));
    assert_eq!(v.get("f"), Some(&Js::Num(1000.0)));
    assert_eq!(v.get("g"), Some(&Js::Str("1".into())));
    assert_eq!(v.get("h"), Some(&Js::Num(15.0)));
}

#[test]
fn js_yaml_3_scalars() {
    let v = load("a: 0x10\nb: 010\nc: 0o10\nd: 1e3\ne: '5'\nf: 2024-01-15\ng: 1:30\nh: 1:30.5\n", Version::V3Safe).unwrap();
    assert_eq!(v.to_json(), json!({"a": 16, "b": 8, "c": "0o10", "d": 1000, "e": "5", "f": "2024-01-15T00:00:00.000Z", "g": 90, "h": 90.5}));
    assert!(matches!(v.get("f"), Some(Js::Date(_))));
    assert!(load("a: !!binary aGk=\n", Version::V3Safe).is_err());
}

#[test]
fn js_yaml_3_reads_a_question_mark_value_as_an_explicit_key() {
    // js-yaml 3.14.1's own results (js-yaml 4 refuses each).
    for (text, want) in [
        ("description: ? complex\nmode: x\n", json!({"description": null, "complex": null, "mode": "x"})),
        ("x:\n  a: ? b\n  c: 1\n", json!({"x": {"a": null, "b": null, "c": 1}})),
        ("'a':  ?   b   # c\n", json!({"a": null, "b": null})),
        ("a: ? b\n  c\n", json!({"a": null, "b c": null})),
        ("a: &x ? b\n", json!({"a": null, "b": null})),
        ("a: ?b\nc: '? d'\n", json!({"a": "?b", "c": "? d"})),
    ] {
        assert_eq!(load(text, Version::V3Safe).map(|v| v.to_json()), Ok(want), "{text:?}");
        assert!(load(text, Version::V4).is_err() || !text.contains(": ? "), "{text:?}");
    }
    // Errors keep the line they are on in the text as written.
    assert_eq!(load("a: ? b\nc: [\n", Version::V3Safe).unwrap_err().at.map(|(l, _)| l), Some(3));
}

#[test]
fn duplicates_and_tabs_fail_merges_work() {
    assert_eq!(load("a: 1\na: 2\n", Version::V4).unwrap_err().at, Some((2, 1)));
    assert!(load("a: 1\na: 2\n", Version::V3Safe).is_err());
    assert!(load("a:\n\t- b\n", Version::V4).is_err());
    for version in [Version::V4, Version::V3Safe] {
        let v = load("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n", version).unwrap();
        assert_eq!(v.get("m").unwrap().to_json(), json!({"x": 1, "y": 3}));
        assert_eq!(load("a: 1\n---\nb: 2\n", version).unwrap_err().at, None);
    }
}

#[test]
fn binary_keys_and_limits() {
    assert_eq!(load4("a: !!binary aGk=\n").get("a").unwrap().to_json(), json!({"0": 104, "1": 105}));
    assert!(load("a: !!binary a b\n", Version::V4).is_err());
    assert_eq!(load4("? [1, ~, 2.5]\n: x\n? 2024-01-02\n: y\n").to_json(), json!({"1,,2.5": "x", "2024-01-02T00:00:00.000Z": "y"}));
    let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
    assert!(load(&deep, Version::V4).is_err());
    let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n";
    assert!(load(bomb, Version::V4).is_err());
    assert_eq!(load("", Version::V4), Ok(Js::Null));
    for version in [Version::V4, Version::V3Safe] {
        assert_eq!(load("a: \0\n", version).unwrap_err().message, "null byte is not allowed in input");
    }
}

/// The value in the goldens' form (`gen.mjs`): dates, non-finite numbers and
/// `undefined` as tagged objects.
fn typed(v: &Js, empty: bool) -> serde_json::Value {
    match v {
        Js::Null if empty => json!({"$undefined": true}),
        Js::Date(_) => json!({"$date": true}),
        Js::Num(n) if n.is_nan() => json!({"$number": "NaN"}),
        Js::Num(n) if n.is_infinite() => json!({"$number": if *n > 0.0 { "Infinity" } else { "-Infinity" }}),
        Js::Seq(items) => serde_json::Value::Array(items.iter().map(|i| typed(i, false)).collect()),
        Js::Map(entries) => serde_json::Value::Object(entries.iter().map(|(k, v, _)| (k.clone(), typed(v, false))).collect()),
        other => other.to_json(),
    }
}

/// Every input of `tests/goldens/gemini-cli-yaml/` loads as Gemini CLI's own js-yaml
/// loads it (the `.json` next to it, written by `gen.mjs`): the same value, or an
/// error where js-yaml throws one.
#[test]
fn agrees_with_gemini_cli_s_own_js_yaml() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens/gemini-cli-yaml");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "yaml")).collect();
    names.sort();
    assert!(names.len() > 30, "goldens missing in {}", dir.display());
    let mut differ = Vec::new();
    for input in names {
        let text = String::from_utf8_lossy(&std::fs::read(&input).unwrap()).into_owned();
        let expected: serde_json::Value = serde_json::from_slice(&std::fs::read(input.with_extension("json")).unwrap()).unwrap();
        // js-yaml's `undefined`: no document (`loadDocuments` skips leading spaces and
        // reads one while more than the final line break is left).
        let t = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let len = t.len() + usize::from(!t.is_empty() && !t.ends_with(['\n', '\r']));
        let empty = t.len() - t.trim_start_matches(' ').len() + 1 >= len;
        let got = match load(&text, Version::V4) {
            Ok(v) => json!({"value": typed(&v, empty)}),
            Err(e) => json!({"error": e.message}),
        };
        let agree = match (expected.get("error"), got.get("error")) {
            (Some(_), Some(_)) => true,
            (None, None) => expected == got,
            _ => false,
        };
        if !agree {
            differ.push(format!("{}: js-yaml {expected}, agentry {got}", input.display()));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn numbers_print_as_javascript_prints_them() {
    for (n, s) in [
        (42.0, "42"),
        (1.5, "1.5"),
        (-0.0, "0"),
        (1e21, "1e+21"),
        (1.5e-7, "1.5e-7"),
        (0.000001, "0.000001"),
        (123456789012345680000.0, "123456789012345680000"),
        (0.1 + 0.2, "0.30000000000000004"),
    ] {
        assert_eq!(number_to_string(n), s, "{n}");
    }
}

#[test]
fn flow_collection_lines_at_any_indentation() {
    // js-yaml 3 and 4 (OpenCode, Gemini CLI, Kimi Code oracles): a flow collection's
    // later lines may start at or left of the block's indentation.
    for version in [Version::V4, Version::V3Safe] {
        let v = load("tools: [Read,\nGrep]\nm:\n  t: [\"a\",\n  \"b\",\n\"c\"]\n  k: {a: 1,\nb: 2}\n", version).unwrap();
        assert_eq!(v.to_json(), json!({"tools": ["Read", "Grep"], "m": {"t": ["a", "b", "c"], "k": {"a": 1, "b": 2}}}));
    }
}
