//! `render`: the request per strategy and format, byte-identical across runs and locales.

use super::*;

// ---------------------------------------------------------------------------------------------
// render

/// The whole output: `{"headers": {...}, "body": {...}}`.
fn render_request(env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut command = toolreg();
    for (key, value) in env {
        command.env(key, value);
    }
    let request = json_of(command.arg("render").args(args));
    assert_eq!(
        keys(&request),
        ["body", "headers"].into(),
        "headers apart from the body"
    );
    request
}

/// The request body.
fn render(env: &[(&str, &str)], args: &[&str]) -> Value {
    render_request(env, args)["body"].take()
}

/// The messages besides the placeholder a request without a conversation carries.
fn messages_of(request: &Value) -> Vec<Value> {
    let messages = request
        .get("messages")
        .or_else(|| request.get("input"))
        .and_then(Value::as_array)
        .expect("messages or input");
    messages
        .iter()
        .filter(|message| message["content"] != "(the user's request)")
        .cloned()
        .collect()
}

fn tool_names_of(request: &Value) -> Vec<String> {
    names(request["tools"].as_array().expect("tools"))
}

fn deferred_and_loaded(tools: &[Value]) -> (Vec<String>, Vec<String>) {
    let (deferred, loaded): (Vec<&Value>, Vec<&Value>) =
        tools.iter().partition(|tool| tool["deferred"] == true);
    let names = |tools: Vec<&Value>| {
        tools
            .into_iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    (names(deferred), names(loaded))
}

fn defer_loading(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|tool| tool.get("defer_loading").is_some())
        .inspect(|tool| assert_eq!(tool["defer_loading"], true))
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect()
}

fn announcement(names: &[String]) -> String {
    let mut sorted = names.to_vec();
    sorted.sort();
    format!(
        "<available-deferred-tools>\n{}\n</available-deferred-tools>",
        sorted.join("\n")
    )
}

#[test]
fn render_default_is_a_json_request_with_tools() {
    let request = render(&[], &[]);
    assert_eq!(request["model"], "claude-sonnet-4-5");
    assert_eq!(request["max_tokens"], 4096);
    assert!(
        !request["messages"].as_array().unwrap().is_empty(),
        "a request needs a message"
    );
    assert!(
        request["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty())
    );
    for tool in request["tools"].as_array().unwrap() {
        assert!(tool["name"].is_string() && tool["description"].is_string());
        assert_eq!(tool["input_schema"]["type"], "object", "{}", tool["name"]);
    }
}

#[test]
fn render_with_tool_search_sends_loaded_tools_and_announces_the_deferred_ones() {
    let (deferred, loaded) = deferred_and_loaded(&list(&[]));
    assert!(loaded.contains(&"ToolSearch".to_owned()));
    let request = render(&[("ENABLE_TOOL_SEARCH", "true")], &[]);
    assert_eq!(tool_names_of(&request), loaded);
    assert!(
        tool_names_of(&request)
            .iter()
            .all(|name| !name.starts_with("mcp__"))
    );
    assert!(defer_loading(&request).is_empty());
    let messages = request["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");
    let content = messages[0]["content"].as_str().unwrap();
    assert!(content.starts_with("<available-deferred-tools>"));
    assert_eq!(content, announcement(&deferred));
    // A header, not a body field; tool search is generally available on the first-party API.
    assert!(request.get("betas").is_none());
    let headers = &render_request(&[("ENABLE_TOOL_SEARCH", "true")], &[])["headers"];
    assert_eq!(headers, &json!({}));
    let design = render_request(&[("ENABLE_TOOL_SEARCH", "true")], &["--betas", "profile"]);
    assert_eq!(
        design["headers"],
        json!({"anthropic-beta": "advanced-tool-use-2025-11-20"})
    );
    let bedrock = render_request(
        &[
            ("ENABLE_TOOL_SEARCH", "true"),
            ("CLAUDE_CODE_USE_BEDROCK", "1"),
        ],
        &[],
    );
    assert_eq!(
        bedrock["headers"],
        json!({"anthropic-beta": "tool-search-tool-2025-10-19"})
    );
}

#[test]
fn render_discovered_tool_is_sent_with_defer_loading_and_no_longer_announced() {
    const SEND: &str = "mcp__chat__send_message";
    let (deferred, loaded) = deferred_and_loaded(&list(&[]));
    let request = render(&[("ENABLE_TOOL_SEARCH", "true")], &["--discovered", SEND]);
    let mut expected = loaded;
    expected.push(SEND.to_owned());
    assert_eq!(tool_names_of(&request), expected);
    assert_eq!(defer_loading(&request), [SEND]);
    let rest: Vec<String> = deferred.into_iter().filter(|name| name != SEND).collect();
    assert_eq!(request["messages"][0]["content"], announcement(&rest));
}

#[test]
fn render_discovered_takes_a_comma_separated_list_with_spaces() {
    let env = [("ENABLE_TOOL_SEARCH", "true")];
    let spaced = render(
        &env,
        &[
            "--discovered",
            "mcp__chat__set_status, mcp__chat__send_message ,",
        ],
    );
    assert_eq!(
        defer_loading(&spaced),
        ["mcp__chat__send_message", "mcp__chat__set_status"]
    );
    let repeated = render(
        &env,
        &[
            "--discovered",
            "mcp__chat__send_message",
            "--discovered",
            "mcp__chat__set_status",
        ],
    );
    assert_eq!(spaced, repeated);
}

#[test]
fn render_all_deferred_sends_every_tool_marking_the_deferred_ones() {
    let tools = list(&[]);
    let (deferred, _) = deferred_and_loaded(&tools);
    let request = render(
        &[("ENABLE_TOOL_SEARCH", "true")],
        &["--strategy", "all-deferred"],
    );
    assert_eq!(tool_names_of(&request), names(&tools));
    assert_eq!(defer_loading(&request), deferred);
    assert!(messages_of(&request).is_empty(), "no announcement");
}

#[test]
fn render_without_tool_search_sends_everything_in_full() {
    let env = [("ENABLE_TOOL_SEARCH", "false")];
    let listed = json_of(
        toolreg()
            .env("ENABLE_TOOL_SEARCH", "false")
            .args(["list", "--json"]),
    );
    assert_eq!(listed["tool_search"]["mode"], "off");
    let tools = names(listed["tools"].as_array().unwrap());
    assert!(
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["deferred"] == false),
        "nothing is deferred when tool search is off"
    );
    let mut expected = list_names(&[]);
    expected.retain(|name| name != "ToolSearch");
    assert_eq!(tools, expected, "everything but ToolSearch");
    for args in [
        &["--strategy", "discovered"][..],
        &["--strategy", "all-deferred"],
        &["--discovered", "mcp__chat__send_message"],
    ] {
        let request = render(&env, args);
        assert_eq!(tool_names_of(&request), tools, "{args:?}");
        assert!(defer_loading(&request).is_empty(), "{args:?}");
        assert!(messages_of(&request).is_empty(), "{args:?}");
        assert_eq!(render_request(&env, args)["headers"], json!({}), "{args:?}");
    }
}

