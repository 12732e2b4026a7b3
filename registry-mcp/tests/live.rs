//! The hub against real servers: the five of MCP-GROUND.md (npm and PyPI) and a Python SDK
//! server of our own, each started as a child process. Nothing here is mocked.

use crate::peers::{self, dispatcher};

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use toolreg::Pool;
use toolreg::mcp::load_servers;
use toolreg::tool::Progress;
use toolreg::wire::anthropic::DeferStrategy;
use toolreg::{
    Env, RenderOptions, SchemaCache, SearchEngine, Strategy, ToolCall, ToolInfo, ToolOutput,
    TurnOptions, render_anthropic,
};
use toolreg_mcp::{McpConfig, McpHub, Problem, ServerState, Timeouts};

/// Waits up to `secs` for `done`, looking every 50 ms; whether it came true.
async fn eventually(secs: u64, done: impl Fn() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while !done() {
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    true
}

/// [`eventually`] for a test without a runtime.
fn eventually_blocking(secs: u64, done: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    while !done() {
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

fn timeouts(connect_secs: u64) -> Timeouts {
    Timeouts {
        connect: Duration::from_secs(connect_secs),
        ..Timeouts::default()
    }
}

fn fixture(server: &str) -> Value {
    let path = format!(
        "{}/../data/mcp-fixtures/{server}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// What the pool holds of a tool, beside its name.
fn entry(tool: &ToolInfo) -> Value {
    json!({
        "name": tool.name,
        "description": tool.description,
        "input_schema": serde_json::from_str::<Value>(&tool.input_schema).unwrap(),
        "output_schema": tool.output_schema.as_deref().map(|s| serde_json::from_str::<Value>(s).unwrap()),
        "read_only": tool.flags.read_only,
        "destructive": tool.flags.destructive,
        "deferred": tool.is_deferred(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_pool_equals_the_pool_of_the_captured_lists() {
    let Some(peers) = peers::peers() else { return };
    let config = McpConfig {
        servers: vec![
            peers.everything(),
            peers.filesystem(),
            peers.memory(),
            peers.git(),
            peers.time(),
        ],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    for status in hub.statuses() {
        assert!(
            matches!(status.state, ServerState::Connected { .. }),
            "{}: {:?}",
            status.name,
            status.state
        );
    }
    let live = hub.tools();
    assert!(live.errors.is_empty(), "{:?}", live.errors);
    let names = ["everything", "filesystem", "memory", "git", "time"];
    let captured: Vec<(&str, Value)> = names.iter().map(|name| (*name, fixture(name))).collect();
    let captured = load_servers(captured.iter().map(|(name, list)| (*name, list)));
    let live: Vec<Value> = live.tools.iter().map(|tool| entry(tool)).collect();
    let captured: Vec<Value> = captured.tools.iter().map(|tool| entry(tool)).collect();
    assert_eq!(live.len(), 50, "13 + 14 + 9 + 12 + 2 tools");
    for (live, captured) in live.iter().zip(&captured) {
        assert_eq!(live, captured);
    }
    assert_eq!(live.len(), captured.len());
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hanging_crashing_and_lying_servers_fail_while_the_others_connect() {
    let Some(peers) = peers::peers() else { return };
    let pid_file = peers.scratch.path().join("hangs.pid");
    let config = McpConfig {
        servers: vec![
            peers.python("hangs", &format!(
                "import os, time; open({:?}, 'w').write(str(os.getpid())); time.sleep(600)",
                pid_file.to_str().unwrap()
            )),
            peers.python("crashes", "import sys; sys.stderr.write('boom: no config'); sys.exit(3)"),
            peers.python("lies", "import sys, time; print('this is not JSON-RPC'); sys.stdout.flush(); time.sleep(600)"),
            toolreg_mcp::ServerSpec::stdio("missing", "/nonexistent/mcp-server", Vec::<String>::new()),
            peers.time(),
        ],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(20)).await;
    let states: Vec<(String, ServerState)> = hub
        .statuses()
        .into_iter()
        .map(|s| (s.name, s.state))
        .collect();
    let failed = |i: usize| match &states[i].1 {
        ServerState::Failed(error) => error.clone(),
        other => panic!("{}: {other:?}", states[i].0),
    };
    assert!(matches!(
        failed(0).problem,
        Problem::TimedOut {
            stage: "handshake",
            ..
        }
    ));
    let crashed = failed(1);
    assert!(
        matches!(crashed.problem, Problem::Handshake(_)),
        "{crashed}"
    );
    assert_eq!(
        crashed.stderr.as_deref(),
        Some("boom: no config"),
        "{crashed}"
    );
    assert!(matches!(
        failed(2).problem,
        Problem::Handshake(_) | Problem::TimedOut { .. }
    ));
    assert!(
        matches!(failed(3).problem, Problem::Spawn(_)),
        "{}",
        failed(3)
    );
    assert!(failed(3).to_string().contains("/nonexistent/mcp-server"));
    assert!(
        matches!(&states[4].1, ServerState::Connected { tools: 2, .. }),
        "{:?}",
        states[4]
    );
    let names: Vec<String> = hub.tools().tools.iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        names,
        ["mcp__time__get_current_time", "mcp__time__convert_time"]
    );
    hub.close().await;
    // The server that hung is not left running.
    eventually(10, || !alive(&pid_file)).await;
    assert!(!alive(&pid_file), "the hung server was killed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_reach_the_servers_and_their_results_become_tool_results() {
    let Some(peers) = peers::peers() else { return };
    let config = McpConfig {
        servers: vec![peers.everything(), peers.time(), peers.filesystem()],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    let dispatcher = dispatcher(&hub);
    let root = peers.scratch.path().join("fsroot/hello.txt");
    let calls = [
        ToolCall::new(
            "t1",
            "mcp__everything__echo",
            json!({"message": "from toolreg"}),
        ),
        ToolCall::new(
            "t2",
            "mcp__time__get_current_time",
            json!({"timezone": "UTC"}),
        ),
        ToolCall::new(
            "t3",
            "mcp__time__get_current_time",
            json!({"timezone": "Not/AZone"}),
        ),
        ToolCall::new(
            "t4",
            "mcp__filesystem__read_text_file",
            json!({"path": root}),
        ),
    ];
    let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
    let [echo, now, bad, file] = &turn.results[..] else {
        panic!()
    };
    assert_eq!(echo.content, ToolOutput::Text("Echo: from toolreg".into()));
    let ToolOutput::Json(now) = &now.content else {
        panic!("{now:?}")
    };
    assert_eq!(now["timezone"], "UTC", "structuredContent: {now}");
    assert!(bad.is_error(), "{bad:?}");
    let ToolOutput::Json(file) = &file.content else {
        panic!("{file:?}")
    };
    assert!(
        file.to_string()
            .contains("hello from the filesystem server"),
        "{file}"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_turn_cancels_the_call_on_the_server_and_progress_reaches_the_host() {
    let Some(peers) = peers::peers() else { return };
    let marker = peers.scratch.path().join("cancelled");
    let config = McpConfig {
        servers: vec![peers.changing(&marker)],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    assert!(
        matches!(hub.statuses()[0].state, ServerState::Connected { .. }),
        "{:?}",
        hub.statuses()
    );
    let dispatcher = dispatcher(&hub);
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let cancel = toolreg::dispatch::CancellationToken::new();
    let options = TurnOptions {
        cancel: cancel.clone(),
        progress: Some(Arc::new({
            let seen = Arc::clone(&seen);
            let cancel = cancel.clone();
            move |progress: Progress| {
                let mut seen = seen.lock().unwrap();
                seen.push(progress);
                if seen.len() == 3 {
                    cancel.cancel();
                }
            }
        })),
        ..TurnOptions::default()
    };
    let call = ToolCall::new("slow1", "mcp__changing__slow", json!({"seconds": 30}));
    let turn = dispatcher.run_turn(&[call], &options).await;
    assert!(turn.results[0].is_error(), "{:?}", turn.results[0]);
    assert!(
        matches!(
            turn.results[0].error,
            Some(toolreg::DispatchError::Cancelled { .. })
        ),
        "{:?}",
        turn.results[0].error
    );
    {
        let seen = seen.lock().unwrap();
        assert!(seen.len() >= 3);
        assert_eq!(seen[0].tool_use_id, "slow1");
        assert_eq!(seen[0].message, "step 0");
        assert_eq!(seen[1].done, Some((1.0, Some(300.0))));
    }
    // The server hears the cancellation and stops the tool, which writes the marker.
    // The marker is created, then written: wait for its text, not for the file.
    eventually(10, || {
        std::fs::read_to_string(&marker).is_ok_and(|text| text == "cancelled")
    })
    .await;
    assert_eq!(
        std::fs::read_to_string(&marker).ok().as_deref(),
        Some("cancelled")
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_is_followed_by_a_refreshed_pool() {
    let Some(peers) = peers::peers() else { return };
    let marker = peers.scratch.path().join("unused");
    let config = McpConfig {
        servers: vec![
            peers.changing(&marker),
            peers.time(),
            peers.memory(),
            peers.filesystem(),
        ],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    let protocols: Vec<ServerState> = hub.statuses().into_iter().map(|s| s.state).collect();
    // The Python SDK speaks 2026-07-28, where list_changed comes on a subscription.
    assert!(
        matches!(&protocols[0], ServerState::Connected { protocol, .. } if protocol == "2026-07-28"),
        "{protocols:?}"
    );
    let search_pool = hub.tools().tools;
    let cache = SchemaCache::new();
    let before: Vec<String> = search_pool.iter().map(|t| t.name.clone()).collect();
    assert!(
        !before.contains(&"mcp__changing__weather".to_owned()),
        "{before:?}"
    );
    let dispatcher = dispatcher(&hub);
    let added = dispatcher
        .dispatch(&ToolCall::new(
            "a",
            "mcp__changing__add_tool",
            json!({"name": "weather"}),
        ))
        .await;
    // The Python SDK sends a `-> str` tool's answer as structured content too.
    assert_eq!(
        added.content,
        ToolOutput::Json(json!({"result": "added weather"})),
        "{added:?}"
    );
    tokio::time::timeout(Duration::from_secs(30), hub.changed())
        .await
        .expect("the server says its tools changed");
    assert_eq!(
        hub.refresh().await,
        ["changing"],
        "only the server that changed is fetched"
    );
    let after: Vec<String> = hub.tools().tools.iter().map(|t| t.name.clone()).collect();
    assert!(
        after.contains(&"mcp__changing__weather".to_owned()),
        "{after:?}"
    );
    assert_eq!(after.len(), before.len() + 1);
    // The search index follows the refreshed pool.
    let mut engine = SearchEngine::new(search_pool.clone(), Strategy::Keyword);
    assert!(engine.search("weather", 5).matches.is_empty());
    engine.update(hub.tools().tools);
    assert_eq!(
        engine.search("weather", 5).matches,
        ["mcp__changing__weather"]
    );
    let layout = engine.shards();
    assert_eq!(
        layout.last(),
        Some(&(Some("changing".to_owned()), 5)),
        "only the server that changed is indexed again: {layout:?}"
    );
    assert_eq!(engine.builds(), 1);
    // The host drops the refreshed server's rendered schemas, then renders the new pool.
    let options = RenderOptions {
        tool_search: true,
        strategy: DeferStrategy::AllDeferred,
        ..RenderOptions::default()
    };
    render_anthropic(
        &Env::default(),
        &Pool::new(&Env::default(), search_pool),
        &cache,
        &options,
    )
    .unwrap();
    assert_eq!(cache.invalidate_server("changing"), 4, "its four old tools");
    let rendered = render_anthropic(
        &Env::default(),
        &Pool::new(&Env::default(), hub.tools().tools),
        &cache,
        &options,
    )
    .unwrap();
    assert!(rendered.tools.to_json().contains("mcp__changing__weather"));
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_arrives_as_a_notification_on_the_2025_11_25_lane() {
    let Some(peers) = peers::peers() else { return };
    let config = McpConfig {
        servers: vec![peers.everything()],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    // The TypeScript SDK has no `server/discover`: the handshake falls back to `initialize`.
    assert!(
        matches!(&hub.statuses()[0].state, ServerState::Connected { protocol, .. } if protocol == "2025-11-25"),
        "{:?}",
        hub.statuses()
    );
    // server-everything registers a tool when the session starts and says so.
    tokio::time::timeout(Duration::from_secs(30), hub.changed())
        .await
        .expect("the notification reaches the hub");
    hub.refresh().await;
    assert!(matches!(
        hub.statuses()[0].state,
        ServerState::Connected { .. }
    ));
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_still_connecting_is_named_when_a_search_finds_nothing() {
    let Some(peers) = peers::peers() else { return };
    let config = McpConfig {
        servers: vec![
            peers.time(),
            peers.python("slowpoke", "import time; time.sleep(600)"),
        ],
        ..McpConfig::default()
    };
    let hub = McpHub::start(&config, timeouts(600));
    assert_eq!(
        hub.pending_servers(),
        ["time", "slowpoke"],
        "nothing has arrived yet"
    );
    assert!(
        eventually(60, || hub.pending_servers().len() == 1).await,
        "time connects"
    );
    assert_eq!(hub.pending_servers(), ["slowpoke"]);
    let mut engine = SearchEngine::new(hub.tools().tools, Strategy::Keyword);
    engine.set_pending_servers(hub.pending_servers());
    let output = engine.search("weather radar", 5);
    assert!(output.matches.is_empty());
    assert_eq!(
        output.pending_mcp_servers.as_deref(),
        Some(&["slowpoke".to_owned()][..])
    );
    let found = engine.search("current time", 5);
    assert_eq!(found.matches[0], "mcp__time__get_current_time");
    assert_eq!(
        found.pending_mcp_servers, None,
        "only a search that finds nothing names them"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_session_ends_leaves_the_pool_and_reconnects() {
    let Some(peers) = peers::peers() else { return };
    let marker = peers.scratch.path().join("unused");
    let config = McpConfig {
        servers: vec![
            peers.changing(&marker),
            toolreg_mcp::ServerSpec::stdio(
                "missing",
                "/nonexistent/mcp-server",
                Vec::<String>::new(),
            ),
        ],
        ..McpConfig::default()
    };
    let timeouts = Timeouts {
        retry_after: Duration::from_secs(600),
        ..timeouts(60)
    };
    let hub = McpHub::connect(&config, timeouts).await;
    let names = |hub: &McpHub| -> Vec<String> {
        hub.tools().tools.iter().map(|t| t.name.clone()).collect()
    };
    assert!(names(&hub).contains(&"mcp__changing__ping".to_owned()));
    let dispatcher = dispatcher(&hub);
    dispatcher
        .dispatch(&ToolCall::new("x", "mcp__changing__exit_server", json!({})))
        .await;
    assert!(
        eventually(30, || names(&hub).is_empty()).await,
        "the ended session's tools leave the pool"
    );
    assert!(
        matches!(&hub.statuses()[0].state, ServerState::Failed(error) if error.problem == Problem::Closed),
        "{:?}",
        hub.statuses()
    );
    // The ended session is tried at once; the server that failed waits out its 600 s.
    assert_eq!(hub.reconnect().await, ["changing"]);
    assert!(
        matches!(hub.statuses()[0].state, ServerState::Connected { .. }),
        "{:?}",
        hub.statuses()
    );
    assert!(names(&hub).contains(&"mcp__changing__ping".to_owned()));
    assert!(hub.reconnect().await.is_empty(), "nothing is due");
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_result_of_a_real_server_becomes_an_image_or_image_blocks() {
    let Some(peers) = peers::peers() else { return };
    let config = McpConfig {
        servers: vec![peers.everything()],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    let result = dispatcher(&hub)
        .dispatch(&ToolCall::new(
            "img",
            "mcp__everything__get-tiny-image",
            json!({}),
        ))
        .await;
    assert!(!result.is_error(), "{result:?}");
    let blocks = match &result.content {
        ToolOutput::Image { media_type, .. } => {
            assert_eq!(media_type, "image/png");
            return hub.close().await;
        }
        ToolOutput::Blocks(blocks) => blocks.clone(),
        other => panic!("{other:?}"),
    };
    let image = blocks
        .iter()
        .find(|b| b["type"] == "image")
        .expect("an image block");
    assert_eq!(image["source"]["type"], "base64");
    assert_eq!(image["source"]["media_type"], "image/png");
    assert!(!image["source"]["data"].as_str().unwrap().is_empty());
    hub.close().await;
}

/// Counts the progress notifications a client of the gateway receives.
#[derive(Clone, Default)]
struct Counting(Arc<std::sync::atomic::AtomicUsize>);

impl rmcp::ClientHandler for Counting {
    async fn on_progress(
        &self,
        _: rmcp::model::ProgressNotificationParam,
        _: rmcp::service::NotificationContext<rmcp::RoleClient>,
    ) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_passes_progress_and_cancellation_through_to_the_upstream_server() {
    use rmcp::ServiceExt as _;
    use rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest};
    use rmcp::service::PeerRequestOptions;

    let Some(peers) = peers::peers() else { return };
    let marker = peers.scratch.path().join("cancelled");
    let config = McpConfig {
        servers: vec![peers.changing(&marker)],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    let gateway = toolreg_mcp::Gateway::new(
        dispatcher(&hub),
        |tool| tool.is_mcp(),
        toolreg_mcp::GatewayMode::Direct,
    );
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = gateway.serve(tokio::io::split(server_end)).await {
            let _ = running.waiting().await;
        }
    });
    let counting = Counting::default();
    let client = counting
        .clone()
        .serve(tokio::io::split(client_end))
        .await
        .unwrap();
    let arguments = json!({"seconds": 30}).as_object().cloned().unwrap();
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new("mcp__changing__slow").with_arguments(arguments),
    ));
    let handle = client
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    assert!(
        eventually(30, || counting.0.load(std::sync::atomic::Ordering::SeqCst)
            >= 3)
        .await,
        "the upstream tool's progress reaches the gateway's client"
    );
    handle
        .cancel(Some("the user stopped".into()))
        .await
        .unwrap();
    // The marker is created, then written: wait for its text, not for the file.
    eventually(10, || {
        std::fs::read_to_string(&marker).is_ok_and(|text| text == "cancelled")
    })
    .await;
    assert_eq!(
        std::fs::read_to_string(&marker).ok().as_deref(),
        Some("cancelled"),
        "the client's cancellation reaches the upstream server through the gateway"
    );
    hub.close().await;
}

/// Whether a process whose command line holds `marker` still runs (a killed child its parent
/// has not reaped yet is a zombie, which no longer runs). Servers run in a PID namespace of
/// their own, so the pid a server sees of itself is not the host's: the tests find it by a
/// marker instead.
fn alive(marker: &std::path::Path) -> bool {
    let marker = marker.to_str().unwrap().as_bytes();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let dir = entry.path();
        let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        // `pid (comm) state …`: the state follows the last `)`.
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next());
        cmdline.windows(marker.len()).any(|window| window == marker)
            && state.is_some_and(|state| state != "Z" && state != "X")
    })
}

#[test]
fn a_server_still_starting_is_killed_when_its_runtime_ends() {
    let Some(peers) = peers::peers() else { return };
    let pid_file = peers.scratch.path().join("slow.pid");
    let code = format!(
        "import os, time; open({:?}, 'w').write(str(os.getpid())); time.sleep(600)",
        pid_file.to_str().unwrap()
    );
    let config = McpConfig {
        servers: vec![peers.python("slow", &code)],
        ..McpConfig::default()
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let hub = runtime.block_on(async { McpHub::start(&config, timeouts(600)) });
    assert!(
        eventually_blocking(30, || pid_file.exists()),
        "the server starts"
    );
    std::thread::sleep(Duration::from_millis(100));
    assert!(alive(&pid_file));
    assert_eq!(hub.pending_servers(), ["slow"]);
    drop(runtime);
    drop(hub);
    eventually_blocking(10, || !alive(&pid_file));
    assert!(
        !alive(&pid_file),
        "the starting server was killed with its runtime"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_of_a_paginated_tool_list_is_fetched() {
    let Some(peers) = peers::peers() else { return };
    let config = McpConfig {
        servers: vec![peers.paging()],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    let names: Vec<String> = hub.tools().tools.iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        names,
        (0..5)
            .map(|i| format!("mcp__paging__tool_{i}"))
            .collect::<Vec<_>>(),
        "{:?}",
        hub.statuses()
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_a_server_got_wrong_is_skipped_and_reported_and_its_other_tools_load() {
    let Some(peers) = peers::peers() else { return };
    let tools = json!([
        {"name": "good", "description": "Works", "inputSchema": {"type": "object"}},
        {"name": "bad_schema", "description": "Lies", "inputSchema": "not an object"},
        {"description": "no name", "inputSchema": {"type": "object"}},
        {"name": "also_good", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}},
    ]);
    let config = McpConfig {
        servers: vec![peers.raw("liar", &tools), peers.time()],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts(60)).await;
    let loaded = hub.tools();
    let names: Vec<&str> = loaded.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "mcp__liar__good",
            "mcp__liar__also_good",
            "mcp__time__get_current_time",
            "mcp__time__convert_time"
        ],
        "{:?}",
        hub.statuses()
    );
    let errors: Vec<String> = loaded.errors.iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].contains("liar") && errors[0].contains("bad_schema"),
        "{errors:?}"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_repeats_its_cursor_is_listed_once_not_forever() {
    let Some(peers) = peers::peers() else { return };
    let mut spec = peers.raw(
        "loop",
        &json!([{"name": "only", "inputSchema": {"type": "object"}}]),
    );
    if let toolreg_mcp::Transport::Stdio { args, .. } = &mut spec.transport {
        args.push("again".into());
    }
    let hub = McpHub::connect(
        &McpConfig {
            servers: vec![spec],
            ..McpConfig::default()
        },
        timeouts(60),
    )
    .await;
    let names: Vec<String> = hub.tools().tools.iter().map(|t| t.name.clone()).collect();
    // The first page, then the second (cursor `again`), which repeats the cursor: the end.
    assert_eq!(names.len(), 2, "{names:?} {:?}", hub.statuses());
    assert_eq!(names[0], "mcp__loop__only");
    assert!(
        names[1].starts_with("mcp__loop__only_"),
        "the repeat is renamed: {names:?}"
    );
    hub.close().await;
}
