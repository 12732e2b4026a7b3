//! The pool: the ordered list of tools offered to the model for one request, and how it is
//! assembled.
//!
//! Built-ins and MCP tools are sorted separately and concatenated, built-ins first, so the
//! built-ins stay one contiguous prefix: a flat sort would slide MCP tools between built-ins and
//! change every byte of the rendered block after them, and with it the prompt-cache key. Both
//! partitions sort with [`compare_names`], which ignores locale.

use std::collections::HashSet;
use std::sync::Arc;

use crate::catalog::{Catalog, get_tools};
use crate::defer::decide_deferral;
use crate::env::Env;
use crate::permissions::PermissionContext;
use crate::registry::compare_names;
pub use crate::tool_info::{McpAnnotations, McpInfo, Origin, Pool, ToolInfo, find_tool};

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
/// profile [keeps](crate::profile::Profile::keeps_in_final_pool) (the design's coordinator mode
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
