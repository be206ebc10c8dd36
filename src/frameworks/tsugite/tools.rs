//! tsugite's tool registry as shipped in tsugite-cli 0.25.3 (no plugins): the names
//! in registration order with their categories, and `tools.expand_tool_specs` over
//! them (names, `@category`, globs, `-exclusions`, `strict_tools`). Only names are
//! kept; no tool is ever called.

/// `(name, category)` in the registry's order (`list_tools()`).
pub const REGISTRY: &[(&str, &str)] = &[
    ("spawn_agent", "agents"),
    ("list_available_agents", "agents"),
    ("read_file", "fs"),
    ("write_file", "fs"),
    ("list_files", "fs"),
    ("file_exists", "fs"),
    ("create_directory", "fs"),
    ("get_file_info", "fs"),
    ("edit_file", "fs"),
    ("read_conversation", "history"),
    ("list_conversations", "history"),
    ("search_conversations", "history"),
    ("fetch_json", "http"),
    ("fetch_text", "http"),
    ("http_request", "http"),
    ("download_file", "http"),
    ("check_url", "http"),
    ("return_value", "interactive"),
    ("send_message", "interactive"),
    ("ask_user", "interactive"),
    ("ask_user_batch", "interactive"),
    ("get_secret", "secrets"),
    ("list_secrets", "secrets"),
    ("run", "shell"),
    ("get_system_info", "shell"),
    ("load_skill", "skills"),
    ("unload_skill", "skills"),
    ("list_available_skills", "skills"),
    ("get_skills_for_template", "skills"),
    ("get_failed_skills_for_template", "skills"),
    ("now", "time"),
];

/// Categories whose absence is not an error even with `strict_tools`.
const OPTIONAL_CATEGORIES: &[&str] = &[
    "onlyoffice",
    "notify",
    "schedule",
    "terminal",
    "tmux",
    "artifacts",
    "jobs",
    "secrets",
    "sessions",
];

/// Tools only offered when someone can answer (stripped in non-interactive runs).
pub const INTERACTIVE: &[&str] = &["ask_user", "ask_user_batch"];

pub fn names() -> Vec<String> {
    REGISTRY.iter().map(|(n, _)| n.to_string()).collect()
}

fn expand_one(spec: &str, strict: bool) -> Result<Vec<String>, String> {
    if let Some(category) = spec.strip_prefix('@') {
        let mut found: Vec<String> = REGISTRY
            .iter()
            .filter(|(_, c)| *c == category)
            .map(|(n, _)| n.to_string())
            .collect();
        found.sort();
        if found.is_empty() && strict && !OPTIONAL_CATEGORIES.contains(&category) {
            return Err(format!(
                "Invalid tool category '{category}': not found or empty"
            ));
        }
        return Ok(found);
    }
    if spec.contains(['*', '?', '[']) {
        let found: Vec<String> = REGISTRY
            .iter()
            .filter(|(n, _)| fnmatch(n, spec))
            .map(|(n, _)| n.to_string())
            .collect();
        if found.is_empty() && strict {
            return Err(format!("Invalid tool pattern '{spec}': matched no tools"));
        }
        return Ok(found);
    }
    if REGISTRY.iter().any(|(n, _)| *n == spec) {
        Ok(vec![spec.to_string()])
    } else if strict {
        Err(format!(
            "Invalid tool '{spec}': not found. Available: {}",
            names().join(", ")
        ))
    } else {
        Ok(Vec::new())
    }
}

/// `expand_tool_specs(specs, strict)`.
pub fn expand(specs: &[String], strict: bool) -> Result<Vec<String>, String> {
    let mut expanded = Vec::new();
    let mut excluded = Vec::new();
    for spec in specs {
        match spec.strip_prefix('-') {
            Some(rest) => excluded.extend(expand_one(rest, false)?),
            None => expanded.extend(expand_one(spec, strict)?),
        }
    }
    let mut out: Vec<String> = Vec::new();
    for tool in expanded {
        if !excluded.contains(&tool) && !out.contains(&tool) {
            out.push(tool);
        }
    }
    Ok(out)
}

/// Python's `fnmatch.fnmatchcase` (`*`, `?`, `[seq]`, `[!seq]`).
pub fn fnmatch(name: &str, pattern: &str) -> bool {
    let n: Vec<char> = name.chars().collect();
    let p: Vec<char> = pattern.chars().collect();
    matches(&n, &p)
}

fn matches(n: &[char], p: &[char]) -> bool {
    match p.first() {
        None => n.is_empty(),
        Some('*') => (0..=n.len()).any(|i| matches(&n[i..], &p[1..])),
        Some('?') => !n.is_empty() && matches(&n[1..], &p[1..]),
        Some('[') => match class_end(p) {
            Some(end) => {
                let Some(c) = n.first() else { return false };
                in_class(*c, &p[1..end]) && matches(&n[1..], &p[end + 1..])
            }
            None => n.first() == Some(&'[') && matches(&n[1..], &p[1..]),
        },
        Some(c) => n.first() == Some(c) && matches(&n[1..], &p[1..]),
    }
}

fn class_end(p: &[char]) -> Option<usize> {
    let mut i = 1;
    if p.get(i) == Some(&'!') {
        i += 1;
    }
    if p.get(i) == Some(&']') {
        i += 1;
    }
    (i..p.len()).find(|&j| p[j] == ']')
}

fn in_class(c: char, body: &[char]) -> bool {
    let (negate, body) = match body.first() {
        Some('!') => (true, &body[1..]),
        _ => (false, body),
    };
    let mut hit = false;
    let mut i = 0;
    while i < body.len() {
        if i + 2 < body.len() && body[i + 1] == '-' {
            hit |= body[i] <= c && c <= body[i + 2];
            i += 3;
        } else {
            hit |= body[i] == c;
            i += 1;
        }
    }
    hit != negate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn expansion_matches_the_package_docstrings() {
        // Expected values printed by tsugite-cli 0.25.3's own expand_tool_specs.
        assert_eq!(
            expand(&s(&["@fs", "-*_directory"]), false).unwrap(),
            s(&[
                "edit_file",
                "file_exists",
                "get_file_info",
                "list_files",
                "read_file",
                "write_file"
            ])
        );
        assert_eq!(
            expand(&s(&["*_file"]), false).unwrap(),
            s(&["read_file", "write_file", "edit_file", "download_file"])
        );
        assert_eq!(
            expand(&s(&["read_[!x]ile", "-@fs", "run"]), false).unwrap(),
            s(&["run"])
        );
        assert_eq!(
            expand(&s(&["@http"]), false).unwrap(),
            s(&[
                "check_url",
                "download_file",
                "fetch_json",
                "fetch_text",
                "http_request"
            ])
        );
        assert_eq!(
            expand(&s(&["no_such_tool", "read_file"]), false).unwrap(),
            s(&["read_file"])
        );
        assert!(expand(&s(&["no_such_tool"]), true).is_err());
        assert!(expand(&s(&["@secrets"]), true).is_ok());
    }

    #[test]
    fn fnmatch_classes() {
        assert!(fnmatch("read_file", "read_[f]ile"));
        assert!(!fnmatch("read_file", "read_[!f]ile"));
        assert!(fnmatch("a?c", "a[?]c"));
    }
}
