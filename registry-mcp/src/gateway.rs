//! The registry as an MCP server: a pool served to any MCP client, calls going through the
//! dispatcher's permission path.
//!
//! `tools/list` is decided once, when the gateway is made, and is the same for every request of
//! every connection (the 2026-07-28 spec forbids a list that varies per connection or as a side
//! effect of calls). Two modes:
//!
//! * [`GatewayMode::Search`] (the default): the exposed tools that are not deferred, plus
//!   `search_tools` (query → each match's name, description and input schema) and `call_tool`
//!   (name, arguments → the tool's result). Works with every client, whether or not it
//!   re-lists on `tools/list_changed`.
//! * [`GatewayMode::Direct`]: every exposed tool, with `_meta["anthropic/searchHint"]` and
//!   `_meta["anthropic/alwaysLoad"]` from the registry, for a client with its own tool search.
//!
//! A pool's own ToolSearch, when exposed, searches the exposed tools only, as `search_tools`
//! does: another token's tools are never named, even by a search.
//!
//! Every call — a listed tool's, or `call_tool`'s — is one `tool_use` run by the dispatcher, so
//! a tool outside the pool (denied, or not for this agent) or outside the exposed set is refused
//! exactly as the library refuses it, as an `isError` result. The client's cancellation cancels
//! the call (and an upstream MCP call with it); the tool's progress goes to the client.

use std::collections::HashSet;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use toolreg::tool::Progress;
use toolreg::{Dispatcher, SearchEngine, Strategy, ToolCall, ToolInfo, TurnOptions};

use crate::content::tool_result_to_call_result;

/// The meta-tool that searches the deferred tools.
pub const SEARCH_TOOLS: &str = "search_tools";
/// The meta-tool that calls any exposed tool.
pub const CALL_TOOL: &str = "call_tool";

/// What `tools/list` offers (`"search"` or `"direct"` in a tokens file).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GatewayMode {
    /// The loaded tools, `search_tools` and `call_tool`.
    #[default]
    Search,
    /// Every exposed tool, with the registry's deferral hints in `_meta`.
    Direct,
}

/// An MCP server over a pool.
#[derive(Clone)]
pub struct Gateway {
    inner: Arc<Inner>,
}

struct Inner {
    dispatcher: Dispatcher,
    exposed: HashSet<String>,
    listed: Vec<Tool>,
    engine: Arc<SearchEngine>,
    mode: GatewayMode,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway")
            .field("mode", &self.inner.mode)
            .field("exposed", &self.inner.exposed.len())
            .field("listed", &self.inner.listed.len())
            .finish_non_exhaustive()
    }
}

impl Gateway {
    /// A gateway offering the tools of `dispatcher`'s pool that `expose` keeps, in pool order.
    pub fn new(
        dispatcher: Dispatcher,
        expose: impl Fn(&ToolInfo) -> bool,
        mode: GatewayMode,
    ) -> Gateway {
        let exposed: Vec<Arc<ToolInfo>> = (dispatcher.pool().iter())
            .filter(|tool| expose(tool))
            .cloned()
            .collect();
        let mut listed: Vec<Tool> = exposed
            .iter()
            .filter(|tool| mode == GatewayMode::Direct || !tool.is_deferred())
            .map(|tool| mcp_tool(tool, mode))
            .collect();
        if mode == GatewayMode::Search {
            listed.extend([search_tools_tool(), call_tool_tool()]);
        }
        let names = exposed.iter().map(|tool| tool.name.clone()).collect();
        // One engine over the exposed tools answers search_tools and the pool's own ToolSearch
        // (when exposed): the dispatcher's searcher covers its whole pool, tools of other
        // tokens included.
        let engine = Arc::new(SearchEngine::new(exposed, Strategy::Keyword));
        let dispatcher = dispatcher.with_searcher(engine.clone());
        Gateway {
            inner: Arc::new(Inner {
                engine,
                dispatcher,
                exposed: names,
                listed,
                mode,
            }),
        }
    }

    /// The tools of `tools/list`, as sent.
    pub fn listed(&self) -> &[Tool] {
        &self.inner.listed
    }

