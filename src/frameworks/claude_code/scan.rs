//! The folders Claude Code 2.1.337 reads agents from, and how it walks them
//! (`loadMarkdownFilesFromDir`: ripgrep `--files --hidden --follow --no-ignore
//! --glob *.md`, or its own walk, which visits a folder once per scan root).

use std::path::{Path, PathBuf};

use crate::discover::walk::{self as walker, Skip, Visit};
use crate::discover::{self, Hold, Kind};
use crate::frameworks::LoadContext;
use crate::model::{Loops, Place, Walking};

/// How both walkers go through a tree: depth first in listing order, folders (also
/// through symlinks) entered once per scan root, down to agentry's guard depth (a
/// deeper tree is reported, not walked).
pub const WALKING: Walking = Walking::to_depth(Some(Walking::GUARD_DEPTH)).loops(Loops::Once).max_folders(usize::MAX);

/// One file found in a scan root, in read order.
pub struct Found {
    pub path: PathBuf,
    /// The folders between the scan root and the file (a plugin's namespace).
    pub namespace: Vec<String>,
    /// The file name without `.md`.
    pub stem: String,
    /// Where it leads, when it is not a file that can be read.
    pub problem: Option<Problem>,
}

pub enum Problem {
    /// A symlink that leads nowhere.
    Dangling,
    /// A FIFO, a device, a socket.
    NotRegular,
    /// A symlink (or anything but a regular file) in a plugin's agents folder: the
    /// plugin walk (`QW`) takes only entries whose own type is a file and skips the rest
    /// without a word.
    PluginLink,
    /// A file inside a folder the plugin walk does not enter (a linked folder,
    /// `node_modules`, `.mcpb-cache`): never read, never logged.
    PluginFolderPassedOver,
}

/// Which of Claude Code's two walkers reads a place.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Walker {
    /// `.claude/agents` (`loadMarkdownFilesFromDir`): symlinks followed, lower-case `.md`.
    Agents,
    /// A plugin's agents (`jin`): `readdir` entry types, so linked files and folders are
    /// passed over, and so are `node_modules` and `.mcpb-cache` (2.1.337); `.md` in any case.
    Plugin,
}

/// Every `*.md` file under the place's folder, as its [`Walking`] says; folders
/// too deep to walk go to `too_deep`.
pub fn walk(cx: &LoadContext, place: &Place, walker: Walker, too_deep: &mut Vec<PathBuf>) -> Vec<Found> {
    let mut out = Vec::new();
    // The state of a folder: the plugin walk does not enter it (nor what is below).
    walker::walk(cx.files, &place.dir, &place.reach.walk, cx.roots.listing, false, |visit| {
        match visit {
            Visit::Folder(v, _) => {
                // The plugin walk does not enter these; their files are listed as passed over.
                let plugin = walker == Walker::Plugin;
                return Some(*v.state || plugin && (v.entry.is_symlink || passed_over(v.name)));
            }
            Visit::File(v) => out.extend(found(cx, walker, &v)),
            Visit::Skipped(v, Skip::TooDeep) => too_deep.push(v.entry.path.to_path_buf()),
            Visit::Skipped(..) | Visit::Unlisted(..) => {}
        }
        None
    });
    out
}

/// The stem of an agent file's name, when the walker takes it.
fn md_stem(name: &str, walker: Walker) -> Option<&str> {
    match walker {
        Walker::Agents => name.strip_suffix(".md"),
        // `name.toLowerCase().endsWith(".md")`: `.md` is ASCII, so the last three bytes.
        Walker::Plugin => {
            let cut = name.len().checked_sub(3)?;
            (name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(".md")).then(|| &name[..cut])
        }
    }
}

