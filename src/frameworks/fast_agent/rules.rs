//! `agent_card_rules.py`: the card types, the keys each allows and requires, and the
//! names each type refers to (for the hierarchy and the start-up checks).

/// A card `type` after normalisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardType {
    Agent,
    Chain,
    Parallel,
    EvaluatorOptimizer,
    Router,
    Orchestrator,
    IterativePlanner,
    Maker,
    A2a,
}

impl CardType {
    /// `normalize_card_type`: trimmed and case-folded, `maker` → `MAKER`, blank → agent.
    pub fn parse(raw: &str) -> Option<CardType> {
        let key = crate::py::strip(raw).to_lowercase();
        Some(match key.as_str() {
            "" | "agent" => CardType::Agent,
            "chain" => CardType::Chain,
            "parallel" => CardType::Parallel,
            "evaluator_optimizer" => CardType::EvaluatorOptimizer,
            "router" => CardType::Router,
            "orchestrator" => CardType::Orchestrator,
            "iterative_planner" => CardType::IterativePlanner,
            "maker" => CardType::Maker,
            "a2a" => CardType::A2a,
            _ => return None,
        })
    }

    /// The card type as the package names it (`MAKER` upper-case).
    pub fn key(self) -> &'static str {
        match self {
            CardType::Agent => "agent",
            CardType::Chain => "chain",
            CardType::Parallel => "parallel",
            CardType::EvaluatorOptimizer => "evaluator_optimizer",
            CardType::Router => "router",
            CardType::Orchestrator => "orchestrator",
            CardType::IterativePlanner => "iterative_planner",
            CardType::Maker => "MAKER",
            CardType::A2a => "a2a",
        }
    }

    /// The stored `AgentType` value (`type` in the card data).
    pub fn agent_type(self) -> &'static str {
        match self {
            CardType::Agent => "basic",
            CardType::Maker => "maker",
            other => other.key(),
        }
    }

    pub fn is_workflow(self) -> bool {
        !matches!(self, CardType::Agent | CardType::A2a)
    }
}

const COMMON: &[&str] = &["type", "name", "instruction", "description", "default", "tool_only", "schema_version"];

const AGENT: &[&str] = &[
    "subagents", "subagent_model", "harness_tools", "agents", "servers", "tools", "resources", "prompts",
    "mcp_connect", "skills", "model", "use_history", "save_trajectory", "request_params", "human_input", "api_key",
    "history_source", "history_merge_target", "max_parallel", "child_timeout_sec", "max_display_instances",
    "function_tools", "tool_hooks", "lifecycle_hooks", "commands", "trim_tool_history", "tool_input_schema",
    "messages", "shell", "cwd", "variables",
];
const CHAIN: &[&str] = &["sequence", "cumulative"];
const PARALLEL: &[&str] = &["fan_out", "fan_in", "include_request"];
const EVALUATOR: &[&str] = &["generator", "evaluator", "min_rating", "max_refinements", "refinement_instruction", "messages"];
const ROUTER: &[&str] = &[
    "agents", "servers", "tools", "resources", "prompts", "model", "use_history", "save_trajectory", "request_params",
    "human_input", "api_key", "messages",
];
const ORCHESTRATOR: &[&str] = &[
    "agents", "model", "use_history", "save_trajectory", "request_params", "human_input", "api_key", "plan_type",
    "plan_iterations", "messages",
];
const PLANNER: &[&str] = &["agents", "model", "request_params", "api_key", "plan_iterations", "messages"];
const MAKER: &[&str] = &["worker", "k", "max_samples", "match_strategy", "red_flag_max_length", "messages"];
const A2A: &[&str] = &[
    "url", "transport", "streaming", "polling", "accepted_output_modes", "headers", "auth", "relative_card_path",
    "request_timeout_seconds",
];

/// `ALLOWED_FIELDS_BY_TYPE`.
pub fn allowed_fields(t: CardType) -> Vec<&'static str> {
    let own = match t {
        CardType::Agent => AGENT,
        CardType::Chain => CHAIN,
        CardType::Parallel => PARALLEL,
        CardType::EvaluatorOptimizer => EVALUATOR,
        CardType::Router => ROUTER,
        CardType::Orchestrator => ORCHESTRATOR,
        CardType::IterativePlanner => PLANNER,
        CardType::Maker => MAKER,
        CardType::A2a => A2A,
    };
    COMMON.iter().chain(own).copied().collect()
}

/// `REQUIRED_FIELDS_BY_TYPE`, in the order the error lists them.
pub fn required_fields(t: CardType) -> &'static [&'static str] {
    match t {
        CardType::Agent => &[],
        CardType::Chain => &["sequence"],
        CardType::Parallel => &["fan_out"],
        CardType::EvaluatorOptimizer => &["generator", "evaluator"],
        CardType::Router | CardType::Orchestrator | CardType::IterativePlanner => &["agents"],
        CardType::Maker => &["worker"],
        CardType::A2a => &["url"],
    }
}

/// `DEFAULT_USE_HISTORY_BY_TYPE`.
pub fn default_use_history(t: CardType) -> bool {
    !matches!(t, CardType::Router | CardType::Orchestrator | CardType::IterativePlanner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_trimmed_and_case_folded() {
        assert_eq!(CardType::parse(" ROUTER "), Some(CardType::Router));
        assert_eq!(CardType::parse("Maker"), Some(CardType::Maker));
        assert_eq!(CardType::parse("  "), Some(CardType::Agent));
        assert_eq!(CardType::parse("wizard"), None);
        assert_eq!(CardType::Maker.key(), "MAKER");
        assert_eq!(CardType::Maker.agent_type(), "maker");
        assert!(allowed_fields(CardType::Chain).contains(&"schema_version"));
        assert!(!allowed_fields(CardType::Chain).contains(&"servers"));
    }
}
