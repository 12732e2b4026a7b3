//! The agent binary against a local server on 127.0.0.1 that replays a model's responses for
//! each API (plain JSON, or streamed as the API streams it): the recorded responses of
//! `tests/data/responses`, and scripted turns with parallel calls, a tool search, an argument the
//! model got wrong, a call the user approves on the terminal. Every request the
//! agent sends is checked: the previous response's calls answered once each, in order, by id.
//! Nothing leaves the machine.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Api {
    Anthropic,
    Chat,
    Responses,
}

/// One model turn, said the same way in every API: text and calls `(id, name, arguments)`
/// (the arguments as the model wrote them, which may not be JSON).
struct Said {
    text: &'static str,
    calls: Vec<(&'static str, &'static str, &'static str)>,
}

/// The response `api` returns for `said`.
fn response(api: Api, said: &Said) -> Value {
    let stop = !said.calls.is_empty();
    match api {
        Api::Anthropic => {
            let mut content = Vec::new();
            if !said.text.is_empty() {
                content.push(json!({"type": "text", "text": said.text}));
            }
            for (id, name, arguments) in &said.calls {
                let input: Value = serde_json::from_str(arguments).unwrap();
                content.push(json!({"type": "tool_use", "id": id, "name": name, "input": input}));
            }
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": content, "stop_reason": if stop { "tool_use" } else { "end_turn" },
                "stop_sequence": null, "usage": {"input_tokens": 100, "output_tokens": 20,
                "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}})
        }
        Api::Chat => {
            let calls: Vec<Value> = said
                .calls
                .iter()
                .map(|(id, name, arguments)| {
                    json!(
                {"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
                })
                .collect();
            let mut message = json!({"role": "assistant", "content": if said.text.is_empty() { Value::Null } else { said.text.into() }, "refusal": null});
            if stop {
                message["tool_calls"] = Value::Array(calls);
            }
            json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-5.4",
                "choices": [{"index": 0, "message": message, "logprobs": null,
                "finish_reason": if stop { "tool_calls" } else { "stop" }}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})
        }
        Api::Responses => {
            let mut output = Vec::new();
            if !said.text.is_empty() {
                output.push(json!({"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": said.text, "annotations": []}]}));
            }
            for (index, (id, name, arguments)) in said.calls.iter().enumerate() {
                output.push(if *name == "ToolSearch" {
                    let arguments: Value = serde_json::from_str(arguments).unwrap();
                    json!({"type": "tool_search_call", "id": format!("ts_{index}"), "call_id": id,
                        "execution": "client", "arguments": arguments, "status": "completed"})
                } else {
                    json!({"type": "function_call", "id": format!("fc_{index}"), "call_id": id,
                        "name": name, "arguments": arguments, "status": "completed"})
                });
            }
            json!({"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5.4",
                "status": "completed", "output": output})
        }
    }
}

/// `body` as `api` streams it, in server-sent events.
fn stream(api: Api, body: &Value) -> String {
    let mut out = String::new();
    let mut event = |name: Option<&str>, data: Value| {
        if let Some(name) = name {
            out.push_str(&format!("event: {name}\n"));
        }
        out.push_str(&format!("data: {data}\n\n"));
    };
    match api {
        Api::Anthropic => {
            let mut start = body.clone();
            start["content"] = json!([]);
            start["stop_reason"] = Value::Null;
            event(
                Some("message_start"),
                json!({"type": "message_start", "message": start}),
            );
            event(Some("ping"), json!({"type": "ping"}));
            for (index, block) in body["content"].as_array().unwrap().iter().enumerate() {
                let mut first = block.clone();
                let deltas: Vec<Value> = match block["type"].as_str() {
                    Some("text") => {
                        first["text"] = "".into();
                        let text = block["text"].as_str().unwrap();
                        let (a, b) = text.split_at(text.len() / 2);
                        [a, b]
                            .iter()
                            .map(|part| json!({"type": "text_delta", "text": part}))
                            .collect()
                    }
                    _ => {
                        first["input"] = json!({});
                        let text = block["input"].to_string();
                        let (a, b) = text.split_at(text.len() / 2);
                        [a, b]
                            .iter()
                            .map(|part| json!({"type": "input_json_delta", "partial_json": part}))
                            .collect()
                    }
                };
                event(
                    Some("content_block_start"),
                    json!({"type": "content_block_start", "index": index, "content_block": first}),
                );
                for delta in deltas {
                    event(
                        Some("content_block_delta"),
                        json!({"type": "content_block_delta", "index": index, "delta": delta}),
                    );
                }
                event(
                    Some("content_block_stop"),
                    json!({"type": "content_block_stop", "index": index}),
                );
            }
            event(
                Some("message_delta"),
                json!({"type": "message_delta", "delta": {"stop_reason": body["stop_reason"], "stop_sequence": null}, "usage": {"output_tokens": 20}}),
            );
            event(Some("message_stop"), json!({"type": "message_stop"}));
        }
        Api::Chat => {
            let message = &body["choices"][0]["message"];
            let chunk = |delta: Value, finish: Value| {
                json!({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                "created": 1, "model": "gpt-5.4", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
            };
            event(
                None,
                chunk(json!({"role": "assistant", "content": ""}), Value::Null),
            );
            if let Some(text) = message["content"].as_str() {
                event(None, chunk(json!({"content": text}), Value::Null));
            }
            for (index, call) in message["tool_calls"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                let arguments = call["function"]["arguments"].as_str().unwrap();
                let (a, b) = arguments.split_at(arguments.len() / 2);
                event(
                    None,
                    chunk(
                        json!({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                    "function": {"name": call["function"]["name"], "arguments": a}}]}),
                        Value::Null,
                    ),
                );
                event(
                    None,
                    chunk(
                        json!({"tool_calls": [{"index": index, "function": {"arguments": b}}]}),
                        Value::Null,
                    ),
                );
            }
            event(
                None,
                chunk(json!({}), body["choices"][0]["finish_reason"].clone()),
            );
            out.push_str("data: [DONE]\n\n");
        }
        Api::Responses => {
            let mut created = body.clone();
            created["status"] = "in_progress".into();
            created["output"] = json!([]);
            event(
                Some("response.created"),
                json!({"type": "response.created", "sequence_number": 0, "response": created}),
            );
            for (index, item) in body["output"].as_array().unwrap().iter().enumerate() {
                let mut added = item.clone();
                if item["type"] == "function_call" {
                    added["arguments"] = "".into();
                    added["status"] = "in_progress".into();
                }
                event(
                    Some("response.output_item.added"),
                    json!({"type": "response.output_item.added", "output_index": index, "item": added}),
                );
                if let Some(arguments) = item["arguments"].as_str() {
                    let (a, b) = arguments.split_at(arguments.len() / 2);
                    for part in [a, b] {
                        event(
                            Some("response.function_call_arguments.delta"),
                            json!({"type": "response.function_call_arguments.delta", "output_index": index, "item_id": item["id"], "delta": part}),
                        );
                    }
                }
                event(
                    Some("response.output_item.done"),
                    json!({"type": "response.output_item.done", "output_index": index, "item": item}),
                );
            }
            event(
                Some("response.completed"),
                json!({"type": "response.completed", "response": body}),
            );
        }
    }
    out
}

/// A server that answers the n-th request with the n-th response and keeps every request.
struct Replay {
    address: SocketAddr,
    requests: Arc<Mutex<Vec<(String, Value)>>>,
    _runtime: tokio::runtime::Runtime,
}

/// The replies for `turns`, plain or streamed.
fn replies(api: Api, turns: &[Said], streamed: bool) -> Vec<(String, &'static str)> {
    turns
        .iter()
        .map(|said| {
            let body = response(api, said);
            if streamed {
                (stream(api, &body), "text/event-stream")
            } else {
                (body.to_string(), "application/json")
            }
        })
        .collect()
}

fn replay(replies: Vec<(String, &'static str)>) -> Replay {
    let replies = Arc::new(replies);
    let requests: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let address = listener.local_addr().unwrap();
    let seen = requests.clone();
    runtime.spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let (replies, seen) = (replies.clone(), seen.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let (replies, seen) = (replies.clone(), seen.clone());
                    async move {
                        let path = request.uri().path().to_owned();
                        let body = request.into_body().collect().await.unwrap().to_bytes();
                        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                        let index = {
                            let mut seen = seen.lock().unwrap();
                            seen.push((path, body));
                            seen.len() - 1
                        };
                        let (text, kind) = replies
                            .get(index)
                            .cloned()
                            .unwrap_or_else(|| ("{}".into(), "application/json"));
                        Ok::<_, Infallible>(
                            Response::builder()
                                .header("content-type", kind)
                                .body(Full::new(Bytes::from(text)))
                                .unwrap(),
                        )
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(socket), service)
                    .await;
            });
        }
    });
    Replay {
        address,
        requests,
        _runtime: runtime,
    }
}

