//! What the gateway does with one line from its client: hand it to rmcp, drop it, or answer
//! it with a JSON-RPC error (see [`framing`](super)).

use rmcp::RoleServer;
use rmcp::model::{ClientRequest, GetMeta as _, JsonRpcMessage, ProtocolVersion, RequestId};
use rmcp::service::RxJsonRpcMessage;
use serde::Deserialize;
use serde_json::{Value, json};

/// The deepest nesting serde_json reads (its fixed recursion limit).
const MAX_DEPTH: usize = 128;

/// The most characters of a parser's message quoted in an error answer (serde quotes the
/// offending value, which may be megabytes long).
const MAX_DETAIL_CHARS: usize = 500;

/// JSON-RPC's parse error.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's invalid request.
const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's invalid params.
const INVALID_PARAMS: i64 = -32602;

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub(super) enum Verdict {
    /// Hand it to rmcp.
    Forward(Opens),
    /// Nothing: a notification or response rmcp need not see.
    Drop,
    /// Answer it with this error response.
    Answer(Value),
}

/// Whether a message opens rmcp's session: rmcp reads messages one by one until a request
/// opens it, and ends on a notification or response before then.
#[derive(Debug, PartialEq)]
pub(super) enum Opens {
    /// A notification or a response: rmcp may have it only once the session is open.
    Nothing,
    /// A request rmcp answers without opening the session: `ping`, `server/discover`, or a
    /// request without the 2026-07-28 metadata, or of a version the server does not take.
    NotTheSession,
    /// `initialize`, which opens the session once it is answered with a result: its id as
    /// JSON text.
    OnResult(String),
    /// A complete request of the 2026-07-28 lane, which opens the session as rmcp reads it.
    Now,
}

/// What a request does to the session; rmcp's own rule, taken before rmcp reads it.
fn opens(id: &RequestId, request: &ClientRequest, supported: &[ProtocolVersion]) -> Opens {
    match request {
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => Opens::NotTheSession,
        ClientRequest::InitializeRequest(_) => {
            Opens::OnResult(serde_json::to_string(id).unwrap_or_default())
        }
        _ => {
            let meta = request.get_meta();
            let complete = meta
                .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty();
            match meta.protocol_version() {
                Some(version) if complete && supported.contains(&version) => Opens::Now,
                _ => Opens::NotTheSession,
            }
        }
    }
}

/// An error response.
fn error_answer(id: Option<Value>, code: i64, message: String, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let (Some(data), Some(fields)) = (data, error.as_object_mut()) {
        fields.insert("data".to_owned(), data);
    }
    json!({"jsonrpc": "2.0", "id": id.unwrap_or(Value::Null), "error": error})
}

pub(super) fn too_long(max: usize) -> Value {
    error_answer(
        None,
        INVALID_REQUEST,
        format!(
            "Invalid Request: the message is longer than {max} bytes, the most this server \
             reads in one message (one line); it was not read"
        ),
        Some(json!({"max_message_bytes": max})),
    )
}

/// A parser's message, cut to [`MAX_DETAIL_CHARS`].
fn detail(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or_default()),
        None => text,
    }
}

/// The id of a message that is JSON but no readable JSON-RPC message, when it has one: a
/// string or an integer. Other members are skipped without being read (serde_json skips
/// nesting of any depth without recursing), so the id of a too-deep message is found too.
fn probe_id(line: &[u8]) -> Option<Value> {
    #[derive(Deserialize)]
    struct Probe {
        id: Option<Value>,
    }
    let id = serde_json::from_slice::<Probe>(line).ok()?.id?;
    valid_id(&id).then_some(id)
}

fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// Decides what to do with one line from the client.
///
/// `supported` are the protocol versions the server takes, which decide whether a request of
/// the 2026-07-28 lane opens the session.
pub(super) fn classify(line: &[u8], supported: &[ProtocolVersion]) -> Verdict {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let typed = match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
        Ok(JsonRpcMessage::Request(request)) => {
            return Verdict::Forward(opens(&request.id, &request.request, supported));
        }
        Ok(_) => return Verdict::Forward(Opens::Nothing),
        Err(error) => error,
    };
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(value) => value,
        Err(error) => {
            let message = if error.to_string().starts_with("recursion limit exceeded") {
                format!(
                    "Parse error: the message nests deeper than {MAX_DEPTH} levels, the most \
                     this server reads (line {}, column {})",
                    error.line(),
                    error.column()
                )
            } else {
                format!("Parse error: {}", detail(&error))
            };
            return Verdict::Answer(error_answer(probe_id(line), PARSE_ERROR, message, None));
        }
    };
    let invalid = |id: Option<Value>, why: &str| {
        Verdict::Answer(error_answer(
            id,
            INVALID_REQUEST,
            format!("Invalid Request: {why}"),
            None,
        ))
    };
    let Value::Object(message) = &value else {
        return invalid(
            None,
            match value {
                Value::Array(_) => "a batch (a JSON array); this server takes one message a line",
                _ => "not a JSON-RPC message (a JSON object)",
            },
        );
    };
    let id = message.get("id");
    let readable_id = id.filter(|id| valid_id(id)).cloned();
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(readable_id, "`jsonrpc` must be \"2.0\"");
    }
    if id.is_some() && readable_id.is_none() {
        return invalid(None, "`id` must be a string or an integer");
    }
    match (message.get("method"), readable_id) {
        (Some(Value::String(method)), Some(id)) => Verdict::Answer(error_answer(
            Some(id),
            INVALID_PARAMS,
            format!("Invalid params for `{method}`: {}", detail(&typed)),
            None,
        )),
        // A notification gets no answer, even one that cannot be read.
        (Some(Value::String(_)), None) => Verdict::Drop,
        (Some(_), id) => invalid(id, "`method` must be a string"),
        (None, Some(_)) if message.contains_key("result") || message.contains_key("error") => {
            Verdict::Drop
        }
        (None, id) => invalid(
            id,
            "neither a request, a notification nor a response (no `method`, `result` or `error`)",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Value {
        match classify(line.as_bytes(), &[]) {
            Verdict::Answer(answer) => answer,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn invalid_json_is_a_parse_error_without_an_id() {
        let answer = answer(r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#);
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert_eq!(answer["id"], Value::Null);
    }

    #[test]
    fn a_message_nested_too_deep_is_a_parse_error_with_its_id() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"x","arguments":{{"a":{}{}}}}},"id":7}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let answer = answer(&deep);
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert_eq!(answer["id"], 7, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("deeper than 128 levels"), "{message}");
    }

    #[test]
    fn json_that_is_no_json_rpc_message_is_an_invalid_request() {
        for line in [
            "42",
            "[]",
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            r#"{"foo":1}"#,
            r#"{"jsonrpc":"2.0","method":1}"#,
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
        ] {
            let answer = answer(line);
            assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{line}");
            assert_eq!(answer["id"], Value::Null, "{line}");
        }
        let answer = answer(r#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#);
        assert_eq!(
            (answer["id"].as_str(), answer["error"]["code"].as_i64()),
            (Some("a"), Some(INVALID_REQUEST))
        );
    }

    #[test]
    fn a_request_rmcp_cannot_read_is_invalid_params_with_its_id() {
        let answer = answer(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"x"}"#);
        assert_eq!(answer["error"]["code"], INVALID_PARAMS);
        assert_eq!(answer["id"], 3);
    }

    #[test]
    fn well_formed_messages_go_to_rmcp_and_bad_notifications_are_dropped() {
        let supported = [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];
        let classify = |line: &str| classify(line.as_bytes(), &supported);
        assert_eq!(
            classify(
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}"#
            ),
            Verdict::Forward(Opens::OnResult("1".into()))
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#),
            Verdict::Forward(Opens::NotTheSession)
        );
        assert_eq!(
            classify(
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
            ),
            Verdict::Forward(Opens::Now)
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Verdict::Forward(Opens::Nothing)
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":5}"#),
            Verdict::Drop
        );
    }

    #[test]
    fn a_quoted_value_in_a_parser_message_is_cut() {
        let huge = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"{}"}}"#,
            "x".repeat(100_000)
        );
        let answer = answer(&huge);
        assert!(answer["error"]["message"].as_str().unwrap().chars().count() < 700);
    }
}
