//! ListMcpResources and ReadMcpResource: resources offered by the connected MCP servers,
//! reached through the host.

use serde::{Deserialize, Serialize};
use toolreg::{Tool, ToolContext, ToolError, ToolOutput, tool};

/// Lists the resources (files, documents, database rows and other data) that the connected MCP servers offer: each resource's server, URI, name, description and type.
///
/// Give `server` to list one server's resources only. Read a resource with ReadMcpResource.
#[tool(
    strict,
    name = "ListMcpResources",
    defer,
    read_only,
    concurrency_safe,
    search_hint = "show data that connected servers expose"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ListMcpResourcesTool {
    /// Only list this server's resources.
    pub server: Option<String>,
}

impl Tool for ListMcpResourcesTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}

/// Reads one resource from an MCP server by the server's name and the resource's URI, as ListMcpResources shows them.
#[tool(
    strict,
    name = "ReadMcpResource",
    defer,
    read_only,
    concurrency_safe,
    search_hint = "fetch a uri from a connected server"
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ReadMcpResourceTool {
    /// The MCP server's name.
    pub server: String,
    /// The resource's URI.
    pub uri: String,
}

impl Tool for ReadMcpResourceTool {
    type Output = ToolOutput;

    async fn call(self, ctx: &ToolContext<'_>) -> Result<ToolOutput, ToolError> {
        ctx.delegate(self).await
    }
}
