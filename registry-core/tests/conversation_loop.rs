//! The conversation: discovered tools read from its history and loaded in the next request,
//! tool changes that keep every earlier request the start of the next one, MCP servers grouped
//! as Responses namespaces.

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::{Value, json};
use toolreg::conversation::Conversation;
use toolreg::mcp::load_servers;
use toolreg::wire::anthropic::{INLINE_TOOLS_BETA, TOOL_CHANGES_BETA};
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
