//! The orchestrator of the loop between a model and the tools: a [`Conversation`] keeps the
//! history, the deferred tools it discovered, and the next request's tools (with tool changes
//! that keep the prompt cache). Each step is another module's: the API's wire module reads the
//! response ([`Conversation::receive`]), the [`Dispatcher`](crate::Dispatcher) runs its calls,
//! the wire module answers them ([`Conversation::answer`]) and renders the next request's tools
//! ([`Conversation::request`]).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use toolreg::conversation::Conversation;
//! use toolreg::{Catalog, Dispatcher, Env, PermissionContext, RenderOptions, TurnOptions, assemble_tool_pool, builtins};
//! use serde_json::json;
//!
//! let (env, rules) = (Env::default(), PermissionContext::new());
//! let pool = assemble_tool_pool(&env, &rules, &Catalog::new(builtins().unwrap(), &[]), &[]);
//! let dispatcher = Dispatcher::new(env.clone(), rules, pool.clone(), ".");
//! let mut conversation = Conversation::anthropic(RenderOptions { tool_search: true, ..Default::default() });
//! conversation.push_user("Find a weather tool.");
//! let request = conversation.request(&env, &pool).unwrap();
//! assert!(request.body["tools"].as_array().unwrap().iter().any(|tool| tool["name"] == "ToolSearch"));
//!
//! // The model's answer (sent with the request's other parts, `model` and `max_tokens`).
//! let body = json!({"content": [{"type": "tool_use", "id": "t1", "name": "ToolSearch",
//!     "input": {"query": "weather"}}], "stop_reason": "tool_use"});
//! let response = conversation.receive(&body).unwrap();
//! let turn = dispatcher.run_turn(&response.calls, &TurnOptions::default()).await;
//! conversation.answer(&response, &turn, &pool).unwrap();
//! let next = conversation.request(&env, &pool).unwrap();
//! assert_eq!(next.body["messages"][2]["content"][0]["tool_use_id"], "t1");
//! # }
//! ```

mod session;

pub use session::{Conversation, Request};
