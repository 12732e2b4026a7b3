//! What the gateway lists, in each mode (no server needed: the pool is built from a
//! `tools/list` result).

use serde_json::{Value, json};
use toolreg::mcp::load_server;
use toolreg::{Dispatcher, Env, PermissionContext, Pool};
use toolreg_mcp::{Gateway, GatewayMode};

fn pool() -> Pool {
    let listed = json!([
        {"name": "read_file", "title": "Read File", "description": "Reads a file",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
         "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}},
        {"name": "ping", "description": "Answers pong", "inputSchema": {"type": "object"},
         "_meta": {"anthropic/alwaysLoad": true, "anthropic/searchHint": "check the server answers"}},
    ]);
    Pool::new(&Env::default(), load_server("files", &listed).tools)
}

fn listed(mode: GatewayMode) -> Vec<Value> {
    let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), pool(), ".");
    let gateway = Gateway::new(dispatcher, |_| true, mode);
    gateway
        .listed()
        .iter()
        .map(|tool| serde_json::to_value(tool).unwrap())
        .collect()
}

#[test]
fn direct_mode_lists_every_tool_with_the_registrys_hints_and_the_servers_annotations() {
    let tools = listed(GatewayMode::Direct);
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    // In pool order: the MCP tools sorted by name.
    assert_eq!(names, ["mcp__files__ping", "mcp__files__read_file"]);
    let read = &tools[1];
    assert_eq!(read["title"], "Read File");
    assert_eq!(read["annotations"]["readOnlyHint"], true);
    assert_eq!(read["annotations"]["destructiveHint"], false);
    assert_eq!(read["annotations"]["idempotentHint"], true);
    assert_eq!(read["annotations"]["openWorldHint"], false);
    assert_eq!(
        read["_meta"]["anthropic/alwaysLoad"], false,
        "MCP tools are deferred"
    );
    assert_eq!(read["inputSchema"]["properties"]["path"]["type"], "string");
    let ping = &tools[0];
    assert_eq!(ping["_meta"]["anthropic/alwaysLoad"], true);
    assert_eq!(
        ping["_meta"]["anthropic/searchHint"],
        "check the server answers"
    );
    assert_eq!(
        ping["annotations"]["destructiveHint"], true,
        "absent means destructive"
    );
}

#[test]
fn search_mode_lists_the_loaded_tools_and_the_two_meta_tools() {
    let tools = listed(GatewayMode::Search);
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["mcp__files__ping", "search_tools", "call_tool"]);
    assert_eq!(tools[1]["inputSchema"]["required"], json!(["query"]));
    assert_eq!(tools[2]["inputSchema"]["required"], json!(["name"]));
    assert!(
        tools[0].get("_meta").is_none(),
        "no deferral hints in search mode"
    );
}
