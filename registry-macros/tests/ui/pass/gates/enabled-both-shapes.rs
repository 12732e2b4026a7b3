// `enabled` takes `fn() -> bool` or `fn(&Switches) -> bool`.
use serde::Deserialize;
use toolreg::env::Switches;
use toolreg::{Tool, ToolContext, ToolError, ToolSpec, tool};

fn never() -> bool {
    false
}

mod gates {
    pub fn lsp_on(switches: &toolreg::env::Switches) -> bool {
        switches.is_on("lsp")
    }
}

/// Does nothing, ever.
#[tool(enabled = never)]
#[derive(Deserialize)]
pub struct NeverTool {}

/// Asks the language server.
#[tool(enabled = gates::lsp_on)]
#[derive(Deserialize)]
pub struct LspTool {}

impl Tool for NeverTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

impl Tool for LspTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(String::new())
    }
}

fn main() {
    let off = Switches::default();
    let on = Switches::new().with("lsp");
    let never = <NeverTool as ToolSpec>::DESCRIPTOR;
    assert!(!never.is_enabled(&off) && !never.is_enabled(&on));
    let lsp = <LspTool as ToolSpec>::DESCRIPTOR;
    assert!(!lsp.is_enabled(&off));
    assert!(lsp.is_enabled(&on));
}
