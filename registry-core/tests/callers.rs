//! Tools called from code (`allowed_callers`, a `tool_use` block's `caller`) and tool use
//! examples (`input_examples`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::conversation::Conversation;
use toolreg::env::CallerRules;
use toolreg::mcp::load_server;
use toolreg::permissions::RuleError;
use toolreg::tool::{AllowedCallers, Caller, CallerKind};
use toolreg::wire::openai::OpenAiOptions;
use toolreg::wire::{Api, RenderError, parse_response};
use toolreg::{
    Behavior, DispatchError, Dispatcher, Env, PermissionContext, Pool, RenderOptions, RuleSource,
    SchemaCache, Tool, ToolCall, ToolContext, ToolDescriptor, ToolError, ToolInfo, ToolSpec,
    render_anthropic, render_openai, tool,
};

static RUNS: AtomicUsize = AtomicUsize::new(0);

/// Runs only when code the model runs calls it.
#[tool(allowed_callers = ["code_execution_20260120"])]
#[derive(Deserialize)]
struct FromCodeOnly {
    /// A label.
    label: String,
}

impl Tool for FromCodeOnly {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        RUNS.fetch_add(1, Ordering::SeqCst);
        Ok(self.label)
    }
}

/// Gives the depth at a harbour.
#[tool(input_examples = [r#"{"harbour": "Brest", "days": 2}"#, r#"{"harbour": "Cork"}"#])]
#[derive(Deserialize)]
struct Soundings {
    /// The harbour.
    harbour: String,
    /// How many days ahead, 1 to 7.
    #[schema(minimum = 1, maximum = 7)]
    days: Option<u8>,
}

impl Tool for Soundings {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{} for {:?} days", self.harbour, self.days))
    }
}

/// Finds a free berth.
#[tool(strict, input_examples = [r#"{"harbour": "Cork"}"#])]
#[derive(Deserialize)]
struct Berths {
    /// The harbour.
    harbour: String,
    /// The boat's length in metres.
    length: Option<u32>,
}

impl Tool for Berths {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("{}: {:?}", self.harbour, self.length))
    }
}

/// `Soundings` with an example its schema refuses (`days` past its maximum).
static SOUNDINGS_WITH_A_BAD_EXAMPLE: ToolDescriptor = ToolDescriptor {
    input_examples: &[
        r#"{"harbour": "Brest"}"#,
        r#"{"harbour": "Cork", "days": 9}"#,
    ],
    ..<Soundings as ToolSpec>::DESCRIPTOR
};

fn pool_of(env: &Env, tools: impl IntoIterator<Item = ToolInfo>) -> Pool {
    Pool::new(env, tools.into_iter().map(Arc::new))
}

fn builtin<T: ToolSpec>(env: &Env) -> ToolInfo {
    ToolInfo::from_builtin(&T::DESCRIPTOR, &env.switches)
}

fn from_code(id: &str, name: &str, input: Value) -> ToolCall {
    ToolCall::new(id, name, input).with_caller(Caller::Code {
        kind: CallerKind::CodeExecution20260120,
        tool_id: "srvtoolu_1".into(),
    })
}

