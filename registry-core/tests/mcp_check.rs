//! An MCP tool's input is checked against the `inputSchema` its server sent before the approver
//! is asked and before anything is sent, at a bounded cost whatever the schema: patterns in
//! linear time, no `$ref` fetched, the schema's own cost bounded, compiled once per listing.
//! (`registry-mcp/tests/schema_check.rs` holds the same against a real server process.)

use std::io::ErrorKind;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolreg::dispatch::{McpCall, McpCaller};
use toolreg::mcp::load_server;
use toolreg::tool::BoxFuture;
use toolreg::{
    ApprovalRequest, Approver, DispatchError, Dispatcher, Env, PermissionContext, PermissionMode,
    Pool, ToolCall, ToolError, ToolOutput, ToolResult,
};

/// A server stand-in that records every input it is sent.
#[derive(Default)]
struct Server(Mutex<Vec<Value>>);

impl McpCaller for Server {
    fn call_tool<'a>(&'a self, call: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        self.0.lock().unwrap().push(call.input.clone());
        Box::pin(async { Ok(ToolOutput::Text("done".into())) })
    }
}

/// An approver that counts the questions and says yes.
#[derive(Default)]
struct Asked(AtomicUsize);

impl Approver for Asked {
    fn approve(&self, _: ApprovalRequest) -> BoxFuture<'_, bool> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(std::future::ready(true))
    }
}

/// Server `srv` with one tool, `tool`, of `schema`; the tool asks before it runs (it has no
/// annotations, so it is destructive).
struct Host {
    dispatcher: Dispatcher,
    server: Arc<Server>,
    asked: Arc<Asked>,
}

impl Host {
    fn new(schema: Value) -> Host {
        let listed = json!([{"name": "tool", "inputSchema": schema}]);
        let loaded = load_server("srv", &listed);
        assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
        let env = Env::default();
        let pool = Pool::new(&env, loaded.tools);
        let (server, asked) = (Arc::new(Server::default()), Arc::new(Asked::default()));
        let dispatcher = Dispatcher::new(env, PermissionContext::new(), pool, ".")
            .with_mcp(server.clone())
            .with_approver(asked.clone());
        Host {
            dispatcher,
            server,
            asked,
        }
    }

    async fn call(&self, input: Value) -> ToolResult {
        let call = ToolCall::new("t1", "mcp__srv__tool", input);
        self.dispatcher.dispatch(&call).await
    }

    fn received(&self) -> Vec<Value> {
        self.server.0.lock().unwrap().clone()
    }

    fn asked(&self) -> usize {
        self.asked.0.load(Ordering::SeqCst)
    }
}

fn text(result: &ToolResult) -> String {
    match &result.content {
        ToolOutput::Text(text) => text.clone(),
        other => format!("{other:?}"),
    }
}

/// The fault of a call refused because its tool's schema cannot be checked.
fn uncheckable(result: &ToolResult) -> (&str, &str) {
    match &result.error {
        Some(DispatchError::UncheckableSchema { at, rule, .. }) => (at, rule),
        other => panic!("expected an uncheckable schema, got {other:?}"),
    }
}

fn search_schema() -> Value {
    json!({"type": "object", "properties": {
        "query": {"type": "string", "minLength": 1},
        "filter": {"type": "object", "properties": {"min": {"type": "integer", "maximum": 3}}}},
        "required": ["query"]})
}

#[tokio::test]
async fn an_mcp_call_its_schema_refuses_never_reaches_the_approver_or_the_server() {
    let host = Host::new(search_schema());
    let refused = host.call(json!({"query": "x", "filter": {"min": 9}})).await;
    assert!(
        matches!(&refused.error, Some(DispatchError::InvalidInput { path: Some(path), .. }) if path == "filter.min"),
        "{refused:?}"
    );
    assert!(
        text(&refused).contains("`filter.min`: 9 is greater than the maximum of 3"),
        "{}",
        text(&refused)
    );
    // A missing required member, and a null the schema does not allow (an MCP input is
    // checked as sent).
    for input in [json!({"filter": {}}), json!({"query": null})] {
        assert!(host.call(input).await.is_error());
    }
    assert_eq!(host.asked(), 0);
    assert!(host.received().is_empty(), "{:?}", host.received());
}

#[tokio::test]
async fn an_mcp_call_its_schema_accepts_is_asked_about_and_sent_unchanged() {
    let host = Host::new(search_schema());
    let input = json!({"query": "x", "filter": {"min": 2}, "extra": [1]});
    let result = host.call(input.clone()).await;
    assert!(!result.is_error(), "{}", text(&result));
    assert_eq!(host.asked(), 1);
    assert_eq!(host.received(), [input]);
}