#[test]
fn render_openai_formats_are_function_tools_without_tool_search() {
    let expected: Vec<String> = list_names(&[])
        .into_iter()
        .filter(|name| name != "ToolSearch")
        .collect();
    let off = [("ENABLE_TOOL_SEARCH", "false")];
    let chat = render(&off, &["--format", "openai"]);
    assert_eq!(keys(&chat), ["messages", "model", "tools"].into());
    assert_eq!(chat["model"], "gpt-5.4");
    let chat_tools = chat["tools"].as_array().unwrap();
    let mut chat_names = Vec::new();
    for tool in chat_tools {
        assert_eq!(tool["type"], "function");
        assert_eq!(keys(tool), ["function", "type"].into());
        let function = &tool["function"];
        assert!(function["description"].is_string());
        assert_eq!(function["parameters"]["type"], "object");
        chat_names.push(function["name"].as_str().unwrap().to_owned());
    }
    assert_eq!(chat_names, expected);

    let responses = render(&off, &["--format", "openai-responses"]);
    assert_eq!(keys(&responses), ["input", "model", "tools"].into());
    let responses_tools = responses["tools"].as_array().unwrap();
    for (tool, chat_tool) in responses_tools.iter().zip(chat_tools) {
        assert_eq!(tool["type"], "function");
        assert!(tool.get("function").is_none());
        assert_eq!(tool["name"], chat_tool["function"]["name"]);
        assert_eq!(tool["description"], chat_tool["function"]["description"]);
        assert_eq!(tool["parameters"], chat_tool["function"]["parameters"]);
    }
    assert_eq!(names(responses_tools), expected);
}

#[test]
fn render_is_byte_identical_across_runs_and_locales() {
    let git = mcp_option("git", &fixture("git"));
    for args in [
        vec!["render"],
        vec!["render", "--strategy", "all-deferred"],
        vec!["--mcp", &git, "render", "--discovered", "mcp__git__git_log"],
        vec!["render", "--format", "openai"],
    ] {
        let run = |env: &[(&str, &str)]| {
            let mut command = toolreg();
            command.env_remove("LC_ALL").env_remove("LANG");
            for (key, value) in env {
                command.env(key, value);
            }
            stdout_of(command.args(&args))
        };
        let first = run(&[]);
        assert_eq!(first, run(&[]), "{args:?}: two runs");
        for variable in ["LC_ALL", "LANG"] {
            let c = run(&[(variable, "C")]);
            let turkish = run(&[(variable, "tr_TR.UTF-8")]);
            assert_eq!(c, first, "{args:?}: {variable}=C");
            assert_eq!(turkish, c, "{args:?}: {variable}=tr_TR.UTF-8");
        }
    }
}

