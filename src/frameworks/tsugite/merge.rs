//! `agent_inheritance.merge_agent_configs`: parent (already resolved) first, child
//! second. Every field is the child's when the child wrote it with a value other than
//! `null`/`""`; lists are unioned, `prefetch` concatenated, `custom_tools` merged by
//! name, attachments keyed by text/path, `instructions` joined. Each merged field
//! keeps the file positions it came from and the rule in words.

use std::path::Path;

use serde_json::Value as Json;

use super::parse::{site, Config, ErrClass, LoadError};
use super::schema::{self, FIELDS};
use crate::model::{DiagKind, FieldOrigin, Provenance};

const UNIONED: &[&str] = &[
    "tools",
    "auto_load_skills",
    "auto_load_agents",
    "skill_paths",
];

fn is_empty_value(v: &Json) -> bool {
    v.is_null() || v.as_str() == Some("")
}

fn sites_text(origin: &FieldOrigin) -> String {
    let texts: Vec<String> = origin
        .sites
        .iter()
        .map(|s| site(&s.source, s.line))
        .collect();
    texts.join(" and ")
}

/// An origin combining the parent's and the child's sites under `rule`.
fn combined(parent: &FieldOrigin, child: &FieldOrigin, rule: &str) -> FieldOrigin {
    let sites = parent.sites.iter().chain(child.sites.iter()).cloned().collect();
    let rule = format!("{rule} of {} and {}", sites_text(parent), sites_text(child));
    FieldOrigin {
        provenance: Provenance::Merged,
        sites,
        rule: rule.into(),
    }
}

/// Merges `child` over `parent`. `child_file` is the file `child` was read from
/// (the error path of a nameless custom tool).
pub fn merge(parent: &Config, child: &Config, child_file: &Path) -> Result<Config, LoadError> {
    let mut out = parent.clone();
    // `prefetch` is concatenated: an odd `assign` of either stays.
    out.odd_assign = parent.odd_assign || child.odd_assign;
    for (i, (key, _)) in FIELDS.iter().enumerate() {
        let (pv, cv) = (&parent.values[i], &child.values[i]);
        let (po, co) = (&parent.origins[i], &child.origins[i]);
        let child_wrote = child.set[i];
        let child_wins = child_wrote && !is_empty_value(cv);
        out.set[i] = true;
        if *key == "extends" {
            out.values[i] = cv.clone();
            out.origins[i] = if child_wrote {
                FieldOrigin {
                    rule: format!("{}: the child's own link, never inherited", co.rule).into(),
                    ..co.clone()
                }
            } else {
                FieldOrigin::default("not written: implicit base (framework default)")
            };
            continue;
        }
        let list_rule = if UNIONED.contains(key) {
            Some("union (first occurrence kept)")
        } else {
            match *key {
                "prefetch" => Some("concatenation"),
                "custom_tools" => Some("merge by name (child replaces in place)"),
                "attachments" => Some("merge by text/path (later replaces in place)"),
                "instructions" => Some("joined with a blank line"),
                _ => None,
            }
        };
        if let Some(rule) = list_rule {
            let value = match *key {
                "prefetch" => concat(pv, cv),
                "custom_tools" => by_name(pv, cv).map_err(|m| {
                    LoadError::new(
                        ErrClass::Key,
                        DiagKind::Validation,
                        child_file,
                        co.sites.first().and_then(|s| s.line),
                        m,
                    )
                })?,
                "attachments" => by_key(pv, cv),
                "instructions" => join_instructions(pv, cv),
                _ => union(pv, cv),
            };
            let parent_has = !po.sites.is_empty() && !is_blank(pv);
            let child_has = child_wrote && !is_blank(cv);
            out.origins[i] = match (parent_has, child_has) {
                (true, true) => combined(po, co, rule),
                (false, true) => co.clone(),
                _ => po.clone(),
            };
            out.values[i] = value;
            continue;
        }
        if child_wins {
            out.values[i] = cv.clone();
            out.origins[i] = if po.sites.is_empty() {
                co.clone()
            } else {
                let how = match *key {
                    "model_kwargs" | "network" | "sandbox" => {
                        "replaced whole (dicts are not deep-merged)"
                    }
                    "allowed_secrets" => "replaced (not unioned)",
                    _ => "replaced",
                };
                FieldOrigin {
                    rule: format!("{how}: {} overrides {}", sites_text(co), sites_text(po)).into(),
                    ..co.clone()
                }
            };
        } else if child_wrote {
            out.origins[i] = FieldOrigin {
                rule: format!(
                    "{}; {} is empty (null/\"\"), which leaves the parent's value",
                    po.rule,
                    sites_text(co)
                )
                .into(),
                ..po.clone()
            };
        }
    }
    // `AgentConfig(**merged)` validates again: a child may clash with its parent.
    if let Some(i) = schema::index_of("attachments") {
        if let Some(list) = out.values[i].as_array() {
            schema::check_unique_assigns(list).map_err(|m| {
                LoadError::new(
                    ErrClass::Value,
                    DiagKind::Validation,
                    child_file,
                    None,
                    format!("ValidationError: attachments: {m}"),
                )
            })?;
        }
    }
    Ok(out)
}

