//! A Streamable HTTP server that goes away and comes back on the same port: calls fail at once
//! naming it, the hub reconnects with its backoff, and calls and `tools/list_changed` work
//! again, on both protocol versions; a 2025-11-25 server that lost the session gets a new
//! one, and its tools are fetched again. Real servers (the Python SDK's `http_bearer.py`),
//! really killed. Nothing here is mocked.

use crate::peers::{self, HttpPeer, change, connect_remote, dispatcher, names};

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolreg::{Dispatcher, ToolCall, ToolOutput, ToolResult};
use toolreg_mcp::{McpHub, Problem, ServerState, Timeouts};

/// Quick retries, so that a test sees several of them.
async fn connect(server: &HttpPeer) -> Arc<McpHub> {
    let timeouts = Timeouts {
        connect: Duration::from_secs(60),
        retry_after: Duration::from_millis(100),
        retry_max: Duration::from_millis(400),
        ..Timeouts::default()
    };
    connect_remote(server, timeouts).await
}

/// `add(2, 40)` through `dispatcher`, waited on for at most 60 s (a hang fails the test
/// instead of stalling it).
async fn add_with(dispatcher: &Dispatcher) -> ToolResult {
    let call = ToolCall::new("a", "mcp__remote__add", json!({"a": 2, "b": 40}));
    tokio::time::timeout(Duration::from_secs(60), dispatcher.dispatch(&call))
        .await
        .expect("a call to a server that is gone returns, it does not hang")
}

/// `add(2, 40)` in a pool assembled now.
async fn add(hub: &Arc<McpHub>) -> ToolResult {
    add_with(&dispatcher(hub)).await
}

fn answered(result: &ToolResult) -> bool {
    result.content == ToolOutput::Json(json!({"result": 42}))
}

fn state(hub: &McpHub) -> ServerState {
    hub.statuses().remove(0).state
}

fn protocol(hub: &McpHub) -> String {
    match state(hub) {
        ServerState::Connected { protocol, .. } => protocol,
        other => panic!("{other:?}"),
    }
}

/// Looks every 50 ms, at most 600 times, until `done`; whether it came true.
async fn eventually(done: impl Fn() -> bool) -> bool {
    for _ in 0..600 {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    done()
}

/// Runs `reconnect` until the server is connected (at most 200 rounds, 50 ms apart).
async fn reconnected(hub: &McpHub) -> bool {
    for _ in 0..200 {
        hub.reconnect().await;
        if matches!(state(hub), ServerState::Connected { .. }) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// Kills the server under a connected hub, and starts it again on its port.
async fn killed_and_back(mut server: HttpPeer, lane: &str) {
    let hub = connect(&server).await;
    assert_eq!(protocol(&hub), lane);
    // The pool of a turn that began while the server was up.
    let turn = dispatcher(&hub);
    assert!(answered(&add_with(&turn).await));

    server.kill();
    let failed = add_with(&turn).await;
    assert!(failed.is_error(), "{failed:?}");
    let text = format!("{:?}", failed.content);
    assert!(text.contains("MCP server `remote`"), "{text}");
    // The server is gone: its tools leave the pool, and it is failed, saying so.
    assert!(
        eventually(|| names(&hub).is_empty()).await,
        "{:?}",
        names(&hub)
    );
    let ServerState::Failed(error) = state(&hub) else {
        panic!("{:?}", state(&hub))
    };
    assert_eq!(error.problem, Problem::Closed);
    // While it is down, a try fails naming the server and the URL it could not reach.
    hub.reconnect().await;
    let ServerState::Failed(error) = state(&hub) else {
        panic!("{:?}", state(&hub))
    };
    let text = error.to_string();
    assert!(
        text.contains("MCP server `remote`") && text.contains(&server.url),
        "{text}"
    );

    server.restart();
    assert!(reconnected(&hub).await, "{:?}", state(&hub));
    assert_eq!(protocol(&hub), lane);
    assert!(answered(&add(&hub).await));
    // The new session hears the server's changes again.
    change(&hub, "add_tool", "weather").await;
    assert!(names(&hub).contains(&"mcp__remote__weather".to_owned()));
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_2026_07_28_server_fails_calls_naming_it_and_is_reconnected_once_back() {
    let Some(peers) = peers::peers() else { return };
    killed_and_back(peers.http_python("tok", &[]), "2026-07-28").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_2025_11_25_server_fails_calls_naming_it_and_is_reconnected_once_back() {
    let Some(peers) = peers::peers() else { return };
    let server = peers.http_python("tok", &[("STATEFUL", "1"), ("LEGACY", "1")]);
    killed_and_back(server, "2025-11-25").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_server_that_lost_the_session_gets_a_new_one_and_is_listed_again() {
    let Some(peers) = peers::peers() else { return };
    let mut server = peers.http_python("tok", &[("STATEFUL", "1"), ("LEGACY", "1")]);
    let hub = connect(&server).await;
    assert_eq!(protocol(&hub), "2025-11-25");
    change(&hub, "add_tool", "weather").await;
    assert!(names(&hub).contains(&"mcp__remote__weather".to_owned()));
    // A new process knows no session (the old id gets 404), nor the tool added at run time.
    server.restart();
    // rmcp opens a new session and sends the call again in it.
    assert!(answered(&add(&hub).await));
    assert_eq!(protocol(&hub), "2025-11-25");
    // A new session may come with other tools, and nothing else would say so.
    tokio::time::timeout(Duration::from_secs(30), hub.changed())
        .await
        .expect("a new session marks the server's tools changed");
    assert_eq!(hub.refresh().await, ["remote"]);
    assert!(
        !names(&hub).contains(&"mcp__remote__weather".to_owned()),
        "{:?}",
        names(&hub)
    );
    // And the new session's GET stream carries the server's changes.
    change(&hub, "add_tool", "radar").await;
    assert!(names(&hub).contains(&"mcp__remote__radar".to_owned()));
    hub.close().await;
}
