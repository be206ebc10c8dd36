//! Whether Claude Code 2.1.337 refuses an agent file for its hooks (`bvs`). A
//! `PreToolUse`/`PermissionRequest` hook may be what guards the permissions beside
//! it, so one that cannot be loaded refuses the whole file. The tool looks for such
//! hooks anywhere in the front matter, three levels deep (`sye`, `rot`, `Ai`,
//! `ABe`): a key `related: {hooks: [a, b]}` looks like a hook matcher and refuses the
//! file. Inside `hooks` (`CBe`, `Nn`, `_g`, the `Sg` schemas), a broken entry of
//! another event is only dropped; one of a guarding event refuses the file.

use serde_json::{Map, Value as Json};

/// `gc`: the hook events.
const EVENTS: &[&str] = &[
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "UserPromptSubmit",
    "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop", "StopFailure", "SubagentStart", "SubagentStop",
    "PreCompact", "PostCompact", "PreModelSwitch", "PostModelSwitch", "PermissionRequest", "PermissionDenied",
    "Setup", "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation", "ElicitationResult", "ConfigChange",
    "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged", "FileChanged", "DirectoryAdded",
    "MessageDisplay",
];
/// `MY`: the events whose hooks guard permissions.
const GUARDS: &[&str] = &["PreToolUse", "PermissionRequest"];
/// `hNn`: top-level keys the scan for stray guards does not enter.
const UNSCANNED: &[&str] = &["metadata", "mcpServers", "lspServers"];

/// Why Claude Code refuses the file for its hooks, if it does.
pub fn problem(fm: &Map<String, Json>) -> Option<String> {
    let stray = has_guard(fm)
        || fm.iter().any(|(k, v)| {
            k != "hooks" && !UNSCANNED.contains(&k.as_str()) && holds_guard(v, 3, !is_event(k), true, false)
        });
    if stray {
        return Some("PreToolUse/PermissionRequest is declared at the frontmatter top level, outside `hooks`".into());
    }
    let hooks = fm.get("hooks")?;
    // `!e.hooks`
    if !crate::frameworks::node::truthy(hooks) {
        return None;
    }
    if looks_like_matcher(hooks) || hooks.as_array().is_some_and(|a| a.iter().any(looks_like_matcher)) {
        return Some("`hooks` must map event names to matcher lists".into());
    }
    let Json::Object(events) = hooks else { return Some("`hooks` is not a map of events".into()) };
    for (event, matchers) in events {
        let guard = GUARDS.contains(&event.as_str());
        let unloadable = if !is_event(event) {
            holds_guard(matchers, 3, !matchers.is_array(), false, false)
        } else if let Json::Array(list) = matchers {
            list.iter().any(|m| holds_guard(m, 3, false, false, false) || (guard && !valid_matcher(m)))
        } else {
            (guard && !matchers.is_null()) || holds_guard(matchers, 3, false, false, false)
        };
        if unloadable {
            return Some(format!("`hooks.{event}` holds a PreToolUse/PermissionRequest hook that cannot be loaded"));
        }
    }
    None
}

fn is_event(key: &str) -> bool {
    EVENTS.contains(&key)
}

/// `Ai`: a map with a non-empty `PreToolUse` or `PermissionRequest`.
fn has_guard(map: &Map<String, Json>) -> bool {
    GUARDS.iter().any(|k| map.get(*k).is_some_and(|v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty())))
}

/// `ABe`: a map shaped like a hook matcher.
fn looks_like_matcher(v: &Json) -> bool {
    let Json::Object(map) = v else { return false };
    if !map.contains_key("matcher") && map.keys().any(|k| is_event(k)) {
        return false;
    }
    match map.get("hooks") {
        Some(Json::Array(list)) => !list.is_empty(),
        Some(Json::Object(inner)) => map.contains_key("matcher") || inner.get("type").is_some_and(Json::is_string),
        _ => false,
    }
}

/// `rot`: whether a guarding hook sits in `v` within `depth` levels. The top-level
/// scan skips `UNSCANNED` keys at every level (`unscanned`).
fn holds_guard(v: &Json, depth: u32, matchers_count: bool, unscanned: bool, in_hooks_list: bool) -> bool {
    if let Json::Object(map) = v {
        if has_guard(map) {
            return true;
        }
    }
    if matchers_count && looks_like_matcher(v) {
        return true;
    }
    if depth == 0 {
        return false;
    }
    match v {
        Json::Array(items) => items.iter().any(|u| holds_guard(u, depth - 1, matchers_count, unscanned, in_hooks_list)),
        Json::Object(map) => {
            if in_hooks_list && map.get("type").is_some_and(Json::is_string) {
                return false;
            }
            map.iter().any(|(k, g)| {
                !(unscanned && UNSCANNED.contains(&k.as_str()))
                    && holds_guard(g, depth - 1, matchers_count && !is_event(k), unscanned, k == "hooks" && g.is_array())
            })
        }
        _ => false,
    }
}

