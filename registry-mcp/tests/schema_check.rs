//! A live server's `inputSchema` is checked before the approver is asked and before anything is
//! sent: the server (`tests/peers/recording.py`, a real process that logs every `tools/call` it
//! receives) never sees input its own schema refuses.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolreg::tool::BoxFuture;
use toolreg::{
    ApprovalRequest, Approver, DispatchError, Dispatcher, Env, PermissionContext, Pool, ToolCall,
    ToolOutput, ToolResult,
};
use toolreg_mcp::{McpConfig, McpHub, ServerSpec, Timeouts};

/// An approver that counts the questions and says yes.
#[derive(Default)]
struct Asked(AtomicUsize);

impl Approver for Asked {
    fn approve(&self, _: ApprovalRequest) -> BoxFuture<'_, bool> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(std::future::ready(true))
    }
}

/// `recording.py` serving `tools` as given, logging to `log`.
fn recording(tools: &Value, log: &Path) -> ServerSpec {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/recording.py");
    ServerSpec::stdio(
        "rec",
        "python3",
        [
            script.to_string_lossy().into_owned(),
            "rec".to_owned(),
            tools.to_string(),
            log.to_string_lossy().into_owned(),
        ],
    )
}

/// What the server logged: the arguments of each call it received.
fn received(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    (text.lines())
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["arguments"].clone())
        .collect()
}

fn text(result: &ToolResult) -> String {
    match &result.content {
        ToolOutput::Text(text) => text.clone(),
        other => format!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_call_its_schema_refuses_never_reaches_the_approver_or_the_server() {
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("rec.log");
    let tools = json!([
        {"name": "search", "inputSchema": {"type": "object", "properties": {
            "query": {"type": "string", "pattern": "(a+)+$"},
            "filter": {"type": "object", "properties": {"min": {"type": "integer", "maximum": 3}}}},
            "required": ["query"]}},
        {"name": "lookahead", "inputSchema": {"type": "object", "properties": {
            "name": {"type": "string", "pattern": "^(?!admin)"}}}}
    ]);
    let timeouts = Timeouts {
        connect: Duration::from_secs(60),
        list: Duration::from_secs(60),
        ..Timeouts::default()
    };
    let config = McpConfig {
        servers: vec![recording(&tools, &log)],
        ..McpConfig::default()
    };
    let hub = McpHub::connect(&config, timeouts).await;
    let env = Env::default();
    let pool = Pool::new(&env, hub.tools().tools);
    assert_eq!(pool.len(), 2, "{:?}", hub.statuses());
    let asked = Arc::new(Asked::default());
    // Without annotations the server's tools are destructive: each call asks first.
    let dispatcher = Dispatcher::new(env, PermissionContext::new(), pool, ".")
        .with_mcp(hub.clone())
        .with_approver(asked.clone());
    let call = |name: &str, input: Value| {
        let call = ToolCall::new("t1", format!("mcp__rec__{name}"), input);
        let dispatcher = dispatcher.clone();
        async move { dispatcher.dispatch(&call).await }
    };

    let refused = call("search", json!({"query": "a", "filter": {"min": 9}})).await;
    assert!(
        text(&refused)
            .contains("invalid input at `filter.min`: 9 is greater than the maximum of 3"),
        "{}",
        text(&refused)
    );
    // 40 a's and a `!`: decided at once by the linear-time engine.
    let pathological = format!("{}!", "a".repeat(40));
    let refused = call("search", json!({"query": pathological})).await;
    assert!(
        text(&refused).contains(r#"invalid input at `query`"#)
            && text(&refused).contains(r#"does not match "(a+)+$""#),
        "{}",
        text(&refused)
    );
    let uncheckable = call("lookahead", json!({"name": "x"})).await;
    assert!(
        matches!(&uncheckable.error, Some(DispatchError::UncheckableSchema { at, .. }) if at == "properties.name.pattern"),
        "{uncheckable:?}"
    );
    assert_eq!(asked.0.load(Ordering::SeqCst), 0);
    assert!(received(&log).is_empty(), "{:?}", received(&log));

    let input = json!({"query": "aaa", "filter": {"min": 2}});
    let accepted = call("search", input.clone()).await;
    assert!(!accepted.is_error(), "{}", text(&accepted));
    assert_eq!(asked.0.load(Ordering::SeqCst), 1);
    assert_eq!(received(&log), [input]);
    hub.close().await;
}
