//! `_build_agent_data` and the per-type handlers of the loader: each attribute checked
//! in the package's order and stored as the oracle renders it (`AgentConfig` fields in
//! `config`, the type-specific `AgentCardData` keys beside it).

use serde_json::{json, Map as JsonMap, Value as Json};

use super::raw::{str_to_none, Failure, RawCard};
use super::rules::{default_use_history, CardType};
use super::validate::{expand_user, CardContext, InstructionRule, Reference};
use crate::py;
use crate::yaml::Value;

type Data = (JsonMap<String, Json>, JsonMap<String, Json>, Vec<Reference>);

pub(super) struct Checker<'a> {
    pub(super) raw: &'a RawCard,
}

impl<'a> Checker<'a> {
    pub(super) fn line(&self, key: &str) -> Option<u32> {
        self.raw.line(key)
    }

    pub(super) fn err(&self, key: &str, what: &str) -> Failure {
        Failure::validation(format!("'{key}' {what}"), self.line(key))
    }

    /// `_ensure_bool(raw.get(key), default)`: null is the default, anything but a bool
    /// is rejected.
    pub(super) fn boolean(&self, key: &str, default: bool) -> Result<bool, Failure> {
        match self.raw.value(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.err(key, "must be a boolean")),
        }
    }

    /// `_ensure_str_list(raw.get(key, []))`: entries must be non-blank strings, kept as
    /// written.
    pub(super) fn str_list(&self, key: &str) -> Result<Vec<String>, Failure> {
        match self.raw.value(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Seq(items)) => items
                .iter()
                .map(|n| match &n.value {
                    Value::Str(s) if str_to_none(&n.value).is_some() => Ok(s.clone()),
                    _ => Err(self.err(key, "entries must be strings")),
                })
                .collect(),
            Some(_) => Err(self.err(key, "must be a list of strings")),
        }
    }

    /// `_ensure_str(raw.get(key, default))`: a non-blank string, kept as written.
    pub(super) fn string(&self, key: &str, default: Option<&str>) -> Result<String, Failure> {
        let value = match (self.raw.value(key), default) {
            (None, Some(d)) => return Ok(d.to_string()),
            (None, None) => Value::Null,
            (Some(v), _) => v.clone(),
        };
        match &value {
            Value::Str(s) if str_to_none(&value).is_some() => Ok(s.clone()),
            _ => Err(self.err(key, "must be a non-empty string")),
        }
    }

    /// `_ensure_optional_str`: null, or a non-blank string stored trimmed.
    pub(super) fn optional_str(&self, key: &str) -> Result<Option<String>, Failure> {
        match self.raw.value(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => str_to_none(v).map(|s| Some(s.to_string())).ok_or_else(|| self.err(key, "must be a non-empty string")),
        }
    }

    /// `_ensure_int(raw.get(key, default))`: an int that is not a bool.
    pub(super) fn int(&self, key: &str, default: i64) -> Result<Json, Failure> {
        match self.raw.value(key) {
            None => Ok(json!(default)),
            Some(v @ (Value::Int(_) | Value::BigInt(_))) => Ok(v.to_json_python()),
            Some(_) => Err(self.err(key, "must be an integer")),
        }
    }

    /// `_ensure_float`: an int or float (not a bool), stored as a float.
    pub(super) fn float(&self, key: &str, value: &Value) -> Result<Json, Failure> {
        match value {
            Value::Int(i) => Ok(json!(*i as f64)),
            Value::Float(f) => Ok(float_json(*f)),
            _ => Err(self.err(key, "must be a number")),
        }
    }

    /// `_ensure_filter_map`: server name → list of non-blank strings.
    pub(super) fn filter_map(&self, key: &str) -> Result<Json, Failure> {
        let Some(value) = self.raw.value(key) else { return Ok(json!({})) };
        let map = match value {
            Value::Null => return Ok(json!({})),
            Value::Map(m) => m,
            _ => return Err(self.err(key, "must be a mapping")),
        };
        let mut out = JsonMap::new();
        for (k, v) in &map.entries {
            let Some(_) = str_to_none(&k.value) else { return Err(self.err(key, "keys must be strings")) };
            let Value::Seq(items) = &v.value else { return Err(self.err(key, "values must be lists")) };
            if items.iter().any(|n| str_to_none(&n.value).is_none()) {
                return Err(self.err(key, "values must be strings"));
            }
            out.insert(py::str_of(&k.value), v.value.to_json_python());
        }
        Ok(Json::Object(out))
    }

    /// `_ensure_hook_map`: a mapping, keys and values through `str()`.
    pub(super) fn hook_map(&self, key: &str) -> Result<Option<JsonMap<String, Json>>, Failure> {
        match self.raw.value(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Map(m)) => Ok(Some(
                m.entries.iter().map(|(k, v)| (py::str_of(&k.value), Json::String(py::str_of(&v.value)))).collect(),
            )),
            Some(_) => Err(self.err(key, "must be a dict")),
        }
    }
}

