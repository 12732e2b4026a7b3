//! What the loop costs per turn besides the model and the tools: reading a response (plain, and
//! assembled from its stream), answering its calls in the API's form, and rendering the next
//! request of a conversation over the 11 captured MCP servers' tools (139 tools, deferred, with
//! ToolSearch), with and without tool changes.
//!
//! `cargo bench -p toolreg --bench conversation`

use std::hint::black_box;
use std::time::Duration;

use serde_json::{Value, json};
use toolreg::conversation::Conversation;
use toolreg::dispatch::CallTiming;
use toolreg::mcp::load_servers;
use toolreg::wire::{Api, StreamAssembler, parse_response};
use toolreg::{
    Catalog, Env, PermissionContext, Pool, RenderOptions, ToolOutput, ToolResult, Turn,
    assemble_tool_pool, builtins,
};

fn main() {
    divan::main();
}

fn pool() -> Pool {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/mcp-fixtures");
    let mut lists = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let server = path.file_stem().unwrap().to_string_lossy().into_owned();
        let list: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        lists.push((server, list));
    }
    lists.sort_by(|a, b| a.0.cmp(&b.0));
    let mcp = load_servers(lists.iter().map(|(server, list)| (server.as_str(), list)));
    let (env, rules) = (Env::default(), PermissionContext::new());
    assemble_tool_pool(
        &env,
        &rules,
        &Catalog::new(builtins().unwrap(), &[]),
        &mcp.tools,
    )
}

/// A response with text and three calls, as the Messages API sends it.
fn anthropic_response() -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
        "content": [
            {"type": "text", "text": "Let me look at the repository first."},
            {"type": "tool_use", "id": "toolu_1", "name": "mcp__git__git_status", "input": {"repo_path": "/src/app"}},
            {"type": "tool_use", "id": "toolu_2", "name": "mcp__git__git_log", "input": {"repo_path": "/src/app", "max_count": 10}},
            {"type": "tool_use", "id": "toolu_3", "name": "ToolSearch", "input": {"query": "select:mcp__github__create_issue"}},
        ],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 1000, "output_tokens": 100}})
}

/// The same response as the Messages API streams it, its inputs in small pieces.
fn anthropic_stream() -> String {
    let body = anthropic_response();
    let mut out = String::new();
    let mut event = |data: Value| out.push_str(&format!("event: x\ndata: {data}\n\n"));
    let mut start = body.clone();
    start["content"] = json!([]);
    event(json!({"type": "message_start", "message": start}));
    for (index, block) in body["content"].as_array().unwrap().iter().enumerate() {
        let mut first = block.clone();
        if block["type"] == "text" {
            first["text"] = "".into();
            event(json!({"type": "content_block_start", "index": index, "content_block": first}));
            for word in block["text"].as_str().unwrap().split_inclusive(' ') {
                event(
                    json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": word}}),
                );
            }
        } else {
            first["input"] = json!({});
            event(json!({"type": "content_block_start", "index": index, "content_block": first}));
            let text = block["input"].to_string();
            for piece in text.as_bytes().chunks(8) {
                let piece = std::str::from_utf8(piece).unwrap();
                event(
                    json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}),
                );
            }
        }
        event(json!({"type": "content_block_stop", "index": index}));
    }
    event(
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 100}}),
    );
    event(json!({"type": "message_stop"}));
    out
}

/// The same calls as a Chat Completions response.
fn chat_response() -> Value {
    let calls: Vec<Value> = anthropic_response()["content"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|block| {
            json!({"id": block["id"], "type": "function",
            "function": {"name": block["name"], "arguments": block["input"].to_string()}})
        })
        .collect();
    json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": "Let me look at the repository first.", "tool_calls": calls}}]})
}

#[divan::bench]
fn parse_anthropic(bencher: divan::Bencher) {
    let body = anthropic_response();
    bencher.bench(|| parse_response(Api::Anthropic, black_box(&body)).unwrap());
}

#[divan::bench]
fn parse_chat(bencher: divan::Bencher) {
    let body = chat_response();
    bencher.bench(|| parse_response(Api::ChatCompletions, black_box(&body)).unwrap());
}

#[divan::bench]
fn assemble_anthropic_stream(bencher: divan::Bencher) {
    let stream = anthropic_stream();
    bencher.bench(|| {
        let mut assembler = StreamAssembler::new(Api::Anthropic);
        for chunk in black_box(&stream).as_bytes().chunks(1024) {
            assembler.push(chunk).unwrap();
        }
        assembler.finish().unwrap()
    });
}

fn turn_for(response: &toolreg::wire::ModelResponse) -> Turn {
    Turn {
        results: response
            .calls
            .iter()
            .map(|call| ToolResult {
                tool_use_id: call.id.clone(),
                tool: call.name.clone(),
                content: ToolOutput::Text("On branch main\nnothing to commit".into()),
                error: None,
            })
            .collect(),
        timings: vec![
            CallTiming {
                started: None,
                finished: Duration::ZERO
            };
            response.calls.len()
        ],
    }
}

#[divan::bench]
fn answer_chat(bencher: divan::Bencher) {
    let pool = pool();
    let response = parse_response(Api::ChatCompletions, &chat_response()).unwrap();
    let turn = turn_for(&response);
    bencher.bench(|| {
        let response = black_box(&response);
        toolreg::wire::answer(response.api, &turn, &pool, false).unwrap()
    });
}

/// One turn of a conversation ten turns long: read the response, answer its calls, render the
/// next request.
#[divan::bench(args = [false, true])]
fn conversation_turn(bencher: divan::Bencher, tool_changes: bool) {
    let pool = pool();
    let env = Env::default();
    let body = anthropic_response();
    let options = RenderOptions {
        tool_search: true,
        ..Default::default()
    };
    bencher
        .with_inputs(|| {
            let mut conversation =
                Conversation::anthropic(options.clone()).with_tool_changes(tool_changes);
            conversation.push_user("Look at the repository.");
            for _ in 0..9 {
                conversation.request(&env, &pool).unwrap();
                let response = conversation.receive(&body).unwrap();
                conversation
                    .answer(&response, &turn_for(&response), &pool)
                    .unwrap();
            }
            conversation.request(&env, &pool).unwrap();
            conversation
        })
        .bench_local_values(|mut conversation| {
            let response = conversation.receive(black_box(&body)).unwrap();
            conversation
                .answer(&response, &turn_for(&response), &pool)
                .unwrap();
            conversation.request(&env, &pool).unwrap()
        });
}
