//! Answering a response's calls in the form its API takes.

use serde_json::Value;

use super::{Api, ModelResponse};
use crate::render::{OpenAiFormat, RenderError, openai_tool_result};
use crate::{Pool, Turn};

impl Turn {
    /// What answers `response` in its API's form: Anthropic one user message of
    /// `tool_result` blocks ([`to_message`](Turn::to_message)); Chat Completions one `tool`
    /// message a call; Responses one `function_call_output` (or, for a client tool search,
    /// `tool_search_output` with the loaded tools' definitions from `pool`) a call. `strict`
    /// is the rendering's, for the definitions a tool search output carries.
    ///
    /// # Errors
    /// [`RenderError::InvalidSchema`] for a loaded tool whose schema is not JSON.
    pub fn to_messages(
        &self,
        response: &ModelResponse,
        pool: &Pool,
        strict: bool,
    ) -> Result<Vec<Value>, RenderError> {
        let format = match response.api {
            Api::Anthropic => return Ok(vec![self.to_message()]),
            Api::ChatCompletions => OpenAiFormat::ChatCompletions,
            Api::Responses => OpenAiFormat::Responses,
        };
        self.results
            .iter()
            .map(|result| {
                let name = response
                    .calls
                    .iter()
                    .find(|call| call.id == result.tool_use_id)
                    .map_or("", |call| call.name.as_str());
                openai_tool_result(name, result, format, pool, strict)
            })
            .collect()
    }
}
