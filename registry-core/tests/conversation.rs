//! Responses in, results out: each API's response read into calls, a stream assembled into the
//! body its non-streaming endpoint returns (cut at every byte), a call the model got wrong
//! answered with an error, the answers in each API's form, approvers and MCP callers as plain
//! async functions.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::ApprovalRequest;
use toolreg::dispatch::McpRequest;
use toolreg::mcp::load_server;
use toolreg::wire::anthropic::tool_results;
use toolreg::wire::{
    Api, Stop, StreamAssembler, StreamError, answer, parse_response, partial_json,
};
use toolreg::{
    Catalog, DispatchError, Dispatcher, Env, PermissionContext, Pool, Tool, ToolContext, ToolError,
    ToolOutput, Turn, TurnOptions, assemble_tool_pool, builtins, tool,
};

/// Deletes a draft.
#[tool(destructive)]
#[derive(Deserialize)]
pub struct DeleteDraftTool {
    /// The draft.
    pub id: u32,
}

impl Tool for DeleteDraftTool {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok(format!("deleted {}", self.id))
    }
}

fn pool(mcp: &Value) -> Pool {
    let (env, rules) = (Env::default(), PermissionContext::new());
    let catalog = Catalog::new(builtins().unwrap(), &[]);
    assemble_tool_pool(&env, &rules, &catalog, &load_server("notes", mcp).tools)
}

fn dispatcher(pool: Pool) -> Dispatcher {
    Dispatcher::new(Env::default(), PermissionContext::new(), pool, ".")
}

const ANTHROPIC_MESSAGE: &str = r#"{"id":"msg_01","type":"message","role":"assistant","model":"m","content":[
 {"type":"text","text":"Let me look."},
 {"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25","input":{"query":"notes"}},
 {"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"mcp__notes__list"}]}},
 {"type":"tool_use","id":"toolu_1","name":"DeleteDraft","input":{"id":7}},
 {"type":"tool_use","id":"toolu_2","name":"ToolSearch","input":{"query":"select:mcp__notes__list"}}
],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":4,"output_tokens":20}}"#;

/// The same message as the Messages API streams it.
const ANTHROPIC_STREAM: &str = "event: message_start
data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":4,\"output_tokens\":1}}}

event: content_block_start
data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}

