//! Responses `namespace` tools: each MCP server's functions grouped under one name, as the
//! API's tool search loads a whole server's tools together.

use serde_json::{Value, json};

use crate::{Pool, ToolInfo};

/// The namespace of an MCP tool of the pool, and its name inside it: `mcp__<server>` and the
/// rest of its pool name, when the pool name starts with `mcp__<server>__` (a name the pool
/// had to shorten may not).
pub(crate) fn split(tool: &ToolInfo) -> Option<(String, &str)> {
    let mcp = tool.mcp()?;
    let namespace = format!("mcp__{}", mcp.normalized_server);
    let inner = tool.name.strip_prefix(&namespace)?.strip_prefix("__")?;
    (!inner.is_empty()).then_some((namespace, inner))
}

/// `tools` (rendered Responses tools) with the functions of each MCP server of `pool` moved
/// into one `namespace` tool, at the place of its first function; other tools stay as they are.
pub(crate) fn group(tools: Vec<Value>, pool: &Pool) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(tools.len());
    for mut tool in tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        let found = (tool.get("type").and_then(Value::as_str) == Some("function"))
            .then(|| pool.named(name))
            .flatten();
        let Some((namespace, inner, server)) = found.and_then(|entry| {
            let (namespace, inner) = split(entry)?;
            let server = entry
                .mcp()
                .map(|mcp| mcp.server.clone())
                .unwrap_or_default();
            Some((namespace, inner.to_owned(), server))
        }) else {
            out.push(tool);
            continue;
        };
        if let Some(fields) = tool.as_object_mut() {
            fields.insert("name".into(), inner.into());
        }
        let existing = out.iter_mut().find(|entry| {
            entry.get("type").and_then(Value::as_str) == Some("namespace")
                && entry.get("name").and_then(Value::as_str) == Some(namespace.as_str())
        });
        match existing
            .and_then(|entry| entry.get_mut("tools"))
            .and_then(Value::as_array_mut)
        {
            Some(members) => members.push(tool),
            None => out.push(json!({
                "type": "namespace",
                "name": namespace,
                "description": format!("Tools of the MCP server {server}."),
                "tools": [tool],
            })),
        }
    }
    out
}
