//! A streamed response, assembled: the server-sent events of either vendor, in chunks of any
//! size, become the body the non-streaming endpoint would have returned.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value, json};

use super::Api;
use super::partial::partial_json;

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
    /// The complete part of its arguments ([`partial_json`]), `None` before it starts.
    pub input: Option<Value>,
}

/// Assembles one streamed response.
///
/// ```
/// use toolreg::conversation::{Api, StreamAssembler, parse_response};
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

#[derive(Debug, Clone, Default)]
struct State {
    /// The response object as it is built.
    body: Map<String, Value>,
    /// Anthropic content blocks, Chat tool calls, Responses output items, by index.
    parts: BTreeMap<u64, Value>,
    /// The arguments text of a part, by index, while it streams.
    arguments: BTreeMap<u64, String>,
    /// Chat Completions: the message's text, its refusal, and the finish reason.
    text: String,
    refusal: String,
    finish: Option<Value>,
    done: bool,
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
        if let Some(message) = self.state.body.remove("__error") {
            return Err(StreamError::Api {
                message: message.as_str().unwrap_or("unknown error").to_owned(),
            });
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
                    input: state
                        .arguments
                        .get(index)
                        .and_then(|text| partial_json(text)),
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

fn index_of(value: &Value, key: &str) -> Result<u64, String> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("no `{key}`"))
}

fn append(target: &mut Value, key: &str, more: &str) {
    if let Some(fields) = target.as_object_mut() {
        let entry = fields
            .entry(key)
            .or_insert_with(|| Value::String(String::new()));
        if let Value::String(text) = entry {
            text.push_str(more);
        } else {
            *entry = Value::String(more.to_owned());
        }
    }
}

impl State {
    fn error_event(&mut self, value: &Value) {
        let message = value
            .pointer("/error/message")
            .or_else(|| value.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("unknown error");
        self.body.insert("__error".into(), message.into());
    }

    fn anthropic(&mut self, value: &Value) -> Result<(), String> {
        match value.get("type").and_then(Value::as_str) {
            Some("message_start") => {
                let message = value.get("message").and_then(Value::as_object);
                self.body = message.cloned().ok_or("message_start without a message")?;
            }
            Some("content_block_start") => {
                let index = index_of(value, "index")?;
                let block = value.get("content_block").ok_or("no content_block")?;
                if block.get("type").and_then(Value::as_str) == Some("tool_use")
                    || block.get("type").and_then(Value::as_str) == Some("server_tool_use")
                {
                    self.arguments.insert(index, String::new());
                }
                self.parts.insert(index, block.clone());
            }
            Some("content_block_delta") => {
                let index = index_of(value, "index")?;
                let delta = value.get("delta").ok_or("no delta")?;
                let part = self.parts.get_mut(&index).ok_or("a delta for no block")?;
                let text = |key: &str| delta.get(key).and_then(Value::as_str).unwrap_or_default();
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => append(part, "text", text("text")),
                    Some("thinking_delta") => append(part, "thinking", text("thinking")),
                    Some("signature_delta") => {
                        if let Some(fields) = part.as_object_mut() {
                            fields.insert("signature".into(), text("signature").into());
                        }
                    }
                    Some("input_json_delta") => self
                        .arguments
                        .entry(index)
                        .or_default()
                        .push_str(text("partial_json")),
                    Some("citations_delta") => {
                        if let (Some(fields), Some(citation)) =
                            (part.as_object_mut(), delta.get("citation"))
                        {
                            let list = fields.entry("citations").or_insert_with(|| json!([]));
                            if let Some(list) = list.as_array_mut() {
                                list.push(citation.clone());
                            }
                        }
                    }
                    _ => {}
                }
            }
            Some("content_block_stop") => {
                let index = index_of(value, "index")?;
                if let (Some(text), Some(part)) =
                    (self.arguments.remove(&index), self.parts.get_mut(&index))
                {
                    let input = match text.trim() {
                        "" => json!({}),
                        text => serde_json::from_str(text).unwrap_or(Value::String(text.into())),
                    };
                    if let Some(fields) = part.as_object_mut() {
                        fields.insert("input".into(), input);
                    }
                }
            }
            Some("message_delta") => {
                let delta = value.get("delta").and_then(Value::as_object);
                for (key, field) in delta.into_iter().flatten() {
                    self.body.insert(key.clone(), field.clone());
                }
                if let Some(usage) = value.get("usage") {
                    self.body.insert("usage".into(), usage.clone());
                }
            }
            Some("message_stop") => self.done = true,
            Some("error") => self.error_event(value),
            Some(_) => {}
            None => return Err("an event without a type".into()),
        }
        Ok(())
    }

    fn finish_anthropic(mut self) -> Result<Value, StreamError> {
        if !self.done {
            return Err(StreamError::Incomplete {
                missing: "message_stop",
            });
        }
        let content: Vec<Value> = std::mem::take(&mut self.parts).into_values().collect();
        self.body.insert("content".into(), Value::Array(content));
        Ok(Value::Object(self.body))
    }

