//! The origin of each effective field of a Kimi agent, in words: which file and line
//! set it, and which merge rule of `_load_agent_spec` chose it (replace, replace only
//! when not null, merge key by key, framework default).

use std::path::Path;
use std::sync::Arc;

use super::spec::{Placed, Setting, Slot, SpecFile};
use crate::model::{FieldOrigin, Provenance, Site};

pub fn with_note(mut origin: FieldOrigin, note: &str) -> FieldOrigin {
    origin.rule = format!("{}; {note}", origin.rule).into();
    origin
}

pub fn args_origin(args: &[(String, String, usize, u32)], files: &[Arc<Placed>], key: &dyn Fn(&Path) -> Arc<str>) -> FieldOrigin {
    let mut contributors: Vec<usize> = args.iter().map(|a| a.2).collect();
    contributors.sort_unstable();
    contributors.dedup();
    let sites: Box<[Site]> =
        contributors.iter().map(|&i| Site::new(&key(&files[i].path), files[i].spec().system_prompt_args_line)).collect();
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
                    sites.iter().map(Site::to_string).collect::<Vec<_>>().join(" and "),
                    per_file.join("; ")
                )
                .into(),
                sites,
            }
        }
    }
}

/// The words of a field's origins that name no file, spelled out at compile time
/// ([`nullable_words!`], [`list_words!`]): every agent's fields borrow them instead
/// of each holding a copy of the same sentence.
pub struct FieldWords {
    pub field: &'static str,
    /// The rule of a value no file of the chain sets.
    pub default: &'static str,
    /// For lists: the rule of an explicit null set by the definition itself, and the
    /// note on an inherited one (empty where null stays null).
    pub null_here: &'static str,
    pub null_note: &'static str,
}

/// [`FieldWords`] of `model`/`when_to_use`, whose null or unset value becomes `default`.
macro_rules! nullable_words {
    ($field:literal, $default:literal) => {
        $crate::frameworks::kimi::origins::FieldWords {
            field: $field,
            default: concat!("framework default: `", $field, "` null or unset becomes ", $default),
            null_here: "",
            null_note: "",
        }
    };
}

/// [`FieldWords`] of a list field, whose unset value (and explicit null, unless it is
/// `"null"`) becomes `null_becomes`.
macro_rules! list_words {
    ($field:literal, "null") => {
        $crate::frameworks::kimi::origins::FieldWords {
            field: $field,
            default: concat!("framework default: unset `", $field, "` becomes null"),
            null_here: $crate::frameworks::kimi::origins::SET_WHOLE_HERE,
            null_note: "",
        }
    };
    ($field:literal, $null_becomes:literal) => {
        $crate::frameworks::kimi::origins::FieldWords {
            field: $field,
            default: concat!("framework default: unset `", $field, "` becomes ", $null_becomes),
            null_here: concat!("set here; replaces the parent's whole value; the explicit null becomes ", $null_becomes),
            null_note: concat!("; the explicit null becomes ", $null_becomes),
        }
    };
}
pub(super) use {list_words, nullable_words};

/// The rule of a list the definition sets itself.
pub const SET_WHOLE_HERE: &str = "set here; replaces the parent's whole value";

/// `model`/`when_to_use`: a child replaces the value only with a non-null one.
pub fn nullable_origin(
    at: Option<usize>,
    files: &[Arc<Placed>],
    key: &dyn Fn(&Path) -> Arc<str>,
    slot: fn(&SpecFile) -> &Slot<String>,
    words: &FieldWords,
) -> FieldOrigin {
    match at {
        Some(0) => FieldOrigin::own(&key(&files[0].path), slot(files[0].spec()).line, "set here; replaces the parent's value"),
        Some(i) => FieldOrigin::inherited(
            &key(&files[i].path),
            slot(files[i].spec()).line,
            format!("inherited from {}: nearer files leave `{}` unset or null, which never replaces", key(&files[i].path), words.field),
        ),
        None => FieldOrigin::default(words.default),
    }
}

/// `tools`, `allowed_tools`, `exclude_tools`, `subagents`: the nearest file that sets
/// the field (an explicit null included) replaces the whole value.
pub fn list_origin<T>(
    at: Option<usize>,
    files: &[Arc<Placed>],
    key: &dyn Fn(&Path) -> Arc<str>,
    slot: fn(&SpecFile) -> &Slot<T>,
    words: &FieldWords,
) -> FieldOrigin {
    let Some(i) = at else {
        return FieldOrigin::default(words.default);
    };
    let s = slot(files[i].spec());
    let null = matches!(s.state, Setting::Null);
    let field = words.field;
    let null_note = if null { words.null_note } else { "" };
    if i == 0 {
        FieldOrigin::own(&key(&files[0].path), s.line, if null { words.null_here } else { SET_WHOLE_HERE })
    } else {
        let rule = format!("inherited whole from {}: no nearer file sets `{field}`{null_note}", key(&files[i].path));
        FieldOrigin::inherited(&key(&files[i].path), s.line, rule)
    }
}
