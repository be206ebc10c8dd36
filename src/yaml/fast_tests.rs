//! The fast path against the full pipeline: wherever [`fast::load`] answers, both
//! loaders' full pipelines must build the same document (values, spans) — on every
//! PyYAML golden, every fixture, the fuzz corpora, mutations of them and generated
//! documents.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::{fast, load_all_full_pipeline, load_full_pipeline, Loader};

/// Asserts the fast path agrees with the full pipeline, for one document and for a
/// stream; true when it answered either.
fn agrees(text: &str) -> bool {
    let single = fast::load(text);
    let all = fast::load_documents(text, usize::MAX);
    for loader in [Loader::Safe, Loader::CSafe] {
        if let Some(fast) = &single {
            match load_full_pipeline(text, loader) {
                Ok(Some(full)) => {
                    assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{loader:?} differs on {text:?}")
                }
                other => panic!("fast path answered, {loader:?} gives {other:?} on {text:?}"),
            }
        }
        if let Some(fast) = &all {
            match load_all_full_pipeline(text, loader) {
                Ok(full) => {
                    let fast: Vec<_> = fast.iter().cloned().map(Some).collect();
                    assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{loader:?} differs on the stream {text:?}")
                }
                Err(e) => panic!("fast path answered, {loader:?} gives {e:?} on the stream {text:?}"),
            }
        }
    }
    single.is_some() || all.is_some()
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The text between a leading `---` line and the next `---` line, as the frameworks cut it.
fn front_matter(text: &str) -> Option<&str> {
    let body = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n"))?;
    let end = body.find("\n---")?;
    Some(&body[..end + 1])
}

/// Every YAML text of the repository's test data: whole files and front matter.
fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    for dir in ["goldens/pyyaml/cases", "fixtures", "fuzz/corpus", "fuzz/regressions", "demo", "bad_inputs"] {
        files_under(&root.join(dir), &mut files);
    }
    let mut texts = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        if let Some(front) = front_matter(&text) {
            texts.push(front.to_owned());
        }
        texts.push(text);
    }
    texts
}

#[test]
fn fast_path_agrees_on_every_test_text() {
    let texts = corpus();
    let fast = texts.iter().filter(|t| agrees(t)).count();
    eprintln!("{fast} of {} texts took the fast path", texts.len());
    assert!(texts.len() > 2000 && fast > 500, "{fast} of {} texts took the fast path", texts.len());
}

#[test]
fn fast_path_refuses_control_characters_in_any_lane() {
    for c in (0u8..0x80).map(char::from) {
        for pad in 0..9 {
            let text = format!("key: value{}{c}x\n", "v".repeat(pad));
            let took_fast_path = agrees(&text);
            if c != '\n' {
                assert_eq!(took_fast_path, c == ' ' || c.is_ascii_graphic(), "{text:?}");
            }
        }
    }
}

/// Characters whose insertion or replacement moves a text across the subset's edges.
const MUTATIONS: &[&str] = &[" ", "  ", "\n", "\n\n", ":", ": ", "-", "- ", "#", " #", "\"", "'", "|", "|-", "|+", ">", "\t", "\r", "x", "\\", "&", "*", "!", "[", "{", "]", "}", ",", "?", "é", "0", ".", "---\n"];

#[test]
fn fast_path_agrees_on_mutated_texts() {
    let seeds: Vec<String> = corpus().into_iter().filter(|t| t.len() < 2000 && fast::load(t).is_some()).collect();
    let (mut checked, mut fast) = (0, 0);
    for (n, seed) in seeds.iter().enumerate().step_by(3) {
        let cuts: Vec<usize> = (0..=seed.len()).filter(|&i| seed.is_char_boundary(i)).collect();
        for (k, &at) in cuts.iter().enumerate() {
            // every seed mutated at a rotating subset of positions and characters
            let mutation = MUTATIONS[(n + k) % MUTATIONS.len()];
            let inserted = format!("{}{mutation}{}", &seed[..at], &seed[at..]);
            fast += usize::from(agrees(&inserted));
            if let Some(next) = cuts.get(k + 1) {
                let replaced = format!("{}{mutation}{}", &seed[..at], &seed[*next..]);
                fast += usize::from(agrees(&replaced));
                fast += usize::from(agrees(&format!("{}{}", &seed[..at], &seed[*next..])));
            }
            checked += 1;
        }
    }
    eprintln!("{fast} mutated texts of {checked} sites took the fast path");
    assert!(checked > 10_000 && fast > checked / 4, "{fast} fast of {checked} mutation sites");
}

/// A line of a generated document: indentation and one of the shapes agent files use,
/// plus near misses.
fn line() -> impl Strategy<Value = String> {
    let body = prop::sample::select(vec![
        "name: agent", "name:", "name: ", "description: A helper. Use it # not this", "tools:", "- read", "- read  ",
        "-", "- ", "- key: v", "- key:", "- - x", "model: 'it''s'", "model: \"a # b\"", "model: \"a\\\"b\"",
        "count: 012", "count: 0x1F", "count: 1_000", "ratio: 1.5", "ratio: .inf", "ratio: 1e3", "when: 2024-01-02",
        "when: 2024-13-02", "flag: yes", "flag: Off", "flag: y", "none: ~", "none: null", "yes: key", "1: one",
        "<<: merge", "key: a: b", "key: a:b", "key: -1", "key: - x", "key: ?x", "key: [a]", "key: &a x", "key: *a",
        "key: !!str x", "key: |", "key: |-", "key: |+", "key: |2", "key: >", "key: | # c", "key: |#c",
        "text line", "  more text", "# comment", "", "   ", "dup: 1", "dup: 2", "url: http://x/y", "key: 'open",
        "key: café", "clé: x", "k.e/y-1_: v", "key:: v", "key :v", "key : v", "\"q\": v", "...", "---", "a: b #c",
        "args: {path: README.md}", "- [a, b]", "- {a: b}", "k: [x, y z ]", "k: {a: 1,b: 2}", "k: [a,", "k: {}",
    ]);
    let indent = prop::sample::select(vec![0usize, 0, 0, 0, 2, 2, 2, 4, 4, 6, 1, 3, 5]);
    (indent, body).prop_map(|(indent, body)| format!("{}{body}", " ".repeat(indent)))
}