event: ping
data: {\"type\": \"ping\"}

event: content_block_delta
data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me \"}}

event: content_block_delta
data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"look.\"}}

event: content_block_stop
data: {\"type\":\"content_block_stop\",\"index\":0}

event: content_block_start
data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"tool_search_tool_bm25\",\"input\":{}}}

event: content_block_delta
data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \\\"notes\\\"}\"}}

event: content_block_stop
data: {\"type\":\"content_block_stop\",\"index\":1}

event: content_block_start
data: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":{\"type\":\"tool_search_tool_search_result\",\"tool_references\":[{\"type\":\"tool_reference\",\"tool_name\":\"mcp__notes__list\"}]}}}

event: content_block_stop
data: {\"type\":\"content_block_stop\",\"index\":2}

event: content_block_start
data: {\"type\":\"content_block_start\",\"index\":3,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"DeleteDraft\",\"input\":{}}}

event: content_block_delta
data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}

event: content_block_delta
data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"id\\\": 7\"}}

event: content_block_delta
data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"}\"}}

event: content_block_stop
data: {\"type\":\"content_block_stop\",\"index\":3}

event: content_block_start
data: {\"type\":\"content_block_start\",\"index\":4,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"ToolSearch\",\"input\":{}}}

event: content_block_delta
data: {\"type\":\"content_block_delta\",\"index\":4,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \\\"select:mcp__notes__list\\\"}\"}}

event: content_block_stop
data: {\"type\":\"content_block_stop\",\"index\":4}

event: message_delta
data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":20}}

event: message_stop
data: {\"type\":\"message_stop\"}

";

fn assemble(api: Api, stream: &str, chunk: usize) -> Result<Value, StreamError> {
    let mut assembler = StreamAssembler::new(api);
    for piece in stream.as_bytes().chunks(chunk) {
        assembler.push(piece)?;
    }
    assembler.finish()
}

#[test]
fn anthropic_response_gives_calls_in_order_and_what_the_api_searched() {
    let body: Value = serde_json::from_str(ANTHROPIC_MESSAGE).unwrap();
    let response = parse_response(Api::Anthropic, &body).unwrap();
    assert_eq!(response.stop, Stop::ToolUse);
    assert_eq!(response.text, "Let me look.");
    let ids: Vec<&str> = response.calls.iter().map(|call| call.id.as_str()).collect();
    assert_eq!(ids, ["toolu_1", "toolu_2"]);
    assert_eq!(response.server_discovered, ["mcp__notes__list"]);
    assert_eq!(
        response.history,
        [json!({"role": "assistant", "content": body["content"]})]
    );
}

#[test]
fn anthropic_stream_cut_anywhere_assembles_the_message() {
    let expected: Value = serde_json::from_str(ANTHROPIC_MESSAGE).unwrap();
    for chunk in [1, 2, 3, 7, 64, usize::MAX] {
        let assembled = assemble(Api::Anthropic, ANTHROPIC_STREAM, chunk).unwrap();
        assert_eq!(assembled, expected, "chunks of {chunk} bytes");
    }
}

#[test]
fn a_streamed_message_keeps_the_input_and_cache_counts_of_message_start() {
    // `message_delta` sends the output count; the input and cache counts came with
    // `message_start` and stay, as in the message the non-streaming endpoint returns.
    let assembled = assemble(Api::Anthropic, ANTHROPIC_STREAM, usize::MAX).unwrap();
    assert_eq!(
        assembled["usage"],
        json!({"input_tokens": 10, "cache_creation_input_tokens": 0,
               "cache_read_input_tokens": 4, "output_tokens": 20})
    );
}

#[test]
fn anthropic_stream_without_message_stop_is_incomplete() {
    let cut = &ANTHROPIC_STREAM[..ANTHROPIC_STREAM.find("event: message_delta").unwrap()];
    let error = assemble(Api::Anthropic, cut, 16).unwrap_err();
    assert_eq!(
        error,
        StreamError::Incomplete {
            missing: "message_stop"
        }
    );
}

#[test]
fn an_error_event_is_the_apis_error() {
    let stream = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let error = assemble(Api::Anthropic, stream, 5).unwrap_err();
    assert_eq!(
        error,
        StreamError::Api {
            message: "Overloaded".into()
        }
    );
}

#[test]
fn partial_calls_say_what_the_arguments_say_so_far() {
    let cut = ANTHROPIC_STREAM.find("\"}\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":3}").unwrap();
    let mut assembler = StreamAssembler::new(Api::Anthropic);
    assembler.push(&ANTHROPIC_STREAM.as_bytes()[..cut]).unwrap();
    let calls = assembler.partial_calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name, "DeleteDraft");
    // `{"id": 7` so far: the number may go on, so it is not read yet.
    assert_eq!(calls[0].input, Some(json!({})));
}

#[test]
fn a_partial_call_whose_block_ended_has_its_whole_input() {
    let stop = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":3}\n\n";
    let cut = ANTHROPIC_STREAM.find(stop).unwrap() + stop.len();
    let mut assembler = StreamAssembler::new(Api::Anthropic);
    assembler.push(&ANTHROPIC_STREAM.as_bytes()[..cut]).unwrap();
    let calls = assembler.partial_calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].input, Some(json!({"id": 7})));
    // The same in the OpenAI APIs, once the stream has said the call is complete.
    let mut chat = StreamAssembler::new(Api::ChatCompletions);
    let end = CHAT_STREAM.find("data: [DONE]").unwrap();
    chat.push(&CHAT_STREAM.as_bytes()[..end]).unwrap();
    let inputs: Vec<Option<Value>> = chat.partial_calls().into_iter().map(|c| c.input).collect();
    assert_eq!(
        inputs,
        [Some(json!({"id": 3})), Some(json!({"query": "notes"}))]
    );
}

const CHAT_STREAM: &str = r#"data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"DeleteDraft","arguments":""}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"ToolSearch","arguments":"{\"query\":"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"id\": 3}"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":" \"notes\"}"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

"#;

#[test]
fn chat_stream_with_interleaved_parallel_calls_assembles_both() {
    for chunk in [1, 5, usize::MAX] {
        let body = assemble(Api::ChatCompletions, CHAT_STREAM, chunk).unwrap();
        let response = parse_response(Api::ChatCompletions, &body).unwrap();
        assert_eq!(response.stop, Stop::ToolUse);
        let calls: Vec<(&str, &str, Value)> = response
            .calls
            .iter()
            .map(|call| {
                (
                    call.id.as_str(),
                    call.name.as_str(),
                    call.input.clone().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            calls,
            [
                ("call_a", "DeleteDraft", json!({"id": 3})),
                ("call_b", "ToolSearch", json!({"query": "notes"})),
            ]
        );
    }
}

#[test]
fn chat_call_with_broken_arguments_is_answered_with_an_error_naming_the_problem() {
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    "role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "DeleteDraft", "arguments": "{\"id\": 1}"}},
        {"id": "call_2", "type": "function", "function": {"name": "DeleteDraft", "arguments": "{\"id\": 2,"}},
        {"id": "call_3", "type": "function", "function": {"name": "DeleteDraft", "arguments": "[3]"}},
    ]}}]});
    let response = parse_response(Api::ChatCompletions, &body).unwrap();
    let pool = pool(&json!([]));
    let dispatcher =
        dispatcher(pool.clone()).with_approver(Arc::new(|_: ApprovalRequest| async { true }));
    let turn = futures_executor(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
    let messages = answer(response.api, &turn, &pool, false).unwrap();
    let contents: Vec<(&str, &str)> = messages
        .iter()
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap(),
                m["content"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(contents[0], ("call_1", "deleted 1"));
    assert_eq!(contents[1].0, "call_2");
    assert!(
        contents[1].1.contains("not valid JSON"),
        "{}",
        contents[1].1
    );
    assert!(
        contents[2].1.contains("not a JSON object"),
        "{}",
        contents[2].1
    );
    // The assistant message kept for the history carries the calls as sent.
    assert_eq!(
        response.history[0]["tool_calls"][1]["function"]["arguments"],
        "{\"id\": 2,"
    );
}

#[test]
fn a_call_whose_id_an_unreadable_call_already_has_is_refused_without_running() {
    // Two answers with one id would answer one call twice and leave the other unanswered.
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    "role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "DeleteDraft", "arguments": "{\"id\": "}},
        {"id": "call_1", "type": "function", "function": {"name": "DeleteDraft", "arguments": "{\"id\": 1}"}},
    ]}}]});
    let response = parse_response(Api::ChatCompletions, &body).unwrap();
    let dispatcher =
        dispatcher(pool(&json!([]))).with_approver(Arc::new(|_: ApprovalRequest| async { true }));
    let turn = futures_executor(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
    assert_eq!(turn.results.len(), 2);
    assert!(
        matches!(
            turn.results[1].error,
            Some(DispatchError::DuplicateId { .. })
        ),
        "{:?}",
        turn.results[1]
    );
    assert!(!turn.results.iter().any(|result| result.called()));
}

