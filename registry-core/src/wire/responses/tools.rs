//! The next request's `tools` for Responses: function tools, the `tool_search` tool in
//! ToolSearch's place when deferral is on, and each MCP server's functions grouped in a
//! `namespace` when asked.

use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;

use super::namespaces;
use crate::wire::RenderError;
use crate::wire::openai::{
    Chosen, Function, OpenAiOptions, OpenAiToolSearch, RenderedOpenAi, Role, choose,
};
use crate::wire::tools::{Entry, Named, ToolsArray, announce};
use crate::{Pool, ToolInfo};

/// `{"type": "function", "name": ..., "description": ..., "parameters": ..., "strict": ...}`,
/// and `defer_loading` with server-side search.
#[derive(Debug, Serialize)]
pub(crate) struct ResponsesFunction {
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) parameters: Box<RawValue>,
    pub(crate) strict: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) defer_loading: Option<bool>,
}

impl ResponsesFunction {
    /// `function` in the Responses shape.
    pub(crate) fn new(function: Function, defer_loading: bool) -> Self {
        ResponsesFunction {
            kind: "function",
            name: function.name,
            description: function.description,
            parameters: function.parameters,
            strict: function.strict,
            defer_loading: defer_loading.then_some(true),
        }
    }
}

impl Named for ResponsesFunction {
    fn name(&self) -> &str {
        &self.name
    }
}

/// The `tool_search` tool: client-executed with ToolSearch's description and parameters, or
/// server-executed.
#[derive(Debug, Serialize)]
struct ToolSearchTool {
    #[serde(rename = "type")]
    kind: &'static str,
    execution: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters: Option<Box<RawValue>>,
}

impl Named for ToolSearchTool {
    fn name(&self) -> &str {
        crate::search::TOOL_NAME
    }
}

/// One MCP server's functions under one name.
#[derive(Debug, Serialize)]
struct Namespace {
    #[serde(rename = "type")]
    kind: &'static str,
    name: String,
    description: String,
    tools: Vec<ResponsesFunction>,
}

impl Named for Namespace {
    fn name(&self) -> &str {
        &self.name
    }
}

/// The Responses `tools` of `pool` (see
/// [`OpenAiToolSearch`](crate::wire::openai::OpenAiToolSearch) for what each mode sends).
pub(crate) fn tools(pool: &Pool, options: &OpenAiOptions) -> Result<RenderedOpenAi, RenderError> {
    let Chosen {
        tools: chosen,
        announced,
        mode,
    } = choose(pool, options);
    let mut items: Vec<Item> = Vec::with_capacity(chosen.len());
    for (tool, role) in chosen {
        let function = Function::of(tool, options.strict)?;
        let defer_loading = match role {
            Role::SearchTool => {
                let client = mode == OpenAiToolSearch::Client;
                items.push(Item::Entry(Box::new(ToolSearchTool {
                    kind: "tool_search",
                    execution: if client { "client" } else { "server" },
                    description: client.then_some(function.description),
                    parameters: client.then_some(function.parameters),
                })));
                continue;
            }
            Role::Function { defer_loading } => defer_loading,
        };
        let mut function = ResponsesFunction::new(function, defer_loading);
        let grouped = options
            .namespaces
            .then(|| namespaces::split(tool))
            .flatten();
        let Some((namespace, inner)) = grouped else {
            items.push(Item::Entry(Box::new(function)));
            continue;
        };
        function.name = inner.to_owned();
        // A server's functions join its namespace, at the place of its first function.
        let existing = items.iter_mut().find_map(|item| match item {
            Item::Namespace(entry) if entry.name == namespace => Some(entry),
            _ => None,
        });
        match existing {
            Some(entry) => entry.tools.push(function),
            None => items.push(Item::Namespace(namespace_of(tool, namespace, function))),
        }
    }
    let entries: Vec<Box<dyn Entry>> = items
        .into_iter()
        .map(|item| match item {
            Item::Entry(entry) => entry,
            Item::Namespace(namespace) => Box::new(namespace),
        })
        .collect();
    Ok(RenderedOpenAi {
        tool_count: entries.len(),
        tools: ToolsArray::new(entries),
        deferred_tools_message: announce(&announced),
    })
}

/// An entry of the array while it is built: namespaces still take functions.
enum Item {
    Entry(Box<dyn Entry>),
    Namespace(Namespace),
}

fn namespace_of(tool: &Arc<ToolInfo>, name: String, first: ResponsesFunction) -> Namespace {
    let server = tool.mcp().map(|mcp| &*mcp.server).unwrap_or_default();
    Namespace {
        kind: "namespace",
        description: format!("Tools of the MCP server {server}."),
        name,
        tools: vec![first],
    }
}