fn recorded(name: &str) -> Value {
    let path = format!(
        "{}/../tests/data/responses/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_tool_use_block_s_caller_is_read_and_kept_in_the_history() {
    let body = recorded("anthropic-code-execution.json");
    let response = parse_response(Api::Anthropic, &body).unwrap();
    let callers: Vec<&Caller> = response.calls.iter().map(|call| &call.caller).collect();
    let code = Caller::Code {
        kind: CallerKind::CodeExecution20260120,
        tool_id: "srvtoolu_01CodeRun".into(),
    };
    assert_eq!(callers, [&code, &code]);
    assert_eq!(
        response.container.as_deref(),
        Some("container_011CVfq9mYtK3kEeQbAr5BXh")
    );
    // The history keeps every block as sent: the script and the calls' callers.
    let content = &response.history[0]["content"];
    assert_eq!(content[1]["type"], "server_tool_use");
    assert_eq!(content[2]["caller"]["tool_id"], "srvtoolu_01CodeRun");
    // A block without a caller, and the other APIs' calls, are direct.
    let block = json!({"type": "tool_use", "id": "t", "name": "Read", "input": {}});
    let call: ToolCall = serde_json::from_value(block).unwrap();
    assert_eq!(call.caller, Caller::Direct);
}

#[tokio::test]
async fn a_call_from_code_to_a_tool_only_the_model_may_call_is_refused_without_running() {
    let env = Env::default();
    let pool = pool_of(&env, [builtin::<Soundings>(&env)]);
    let dispatcher = Dispatcher::new(env, PermissionContext::new(), pool, ".");
    let result = dispatcher
        .dispatch(&from_code("t1", "Soundings", json!({"harbour": "Brest"})))
        .await;
    assert!(
        matches!(
            &result.error,
            Some(DispatchError::CallerNotAllowed { tool, allowed, .. })
                if tool == "Soundings" && *allowed == AllowedCallers::DIRECT
        ),
        "{result:?}"
    );
    assert!(!result.called());
    let text = result.error.unwrap().to_string();
    assert!(text.contains("code_execution_20260120"), "{text}");
    // The same call made by the model runs.
    let direct = ToolCall::new("t2", "Soundings", json!({"harbour": "Brest"}));
    assert!(!dispatcher.dispatch(&direct).await.is_error());
}

#[tokio::test]
async fn a_direct_call_to_a_tool_only_code_may_call_is_refused_without_running() {
    let env = Env::default();
    let pool = pool_of(&env, [builtin::<FromCodeOnly>(&env)]);
    assert_eq!(
        pool.named("FromCodeOnly").unwrap().callers(),
        AllowedCallers::NONE.with(CallerKind::CodeExecution20260120)
    );
    let dispatcher = Dispatcher::new(env, PermissionContext::new(), pool, ".");
    let before = RUNS.load(Ordering::SeqCst);
    let direct = ToolCall::new("t1", "FromCodeOnly", json!({"label": "x"}));
    let result = dispatcher.dispatch(&direct).await;
    assert!(
        result
            .error
            .as_ref()
            .unwrap()
            .to_string()
            .contains("only be called from code"),
        "{result:?}"
    );
    // Code of another version of the code execution tool is not allowed either.
    let older =
        ToolCall::new("t2", "FromCodeOnly", json!({"label": "x"})).with_caller(Caller::Code {
            kind: CallerKind::CodeExecution20250825,
            tool_id: "srvtoolu_1".into(),
        });
    assert!(dispatcher.dispatch(&older).await.is_error());
    assert_eq!(RUNS.load(Ordering::SeqCst), before);
    let allowed = dispatcher
        .dispatch(&from_code("t3", "FromCodeOnly", json!({"label": "x"})))
        .await;
    assert!(!allowed.is_error(), "{allowed:?}");
    assert_eq!(RUNS.load(Ordering::SeqCst), before + 1);
}

#[tokio::test]
async fn a_caller_nobody_knows_is_never_allowed() {
    let env = Env::default();
    let pool = pool_of(&env, [builtin::<FromCodeOnly>(&env)]);
    let dispatcher = Dispatcher::new(env, PermissionContext::new(), pool, ".");
    let block = json!({"type": "tool_use", "id": "t1", "name": "FromCodeOnly",
        "input": {"label": "x"}, "caller": {"type": "code_execution_20990101", "tool_id": "s"}});
    let call: ToolCall = serde_json::from_value(block).unwrap();
    assert!(matches!(call.caller, Caller::Unrecognized(_)));
    assert!(dispatcher.dispatch(&call).await.is_error());
}

#[tokio::test]
async fn a_caller_rule_lets_code_call_every_tool_of_an_mcp_server_and_is_rendered() {
    let mut env = Env::default();
    env.callers
        .allow("mcp__tracker", AllowedCallers::DIRECT_AND_CODE)
        .unwrap();
    let listed = json!([
        {"name": "list_issues", "inputSchema": {"type": "object"}},
        {"name": "close_issue", "inputSchema": {"type": "object"}},
    ]);
    let mcp = load_server("tracker", &listed);
    let tools = mcp
        .tools
        .iter()
        .cloned()
        .chain([Arc::new(builtin::<Soundings>(&env))]);
    let pool = Pool::new(&env, tools);
    for tool in pool.iter() {
        let expected = if tool.is_mcp() {
            AllowedCallers::DIRECT_AND_CODE
        } else {
            AllowedCallers::DIRECT
        };
        assert_eq!(tool.callers(), expected, "{}", tool.name);
    }
    let rendered = render_anthropic(&env, &pool, &SchemaCache::new(), &RenderOptions::default())
        .unwrap()
        .tools
        .to_value()
        .unwrap();
    for tool in rendered.as_array().unwrap() {
        let expected = if tool["name"].as_str().unwrap().starts_with("mcp__") {
            json!([
                "direct",
                "code_execution_20250825",
                "code_execution_20260120"
            ])
        } else {
            Value::Null
        };
        assert_eq!(tool["allowed_callers"], expected, "{tool}");
    }
    // A call from code passes the caller check (and then has no MCP caller here).
    let rules = PermissionContext::new().with(Behavior::Allow, RuleSource::User, "mcp__tracker");
    let dispatcher = Dispatcher::new(env, rules, pool, ".");
    let result = dispatcher
        .dispatch(&from_code("t1", "mcp__tracker__list_issues", json!({})))
        .await;
    assert!(
        matches!(result.error, Some(DispatchError::Unavailable { .. })),
        "{result:?}"
    );
}

#[test]
fn a_caller_rule_that_names_content_or_is_malformed_is_refused() {
    let mut rules = CallerRules::new();
    assert!(matches!(
        rules.allow("Bash(git status)", AllowedCallers::CODE),
        Err(RuleError::Content { .. })
    ));
    assert!(matches!(
        rules.allow("Bash(git status", AllowedCallers::CODE),
        Err(RuleError::Unclosed { .. })
    ));
    assert!(rules.is_empty());
}

#[test]
fn the_conversation_sends_the_container_and_every_block_of_the_code_execution_turn_back() {
    let env = Env::default();
    let pool = pool_of(&env, [builtin::<Soundings>(&env)]);
    let mut conversation = Conversation::anthropic(RenderOptions::default());
    conversation.push_user("Count the Rust files.");
    let first = conversation.request(&env, &pool).unwrap();
    assert!(first.body.get("container").is_none());
    let body = recorded("anthropic-code-execution.json");
    conversation.receive(&body).unwrap();
    let next = conversation.request(&env, &pool).unwrap();
    assert_eq!(next.body["container"], "container_011CVfq9mYtK3kEeQbAr5BXh");
    assert_eq!(next.body["messages"][1]["content"], body["content"]);
}

#[test]
fn input_examples_are_sent_to_anthropic_and_left_out_of_openai() {
    let env = Env::default();
    let pool = pool_of(&env, [builtin::<Soundings>(&env)]);
    let anthropic = render_anthropic(&env, &pool, &SchemaCache::new(), &RenderOptions::default())
        .unwrap()
        .tools
        .to_value()
        .unwrap();
    assert_eq!(
        anthropic[0]["input_examples"],
        json!([{"harbour": "Brest", "days": 2}, {"harbour": "Cork"}])
    );
    let openai = render_openai(&pool, &OpenAiOptions::default())
        .unwrap()
        .tools
        .to_json();
    assert!(!openai.contains("input_examples"), "{openai}");
    assert!(!openai.contains("Brest"), "{openai}");
}

#[test]
fn an_example_its_schema_refuses_is_never_sent_and_the_error_names_it_and_the_rule() {
    let env = Env::default();
    let bad = ToolInfo::from_builtin(&SOUNDINGS_WITH_A_BAD_EXAMPLE, &env.switches);
    let pool = pool_of(&env, [bad]);
    let error =
        render_anthropic(&env, &pool, &SchemaCache::new(), &RenderOptions::default()).unwrap_err();
    let RenderError::InvalidExample(invalid) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        (invalid.tool.as_str(), invalid.index, invalid.path.as_str()),
        ("Soundings", Some(1), "days")
    );
    let text = error.to_string();
    assert!(
        text.contains("input example 1 of tool `Soundings`") && text.contains("maximum of 7"),
        "{text}"
    );
    // What the test `#[tool]` generates calls says the same.
    let checked = toolreg::__private::check_examples(&SOUNDINGS_WITH_A_BAD_EXAMPLE).unwrap_err();
    assert_eq!(checked.to_string(), text);
    assert!(toolreg::__private::check_examples(&Soundings::DESCRIPTOR).is_ok());
}

