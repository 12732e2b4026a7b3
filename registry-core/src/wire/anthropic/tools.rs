//! The next request's `tools` for the Anthropic Messages API: each tool's locked base from the
//! schema cache, with the per-request `defer_loading` and `cache_control`.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::cache::{CachedTool, SchemaCache};
use super::options::{
    CacheControl, DeferStrategy, MAX_DEFERRED_TOOLS, RenderOptions, ServerSearch,
};
use crate::env::Betas;
use crate::tool::{AllowedCallers, compare_names};
use crate::wire::RenderError;
use crate::wire::tools::{Entry, Named, ToolsArray, announce};
use crate::{Env, Pool, ToolInfo};

/// A rendered request's tool parts.
#[derive(Debug, PartialEq, Eq)]
pub struct RenderedTools {
    /// The `tools` array.
    pub tools: ToolsArray,
    /// The `<available-deferred-tools>` user message, when the strategy has one.
    pub deferred_tools_message: Option<String>,
    /// The value of the [`anthropic-beta`](super::BETA_HEADER) header the request needs, if
    /// any. A header, never a body field.
    pub beta: Option<&'static str>,
    /// How many tools the array holds.
    pub tool_count: usize,
}

/// A tool of the array: its locked base and this request's fields.
#[derive(Debug)]
struct AnthropicTool {
    base: Arc<CachedTool>,
    /// The base's `strict` and `eager_input_streaming`, unless the kill switch drops them.
    beta_fields: bool,
    defer_loading: bool,
    allowed_callers: Option<AllowedCallers>,
    cache_control: Option<Value>,
}

/// The fields of a tool, in the order the API's documentation lists them.
#[derive(Serialize)]
struct ToolFields<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_examples: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed_callers: Option<AllowedCallers>,
    #[serde(skip_serializing_if = "Option::is_none")]
    strict: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    eager_input_streaming: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    defer_loading: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<&'a Value>,
}

impl Serialize for AnthropicTool {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let base = &*self.base;
        ToolFields {
            name: &base.name,
            description: &base.description,
            input_schema: &base.input_schema,
            input_examples: base.input_examples.as_deref(),
            allowed_callers: self.allowed_callers,
            strict: base.strict.filter(|_| self.beta_fields),
            eager_input_streaming: base.eager_input_streaming.filter(|_| self.beta_fields),
            defer_loading: self.defer_loading.then_some(true),
            cache_control: self.cache_control.as_ref(),
        }
        .serialize(serializer)
    }
}

impl Named for AnthropicTool {
    fn name(&self) -> &str {
        &self.base.name
    }
}

/// The API's own tool search tool, in ToolSearch's place.
#[derive(Debug, Serialize)]
struct ServerSearchTool {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<Value>,
}

impl Named for ServerSearchTool {
    fn name(&self) -> &str {
        self.name
    }
}

/// One entry of the array before rendering.
enum Chosen<'a> {
    Tool {
        tool: &'a Arc<ToolInfo>,
        defer_loading: bool,
    },
    Server(ServerSearch),
}

impl Chosen<'_> {
    fn defer_loading(&self) -> bool {
        matches!(
            self,
            Chosen::Tool {
                defer_loading: true,
                ..
            }
        )
    }
}

/// An entry with its cached base.
enum Prepared {
    Tool {
        base: Arc<CachedTool>,
        defer_loading: bool,
        allowed_callers: Option<AllowedCallers>,
    },
    Server(ServerSearch),
}

impl Prepared {
    fn defer_loading(&self) -> bool {
        matches!(
            self,
            Prepared::Tool {
                defer_loading: true,
                ..
            }
        )
    }

    fn name(&self) -> &str {
        match self {
            Prepared::Tool { base, .. } => &base.name,
            Prepared::Server(server) => server.tool_name(),
        }
    }
}

