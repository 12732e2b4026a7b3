//! Streamable HTTP servers (`"url"` entries) through the hub, against real servers on
//! 127.0.0.1: the Python SDK behind a bearer token and an API-key header, and
//! server-everything's Streamable HTTP mode. Nothing here is mocked.

use crate::peers;

use std::sync::Arc;
use std::time::Duration;

use peers::dispatcher;
use serde_json::json;
use toolreg::{ToolCall, ToolOutput};
use toolreg_mcp::{McpConfig, McpHub, Problem, ServerState, Timeouts};

fn config(entries: serde_json::Value) -> McpConfig {
    McpConfig::parse(&json!({ "mcpServers": entries }).to_string()).unwrap()
}

fn timeouts() -> Timeouts {
    Timeouts {
        connect: Duration::from_secs(60),
        ..Timeouts::default()
    }
}

/// A hub over these entries, its one server connected.
async fn connected(entries: serde_json::Value) -> Arc<McpHub> {
    let hub = McpHub::connect(&config(entries), timeouts()).await;
    let status = &hub.statuses()[0];
    assert!(
        matches!(status.state, ServerState::Connected { .. }),
        "{status:?}"
    );
    hub
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bearer_protected_server_connects_and_serves_calls_with_its_headers() {
    let Some(peers) = peers::peers() else { return };
    let server = peers.http_bearer("s3cret-token", Some("key-123"));
    let hub = connected(json!({"remote": {"type": "http", "url": server.url,
        "headers": {"Authorization": "Bearer s3cret-token", "X-Api-Key": "key-123"}}}))
    .await;
    let names: Vec<String> = hub
        .tools()
        .tools
        .iter()
        .map(|tool| tool.name.clone())
        .collect();
    assert!(names.contains(&"mcp__remote__add".to_owned()), "{names:?}");
    let result = dispatcher(&hub)
        .dispatch(&ToolCall::new(
            "t1",
            "mcp__remote__add",
            json!({"a": 2, "b": 40}),
        ))
        .await;
    // The SDK sends a typed result as structured content.
    assert_eq!(
        result.content,
        ToolOutput::Json(json!({"result": 42})),
        "{result:?}"
    );
    // The headers arrived (the server reports what it saw, the token redacted).
    let seen = dispatcher(&hub)
        .dispatch(&ToolCall::new("t2", "mcp__remote__seen_headers", json!({})))
        .await;
    let seen = match seen.content {
        ToolOutput::Json(value) => value["result"].as_str().unwrap_or_default().to_owned(),
        ToolOutput::Text(text) => text,
        other => panic!("{other:?}"),
    };
    assert!(
        seen.contains("\"x-api-key\": \"key-123\"") && seen.contains("Bearer"),
        "{seen}"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_fails_the_server_with_its_challenge_and_never_prints_the_token() {
    let Some(peers) = peers::peers() else { return };
    let server = peers.http_bearer("right-token", None);
    let hub = McpHub::connect(
        &config(json!({"remote": {"url": server.url,
            "headers": {"Authorization": "Bearer wrong-token-value"}}})),
        timeouts(),
    )
    .await;
    let ServerState::Failed(error) = &hub.statuses()[0].state else {
        panic!("{:?}", hub.statuses());
    };
    let Problem::Unauthorized { challenge } = &error.problem else {
        panic!("{error:?}");
    };
    assert!(
        challenge
            .as_deref()
            .is_some_and(|c| c.contains("invalid_token")),
        "{challenge:?}"
    );
    let text = error.to_string();
    assert!(
        text.contains("refused the credentials") && !text.contains("wrong-token-value"),
        "{text}"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unset_header_variable_fails_the_server_naming_the_variable() {
    let hub = McpHub::connect(
        &config(json!({"remote": {"url": "http://127.0.0.1:9/mcp",
            "headers": {"Authorization": "Bearer ${TOOLREG_TEST_UNSET_VARIABLE_7}"}}})),
        timeouts(),
    )
    .await;
    let ServerState::Failed(error) = &hub.statuses()[0].state else {
        panic!("{:?}", hub.statuses());
    };
    assert_eq!(
        error.problem,
        Problem::Config(
            "header Authorization: the variable TOOLREG_TEST_UNSET_VARIABLE_7 is not set".into()
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_everything_over_streamable_http_connects_and_serves_calls() {
    let Some(peers) = peers::peers() else { return };
    let server = peers.everything_http();
    let hub = connected(json!({"everything": {"url": server.url}})).await;
    let result = dispatcher(&hub)
        .dispatch(&ToolCall::new(
            "t1",
            "mcp__everything__echo",
            json!({"message": "over HTTP"}),
        ))
        .await;
    let ToolOutput::Text(text) = &result.content else {
        panic!("{result:?}")
    };
    assert!(text.contains("over HTTP"), "{text}");
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_call_carries_its_method_and_tool_in_mcp_method_and_mcp_name_headers() {
    let Some(peers) = peers::peers() else { return };
    let server = peers.http_bearer("tok", None);
    let hub = connected(json!({"remote": {"url": server.url,
        "headers": {"Authorization": "Bearer tok"}}}))
    .await;
    assert!(
        matches!(&hub.statuses()[0].state, ServerState::Connected { protocol, .. } if protocol == "2026-07-28"),
        "{:?}",
        hub.statuses()
    );
    let seen = dispatcher(&hub)
        .dispatch(&ToolCall::new("t", "mcp__remote__seen_headers", json!({})))
        .await;
    let ToolOutput::Json(seen) = seen.content else {
        panic!("{seen:?}")
    };
    let seen: serde_json::Value =
        serde_json::from_str(seen["result"].as_str().unwrap_or_default()).unwrap();
    assert_eq!(seen["mcp-method"], "tools/call", "{seen}");
    assert_eq!(seen["mcp-name"], "seen_headers", "{seen}");
    assert_eq!(seen["mcp-protocol-version"], "2026-07-28", "{seen}");
    hub.close().await;
}
