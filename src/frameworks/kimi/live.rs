//! The built-in prompt arguments with real values, for the interactive views
//! (`Runtime.create` fills them at session start): the clock, the working folder and
//! its two-level listing (`list_directory`), the merged `AGENTS.md` files
//! (`load_agents_md`), the OS and the shell (`Environment.detect`).
//!
//! Two values are not computed: `KIMI_SKILLS` needs Kimi's skill discovery over its
//! configuration, so it keeps the report's `<KIMI_SKILLS>`; `KIMI_ADDITIONAL_DIRS_INFO`
//! is `""` as in a fresh session. The clock is written in UTC (`+00:00`): agentry
//! carries no time-zone database.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::discover::{Files, Hold};

const ROOT_WIDTH: usize = 30;
const CHILD_WIDTH: usize = 10;
const AGENTS_MD_MAX_BYTES: usize = 32 * 1024;

pub fn builtin_args(files: Files, work_dir: &Path) -> BTreeMap<String, String> {
    let mut args = super::prompt::export_builtins();
    let mut set = |k: &str, v: String| {
        args.insert(k.to_string(), v);
    };
    set("KIMI_NOW", now_iso());
    set("KIMI_WORK_DIR", work_dir.display().to_string());
    set("KIMI_WORK_DIR_LS", list_directory(files, work_dir));
    set("KIMI_AGENTS_MD", agents_md(files, work_dir));
    set("KIMI_ADDITIONAL_DIRS_INFO", String::new());
    set("KIMI_OS", os_kind());
    set("KIMI_SHELL", shell());
    args
}

/// `datetime.now().astimezone().isoformat()`, in UTC.
fn now_iso() -> String {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = crate::py::calendar::civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_micros()
    )
}

fn os_kind() -> String {
    match std::env::consts::OS {
        "macos" => "macOS".into(),
        "windows" => "Windows".into(),
        "linux" => "Linux".into(),
        other => other.to_string(),
    }
}

/// `bash (`/bin/bash`)` for the first bash found, else `sh (`/bin/sh`)`.
fn shell() -> String {
    ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"]
        .iter()
        .find(|p| Path::new(p).is_file())
        .map(|p| format!("bash (`{p}`)"))
        .unwrap_or_else(|| "sh (`/bin/sh`)".into())
}

/// Up to `width` entries, folders first then by name, and the total count.
fn collect_entries(files: Files, dir: &Path, width: usize) -> std::io::Result<(Vec<(String, bool)>, usize)> {
    let listing = files.list_dir(dir)?.ok_or_else(|| std::io::Error::other("not a folder"))?;
    let mut all: Vec<(String, bool)> = listing.iter().map(|e| (e.name().into_owned(), e.is_dir)).collect();
    all.sort_by(|a, b| (!a.1, &a.0).cmp(&(!b.1, &b.0)));
    let total = all.len();
    all.truncate(width);
    Ok((all, total))
}

/// `list_directory`: a two-level tree, 30 entries at the top, 10 below.
pub fn list_directory(files: Files, work_dir: &Path) -> String {
    let Ok((entries, total)) = collect_entries(files, work_dir, ROOT_WIDTH) else { return "(empty directory)".into() };
    let remaining = total - entries.len();
    let mut lines = Vec::new();
    for (i, (name, is_dir)) in entries.iter().enumerate() {
        let is_last = i + 1 == entries.len() && remaining == 0;
        let connector = if is_last { "└── " } else { "├── " };
        if !is_dir {
            lines.push(format!("{connector}{name}"));
            continue;
        }
        lines.push(format!("{connector}{name}/"));
        let prefix = if is_last { "    " } else { "│   " };
        let Ok((children, child_total)) = collect_entries(files, &work_dir.join(name), CHILD_WIDTH) else {
            lines.push(format!("{prefix}└── [not readable]"));
            continue;
        };
        let child_remaining = child_total - children.len();
        for (j, (child, child_is_dir)) in children.iter().enumerate() {
            let last = j + 1 == children.len() && child_remaining == 0;
            let c = if last { "└── " } else { "├── " };
            lines.push(format!("{prefix}{c}{child}{}", if *child_is_dir { "/" } else { "" }));
        }
        if child_remaining > 0 {
            lines.push(format!("{prefix}└── ... and {child_remaining} more"));
        }
    }
    if remaining > 0 {
        lines.push(format!("└── ... and {remaining} more entries"));
    }
    if lines.is_empty() {
        "(empty directory)".into()
    } else {
        lines.join("\n")
    }
}

/// `load_agents_md`: `.kimi/AGENTS.md` and `AGENTS.md` (else `agents.md`) of every
/// folder from the git root down to the working folder, annotated, budgeted
/// leaf-first to 32 KiB.
fn agents_md(files: Files, work_dir: &Path) -> String {
    let root = work_dir.ancestors().find(|d| files.exists(&d.join(".git"))).unwrap_or(work_dir);
    let mut dirs: Vec<&Path> = work_dir.ancestors().take_while(|d| *d != root).collect();
    dirs.push(root);
    dirs.reverse();
    let mut found: Vec<(String, String)> = Vec::new();
    for d in dirs {
        let mut candidates = Vec::new();
        let kimi = d.join(".kimi/AGENTS.md");
        if files.is_file(&kimi) {
            candidates.push(kimi);
        }
        if let Some(p) = [d.join("AGENTS.md"), d.join("agents.md")].into_iter().find(|p| files.is_file(p)) {
            candidates.push(p);
        }
        for p in candidates {
            let Ok(bytes) = files.read(&p, Hold::Kept) else { continue };
            let text = String::from_utf8_lossy(&bytes);
            let content = crate::py::strip(&text).to_string();
            if !content.is_empty() {
                found.push((p.display().to_string(), content));
            }
        }
    }
    let mut remaining = AGENTS_MD_MAX_BYTES as i64;
    let mut budgeted: Vec<(String, String)> = vec![(String::new(), String::new()); found.len()];
    for i in (0..found.len()).rev() {
        let (path, content) = &found[i];
        let annotation = format!("<!-- From: {path} -->\n");
        let separator = if i + 1 < found.len() { 2 } else { 0 };
        remaining -= (annotation.len() + separator) as i64;
        if remaining <= 0 {
            budgeted[i] = (path.clone(), String::new());
            remaining = 0;
            continue;
        }
        let mut content = content.clone();
        if content.len() as i64 > remaining {
            let mut cut = remaining as usize;
            while !content.is_char_boundary(cut) {
                cut -= 1;
            }
            content = crate::py::strip(&content[..cut]).to_string();
        }
        remaining -= content.len() as i64;
        budgeted[i] = (path.clone(), content);
    }
    budgeted
        .into_iter()
        .filter(|(_, c)| !c.is_empty())
        .map(|(p, c)| format!("<!-- From: {p} -->\n{c}"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_puts_folders_first_and_marks_the_last_entry() {
        let dir = std::env::temp_dir().join(format!("agentry-kimi-ls-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/x.txt"), "").unwrap();
        std::fs::write(dir.join("a.txt"), "").unwrap();
        assert_eq!(list_directory(crate::discover::FileCache::new().untracked(), &dir), "├── sub/\n│   └── x.txt\n└── a.txt");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_clock_is_iso_8601_with_an_offset() {
        let now = now_iso();
        assert_eq!(now.len(), "2025-01-15T12:00:00.000000+00:00".len(), "{now}");
        assert!(now.ends_with("+00:00"));
    }
}
