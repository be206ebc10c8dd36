//! The import graph of `src/`, drawn from the code's own paths (`crate::…`,
//! `super::…`, `self::…`, grouped `{…}` imports included; comments left out): no two
//! top-level parts (`frameworks`, `model`, `load.rs`, …) import each other through
//! any chain, and no loop of files crosses from one part into another. A loop
//! between parts is a helper in the wrong room: move it to the level both users
//! stand on.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, as its path relative to `src/` with `/` separators.
fn sources(dir: &Path, src: &Path, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).expect("src folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, src, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(src).expect("below src").to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read_to_string(&path).expect("UTF-8 source"));
        }
    }
}

/// The module path a file declares (`frameworks/kimi/mod.rs` → `frameworks::kimi`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(String::from).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The source without comments: whole comment lines, and a trailing `//` comment
/// when the quotes before it are balanced (a `//` inside a string stays).
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let code = match line.find("//") {
            Some(at) if line[..at].matches('"').count() % 2 == 0 => &line[..at],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The leading identifier of `s` (empty when there is none).
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
    &s[..end]
}

/// Every path the code names from `crate`, `super` or `self`: the head and its
/// segments (a grouped import gives one path per member, first segments only).
fn paths_in(code: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for head in ["crate", "super", "self"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(head).map(|i| i + from) {
            from = at + head.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| is_word(c) || c == ':') || !code[from..].starts_with("::") {
                continue;
            }
            let mut rest = &code[from..];
            let mut segments = Vec::new();
            while let Some(next) = rest.strip_prefix("::") {
                if let Some(group) = next.strip_prefix('{') {
                    // One path per member of the group.
                    let (mut depth, mut member, mut members) = (1, String::new(), Vec::new());
                    for c in group.chars() {
                        match c {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            ',' if depth == 1 => {
                                members.push(std::mem::take(&mut member));
                                continue;
                            }
                            _ => {}
                        }
                        if depth == 0 {
                            break;
                        }
                        member.push(c);
                    }
                    members.push(member);
                    for m in members {
                        let mut path = segments.clone();
                        path.extend(m.trim().split("::").map(|s| ident(s.trim()).to_string()).filter(|s| !s.is_empty()).take(3));
                        out.push((head.to_string(), path));
                    }
                    segments.clear();
                    rest = "";
                    break;
                }
                let name = ident(next);
                if name.is_empty() {
                    break;
                }
                segments.push(name.to_string());
                rest = &next[name.len()..];
            }
            if !rest.is_empty() || !segments.is_empty() {
                out.push((head.to_string(), segments));
            }
        }
    }
    out
}

/// The file a path leads to: the longest prefix of it that is a file of `files`.
fn file_of(full: &[String], files: &BTreeMap<String, String>) -> Option<String> {
    (1..=full.len()).rev().find_map(|n| {
        let stem = full[..n].join("/");
        [format!("{stem}.rs"), format!("{stem}/mod.rs")].into_iter().find(|f| files.contains_key(f))
    })
}

/// The top-level part a file belongs to (`frameworks/kimi/mod.rs` → `frameworks`,
/// `load.rs` → `load`).
fn part_of(file: &str) -> String {
    file.split('/').next().unwrap_or_default().trim_end_matches(".rs").to_string()
}

/// Files and the files each one imports.
fn file_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    sources(&src, &src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, text) in &files {
        let module = module_of(file);
        let edges = graph.entry(file.clone()).or_default();
        for (head, mut segments) in paths_in(&code_of(text)) {
            let mut base = match head.as_str() {
                "crate" => Vec::new(),
                "self" => module.clone(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            while segments.first().is_some_and(|s| s == "super") {
                segments.remove(0);
                base.pop();
            }
            base.extend(segments);
            if let Some(to) = file_of(&base, &files).filter(|to| to != file) {
                edges.insert(to);
            }
        }
    }
    graph
}

/// The strongly connected components of more than one node (Tarjan).
fn loops(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, node: &'a str) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        for next in s.graph.get(node).into_iter().flatten() {
            if !s.index.contains_key(next.as_str()) {
                visit(s, next);
                let low = s.low[node].min(s.low[next.as_str()]);
                s.low.insert(node, low);
            } else if s.stack.contains(&next.as_str()) {
                let low = s.low[node].min(s.index[next.as_str()]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let at = s.stack.iter().rposition(|n| *n == node).expect("on the stack");
            let component: Vec<String> = s.stack.drain(at..).map(String::from).collect();
            if component.len() > 1 {
                s.out.push(component);
            }
        }
    }
    let mut state = State { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), out: Vec::new() };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.out
}

#[test]
fn no_two_top_level_parts_of_src_import_each_other() {
    let files = file_graph();
    assert!(files.len() > 100, "the sources were not found: {} files", files.len());
    let mut parts: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut why: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (from, tos) in &files {
        parts.entry(part_of(from)).or_default();
        for to in tos.iter().filter(|to| part_of(to) != part_of(from)) {
            parts.entry(part_of(from)).or_default().insert(part_of(to));
            why.entry((part_of(from), part_of(to))).or_default().push(format!("{from} → {to}"));
        }
    }
    // The graph is real: the readers stand on the model, the explorer on the loader.
    assert!(parts["frameworks"].contains("model") && parts["tui"].contains("loader"), "{parts:#?}");
    let found: Vec<String> = loops(&parts)
        .iter()
        .map(|component| {
            let edges: Vec<String> = why
                .iter()
                .filter(|((a, b), _)| component.contains(a) && component.contains(b))
                .map(|((a, b), files)| format!("  {a} → {b}: {}", files.join(", ")))
                .collect();
            format!("loop {component:?}:\n{}", edges.join("\n"))
        })
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_loop_of_files_crosses_two_parts() {
    let crossing: Vec<Vec<String>> = loops(&file_graph())
        .into_iter()
        .filter(|component| component.iter().map(|f| part_of(f)).collect::<BTreeSet<_>>().len() > 1)
        .collect();
    assert!(crossing.is_empty(), "{crossing:#?}");
}

#[test]
fn the_path_reader_sees_grouped_nested_and_relative_imports() {
    let code = code_of("use crate::{model::{Agent, Roots}, load::LoadOptions};\n// crate::tui::x\nlet a = super::super::x::y(); let s = \"// crate::cli\";\n");
    let paths = paths_in(&code);
    let has = |head: &str, path: &[&str]| paths.iter().any(|(h, p)| h == head && p.iter().map(String::as_str).eq(path.iter().copied()));
    assert!(has("crate", &["model"]) && has("crate", &["load", "LoadOptions"]), "{paths:?}");
    assert!(has("super", &["super", "x", "y"]), "{paths:?}");
    assert!(!paths.iter().any(|(_, p)| p.first().is_some_and(|s| s == "tui")), "a comment is no import: {paths:?}");
    assert_eq!(part_of("frameworks/kimi/mod.rs"), "frameworks");
    assert_eq!(module_of("frameworks/kimi/mod.rs"), ["frameworks", "kimi"]);
}
