//! The loop between a model and the tools: a response read into calls
//! ([`parse_response`], or [`StreamAssembler`] for a streamed one), the calls run
//! ([`Dispatcher::run_turn`](crate::Dispatcher::run_turn)), their answers in the API's
//! form ([`Turn::to_messages`](crate::Turn::to_messages)), for the three APIs of [`Api`]; and a
//! [`Conversation`] that keeps the history, the deferred tools it discovered, and the next
//! request's tools (with tool changes that keep the prompt cache).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use toolreg::conversation::{Api, Stop, parse_response};
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
//! let messages = turn.to_messages(&response, &pool, false).unwrap();
//! assert_eq!(messages[1]["role"], "tool");
//! assert_eq!(messages[1]["tool_call_id"], "call_2");
//! assert!(messages[1]["content"].as_str().unwrap().contains("not valid JSON"));
//! # }
//! ```

mod answer;
mod partial;
mod response;
mod session;
mod stream;

pub use partial::partial_json;
pub use response::{ModelResponse, ResponseError, Stop, parse_response};
pub use session::{Conversation, INLINE_TOOLS_BETA, Request, TOOL_CHANGES_BETA};
pub use stream::{MAX_EVENT_BYTES, PartialCall, StreamAssembler, StreamError};

/// A model API's request and response shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Api {
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Chat Completions.
    ChatCompletions,
    /// OpenAI Responses.
    Responses,
}
