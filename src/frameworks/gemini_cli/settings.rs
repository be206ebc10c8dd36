//! What Gemini CLI 0.61.0 takes from outside the agent files: settings
//! (`~/.gemini/settings.json`, the workspace's `.gemini/settings.json` when trusted:
//! `experimental.enableAgents`, `security.folderTrust.enabled`,
//! `agents.overrides`, `agents.overrides.browser_agent.enabled`), installed
//! extensions (`~/.gemini/extensions/<ext>/gemini-extension.json`, enabled per
//! `extension-enablement.json`), the ExtensionManager's `hydrateString`,
//! `ModelConfigService.merge`, and `registerRemoteAgent`'s card description.

use crate::discover::Hold;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};

use super::LoadContext;
use crate::frameworks::node::{merge_deep, strip_json_comments};

pub struct Settings {
    pub agents_enabled: bool,
    pub folder_trust: bool,
    pub browser_enabled: bool,
    /// `skills.enabled` (default true): false leaves no skill at all.
    pub skills_enabled: bool,
    /// `skills.disabled`: the user's and the workspace's lists together (a union),
    /// lower-cased, as `setDisabledSkills` matches them.
    pub skills_disabled: Vec<String>,
    overrides: Map<String, Json>,
}

pub use crate::frameworks::node::truthy;

/// A settings file: JSON with comments (`strip-json-comments`), `None` when absent or
/// unreadable.
fn read_json(cx: &LoadContext, path: &Path) -> Option<Json> {
    let bytes = cx.files.read(path, Hold::Kept).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    serde_json::from_str(&strip_json_comments(&text)).ok()
}


/// A list of names in settings, lower-cased (entries that are not strings dropped).
fn names_at(v: &Json, path: &[&str]) -> Vec<String> {
    at(v, path).and_then(Json::as_array).into_iter().flatten().filter_map(Json::as_str).map(str::to_lowercase).collect()
}

fn at<'a>(v: &'a Json, path: &[&str]) -> Option<&'a Json> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

impl Settings {
    pub fn read(cx: &LoadContext, home: &Path) -> Settings {
        let user = read_json(cx, &home.join(".gemini/settings.json")).unwrap_or(Json::Null);
        let folder_trust = at(&user, &["security", "folderTrust", "enabled"]).and_then(Json::as_bool).unwrap_or(true);
        let mut merged = if user.is_object() { user } else { Json::Object(Map::new()) };
        let mut skills_disabled = names_at(&merged, &["skills", "disabled"]);
        let workspace = cx.roots.cwd.join(".gemini/settings.json");
        if (!folder_trust || cx.roots.trusted) && workspace != home.join(".gemini/settings.json") {
            if let Some(w) = read_json(cx, &workspace).filter(Json::is_object) {
                skills_disabled.extend(names_at(&w, &["skills", "disabled"]));
                merge_deep(&mut merged, &w);
            }
        }
        let overrides = at(&merged, &["agents", "overrides"]).and_then(Json::as_object).cloned().unwrap_or_default();
        Settings {
            agents_enabled: at(&merged, &["experimental", "enableAgents"]).and_then(Json::as_bool).unwrap_or(true),
            folder_trust,
            browser_enabled: at(&merged, &["agents", "overrides", "browser_agent", "enabled"]).and_then(Json::as_bool).unwrap_or(false),
            skills_enabled: at(&merged, &["skills", "enabled"]).and_then(Json::as_bool).unwrap_or(true),
            skills_disabled,
            overrides,
        }
    }

    /// Whether `setDisabledSkills` disables a skill of this name (case-insensitively).
    pub fn skill_disabled(&self, name: &str) -> bool {
        self.skills_disabled.contains(&name.to_lowercase())
    }

    pub fn overrides(&self, name: &str) -> Option<&Map<String, Json>> {
        self.overrides.get(name).and_then(Json::as_object)
    }

    /// `isAgentEnabled`: `enabled: false` in the name's overrides.
    pub fn disabled(&self, name: &str) -> bool {
        self.overrides(name).and_then(|o| o.get("enabled")) == Some(&Json::Bool(false))
    }

