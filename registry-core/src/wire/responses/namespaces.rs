//! Responses `namespace` tools: each MCP server's functions grouped under one name, as the
//! API's tool search loads a whole server's tools together.

use crate::ToolInfo;

/// The namespace of an MCP tool of the pool, and its name inside it: `mcp__<server>` and the
/// rest of its pool name, when the pool name starts with `mcp__<server>__` (a name the pool
/// had to shorten may not).
pub(crate) fn split(tool: &ToolInfo) -> Option<(String, &str)> {
    let mcp = tool.mcp()?;
    let namespace = format!("mcp__{}", mcp.normalized_server);
    let inner = tool.name.strip_prefix(&namespace)?.strip_prefix("__")?;
    (!inner.is_empty()).then_some((namespace, inner))
}
