//! `docs/design.md` §11: dispatch.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::Pool;
use toolreg::dispatch::{McpCall, McpCaller};
use toolreg::mcp::load_server;
use toolreg::permissions::Refusal;
use toolreg::permissions::Subject;
use toolreg::tool::BoxFuture;
use toolreg::wire::anthropic::tool_result;
use toolreg::{
    ApprovalRequest, Approver, Behavior, DispatchError, Dispatcher, Env, PermissionContext,
    PermissionDecision, PermissionMode, RuleSource, Tool, ToolCall, ToolContext, ToolError,
    ToolInfo, ToolOutput, ToolResult, ToolSpec, tool,
};

/// Echoes its text.
#[tool(search_hint = "repeat text back unchanged")]
#[derive(Deserialize)]
struct Echo {
    /// The text.
    text: String,
    /// How many times.
    times: Option<u8>,
}

impl Tool for Echo {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.text.repeat(usize::from(self.times.unwrap_or(1))))
    }
    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if self.text.is_empty() {
            Err(ToolError::new("text is empty"))
        } else {
            Ok(())
        }
    }
    fn check_permissions(&self, _: &ToolContext<'_>) -> PermissionDecision {
        if self.text == "secret" {
            PermissionDecision::Ask("it reveals a secret".into())
        } else {
            PermissionDecision::Allow
        }
    }
    fn rule_subject(&self, _: &ToolContext<'_>) -> Option<Subject> {
        Some(Subject::Text(self.text.clone()))
    }
}

/// Loaded on demand.
#[tool(defer, max_result_size_chars = 5)]
#[derive(Deserialize)]
struct Lazy {
    /// A count.
    n: u32,
}

impl Tool for Lazy {
    type Output = Value;
    async fn call(self, _: &ToolContext<'_>) -> Result<Value, ToolError> {
        if self.n == 13 {
            panic!("unlucky");
        }
        Ok(json!({"n": self.n, "padding": "xxxxxxxx"}))
    }
}

/// An age in years: its schema says at most 150, which serde (a `u32`) does not check.
#[derive(Deserialize)]
struct Age(#[allow(dead_code)] u32);

impl toolreg::InputSchema for Age {
    const SCHEMA: toolreg::schema::Schema =
        toolreg::schema::Schema::Leaf(r#""type":"integer","minimum":0,"maximum":150"#);
}

static PEOPLE: AtomicUsize = AtomicUsize::new(0);

/// Records a person.
#[tool(search_hint = "record a person and their age")]
#[derive(Deserialize)]
struct Person {
    /// The name.
    name: String,
    /// The age.
    #[allow(dead_code)]
    age: Age,
}

impl Tool for Person {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        PEOPLE.fetch_add(1, Ordering::SeqCst);
        Ok(self.name)
    }
}

fn pool() -> Pool {
    let env = Env::default();
    let mut tools = vec![
        Arc::new(ToolInfo::from_builtin(
            &<Person as ToolSpec>::DESCRIPTOR,
            &env.switches,
        )),
        Arc::new(ToolInfo::from_builtin(
            &<Echo as ToolSpec>::DESCRIPTOR,
            &env.switches,
        )),
        Arc::new(ToolInfo::from_builtin(
            &<Lazy as ToolSpec>::DESCRIPTOR,
            &env.switches,
        )),
    ];
    tools.extend(
        load_server(
            "srv",
            &json!([{"name": "ping", "inputSchema": {"type": "object"}}]),
        )
        .tools,
    );
    Pool::new(&env, tools)
}

struct Always(bool);
impl Approver for Always {
    fn approve(&self, _: ApprovalRequest) -> BoxFuture<'_, bool> {
        Box::pin(std::future::ready(self.0))
    }
}

#[derive(Default)]
struct Pong(AtomicUsize);
impl McpCaller for Pong {
    fn call_tool<'a>(&'a self, call: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        self.0.fetch_add(1, Ordering::SeqCst);
        let text = format!("{}/{}: pong", call.server, call.tool);
        Box::pin(async move { Ok(ToolOutput::Text(text)) })
    }
}

fn dispatcher(rules: &PermissionContext, approver: Option<bool>) -> Dispatcher {
    let dispatcher = Dispatcher::new(Env::default(), rules.clone(), pool(), ".");
    match approver {
        Some(answer) => dispatcher.with_approver(Arc::new(Always(answer))),
        None => dispatcher,
    }
}

async fn dispatch(
    rules: &PermissionContext,
    approver: Option<bool>,
    name: &str,
    input: Value,
) -> ToolResult {
    dispatcher(rules, approver)
        .dispatch(&ToolCall::new("id1", name, input))
        .await
}