    /// An override with `tools` (0.61.0 fails to register such an agent).
    pub fn override_sets_tools(&self, name: &str) -> bool {
        self.overrides(name).and_then(|o| o.get("tools")).is_some_and(truthy)
    }
}

/// One installed, enabled extension.
pub struct Extension {
    pub name: String,
    pub dir: PathBuf,
}

/// The extensions the ExtensionManager loads, in folder order: each folder of
/// `~/.gemini/extensions` whose `gemini-extension.json` names it, unless
/// `extension-enablement.json` disables it for the working folder.
pub fn extensions(cx: &LoadContext, home: &Path) -> Vec<Extension> {
    let root = home.join(".gemini/extensions");
    let Ok(Some(entries)) = cx.files.list_dir(&root) else { return Vec::new() };
    let enablement = read_json(cx, &root.join("extension-enablement.json")).unwrap_or(Json::Null);
    let cwd = slashed(&crate::model::posix(&cx.roots.cwd));
    crate::discover::in_listing_order(&entries, cx.roots.listing)
        .into_iter()
        .filter(|e| e.is_dir)
        .filter_map(|e| {
            let config = read_json(cx, &e.path.join("gemini-extension.json"))?;
            let name = config.get("name")?.as_str()?.to_string();
            enabled(&enablement, &name, &cwd).then(|| Extension { name, dir: e.path.to_path_buf() })
        })
        .collect()
}

fn slashed(p: &str) -> String {
    let mut s = p.replace('\\', "/");
    if !s.starts_with('/') {
        s.insert(0, '/');
    }
    if !s.ends_with('/') {
        s.push('/');
    }
    s
}

/// `ExtensionEnablementManager.isEnabled`: the last matching rule wins.
fn enabled(config: &Json, name: &str, cwd: &str) -> bool {
    let mut on = true;
    for rule in at(config, &[name, "overrides"]).and_then(Json::as_array).into_iter().flatten().filter_map(Json::as_str) {
        let (disable, base) = match rule.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, rule),
        };
        let matches = match base.strip_suffix('*') {
            Some(prefix) => {
                let prefix = prefix.trim_end_matches('/');
                cwd.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('/'))
            }
            None => cwd == base,
        };
        if matches {
            on = !disable;
        }
    }
    on
}