#[test]
fn a_strict_tool_s_examples_are_sent_in_the_strict_form() {
    let env = Env::default();
    let pool = pool_of(&env, [builtin::<Berths>(&env)]);
    let options = RenderOptions {
        settings: toolreg::wire::anthropic::CacheSettings {
            strict_tools: true,
            model_supports_strict: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let tools = render_anthropic(&env, &pool, &SchemaCache::new(), &options)
        .unwrap()
        .tools
        .to_value()
        .unwrap();
    assert_eq!(tools[0]["strict"], true, "{tools}");
    assert_eq!(
        tools[0]["input_schema"]["required"],
        json!(["harbour", "length"]),
        "{tools}"
    );
    // The property the strict schema requires as nullable is sent as null.
    assert_eq!(
        tools[0]["input_examples"],
        json!([{"harbour": "Cork", "length": null}])
    );
    // Without strict tools, as written.
    let standard = render_anthropic(&env, &pool, &SchemaCache::new(), &RenderOptions::default())
        .unwrap()
        .tools
        .to_value()
        .unwrap();
    assert_eq!(standard[0]["input_examples"], json!([{"harbour": "Cork"}]));
}

#[test]
fn an_mcp_tool_carries_the_examples_the_application_gives_it_checked_against_its_schema() {
    let env = Env::default();
    let listed = json!([{"name": "get_weather", "inputSchema": {"type": "object",
        "properties": {"city": {"type": "string", "minLength": 2}}, "required": ["city"]}}]);
    let received = load_server("weather", &listed).tools[0].as_ref().clone();
    assert!(received.input_examples.is_none());
    let options = RenderOptions::default();
    let render = |tool: ToolInfo| {
        let pool = pool_of(&env, [tool]);
        render_anthropic(&env, &pool, &SchemaCache::new(), &options)
            .map(|rendered| rendered.tools.to_value().unwrap())
    };
    let good = received
        .clone()
        .with_input_examples([json!({"city": "Lyon"})]);
    assert_eq!(
        render(good).unwrap()[0]["input_examples"],
        json!([{"city": "Lyon"}])
    );
    let bad = received.with_input_examples([json!({"city": "Lyon"}), json!({"city": "X"})]);
    let error = render(bad).unwrap_err();
    assert!(
        matches!(&error, RenderError::InvalidExample(invalid)
            if invalid.index == Some(1) && invalid.path == "city"),
        "{error:?}"
    );
}