#[tokio::test]
async fn a_pattern_whose_backtracking_would_never_end_is_decided_in_linear_time() {
    // `(a+)+$` against a's and a `!` takes 2^n steps on a backtracking engine: this test would
    // not finish on one.
    let host = Host::new(json!({"type": "object", "properties": {
        "text": {"type": "string", "pattern": "(a+)+$"}}}));
    for n in [40, 10_000] {
        let refused = host
            .call(json!({"text": format!("{}!", "a".repeat(n))}))
            .await;
        let message = text(&refused);
        assert!(
            message.contains("invalid input at `text`")
                && message.contains(r#"does not match "(a+)+$""#),
            "{message}"
        );
        let accepted = host.call(json!({"text": "a".repeat(n)})).await;
        assert!(!accepted.is_error(), "{}", text(&accepted));
    }
    assert_eq!(host.received().len(), 2);
}

#[tokio::test]
async fn a_pattern_that_needs_backtracking_refuses_every_call_naming_the_place_in_the_schema() {
    // Look-around and backreferences have no linear-time match, so the linear engine refuses
    // them; a backtracking engine would take them, and with them unbounded time.
    for pattern in ["^(?!admin).*$", r"^(a)\1$"] {
        let host = Host::new(json!({"type": "object", "properties": {
            "name": {"type": "string", "pattern": pattern}}}));
        let result = host.call(json!({"name": "x"})).await;
        let (at, rule) = uncheckable(&result);
        assert_eq!(at, "properties.name.pattern");
        assert!(rule.contains("look-around and backreferences"), "{rule}");
        assert!(
            text(&result).starts_with("Error: mcp__srv__tool was not called"),
            "{}",
            text(&result)
        );
        assert_eq!(host.asked(), 0);
        assert!(host.received().is_empty());
    }
}

#[tokio::test]
async fn a_ref_or_a_dialect_outside_the_schema_is_never_fetched_and_refuses_the_calls() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/schema.json", listener.local_addr().unwrap());
    let schemas = [
        json!({"type": "object", "properties": {"a": {"$ref": url}}}),
        json!({"type": "object", "$ref": format!("{url}#/defs/a")}),
        json!({"$schema": url, "type": "object"}),
        json!({"type": "object", "properties": {"a": {"$ref": "file:///etc/passwd"}}}),
    ];
    for schema in schemas {
        let host = Host::new(schema.clone());
        let result = host.call(json!({"a": 1})).await;
        let (_, rule) = uncheckable(&result);
        assert!(!rule.is_empty(), "{schema}");
        assert!(host.received().is_empty() && host.asked() == 0);
    }
    match listener.accept() {
        Err(error) if error.kind() == ErrorKind::WouldBlock => {}
        other => panic!("the schema's URL was fetched: {other:?}"),
    }
}

/// `$defs` `a0` … `an`, each applying the one before twice.
fn doubling(n: usize) -> Value {
    let mut defs = serde_json::Map::new();
    defs.insert("a0".into(), json!({"type": "string"}));
    for i in 1..=n {
        let previous = format!("#/$defs/a{}", i - 1);
        defs.insert(
            format!("a{i}"),
            json!({"allOf": [{"$ref": previous}, {"$ref": previous}]}),
        );
    }
    json!({"type": "object", "$defs": defs,
           "properties": {"text": {"$ref": format!("#/$defs/a{n}")}}})
}

#[tokio::test]
async fn a_schema_whose_check_would_apply_exponentially_many_subschemas_refuses_every_call() {
    // 2^40 subschemas for one string: checking it would not end.
    let host = Host::new(doubling(40));
    let result = host.call(json!({"text": "x"})).await;
    let (at, rule) = uncheckable(&result);
    assert_eq!(at, ".");
    assert!(
        rule.contains(
            "nested 1 or more levels deep against it would apply more than 10000 subschemas"
        ),
        "{rule}"
    );
    assert!(host.received().is_empty() && host.asked() == 0);
    // 2^8 is checked.
    let host = Host::new(doubling(8));
    assert!(host.call(json!({"text": 1})).await.is_error());
    assert!(!host.call(json!({"text": "x"})).await.is_error());
}

#[tokio::test]
async fn an_input_nested_past_the_depth_its_schemas_cost_is_bounded_to_is_refused() {
    // Each level of `c` applies `n` twice: 5 * 2^(depth-1) subschemas at a depth.
    let host = Host::new(json!({"$defs": {"n": {"type": "object", "properties": {
        "c": {"anyOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/n"}]}}}},
        "$ref": "#/$defs/n"}));
    let nested = |depth: usize| (0..depth).fold(json!({}), |inner, _| json!({"c": inner}));
    let shallow = host.call(nested(5)).await;
    assert!(!shallow.is_error(), "{}", text(&shallow));
    let deep = host.call(nested(40)).await;
    let (at, rule) = uncheckable(&deep);
    assert_eq!(at, ".");
    assert!(
        rule.contains("nested 12 or more levels deep") && rule.contains("this input nests 40"),
        "{rule}"
    );
    assert_eq!(host.received().len(), 1);
}

#[tokio::test]
async fn an_input_whose_places_add_up_past_the_total_bound_is_refused() {
    // `a11` applies 2^13 - 3 subschemas to each item: 123 items pass a million.
    let mut schema = doubling(11);
    schema["properties"] = json!({"list": {"type": "array", "items": {"$ref": "#/$defs/a11"}}});
    let host = Host::new(schema);
    assert!(!host.call(json!({"list": ["x", "y"]})).await.is_error());
    let result = host.call(json!({"list": vec!["x"; 150]})).await;
    let (at, rule) = uncheckable(&result);
    assert_eq!(at, ".");
    assert!(
        rule.contains("more than 1000000 subschemas in all"),
        "{rule}"
    );
    assert_eq!(host.received().len(), 1);
}