/// Renders a document of nested block collections from a list of choices: mostly
/// well-formed, with indentation steps of 1 to 3, literal blocks, comments and blank
/// lines at odd columns, then at most one mutation.
struct Renderer<'c> {
    choices: &'c [u8],
    next: usize,
    out: String,
}

const KEYS: &[&str] = &["name", "tools", "model", "a", "description", "x_1", "on", "dup", "dup", "k.e/y"];
const SCALARS: &[&str] = &[
    "value", "two words", "a # note", "'single'", "\"double\"", "''", "1", "0.5", "~", "yes", "2024-01-02", "-3",
    "x:y", "é", "|", "|-", "|+", "| # c", "", "{path: README.md}", "[a, b c]", "[]", "{}", "{a: 1, b: yes}",
    "[a, [b]]", "{a: b,}", "{a}", "[a: b]", "{a:b}", "[ a , b ]", "{ path: x } # c", "[a]#c", "{a: b}: c", "[a,b]",
    "{a: b, a: c}", "[a, 'b']", "[-1, .5, ~]", "{a: [b]}",
];
const CONTENT: &[&str] = &["text", "  indented", "# hash", "", "   ", "a: b", "- item", "é ü"];

impl Renderer<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let c = self.choices.get(self.next).map_or(0, |&c| usize::from(c) % n);
        self.next += 1;
        c
    }

    fn pad(&mut self, indent: usize) {
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    fn noise(&mut self, indent: usize) {
        match self.pick(8) {
            0 => self.out.push('\n'),
            1 => {
                let at = indent.saturating_sub(1) + self.pick(3);
                self.pad(at);
                self.out.push_str("# comment\n");
            }
            _ => {}
        }
    }

    /// A value after `key:` or `- ` at column `indent` of its collection.
    fn value(&mut self, indent: usize, depth: usize) {
        let step = 1 + self.pick(3);
        match if depth > 3 { 0 } else { self.pick(5) } {
            0 | 1 => {
                let scalar = SCALARS[self.pick(SCALARS.len())];
                self.out.push(' ');
                self.out.push_str(scalar);
                self.out.push('\n');
                if scalar.starts_with('|') {
                    let extra = self.pick(2);
                    for _ in 0..self.pick(4) {
                        let deeper = extra * self.pick(2);
                        self.pad(indent + step + deeper);
                        let content = CONTENT[self.pick(CONTENT.len())];
                        self.out.push_str(content);
                        self.out.push('\n');
                    }
                }
            }
            2 => {
                self.out.push('\n');
                self.mapping(indent + step, depth + 1);
            }
            3 => {
                self.out.push('\n');
                let indentless = self.pick(2) == 0;
                self.sequence(if indentless { indent } else { indent + step }, depth + 1);
            }
            _ => self.out.push('\n'),
        }
    }

    fn mapping(&mut self, indent: usize, depth: usize) {
        for _ in 0..1 + self.pick(3) {
            self.noise(indent);
            self.pad(indent);
            let key = KEYS[self.pick(KEYS.len())];
            self.out.push_str(key);
            self.out.push(':');
            self.value(indent, depth);
        }
    }

    fn sequence(&mut self, indent: usize, depth: usize) {
        for _ in 0..1 + self.pick(3) {
            self.noise(indent);
            self.pad(indent);
            self.out.push('-');
            if self.pick(3) == 0 {
                // a compact mapping: `- key: value` and more keys under it
                self.out.push(' ');
                let keys = 1 + self.pick(2);
                for k in 0..keys {
                    if k > 0 {
                        self.pad(indent + 2);
                    }
                    let key = KEYS[self.pick(KEYS.len())];
                    self.out.push_str(key);
                    self.out.push(':');
                    self.value(indent + 2, depth + 1);
                }
            } else {
                self.value(indent, depth);
            }
        }
    }
}

fn render(choices: &[u8], mutation: (usize, usize)) -> String {
    let mut r = Renderer { choices, next: 0, out: String::new() };
    // one to three documents, the first one's `---` optional
    let documents = 1 + r.pick(5) / 3;
    for d in 0..documents {
        if d > 0 || r.pick(3) == 0 {
            r.noise(0);
            r.out.push_str("---\n");
        }
        if r.pick(4) == 0 {
            r.sequence(0, 0);
        } else {
            r.mapping(0, 0);
        }
    }
    let mut text = r.out;
    let (at, which) = mutation;
    if which < MUTATIONS.len() {
        let mut at = at % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.insert_str(at, MUTATIONS[which]);
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]
    #[test]
    fn fast_path_agrees_on_generated_lines(lines in prop::collection::vec(line(), 1..14), end in prop::bool::ANY) {
        let mut text = lines.join("\n");
        if end {
            text.push('\n');
        }
        agrees(&text);
    }

    #[test]
    fn fast_path_agrees_on_generated_documents(
        choices in prop::collection::vec(any::<u8>(), 0..120),
        mutation in (any::<usize>(), 0..MUTATIONS.len() * 2),
    ) {
        agrees(&render(&choices, mutation));
    }
}
