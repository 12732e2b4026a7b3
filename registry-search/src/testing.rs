//! Pools for this crate's unit tests: MCP `tools/list` entries as deferred [`ToolDoc`]s named
//! `mcp__<server>__<tool>`, the names as received (no normalization: the tests' names are
//! already valid, or test what a name's own characters do).

use std::sync::Arc;

use serde_json::Value;

use crate::ToolDoc;

/// The tools of each server's list, in order.
pub(crate) fn load_servers<'a>(
    servers: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> Vec<Arc<ToolDoc>> {
    let mut pool = Vec::new();
    for (server, list) in servers {
        for tool in list.as_array().into_iter().flatten() {
            let text = |key: &str| tool.get(key).and_then(Value::as_str).unwrap_or_default();
            let name = format!("mcp__{server}__{}", text("name"));
            let schema = tool
                .get("inputSchema")
                .map_or("{}".into(), Value::to_string);
            let doc = ToolDoc::new(name, text("description"))
                .with_server(server)
                .with_input_schema(schema);
            pool.push(Arc::new(doc));
        }
    }
    pool
}

/// [`load_servers`] of one server.
pub(crate) fn load_server(server: &str, list: &Value) -> Vec<Arc<ToolDoc>> {
    load_servers([(server, list)])
}

/// An [`EvalSet`](crate::eval::EvalSet) loader over [`load_servers`].
pub(crate) fn eval_loader(servers: &crate::eval::ServerLists) -> Result<Vec<Arc<ToolDoc>>, String> {
    Ok(load_servers(
        servers.iter().map(|(server, list)| (server.as_str(), list)),
    ))
}