fn is_blank(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        _ => false,
    }
}

fn arr(v: &Json) -> &[Json] {
    v.as_array().map(Vec::as_slice).unwrap_or(&[])
}

/// `list(dict.fromkeys(parent + child))`.
fn union(p: &Json, c: &Json) -> Json {
    let mut out: Vec<Json> = Vec::new();
    for item in arr(p).iter().chain(arr(c)) {
        if !out.contains(item) {
            out.push(item.clone());
        }
    }
    Json::Array(out)
}

fn concat(p: &Json, c: &Json) -> Json {
    Json::Array(arr(p).iter().chain(arr(c)).cloned().collect())
}

/// `custom_tools`: keyed by `name`, a later item replaces the earlier in place.
fn by_name(p: &Json, c: &Json) -> Result<Json, String> {
    let mut out: Vec<(Json, Json)> = Vec::new();
    for item in arr(p).iter().chain(arr(c)) {
        let key = item
            .get("name")
            .cloned()
            .ok_or_else(|| "KeyError: 'name' (a custom_tools item has no name)".to_string())?;
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = item.clone(),
            None => out.push((key, item.clone())),
        }
    }
    Ok(Json::Array(out.into_iter().map(|(_, v)| v).collect()))
}

/// Attachments: strings keyed by their text, specs by their `path`.
fn by_key(p: &Json, c: &Json) -> Json {
    let mut out: Vec<((bool, String), Json)> = Vec::new();
    for item in arr(p).iter().chain(arr(c)) {
        let key = match item {
            Json::String(s) => (false, s.clone()),
            other => (
                true,
                other
                    .get("path")
                    .and_then(Json::as_str)
                    .unwrap_or_default()
                    .to_string(),
            ),
        };
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = item.clone(),
            None => out.push((key, item.clone())),
        }
    }
    Json::Array(out.into_iter().map(|(_, v)| v).collect())
}

fn join_instructions(p: &Json, c: &Json) -> Json {
    let parts: Vec<&str> = [p, c]
        .iter()
        .filter_map(|v| v.as_str())
        .filter(|s| !s.is_empty())
        .collect();
    Json::String(parts.join("\n\n"))
}

/// The provenance of each field as seen from the agent in `own_source`: own when
/// every site is in its file, inherited when none is, merged when both are.
pub fn finish_origins(config: &mut Config, own_source: &str) {
    for origin in &mut config.origins {
        if origin.sites.is_empty() {
            origin.provenance = Provenance::Default;
            continue;
        }
        let own = origin
            .sites
            .iter()
            .filter(|s| *s.source == *own_source)
            .count();
        origin.provenance = if own == origin.sites.len() {
            Provenance::Own
        } else if own == 0 && origin.provenance != Provenance::Merged {
            if let Some(site) = origin.rule.strip_prefix("set in ") {
                origin.rule = format!("inherited from {site} (not written here)").into();
            }
            Provenance::Inherited
        } else {
            Provenance::Merged
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn union_keeps_first_occurrence_and_concat_keeps_duplicates() {
        assert_eq!(
            union(&json!(["a", "b"]), &json!(["b", "c", "a"])),
            json!(["a", "b", "c"])
        );
        assert_eq!(concat(&json!([1]), &json!([1])), json!([1, 1]));
    }

    #[test]
    fn custom_tools_replace_in_place_and_need_a_name() {
        let p = json!([{"name": "a", "v": 1}, {"name": "b"}]);
        let c = json!([{"name": "a", "v": 2}, {"name": "c"}]);
        assert_eq!(
            by_name(&p, &c).unwrap(),
            json!([{"name": "a", "v": 2}, {"name": "b"}, {"name": "c"}])
        );
        assert!(by_name(&p, &json!([{"x": 1}])).is_err());
    }

    #[test]
    fn attachments_are_keyed_by_text_or_path() {
        let p = json!(["-x.md", "x.md", {"path": "y", "tier": 0}]);
        let c = json!(["x.md", {"path": "y", "tier": 1}]);
        assert_eq!(
            by_key(&p, &c),
            json!(["-x.md", "x.md", {"path": "y", "tier": 1}])
        );
    }

    #[test]
    fn instructions_join_the_non_empty_ones() {
        assert_eq!(join_instructions(&json!(""), &json!("b")), json!("b"));
        assert_eq!(join_instructions(&json!("a"), &json!("b")), json!("a\n\nb"));
    }
}
