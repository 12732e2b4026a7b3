//! Helpers the integration tests share: call a tool through its typed API in a directory.
#![allow(dead_code)]

use std::path::Path;

use registry_core::{IntoToolOutput, Switches, Tool, ToolContext, ToolError, ToolOutput};
use tools::Host;

/// Builds `T` from JSON and calls it with the directory as the working directory and no host.
pub fn call<T: Tool>(dir: &Path, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
    let switches = Switches::default();
    let ctx = ToolContext::new(dir, &switches);
    let tool: T = serde_json::from_value(input).expect("the input deserializes");
    tool.call(&ctx).map(IntoToolOutput::into_tool_output)
}

/// Like [`call`], with `host` attached.
pub fn call_with<T: Tool>(
    dir: &Path,
    host: &Host,
    input: serde_json::Value,
) -> Result<ToolOutput, ToolError> {
    let switches = Switches::default();
    let ctx = ToolContext::new(dir, &switches).with_host(host);
    let tool: T = serde_json::from_value(input).expect("the input deserializes");
    tool.call(&ctx).map(IntoToolOutput::into_tool_output)
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
