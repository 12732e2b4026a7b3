//! From an MCP `tools/call` result to a tool's output: what the model reads in its
//! `tool_result`.
//!
//! * `isError: true` → the call failed, with the result's text as the message;
//! * `structuredContent` → [`ToolOutput::Json`] (a server with an `outputSchema` must send it,
//!   and its text blocks repeat it);
//! * one text block → [`ToolOutput::Text`]; one image → [`ToolOutput::Image`];
//! * anything else → [`ToolOutput::Blocks`] in the Messages API's shapes: text as text, images
//!   as base64 `image` blocks, and what the API has no block for (audio, resources, resource
//!   links) as a text block holding the MCP block's JSON, so nothing the server said is dropped.
//!
//! A result over [`Limits::max_result_chars`](crate::Limits) is cut by [`cap_result`] as
//! dispatch cuts a built-in's output (text and JSON through
//! [`toolreg::dispatch::cap_output`], ending in its marker); blocks are kept until the
//! budget is spent, the block at the cut ends in the same marker, and an image that does not
//! fit is replaced by a text block saying it was dropped. An error message is cut the same way.
//!
//! The gateway maps the other way ([`tool_result_json`]): a failed or refused call is
//! `isError` with the error's text, JSON output is `structuredContent` with its text beside it,
//! images are MCP `image` blocks.

use serde_json::{Value, json};
use toolreg::dispatch::cap_output;
use toolreg::{ToolError, ToolOutput, ToolResult};

/// Maps a `tools/call` result (as JSON) to the tool's output.
pub fn call_result_to_output(result: &Value) -> Result<ToolOutput, ToolError> {
    let blocks = result
        .get("content")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let text = texts(blocks);
        return Err(ToolError::new(if text.is_empty() {
            "the MCP tool reported an error without a message".to_owned()
        } else {
            text
        }));
    }
    if let Some(structured) = result.get("structuredContent").filter(|v| !v.is_null()) {
        return Ok(ToolOutput::Json(structured.clone()));
    }
    Ok(match blocks {
        [] => ToolOutput::Text(String::new()),
        [only] if kind(only) == Some("text") => ToolOutput::Text(text_of(only).to_owned()),
        [only] if kind(only) == Some("image") => match image(only) {
            Some((media_type, data)) => ToolOutput::Image { media_type, data },
            None => ToolOutput::Blocks(vec![as_text_block(only)]),
        },
        many => ToolOutput::Blocks(many.iter().map(api_block).collect()),
    })
}

/// A call's outcome cut to `max_chars` characters (see the [module docs](self)).
pub fn cap_result(
    outcome: Result<ToolOutput, ToolError>,
    max_chars: usize,
) -> Result<ToolOutput, ToolError> {
    match outcome {
        Ok(ToolOutput::Blocks(blocks)) => Ok(ToolOutput::Blocks(cap_blocks(blocks, max_chars))),
        Ok(ToolOutput::Image { media_type, data }) if data.len() > max_chars => Ok(
            ToolOutput::Text(dropped_image(&media_type, data.len(), max_chars)),
        ),
        Ok(output) => Ok(cap_output(output, Some(max_chars))),
        Err(error) => match cap_output(
            ToolOutput::Text(error.message().to_owned()),
            Some(max_chars),
        ) {
            ToolOutput::Text(cut) if cut.len() != error.message().len() => Err(ToolError::new(cut)),
            _ => Err(error),
        },
    }
}

fn dropped_image(media_type: &str, bytes: usize, max_chars: usize) -> String {
    format!(
        "[an image ({media_type}, {bytes} bytes of base64) was dropped: an MCP result is cut \
         at {max_chars} characters]"
    )
}

