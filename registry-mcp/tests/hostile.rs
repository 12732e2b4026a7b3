//! Hostile upstream servers (`tests/peers/hostile.py`, real processes speaking JSON-RPC on
//! stdio): none can grow the host's memory without bound, flood the model's context, keep a
//! call alive forever or write to the terminal through the host.

use crate::peers;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolreg::Pool;
use toolreg::dispatch::OUTPUT_TRUNCATED;
use toolreg::tool::Progress;
use toolreg::{
    Dispatcher, Env, PermissionContext, PermissionMode, ToolCall, ToolOutput, ToolResult,
    TurnOptions,
};
use toolreg_mcp::{McpConfig, McpHub, ServerError, ServerSpec, ServerState, Timeouts};

fn timeouts() -> Timeouts {
    Timeouts {
        connect: Duration::from_secs(60),
        list: Duration::from_secs(60),
        ..Timeouts::default()
    }
}

async fn hub(server: ServerSpec, timeouts: Timeouts) -> Arc<McpHub> {
    McpHub::connect(
        &McpConfig {
            servers: vec![server],
            ..McpConfig::default()
        },
        timeouts,
    )
    .await
}

fn failure(hub: &McpHub) -> ServerError {
    match &hub.statuses()[0].state {
        ServerState::Failed(error) => error.clone(),
        other => panic!("the server should have failed: {other:?}"),
    }
}

