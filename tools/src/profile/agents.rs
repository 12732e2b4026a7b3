//! The design's agent contexts: which built-ins each kind of agent may use.
//!
//! Every agent but the coordinator keeps every MCP tool (the user connected those servers for
//! all agents); sub-agents and user-defined agents lose the disallowed set; background agents
//! keep only the allowed set, teammates that set and theirs. The coordinator only manages
//! workers.

use toolreg::ToolInfo;
use toolreg::env::{AgentKind, Gates};

use super::{feature, names};

/// Tools sub-agents may not use. Agent is allowed in the internal build (nested agents);
/// Workflow exists only with `WORKFLOW_SCRIPTS`.
pub fn all_agent_disallowed(gates: Gates<'_>) -> Vec<&'static str> {
    let mut set = vec![
        names::TASK_OUTPUT,
        names::EXIT_PLAN_MODE,
        names::ENTER_PLAN_MODE,
        names::ASK_USER_QUESTION,
        names::TASK_STOP,
    ];
    if !gates.features.is_on(feature::INTERNAL_BUILD) {
        set.push(names::AGENT);
    }
    if gates.features.is_on(feature::WORKFLOW_SCRIPTS) {
        set.push(names::WORKFLOW);
    }
    set
}

/// Tools user-defined agents may not use: the same set as for sub-agents.
pub fn custom_agent_disallowed(gates: Gates<'_>) -> Vec<&'static str> {
    all_agent_disallowed(gates)
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
pub fn in_process_teammate_allowed(gates: Gates<'_>) -> Vec<&'static str> {
    let mut set = vec![
        names::TASK_CREATE,
        names::TASK_GET,
        names::TASK_LIST,
        names::TASK_UPDATE,
        names::SEND_MESSAGE,
    ];
    if gates.features.is_on(feature::AGENT_TRIGGERS) {
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

/// Whether the coordinator may use a tool of this (permission) name.
pub fn is_coordinator_tool(name: &str) -> bool {
    COORDINATOR_MODE_ALLOWED.contains(&name) || name.ends_with("subscribe_pr_activity")
}

/// Whether an agent of `kind` may use `tool`.
pub(super) fn is_allowed_for_agent(tool: &ToolInfo, kind: AgentKind, gates: Gates<'_>) -> bool {
    let name = tool.name.as_str();
    match kind {
        AgentKind::Coordinator => is_coordinator_tool(tool.permission_name()),
        _ if tool.is_mcp() => true,
        AgentKind::Main => true,
        AgentKind::SubAgent => !all_agent_disallowed(gates).contains(&name),
        AgentKind::CustomAgent => !custom_agent_disallowed(gates).contains(&name),
        AgentKind::Async => ASYNC_AGENT_ALLOWED.contains(&name),
        AgentKind::InProcessTeammate => {
            ASYNC_AGENT_ALLOWED.contains(&name)
                || in_process_teammate_allowed(gates).contains(&name)
        }
    }
}