    fn chat(&mut self, value: &Value) -> Result<(), String> {
        if value.get("error").is_some() {
            self.error_event(value);
            return Ok(());
        }
        for key in ["id", "model", "created", "system_fingerprint", "usage"] {
            if let Some(field) = value.get(key).filter(|field| !field.is_null()) {
                self.body.insert(key.into(), field.clone());
            }
        }
        let choices = value.get("choices").and_then(Value::as_array);
        // Only the first choice is the loop's (`n` > 1 is not a tool loop).
        for choice in choices.into_iter().flatten() {
            if choice.get("index").and_then(Value::as_u64).unwrap_or(0) != 0 {
                continue;
            }
            let delta = choice.get("delta").cloned().unwrap_or_default();
            if let Some(text) = delta.get("content").and_then(Value::as_str) {
                self.text.push_str(text);
            }
            if let Some(refusal) = delta.get("refusal").and_then(Value::as_str) {
                self.refusal.push_str(refusal);
            }
            for call in delta
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let index = index_of(call, "index")?;
                let part = self
                    .parts
                    .entry(index)
                    .or_insert_with(|| json!({"type": "function", "function": {"name": ""}}));
                if let (Some(id), Some(fields)) =
                    (call.get("id").and_then(Value::as_str), part.as_object_mut())
                {
                    fields.insert("id".into(), id.into());
                }
                if let (Some(name), Some(function)) = (
                    call.pointer("/function/name").and_then(Value::as_str),
                    part.get_mut("function"),
                ) {
                    append(function, "name", name);
                }
                if let Some(more) = call.pointer("/function/arguments").and_then(Value::as_str) {
                    self.arguments.entry(index).or_default().push_str(more);
                }
            }
            if let Some(reason) = choice
                .get("finish_reason")
                .filter(|reason| !reason.is_null())
            {
                self.finish = Some(reason.clone());
            }
        }
        Ok(())
    }

    fn finish_chat(mut self) -> Result<Value, StreamError> {
        let Some(finish) = self.finish.take() else {
            return Err(StreamError::Incomplete {
                missing: "a finish_reason",
            });
        };
        let calls: Vec<Value> = std::mem::take(&mut self.parts)
            .into_iter()
            .map(|(index, mut call)| {
                let arguments = self.arguments.remove(&index).unwrap_or_default();
                if let Some(function) = call.get_mut("function").and_then(Value::as_object_mut) {
                    function.insert("arguments".into(), arguments.into());
                }
                call
            })
            .collect();
        let content = if self.text.is_empty() && !calls.is_empty() {
            Value::Null
        } else {
            self.text.into()
        };
        let mut message = Map::new();
        message.insert("role".into(), "assistant".into());
        message.insert("content".into(), content);
        if !self.refusal.is_empty() {
            message.insert("refusal".into(), self.refusal.into());
        }
        if !calls.is_empty() {
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        self.body.insert("object".into(), "chat.completion".into());
        self.body.insert(
            "choices".into(),
            json!([{"index": 0, "message": message, "finish_reason": finish, "logprobs": null}]),
        );
        Ok(Value::Object(self.body))
    }

    fn responses(&mut self, value: &Value) -> Result<(), String> {
        let event = value.get("type").and_then(Value::as_str).ok_or("no type")?;
        match event {
            "response.created" | "response.in_progress" => {
                let response = value.get("response").and_then(Value::as_object);
                self.body = response.cloned().ok_or("no response")?;
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                let response = value.get("response").and_then(Value::as_object);
                self.body = response.cloned().ok_or("no response")?;
                self.done = true;
            }
            "response.output_item.added" | "response.output_item.done" => {
                let index = index_of(value, "output_index")?;
                let item = value.get("item").ok_or("no item")?;
                if event.ends_with("done") {
                    self.arguments.remove(&index);
                } else if item.get("type").and_then(Value::as_str) == Some("function_call") {
                    self.arguments.insert(index, String::new());
                }
                self.parts.insert(index, item.clone());
            }
            "response.function_call_arguments.delta" => {
                let index = index_of(value, "output_index")?;
                let more = value
                    .get("delta")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                self.arguments.entry(index).or_default().push_str(more);
            }
            "response.function_call_arguments.done" => {
                let index = index_of(value, "output_index")?;
                let text = value
                    .get("arguments")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                self.arguments.insert(index, text.to_owned());
            }
            "error" => self.error_event(value),
            _ => {}
        }
        Ok(())
    }

    fn finish_responses(mut self) -> Result<Value, StreamError> {
        if !self.done {
            return Err(StreamError::Incomplete {
                missing: "response.completed",
            });
        }
        // The final event's output is complete; build it from the items when it was left out.
        let empty = self
            .body
            .get("output")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty);
        if empty && !self.parts.is_empty() {
            let items: Vec<Value> = std::mem::take(&mut self.parts)
                .into_iter()
                .map(|(index, mut item)| {
                    if let (Some(arguments), Some(fields)) =
                        (self.arguments.remove(&index), item.as_object_mut())
                    {
                        fields.insert("arguments".into(), arguments.into());
                    }
                    item
                })
                .collect();
            self.body.insert("output".into(), Value::Array(items));
        }
        Ok(Value::Object(self.body))
    }
}