/// Runs the agent against `turns`; returns its stdout and the requests it sent.
fn run_agent(
    api: Api,
    turns: &[Said],
    streamed: bool,
    stdin: &str,
) -> (String, Vec<(String, Value)>) {
    run_agent_on(api, replies(api, turns, streamed), streamed, stdin)
}

/// Runs the agent against these replies.
fn run_agent_on(
    api: Api,
    replies: Vec<(String, &'static str)>,
    streamed: bool,
    stdin: &str,
) -> (String, Vec<(String, Value)>) {
    let server = replay(replies);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "beta\n").unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"demo\"\n",
    )
    .unwrap();
    let base = format!("http://{}", server.address);
    let mut command = Command::new(env!("CARGO_BIN_EXE_agent"));
    command
        .current_dir(dir.path())
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("ANTHROPIC_BASE_URL", &base)
        .env("OPENAI_API_KEY", "test-key")
        .env("OPENAI_BASE_URL", format!("{base}/v1"))
        .env("ENABLE_TOOL_SEARCH", "true")
        .args([
            "--api",
            match api {
                Api::Anthropic => "anthropic",
                Api::Chat => "openai",
                Api::Responses => "openai-responses",
            },
        ])
        .arg("Look at the text files.")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if streamed {
        command.arg("--stream");
    }
    let mut child = command.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), stdin.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let requests = server.requests.lock().unwrap().clone();
    (String::from_utf8(output.stdout).unwrap(), requests)
}

