//! The origin of each effective field of a Kimi agent, in words: which file and line
//! set it, and which merge rule of `_load_agent_spec` chose it (replace, replace only
//! when not null, merge key by key, framework default).

use std::path::Path;
use std::sync::Arc;

use super::spec::{Setting, Slot, SpecFile};
use crate::model::{FieldOrigin, Provenance, Site};

pub fn with_note(mut origin: FieldOrigin, note: &str) -> FieldOrigin {
    origin.rule = format!("{}; {note}", origin.rule).into();
    origin
}

pub fn args_origin(args: &[(String, String, usize, u32)], files: &[Arc<SpecFile>], key: &dyn Fn(&Path) -> Arc<str>) -> FieldOrigin {
    let mut contributors: Vec<usize> = args.iter().map(|a| a.2).collect();
    contributors.sort_unstable();
    contributors.dedup();
    let sites: Box<[Site]> =
        contributors.iter().map(|&i| Site::new(&key(&files[i].path), files[i].system_prompt_args_line)).collect();
    let at = |s: &Site| match s.line {
        Some(l) => format!("{}:{l}", s.source),
        None => s.source.to_string(),
    };
    match contributors.as_slice() {
        [] => FieldOrigin::default("framework default: no file of the chain sets `system_prompt_args`; an empty mapping"),
        [0] if files.len() == 1 => FieldOrigin { provenance: Provenance::Own, sites, rule: "set here".into() },
        [0] => FieldOrigin {
            provenance: Provenance::Own,
            sites,
            rule: "set here; merged key by key over the parents' (which add no other key)".into(),
        },
        [i] => FieldOrigin {
            provenance: Provenance::Inherited,
            sites,
            rule: format!("inherited from {}; merged key by key, nearer files win", key(&files[*i].path)).into(),
        },
        _ => {
            let per_file: Vec<String> = contributors
                .iter()
                .map(|&i| {
                    let keys: Vec<String> =
                        args.iter().filter(|a| a.2 == i).map(|(k, _, _, line)| format!("{k} (line {line})")).collect();
                    format!("{} from {}", keys.join(", "), key(&files[i].path))
                })
                .collect();
            FieldOrigin {
                provenance: Provenance::Merged,
                rule: format!(
                    "union of {}, merged key by key (the nearer file wins each key): {}",
                    sites.iter().map(at).collect::<Vec<_>>().join(" and "),
                    per_file.join("; ")
                )
                .into(),
                sites,
            }
        }
    }
}

/// `model`/`when_to_use`: a child replaces the value only with a non-null one.
pub fn nullable_origin(
    at: Option<usize>,
    files: &[Arc<SpecFile>],
    key: &dyn Fn(&Path) -> Arc<str>,
    slot: fn(&SpecFile) -> &Slot<String>,
    field: &str,
    default: &str,
) -> FieldOrigin {
    match at {
        Some(0) => FieldOrigin::own(&key(&files[0].path), slot(&files[0]).line, "set here; replaces the parent's value"),
        Some(i) => FieldOrigin {
            provenance: Provenance::Inherited,
            sites: Box::new([Site::new(&key(&files[i].path), slot(&files[i]).line)]),
            rule: format!("inherited from {}: nearer files leave `{field}` unset or null, which never replaces", key(&files[i].path)).into(),
        },
        None => FieldOrigin::default(format!("framework default: `{field}` null or unset becomes {default}")),
    }
}

/// `tools`, `allowed_tools`, `exclude_tools`, `subagents`: the nearest file that sets
/// the field (an explicit null included) replaces the whole value.
pub fn list_origin<T>(
    at: Option<usize>,
    files: &[Arc<SpecFile>],
    key: &dyn Fn(&Path) -> Arc<str>,
    slot: fn(&SpecFile) -> &Slot<T>,
    field: &str,
    null_becomes: &str,
) -> FieldOrigin {
    let Some(i) = at else {
        return FieldOrigin::default(format!("framework default: unset `{field}` becomes {null_becomes}"));
    };
    let s = slot(&files[i]);
    let null_note = if matches!(s.state, Setting::Null) && null_becomes != "null" {
        format!("; the explicit null becomes {null_becomes}")
    } else {
        String::new()
    };
    if i == 0 {
        FieldOrigin::own(&key(&files[0].path), s.line, format!("set here; replaces the parent's whole value{null_note}"))
    } else {
        FieldOrigin {
            provenance: Provenance::Inherited,
            sites: Box::new([Site::new(&key(&files[i].path), s.line)]),
            rule: format!("inherited whole from {}: no nearer file sets `{field}`{null_note}", key(&files[i].path)).into(),
        }
    }
}
