//! LSP: code intelligence from the host's language servers. Enabled by the run-time switch
//! `lsp`.

use serde::{Deserialize, Serialize};
use toolreg::env::Switches;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, ToolOutput, tool};

use crate::profile::switch;

fn lsp_enabled(switches: &Switches) -> bool {
    switches.is_on(switch::LSP)
}

/// Asks a language server about code: where a symbol is defined or implemented, where it is referenced, its type and documentation, the symbols of a file or the workspace, and call hierarchies.
///
/// Give the file and a position in it: `line` and `character` are 1-based, as editors show them. The result lists locations as `path:line:character`. Prefer it to Grep for questions about a symbol's meaning (definition, references, callers): it follows the language's rules instead of matching text. It works only for languages the host has a server for.
#[tool(
    strict,
    name = "LSP",
    defer,
    read_only,
    concurrency_safe,
    enabled = lsp_enabled,
    search_hint = "go to definition find references hover symbols"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct LspTool {
    /// The operation to perform.
    pub operation: LspOperation,
    /// The absolute or relative path to the file.
    #[serde(rename = "filePath")]
    pub file_path: String,
    /// The line number, 1-based as editors show it.
    pub line: u32,
    /// The character offset in the line, 1-based as editors show it.
    pub character: u32,
    /// The symbol to look for (workspaceSymbol only).
    pub query: Option<String>,
}

/// A language-server request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "camelCase")]
pub enum LspOperation {
    /// Where the symbol is defined.
    GoToDefinition,
    /// Every reference to the symbol.
    FindReferences,
    /// The symbol's type and documentation.
    Hover,
    /// The symbols of the file.
    DocumentSymbol,
    /// Symbols across the workspace matching `query`.
    WorkspaceSymbol,
    /// The implementations of an interface or abstract method.
    GoToImplementation,
    /// The call hierarchy item at the position.
    PrepareCallHierarchy,
    /// The functions that call the one at the position.
    IncomingCalls,
    /// The functions that the one at the position calls.
    OutgoingCalls,
}

impl Tool for LspTool {
    type Output = ToolOutput;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if self.line == 0 || self.character == 0 {
            return Err(ToolError::new(
                "line and character are 1-based: the first line and column are 1",
            ));
        }
        Ok(())
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        self.validate_input(ctx)?;
        ctx.delegate(self).await
    }
}