/// The history a request sends.
fn history(api: Api, body: &Value) -> &Vec<Value> {
    body[if api == Api::Responses {
        "input"
    } else {
        "messages"
    }]
    .as_array()
    .unwrap()
}

/// Checks each request after the first: it answers every call of the response before it, once,
/// in order, with the same ids; returns the answers' texts by call id, in order.
fn answers(api: Api, turns: &[Said], requests: &[(String, Value)]) -> Vec<(String, String)> {
    let path = match api {
        Api::Anthropic => "/v1/messages",
        Api::Chat => "/v1/chat/completions",
        Api::Responses => "/v1/responses",
    };
    assert_eq!(requests.len(), turns.len());
    let mut out = Vec::new();
    for (index, (seen_path, body)) in requests.iter().enumerate() {
        assert_eq!(seen_path, path);
        assert!(
            body["tools"].is_array() && body["model"].is_string(),
            "{body}"
        );
        let Some(previous) = index.checked_sub(1).map(|at| &turns[at]) else {
            continue;
        };
        let ids: Vec<&str> = previous.calls.iter().map(|(id, _, _)| *id).collect();
        let history = history(api, body);
        let answered: Vec<(String, String)> = match api {
            Api::Anthropic => history.last().unwrap()["content"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|block| block["type"] == "tool_result")
                .map(|block| {
                    (
                        block["tool_use_id"].as_str().unwrap().to_owned(),
                        block["content"].to_string(),
                    )
                })
                .collect(),
            Api::Chat => history
                .iter()
                .rev()
                .take_while(|message| message["role"] == "tool")
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .map(|message| {
                    (
                        message["tool_call_id"].as_str().unwrap().to_owned(),
                        message["content"].to_string(),
                    )
                })
                .collect(),
            Api::Responses => history
                .iter()
                .rev()
                .take_while(|item| {
                    item["type"] == "function_call_output" || item["type"] == "tool_search_output"
                })
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .map(|item| {
                    (
                        item["call_id"].as_str().unwrap().to_owned(),
                        item.get("output")
                            .or(item.get("tools"))
                            .unwrap()
                            .to_string(),
                    )
                })
                .collect(),
        };
        let answered_ids: Vec<&str> = answered.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(answered_ids, ids, "request {index} of {api:?}");
        out.extend(answered);
    }
    out
}

