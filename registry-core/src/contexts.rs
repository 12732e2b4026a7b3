//! Agent contexts: which tools each kind of agent may use.
//!
//! Filtering a pool for an agent keeps every MCP tool (the user connected those servers for all
//! agents), removes the disallowed built-ins, and for background agents keeps only the allowed
//! set. Coordinator mode is a filter of its own: the coordinator only manages workers.

use std::sync::Arc;

use crate::env::Env;
use crate::names;
use crate::tool_info::{Pool, ToolInfo};

/// Which agent a pool is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// The main thread.
    Main,
    /// A sub-agent started by the Agent tool.
    SubAgent,
    /// A user-defined agent.
    CustomAgent,
    /// A background (async) agent.
    Async,
    /// An in-process teammate of an agent swarm.
    InProcessTeammate,
    /// The coordinator of coordinator mode.
    Coordinator,
}

impl AgentKind {
    /// Every kind.
    pub const ALL: [AgentKind; 6] = [
        AgentKind::Main,
        AgentKind::SubAgent,
        AgentKind::CustomAgent,
        AgentKind::Async,
        AgentKind::InProcessTeammate,
        AgentKind::Coordinator,
    ];
}

/// Tools sub-agents may not use. Agent is allowed in the internal build (nested agents);
/// Workflow exists only with `WORKFLOW_SCRIPTS`.
pub fn all_agent_disallowed(env: &Env) -> Vec<&'static str> {
    let mut set = vec![
        names::TASK_OUTPUT,
        names::EXIT_PLAN_MODE,
        names::ENTER_PLAN_MODE,
        names::ASK_USER_QUESTION,
        names::TASK_STOP,
    ];
    if !env.features.internal_build {
        set.push(names::AGENT);
    }
    if env.features.workflow_scripts {
        set.push(names::WORKFLOW);
    }
    set
}

/// Tools user-defined agents may not use: the same set as for sub-agents.
pub fn custom_agent_disallowed(env: &Env) -> Vec<&'static str> {
    all_agent_disallowed(env)
}

/// The only built-ins background agents may use.
pub const ASYNC_AGENT_ALLOWED: [&str; 16] = [
    names::READ,
    names::WEB_SEARCH,
    names::TODO_WRITE,
    names::GREP,
    names::WEB_FETCH,
    names::GLOB,
    names::BASH,
    names::POWERSHELL,
    names::EDIT,
    names::WRITE,
    names::NOTEBOOK_EDIT,
    names::SKILL,
    names::STRUCTURED_OUTPUT,
    names::TOOL_SEARCH,
    names::ENTER_WORKTREE,
    names::EXIT_WORKTREE,
];

/// What in-process teammates may use on top of [`ASYNC_AGENT_ALLOWED`]; the cron tools only with
/// `AGENT_TRIGGERS`.
pub fn in_process_teammate_allowed(env: &Env) -> Vec<&'static str> {
    let mut set = vec![
        names::TASK_CREATE,
        names::TASK_GET,
        names::TASK_LIST,
        names::TASK_UPDATE,
        names::SEND_MESSAGE,
    ];
    if env.features.agent_triggers {
        set.extend([names::CRON_CREATE, names::CRON_DELETE, names::CRON_LIST]);
    }
    set
}

/// The coordinator's tools; any tool whose name ends in `subscribe_pr_activity` (which covers
/// `unsubscribe_pr_activity`) is kept too.
pub const COORDINATOR_MODE_ALLOWED: [&str; 4] = [
    names::AGENT,
    names::TASK_STOP,
    names::SEND_MESSAGE,
    names::STRUCTURED_OUTPUT,
];

/// Whether the coordinator may use a tool of this name.
pub fn is_coordinator_tool(name: &str) -> bool {
    COORDINATOR_MODE_ALLOWED.contains(&name) || name.ends_with("subscribe_pr_activity")
}

/// Keeps only the coordinator's tools.
pub fn apply_coordinator_filter(tools: Pool) -> Pool {
    tools
        .into_iter()
        .filter(|tool| is_coordinator_tool(tool.permission_name()))
        .collect()
}

/// Whether an agent of `kind` may use `tool`.
pub fn is_allowed_for_agent(tool: &ToolInfo, kind: AgentKind, env: &Env) -> bool {
    let name = tool.name.as_str();
    match kind {
        AgentKind::Coordinator => is_coordinator_tool(tool.permission_name()),
        _ if tool.is_mcp() => true,
        AgentKind::Main => true,
        AgentKind::SubAgent => !all_agent_disallowed(env).contains(&name),
        AgentKind::CustomAgent => !custom_agent_disallowed(env).contains(&name),
        AgentKind::Async => ASYNC_AGENT_ALLOWED.contains(&name),
        AgentKind::InProcessTeammate => {
            ASYNC_AGENT_ALLOWED.contains(&name) || in_process_teammate_allowed(env).contains(&name)
        }
    }
}

/// The pool an agent of `kind` gets from `tools`, order kept.
pub fn filter_tools_for_agent(tools: &[Arc<ToolInfo>], kind: AgentKind, env: &Env) -> Pool {
    tools
        .iter()
        .filter(|tool| is_allowed_for_agent(tool, kind, env))
        .cloned()
        .collect()
}
