//! Helpers the integration tests share: call a tool through its typed API in a directory.
#![allow(dead_code)]

use std::future::Future;
use std::path::Path;

use toolreg::env::Switches;
use toolreg::tool::IntoToolOutput;
use toolreg::{State, Tool, ToolContext, ToolError, ToolOutput};

/// Runs a future to completion on a fresh current-thread runtime (timers and processes on).
pub fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(future)
}

/// Builds `T` from JSON and calls it with the directory as the working directory and no host.
pub fn call<T: Tool>(dir: &Path, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
    call_with::<T>(dir, &State::new(), input)
}

/// Like [`call`], with `state` attached (a host, for the tools that need one).
pub fn call_with<T: Tool>(
    dir: &Path,
    state: &State,
    input: serde_json::Value,
) -> Result<ToolOutput, ToolError> {
    let switches = Switches::default();
    let ctx = ToolContext::new(dir, &switches).with_state(state);
    let tool: T = serde_json::from_value(input).expect("the input deserializes");
    block_on(tool.call(&ctx)).map(IntoToolOutput::into_tool_output)
}

/// [`call`], expecting success with text output.
pub fn text<T: Tool>(dir: &Path, input: serde_json::Value) -> String {
    match call::<T>(dir, input) {
        Ok(ToolOutput::Text(text)) => text,
        other => panic!("expected text output, got {other:?}"),
    }
}

/// [`call`], expecting an error; returns its message.
pub fn error<T: Tool>(dir: &Path, input: serde_json::Value) -> String {
    match call::<T>(dir, input) {
        Err(error) => error.message().to_owned(),
        Ok(output) => panic!("expected an error, got {output:?}"),
    }
}
