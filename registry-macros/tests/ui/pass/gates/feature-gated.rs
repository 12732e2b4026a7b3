// This crate has none of these features, so the tools and their structs are compiled out;
// nothing outside a matching `cfg` may name them. The tests crate declares no features, hence
// the `unexpected_cfgs` allowance (the `toolreg-tools` crate declares its features in Cargo.toml).
#![allow(unexpected_cfgs)]

use serde::Deserialize;
use toolreg::tool;

/// Watches a background process.
#[tool(feature = any("MONITOR_TOOL", "KAIROS"), search_hint = "watch a background process")]
#[derive(Deserialize)]
pub struct MonitorTool {
    /// The process id.
    pub pid: u32,
}

#[cfg(any(feature = "MONITOR_TOOL", feature = "KAIROS"))]
impl toolreg::Tool for MonitorTool {
    type Output = String;
    async fn call(self, _: &toolreg::ToolContext<'_>) -> Result<String, toolreg::ToolError> {
        Ok(self.pid.to_string())
    }
}

/// Sends a file to the user.
#[tool(feature = all("KAIROS", not("NO_BRIDGE")))]
#[derive(Deserialize)]
pub struct SendUserFileTool {
    /// The file.
    pub path: String,
}

#[cfg(all(feature = "KAIROS", not(feature = "NO_BRIDGE")))]
impl toolreg::Tool for SendUserFileTool {
    type Output = String;
    async fn call(self, _: &toolreg::ToolContext<'_>) -> Result<String, toolreg::ToolError> {
        Ok(self.path)
    }
}

/// Always compiled, so the registry is seen to work in this binary.
#[tool]
#[derive(Deserialize)]
pub struct PingTool {}

impl toolreg::Tool for PingTool {
    type Output = String;
    async fn call(self, _: &toolreg::ToolContext<'_>) -> Result<String, toolreg::ToolError> {
        Ok("pong".to_owned())
    }
}

fn main() {
    let builtins = toolreg::builtins().unwrap();
    assert!(builtins.get("Ping").is_some());
    // The gated tools were not registered.
    assert!(builtins.get("Monitor").is_none());
    assert!(builtins.get("SendUserFile").is_none());
}