/// Everything `_build_agent_data` stores, plus the references to other agents.
pub fn agent_data(raw: &RawCard, t: CardType, name: &str, instruction: &str, cx: &CardContext) -> Result<Data, Failure> {
    let c = Checker { raw };
    let mut config = JsonMap::new();
    let rfc = cx.rule == InstructionRule::Rfc;
    let (servers, inline_tools) = if rfc { super::attributes::rfc_servers(&c)? } else { (c.str_list("servers")?, JsonMap::new()) };
    config.insert("servers".into(), json!(servers));
    config.insert("mcp_connect".into(), super::attributes::mcp_connect(&c)?);
    for key in ["tools", "resources", "prompts"] {
        let mut filters = c.filter_map(key)?;
        if key == "tools" {
            if let Json::Object(m) = &mut filters {
                for (server, tools) in &inline_tools {
                    m.entry(server.clone()).or_insert(tools.clone());
                }
            }
        }
        config.insert(key.into(), filters);
    }
    config.insert("model".into(), raw.value("model").map(Value::to_json_python).unwrap_or(Json::Null));
    // A non-bool `use_history` is silently replaced by the type's default.
    let use_history = match raw.value("use_history") {
        Some(Value::Bool(b)) => *b,
        _ => default_use_history(t),
    };
    config.insert("use_history".into(), json!(use_history));
    let save_trajectory = c.boolean("save_trajectory", false)?;
    config.insert("save_trajectory".into(), json!(save_trajectory));
    let request_params = match raw.value("request_params") {
        None | Some(Value::Null) => Json::Null,
        Some(Value::Map(m)) => super::request_params::dump(m).map_err(|e| {
            Failure::validation(format!("Invalid request_params: {e}"), c.line("request_params"))
        })?,
        Some(_) => return Err(c.err("request_params", "must be a mapping")),
    };
    config.insert("human_input".into(), json!(c.boolean("human_input", false)?));
    let default = c.boolean("default", false)?;
    let tool_only = c.boolean("tool_only", false)?;
    if default && tool_only {
        return Err(Failure::validation(
            format!("Agent '{name}' cannot have both 'default' and 'tool_only' set to true"),
            c.line("tool_only"),
        ));
    }
    config.insert("default".into(), json!(default));
    config.insert("tool_only".into(), json!(tool_only));
    let subagents = match raw.value("subagents") {
        None => Json::Null,
        Some(Value::Bool(b)) => json!(b),
        Some(_) => return Err(c.err("subagents", "must be a boolean")),
    };
    config.insert("subagents".into(), subagents);
    let subagent_model = match raw.value("subagent_model") {
        None => Json::Null,
        Some(v) => json!(str_to_none(v).ok_or_else(|| c.err("subagent_model", "must be a non-empty string"))?),
    };
    config.insert("subagent_model".into(), subagent_model);
    let harness_tools = c.boolean("harness_tools", false)?;
    if harness_tools && tool_only {
        return Err(c.err("harness_tools", "cannot be enabled on a tool-only agent"));
    }
    config.insert("harness_tools".into(), json!(harness_tools));
    config.insert("api_key".into(), raw.value("api_key").map(Value::to_json_python).unwrap_or(Json::Null));
    let tool_input_schema = match raw.value("tool_input_schema") {
        None | Some(Value::Null) => Json::Null,
        Some(v @ Value::Map(schema)) => match super::tool_schema::errors(schema).join("; ") {
            problems if problems.is_empty() => v.to_json_python(),
            problems => return Err(c.err("tool_input_schema", &problems)),
        },
        Some(_) => return Err(c.err("tool_input_schema", "must be a mapping")),
    };
    config.insert("tool_input_schema".into(), tool_input_schema);
    config.insert("function_tools".into(), super::attributes::function_tools(&c)?);
    config.insert("shell".into(), json!(c.boolean("shell", false)?));
    let cwd = match raw.value("cwd") {
        None | Some(Value::Null) => Json::Null,
        Some(Value::Str(s)) => {
            let p = expand_user(s, cx.home);
            Json::String(if p.is_absolute() { (cx.source_key)(&p) } else { pure_posix(s) })
        }
        Some(_) => return Err(c.err("cwd", "must be a string")),
    };
    config.insert("cwd".into(), cwd);
    let tool_hooks = match raw.value("tool_hooks") {
        // The RFC writes hooks as a list of references (strings or `{hook, match, predicate}`).
        Some(v @ Value::Seq(_)) if rfc => v.to_json_python(),
        _ => c.hook_map("tool_hooks")?.map(Json::Object).unwrap_or(Json::Null),
    };
    config.insert("tool_hooks".into(), tool_hooks);
    let lifecycle = c.hook_map("lifecycle_hooks")?;
    if let Some(hooks) = &lifecycle {
        let mut invalid: Vec<&String> = hooks.keys().filter(|k| !matches!(k.as_str(), "on_start" | "on_shutdown")).collect();
        if !invalid.is_empty() {
            invalid.sort();
            return Err(c.err("lifecycle_hooks", &format!("has invalid hook types {invalid:?}; valid: on_shutdown, on_start")));
        }
    }
    config.insert("lifecycle_hooks".into(), lifecycle.map(Json::Object).unwrap_or(Json::Null));
    let commands = match raw.value("commands") {
        None | Some(Value::Null) => Json::Null,
        Some(v @ Value::Map(_)) => v.to_json_python(),
        Some(_) => return Err(c.err("commands", "must be a mapping of command specs")),
    };
    config.insert("commands".into(), commands);
    config.insert("trim_tool_history".into(), json!(c.boolean("trim_tool_history", false)?));
    // `skills: null` in the report stands for the SKILLS_DEFAULT sentinel.
    config.insert("skills".into(), raw.present("skills").map(Value::to_json_python).unwrap_or(Json::Null));
    if save_trajectory && use_history {
        return Err(c.err("save_trajectory", "requires use_history=False"));
    }
    config.insert("request_params".into(), request_params);
    config.insert("agent_type".into(), json!(t.agent_type()));

    let mut data = JsonMap::new();
    data.insert("type".into(), json!(t.agent_type()));
    data.insert("tool_only".into(), json!(tool_only));
    let refs = type_specific(&c, t, instruction, &mut data)?;
    Ok((config, data, refs))
}

