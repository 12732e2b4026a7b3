//! What the HTTP gateway does with a request before any gateway code runs: it holds 2026-07-28
//! requests to their `Mcp-Method` and `Mcp-Name` headers (rmcp's server-side check, which the
//! gateway keeps: a request whose headers are missing or say something else than its body gets
//! 400 and JSON-RPC error -32020, the same request with matching headers is served); it refuses
//! a body past `HttpOptions::max_body_bytes` with 413; and requests past `max_concurrent` wait
//! for a permit instead of failing.

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use toolreg::mcp::load_server;
use toolreg::{Dispatcher, Env, PermissionContext, Pool};
use toolreg_mcp::{Gateway, GatewayMode, HttpGateway, HttpOptions};

const TOKEN: &str = "request-test-token-0123";

fn pool() -> Pool {
    let listed = json!([{"name": "read_file", "description": "Reads a file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]);
    Pool::new(&Env::default(), load_server("files", &listed).tools)
}

/// The gateway on a free loopback port; its URL and the token that stops it.
async fn serve(options: HttpOptions) -> (String, CancellationToken) {
    let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), pool(), ".");
    let gateway = Gateway::new(dispatcher, |_| true, GatewayMode::Direct);
    let http = HttpGateway::new(vec![(TOKEN.into(), gateway)], &options).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let stop = CancellationToken::new();
    tokio::spawn(http.serve(listener, stop.clone()));
    (url, stop)
}

/// A 2026-07-28 request of `method` with `params`, sent with `headers`: the status and the
/// JSON-RPC answer (`null` when there is none).
async fn post(url: &str, method: &str, params: Value, headers: &[(&str, &str)]) -> (u16, Value) {
    let mut params = params;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "request-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    if !params["_meta"].is_object() {
        params["_meta"] = json!({});
    }
    if let (Some(into), Value::Object(meta)) = (params["_meta"].as_object_mut(), meta) {
        into.extend(meta);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let mut request = reqwest::Client::new()
        .post(url)
        .bearer_auth(TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    // A JSON body, or one SSE event holding it.
    let json = text
        .lines()
        .find_map(|line| line.strip_prefix("data:"))
        .unwrap_or(&text)
        .trim()
        .to_owned();
    (status, serde_json::from_str(&json).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_whose_mcp_method_or_mcp_name_disagree_with_the_body_are_refused() {
    let (url, stop) = serve(HttpOptions::default()).await;
    let list = |headers: &'static [(&'static str, &'static str)]| {
        let url = url.clone();
        async move { post(&url, "tools/list", json!({}), headers).await }
    };
    let (status, body) = list(&[("Mcp-Method", "tools/list")]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["tools"][0]["name"], "mcp__files__read_file");

    for headers in [&[][..], &[("Mcp-Method", "tools/call")][..]] {
        let (status, body) = list(headers).await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (400, &json!(-32020)),
            "{body}"
        );
    }

    let call = json!({"name": "mcp__files__read_file", "arguments": {"path": "x"}});
    let (status, body) = post(
        &url,
        "tools/call",
        call.clone(),
        &[("Mcp-Method", "tools/call"), ("Mcp-Name", "another_tool")],
    )
    .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!(-32020)),
        "{body}"
    );
    let (status, body) = post(
        &url,
        "tools/call",
        call.clone(),
        &[("Mcp-Method", "tools/call")],
    )
    .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!(-32020)),
        "{body}"
    );
    // Matching headers reach the gateway (which has no server to forward to here, so the
    // call's result is an error the gateway writes, not a refusal of the request).
    let (status, body) = post(
        &url,
        "tools/call",
        call,
        &[
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "mcp__files__read_file"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body["error"].is_null() && body["result"]["isError"] == true,
        "{body}"
    );
    stop.cancel();
}

/// A `tools/list` whose `_meta` carries `padding` bytes more.
async fn list(url: &str, padding: usize) -> (u16, Value) {
    let params = json!({"_meta": {"padding": "x".repeat(padding)}});
    post(url, "tools/list", params, &[("Mcp-Method", "tools/list")]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_past_the_limit_is_refused_with_413_and_a_smaller_one_is_served() {
    let options = HttpOptions {
        max_body_bytes: 4096,
        ..HttpOptions::default()
    };
    let (url, stop) = serve(options).await;
    let (status, body) = list(&url, 100).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["tools"][0]["name"], "mcp__files__read_file");
    assert_eq!(list(&url, 64 * 1024).await.0, 413);
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
        let (status, body) = request.unwrap();
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["result"]["tools"][0]["name"], "mcp__files__read_file");
    }
    stop.cancel();
}
