//! What dispatch and the turn runner cost on top of a tool's own body: a trivial tool called
//! directly, through `Dispatcher::dispatch`, and in turns of ten calls; and an MCP tool's input
//! checked against its server's schema.
//!
//! `cargo bench -p toolreg --bench dispatch`

use std::hint::black_box;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;
use toolreg::env::Switches;
use toolreg::{
    Dispatcher, Env, Tool, ToolCall, ToolContext, ToolError, ToolInfo, ToolSpec, TurnOptions, tool,
};

/// Returns its text.
#[tool(
    read_only,
    concurrency_safe,
    search_hint = "repeat text back unchanged"
)]
#[derive(Deserialize)]
struct Echo {
    /// The text.
    text: String,
}

impl Tool for Echo {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

/// Returns its text; not concurrency-safe, so each call of a turn runs alone.
#[tool(read_only, search_hint = "repeat text back, one at a time")]
#[derive(Deserialize)]
struct Serial {
    /// The text.
    text: String,
}

impl Tool for Serial {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

fn main() {
    divan::main();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn dispatcher() -> Dispatcher {
    let rules = toolreg::PermissionContext::new();
    let env = Env::default();
    let tools = [
        &<Echo as ToolSpec>::DESCRIPTOR,
        &<Serial as ToolSpec>::DESCRIPTOR,
    ]
    .map(|descriptor| Arc::new(ToolInfo::from_builtin(descriptor, &env.switches)));
    let pool = toolreg::Pool::new(&env, tools);
    Dispatcher::new(env, rules.clone(), pool, "/")
}

/// The tool's body alone: deserialize the input, call.
#[divan::bench]
fn direct_call(bencher: divan::Bencher) {
    let runtime = runtime();
    let switches = Switches::default();
    let ctx = ToolContext::new(std::path::Path::new("/"), &switches);
    let input = json!({"text": "hello"});
    bencher.bench_local(|| {
        let tool: Echo = serde_json::from_value(black_box(input.clone())).unwrap();
        runtime.block_on(tool.call(&ctx)).unwrap()
    });
}

/// One call through dispatch: pool lookup, parse, validation, permission checks, the call,
/// the result.
#[divan::bench]
fn dispatch_one(bencher: divan::Bencher) {
    let runtime = runtime();
    let dispatcher = dispatcher();
    let call = ToolCall::new("t", "Echo", json!({"text": "hello"}));
    bencher.bench_local(|| runtime.block_on(dispatcher.dispatch(black_box(&call))));
}

/// A turn of ten concurrency-safe calls (one batch) or ten that run one after another.
#[divan::bench(args = ["Echo", "Serial"])]
fn turn_of_ten(bencher: divan::Bencher, tool: &str) {
    let runtime = runtime();
    let dispatcher = dispatcher();
    let calls: Vec<ToolCall> = (0..10)
        .map(|i| ToolCall::new(format!("t{i}"), tool, json!({"text": "hello"})))
        .collect();
    let options = TurnOptions::default();
    bencher.bench_local(|| runtime.block_on(dispatcher.run_turn(black_box(&calls), &options)));
}

/// A turn of ten concurrency-safe calls of a tool that comes after `n` others in the pool:
/// what finding each call's tool costs as the pool grows.
#[divan::bench(args = [10, 1_000, 10_000])]
fn turn_of_ten_after_n_tools(bencher: divan::Bencher, n: usize) {
    let runtime = runtime();
    let env = Env::default();
    let echo = ToolInfo::from_builtin(&<Echo as ToolSpec>::DESCRIPTOR, &env.switches);
    // Names that sort before `Echo`.
    let others = (0..n).map(|i| Arc::new(ToolInfo::new(format!("A{i:05}"), "another tool")));
    let pool = toolreg::Pool::new(&env, others.chain([Arc::new(echo)]));
    let dispatcher = Dispatcher::new(env, toolreg::PermissionContext::new(), pool, "/");
    let calls: Vec<ToolCall> = (0..10)
        .map(|i| ToolCall::new(format!("t{i}"), "Echo", json!({"text": "hello"})))
        .collect();
    let options = TurnOptions::default();
    bencher.bench_local(|| runtime.block_on(dispatcher.run_turn(black_box(&calls), &options)));
}

/// Searches files; six fields, two of them bounded (what a realistic input's check costs).
#[tool(read_only, search_hint = "search files for a pattern")]
#[derive(Deserialize)]
#[allow(dead_code)]
struct Search {
    /// The pattern.
    pattern: String,
    /// Where.
    path: Option<String>,
    /// A glob.
    glob: Option<String>,
    /// Lines of context.
    context: Option<u8>,
    /// At most this many results.
    limit: Option<u16>,
    /// Case-insensitive.
    ignore_case: Option<bool>,
}

impl Tool for Search {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(self.pattern)
    }
}

/// What checking an input against the tool's schema costs, alone (the work dispatch does per
/// call once the validator is compiled): Echo's one field and Search's six.
#[divan::bench(args = ["Echo", "Search"])]
fn schema_check_alone(bencher: divan::Bencher, tool: &str) {
    let (schema, input) = match tool {
        "Echo" => (
            <Echo as ToolSpec>::DESCRIPTOR.input_schema,
            json!({"text": "hello"}),
        ),
        _ => (
            <Search as ToolSpec>::DESCRIPTOR.input_schema,
            json!({"pattern": "fn main", "path": "src", "glob": "*.rs", "context": 2,
                   "limit": 100, "ignore_case": true}),
        ),
    };
    let validator = jsonschema::validator_for(&serde_json::from_str(schema).unwrap()).unwrap();
    bencher.bench_local(|| validator.iter_errors(black_box(&input)).next().is_none());
}

/// One call of Search through dispatch (its input checked against its schema on the way).
#[divan::bench]
fn dispatch_one_six_fields(bencher: divan::Bencher) {
    let runtime = runtime();
    let env = Env::default();
    let tool = ToolInfo::from_builtin(&<Search as ToolSpec>::DESCRIPTOR, &env.switches);
    let pool = toolreg::Pool::new(&env, [Arc::new(tool)]);
    let dispatcher = Dispatcher::new(env, toolreg::PermissionContext::new(), pool, "/");
    let call = ToolCall::new(
        "t",
        "Search",
        json!({"pattern": "fn main", "path": "src", "glob": "*.rs", "context": 2,
               "limit": 100, "ignore_case": true}),
    );
    bencher.bench_local(|| runtime.block_on(dispatcher.dispatch(black_box(&call))));
}

/// An MCP tool whose schema's pattern is `(a+)+$`, called with 40 a's and a `!` (2^40 steps on
/// a backtracking engine): refused by the check through `Dispatcher::dispatch`, before the
/// approver and the server; the schema compiled on the first call, outside the timing.
#[divan::bench]
fn mcp_check_pathological_pattern(bencher: divan::Bencher) {
    let runtime = runtime();
    let env = Env::default();
    let listed = json!([{"name": "search", "inputSchema": {"type": "object",
        "properties": {"query": {"type": "string", "pattern": "(a+)+$"}}}}]);
    let pool = toolreg::Pool::new(&env, toolreg::mcp::load_server("srv", &listed).tools);
    let dispatcher = Dispatcher::new(env, toolreg::PermissionContext::new(), pool, "/");
    let input = json!({"query": format!("{}!", "a".repeat(40))});
    let call = ToolCall::new("t", "mcp__srv__search", input);
    let refused = runtime.block_on(dispatcher.dispatch(&call));
    assert!(matches!(
        refused.error,
        Some(toolreg::DispatchError::InvalidInput { .. })
    ));
    bencher.bench_local(|| runtime.block_on(dispatcher.dispatch(black_box(&call))));
}

/// The first call of the largest tool of the real servers' fixtures (notion's
/// `API-update-page-markdown`, 5.8 KB of schema): its schema's cost bounded and compiled, the
/// input `{}` refused for a missing member.
#[divan::bench]
fn mcp_first_call_compiles_the_schema(bencher: divan::Bencher) {
    let runtime = runtime();
    let env = Env::default();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/mcp-fixtures/notion.json"
    );
    let listed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tools = toolreg::mcp::load_server("notion", &listed).tools;
    let tool = (tools.iter())
        .find(|tool| tool.name == "mcp__notion__API-update-page-markdown")
        .unwrap();
    let call = ToolCall::new("t", &tool.name, json!({}));
    bencher
        .with_inputs(|| {
            // A fresh listing: nothing compiled yet.
            let fresh = toolreg::mcp::load_server("notion", &listed).tools;
            let pool = toolreg::Pool::new(&env, fresh);
            Dispatcher::new(env.clone(), toolreg::PermissionContext::new(), pool, "/")
        })
        .bench_local_values(|dispatcher| {
            // Returned, so divan drops the pool after the timing.
            let result = runtime.block_on(dispatcher.dispatch(black_box(&call)));
            (dispatcher, result)
        });
}