/// Renders the Anthropic Messages API `tools` array for a request (see the
/// [module](crate::wire::anthropic) docs for what each strategy sends).
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a tool whose schema is not JSON;
/// [`RenderError::InvalidExample`] for an input example the tool does not take;
/// [`RenderError::TooManyDeferred`] past [`MAX_DEFERRED_TOOLS`].
///
/// ```
/// use toolreg::mcp::load_server;
/// use toolreg::{Catalog, Env, PermissionContext, RenderOptions, SchemaCache, assemble_tool_pool, builtins, render_anthropic};
/// use serde_json::json;
///
/// let mcp = load_server("git", &json!([{"name": "git_log", "inputSchema": {"type": "object"}}]));
/// let env = Env::default();
/// let pool = assemble_tool_pool(&env, &PermissionContext::new(), &Catalog::new(builtins().unwrap(), &[]), &mcp.tools);
/// // One cache per session: a tool's bytes stay the same from request to request.
/// let cache = SchemaCache::new();
/// let options = RenderOptions { tool_search: true, ..Default::default() };
/// let rendered = render_anthropic(&env, &pool, &cache, &options).unwrap();
/// let tools = rendered.tools.to_value().unwrap();
/// assert!(tools.as_array().unwrap().iter().any(|tool| tool["name"] == "ToolSearch"));
/// // The deferred tool is announced by name, not sent.
/// assert!(rendered.tools.names().all(|name| name != "mcp__git__git_log"));
/// assert!(rendered.deferred_tools_message.unwrap().contains("mcp__git__git_log"));
/// ```
pub fn render_anthropic(
    env: &Env,
    pool: &Pool,
    cache: &SchemaCache,
    options: &RenderOptions,
) -> Result<RenderedTools, RenderError> {
    let kill_switch = env.tool_search.kill_switch;
    let search_on = options.tool_search && !kill_switch;
    let mut chosen: Vec<Chosen<'_>> = Vec::new();
    let mut announced: Vec<&str> = Vec::new();
    for tool in pool {
        let is_tool_search = tool.name == crate::search::TOOL_NAME;
        if !search_on {
            if !is_tool_search {
                chosen.push(Chosen::Tool {
                    tool,
                    defer_loading: false,
                });
            }
            continue;
        }
        let deferred = tool.is_deferred();
        match (deferred, options.strategy) {
            (_, DeferStrategy::Server(server)) if is_tool_search => {
                chosen.push(Chosen::Server(server))
            }
            (false, _) => chosen.push(Chosen::Tool {
                tool,
                defer_loading: false,
            }),
            (true, DeferStrategy::AllDeferred | DeferStrategy::Server(_)) => {
                chosen.push(Chosen::Tool {
                    tool,
                    defer_loading: true,
                })
            }
            (true, DeferStrategy::DiscoveredOnly) => {
                if options.discovered.contains(&tool.name) {
                    chosen.push(Chosen::Tool {
                        tool,
                        defer_loading: true,
                    });
                } else {
                    announced.push(&tool.name);
                }
            }
        }
    }
    let deferred_count = chosen.iter().filter(|entry| entry.defer_loading()).count();
    if deferred_count > MAX_DEFERRED_TOOLS {
        return Err(RenderError::TooManyDeferred {
            count: deferred_count,
            limit: MAX_DEFERRED_TOOLS,
        });
    }
    let last = chosen.iter().rposition(|entry| !entry.defer_loading());
    let mut prepared: Vec<Prepared> = Vec::with_capacity(chosen.len());
    for entry in &chosen {
        prepared.push(match *entry {
            Chosen::Tool {
                tool,
                defer_loading,
            } => Prepared::Tool {
                base: cache.get_or_render(tool, &options.settings)?,
                defer_loading,
                allowed_callers: tool.allowed_callers,
            },
            Chosen::Server(server) => Prepared::Server(server),
        });
    }
    let entries: Vec<Box<dyn Entry>> = prepared
        .into_iter()
        .enumerate()
        .map(|(index, entry)| {
            let cache_control = match &options.cache_control {
                CacheControl::None => None,
                CacheControl::Last(value) => (Some(index) == last).then(|| value.clone()),
                CacheControl::Tools(names, value) => (!entry.defer_loading()
                    && names.iter().any(|named| named == entry.name()))
                .then(|| value.clone()),
            };
            match entry {
                Prepared::Tool {
                    base,
                    defer_loading,
                    allowed_callers,
                } => Box::new(AnthropicTool {
                    base,
                    beta_fields: !kill_switch,
                    defer_loading,
                    allowed_callers,
                    cache_control,
                }) as Box<dyn Entry>,
                Prepared::Server(server) => Box::new(ServerSearchTool {
                    kind: server.tool_type(),
                    name: server.tool_name(),
                    cache_control,
                }),
            }
        })
        .collect();
    announced.sort_by(|a, b| compare_names(a, b));
    let deferred_tools_message = announce(&announced);
    let uses_deferral = deferred_count > 0 || deferred_tools_message.is_some();
    let betas = options
        .betas
        .or_else(|| env.profile.betas())
        .unwrap_or(Betas::CURRENT);
    let beta = if uses_deferral {
        betas.header(env.tool_search.provider.is_first_party())
    } else {
        None
    };
    Ok(RenderedTools {
        tool_count: entries.len(),
        tools: ToolsArray::new(entries),
        deferred_tools_message,
        beta,
    })
}
