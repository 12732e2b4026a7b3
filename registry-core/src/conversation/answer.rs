//! Running a response's calls and answering them in the form its API takes.

use serde_json::Value;

use super::{Api, ModelResponse};
use crate::dispatch::CallTiming;
use crate::render::{OpenAiFormat, RenderError, openai_tool_result};
use crate::{DispatchError, Dispatcher, Pool, ToolResult, Turn, TurnOptions};

impl Dispatcher {
    /// Runs the calls of `response` as one turn ([`run_turn`](Dispatcher::run_turn)); a call
    /// whose arguments could not be read is answered with an `is_error` result naming the
    /// problem, without running. The results are in the calls' order.
    pub async fn run_response(&self, response: &ModelResponse, options: &TurnOptions) -> Turn {
        let uses: Vec<_> = response
            .calls
            .iter()
            .filter_map(|call| call.to_tool_use())
            .collect();
        let ran = self.run_turn(&uses, options).await;
        let mut ran_results = ran.results.into_iter();
        let mut ran_timings = ran.timings.into_iter();
        let mut turn = Turn {
            results: Vec::with_capacity(response.calls.len()),
            timings: Vec::with_capacity(response.calls.len()),
        };
        for call in &response.calls {
            match &call.input {
                Ok(_) => {
                    if let (Some(result), Some(timing)) = (ran_results.next(), ran_timings.next()) {
                        turn.results.push(result);
                        turn.timings.push(timing);
                    }
                }
                Err(problem) => {
                    let error = DispatchError::InvalidInput {
                        tool: call.name.clone(),
                        path: None,
                        message: problem.clone(),
                        load_hint: false,
                    };
                    turn.results.push(ToolResult::from_error(&call.id, error));
                    turn.timings.push(CallTiming {
                        started: None,
                        finished: std::time::Duration::ZERO,
                    });
                }
            }
        }
        turn
    }
}

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

/// The message a host sends when the user cancels a turn before its calls ran: every call
/// of `response` answered as cancelled, so the history stays well-formed.
pub fn cancelled_answers(response: &ModelResponse) -> Turn {
    let results = response
        .calls
        .iter()
        .map(|call| {
            ToolResult::from_error(
                &call.id,
                DispatchError::Cancelled {
                    tool: call.name.clone(),
                },
            )
        })
        .collect::<Vec<_>>();
    let timings = vec![
        CallTiming {
            started: None,
            finished: std::time::Duration::ZERO,
        };
        results.len()
    ];
    Turn { results, timings }
}