/// `PurePosixPath(s).as_posix()` for a relative path: `.` parts, doubled and trailing
/// slashes dropped.
fn pure_posix(s: &str) -> String {
    let parts: Vec<&str> = s.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

fn references(c: &Checker, attribute: &'static str, names: &[String], checked: bool) -> Vec<Reference> {
    names
        .iter()
        .map(|n| Reference { attribute, name: n.clone(), line: c.line(attribute), checked })
        .collect()
}

fn type_specific(c: &Checker, t: CardType, instruction: &str, data: &mut JsonMap<String, Json>) -> Result<Vec<Reference>, Failure> {
    let raw = c.raw;
    let mut refs = Vec::new();
    let non_empty = |key: &str| -> Result<Vec<String>, Failure> {
        let list = c.str_list(key)?;
        if list.is_empty() {
            return Err(c.err(key, "must include at least one agent"));
        }
        Ok(list)
    };
    match t {
        CardType::Agent => {
            let agents = c.str_list("agents")?;
            if !agents.is_empty() {
                refs = references(c, "agents", &agents, false);
                data.insert("child_agents".into(), json!(agents));
                let options = agents_as_tools_options(c)?;
                if !options.is_empty() {
                    data.insert("agents_as_tools_options".into(), Json::Object(options));
                }
            }
            if let Some(v) = raw.value("function_tools") {
                data.insert("function_tools".into(), v.to_json_python());
            }
            if let Some(v) = raw.value("history_mode") {
                data.insert("history_mode".into(), v.to_json_python());
            }
        }
        CardType::Chain => {
            let sequence = non_empty("sequence")?;
            refs = references(c, "sequence", &sequence, true);
            data.insert("sequence".into(), json!(sequence));
            data.insert("cumulative".into(), json!(c.boolean("cumulative", false)?));
        }
        CardType::Parallel => {
            let fan_out = non_empty("fan_out")?;
            refs = references(c, "fan_out", &fan_out, true);
            data.insert("fan_out".into(), json!(fan_out));
            let fan_in = match raw.value("fan_in") {
                None | Some(Value::Null) => Json::Null,
                Some(Value::Str(s)) => {
                    refs.push(Reference { attribute: "fan_in", name: s.clone(), line: c.line("fan_in"), checked: true });
                    json!(s)
                }
                Some(_) => return Err(c.err("fan_in", "must be a string")),
            };
            data.insert("fan_in".into(), fan_in);
            data.insert("include_request".into(), json!(c.boolean("include_request", true)?));
        }
        CardType::EvaluatorOptimizer => {
            let generator = c.string("generator", None)?;
            let evaluator = c.string("evaluator", None)?;
            refs.push(Reference { attribute: "generator", name: generator.clone(), line: c.line("generator"), checked: true });
            refs.push(Reference { attribute: "evaluator", name: evaluator.clone(), line: c.line("evaluator"), checked: true });
            data.insert("generator".into(), json!(generator));
            data.insert("evaluator".into(), json!(evaluator));
            data.insert("min_rating".into(), json!(c.string("min_rating", Some("GOOD"))?));
            data.insert("max_refinements".into(), c.int("max_refinements", 3)?);
            data.insert(
                "refinement_instruction".into(),
                raw.value("refinement_instruction").map(Value::to_json_python).unwrap_or(Json::Null),
            );
        }
        CardType::Router => {
            let agents = non_empty("agents")?;
            refs = references(c, "agents", &agents, true);
            data.insert("router_agents".into(), json!(agents));
            data.insert("instruction".into(), json!(instruction));
        }
        CardType::Orchestrator | CardType::IterativePlanner => {
            let agents = non_empty("agents")?;
            refs = references(c, "agents", &agents, true);
            data.insert("child_agents".into(), json!(agents));
            if t == CardType::Orchestrator {
                data.insert("plan_type".into(), json!(c.string("plan_type", Some("full"))?));
                data.insert("plan_iterations".into(), c.int("plan_iterations", 5)?);
            } else {
                data.insert("plan_iterations".into(), c.int("plan_iterations", -1)?);
            }
        }
        CardType::Maker => {
            let worker = c.string("worker", None)?;
            refs.push(Reference { attribute: "worker", name: worker.clone(), line: c.line("worker"), checked: true });
            data.insert("worker".into(), json!(worker));
            data.insert("k".into(), c.int("k", 3)?);
            data.insert("max_samples".into(), c.int("max_samples", 50)?);
            data.insert("match_strategy".into(), json!(c.string("match_strategy", Some("exact"))?));
            let red_flag = match raw.value("red_flag_max_length") {
                None | Some(Value::Null) => Json::Null,
                Some(_) => c.int("red_flag_max_length", 0)?,
            };
            data.insert("red_flag_max_length".into(), red_flag);
        }
        CardType::A2a => {
            data.insert("a2a".into(), super::attributes::a2a(c)?);
        }
    }
    Ok(refs)
}

fn agents_as_tools_options(c: &Checker) -> Result<JsonMap<String, Json>, Failure> {
    let mut out = JsonMap::new();
    for key in ["history_source", "history_merge_target"] {
        if let Some(s) = c.optional_str(key)? {
            out.insert(key.into(), json!(s));
        }
    }
    for key in ["max_parallel", "child_timeout_sec", "max_display_instances"] {
        match c.raw.value(key) {
            None | Some(Value::Null) => {}
            Some(v) if key == "child_timeout_sec" => {
                out.insert(key.into(), c.float(key, v)?);
            }
            Some(_) => {
                out.insert(key.into(), c.int(key, 0)?);
            }
        }
    }
    // The package inserts in this order: history_source, history_merge_target,
    // max_parallel, child_timeout_sec, max_display_instances.
    Ok(out)
}

/// A float as the oracle's `json.dumps` writes it; NaN and ±inf, which JSON cannot
/// hold, kept as such (the report writes them bare, as Python does).
pub(super) fn float_json(f: f64) -> Json {
    crate::store::nonfinite_marker(f)
}
