//! Assembling the pool: the sort that keeps the prompt cache, deduplication, deferral.

use std::collections::HashSet;
use std::sync::Arc;

use crate::Catalog;
use crate::Env;
use crate::PermissionContext;
use crate::pool::get_tools;
use crate::search::defer::decide_deferral;
use crate::tool::compare_names;

use crate::{Pool, ToolInfo};

fn by_name(a: &Arc<ToolInfo>, b: &Arc<ToolInfo>) -> std::cmp::Ordering {
    compare_names(&a.name, &b.name)
}

/// Keeps the first tool of each name.
fn uniq_by_name(tools: impl IntoIterator<Item = Arc<ToolInfo>>) -> Pool {
    let mut seen = HashSet::new();
    tools
        .into_iter()
        .filter(|tool| seen.insert(tool.name.clone()))
        .collect()
}

/// Sorts built-ins and MCP tools separately, built-ins first.
fn partitioned_sort(tools: Pool) -> Pool {
    let (mut builtins, mut mcp): (Pool, Pool) = tools.into_iter().partition(|tool| !tool.is_mcp());
    builtins.sort_by(by_name);
    mcp.sort_by(by_name);
    builtins.extend(mcp);
    builtins
}

/// The pool for a request: the built-ins of [`get_tools`], the MCP tools no deny rule of
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
    let mut builtins = get_tools(env, rules, catalog);
    builtins.sort_by(by_name);
    let mut mcp: Pool = mcp_tools
        .iter()
        .filter(|tool| rules.deny_rule_for_tool(tool.rule_target()).is_none())
        .cloned()
        .collect();
    mcp.sort_by(by_name);
    let mut pool = uniq_by_name(builtins.into_iter().chain(mcp));
    decide_deferral(&mut pool, env);
    pool
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
    let merged = uniq_by_name(initial.iter().chain(assembled).cloned());
    let mut sorted = partitioned_sort(merged);
    sorted.retain(|tool| env.profile.keeps_in_final_pool(tool, env.gates()));
    decide_deferral(&mut sorted, env);
    sorted
}
