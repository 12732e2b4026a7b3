//! The wire formats: one module per model API, each owning the three steps where a call meets
//! the API: reading a response into [`ToolCall`](crate::ToolCall)s (`parse.rs`), writing a
//! turn's results as the API takes them back (`answer.rs`), and rendering the next request's
//! `tools` from the pool (`tools.rs`).
//!
//! * [`anthropic`]: Anthropic Messages (the design's API), with its schema cache, deferral
//!   strategies, the history's `tool_reference` blocks and tool changes.
//! * [`chat_completions`]: OpenAI Chat Completions.
//! * [`responses`]: OpenAI Responses, with client and server tool search and namespaces.
//!
//! What they share: the response read ([`ModelResponse`], [`parse_response`] for any [`Api`]),
//! the OpenAI options ([`openai`]), a rendered `tools` array ([`ToolsArray`]: typed entries
//! that write the request's exact bytes or become a body's `serde_json::Value`s, never text
//! read back), the errors, and streamed responses ([`StreamAssembler`]).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use toolreg::wire::{Api, Stop, answer, parse_response};
//! use toolreg::{Catalog, Dispatcher, Env, PermissionContext, TurnOptions, assemble_tool_pool, builtins};
//! use serde_json::json;
//!
//! let (env, rules) = (Env::default(), PermissionContext::new());
//! let pool = assemble_tool_pool(&env, &rules, &Catalog::new(builtins().unwrap(), &[]), &[]);
//! let dispatcher = Dispatcher::new(env, rules, pool.clone(), ".");
//!
//! // A Chat Completions response whose second call's arguments are not JSON.
//! let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
//!     "role": "assistant", "content": null, "tool_calls": [
//!         {"id": "call_1", "type": "function", "function": {"name": "ToolSearch", "arguments": "{\"query\": \"weather\"}"}},
//!         {"id": "call_2", "type": "function", "function": {"name": "ToolSearch", "arguments": "{\"query\": "}},
//!     ]}}]});
//! let response = parse_response(Api::ChatCompletions, &body).unwrap();
//! assert_eq!(response.stop, Stop::ToolUse);
//! let turn = dispatcher.run_turn(&response.calls, &TurnOptions::default()).await;
//! let messages = answer(response.api, &turn, &pool, false).unwrap();
//! assert_eq!(messages[1]["role"], "tool");
//! assert_eq!(messages[1]["tool_call_id"], "call_2");
//! assert!(messages[1]["content"].as_str().unwrap().contains("not valid JSON"));
//! # }
//! ```

use serde_json::Value;

pub mod anthropic;
pub mod chat_completions;
pub(crate) mod error;
pub(crate) mod examples;
pub mod openai;
pub(crate) mod response;
pub mod responses;
pub(crate) mod stream;
pub(crate) mod tools;

pub use error::{InvalidExample, InvalidSchema, RenderError};
pub use response::{Api, ModelResponse, ResponseError, Stop};
pub use stream::{MAX_EVENT_BYTES, PartialCall, StreamAssembler, StreamError, partial_json};
pub use tools::ToolsArray;

use crate::{Pool, Turn};
use openai::{OpenAiFormat, OpenAiOptions, RenderedOpenAi};
use response::error;

/// Reads a non-streaming response body of `api` (a streamed one after
/// [`StreamAssembler::finish`]) with that API's module.
///
/// # Errors
/// A [`ResponseError`] naming the path of the first part that does not have its API's shape.
/// A call whose arguments are not a JSON object is not an error: its
/// [`input`](crate::ToolCall::input) says why, and the turn answers it with an error result.
pub fn parse_response(api: Api, body: &Value) -> Result<ModelResponse, ResponseError> {
    if !body.is_object() {
        return Err(error(".", "not a JSON object"));
    }
    match api {
        Api::Anthropic => anthropic::parse::parse(body),
        Api::ChatCompletions => chat_completions::parse::parse(body),
        Api::Responses => responses::parse::parse(body),
    }
}

/// The answer to a turn in `api`'s form: Anthropic one user message of `tool_result` blocks
/// ([`anthropic::tool_results`]); Chat Completions one `tool` message a call
/// ([`chat_completions::tool_message`]); Responses one item a call
/// ([`responses::tool_output`]: a `function_call_output`, or for a client tool search a
/// `tool_search_output` with the loaded tools' definitions from `pool`, `strict` as the
/// request's rendering).
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a loaded tool whose schema is not JSON (Responses).
pub fn answer(api: Api, turn: &Turn, pool: &Pool, strict: bool) -> Result<Vec<Value>, RenderError> {
    match api {
        Api::Anthropic => Ok(vec![anthropic::tool_results(turn)]),
        Api::ChatCompletions => Ok(turn
            .results
            .iter()
            .map(chat_completions::tool_message)
            .collect()),
        Api::Responses => turn
            .results
            .iter()
            .map(|result| responses::tool_output(result, pool, strict))
            .collect(),
    }
}

/// Renders OpenAI tools, in the Chat Completions or the Responses shape (see
/// [`OpenAiToolSearch`](openai::OpenAiToolSearch) for what each mode sends).
///
/// ```
/// use toolreg::mcp::load_server;
/// use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
/// use toolreg::{Catalog, Env, PermissionContext, assemble_tool_pool, builtins, render_openai};
/// use serde_json::json;
///
/// let listed = json!([{"name": "create_issue", "inputSchema": {"type": "object"}}]);
/// let mcp = load_server("tracker", &listed).tools;
/// let catalog = Catalog::new(builtins().unwrap(), &[]);
/// let pool = assemble_tool_pool(&Env::default(), &PermissionContext::new(), &catalog, &mcp);
/// let options = OpenAiOptions {
///     format: OpenAiFormat::Responses,
///     tool_search: OpenAiToolSearch::Server,
///     ..Default::default()
/// };
/// let rendered = render_openai(&pool, &options).unwrap();
/// let tools = rendered.tools.to_value().unwrap();
/// let tools = tools.as_array().unwrap();
/// assert!(tools.contains(&json!({"type": "tool_search", "execution": "server"})));
/// let issue = tools.iter().find(|tool| tool["name"] == "mcp__tracker__create_issue").unwrap();
/// assert_eq!(issue["defer_loading"], true);
/// ```
///
/// # Errors
/// [`RenderError::InvalidSchema`] for a schema that is not JSON;
/// [`RenderError::TooManyTools`] for a Chat Completions request past
/// [`chat_completions::MAX_TOOLS`]; [`RenderError::Unsupported`] for server-side tool search on
/// Chat Completions.
pub fn render_openai(pool: &Pool, options: &OpenAiOptions) -> Result<RenderedOpenAi, RenderError> {
    match options.format {
        OpenAiFormat::ChatCompletions => chat_completions::tools::tools(pool, options),
        OpenAiFormat::Responses => responses::tools::tools(pool, options),
    }
}
