//! Comparing two definitions of one agent: field by field ([`fields`]) and as text
//! ([`text`], for the two files and the two rendered prompts), with word-level
//! highlights inside changed lines. The explorer's diff overlay and `agentry diff`
//! both render these values; nothing here touches a terminal.
//!
//! Direction: the *old* side is the other (shadowed) definition, the *new* side the
//! winner, so "added" reads as "what the winner has that the other one lacks".

mod text;

use serde::Serialize;
use serde_json::Value as Json;

use crate::model::Agent;

pub use text::{text, unified, DiffLine, Hunk, TextDiff};

/// What happened to a field, a list item or a line between the two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Added,
    Removed,
    Changed,
    Same,
}

impl Change {
    /// The `diff -u` line prefix.
    pub fn sign(self) -> char {
        match self {
            Change::Added => '+',
            Change::Removed => '-',
            Change::Changed => '~',
            Change::Same => ' ',
        }
    }
}

/// One effective field compared. `old` is the other definition's value, `new` the
/// winner's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldChange {
    pub key: String,
    pub change: Change,
    pub old: Option<Json>,
    pub new: Option<Json>,
    /// For a changed list (or object), its items in diff order: added, removed and
    /// unchanged ones. Empty for scalars and unchanged fields.
    pub items: Vec<ItemChange>,
}

/// One item of a changed list; for an object, one `{key: value}` entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemChange {
    pub change: Change,
    pub value: Json,
}

/// The effective fields of `winner` against those of `other`, in the winner's field
/// order followed by the fields only `other` has.
pub fn fields(winner: &Agent, other: &Agent) -> Vec<FieldChange> {
    let mut out = Vec::with_capacity(winner.fields.len());
    for new in winner.fields.iter() {
        let change = match other.field(&new.key) {
            None => FieldChange {
                key: new.key.to_string(),
                change: Change::Added,
                old: None,
                new: Some(new.value.to_json()),
                items: Vec::new(),
            },
            Some(old) if old.value == new.value => FieldChange {
                key: new.key.to_string(),
                change: Change::Same,
                old: Some(old.value.to_json()),
                new: Some(new.value.to_json()),
                items: Vec::new(),
            },
            Some(old) => FieldChange {
                key: new.key.to_string(),
                change: Change::Changed,
                old: Some(old.value.to_json()),
                new: Some(new.value.to_json()),
                items: items(&old.value.to_json(), &new.value.to_json()),
            },
        };
        out.push(change);
    }
    for old in other.fields.iter() {
        if winner.field(&old.key).is_none() {
            out.push(FieldChange {
                key: old.key.to_string(),
                change: Change::Removed,
                old: Some(old.value.to_json()),
                new: None,
                items: Vec::new(),
            });
        }
    }
    out
}

/// Item-level changes between two lists (a sequence diff, so order counts) or two
/// objects (entries compared by key, each shown as a one-entry object). Anything else
/// has no items.
fn items(old: &Json, new: &Json) -> Vec<ItemChange> {
    match (old, new) {
        (Json::Array(a), Json::Array(b)) => sequence(a, b),
        (Json::Object(a), Json::Object(b)) => {
            let entry = |k: &String, v: &Json| {
                let mut m = serde_json::Map::new();
                m.insert(k.clone(), v.clone());
                Json::Object(m)
            };
            let mut out = Vec::new();
            for (k, v) in b {
                match a.get(k) {
                    None => out.push(ItemChange { change: Change::Added, value: entry(k, v) }),
                    Some(w) if w == v => out.push(ItemChange { change: Change::Same, value: entry(k, v) }),
                    Some(w) => {
                        out.push(ItemChange { change: Change::Removed, value: entry(k, w) });
                        out.push(ItemChange { change: Change::Added, value: entry(k, v) });
                    }
                }
            }
            for (k, w) in a {
                if !b.contains_key(k) {
                    out.push(ItemChange { change: Change::Removed, value: entry(k, w) });
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// A sequence diff of list items, compared by their JSON text (JSON values are not
/// hashable; their canonical text is).
fn sequence(a: &[Json], b: &[Json]) -> Vec<ItemChange> {
    let old: Vec<String> = a.iter().map(Json::to_string).collect();
    let new: Vec<String> = b.iter().map(Json::to_string).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new);
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    for op in &ops {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        let (change, values) = match tag {
            similar::DiffTag::Equal => (Change::Same, &b[new_range]),
            similar::DiffTag::Insert => (Change::Added, &b[new_range]),
            similar::DiffTag::Delete => (Change::Removed, &a[old_range]),
            similar::DiffTag::Replace => {
                out.extend(a[old_range].iter().map(|v| ItemChange { change: Change::Removed, value: v.clone() }));
                (Change::Added, &b[new_range])
            }
        };
        out.extend(values.iter().map(|v| ItemChange { change, value: v.clone() }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FieldOrigin, Scope, Source, Status};
    use serde_json::json;

    fn agent(fields: &[(&str, Json)]) -> Agent {
        let source = Source::new(Scope::Project, std::path::Path::new("/p"), "/p/a.md".into());
        crate::model::AgentRecord {
            chain: Default::default(),
            fields: fields
                .iter()
                .map(|(k, v)| crate::model::Field::new(k.to_string(), v.clone(), FieldOrigin::default("test")))
                .collect(),
            ..crate::model::AgentRecord::new("openhands", "a".into(), source, Status::Wins, String::new())
        }
        .into()
    }

    #[test]
    fn fields_are_added_removed_changed_or_same() {
        let winner = agent(&[("model", json!("opus")), ("tools", json!(["read", "bash"])), ("new", json!(1))]);
        let other = agent(&[("model", json!("opus")), ("tools", json!(["read", "edit"])), ("gone", json!(true))]);
        let d = fields(&winner, &other);
        let summary: Vec<_> = d.iter().map(|f| (f.key.as_str(), f.change)).collect();
        assert_eq!(
            summary,
            [("model", Change::Same), ("tools", Change::Changed), ("new", Change::Added), ("gone", Change::Removed)]
        );
        let tools = &d[1];
        let items: Vec<_> = tools.items.iter().map(|i| (i.change, i.value.clone())).collect();
        assert_eq!(
            items,
            [(Change::Same, json!("read")), (Change::Removed, json!("edit")), (Change::Added, json!("bash"))]
        );
        assert_eq!(d[3].old, Some(json!(true)));
        assert_eq!(d[3].new, None);
    }

    #[test]
    fn object_fields_compare_entries_by_key() {
        let winner = agent(&[("env", json!({"A": "1", "B": "2"}))]);
        let other = agent(&[("env", json!({"A": "1", "B": "3", "C": "4"}))]);
        let d = fields(&winner, &other);
        let items: Vec<_> = d[0].items.iter().map(|i| (i.change, i.value.clone())).collect();
        assert_eq!(
            items,
            [
                (Change::Same, json!({"A": "1"})),
                (Change::Removed, json!({"B": "3"})),
                (Change::Added, json!({"B": "2"})),
                (Change::Removed, json!({"C": "4"})),
            ]
        );
    }

    #[test]
    fn a_scalar_change_has_no_items() {
        let d = fields(&agent(&[("model", json!("a"))]), &agent(&[("model", json!(["a"]))]));
        assert_eq!(d[0].change, Change::Changed);
        assert!(d[0].items.is_empty());
    }
}