/// Blocks (in the Messages API's shapes) kept until `max_chars` characters of text and image
/// data are spent; the block at the cut is cut and marked, the rest dropped.
fn cap_blocks(blocks: Vec<Value>, max_chars: usize) -> Vec<Value> {
    let mut left = max_chars;
    let mut kept = Vec::new();
    for block in blocks {
        if kind(&block) == Some("image") {
            let source = |key: &str| block.get("source")?.get(key)?.as_str();
            let bytes = source("data").map_or(0, str::len);
            if bytes <= left {
                left -= bytes;
                kept.push(block);
                continue;
            }
            let media_type = source("media_type").unwrap_or("image");
            kept.push(json!({"type": "text", "text": dropped_image(media_type, bytes, max_chars)}));
            return kept;
        }
        let text = text_of(&block);
        let chars = text.chars().count();
        if chars <= left {
            left -= chars;
            kept.push(block);
            continue;
        }
        if let ToolOutput::Text(cut) = cap_output(ToolOutput::Text(text.to_owned()), Some(left)) {
            kept.push(json!({"type": "text", "text": cut}));
        }
        return kept;
    }
    kept
}

fn kind(block: &Value) -> Option<&str> {
    block.get("type").and_then(Value::as_str)
}

fn text_of(block: &Value) -> &str {
    block
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn texts(blocks: &[Value]) -> String {
    let parts: Vec<&str> = blocks
        .iter()
        .filter(|block| kind(block) == Some("text"))
        .map(text_of)
        .collect();
    parts.join("\n")
}

fn image(block: &Value) -> Option<(String, String)> {
    let data = block.get("data")?.as_str()?;
    let media_type = block.get("mimeType")?.as_str()?;
    Some((media_type.to_owned(), data.to_owned()))
}

fn as_text_block(block: &Value) -> Value {
    json!({"type": "text", "text": block.to_string()})
}

fn api_block(block: &Value) -> Value {
    match kind(block) {
        Some("text") => json!({"type": "text", "text": text_of(block)}),
        Some("image") => match image(block) {
            Some((media_type, data)) => json!({
                "type": "image",
                "source": {"type": "base64", "media_type": media_type, "data": data},
            }),
            None => as_text_block(block),
        },
        _ => as_text_block(block),
    }
}

/// The JSON of a `tools/call` result for a dispatched call.
pub fn tool_result_json(result: &ToolResult) -> Value {
    if let Some(error) = &result.error {
        return json!({"content": [{"type": "text", "text": error.to_string()}], "isError": true});
    }
    match &result.content {
        ToolOutput::Text(text) => json!({"content": [{"type": "text", "text": text}]}),
        ToolOutput::Json(value) => json!({
            "content": [{"type": "text", "text": value.to_string()}],
            "structuredContent": value,
        }),
        ToolOutput::Image { media_type, data } => {
            json!({"content": [{"type": "image", "data": data, "mimeType": media_type}]})
        }
        ToolOutput::Blocks(blocks) => {
            json!({"content": blocks.iter().map(mcp_block).collect::<Vec<_>>()})
        }
    }
}

/// A Messages API content block as an MCP one: text and base64 images as they are, anything
/// else (a `tool_reference`) as a text block of its JSON.
fn mcp_block(block: &Value) -> Value {
    match kind(block) {
        Some("text") => json!({"type": "text", "text": text_of(block)}),
        Some("image") => {
            let source = &block["source"];
            match (source["data"].as_str(), source["media_type"].as_str()) {
                (Some(data), Some(media_type)) => {
                    json!({"type": "image", "data": data, "mimeType": media_type})
                }
                _ => as_text_block(block),
            }
        }
        _ => as_text_block(block),
    }
}

/// A dispatched call's `tools/call` result, with `resultType: "complete"`: 2026-07-28 clients
/// require it (the Python SDK refuses a result without it), and rmcp strips it for older ones.
#[cfg(feature = "server")]
pub(crate) fn tool_result_to_call_result(result: &ToolResult) -> rmcp::model::CallToolResult {
    let mut call_result: rmcp::model::CallToolResult =
        serde_json::from_value(tool_result_json(result)).unwrap_or_else(|error| {
            rmcp::model::CallToolResult::error(vec![rmcp::model::ContentBlock::text(format!(
                "the result could not be sent: {error}"
            ))])
        });
    call_result.result_type = Some(rmcp::model::ResultType::COMPLETE);
    call_result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "server")]
    #[test]
    fn a_forwarded_result_says_it_is_complete() {
        let result = ToolResult {
            tool_use_id: "t1".into(),
            tool: "Done".into(),
            content: ToolOutput::Text("done".into()),
            error: None,
        };
        let sent = serde_json::to_value(tool_result_to_call_result(&result)).unwrap();
        assert_eq!(sent["resultType"], "complete", "{sent}");
    }

    #[test]
    fn an_error_result_fails_the_call_with_its_text() {
        let result =
            json!({"content": [{"type": "text", "text": "no such file"}], "isError": true});
        assert_eq!(
            call_result_to_output(&result).unwrap_err().message(),
            "no such file"
        );
        let bare = json!({"content": [], "isError": true});
        assert!(call_result_to_output(&bare).is_err());
    }

    #[test]
    fn structured_content_wins_over_its_text_copy() {
        let result = json!({
            "content": [{"type": "text", "text": "{\"a\":1}"}],
            "structuredContent": {"a": 1},
        });
        assert_eq!(
            call_result_to_output(&result).unwrap(),
            ToolOutput::Json(json!({"a": 1}))
        );
    }

    #[test]
    fn one_text_or_image_block_is_that_output() {
        let text = json!({"content": [{"type": "text", "text": "hi"}]});
        assert_eq!(
            call_result_to_output(&text).unwrap(),
            ToolOutput::Text("hi".into())
        );
        let image =
            json!({"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]});
        assert_eq!(
            call_result_to_output(&image).unwrap(),
            ToolOutput::Image {
                media_type: "image/png".into(),
                data: "AAAA".into()
            }
        );
    }

    #[test]
    fn a_dispatched_result_maps_back_to_an_mcp_result() {
        let ok = |content| ToolResult {
            tool_use_id: "t".into(),
            tool: "T".into(),
            content,
            error: None,
        };
        assert_eq!(
            tool_result_json(&ok(ToolOutput::Json(json!({"a": 1})))),
            json!({"content": [{"type": "text", "text": "{\"a\":1}"}], "structuredContent": {"a": 1}})
        );
        let image = ToolOutput::Image {
            media_type: "image/png".into(),
            data: "AAAA".into(),
        };
        let back = tool_result_json(&ok(image.clone()));
        assert_eq!(call_result_to_output(&back).unwrap(), image, "a round trip");
        let refused = ToolResult::from_error(
            "t",
            toolreg::DispatchError::NotInPool {
                name: "Bash".into(),
            },
        );
        let back = tool_result_json(&refused);
        assert_eq!(back["isError"], true);
        assert!(call_result_to_output(&back).is_err());
    }

    #[test]
    fn an_error_message_over_the_result_limit_is_cut_and_marked() {
        let long = Err(ToolError::new("e".repeat(50)));
        let cut = cap_result(long, 10).unwrap_err();
        assert_eq!(
            cut.message(),
            format!("{}{}", "e".repeat(10), toolreg::dispatch::OUTPUT_TRUNCATED)
        );
        let short = cap_result(Err(ToolError::new("fine")), 10).unwrap_err();
        assert_eq!(short.message(), "fine");
    }

    #[test]
    fn blocks_the_api_has_no_shape_for_are_kept_as_their_json() {
        let result = json!({"content": [
            {"type": "text", "text": "two things"},
            {"type": "image", "data": "AAAA", "mimeType": "image/gif"},
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
        ]});
        let ToolOutput::Blocks(blocks) = call_result_to_output(&result).unwrap() else {
            panic!("blocks")
        };
        assert_eq!(blocks[0], json!({"type": "text", "text": "two things"}));
        assert_eq!(blocks[1]["source"]["media_type"], "image/gif");
        assert!(blocks[2]["text"].as_str().unwrap().contains("file:///a"));
    }
}