#[tokio::test]
async fn a_tree_schema_is_checked_at_any_depth_a_response_can_nest() {
    // A tree: a member gets one `properties` entry, so `left` and `right` never add up.
    let host = Host::new(json!({"$defs": {"node": {"type": "object", "properties": {
        "value": {"type": "integer"},
        "left": {"$ref": "#/$defs/node"}, "right": {"$ref": "#/$defs/node"}}}},
        "$ref": "#/$defs/node"}));
    let tree = |leaf: Value| {
        (0..50).fold(
            leaf,
            |inner, _| json!({"left": inner.clone(), "right": {"value": 1}, "value": 2}),
        )
    };
    let refused = host.call(tree(json!({"value": "one"}))).await;
    assert!(
        text(&refused).contains("left.left.left"),
        "{}",
        text(&refused)
    );
    assert!(!host.call(tree(json!({"value": 1}))).await.is_error());
}

#[tokio::test]
async fn a_schema_past_the_listing_limits_is_not_a_tool_and_its_calls_reach_nothing() {
    let deep = (0..70).fold(
        json!({"type": "string"}),
        |inner, _| json!({"items": inner}),
    );
    let large = json!({"type": "object", "description": "x".repeat(300 * 1024)});
    for schema in [deep, large] {
        let listed = json!([{"name": "tool", "inputSchema": schema}]);
        let loaded = load_server("srv", &listed);
        assert!(loaded.tools.is_empty());
        assert_eq!(loaded.errors.len(), 1);
        let env = Env::default();
        let server = Arc::new(Server::default());
        let dispatcher = Dispatcher::new(
            env.clone(),
            PermissionContext::new(),
            Pool::new(&env, []),
            ".",
        )
        .with_mcp(server.clone());
        let result = dispatcher
            .dispatch(&ToolCall::new("t1", "mcp__srv__tool", json!({})))
            .await;
        assert!(matches!(
            result.error,
            Some(DispatchError::NotInPool { .. })
        ));
        assert!(server.0.lock().unwrap().is_empty());
    }
}

#[tokio::test]
async fn the_schema_is_compiled_on_the_first_call_and_kept_for_the_listing() {
    let host = Host::new(search_schema());
    let tool = host
        .dispatcher
        .pool()
        .find("mcp__srv__tool")
        .unwrap()
        .clone();
    let state = || format!("{:?}", tool.mcp().unwrap());
    // A copy of the entry made before the first call shares what the call compiles.
    let copy = (*tool).clone();
    assert!(state().contains("compiled: not compiled"), "{}", state());
    assert!(host.call(json!({"query": ""})).await.is_error());
    assert!(state().contains("compiled: compiled"), "{}", state());
    let copied = format!("{:?}", copy.mcp().unwrap());
    assert!(copied.contains("compiled: compiled"), "{copied}");
    // An entry whose schema was replaced is checked against its own schema.
    let mut replaced = (*tool).clone();
    replaced.input_schema = Arc::from(r#"{"type":"object","required":["other"]}"#);
    let env = Env::default();
    let dispatcher = Dispatcher::new(
        env.clone(),
        PermissionContext::new(),
        Pool::new(&env, [Arc::new(replaced)]),
        ".",
    );
    let result = dispatcher
        .dispatch(&ToolCall::new(
            "t1",
            "mcp__srv__tool",
            json!({"query": "x"}),
        ))
        .await;
    assert!(
        text(&result).contains("\"other\" is a required property"),
        "{}",
        text(&result)
    );
}

#[tokio::test]
async fn every_schema_of_the_real_servers_is_checked() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/mcp-fixtures");
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let (mut tools, mut refused) = (0, 0);
    for path in entries {
        let listed: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let loaded = load_server("srv", &listed);
        assert!(
            loaded.errors.is_empty(),
            "{}: {:?}",
            path.display(),
            loaded.errors
        );
        let env = Env::default();
        let mut rules = PermissionContext::new();
        rules.mode = PermissionMode::BypassPermissions;
        let server = Arc::new(Server::default());
        let names: Vec<String> = loaded.tools.iter().map(|tool| tool.name.clone()).collect();
        let dispatcher = Dispatcher::new(env.clone(), rules, Pool::new(&env, loaded.tools), ".")
            .with_mcp(server.clone());
        for name in names {
            let result = dispatcher
                .dispatch(&ToolCall::new("t1", &name, json!({})))
                .await;
            tools += 1;
            match &result.error {
                None => {}
                Some(DispatchError::InvalidInput { message, .. })
                    if message.contains("required") =>
                {
                    refused += 1;
                }
                other => panic!("{} {name}: {other:?}", path.display()),
            }
        }
    }
    assert_eq!(tools, 134);
    // Most of them need some member; the rest reached the server.
    assert!(refused > 60 && refused < tools, "{refused}");
}