fn futures_executor<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

const RESPONSES_STREAM: &str = r#"event: response.created
data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}

event: response.output_item.added
data: {"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"list","namespace":"mcp__notes","arguments":"","status":"in_progress"}}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","sequence_number":2,"output_index":0,"item_id":"fc_1","delta":"{\"folder\":"}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","sequence_number":3,"output_index":0,"item_id":"fc_1","delta":" \"inbox\"}"}

event: response.output_item.added
data: {"type":"response.output_item.added","sequence_number":4,"output_index":1,"item":{"type":"tool_search_call","id":"ts_1","call_id":"call_2","execution":"client","arguments":{"query":"delete"},"status":"completed"}}

event: response.completed
data: {"type":"response.completed","sequence_number":5,"response":{"id":"resp_1","object":"response","status":"completed","output":[]}}

"#;

#[test]
fn responses_stream_gives_namespaced_and_tool_search_calls() {
    let body = assemble(Api::Responses, RESPONSES_STREAM, 3).unwrap();
    let response = parse_response(Api::Responses, &body).unwrap();
    assert_eq!(response.stop, Stop::ToolUse);
    let names: Vec<&str> = response
        .calls
        .iter()
        .map(|call| call.name.as_str())
        .collect();
    assert_eq!(names, ["mcp__notes__list", "ToolSearch"]);
    assert_eq!(response.calls[0].input, Ok(json!({"folder": "inbox"})));
    assert_eq!(response.calls[1].input, Ok(json!({"query": "delete"})));
}

#[test]
fn responses_answers_are_function_call_outputs_and_a_tool_search_output() {
    let listed = json!([{"name": "list", "description": "List notes", "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": true}}]);
    let pool = pool(&listed);
    let body = json!({"status": "completed", "output": [
        {"type": "tool_search_call", "id": "ts_1", "call_id": "call_s", "execution": "client",
         "arguments": {"query": "select:mcp__notes__list"}, "status": "completed"},
        {"type": "function_call", "id": "fc_1", "call_id": "call_m", "name": "list",
         "namespace": "mcp__notes", "arguments": "{}", "status": "completed"},
    ]});
    let response = parse_response(Api::Responses, &body).unwrap();
    let served = Arc::new(AtomicUsize::new(0));
    let count = served.clone();
    let mcp = move |request: McpRequest| {
        let count = count.clone();
        async move {
            count.fetch_add(1, Ordering::SeqCst);
            Ok(ToolOutput::Text(format!(
                "{}/{}",
                request.server, request.tool
            )))
        }
    };
    let dispatcher = dispatcher(pool.clone()).with_mcp(Arc::new(mcp));
    let turn = futures_executor(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
    let items = answer(response.api, &turn, &pool, false).unwrap();
    assert_eq!(items[0]["type"], "tool_search_output");
    assert_eq!(items[0]["call_id"], "call_s");
    assert_eq!(
        items[1],
        json!({"type": "function_call_output", "call_id": "call_m", "output": "notes/list"})
    );
    assert_eq!(served.load(Ordering::SeqCst), 1);
}