/// `hydrateString`: `${name}` replaced where the context knows the name.
pub fn hydrate(text: &str, extension: &Path, workspace: &Path) -> String {
    let value = |key: &str| -> Option<String> {
        match key {
            "extensionPath" => Some(extension.display().to_string()),
            "workspacePath" => Some(workspace.display().to_string()),
            "/" | "pathSeparator" => Some(std::path::MAIN_SEPARATOR.to_string()),
            _ => None,
        }
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        // `/\${(.*?)}/`: `.` stops at line terminators.
        let close = after.find(['}', '\n', '\r', '\u{2028}', '\u{2029}']).filter(|&i| after[i..].starts_with('}'));
        match close.and_then(|i| value(&after[..i]).map(|v| (i, v))) {
            Some((i, v)) => {
                out.push_str(&rest[..start]);
                out.push_str(&v);
                rest = &after[i + 1..];
            }
            None => {
                let skip = match close {
                    Some(i) => start + 2 + i + 1,
                    None => start + 1,
                };
                out.push_str(&rest[..skip]);
                rest = &rest[skip..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `ModelConfigService.merge`: the override's model when given; the content
/// configs deep-merged.
pub fn merge_model_config(base: &Json, over: &Json) -> Json {
    let model = over.get("model").filter(|m| !m.is_null()).or_else(|| base.get("model")).cloned().unwrap_or(Json::Null);
    let mut gen = Json::Object(Map::new());
    for part in [base.get("generateContentConfig"), over.get("generateContentConfig")].into_iter().flatten() {
        if part.is_object() {
            merge_deep(&mut gen, part);
        }
    }
    serde_json::json!({ "model": model, "generateContentConfig": gen })
}

/// Whether the A2A client takes an inline card: `normalizeAgentCard` (an object;
/// `supportedInterfaces` standing in for `additionalInterfaces`), the gRPC URL
/// `loadAgent` reads, and `ClientFactory.createFromAgentCard` (a transport the CLI
/// has — JSONRPC, HTTP+JSON, GRPC — with a URL).
pub fn check_card(card: &Json) -> Result<(), String> {
    let Json::Object(card) = card else { return Err("Agent card is missing.".into()) };
    let interfaces: Vec<(String, Json)> = card
        .get("additionalInterfaces")
        .filter(|v| truthy(v))
        .or_else(|| card.get("supportedInterfaces").filter(|v| v.is_array()))
        .and_then(Json::as_array)
        .map(|list| {
            list.iter()
                .map(|i| {
                    let transport = i.get("transport").filter(|t| truthy(t)).or_else(|| i.get("protocolBinding").filter(|b| b.is_string()));
                    (transport.map(js_string).unwrap_or_default(), i.get("url").cloned().unwrap_or(Json::Null))
                })
                .collect()
        })
        .unwrap_or_default();
    let url = card.get("url").cloned().unwrap_or(Json::Null);
    let grpc = interfaces.iter().find(|(t, _)| t == "GRPC").map(|(_, u)| u.clone()).filter(|u| !u.is_null()).unwrap_or_else(|| url.clone());
    match grpc {
        Json::String(_) => {}
        Json::Null => return Err("Cannot read properties of undefined (reading 'startsWith')".into()),
        _ => return Err("grpcUrl.startsWith is not a function".into()),
    }
    let preferred = card.get("preferredTransport").filter(|p| !p.is_null()).map(js_string).unwrap_or_else(|| "JSONRPC".into());
    let mut urls: Vec<(String, Json)> = vec![(preferred.to_lowercase(), url)];
    for (t, u) in &interfaces {
        match urls.iter_mut().find(|(k, _)| *k == t.to_lowercase()) {
            Some(slot) => slot.1 = u.clone(),
            None => urls.push((t.to_lowercase(), u.clone())),
        }
    }
    let known = ["jsonrpc", "http+json", "grpc"];
    let usable = std::iter::once(preferred.to_lowercase()).chain(interfaces.iter().map(|(t, _)| t.to_lowercase())).any(|t| {
        known.contains(&t.as_str()) && urls.iter().any(|(k, u)| *k == t && truthy(u))
    });
    if usable {
        Ok(())
    } else {
        Err("No compatible transport found, available transports: JSONRPC,HTTP+JSON,GRPC".into())
    }
}

/// The description `registerRemoteAgent` gives an agent once its card is loaded.
pub fn card_description(user: &str, card: &Json) -> Option<String> {
    let mut parts = Vec::new();
    let user = super::schema::js_trim(user);
    if !user.is_empty() {
        parts.push(format!("User Description: {user}"));
    }
    if let Some(d) = card.get("description").and_then(Json::as_str).map(super::schema::js_trim).filter(|d| !d.is_empty()) {
        parts.push(format!("Agent Description: {d}"));
    }
    if let Some(skills) = card.get("skills").and_then(Json::as_array).filter(|s| !s.is_empty()) {
        let lines: Vec<String> = skills
            .iter()
            .map(|s| {
                let name = s.get("name").map(js_string).unwrap_or_else(|| "undefined".into());
                let desc = s.get("description").filter(|d| truthy(d)).map(js_string).unwrap_or_else(|| "No description provided".into());
                format!("{name}: {desc}")
            })
            .collect();
        parts.push(format!("Skills:\n{}", lines.join("\n")));
    }
    (!parts.is_empty()).then(|| parts.join("\n"))
}

fn js_string(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hydrate_replaces_known_names_only() {
        let h = hydrate("a${/}b ${pathSeparator} ${query} ${x\n} ${extensionPath}", Path::new("/e"), Path::new("/w"));
        assert_eq!(h, "a/b / ${query} ${x\n} /e");
    }

    #[test]
    fn comments_are_stripped_outside_strings() {
        let t = strip_json_comments("{\"a\": \"//x\", // c\n \"b\": /* d */ 1}");
        let v: Json = serde_json::from_str(&t).unwrap();
        assert_eq!(v["a"], "//x");
        assert_eq!(v["b"], 1);
    }
}
