//! A streamed response, assembled: the server-sent events of either vendor, in chunks of any
//! size, become the body the non-streaming endpoint would have returned.

mod events;
mod partial;

use std::fmt;

use serde_json::Value;

use super::response::Api;
use events::State;
pub use partial::partial_json;

/// The longest line of a stream, and the most bytes of one call's arguments.
pub const MAX_EVENT_BYTES: usize = 32 << 20;

/// Why a stream could not be assembled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamError {
    /// An event that is not what its API sends: which one (counted from 0) and why.
    Malformed {
        /// The event's place in the stream.
        event: usize,
        /// What was wrong.
        message: String,
    },
    /// The API sent an error event.
    Api {
        /// Its message.
        message: String,
    },
    /// The stream ended before the response was complete.
    Incomplete {
        /// What was missing.
        missing: &'static str,
    },
    /// A line or a call's arguments passed [`MAX_EVENT_BYTES`].
    TooLarge,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Malformed { event, message } => {
                write!(f, "stream event {event}: {message}")
            }
            StreamError::Api { message } => write!(f, "the API sent an error: {message}"),
            StreamError::Incomplete { missing } => {
                write!(f, "the stream ended before {missing}")
            }
            StreamError::TooLarge => {
                write!(
                    f,
                    "a stream line or argument passed {MAX_EVENT_BYTES} bytes"
                )
            }
        }
    }
}

impl std::error::Error for StreamError {}

/// A tool call still arriving: what its arguments say so far.
#[derive(Debug, Clone, PartialEq)]
pub struct PartialCall {
    /// The call's id, once sent.
    pub id: String,
    /// The tool's name, once sent.
    pub name: String,
    /// The complete part of its arguments ([`partial_json`]), `None` before it starts; once its
    /// block has ended, the whole input.
    pub input: Option<Value>,
}

/// Assembles one streamed response.
///
/// ```
/// use toolreg::wire::{Api, StreamAssembler, parse_response};
///
/// let mut stream = StreamAssembler::new(Api::ChatCompletions);
/// stream.push(br#"data: {"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"Read","arguments":"{\"pa"}}]}}]}
///
/// data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\": \"a.txt\"}"}}]},"finish_reason":"tool_calls"}]}
///
/// data: [DONE]
///
/// "#).unwrap();
/// let response = parse_response(Api::ChatCompletions, &stream.finish().unwrap()).unwrap();
/// assert_eq!(response.calls[0].input, Ok(serde_json::json!({"path": "a.txt"})));
/// ```
#[derive(Debug, Clone)]
pub struct StreamAssembler {
    api: Api,
    /// Bytes after the last complete line.
    pending: Vec<u8>,
    /// The data lines of the event being read.
    data: Vec<String>,
    events: usize,
    state: State,
}

impl StreamAssembler {
    /// An assembler for a stream of `api`.
    pub fn new(api: Api) -> Self {
        StreamAssembler {
            api,
            pending: Vec::new(),
            data: Vec::new(),
            events: 0,
            state: State::default(),
        }
    }

    /// Reads the next bytes of the stream, cut anywhere.
    ///
    /// # Errors
    /// An event that is not its API's, an error event, a line past [`MAX_EVENT_BYTES`].
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), StreamError> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|byte| *byte == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = line.strip_suffix(b"\n").unwrap_or(&line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let line = std::str::from_utf8(line).map_err(|_| StreamError::Malformed {
                event: self.events,
                message: "a line that is not UTF-8".into(),
            })?;
            if line.is_empty() {
                self.dispatch()?;
            } else if let Some(data) = line.strip_prefix("data:") {
                self.data
                    .push(data.strip_prefix(' ').unwrap_or(data).to_owned());
            }
            // `event:`, `id:`, `retry:` and comments: the data says all the loop needs.
        }
        if self.pending.len() > MAX_EVENT_BYTES {
            return Err(StreamError::TooLarge);
        }
        Ok(())
    }

    fn dispatch(&mut self) -> Result<(), StreamError> {
        if self.data.is_empty() {
            return Ok(());
        }
        let data = self.data.join("\n");
        self.data.clear();
        self.push_data(&data)
    }

    /// Reads one event's data (for a host that parses the events itself).
    ///
    /// # Errors
    /// As [`push`](Self::push).
    pub fn push_data(&mut self, data: &str) -> Result<(), StreamError> {
        let event = self.events;
        self.events += 1;
        if data == "[DONE]" {
            self.state.done = true;
            return Ok(());
        }
        let value: Value = serde_json::from_str(data).map_err(|error| StreamError::Malformed {
            event,
            message: format!("not JSON: {error}"),
        })?;
        let malformed = |message: &str| StreamError::Malformed {
            event,
            message: message.to_owned(),
        };
        match self.api {
            Api::Anthropic => self.state.anthropic(&value).map_err(|m| malformed(&m))?,
            Api::ChatCompletions => self.state.chat(&value).map_err(|m| malformed(&m))?,
            Api::Responses => self.state.responses(&value).map_err(|m| malformed(&m))?,
        }
        if self
            .state
            .arguments
            .values()
            .any(|text| text.len() > MAX_EVENT_BYTES)
        {
            return Err(StreamError::TooLarge);
        }
        if let Some(message) = self.state.error.take() {
            return Err(StreamError::Api { message });
        }
        Ok(())
    }

    /// The tool calls seen so far, with what their arguments already say.
    pub fn partial_calls(&self) -> Vec<PartialCall> {
        let state = &self.state;
        state
            .parts
            .iter()
            .filter_map(|(index, part)| {
                let (id, name) = match self.api {
                    Api::Anthropic => (part.get("id")?, part.get("name")?),
                    Api::ChatCompletions => (part.get("id")?, part.pointer("/function/name")?),
                    Api::Responses => (part.get("call_id")?, part.get("name")?),
                };
                if self.api == Api::Anthropic
                    && part.get("type").and_then(Value::as_str) != Some("tool_use")
                {
                    return None;
                }
                Some(PartialCall {
                    id: id.as_str().unwrap_or_default().to_owned(),
                    name: name.as_str().unwrap_or_default().to_owned(),
                    input: match state.arguments.get(index) {
                        Some(text) => partial_json(text),
                        // The block ended: its arguments moved into the part.
                        None => finished_input(self.api, part),
                    },
                })
            })
            .collect()
    }

    /// The response as the non-streaming endpoint would have returned it.
    ///
    /// # Errors
    /// [`StreamError::Incomplete`] when the stream ended before its API's last event.
    pub fn finish(mut self) -> Result<Value, StreamError> {
        if !self.pending.is_empty() {
            self.push(b"\n")?;
        }
        self.dispatch()?;
        let state = self.state;
        match self.api {
            Api::Anthropic => state.finish_anthropic(),
            Api::ChatCompletions => state.finish_chat(),
            Api::Responses => state.finish_responses(),
        }
    }
}

/// The input of a call whose block has ended, as the part holds it.
fn finished_input(api: Api, part: &Value) -> Option<Value> {
    let text = match api {
        Api::Anthropic => return part.get("input").cloned(),
        Api::ChatCompletions => part.pointer("/function/arguments"),
        Api::Responses => part.get("arguments"),
    };
    partial_json(text?.as_str()?)
}
