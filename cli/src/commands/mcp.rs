//! `mcp servers`: the live servers' states.

use std::process::ExitCode;

use serde_json::{Value, json};
use toolreg::mcp::{Layout, printable};

use super::{Result, out};

/// `toolreg mcp servers`: each server's state, after connecting them all.
pub(super) fn mcp_servers(args: &crate::cli::PoolArgs, json: bool) -> Result<ExitCode> {
    use toolreg_mcp::ServerState;
    let path = args
        .mcp_config
        .as_deref()
        .ok_or("toolreg mcp servers needs --mcp-config FILE")?;
    let runtime = crate::setup::runtime()?;
    let environment = crate::setup::environment(args, &[]);
    let (hub, _, _) = crate::setup::connect(path, &runtime, &environment)?;
    let rows: Vec<Value> = hub
        .statuses()
        .into_iter()
        .map(|status| match status.state {
            ServerState::Connected { protocol, tools } => json!({
                "name": status.name, "state": "connected", "protocol": protocol, "tools": tools,
            }),
            ServerState::Pending => json!({"name": status.name, "state": "pending"}),
            ServerState::Failed(error) => json!({
                "name": status.name, "state": "failed", "error": error.to_string(),
            }),
        })
        .collect();
    runtime.block_on(hub.close());
    if json {
        return out(&serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?);
    }
    let width = rows
        .iter()
        .filter_map(|row| row["name"].as_str())
        .map(|name| printable(name, Layout::OneLine).len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "{:<width$}  {:<9}  {:<10}  {:>5}  ERROR",
        "NAME", "STATE", "PROTOCOL", "TOOLS"
    );
    for row in &rows {
        // One line a server, whatever it wrote.
        let field =
            |key: &str| printable(row[key].as_str().unwrap_or(""), Layout::OneLine).into_owned();
        let tools = row["tools"]
            .as_u64()
            .map_or(String::new(), |n| n.to_string());
        text.push_str(&format!(
            "\n{:<width$}  {:<9}  {:<10}  {:>5}  {}",
            field("name"),
            field("state"),
            field("protocol"),
            tools,
            field("error")
        ));
    }
    out(&text)
}
