//! OpenAI Responses: a response's `function_call` and client `tool_search_call` items read
//! (`parse.rs`), results answered as `function_call_output` and `tool_search_output` items
//! (`answer.rs`), the tools a history loaded (`loaded.rs`), the next request's tools (`tools.rs`, through
//! [`render_openai`](crate::render_openai) with
//! [`OpenAiFormat::Responses`](crate::wire::openai::OpenAiFormat::Responses)), each MCP server's
//! functions grouped in a `namespace` when asked (`namespaces.rs`).

mod answer;
mod loaded;
mod namespaces;
pub(crate) mod parse;
pub(crate) mod tools;

pub use answer::{tool_output, tool_search_output};
pub use loaded::{discovered, drop_tools_outside};
