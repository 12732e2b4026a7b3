//! Which tools are deferred: sent by name only until ToolSearch loads them. Pool assembly
//! decides it once per tool and records it in the tool ([`ToolInfo::deferral`]); search,
//! rendering and dispatch ask [`ToolInfo::is_deferred`] and never the environment.

use std::sync::Arc;

use crate::{Env, ToolInfo};

/// Whether `tool` is sent by name only until ToolSearch loads it, in `env`. The first rule that
/// applies: always-load → no; MCP → yes; ToolSearch → no; the profile's
/// [`deferral`](crate::Profile::deferral) override; otherwise the tool's `defer` flag.
///
/// ```
/// use toolreg::pool::deferral;
/// use toolreg::{Env, ToolInfo};
/// use toolreg::mcp::load_server;
/// use serde_json::json;
///
/// let env = Env::default();
/// let mcp = load_server("git", &json!([{"name": "git_log", "inputSchema": {"type": "object"}}]));
/// assert!(deferral(&mcp.tools[0], &env));
/// assert!(!deferral(&ToolInfo::new("Weather", "Gives the weather."), &env));
/// ```
pub fn deferral(tool: &ToolInfo, env: &Env) -> bool {
    if tool.flags.always_load {
        return false;
    }
    if tool.is_mcp() {
        return true;
    }
    if tool.name == crate::search::TOOL_NAME {
        return false;
    }
    env.profile
        .deferral(tool, env.gates())
        .unwrap_or(tool.flags.defer)
}

/// Records [`deferral`] in each tool of `tools` whose [`is_deferred`](ToolInfo::is_deferred)
/// would answer otherwise; the others (every MCP tool, most built-ins) are left as they are and
/// stay shared.
pub(crate) fn decide_deferral(tools: &mut [Arc<ToolInfo>], env: &Env) {
    for tool in tools {
        let decided = deferral(tool, env);
        if tool.is_deferred() != decided {
            Arc::make_mut(tool).deferral = Some(decided);
        }
    }
}