    /// Serves one client on this process's stdin and stdout until it disconnects, reading
    /// messages of at most [`MAX_MESSAGE_BYTES`](crate::framing::MAX_MESSAGE_BYTES); every
    /// request gets an answer, see [`framing`](crate::framing).
    pub async fn serve_stdio(self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let (stdin, stdout) = rmcp::transport::stdio();
        self.serve_lines(stdin, stdout, crate::framing::MAX_MESSAGE_BYTES)
            .await
    }

    /// Serves one client that writes `reader` and reads `writer`, one JSON-RPC message a
    /// line, until it closes `reader`: messages longer than `max_message_bytes` are refused
    /// unread, and every request gets an answer, see [`framing`](crate::framing).
    pub async fn serve_lines<R, W>(
        self,
        reader: R,
        writer: W,
        max_message_bytes: usize,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        crate::framing::serve(self, reader, writer, max_message_bytes).await
    }

    async fn run(
        &self,
        name: &str,
        arguments: Value,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        // A tool of the pool that is not exposed is refused here; any other name goes to the
        // dispatcher, which refuses what is not in the pool (unknown, denied, not for this
        // agent) as it always does.
        let pooled = self.inner.dispatcher.pool().find(name);
        if pooled.is_some_and(|tool| !self.inner.exposed.contains(&tool.name)) {
            let text = format!("`{name}` is not a tool this gateway offers");
            return CallToolResult::error(vec![rmcp::model::ContentBlock::text(text)]);
        }
        let call = ToolCall::new(request_id(ctx), name, arguments);
        let token = ctx.meta.get_progress_token();
        let peer = ctx.peer.clone();
        let progress = token.map(|token| {
            Arc::new(move |progress: Progress| {
                let (done, total) = progress.done.unwrap_or((0.0, None));
                let mut update = ProgressNotificationParam::new(token.clone(), done)
                    .with_message(progress.message);
                if let Some(total) = total {
                    update = update.with_total(total);
                }
                let peer = peer.clone();
                tokio::spawn(async move {
                    let _ = peer.notify_progress(update).await;
                });
            }) as Arc<toolreg::tool::ProgressSink>
        });
        let options = TurnOptions {
            cancel: ctx.ct.clone(),
            progress,
            ..TurnOptions::default()
        };
        let turn = self.inner.dispatcher.run_turn(&[call], &options).await;
        match turn.results.first() {
            Some(result) => tool_result_to_call_result(result),
            None => CallToolResult::error(vec![rmcp::model::ContentBlock::text("no result")]),
        }
    }

    fn search(&self, arguments: &Value) -> CallToolResult {
        let Some(query) = arguments.get("query").and_then(Value::as_str) else {
            return CallToolResult::error(vec![rmcp::model::ContentBlock::text(
                "search_tools needs a string `query`",
            )]);
        };
        let max = arguments
            .get("max_results")
            .and_then(Value::as_u64)
            .map_or(toolreg::search::DEFAULT_MAX_RESULTS, |n| {
                n.clamp(1, 100) as usize
            });
        let output = self.inner.engine.search(query, max);
        let tools: Vec<Value> = output
            .matches
            .iter()
            .filter_map(|name| self.inner.dispatcher.pool().named(name))
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "inputSchema": serde_json::from_str::<Value>(&tool.input_schema).unwrap_or(Value::Null),
                })
            })
            .collect();
        let nothing = tools.is_empty();
        let mut found = json!({ "tools": tools });
        if let (Some(pending), Some(fields)) = (output.pending_mcp_servers, found.as_object_mut()) {
            fields.insert("pending_mcp_servers".to_owned(), json!(pending));
        }
        let mut result = CallToolResult::structured(found);
        if nothing {
            result.content = vec![rmcp::model::ContentBlock::text(format!(
                "No tool matched {query:?}; call_tool takes only a tool's exact name."
            ))];
        }
        result
    }
}

fn request_id(ctx: &RequestContext<RoleServer>) -> String {
    match serde_json::to_value(&ctx.id) {
        Ok(Value::String(id)) => format!("mcp_{id}"),
        Ok(other) => format!("mcp_{other}"),
        Err(_) => "mcp_call".to_owned(),
    }
}

