//! SEMANTICS.md §11: dispatch.

use std::cell::Cell;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use registry_core::dispatch::{Approver, Dispatcher, McpCaller, ToolResult};
use registry_core::mcp::load_server;
use registry_core::permissions::{Behavior, PermissionMode, RuleSource};
use registry_core::pool::ToolInfo;
use registry_core::{
    Env, PermissionDecision, Subject, Switches, Tool, ToolContext, ToolError, ToolOutput, ToolSpec,
    tool,
};
use serde::Deserialize;
use serde_json::{Value, json};

static CALLS: AtomicUsize = AtomicUsize::new(0);

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
    fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        CALLS.fetch_add(1, Ordering::SeqCst);
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
    fn call(self, _: &ToolContext<'_>) -> Result<Value, ToolError> {
        if self.n == 13 {
            panic!("unlucky");
        }
        Ok(json!({"n": self.n, "padding": "xxxxxxxx"}))
    }
}

fn pool() -> Vec<Arc<ToolInfo>> {
    let env = Env::default();
    let mut tools = vec![
        Arc::new(ToolInfo::from_builtin(
            &<Echo as ToolSpec>::DESCRIPTOR,
            &env,
        )),
        Arc::new(ToolInfo::from_builtin(
            &<Lazy as ToolSpec>::DESCRIPTOR,
            &env,
        )),
    ];
    tools.extend(
        load_server(
            "srv",
            &json!([{"name": "ping", "inputSchema": {"type": "object"}}]),
        )
        .tools,
    );
    tools
}

struct Always(bool);
impl Approver for Always {
    fn approve(&self, _: &ToolInfo, _: &str) -> bool {
        self.0
    }
}

struct Pong(Cell<usize>);
impl McpCaller for Pong {
    fn call_tool(&self, server: &str, tool: &str, _: &Value) -> Result<ToolOutput, ToolError> {
        self.0.set(self.0.get() + 1);
        Ok(ToolOutput::Text(format!("{server}/{tool}: pong")))
    }
}

fn dispatch(env: &Env, approver: Option<&dyn Approver>, name: &str, input: Value) -> ToolResult {
    let switches = Switches::default();
    let pool = pool();
    let loaded = |_: &str| false;
    let dispatcher = Dispatcher {
        env,
        pool: &pool,
        ctx: ToolContext::new(Path::new("."), &switches),
        loaded: &loaded,
        mcp: None,
        approver,
    };
    dispatcher.dispatch("id1", name, &input)
}

