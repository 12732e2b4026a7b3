//! `render`: the request per strategy and format, byte-identical across runs and locales.

use super::*;

// ---------------------------------------------------------------------------------------------
// render

fn render(env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut command = toolreg();
    for (key, value) in env {
        command.env(key, value);
    }
    json_of(command.arg("render").args(args))
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
    assert_eq!(request["betas"], json!(["advanced-tool-use-2025-11-20"]));
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
    assert!(request.get("messages").is_none());
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
        assert!(request.get("messages").is_none(), "{args:?}");
        assert!(request.get("betas").is_none(), "{args:?}");
    }
}

#[test]
fn render_openai_formats_are_function_tools_without_tool_search() {
    let expected: Vec<String> = list_names(&[])
        .into_iter()
        .filter(|name| name != "ToolSearch")
        .collect();
    let chat = render(&[], &["--format", "openai"]);
    assert_eq!(chat.as_object().unwrap().len(), 1, "only `tools`");
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

    let responses = render(&[], &["--format", "openai-responses"]);
    assert_eq!(responses.as_object().unwrap().len(), 1, "only `tools`");
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
