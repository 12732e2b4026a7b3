//! What dispatch and the turn runner cost on top of a tool's own body: a trivial tool called
//! directly, through `Dispatcher::dispatch`, and in turns of ten calls.
//!
//! `cargo bench -p registry-core --bench dispatch`

use std::hint::black_box;
use std::sync::Arc;

use registry_core::{
    Dispatcher, Env, Switches, Tool, ToolContext, ToolError, ToolInfo, ToolSpec, ToolUse,
    TurnOptions, tool,
};
use serde::Deserialize;
use serde_json::json;

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
    let rules = registry_core::PermissionContext::new();
    let env = Env::default();
    let pool: Vec<Arc<ToolInfo>> = [
        &<Echo as ToolSpec>::DESCRIPTOR,
        &<Serial as ToolSpec>::DESCRIPTOR,
    ]
    .into_iter()
    .map(|descriptor| Arc::new(ToolInfo::from_builtin(descriptor, &env.switches)))
    .collect();
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
    let call = ToolUse::new("t", "Echo", json!({"text": "hello"}));
    bencher.bench_local(|| runtime.block_on(dispatcher.dispatch(black_box(&call))));
}

/// A turn of ten concurrency-safe calls (one batch) or ten that run one after another.
#[divan::bench(args = ["Echo", "Serial"])]
fn turn_of_ten(bencher: divan::Bencher, tool: &str) {
    let runtime = runtime();
    let dispatcher = dispatcher();
    let calls: Vec<ToolUse> = (0..10)
        .map(|i| ToolUse::new(format!("t{i}"), tool, json!({"text": "hello"})))
        .collect();
    let options = TurnOptions::default();
    bencher.bench_local(|| runtime.block_on(dispatcher.run_turn(black_box(&calls), &options)));
}
