//! The prose, lists and broken files the generated agents are made of.

use super::rng::Rng;

pub const WORDS: &[&str] = &[
    "review", "test", "refactor", "deploy", "triage", "summarise", "search", "index", "plan", "design", "api", "data",
    "security", "audit", "docs", "release", "migrate", "profile", "cache", "queue", "schema", "parser", "lint",
    "format", "build", "package", "monitor", "alert", "incident", "report", "translate", "classify", "extract",
    "route", "validate", "benchmark", "optimise", "sketch", "archive", "sync",
];
pub const TOOLS: &[&str] = &[
    "read_file", "write_file", "list_directory", "run_shell", "http_request", "search_web", "grep", "glob", "edit",
    "git_diff", "open_pr", "run_tests",
];
pub const MODELS: &[&str] = &["inherit", "sonnet", "gpt-5", "kimi-k2", "haiku", "o4-mini"];

pub fn word(rng: &mut Rng) -> &'static str {
    WORDS[rng.below(WORDS.len())]
}

/// `n` words, capitalised, ending with a full stop.
pub fn sentence(rng: &mut Rng, n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word(rng));
    }
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out.push('.');
    out
}

fn paragraph(rng: &mut Rng, sentences: usize) -> String {
    (0..sentences)
        .map(|_| {
            let n = rng.randint(6, 16);
            sentence(rng, n)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Markdown prompt body of about `target_bytes`: headings, bullet lists, shell
/// blocks and paragraphs.
pub fn body(rng: &mut Rng, target_bytes: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut size = 0;
    while size < target_bytes {
        let kind = rng.random();
        let part = if kind < 0.15 {
            format!("## {}", sentence(rng, 3))
        } else if kind < 0.35 {
            let items = rng.randint(2, 5);
            (0..items)
                .map(|_| {
                    let n = rng.randint(4, 9);
                    format!("- {}", sentence(rng, n))
                })
                .collect::<Vec<_>>()
                .join("\n")
        } else if kind < 0.40 {
            let lines: Vec<String> = (0..3).map(|_| format!("{} --{}", rng.choice(TOOLS), word(rng))).collect();
            format!("```bash\n{}\n```", lines.join("\n"))
        } else {
            let n = rng.randint(2, 5);
            paragraph(rng, n)
        };
        size += part.len() + 2;
        parts.push(part);
    }
    parts.join("\n\n") + "\n"
}

/// A YAML block list, one item a line.
pub fn yaml_list(items: &[impl AsRef<str>], indent: &str) -> String {
    items.iter().map(|i| format!("{indent}- {}", i.as_ref())).collect::<Vec<_>>().join("\n")
}

/// Most prompts are short, a few are long: log-normal, median e^7.3 ≈ 1.5 KB, cut
/// at 20 KB.
pub fn body_size(rng: &mut Rng) -> usize {
    rng.lognormal(7.3, 0.8).min(20_000.0) as usize
}

/// A Markdown agent file that no framework can load: bad YAML, a tab, an empty file,
/// an unclosed front matter, or binary bytes.
pub fn broken_markdown(rng: &mut Rng) -> Vec<u8> {
    const TEXTS: &[&str] = &[
        "---\nname: [unclosed\ndescription: oops\n---\nbody\n",
        "---\n\tname: tabbed\n---\nbody\n",
        "",
        "---\nname: x\n",
    ];
    if rng.random() < 0.8 {
        rng.choice(TEXTS).as_bytes().to_vec()
    } else {
        b"\xff\xfe\x00binary\x00\x01\x02".to_vec()
    }
}
