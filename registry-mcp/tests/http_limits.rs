//! The HTTP gateway's bounds on what clients send: a body past `HttpOptions::max_body_bytes`
//! is refused with 413 before it is read whole, and requests past `max_concurrent` wait for a
//! permit instead of failing.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use toolreg::mcp::load_server;
use toolreg::{Dispatcher, Env, PermissionContext, ToolInfo};
use toolreg_mcp::{Gateway, GatewayMode, HttpGateway, HttpOptions};

const TOKEN: &str = "limits-test-token-0123";

fn pool() -> Vec<Arc<ToolInfo>> {
    let listed = json!([{"name": "read_file", "description": "Reads a file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]);
    load_server("files", &listed).tools
}

async fn serve(options: HttpOptions) -> (String, CancellationToken) {
    let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), pool(), ".");
    let gateway = Gateway::new(dispatcher, |_| true, GatewayMode::Direct);
    let http = HttpGateway::new(vec![(TOKEN.into(), gateway)], &options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let stop = CancellationToken::new();
    tokio::spawn(http.serve(listener, stop.clone()));
    (url, stop)
}

/// A 2026-07-28 `tools/list` whose `_meta` carries `padding` bytes more.
async fn list(url: &str, padding: usize) -> (u16, String) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "limits-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
        "padding": "x".repeat(padding),
    }}});
    let response = reqwest::Client::new()
        .post(url)
        .bearer_auth(TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/list")
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

fn listed_tool(text: &str) -> Option<String> {
    let json = text
        .lines()
        .find_map(|line| line.strip_prefix("data:"))
        .unwrap_or(text);
    let value: Value = serde_json::from_str(json.trim()).ok()?;
    Some(value["result"]["tools"][0]["name"].as_str()?.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_past_the_limit_is_refused_with_413_and_a_smaller_one_is_served() {
    let options = HttpOptions {
        max_body_bytes: 4096,
        ..HttpOptions::default()
    };
    let (url, stop) = serve(options).await;
    let (status, text) = list(&url, 100).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(listed_tool(&text).as_deref(), Some("mcp__files__read_file"));
    let (status, _) = list(&url, 64 * 1024).await;
    assert_eq!(status, 413);
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_past_the_concurrency_limit_wait_and_are_all_served() {
    let options = HttpOptions {
        max_concurrent: 1,
        ..HttpOptions::default()
    };
    let (url, stop) = serve(options).await;
    let requests = (0..16).map(|_| {
        let url = url.clone();
        tokio::spawn(async move { list(&url, 0).await })
    });
    for request in futures_util::future::join_all(requests).await {
        let (status, text) = request.unwrap();
        assert_eq!(status, 200, "{text}");
        assert_eq!(listed_tool(&text).as_deref(), Some("mcp__files__read_file"));
    }
    stop.cancel();
}
