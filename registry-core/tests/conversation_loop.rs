//! The conversation: discovered tools read from its history and loaded in the next request,
//! tool changes that keep every earlier request the start of the next one, MCP servers grouped
//! as Responses namespaces.

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::{Value, json};
use toolreg::conversation::Conversation;
use toolreg::mcp::load_servers;
use toolreg::wire::anthropic::{INLINE_TOOLS_BETA, REFS_REMOVED_GONE, TOOL_CHANGES_BETA};
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
use toolreg::{
    Catalog, Dispatcher, Env, PermissionContext, Pool, RenderOptions, TurnOptions,
    assemble_tool_pool, builtins,
};

/// The servers' tools: `server` has tools `t0`..`t{n}`.
fn pool(servers: &[(String, usize)]) -> Pool {
    let lists: Vec<(String, Value)> = servers
        .iter()
        .map(|(server, count)| {
            let tools: Vec<Value> = (0..*count)
                .map(|index| json!({"name": format!("t{index}"), "description": format!("Tool {index} of {server}"),
                    "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}))
                .collect();
            (server.clone(), Value::Array(tools))
        })
        .collect();
    let mcp = load_servers(lists.iter().map(|(server, list)| (server.as_str(), list)));
    let (env, rules) = (Env::default(), PermissionContext::new());
    assemble_tool_pool(
        &env,
        &rules,
        &Catalog::new(builtins().unwrap(), &[]),
        &mcp.tools,
    )
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// The model calls ToolSearch to select `names`; the turn runs and is answered.
fn search_turn(conversation: &mut Conversation, pool: &Pool, names: &[String], turn: usize) {
    let body = json!({"content": [{"type": "tool_use", "id": format!("toolu_{turn}"), "name": "ToolSearch",
        "input": {"query": format!("select:{}", names.join(","))}}], "stop_reason": "tool_use"});
    let response = conversation.receive(&body).unwrap();
    let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), pool.clone(), ".");
    let ran = block_on(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
    conversation.answer(&response, &ran, pool).unwrap();
}

fn tool_names(request: &Value) -> BTreeSet<String> {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
        .collect()
}

fn searching() -> RenderOptions {
    RenderOptions {
        tool_search: true,
        ..Default::default()
    }
}

#[test]
fn a_tool_search_result_loads_the_tool_in_the_next_request() {
    let pool = pool(&[("notes".into(), 3)]);
    let mut conversation = Conversation::anthropic(searching());
    conversation.push_user("find my notes");
    let first = Value::Object(conversation.request(&Env::default(), &pool).unwrap().body);
    assert!(!tool_names(&first).contains("mcp__notes__t1"));
    assert!(
        first["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("mcp__notes__t1")
    );
    search_turn(&mut conversation, &pool, &["mcp__notes__t1".into()], 1);
    assert_eq!(
        conversation.discovered(),
        BTreeSet::from(["mcp__notes__t1".to_owned()])
    );
    let second = Value::Object(conversation.request(&Env::default(), &pool).unwrap().body);
    assert!(tool_names(&second).contains("mcp__notes__t1"));
    let announcement = second["messages"][0]["content"].as_str().unwrap();
    assert!(!announcement.contains("mcp__notes__t1\n") && announcement.contains("mcp__notes__t2"));
}

#[test]
fn a_reference_to_a_tool_whose_server_left_is_rewritten_in_the_next_request_not_in_the_history() {
    let both = pool(&[("notes".into(), 2), ("mail".into(), 2)]);
    let mut conversation = Conversation::anthropic(searching());
    conversation.push_user("find my notes and mail");
    let names = ["mcp__notes__t0".to_owned(), "mcp__mail__t1".to_owned()];
    search_turn(&mut conversation, &both, &names, 1);
    // The mail server goes away.
    let notes_only = pool(&[("notes".into(), 2)]);
    let next = Value::Object(
        conversation
            .request(&Env::default(), &notes_only)
            .unwrap()
            .body,
    );
    let answered = next["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .to_string();
    assert!(
        answered.contains(r#""tool_name":"mcp__notes__t0""#),
        "{answered}"
    );
    assert!(!answered.contains("mcp__mail__t1"), "{answered}");
    assert!(answered.contains(REFS_REMOVED_GONE), "{answered}");
    assert!(tool_names(&next).contains("mcp__notes__t0"));
    // The history keeps the reference: when the server is back, so is the tool.
    let again = Value::Object(conversation.request(&Env::default(), &both).unwrap().body);
    assert!(tool_names(&again).contains("mcp__mail__t1"));
}

#[test]
fn a_conversation_goes_on_from_a_recorded_history_with_the_tools_it_loaded() {
    let pool = pool(&[("notes".into(), 3)]);
    let mut recorded = Conversation::anthropic(searching());
    recorded.push_user("find my notes");
    search_turn(&mut recorded, &pool, &["mcp__notes__t1".to_owned()], 1);
    let expected = recorded.request(&Env::default(), &pool).unwrap();
    let mut resumed =
        Conversation::anthropic(searching()).with_history(recorded.history().to_vec());
    assert_eq!(resumed.request(&Env::default(), &pool).unwrap(), expected);
    // Chat Completions' history names no loaded tool: the caller says which.
    let chat = || {
        Conversation::openai(OpenAiOptions {
            format: OpenAiFormat::ChatCompletions,
            tool_search: OpenAiToolSearch::Client,
            ..Default::default()
        })
    };
    // A Chat Completions tool's name is its function's.
    let loaded = |conversation: &mut Conversation| {
        let body = conversation.request(&Env::default(), &pool).unwrap().body;
        let tools = body["tools"].as_array().unwrap().clone();
        tools
            .iter()
            .filter_map(|tool| tool["function"]["name"].as_str().map(str::to_owned))
            .collect::<BTreeSet<String>>()
    };
    assert!(!loaded(&mut chat()).contains("mcp__notes__t1"));
    assert!(
        loaded(&mut chat().with_discovered(["mcp__notes__t1".to_owned()]))
            .contains("mcp__notes__t1")
    );
}

#[test]
fn with_tool_changes_the_tools_stay_and_a_discovered_tool_is_added_in_the_history() {
    let pool = pool(&[("notes".into(), 3)]);
    let mut conversation = Conversation::anthropic(searching()).with_tool_changes(true);
    conversation.push_user("find my notes");
    let first = conversation.request(&Env::default(), &pool).unwrap();
    let beta = &first
        .headers
        .iter()
        .find(|(name, _)| name == "anthropic-beta")
        .unwrap()
        .1;
    assert!(
        beta.contains(TOOL_CHANGES_BETA) && beta.contains(INLINE_TOOLS_BETA),
        "{beta}"
    );
    search_turn(&mut conversation, &pool, &["mcp__notes__t1".into()], 1);
    let second = conversation.request(&Env::default(), &pool).unwrap();
    assert_eq!(second.body["tools"], first.body["tools"]);
    let messages = second.body["messages"].as_array().unwrap();
    let earlier = first.body["messages"].as_array().unwrap();
    assert_eq!(&messages[..earlier.len()], &earlier[..]);
    let last = messages.last().unwrap()["content"].as_array().unwrap();
    assert_eq!(last[0]["type"], "tool_result");
    let added = last
        .iter()
        .find(|block| block["type"] == "tool_addition")
        .unwrap();
    assert_eq!(added["tool"]["definition"]["name"], "mcp__notes__t1");
}

#[test]
fn responses_group_each_servers_tools_as_a_namespace() {
    let pool = pool(&[("notes".into(), 2), ("mail".into(), 1)]);
    let mut conversation = Conversation::openai(OpenAiOptions {
        format: OpenAiFormat::Responses,
        tool_search: OpenAiToolSearch::Server,
        namespaces: true,
        ..Default::default()
    });
    conversation.push_user("hi");
    let request = conversation.request(&Env::default(), &pool).unwrap();
    let tools = request.body["tools"].as_array().unwrap();
    let notes = tools
        .iter()
        .find(|tool| tool["name"] == "mcp__notes")
        .unwrap();
    assert_eq!(notes["type"], "namespace");
    let inner: Vec<&str> = notes["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(inner, ["t0", "t1"]);
    assert_eq!(notes["tools"][0]["defer_loading"], true);
    assert!(tools.iter().any(|tool| tool["name"] == "mcp__mail"));
}

/// The tools the `tool_search_output` items of a Responses request's `input` define: each
/// function, or each function of a namespace as `<namespace>__<name>`.
fn loaded_by_outputs(request: &Value) -> Vec<String> {
    let mut names = Vec::new();
    let items = request["input"].as_array().unwrap();
    for output in items
        .iter()
        .filter(|item| item["type"] == "tool_search_output")
    {
        for tool in output["tools"].as_array().unwrap() {
            let name = tool["name"].as_str().unwrap();
            match tool["tools"].as_array() {
                Some(functions) => names.extend(
                    functions
                        .iter()
                        .map(|function| format!("{name}__{}", function["name"].as_str().unwrap())),
                ),
                None => names.push(name.to_owned()),
            }
        }
    }
    names
}

#[test]
fn a_responses_request_drops_the_loaded_tools_of_a_server_that_left_from_its_input() {
    let both = pool(&[("notes".into(), 2), ("mail".into(), 2)]);
    let options = OpenAiOptions {
        format: OpenAiFormat::Responses,
        tool_search: OpenAiToolSearch::Client,
        ..Default::default()
    };
    let mut conversation = Conversation::openai(options.clone());
    conversation.push_user("find my notes and mail");
    let body = json!({"status": "completed", "output": [{"type": "tool_search_call",
        "id": "tsc_1", "call_id": "call_1", "execution": "client",
        "arguments": {"query": "select:mcp__notes__t0,mcp__mail__t0,mcp__mail__t1"}}]});
    let response = conversation.receive(&body).unwrap();
    let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), both.clone(), ".");
    let ran = block_on(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
    conversation.answer(&response, &ran, &both).unwrap();
    let request = |conversation: &mut Conversation, pool: &Pool| {
        Value::Object(conversation.request(&Env::default(), pool).unwrap().body)
    };
    assert_eq!(
        loaded_by_outputs(&request(&mut conversation, &both)),
        ["mcp__notes__t0", "mcp__mail__t0", "mcp__mail__t1"]
    );
    // The mail server goes away.
    let notes_only = pool(&[("notes".into(), 2)]);
    assert_eq!(
        loaded_by_outputs(&request(&mut conversation, &notes_only)),
        ["mcp__notes__t0"]
    );
    // The API's own search may load a namespace: it loses the functions that left, and goes
    // when none is left.
    let function =
        |name: &str| json!({"type": "function", "name": name, "parameters": {"type": "object"}});
    let history = vec![json!({"type": "tool_search_output", "call_id": "call_2",
        "execution": "server", "status": "completed", "tools": [
            {"type": "namespace", "name": "mcp__notes", "tools": [function("t0"), function("gone")]},
            {"type": "namespace", "name": "mcp__mail", "tools": [function("t0")]}]})];
    let mut resumed = Conversation::openai(options).with_history(history);
    assert_eq!(
        loaded_by_outputs(&request(&mut resumed, &notes_only)),
        ["mcp__notes__t0"]
    );
}

#[derive(Debug, Clone)]
enum Step {
    /// The model selects these tools (indexes into the pool's deferred tools).
    Search(Vec<usize>),
    /// A server connects with this many tools.
    Connect(usize),
    /// The server at this index (of those connected) disconnects.
    Disconnect(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        prop::collection::vec(0usize..64, 1..3).prop_map(Step::Search),
        (1usize..4).prop_map(Step::Connect),
        (0usize..8).prop_map(Step::Disconnect),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_discovered_tool_is_loaded_and_tool_changes_keep_the_prefix(
        steps in prop::collection::vec(step(), 1..8),
        tool_changes in any::<bool>(),
    ) {
        let mut servers: Vec<(String, usize)> = vec![("s0".into(), 2)];
        let mut next_server = 1;
        let mut conversation = Conversation::anthropic(searching()).with_tool_changes(tool_changes);
        conversation.push_user("go");
        let mut previous: Option<Value> = None;
        for (turn, step) in steps.into_iter().enumerate() {
            let pool = pool(&servers);
            match step {
                Step::Search(picks) => {
                    let deferred: Vec<String> = pool.iter().filter(|tool| tool.is_deferred()).map(|tool| tool.name.clone()).collect();
                    if deferred.is_empty() { continue; }
                    let names: Vec<String> = picks.iter().map(|pick| deferred[pick % deferred.len()].clone()).collect();
                    search_turn(&mut conversation, &pool, &names, turn);
                }
                Step::Connect(count) => {
                    servers.push((format!("s{next_server}"), count));
                    next_server += 1;
                    continue;
                }
                Step::Disconnect(index) => {
                    if !servers.is_empty() { let at = index % servers.len(); servers.remove(at); }
                    continue;
                }
            }
            let pool = toolreg_pool_after(&servers);
            let request = Value::Object(conversation.request(&Env::default(), &pool).unwrap().body);
            let messages = request["messages"].as_array().unwrap();
            // Every discovered tool still in the pool is loaded: in `tools`, or added (and not
            // removed since) with tool changes.
            let mut loaded = tool_names(&request);
            for message in messages {
                for block in message["content"].as_array().into_iter().flatten() {
                    match block["type"].as_str() {
                        Some("tool_addition") => { loaded.insert(block["tool"]["definition"]["name"].as_str().unwrap().to_owned()); }
                        Some("tool_removal") => { loaded.remove(block["tool"]["name"].as_str().unwrap()); }
                        _ => {}
                    }
                }
            }
            for name in conversation.discovered() {
                if pool.iter().any(|tool| tool.name == name) {
                    prop_assert!(loaded.contains(&name), "{name} discovered, not loaded");
                }
            }
            if !tool_changes {
                // No tool both announced and loaded.
                let announcement = messages[0]["content"].as_str().unwrap_or_default();
                for name in &loaded {
                    prop_assert!(!announcement.lines().any(|line| line == name), "{name} both");
                }
            }
            if let (true, Some(previous)) = (tool_changes, &previous) {
                prop_assert_eq!(&request["tools"], &previous["tools"]);
                let before = previous["messages"].as_array().unwrap();
                prop_assert_eq!(&messages[..before.len()], &before[..]);
            }
            previous = Some(request);
        }
    }
}

fn toolreg_pool_after(servers: &[(String, usize)]) -> Pool {
    pool(servers)
}

#[test]
fn the_system_prompt_goes_where_each_api_reads_it_and_stays_out_of_the_history() {
    let pool = pool(&[("notes".into(), 2)]);
    let system = "Answer in French.";
    let mut anthropic = Conversation::anthropic(RenderOptions::default()).with_system(system);
    anthropic.push_user("hello");
    let request = anthropic.request(&Env::default(), &pool).unwrap();
    assert_eq!(request.body["system"], system);
    assert_eq!(request.body["messages"][0]["role"], "user");

    let openai = |format| {
        let options = OpenAiOptions {
            format,
            ..Default::default()
        };
        let mut conversation = Conversation::openai(options).with_system(system);
        conversation.push_user("hello");
        let request = conversation.request(&Env::default(), &pool).unwrap();
        assert_eq!(
            conversation.history().len(),
            1,
            "the history holds the user's message"
        );
        request.body
    };
    let chat = openai(OpenAiFormat::ChatCompletions);
    assert_eq!(
        chat["messages"][0],
        json!({"role": "system", "content": system})
    );
    assert_eq!(chat["messages"][1]["role"], "user");
    assert!(chat.get("system").is_none() && chat.get("instructions").is_none());
    let responses = openai(OpenAiFormat::Responses);
    assert_eq!(responses["instructions"], system);
    assert_eq!(responses["input"][0]["role"], "user");
}