/// A matcher of a guarding event as `Nn` and the `Tn` schema accept it: a map whose
/// `matcher` (if any) is a string and whose `hooks` is a list of valid entries.
fn valid_matcher(m: &Json) -> bool {
    let Json::Object(map) = m else { return false };
    let Some(Json::Array(entries)) = map.get("hooks") else { return false };
    entries.iter().all(valid_entry) && optional(map, "matcher", Json::is_string)
}

/// One hook entry as `_g` and the `Sg` schemas (zod objects: other keys pass) accept it.
fn valid_entry(e: &Json) -> bool {
    let Json::Object(map) = e else { return false };
    let string = |k| optional(map, k, Json::is_string);
    let flag = |k| optional(map, k, Json::is_boolean);
    let required = |k: &str| map.get(k).is_some_and(Json::is_string);
    let common = string("if")
        && string("statusMessage")
        && flag("once")
        && optional(map, "timeout", |t| t.as_f64().is_some_and(|n| n > 0.0 && n.is_finite()));
    let on_failure = optional(map, "onFailure", |v| v.as_str().is_some_and(|s| s == "continue" || s == "block"));
    let non_empty = |k| optional(map, k, |v| v.as_str().is_some_and(|s| !s.is_empty()));
    let strings = |v: &Json| v.as_array().is_some_and(|a| a.iter().all(Json::is_string));
    common
        && match map.get("type").and_then(Json::as_str) {
            Some("command") => {
                required("command")
                    && optional(map, "args", strings)
                    && optional(map, "shell", |v| v.as_str().is_some_and(|s| s == "bash" || s == "powershell"))
                    && on_failure
                    && flag("async")
                    && flag("asyncRewake")
                    && non_empty("rewakeMessage")
                    && non_empty("rewakeSummary")
            }
            Some("prompt") => required("prompt") && string("model") && flag("continueOnBlock"),
            Some("agent") => required("prompt") && string("model"),
            Some("mcp_tool") => required("server") && required("tool") && optional(map, "input", Json::is_object),
            Some("http") => {
                map.get("url").and_then(Json::as_str).is_some_and(is_url)
                    && on_failure
                    && optional(map, "headers", |h| h.as_object().is_some_and(|o| o.values().all(Json::is_string)))
                    && optional(map, "allowedEnvVars", strings)
            }
            _ => false,
        }
}

/// An absent key passes an optional zod field; `null` does not.
fn optional(map: &Map<String, Json>, key: &str, ok: impl Fn(&Json) -> bool) -> bool {
    map.get(key).is_none_or(ok)
}

/// What WHATWG `new URL()` accepts, closely enough: a scheme, then something.
fn is_url(s: &str) -> bool {
    let s = s.trim();
    let Some((scheme, rest)) = s.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && (!["http", "https", "ws", "wss", "ftp"].contains(&scheme.to_ascii_lowercase().as_str())
            || rest.trim_start_matches(['/', '\\']).split(['/', '?', '#']).next().is_some_and(|h| !h.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::problem;
    use serde_json::json;

    fn check(v: serde_json::Value) -> Option<String> {
        problem(v.as_object().unwrap())
    }

    #[test]
    fn a_nested_hooks_list_looks_like_a_matcher() {
        assert!(check(json!({"related": {"skills": ["a"], "hooks": ["ruff"]}})).is_some());
        assert!(check(json!({"related": {"hooks": []}})).is_none());
        assert!(check(json!({"metadata": {"hooks": ["x"]}})).is_none());
        assert!(check(json!({"a": {"b": {"c": {"d": {"PreToolUse": [1]}}}}})).is_some(), "a guard map is seen one level below the depth");
        assert!(check(json!({"a": {"b": {"c": {"d": {"e": {"PreToolUse": [1]}}}}}})).is_none(), "deeper is not scanned");
        assert!(check(json!({"a": {"PreToolUse": [1]}})).is_some());
        assert!(check(json!({"PreToolUse": []})).is_none());
    }

    #[test]
    fn only_guarding_events_refuse_for_a_broken_entry() {
        let entry = json!({"type": "command", "command": "lint"});
        assert!(check(json!({"hooks": {"PostToolUse": [{"hooks": [{"type": "nope"}]}]}})).is_none());
        assert!(check(json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "nope"}]}]}})).is_some());
        assert!(check(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [entry]}]}})).is_none());
        assert!(check(json!({"hooks": {"PreToolUse": [{"matcher": 5, "hooks": [entry]}]}})).is_some());
        assert!(check(json!({"hooks": {"Unknown": [{"hooks": [entry]}]}})).is_none(), "unknown events are dropped");
        assert!(check(json!({"hooks": {"Unknown": {"PreToolUse": [entry]}}})).is_some());
        assert!(check(json!({"hooks": "lint"})).is_some());
        assert!(check(json!({"hooks": false})).is_none());
    }
}
