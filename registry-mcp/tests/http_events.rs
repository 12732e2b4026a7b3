//! `tools/list_changed` from a Streamable HTTP server reaches the hub on both protocol
//! versions, and the pool follows: on 2026-07-28 through `subscriptions/listen` (a long-lived
//! POST), on 2025-11-25 through the session's standalone GET stream. The server is the Python
//! SDK's (`http_bearer.py`), adding and removing a tool while it runs. Nothing here is mocked.

use crate::peers::{self, HttpPeer, change, connect_remote, names};

use std::sync::Arc;
use std::time::Duration;

use toolreg_mcp::{McpHub, ServerState, Timeouts};

async fn connect(server: &HttpPeer) -> Arc<McpHub> {
    let timeouts = Timeouts {
        connect: Duration::from_secs(60),
        ..Timeouts::default()
    };
    connect_remote(server, timeouts).await
}

fn protocol(hub: &McpHub) -> String {
    match &hub.statuses()[0].state {
        ServerState::Connected { protocol, .. } => protocol.clone(),
        other => panic!("{other:?}"),
    }
}

/// A tool appears after `add_tool` and is gone after `remove_tool`.
async fn the_pool_follows_the_servers_changes(hub: &Arc<McpHub>) {
    assert!(!names(hub).contains(&"mcp__remote__weather".to_owned()));
    change(hub, "add_tool", "weather").await;
    assert!(
        names(hub).contains(&"mcp__remote__weather".to_owned()),
        "{:?}",
        names(hub)
    );
    change(hub, "remove_tool", "weather").await;
    assert!(
        !names(hub).contains(&"mcp__remote__weather".to_owned()),
        "{:?}",
        names(hub)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_over_http_on_2026_07_28_arrives_on_the_listen_stream() {
    let Some(peers) = peers::peers() else { return };
    let server = peers.http_python("tok", &[]);
    let hub = connect(&server).await;
    assert_eq!(protocol(&hub), "2026-07-28");
    the_pool_follows_the_servers_changes(&hub).await;
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_over_http_on_2025_11_25_arrives_on_the_sessions_get_stream() {
    let Some(peers) = peers::peers() else { return };
    let server = peers.http_python("tok", &[("STATEFUL", "1"), ("LEGACY", "1")]);
    let hub = connect(&server).await;
    assert_eq!(protocol(&hub), "2025-11-25");
    the_pool_follows_the_servers_changes(&hub).await;
    hub.close().await;
}
