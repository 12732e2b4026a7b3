//! `turn`: an assistant message's tool calls through the binary.

use super::*;

fn turn_file(dir: &Path, blocks: &Value) -> PathBuf {
    let path = dir.join("turn.json");
    std::fs::write(&path, blocks.to_string()).unwrap();
    path
}

fn tool_use(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

#[test]
fn turn_prints_the_user_message_with_results_in_the_blocks_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
    let message = json!({"role": "assistant", "content": [
        {"type": "text", "text": "Let me look."},
        tool_use("t1", "Read", json!({"file_path": "a.txt"})),
        tool_use("t2", "Glob", json!({"pattern": "*.txt"})),
        tool_use("t3", "Nope", json!({})),
    ]});
    let file = turn_file(dir.path(), &message);
    let output = toolreg()
        .current_dir(dir.path())
        .args(["turn", file.to_str().unwrap(), "--stats"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reply: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(reply["role"], "user");
    let results = reply["content"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t1", "t2", "t3"]);
    assert!(results[0]["content"].as_str().unwrap().contains("alpha"));
    assert_eq!(results[2]["is_error"], true);
    let stats: Value = serde_json::from_slice(&output.stderr).unwrap();
    let calls = stats["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 3);
    assert!(
        calls
            .iter()
            .all(|c| c["start_ms"].is_number() && c["end_ms"].is_number())
    );
}

#[test]
fn turn_timeout_stops_a_call_and_the_others_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let blocks = json!([
        tool_use("slow", "Bash", json!({"command": "sleep 30"})),
        tool_use("fast", "Glob", json!({"pattern": "*"})),
    ]);
    let file = turn_file(dir.path(), &blocks);
    let reply = json_of(toolreg().current_dir(dir.path()).args([
        "turn",
        file.to_str().unwrap(),
        "--timeout",
        "0.2",
    ]));
    let results = reply["content"].as_array().unwrap();
    assert_eq!(results[0]["is_error"], true);
    assert!(
        results[0]["content"]
            .as_str()
            .unwrap()
            .contains("did not finish within 200 ms"),
        "{reply}"
    );
    assert!(results[1].get("is_error").is_none(), "{reply}");
}

#[test]
fn turn_reads_standard_input_and_names_a_bad_block() {
    let dir = tempfile::tempdir().unwrap();
    let output = toolreg()
        .current_dir(dir.path())
        .args(["turn", "-"])
        .write_stdin(json!([{"type": "tool_use", "name": "Read"}]).to_string())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("-: the response's content[0].id: missing"),
        "{stderr}"
    );
}

#[test]
fn turn_reads_a_chat_completions_response_and_answers_with_tool_messages() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
    let response = json!({"id": "c1", "object": "chat.completion", "choices": [{
    "index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "Read", "arguments": "{\"file_path\": \"a.txt\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "Read", "arguments": "{\"file_path\": "}},
        ]}}]});
    let file = turn_file(dir.path(), &response);
    let messages = json_of(toolreg().current_dir(dir.path()).args([
        "turn",
        file.to_str().unwrap(),
        "--format",
        "openai",
    ]));
    assert_eq!(messages[0]["role"], "tool");
    assert_eq!(messages[0]["tool_call_id"], "call_1");
    assert!(messages[0]["content"].as_str().unwrap().contains("alpha"));
    assert_eq!(messages[1]["tool_call_id"], "call_2");
    assert!(
        messages[1]["content"]
            .as_str()
            .unwrap()
            .contains("not valid JSON")
    );
}

#[test]
fn turn_reads_responses_output_and_answers_a_client_tool_search() {
    let dir = tempfile::tempdir().unwrap();
    let output_items = json!([
        {"type": "tool_search_call", "id": "ts_1", "call_id": "call_s", "execution": "client",
         "status": "completed", "arguments": {"query": "select:mcp__tracker__create_issue"}},
        {"type": "function_call", "id": "fc_1", "call_id": "call_g", "name": "Glob",
         "arguments": "{\"pattern\": \"*.txt\"}", "status": "completed"},
    ]);
    let file = turn_file(dir.path(), &output_items);
    let items = json_of(
        toolreg()
            .current_dir(dir.path())
            .env("ENABLE_TOOL_SEARCH", "true")
            .args([
                "turn",
                file.to_str().unwrap(),
                "--format",
                "openai-responses",
            ]),
    );
    assert_eq!(items[0]["type"], "tool_search_output");
    assert_eq!(items[0]["call_id"], "call_s");
    assert_eq!(items[0]["tools"][0]["name"], "mcp__tracker__create_issue");
    assert_eq!(items[1]["type"], "function_call_output");
    assert_eq!(items[1]["call_id"], "call_g");
}