/// Calls `mcp__hostile__<tool>` through a dispatcher that asks nothing.
async fn call(hub: &Arc<McpHub>, tool: &str, options: &TurnOptions) -> ToolResult {
    let mut rules = PermissionContext::new();
    rules.mode = PermissionMode::BypassPermissions;
    let dispatcher = Dispatcher::new(
        Env::default(),
        rules,
        Pool::new(&Env::default(), hub.tools().tools),
        ".",
    )
    .with_mcp(hub.clone());
    let call = ToolCall::new("t1", format!("mcp__hostile__{tool}"), json!({}));
    let mut turn = dispatcher.run_turn(&[call], options).await;
    turn.results.remove(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tools_list_page_over_the_page_limit_fails_the_server_naming_the_limit() {
    // 9 MB of description in one page: under rmcp's 16 MiB line, over the 8 MiB page limit.
    let hub = hub(
        peers::hostile("hostile", &["big-page", "9000000"]),
        timeouts(),
    )
    .await;
    let error = failure(&hub).to_string();
    assert!(error.contains("Limits::max_page_bytes"), "{error}");
    assert!(error.contains("page 1 has 9000"), "{error}");
    assert!(hub.tools().tools.is_empty());
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listing_that_never_ends_fails_at_the_page_limit() {
    let hub = hub(peers::hostile("hostile", &["endless"]), timeouts()).await;
    let error = failure(&hub).to_string();
    assert!(error.contains("Limits::max_pages"), "{error}");
    assert!(error.contains("past 1000 pages"), "{error}");
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listing_over_the_total_byte_limit_fails_the_server() {
    // Pages of 1 MB each, without end: each is fine, together they pass 32 MiB.
    let hub = hub(
        peers::hostile("hostile", &["heavy-pages", "1000000"]),
        timeouts(),
    )
    .await;
    let error = failure(&hub).to_string();
    assert!(error.contains("Limits::max_list_bytes"), "{error}");
    assert!(error.contains("its 34 pages have"), "{error}");
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_mib_result_is_cut_as_built_in_output_is_cut_saying_so() {
    let hub = hub(
        peers::hostile("hostile", &["big-result", &(10 * 1024 * 1024).to_string()]),
        timeouts(),
    )
    .await;
    let result = call(&hub, "flood", &TurnOptions::default()).await;
    let ToolOutput::Text(text) = &result.content else {
        panic!("{:?}", result.error)
    };
    assert!(text.ends_with(OUTPUT_TRUNCATED), "the cut is marked");
    assert_eq!(
        text.chars().count(),
        100_000 + OUTPUT_TRUNCATED.chars().count(),
        "Limits::max_result_chars"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn result_blocks_are_kept_until_the_limit_and_an_image_past_it_is_replaced_by_a_note() {
    let hub = hub(peers::hostile("hostile", &["blocks"]), timeouts()).await;
    let result = call(&hub, "flood", &TurnOptions::default()).await;
    let ToolOutput::Blocks(blocks) = &result.content else {
        panic!("{result:?}")
    };
    assert_eq!(
        blocks.len(),
        2,
        "the text, then the note; the last text is dropped"
    );
    assert_eq!(blocks[0]["text"].as_str().map(str::len), Some(60_000));
    let note = blocks[1]["text"].as_str().unwrap();
    assert!(
        note.contains("image (image/png, 200000 bytes of base64) was dropped")
            && note.contains("100000 characters"),
        "{note}"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_kept_alive_by_progress_ends_at_the_total_limit_saying_which() {
    let marker = tempfile::tempdir().unwrap();
    let marker = marker.path().join("cancelled");
    let timeouts = Timeouts {
        call: Duration::from_secs(2),
        call_total: Duration::from_secs(4),
        ..timeouts()
    };
    // Progress every 0.1 s for 60 s: the idle limit never fires while it lasts.
    let server = peers::hostile("hostile", &["progress", "60", marker.to_str().unwrap()]);
    let hub = hub(server, timeouts).await;
    let seen: Arc<Mutex<usize>> = Arc::default();
    let options = TurnOptions {
        progress: Some(Arc::new({
            let seen = Arc::clone(&seen);
            move |_: Progress| *seen.lock().unwrap() += 1
        })),
        ..TurnOptions::default()
    };
    let result = call(&hub, "slow", &options).await;
    let error = result.error.expect("the call ends in an error").to_string();
    assert!(
        error.contains("Timeouts::call_total") && error.contains("ran past 4.0 s"),
        "{error}"
    );
    assert!(*seen.lock().unwrap() > 0, "progress reached the host");
    // The server is told, and stops.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    // The marker is created, then written: wait for its text, not for the file.
    while std::fs::read_to_string(&marker).map_or(true, |text| text != "cancelled")
        && std::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        std::fs::read_to_string(&marker).ok().as_deref(),
        Some("cancelled")
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_without_progress_ends_at_the_idle_limit_saying_which() {
    let marker = tempfile::tempdir().unwrap();
    let marker = marker.path().join("cancelled");
    let timeouts = Timeouts {
        call: Duration::from_secs(1),
        ..timeouts()
    };
    let server = peers::hostile("hostile", &["progress", "0", marker.to_str().unwrap()]);
    let hub = hub(server, timeouts).await;
    let result = call(&hub, "slow", &TurnOptions::default()).await;
    let error = result.error.expect("the call ends in an error").to_string();
    assert!(
        error.contains("neither its result nor progress for 1.0 s (Timeouts::call)"),
        "{error}"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_stderr_and_error_reach_the_terminal_with_their_control_characters_escaped() {
    let hub = hub(peers::hostile("hostile", &["escapes"]), timeouts()).await;
    let error = failure(&hub);
    let stderr = error.stderr.as_deref().unwrap_or_default();
    assert!(
        stderr.contains('\u{1b}'),
        "the raw tail is kept as data: {stderr:?}"
    );
    let shown = error.to_string();
    let raw = shown
        .chars()
        .find(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c));
    assert_eq!(raw, None, "{shown:?}");
    assert!(shown.contains("\\x1b[2J\\x1b]0;pwned\\x07"), "{shown}");
    assert!(shown.contains("\\u{9b}31m\\u{202e}evil\\x7f"), "{shown}");
    assert!(
        shown.contains("\nsecond line"),
        "a tail keeps its lines: {shown}"
    );
    hub.close().await;
}