#[test]
fn an_approver_closure_decides_a_destructive_call() {
    let body: Value = serde_json::from_str(ANTHROPIC_MESSAGE).unwrap();
    let response = parse_response(Api::Anthropic, &body).unwrap();
    let pool = pool(&json!([]));
    for (answer, expected) in [(true, "deleted 7"), (false, "did not allow")] {
        let asked = Arc::new(AtomicUsize::new(0));
        let seen = asked.clone();
        let approver = move |request: ApprovalRequest| {
            assert_eq!(
                (request.tool.name.as_str(), request.tool_use_id.as_str()),
                ("DeleteDraft", "toolu_1")
            );
            seen.fetch_add(1, Ordering::SeqCst);
            async move { answer }
        };
        let dispatcher = dispatcher(pool.clone()).with_approver(Arc::new(approver));
        let turn = futures_executor(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
        let message = toolreg::wire::answer(response.api, &turn, &pool, false).unwrap();
        let text = message[0]["content"][0]["content"].to_string();
        assert!(text.contains(expected), "{text}");
        assert_eq!(asked.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn a_cancelled_turn_answers_every_call_once_in_order() {
    let body: Value = serde_json::from_str(ANTHROPIC_MESSAGE).unwrap();
    let response = parse_response(Api::Anthropic, &body).unwrap();
    let message = tool_results(&Turn::cancelled(&response.calls));
    let ids: Vec<&str> = message["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| block["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["toolu_1", "toolu_2"]);
}

#[test]
fn a_response_without_its_apis_shape_names_the_path() {
    let error = parse_response(
        Api::Anthropic,
        &json!({"content": [{"type": "tool_use", "name": "X"}]}),
    )
    .unwrap_err();
    assert_eq!(error.path, "content[0].id");
    let error = parse_response(Api::ChatCompletions, &json!({"choices": []})).unwrap_err();
    assert_eq!(error.path, "choices");
}

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "[a-z\"\\\\é😀 ]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z\"]{1,4}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// Whether `part` is what `whole` says so far: the same scalar or string prefix, an array's
/// first elements (the last possibly partial), an object's members (one possibly partial).
fn is_partial_of(part: &Value, whole: &Value) -> bool {
    match (part, whole) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| is_partial_of(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(key, x)| b.get(key).is_some_and(|y| is_partial_of(x, y))),
        (a, b) => a == b,
    }
}

proptest! {
    #[test]
    fn every_prefix_reads_as_part_of_the_whole(value in json_value(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
        for (end, _) in text.char_indices().chain([(text.len(), ' ')]) {
            if let Some(part) = partial_json(&text[..end]) {
                prop_assert!(is_partial_of(&part, &value), "{:?} of {}", part, text);
            }
        }
        if value.is_object() || value.is_array() || value.is_string() {
            prop_assert_eq!(partial_json(&text), Some(value));
        }
    }
}

/// The recorded responses under `tests/data/responses`: each stream assembles into its
/// non-streamed body (Chat Completions' `annotations`, which its stream leaves out, aside).
#[test]
fn recorded_streams_assemble_into_their_recorded_bodies() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/responses");
    for (api, name) in [
        (Api::Anthropic, "anthropic"),
        (Api::ChatCompletions, "chat"),
        (Api::Responses, "responses"),
    ] {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}/{name}.{ext}")).unwrap();
        let mut expected: Value = serde_json::from_str(&read("json")).unwrap();
        if let Some(message) = expected
            .pointer_mut("/choices/0/message")
            .and_then(Value::as_object_mut)
        {
            message.remove("annotations");
        }
        for chunk in [1, 13, usize::MAX] {
            let assembled = assemble(api, &read("sse"), chunk).unwrap();
            assert_eq!(assembled, expected, "{name}, chunks of {chunk}");
        }
        let response = parse_response(api, &expected).unwrap();
        assert!(response.calls.len() >= 2, "{name}");
    }
}
