//! Assembling the pool for a request: the catalog's built-ins and the MCP tools no rule denies,
//! and merging extra tools into an assembled pool.

use std::sync::Arc;

use crate::Catalog;
use crate::Env;
use crate::PermissionContext;
use crate::pool::offered_builtins;
use crate::{Pool, ToolInfo};

/// The pool for a request: the built-ins of [`offered_builtins`], the MCP tools no deny rule of
/// `rules` matches, each partition sorted by name, built-ins first, later duplicates by name
/// removed (a built-in beats an MCP tool of the same name). Each tool's
/// [deferral](ToolInfo::deferral) is decided for `env`.
///
/// ```
/// use toolreg::mcp::load_server;
/// use toolreg::{Behavior, Catalog, Env, PermissionContext, RuleSource, assemble_tool_pool, builtins};
/// use serde_json::json;
///
/// let listed = json!([
///     {"name": "search_issues", "inputSchema": {"type": "object"}},
///     {"name": "delete_issue", "inputSchema": {"type": "object"}},
/// ]);
/// let mcp = load_server("tracker", &listed);
/// let rules = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "mcp__tracker__delete_issue");
/// let catalog = Catalog::new(builtins().unwrap(), &[]);
/// let pool = assemble_tool_pool(&Env::default(), &rules, &catalog, &mcp.tools);
/// // Built-ins first (here ToolSearch, and any `#[tool]` linked in), then MCP tools; the denied
/// // tool is gone; the MCP tool is deferred.
/// let last = pool.last().unwrap();
/// assert_eq!(last.name, "mcp__tracker__search_issues");
/// assert!(last.is_deferred());
/// assert!(pool.iter().all(|tool| tool.name != "mcp__tracker__delete_issue"));
/// ```
pub fn assemble_tool_pool(
    env: &Env,
    rules: &PermissionContext,
    catalog: &Catalog,
    mcp_tools: &[Arc<ToolInfo>],
) -> Pool {
    let builtins = offered_builtins(env, rules, catalog);
    let mcp = mcp_tools
        .iter()
        .filter(|tool| rules.deny_rule_for_tool(tool.rule_target()).is_none())
        .cloned()
        .collect();
    Pool::from_sections(env, builtins, mcp)
}

/// Merges extra initial tools into an assembled pool: unique by name over `initial` then
/// `assembled` (initial wins), partitioned sort, built-ins first; then only the tools the
/// profile [keeps](crate::env::profile::Profile::keeps_in_final_pool) (the design's coordinator mode
/// keeps the coordinator's set). Each tool's [deferral](ToolInfo::deferral) is decided for
/// `env`.
pub fn merge_and_filter_tools(
    env: &Env,
    initial: &[Arc<ToolInfo>],
    assembled: &[Arc<ToolInfo>],
) -> Pool {
    Pool::new(env, initial.iter().chain(assembled).cloned())
        .filter(|tool| env.profile.keeps_in_final_pool(tool, env.gates()))
}
