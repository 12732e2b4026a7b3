//! OpenAI Chat Completions: a response's `tool_calls` read (`parse.rs`), results answered as
//! `tool` messages (`answer.rs`), the next request's function tools (`tools.rs`, through
//! [`render_openai`](crate::render_openai) with
//! [`OpenAiFormat::ChatCompletions`](crate::wire::openai::OpenAiFormat::ChatCompletions)).

mod answer;
pub(crate) mod parse;
pub(crate) mod tools;

pub use answer::{loaded_tools, tool_message, tool_search_text};
pub use tools::MAX_TOOLS;