/// A pool tool as an MCP tool: its name, description, schemas, annotations from its flags, and
/// in direct mode the registry's deferral hints.
fn mcp_tool(tool: &ToolInfo, mode: GatewayMode) -> Tool {
    let schema = |text: &str| {
        serde_json::from_str::<Value>(text).unwrap_or_else(|_| json!({"type": "object"}))
    };
    let mut value = json!({
        "name": tool.name,
        "description": tool.description,
        "inputSchema": schema(&tool.input_schema),
        "annotations": {
            "readOnlyHint": tool.flags.read_only,
            "destructiveHint": tool.flags.destructive,
        },
    });
    // `value` is an object: each field below is inserted into it.
    let mut fields = |key: &str, field: Value| {
        if let Some(object) = value.as_object_mut() {
            object.insert(key.to_owned(), field);
        }
    };
    if let Some(output) = &tool.output_schema {
        fields("outputSchema", schema(output));
    }
    // An upstream tool keeps the hints and title its server sent.
    if let Some(mcp) = tool.mcp() {
        let hints = [
            ("idempotentHint", mcp.annotations.idempotent),
            ("openWorldHint", mcp.annotations.open_world),
        ];
        if let Some(title) = &mcp.title {
            fields("title", json!(title));
        }
        let annotations = value.get_mut("annotations").and_then(Value::as_object_mut);
        if let Some(annotations) = annotations {
            for (key, hint) in hints {
                if let Some(hint) = hint {
                    annotations.insert(key.to_owned(), json!(hint));
                }
            }
        }
    }
    if mode == GatewayMode::Direct {
        let mut meta = serde_json::Map::new();
        meta.insert(
            "anthropic/alwaysLoad".to_owned(),
            json!(!tool.is_deferred()),
        );
        if let Some(hint) = &tool.search_hint {
            meta.insert("anthropic/searchHint".to_owned(), json!(hint));
        }
        if let Some(object) = value.as_object_mut() {
            object.insert("_meta".to_owned(), Value::Object(meta));
        }
    }
    serde_json::from_value(value).unwrap_or_else(|_| {
        Tool::new(
            tool.name.clone(),
            tool.description.clone(),
            Arc::new(serde_json::Map::new()),
        )
    })
}

fn object_schema(properties: Value, required: &[&str]) -> Arc<serde_json::Map<String, Value>> {
    let schema = json!({"type": "object", "properties": properties, "required": required});
    Arc::new(schema.as_object().cloned().unwrap_or_default())
}

fn search_tools_tool() -> Tool {
    Tool::new(
        SEARCH_TOOLS,
        "Finds tools by what they do. Returns each match's name, description and input schema; \
         run one with call_tool. `select:NAME1,NAME2` fetches tools by exact name.",
        object_schema(
            json!({
                "query": {"type": "string", "description": "Keywords, or select:NAME1,NAME2"},
                "max_results": {"type": "integer", "minimum": 1, "maximum": 100, "description": "At most this many matches (default 5)"},
            }),
            &["query"],
        ),
    )
}

fn call_tool_tool() -> Tool {
    Tool::new(
        CALL_TOOL,
        "Runs a tool found with search_tools: its exact name and its arguments, which must match \
         its input schema.",
        object_schema(
            json!({
                "name": {"type": "string", "description": "The tool's exact name"},
                "arguments": {"type": "object", "description": "The tool's input"},
            }),
            &["name"],
        ),
    )
}

impl ServerHandler for Gateway {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("toolreg", env!("CARGO_PKG_VERSION")))
            .with_instructions(match self.inner.mode {
                GatewayMode::Search => "More tools than listed: find them with search_tools and run them with call_tool.",
                GatewayMode::Direct => "Every tool is listed; those without anthropic/alwaysLoad may be deferred.",
            })
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // One page, always the same: clients' automatic re-lists ignore `nextCursor`.
        Ok(ListToolsResult::with_all_items(self.inner.listed.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner
            .listed
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let result = match (self.inner.mode, request.name.as_ref()) {
            (GatewayMode::Search, SEARCH_TOOLS) => self.search(&arguments),
            (GatewayMode::Search, CALL_TOOL) => match arguments.get("name").and_then(Value::as_str)
            {
                Some(name) => {
                    let inner = arguments
                        .get("arguments")
                        .cloned()
                        .unwrap_or_else(|| json!({}));
                    self.run(name, inner, &ctx).await
                }
                None => CallToolResult::error(vec![rmcp::model::ContentBlock::text(
                    "call_tool needs the string `name` of a tool",
                )]),
            },
            (_, name) => self.run(name, arguments, &ctx).await,
        };
        Ok(result.into())
    }
}
