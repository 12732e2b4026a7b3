//! Each API's events, read into the response they build.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::StreamError;

#[derive(Debug, Clone, Default)]
pub(super) struct State {
    /// The response object as it is built.
    pub(super) body: Map<String, Value>,
    /// Anthropic content blocks, Chat tool calls, Responses output items, by index.
    pub(super) parts: BTreeMap<u64, Value>,
    /// The arguments text of a part, by index, while it streams.
    pub(super) arguments: BTreeMap<u64, String>,
    /// Chat Completions: the message's text, its refusal, and the finish reason.
    pub(super) text: String,
    pub(super) refusal: String,
    pub(super) finish: Option<Value>,
    pub(super) done: bool,
    /// The message of an error event, until the assembler reports it.
    pub(super) error: Option<String>,
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
        self.error = Some(message.to_owned());
    }

    pub(super) fn anthropic(&mut self, value: &Value) -> Result<(), String> {
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
                // The counts a delta sends replace those of `message_start`; the ones it leaves
                // out or sends as null (the input and cache counts, mostly) stay.
                if let Some(usage) = value.get("usage").and_then(Value::as_object) {
                    let total = self.body.entry("usage").or_insert_with(|| json!({}));
                    if let Some(total) = total.as_object_mut() {
                        for (key, count) in usage.iter().filter(|(_, count)| !count.is_null()) {
                            total.insert(key.clone(), count.clone());
                        }
                    }
                }
            }
            Some("message_stop") => self.done = true,
            Some("error") => self.error_event(value),
            Some(_) => {}
            None => return Err("an event without a type".into()),
        }
        Ok(())
    }

    pub(super) fn finish_anthropic(mut self) -> Result<Value, StreamError> {
        if !self.done {
            return Err(StreamError::Incomplete {
                missing: "message_stop",
            });
        }
        let content: Vec<Value> = std::mem::take(&mut self.parts).into_values().collect();
        self.body.insert("content".into(), Value::Array(content));
        Ok(Value::Object(self.body))
    }

    pub(super) fn chat(&mut self, value: &Value) -> Result<(), String> {
        if value.get("error").is_some() {
            self.error_event(value);
            return Ok(());
        }
        for key in [
            "id",
            "model",
            "created",
            "service_tier",
            "system_fingerprint",
            "usage",
        ] {
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

    pub(super) fn finish_chat(mut self) -> Result<Value, StreamError> {
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
        let refusal = (!self.refusal.is_empty()).then_some(self.refusal);
        message.insert("refusal".into(), refusal.map_or(Value::Null, Value::String));
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

    pub(super) fn responses(&mut self, value: &Value) -> Result<(), String> {
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

    pub(super) fn finish_responses(mut self) -> Result<Value, StreamError> {
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