fn text(result: &ToolResult) -> &str {
    match &result.content {
        ToolOutput::Text(text) => text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn successful_call_maps_output_to_a_tool_result() {
    let result = dispatch(
        &PermissionContext::new(),
        None,
        "Echo",
        json!({"text": "ab", "times": 2}),
    )
    .await;
    assert!(!result.is_error() && result.called());
    assert_eq!(
        tool_result(&result),
        json!({"type": "tool_result", "tool_use_id": "id1", "content": "abab"})
    );
}

#[tokio::test]
async fn tool_outside_the_pool_is_refused_and_never_called() {
    let result = dispatch(&PermissionContext::new(), None, "Bash", json!({})).await;
    assert!(result.is_error() && !result.called());
    assert_eq!(
        result.error,
        Some(DispatchError::NotInPool {
            name: "Bash".into()
        })
    );
    assert!(text(&result).contains("No such tool available: Bash"));
    assert_eq!(tool_result(&result)["is_error"], true);
}

#[tokio::test]
async fn bad_input_names_the_json_path_and_what_was_expected() {
    let result = dispatch(
        &PermissionContext::new(),
        None,
        "Echo",
        json!({"text": "a", "times": 300}),
    )
    .await;
    assert!(result.is_error() && !result.called());
    let Some(DispatchError::InvalidInput { path, message, .. }) = &result.error else {
        panic!("{:?}", result.error);
    };
    assert_eq!(path.as_deref(), Some("times"));
    assert!(message.contains("u8"), "{message}");
    assert!(text(&result).contains("`times`"), "{}", text(&result));
    let missing = dispatch(&PermissionContext::new(), None, "Echo", json!({})).await;
    assert!(
        text(&missing).contains("missing field `text`"),
        "{}",
        text(&missing)
    );
}

#[tokio::test]
async fn validate_input_runs_before_the_call() {
    let result = dispatch(&PermissionContext::new(), None, "Echo", json!({"text": ""})).await;
    assert!(result.is_error() && !result.called());
    assert!(matches!(
        result.error,
        Some(DispatchError::InvalidInput { path: None, .. })
    ));
    assert!(text(&result).contains("text is empty"));
}

#[tokio::test]
async fn deferred_tool_not_loaded_gets_the_select_hint_on_bad_input() {
    let result = dispatch(&PermissionContext::new(), None, "Lazy", json!({"n": "x"})).await;
    assert!(matches!(
        result.error,
        Some(DispatchError::InvalidInput {
            load_hint: true,
            ..
        })
    ));
    assert!(text(&result).contains("select:Lazy"), "{}", text(&result));
    let loaded_ok = dispatch(&PermissionContext::new(), None, "Echo", json!({"text": 1})).await;
    assert!(
        !text(&loaded_ok).contains("select:"),
        "Echo is not deferred"
    );
    let loaded = Dispatcher::new(Env::default(), PermissionContext::new(), pool(), ".")
        .with_loaded(["Lazy".to_owned()]);
    let result = loaded
        .dispatch(&ToolCall::new("id", "Lazy", json!({"n": "x"})))
        .await;
    assert!(!text(&result).contains("select:"), "{}", text(&result));
}

#[tokio::test]
async fn deny_rule_with_matching_content_refuses_the_call() {
    let mut rules = PermissionContext::new();
    rules.add(Behavior::Deny, RuleSource::Project, "Echo(rm:*)");
    let result = dispatch(&rules, None, "Echo", json!({"text": "rm -rf"})).await;
    assert!(result.is_error() && !result.called());
    let Some(DispatchError::Denied {
        refusal: Refusal::Rule(rule),
        ..
    }) = &result.error
    else {
        panic!("{:?}", result.error);
    };
    assert_eq!(rule.source, RuleSource::Project);
    assert!(
        text(&result).contains("Echo(rm:*) (from projectSettings)"),
        "{}",
        text(&result)
    );
    assert!(
        !dispatch(&rules, None, "Echo", json!({"text": "ls"}))
            .await
            .is_error()
    );
}

#[tokio::test]
async fn ask_rule_consults_the_approver() {
    let mut rules = PermissionContext::new();
    rules.add(Behavior::Ask, RuleSource::User, "Echo");
    let input = || json!({"text": "a"});
    assert!(
        !dispatch(&rules, Some(true), "Echo", input())
            .await
            .is_error()
    );
    let refused = dispatch(&rules, Some(false), "Echo", input()).await;
    assert!(matches!(
        refused.error,
        Some(DispatchError::NotApproved { .. })
    ));
    let no_approver = dispatch(&rules, None, "Echo", input()).await;
    assert!(matches!(
        no_approver.error,
        Some(DispatchError::NeedsApproval { .. })
    ));
    assert!(text(&no_approver).contains("no approver"));
}

#[tokio::test]
async fn tools_own_check_runs_last_and_bypass_mode_skips_asking() {
    let secret = || json!({"text": "secret"});
    assert!(
        dispatch(&PermissionContext::new(), None, "Echo", secret())
            .await
            .is_error()
    );
    let mut allow = PermissionContext::new();
    allow.add(Behavior::Allow, RuleSource::Local, "Echo(secret)");
    assert!(
        !dispatch(&allow, None, "Echo", secret()).await.is_error(),
        "an allow rule answers first"
    );
    let mut bypass = PermissionContext::new();
    bypass.mode = PermissionMode::BypassPermissions;
    assert!(!dispatch(&bypass, None, "Echo", secret()).await.is_error());
}

#[tokio::test]
async fn output_is_cut_to_the_tools_limit() {
    let result = dispatch(&PermissionContext::new(), None, "Lazy", json!({"n": 1})).await;
    assert!(!result.is_error());
    assert!(text(&result).starts_with("{\"n\":"), "{}", text(&result));
    assert!(text(&result).ends_with("[output truncated]"));
}

#[tokio::test]
async fn a_panicking_tool_becomes_an_error_result_that_keeps_the_message() {
    let result = dispatch(&PermissionContext::new(), None, "Lazy", json!({"n": 13})).await;
    assert!(result.is_error() && result.called());
    assert_eq!(
        result.error,
        Some(DispatchError::Panicked {
            tool: "Lazy".into(),
            message: "unlucky".into()
        })
    );
    assert!(
        text(&result).contains("panicked (unlucky)"),
        "{}",
        text(&result)
    );
}

#[tokio::test]
async fn mcp_tools_go_through_the_hosts_caller() {
    let caller = Arc::new(Pong::default());
    let mut rules = PermissionContext::new();
    // Without annotations an MCP tool is destructive: allow this server's tools.
    rules.add(Behavior::Allow, RuleSource::User, "mcp__srv");
    let dispatcher = Dispatcher::new(Env::default(), rules, pool(), ".").with_mcp(caller.clone());
    let ok = dispatcher
        .dispatch(&ToolCall::new("x", "mcp__srv__ping", json!({})))
        .await;
    assert_eq!(ok.content, ToolOutput::Text("srv/ping: pong".into()));
    let bad = dispatcher
        .dispatch(&ToolCall::new("x", "mcp__srv__ping", json!([1])))
        .await;
    assert!(bad.is_error());
    assert!(text(&bad).contains("expected a JSON object, got an array"));
    assert_eq!(caller.0.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn destructive_mcp_tool_asks_unless_a_rule_allows_it() {
    let caller = Arc::new(Pong::default());
    let asking = Dispatcher::new(Env::default(), PermissionContext::new(), pool(), ".")
        .with_mcp(caller.clone());
    let call = ToolCall::new("x", "mcp__srv__ping", json!({}));
    let refused = asking.dispatch(&call).await;
    assert!(
        matches!(refused.error, Some(DispatchError::NeedsApproval { .. })),
        "{refused:?}"
    );
    assert!(text(&refused).contains("destructive"), "{}", text(&refused));
    let approved = asking
        .with_approver(Arc::new(Always(true)))
        .dispatch(&call)
        .await;
    assert!(!approved.is_error());
    assert_eq!(caller.0.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn dispatcher_is_send_sync_and_crosses_a_spawn() {
    fn send_sync<T: Send + Sync + 'static>(_: &T) {}
    let dispatcher = Arc::new(Dispatcher::new(
        Env::default(),
        PermissionContext::new(),
        pool(),
        ".",
    ));
    send_sync(&dispatcher);
    let shared = Arc::clone(&dispatcher);
    let result = tokio::spawn(async move {
        shared
            .dispatch(&ToolCall::new("id", "Echo", json!({"text": "hi"})))
            .await
    })
    .await
    .unwrap();
    assert_eq!(result.content, ToolOutput::Text("hi".into()));
}

#[tokio::test]
async fn input_serde_accepts_but_the_schema_refuses_is_an_error_naming_the_path_and_rule_before_the_call()
 {
    let rules = PermissionContext::new();
    let result = dispatch(&rules, None, "Person", json!({"name": "Ada", "age": 9000})).await;
    assert!(result.is_error() && !result.called(), "{}", text(&result));
    assert!(text(&result).contains("`age`"), "{}", text(&result));
    assert!(
        text(&result).contains("maximum of 150"),
        "{}",
        text(&result)
    );
    assert_eq!(PEOPLE.load(Ordering::SeqCst), 0);
    let result = dispatch(&rules, None, "Person", json!({"name": "Ada", "age": 36})).await;
    assert!(!result.is_error(), "{}", text(&result));
    assert_eq!(PEOPLE.load(Ordering::SeqCst), 1);
}