/// The agent file an entry is, if the walker takes its name; `v.state`: the plugin
/// walk passed over a folder above it.
fn found(cx: &LoadContext, walker: Walker, v: &walker::Visited<'_, bool>) -> Option<Found> {
    let e = v.entry;
    let stem = md_stem(v.name, walker)?;
    let plugin_link = walker == Walker::Plugin && e.is_symlink;
    // The size limit is checked on the bytes read (no `stat` per file per load).
    let problem = if *v.state {
        Some(Problem::PluginFolderPassedOver)
    } else if plugin_link || walker == Walker::Plugin && !e.is_file {
        Some(Problem::PluginLink)
    } else if e.is_file {
        None
    } else if e.is_symlink && cx.files.kind(&e.path) == Kind::Missing {
        Some(Problem::Dangling)
    } else {
        Some(Problem::NotRegular)
    };
    Some(Found { path: e.path.to_path_buf(), namespace: v.names.to_vec(), stem: stem.to_string(), problem })
}

/// Folders the plugin walk (`jin`) does not enter (2.1.337): `.mcpb-cache`, and
/// `node_modules` or its 8.3 short name (`NODE_M~1`), compared as Windows compares
/// names (case folded, trailing dots and spaces dropped).
fn passed_over(name: &str) -> bool {
    static SHORT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let short = SHORT.get_or_init(|| regex::Regex::new(r"^no(?:de_m?|[\da-f]{0,4})~\d+$").expect("pattern"));
    let folded = name.to_lowercase().replace('\u{131}', "i").replace('\u{17f}', "s");
    let trimmed = folded.trim_end_matches(['.', ' ']);
    let key = if trimmed.is_empty() { folded.as_str() } else { trimmed };
    key == "node_modules" || key == ".mcpb-cache" || short.is_match(key)
}

/// The file's identity as `lstat` sees it: a file reached through a folder symlink is
/// the file itself, a file symlink is a file of its own.
pub fn identity(cx: &LoadContext, path: &Path) -> PathBuf {
    match (path.parent().and_then(|p| cx.files.canonicalize(p)), path.file_name()) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// A plugin folder auto-loaded from a skills folder: `<skills>/<p>/` holding
/// `.claude-plugin/plugin.json`.
pub struct Plugin {
    pub name: String,
    pub root: PathBuf,
    /// The folders or files its agents come from (`agents/`, or `plugin.json`'s
    /// `agents`, which replaces it).
    pub agent_paths: Vec<PathBuf>,
    /// Why Claude Code loads none of its agents (the files of `agents/` are then
    /// listed as skipped).
    pub rejected: Option<String>,
    /// Why its manifest fails Claude Code's validation (no name, or a name it
    /// refuses): the plugin then loads nothing at all.
    pub invalid: Option<String>,
}

/// `EPo`: the characters a plugin name must not hold (`@`, `:`, white space, path
/// separators, control, format, private-use and unassigned characters, the
/// default-ignorable ones and U+2800).
static BAD_NAME_CHAR: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
    let ignorable = "\\u{AD}\\u{34F}\\u{61C}\\u{115F}-\\u{1160}\\u{17B4}-\\u{17B5}\\u{180B}-\\u{180F}\\u{200B}-\\u{200F}\\u{202A}-\\u{202E}\\u{2060}-\\u{206F}\\u{3164}\\u{FE00}-\\u{FE0F}\\u{FEFF}\\u{FFA0}\\u{FFF0}-\\u{FFFB}\\u{1107F}\\u{13430}-\\u{1343F}\\u{16FE4}\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}";
    regex::Regex::new(&format!("[@:\\s/\\\\\\p{{Cc}}\\p{{Cf}}\\p{{Co}}\\p{{Cn}}\\u{{2028}}\\u{{2029}}{ignorable}\\u{{2800}}]")).ok()
});