const APIS: [Api; 3] = [Api::Anthropic, Api::Chat, Api::Responses];

#[test]
fn parallel_calls_are_run_and_answered_in_order_for_every_api_streamed_or_not() {
    for api in APIS {
        for streamed in [false, true] {
            let turns = [
                Said {
                    text: "Reading both.",
                    calls: vec![
                        ("call_1", "Read", r#"{"file_path": "a.txt"}"#),
                        ("call_2", "Glob", r#"{"pattern": "*.txt"}"#),
                    ],
                },
                Said {
                    text: "Both files are short.",
                    calls: vec![],
                },
            ];
            let (stdout, requests) = run_agent(api, &turns, streamed, "");
            assert!(stdout.contains("Both files are short."), "{stdout}");
            let answers = answers(api, &turns, &requests);
            assert!(answers[0].1.contains("alpha"), "{api:?}: {}", answers[0].1);
            assert!(answers[1].1.contains("b.txt"), "{api:?}: {}", answers[1].1);
        }
    }
}

#[test]
fn a_tool_search_loads_a_deferred_tool_for_the_next_request() {
    for api in APIS {
        let turns = [
            Said {
                text: "",
                calls: vec![("call_1", "ToolSearch", r#"{"query": "select:TodoWrite"}"#)],
            },
            Said {
                text: "",
                calls: vec![(
                    "call_2",
                    "TodoWrite",
                    r#"{"todos": [{"content": "Read a.txt", "status": "pending", "activeForm": "Reading a.txt"}]}"#,
                )],
            },
            Said {
                text: "Planned.",
                calls: vec![],
            },
        ];
        let (stdout, requests) = run_agent(api, &turns, api == Api::Responses, "");
        assert!(stdout.contains("Planned."), "{stdout}");
        let first = &requests[0].1;
        let loaded =
            |body: &Value| {
                body["tools"].as_array().unwrap().iter().any(|tool| {
                    tool["name"] == "TodoWrite" || tool["function"]["name"] == "TodoWrite"
                })
            };
        assert!(!loaded(first), "{api:?}: TodoWrite is deferred at first");
        let answers = answers(api, &turns, &requests);
        match api {
            // Responses carries the loaded definition in the tool_search_output instead.
            Api::Responses => assert!(answers[0].1.contains("TodoWrite"), "{}", answers[0].1),
            _ => assert!(
                loaded(&requests[1].1),
                "{api:?}: TodoWrite loaded after the search"
            ),
        }
        assert!(!answers[1].1.contains("rror"), "{api:?}: {}", answers[1].1);
    }
}

#[test]
fn arguments_the_model_got_wrong_get_an_error_result_and_the_loop_goes_on() {
    for api in [Api::Chat, Api::Responses] {
        for streamed in [false, true] {
            let turns = [
                Said {
                    text: "",
                    calls: vec![("call_1", "Read", r#"{"file_path": "a.txt""#)],
                },
                Said {
                    text: "I will fix that.",
                    calls: vec![],
                },
            ];
            let (stdout, requests) = run_agent(api, &turns, streamed, "");
            assert!(stdout.contains("I will fix that."));
            let answers = answers(api, &turns, &requests);
            assert!(
                answers[0].1.contains("not valid JSON"),
                "{api:?}: {}",
                answers[0].1
            );
        }
    }
}

#[test]
fn a_call_that_asks_runs_only_when_the_user_says_yes() {
    for api in APIS {
        for (answer, ran) in [("y\n", true), ("n\n", false)] {
            let turns = [
                Said {
                    text: "",
                    calls: vec![(
                        "call_1",
                        "Write",
                        r#"{"file_path": "c.txt", "content": "gamma\n"}"#,
                    )],
                },
                Said {
                    text: "Done.",
                    calls: vec![],
                },
            ];
            let (_, requests) = run_agent(api, &turns, false, answer);
            let answers = answers(api, &turns, &requests);
            assert_eq!(
                !answers[0].1.contains("did not allow"),
                ran,
                "{api:?} {answer:?}: {}",
                answers[0].1
            );
        }
    }
}

/// The recorded responses of `tests/data/responses` (each API's documented form, with text,
/// parallel calls and a tool search), as sent and as streamed, then a final answer.
#[test]
fn the_recorded_responses_of_each_api_replay_through_the_agent() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/responses");
    for (api, name) in [
        (Api::Anthropic, "anthropic"),
        (Api::Chat, "chat"),
        (Api::Responses, "responses"),
    ] {
        for streamed in [false, true] {
            let (ext, kind) = if streamed {
                ("sse", "text/event-stream")
            } else {
                ("json", "application/json")
            };
            let recorded = std::fs::read_to_string(format!("{data}/{name}.{ext}")).unwrap();
            let recorded_body: Value = serde_json::from_str(
                &std::fs::read_to_string(format!("{data}/{name}.json")).unwrap(),
            )
            .unwrap();
            let last = replies(
                api,
                &[Said {
                    text: "Cargo.toml names the package.",
                    calls: vec![],
                }],
                streamed,
            );
            let mut all = vec![(recorded, kind)];
            all.extend(last);
            let (stdout, requests) = run_agent_on(api, all, streamed, "");
            assert!(
                stdout.contains("Cargo.toml names the package."),
                "{name}: {stdout}"
            );
            // The second request answers every call of the recorded response, in order.
            let ids: Vec<String> = match api {
                Api::Anthropic => recorded_body["content"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|block| block["type"] == "tool_use")
                    .map(|block| block["id"].as_str().unwrap().to_owned())
                    .collect(),
                Api::Chat => recorded_body["choices"][0]["message"]["tool_calls"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|call| call["id"].as_str().unwrap().to_owned())
                    .collect(),
                Api::Responses => recorded_body["output"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|item| {
                        item["type"] == "function_call" || item["type"] == "tool_search_call"
                    })
                    .map(|item| item["call_id"].as_str().unwrap().to_owned())
                    .collect(),
            };
            let history = history(api, &requests[1].1);
            let answered: Vec<String> = match api {
                Api::Anthropic => history.last().unwrap()["content"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|block| block["type"] == "tool_result")
                    .map(|block| block["tool_use_id"].as_str().unwrap().to_owned())
                    .collect(),
                Api::Chat => history
                    .iter()
                    .filter(|message| message["role"] == "tool")
                    .map(|message| message["tool_call_id"].as_str().unwrap().to_owned())
                    .collect(),
                Api::Responses => history
                    .iter()
                    .filter(|item| {
                        item["type"] == "function_call_output"
                            || item["type"] == "tool_search_output"
                    })
                    .map(|item| item["call_id"].as_str().unwrap().to_owned())
                    .collect(),
            };
            assert_eq!(answered, ids, "{name}, streamed: {streamed}");
        }
    }
}

/// Ctrl-C during a turn stops the running tool (and every process it started) and ends the run.
#[test]
fn ctrl_c_cancels_the_running_turn_and_leaves_no_process() {
    let marker = "sleep 31.4159";
    let turns = [
        Said {
            text: "",
            calls: vec![("call_1", "Bash", r#"{"command": "sleep 31.4159"}"#)],
        },
        Said {
            text: "Never reached.",
            calls: vec![],
        },
    ];
    let server = replay(replies(Api::Anthropic, &turns, false));
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent"))
        .current_dir(dir.path())
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("ANTHROPIC_BASE_URL", format!("http://{}", server.address))
        .args(["--yes", "Wait."])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let running = || {
        Command::new("pgrep")
            .args(["-f", marker])
            .output()
            .is_ok_and(|out| out.status.success())
    };
    // Wait (without a deadline: the machine may be slow) for the tool's process to start.
    while !running() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the agent ended before running the tool"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("cancelled"),
        "{stderr}"
    );
    assert!(!running(), "the tool's process outlived the cancelled turn");
    assert_eq!(
        server.requests.lock().unwrap().len(),
        1,
        "no request after the cancelled turn"
    );
}