fn text(result: &ToolResult) -> &str {
    match &result.content {
        ToolOutput::Text(text) => text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[test]
fn successful_call_maps_output_to_a_tool_result() {
    let result = dispatch(
        &Env::default(),
        None,
        "Echo",
        json!({"text": "ab", "times": 2}),
    );
    assert!(!result.is_error && result.called);
    assert_eq!(
        result.to_json(),
        json!({"type": "tool_result", "tool_use_id": "id1", "content": "abab"})
    );
}

#[test]
fn tool_outside_the_pool_is_refused_and_never_called() {
    let before = CALLS.load(Ordering::SeqCst);
    let result = dispatch(&Env::default(), None, "Bash", json!({}));
    assert!(result.is_error && !result.called);
    assert!(text(&result).contains("No such tool available: Bash"));
    assert_eq!(result.to_json()["is_error"], true);
    assert_eq!(CALLS.load(Ordering::SeqCst), before);
}

#[test]
fn bad_input_names_the_json_path_and_what_was_expected() {
    let result = dispatch(
        &Env::default(),
        None,
        "Echo",
        json!({"text": "a", "times": 300}),
    );
    assert!(result.is_error && !result.called);
    assert!(text(&result).contains("`times`"), "{}", text(&result));
    assert!(text(&result).contains("u8"), "{}", text(&result));
    let missing = dispatch(&Env::default(), None, "Echo", json!({}));
    assert!(
        text(&missing).contains("missing field `text`"),
        "{}",
        text(&missing)
    );
}

#[test]
fn validate_input_runs_before_the_call() {
    let result = dispatch(&Env::default(), None, "Echo", json!({"text": ""}));
    assert!(result.is_error && !result.called);
    assert!(text(&result).contains("text is empty"));
}

#[test]
fn deferred_tool_not_loaded_gets_the_select_hint_on_bad_input() {
    let result = dispatch(&Env::default(), None, "Lazy", json!({"n": "x"}));
    assert!(text(&result).contains("select:Lazy"), "{}", text(&result));
    let loaded_ok = dispatch(&Env::default(), None, "Echo", json!({"text": 1}));
    assert!(
        !text(&loaded_ok).contains("select:"),
        "Echo is not deferred"
    );
}

#[test]
fn deny_rule_with_matching_content_refuses_the_call() {
    let mut env = Env::default();
    env.permissions
        .add(Behavior::Deny, RuleSource::Project, "Echo(rm:*)");
    let result = dispatch(&env, None, "Echo", json!({"text": "rm -rf"}));
    assert!(result.is_error && !result.called);
    assert!(
        text(&result).contains("Echo(rm:*) (from projectSettings)"),
        "{}",
        text(&result)
    );
    assert!(!dispatch(&env, None, "Echo", json!({"text": "ls"})).is_error);
}

#[test]
fn ask_rule_consults_the_approver() {
    let mut env = Env::default();
    env.permissions.add(Behavior::Ask, RuleSource::User, "Echo");
    assert!(!dispatch(&env, Some(&Always(true)), "Echo", json!({"text": "a"})).is_error);
    assert!(dispatch(&env, Some(&Always(false)), "Echo", json!({"text": "a"})).is_error);
    let no_approver = dispatch(&env, None, "Echo", json!({"text": "a"}));
    assert!(text(&no_approver).contains("no approver"));
}

#[test]
fn tools_own_check_runs_last_and_bypass_mode_skips_asking() {
    assert!(dispatch(&Env::default(), None, "Echo", json!({"text": "secret"})).is_error);
    let mut allow = Env::default();
    allow
        .permissions
        .add(Behavior::Allow, RuleSource::Local, "Echo(secret)");
    assert!(
        !dispatch(&allow, None, "Echo", json!({"text": "secret"})).is_error,
        "an allow rule answers first"
    );
    let mut bypass = Env::default();
    bypass.permissions.mode = PermissionMode::BypassPermissions;
    assert!(!dispatch(&bypass, None, "Echo", json!({"text": "secret"})).is_error);
}

#[test]
fn output_is_cut_to_the_tools_limit() {
    let result = dispatch(&Env::default(), None, "Lazy", json!({"n": 1}));
    assert!(!result.is_error);
    assert!(text(&result).starts_with("{\"n\":"), "{}", text(&result));
    assert!(text(&result).ends_with("[output truncated]"));
}

#[test]
fn a_panicking_tool_becomes_an_error_result() {
    let result = dispatch(&Env::default(), None, "Lazy", json!({"n": 13}));
    assert!(result.is_error && result.called);
    assert!(text(&result).contains("panicked"));
}

#[test]
fn mcp_tools_go_through_the_hosts_caller() {
    let env = Env::default();
    let switches = Switches::default();
    let pool = pool();
    let caller = Pong(Cell::new(0));
    let loaded = |_: &str| true;
    let dispatcher = Dispatcher {
        env: &env,
        pool: &pool,
        ctx: ToolContext::new(Path::new("."), &switches),
        loaded: &loaded,
        mcp: Some(&caller),
        approver: None,
    };
    let ok = dispatcher.dispatch("x", "mcp__srv__ping", &json!({}));
    assert_eq!(ok.content, ToolOutput::Text("srv/ping: pong".into()));
    let bad = dispatcher.dispatch("x", "mcp__srv__ping", &json!([1]));
    assert!(bad.is_error);
    assert!(text(&bad).contains("expected a JSON object, got an array"));
    assert_eq!(caller.0.get(), 1);
}