/// A manifest field of the wrong type fails the whole manifest (`lie`), except the
/// display fields (`description`, `author`, `homepage`, …), which are dropped with a
/// warning. Only the plain fields are checked here: `version` (text) and
/// `defaultEnabled` (true or false).
fn field_problem(manifest: &serde_json::Value) -> Option<String> {
    let wrong = |key: &str, ok: fn(&serde_json::Value) -> bool, what: &str| {
        let v = manifest.get(key)?;
        (!ok(v)).then(|| format!("the plugin's .claude-plugin/plugin.json `{key}` is not {what}: the manifest fails validation"))
    };
    wrong("version", serde_json::Value::is_string, "text").or_else(|| wrong("defaultEnabled", serde_json::Value::is_boolean, "true or false"))
}

/// Why Claude Code refuses a plugin manifest's `name` (`kt` and `P0o`), if it does.
pub fn name_problem(name: Option<&str>) -> Option<String> {
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return Some("the plugin's .claude-plugin/plugin.json has no `name`".into());
    };
    let bad = BAD_NAME_CHAR.as_ref().and_then(|r| r.find(name))?;
    Some(format!(
        "the plugin's .claude-plugin/plugin.json name {name:?} holds {:?}, which Claude Code refuses in a plugin name (no `@`, `:`, white space, path separators or invisible characters): the manifest fails validation",
        bad.as_str()
    ))
}

pub fn plugins(cx: &LoadContext, skills: &Path) -> Vec<Plugin> {
    let Ok(Some(entries)) = cx.files.list_dir(skills) else { return Vec::new() };
    let mut out = Vec::new();
    for e in discover::in_listing_order(&entries, cx.roots.listing) {
        if !e.is_dir {
            continue;
        }
        let manifest = e.path.join(".claude-plugin/plugin.json");
        let Ok(bytes) = cx.files.read(&manifest, Hold::Kept) else { continue };
        let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
        let folder = e.name().into_owned();
        let own_name = json.get("name").and_then(|n| n.as_str()).filter(|n| !n.is_empty());
        let listed: Vec<&str> = match json.get("agents") {
            Some(serde_json::Value::String(s)) => vec![s.as_str()],
            Some(serde_json::Value::Array(a)) => a.iter().filter_map(|s| s.as_str()).collect(),
            _ => Vec::new(),
        };
        // Observed with 2.1.328 and 2.1.337: a manifest without `name`, or whose `agents` names
        // anything but `.md` files, loads no agent at all.
        let invalid = name_problem(own_name).or_else(|| field_problem(&json));
        let rejected = if let Some(why) = &invalid {
            Some(format!("{why}: Claude Code loads none of `{folder}`'s agents"))
        } else if listed.iter().any(|p| !p.ends_with(".md")) {
            Some(format!("the plugin's plugin.json `agents` names something other than `.md` files: Claude Code loads none of `{folder}`'s agents"))
        } else {
            None
        };
        let agent_paths = if listed.is_empty() || rejected.is_some() {
            vec![e.path.join("agents")]
        } else {
            listed.iter().map(|p| e.path.join(p)).collect()
        };
        out.push(Plugin { name: own_name.unwrap_or(&folder).to_string(), root: e.path.to_path_buf(), agent_paths, rejected, invalid });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn plugin_names_claude_code_refuses() {
        for name in ["my kit", "nb\u{a0}sp", "tab\tx", "a@b", "a:b", "a/b", "a\\b", "zw\u{200b}j", "\u{2800}", ""] {
            assert!(super::name_problem(Some(name)).is_some(), "{name:?}");
        }
        for name in ["café", "my-kit", "Kit_2.0", "über", "日本"] {
            assert!(super::name_problem(Some(name)).is_none(), "{name:?}");
        }
        assert!(super::name_problem(None).is_some());
    }

    #[test]
    fn the_plugin_walk_passes_over_node_modules_and_the_bundle_cache() {
        for name in ["node_modules", "Node_Modules", "node_modules. ", "NODE_M~1", "NODE~12", "no~3", ".mcpb-cache"] {
            assert!(super::passed_over(name), "{name}");
        }
        for name in ["node_module", "modules", "node_modules_x", "no~", "nodes~1", "nodemo~12", "."] {
            assert!(!super::passed_over(name), "{name}");
        }
    }
}