fn with_fixtures<'a>(servers: &'a [String], args: &[&'a str]) -> Vec<&'a str> {
    servers
        .iter()
        .map(String::as_str)
        .chain(args.iter().copied())
        .collect()
}

#[test]
fn render_openai_chat_past_128_tools_is_refused_with_tool_search_off() {
    let servers = every_fixture();
    let args = with_fixtures(&servers, &["render", "--format", "openai"]);
    let stderr = failure_of(toolreg().env("ENABLE_TOOL_SEARCH", "false").args(&args));
    assert!(stderr.contains("at most 128 tools"), "{stderr}");
    assert!(stderr.contains("turn tool search on"), "{stderr}");
}

#[test]
fn render_openai_chat_with_tool_search_keeps_within_128_by_deferring() {
    let servers = every_fixture();
    let args = with_fixtures(&servers, &["render", "--format", "openai"]);
    let request = json_of(toolreg().env("ENABLE_TOOL_SEARCH", "true").args(&args));
    let tools = request["body"]["tools"].as_array().unwrap();
    assert!(tools.len() <= 128, "{} tools", tools.len());
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"ToolSearch"), "ToolSearch loads the rest");
    assert!(!names.iter().any(|name| name.starts_with("mcp__")));
    let announced = request["body"]["messages"][0]["content"].as_str().unwrap();
    assert!(
        announced.contains("mcp__github__create_issue"),
        "{announced}"
    );
}

#[test]
fn render_openai_responses_server_strategy_defers_behind_hosted_tool_search() {
    let request = render(
        &[("ENABLE_TOOL_SEARCH", "true")],
        &["--format", "openai-responses", "--strategy", "server"],
    );
    let tools = request["tools"].as_array().unwrap();
    let search: Vec<&Value> = tools
        .iter()
        .filter(|t| t["type"] == "tool_search")
        .collect();
    assert_eq!(
        search,
        [&json!({"type": "tool_search", "execution": "server"})]
    );
    assert!(tools.iter().any(|t| t["defer_loading"] == true));
    assert!(messages_of(&request).is_empty(), "the API announces them");
}

#[test]
fn render_server_bm25_sends_the_api_search_tool_and_every_tool() {
    let tools = list(&[]);
    let (deferred, _) = deferred_and_loaded(&tools);
    let request = render(
        &[("ENABLE_TOOL_SEARCH", "true")],
        &["--strategy", "server-bm25"],
    );
    let expected: Vec<String> = names(&tools)
        .into_iter()
        .map(|name| match name.as_str() {
            "ToolSearch" => "tool_search_tool_bm25".to_owned(),
            _ => name,
        })
        .collect();
    assert_eq!(tool_names_of(&request), expected);
    assert_eq!(defer_loading(&request), deferred);
    assert!(messages_of(&request).is_empty());
}

#[test]
fn render_strategy_of_another_api_is_an_error_naming_it() {
    let env = ("ENABLE_TOOL_SEARCH", "true");
    let stderr = failure_of(
        toolreg()
            .env(env.0, env.1)
            .args(["render", "--strategy", "server"]),
    );
    assert!(stderr.contains("server-bm25"), "{stderr}");
    let stderr = failure_of(toolreg().env(env.0, env.1).args([
        "render",
        "--format",
        "openai",
        "--strategy",
        "all-deferred",
    ]));
    assert!(
        stderr.contains("--strategy all-deferred is the Anthropic API's"),
        "{stderr}"
    );
}

#[test]
fn render_messages_loads_referenced_tools_and_rewrites_the_gone_ones() {
    const SEND: &str = "mcp__chat__send_message";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("messages.json");
    let conversation = json!([
        {"role": "user", "content": "message the team"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "ToolSearch", "input": {"query": "send"}}
        ]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [
            {"type": "tool_reference", "tool_name": SEND},
            {"type": "tool_reference", "tool_name": "mcp__gone__tool"}
        ]}]}
    ]);
    std::fs::write(&path, conversation.to_string()).unwrap();
    let request = render(
        &[("ENABLE_TOOL_SEARCH", "true")],
        &["--messages", path.to_str().unwrap()],
    );
    assert_eq!(defer_loading(&request), [SEND], "the reference loads it");
    let messages = request["messages"].as_array().unwrap();
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .starts_with("<available-deferred-tools>")
    );
    assert_eq!(messages[1], conversation[0]);
    assert_eq!(
        messages[3]["content"][0]["content"],
        json!([
            {"type": "tool_reference", "tool_name": SEND},
            {"type": "text", "text": "[Tool references removed - tools no longer available]"}
        ])
    );
    std::fs::write(&path, "{}").unwrap();
    let stderr = failure_of(toolreg().args(["render", "--messages", path.to_str().unwrap()]));
    assert!(
        stderr.contains("expected a JSON array of messages"),
        "{stderr}"
    );
}
