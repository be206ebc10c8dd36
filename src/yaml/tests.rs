//! Unit tests of the public API and of the bounds (hostile input must fail fast).

use super::*;
use std::time::{Duration, Instant};

fn ok(text: &str) -> Node {
    load(text).expect("loads").expect("a document")
}

fn fails_fast(text: &str, what: &str) -> YamlError {
    let t = Instant::now();
    let err = load(text).expect_err("must fail");
    assert!(t.elapsed() < Duration::from_secs(5), "{what} took {:?}", t.elapsed());
    assert!(err.message.contains(what), "{err}");
    err
}

#[test]
fn billion_laughs_fails_fast() {
    let mut text = String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().zip(["b", "c", "d", "e", "f", "g", "h", "i"]) {
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    fails_fast(&text, "alias expansion exceeds");
    // many references to one big node
    let big = format!("b: &b [{}]\nc: [{}]\n", vec!["1"; 1000].join(","), vec!["*b"; 2000].join(","));
    fails_fast(&big, "alias expansion exceeds");
    // merge-key expansion
    let mut merge = String::from("a0: &a0 {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9}\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        merge.push_str(&format!("a{i}: &a{i} {{<<: [{refs}]}}\n"));
    }
    fails_fast(&merge, "exceeds");
}

#[test]
fn alias_expansion_under_the_budget_is_fine() {
    let text = format!("b: &b [{}]\nc: [{}]\n", vec!["1"; 100].join(","), vec!["*b"; 100].join(","));
    let n = ok(&text);
    let c = n.get("c").and_then(Node::as_seq).expect("c");
    assert_eq!(c.len(), 100);
    assert_eq!(c[99].as_seq().map(<[Node]>::len), Some(100));
}

#[test]
fn deep_nesting_errors_cleanly() {
    fails_fast(&"[".repeat(100_000), "maximum nesting depth");
    fails_fast(&"{a: ".repeat(100_000), "maximum nesting depth");
    fails_fast(&"- ".repeat(100_000), "maximum nesting depth");
    let mut block = String::new();
    for i in 0..2000 {
        block.push_str(&" ".repeat(i));
        block.push_str("a:\n");
    }
    fails_fast(&block, "maximum nesting depth");
    // depth reached only through aliases
    let mut chain = String::new();
    let mut prev = String::from("x");
    for i in 0..4 {
        chain.push_str(&format!("n{i}: &n{i} {}{prev}{}\n", "[".repeat(200), "]".repeat(200)));
        prev = format!("*n{i}");
    }
    fails_fast(&chain, "maximum nesting depth");
    // just under the limit loads
    let n = ok(&format!("{}x{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1)));
    assert_eq!(n.value.type_name(), "list");
}

#[test]
fn recursive_alias_is_an_error() {
    let e = load("a: &x [1, *x]\n").expect_err("recursive");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("recursive"), "{e}");
}

#[test]
fn big_mappings_are_linear() {
    let mut text = String::new();
    for i in 0..50_000 {
        text.push_str(&format!("key{i}: {i}\n"));
    }
    text.push_str("key7: last\n");
    let t = Instant::now();
    let n = ok(&text);
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let m = n.as_map().expect("map");
    assert_eq!(m.len(), 50_000);
    assert_eq!(m.entries[7].1.as_str(), Some("last"));
    assert_eq!(m.entries[7].0.span.line, 8);
}

#[test]
fn documents() {
    assert_eq!(load("").expect("ok"), None);
    assert_eq!(load("# c\n").expect("ok"), None);
    assert_eq!(load("---\n").expect("ok").map(|n| n.value), Some(Value::Null));
    let e = load("a: 1\n---\nb: 2\n").expect_err("two docs");
    assert_eq!((e.line, e.col), (2, 1));
    assert!(e.message.starts_with("expected a single document in the stream"), "{e}");
    let all = load_all("a: 1\n---\nb: 2\n--- x\n").expect("all");
    assert_eq!(all.len(), 3);
    assert_eq!(all[2].as_ref().and_then(Node::as_str), Some("x"));
    assert!(load_all("").expect("empty").is_empty());
    assert!(load_all("a: 1\n---\n[\n").is_err());
}

#[test]
fn spans_are_node_starts() {
    let n = ok("\u{feff}a: 1\r\nbb:\r\n  - x\r\n  - é: y\r\n");
    let m = n.as_map().expect("map");
    let (k, v) = &m.entries[1];
    assert_eq!((k.span.line, k.span.col), (2, 1));
    assert_eq!((v.span.line, v.span.col), (3, 3));
    let inner = &v.as_seq().expect("seq")[1];
    let (ik, iv) = &inner.as_map().expect("map").entries[0];
    assert_eq!((ik.span.line, ik.span.col, ik.span.offset), (4, 5, 25));
    assert_eq!((iv.span.line, iv.span.col), (4, 8));
    assert_eq!(&"\u{feff}a: 1\r\nbb:\r\n  - x\r\n  - é: y\r\n"[ik.span.offset..ik.span.offset + 2], "é");
}

#[test]
fn accessors_and_json() {
    let n = ok("name: x\n2: one\ntrue: t\n~: n\n1.5: f\nd: 2024-05-06\ndt: 2024-02-29 08:15:00Z\nb: !!binary aGk=\ns: !!set {a}\nnan: .nan\nbig: 123456789012345678901234567890\n");
    assert_eq!(n.get("name").and_then(Node::as_str), Some("x"));
    assert_eq!(n.as_map().map(|m| m.iter().count()), Some(11));
    let j = n.value.to_json();
    assert_eq!(
        j,
        serde_json::json!({
            "name": "x", "2": "one", "true": "t", "null": "n", "1.5": "f",
            "d": "2024-05-06", "dt": "2024-02-29T08:15:00+00:00", "b": "b'hi'", "s": ["a"],
            "nan": null, "big": "123456789012345678901234567890"
        })
    );
    assert_eq!(n.get("s").map(|s| s.value.type_name()), Some("set"));
    assert_eq!(n.get("dt").map(|s| s.value.type_name()), Some("datetime"));
}

#[test]
fn surrogate_escape_is_an_error() {
    // Python builds a str with a lone surrogate; Rust strings cannot hold one.
    assert!(load("a: \"\\ud800\"\n").is_err());
}

#[test]
fn python_key_equality() {
    let n = ok("1: one\ntrue: t\n1.0: f\n");
    let m = n.as_map().expect("map");
    assert_eq!(m.len(), 1);
    assert_eq!(m.entries[0].0.value, Value::Int(1));
    assert_eq!(m.entries[0].1.as_str(), Some("f"));
}

#[test]
fn csafe_loader_accepts_tab_separators() {
    let text = "name:\tfoo\ndescription: a\tb\n";
    assert!(load(text).is_err(), "the pure loader rejects tabs");
    let n = load_with(text, Loader::CSafe).expect("ok").expect("doc");
    assert_eq!(n.get("name").and_then(Node::as_str), Some("foo"));
    assert_eq!(n.get("description").and_then(Node::as_str), Some("a\tb"));
    assert!(load_with("a:\n\tb: 1\n", Loader::CSafe).is_err(), "tab indentation stays an error");
}
