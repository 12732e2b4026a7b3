//! The isolation property of the HTTP gateway: random token policies (subsets of the upstream
//! servers and of the built-ins, allow and deny rules, modes), each token's client sending
//! random requests — `tools/list`, `search_tools` with keywords or `select:` of any name,
//! `call_tool` and direct `tools/call` of names granted to another token or to none — and a
//! client never lists, finds, reads the schema of or runs a tool its token does not grant,
//! while it does run what it is granted. A request without a known token gets `401`, the
//! challenge and nothing else. "Ran" is read on the tools' side: the upstream servers' logs and
//! the built-ins' record.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use toolreg_mcp::{GatewayMode, TokenPolicy};

use super::{Agent, Host, Upstream, builtin_calls, host, raw_list, serve};

/// The upstream servers and their tools (`read` on two servers: the same raw name).
const SERVERS: [(&str, &[&str]); 3] = [
    ("alpha", &["read", "write", "list"]),
    ("beta", &["read", "send"]),
    ("gamma", &["ping"]),
];

/// The built-ins a policy may grant: this binary's two, and the core's ToolSearch.
const BUILTINS: [&str; 3] = ["Note", "Stamp", "ToolSearch"];

/// Names no policy can grant: unknown servers and tools, a raw name without its server, the
/// meta-tools' names.
const UNKNOWN: [&str; 6] = [
    "mcp__alpha__send",
    "mcp__delta__read",
    "mcp__alpha",
    "read",
    "Nope",
    "call_tool",
];

fn tool_names() -> Vec<String> {
    let mcp = SERVERS.iter().flat_map(|(server, tools)| {
        (tools.iter()).map(move |tool| format!("mcp__{server}__{tool}"))
    });
    mcp.chain(BUILTINS.iter().map(|name| (*name).to_owned()))
        .collect()
}

/// Every name a request may carry.
fn any_name() -> impl Strategy<Value = String> {
    let mut names = tool_names();
    names.extend(UNKNOWN.iter().map(|name| (*name).to_owned()));
    prop::sample::select(names)
}

#[derive(Debug, Clone)]
enum Ask {
    List,
    Search(String),
    /// Through `call_tool`.
    Via(String),
    /// A `tools/call` of the name itself.
    Direct(String),
}

fn ask() -> impl Strategy<Value = Ask> {
    let words = prop::sample::select(vec![
        "read", "write", "send", "ping", "list", "alpha", "beta", "gamma", "note", "stamp",
        "search", "tool", "paper",
    ]);
    let query = prop_oneof![
        prop::collection::vec(words, 1..3).prop_map(|words| words.join(" ")),
        prop::collection::vec(any_name(), 1..4)
            .prop_map(|names| format!("select:{}", names.join(","))),
    ];
    prop_oneof![
        Just(Ask::List),
        query.prop_map(Ask::Search),
        any_name().prop_map(Ask::Via),
        any_name().prop_map(Ask::Direct),
    ]
}

fn policy() -> impl Strategy<Value = TokenPolicy> {
    let servers: Vec<String> = SERVERS.iter().map(|(name, _)| (*name).to_owned()).collect();
    let mut rules = tool_names();
    rules.extend(servers.iter().map(|server| format!("mcp__{server}")));
    let builtins: Vec<String> = BUILTINS.iter().map(|name| (*name).to_owned()).collect();
    let mode = prop::option::of(prop::sample::select(vec![
        GatewayMode::Search,
        GatewayMode::Direct,
    ]));
    (
        prop::option::of(prop::sample::subsequence(
            servers.clone(),
            0..=servers.len(),
        )),
        prop::sample::subsequence(builtins.clone(), 0..=builtins.len()),
        prop::sample::subsequence(rules.clone(), 0..=2),
        prop::sample::subsequence(rules, 0..=2),
        mode,
    )
        .prop_map(|(servers, builtins, allow, deny, mode)| TokenPolicy {
            token: String::new(),
            servers,
            builtins,
            allow,
            deny,
            mode,
        })
}

/// A case: each token's policy and its client's requests, and the `Authorization` headers of
/// refused requests (a kind of wrong header, and the token it is made from).
#[derive(Debug, Clone)]
struct Case {
    clients: Vec<(TokenPolicy, Vec<Ask>)>,
    refused: Vec<(u8, usize)>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec((policy(), prop::collection::vec(ask(), 1..8)), 2..5),
        prop::collection::vec((0u8..8, 0usize..4), 1..4),
    )
        .prop_map(|(clients, refused)| Case { clients, refused })
}

/// Whether `policy` grants `name` (the oracle, written from the policy's documentation): one
/// of its servers' tools or one of its built-ins, not named by a deny rule as a whole.
fn granted(policy: &TokenPolicy, name: &str) -> bool {
    if policy.deny.iter().any(|rule| rule == name) {
        return false;
    }
    match name
        .strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
    {
        Some((server, tool)) => {
            SERVERS
                .iter()
                .any(|(s, tools)| *s == server && tools.contains(&tool))
                && !policy.deny.contains(&format!("mcp__{server}"))
                && (policy.servers.as_ref())
                    .is_none_or(|servers| servers.iter().any(|s| s == server))
        }
        None => BUILTINS.contains(&name) && policy.builtins.iter().any(|b| b == name),
    }
}

/// The header of a refused request: none, or a near miss of `token`.
fn wrong(kind: u8, token: &str) -> Option<String> {
    let mut changed = token.to_owned();
    let last = if changed.pop() == Some('x') { 'y' } else { 'x' };
    changed.push(last);
    match kind {
        0 => None,
        1 => Some(format!("Bearer {changed}")),
        2 => Some(format!("Bearer {}", &token[..token.len() - 1])),
        3 => Some(format!("Bearer {token}x")),
        4 => Some(format!("Basic {token}")),
        5 => Some(token.to_owned()),
        6 => Some("Bearer ".to_owned()),
        _ => Some(format!("Bearer {}", token.to_uppercase())),
    }
}

fn check(condition: bool, message: impl FnOnce() -> String) -> Result<(), TestCaseError> {
    if condition {
        Ok(())
    } else {
        Err(TestCaseError::fail(message()))
    }
}

/// Every MCP tool name in `answer` that `policy` does not grant and `request` did not carry.
fn leaked(policy: &TokenPolicy, request: &str, answer: &str) -> Vec<String> {
    (tool_names().into_iter())
        .filter(|name| name.starts_with("mcp__") && !granted(policy, name))
        .filter(|name| answer.contains(name.as_str()) && !request.contains(name.as_str()))
        .collect()
}

/// One client's requests; returns the calls that ran, as (tool, `by`).
async fn client(
    agent: &Agent,
    policy: &TokenPolicy,
    asks: &[Ask],
    tag: String,
) -> Result<Vec<(String, String)>, TestCaseError> {
    let tag = tag.as_str();
    let mode = policy.mode.unwrap_or(GatewayMode::Search);
    let search = mode == GatewayMode::Search;
    let mut ran = Vec::new();
    for (k, ask) in asks.iter().enumerate() {
        let by = format!("{tag}-ask{k}");
        // Arguments each tool takes: ToolSearch a query, the others who calls.
        let arguments = |name: &str| match name {
            "ToolSearch" => json!({"query": "read write send ping note stamp"}),
            _ => json!({"by": by}),
        };
        let (request, called) = match ask {
            Ask::List => {
                let listed = agent.list().await;
                let names: BTreeSet<&str> = listed.iter().map(|(name, _)| name.as_str()).collect();
                for (name, schema) in &listed {
                    let meta = name == "search_tools" || name == "call_tool";
                    check((meta && search) || granted(policy, name), || {
                        format!("{tag} lists {name} ({schema}), not granted: {policy:?}")
                    })?;
                }
                let grant: BTreeSet<String> = (tool_names().into_iter())
                    .filter(|name| granted(policy, name))
                    .collect();
                if search {
                    check(
                        names.contains("search_tools") && names.contains("call_tool"),
                        || format!("{tag}: no meta-tools in {names:?}"),
                    )?;
                } else {
                    let names: BTreeSet<String> = names.iter().map(|n| (*n).to_owned()).collect();
                    check(names == grant, || {
                        format!("{tag}: lists {names:?}, grant {grant:?}")
                    })?;
                }
                continue;
            }
            Ask::Search(query) => {
                let found = agent.call("search_tools", json!({"query": query})).await;
                if !search {
                    check(found.is_error, || {
                        format!("{tag}: search_tools in direct mode: {found:?}")
                    })?;
                    (query.clone(), found)
                } else {
                    let tools = (found.structured.as_ref())
                        .and_then(|s| s["tools"].as_array().cloned())
                        .unwrap_or_default();
                    let names: Vec<&str> =
                        tools.iter().filter_map(|t| t["name"].as_str()).collect();
                    for name in &names {
                        check(granted(policy, name), || {
                            format!("{tag}: search {query:?} found {name}, not granted: {policy:?}")
                        })?;
                    }
                    if let Some(selected) = query.strip_prefix("select:") {
                        for name in selected.split(',').filter(|name| granted(policy, name)) {
                            check(names.contains(&name), || {
                                format!("{tag}: select of granted {name} found {names:?}")
                            })?;
                        }
                    }
                    (query.clone(), found)
                }
            }
            Ask::Via(name) => {
                let called = agent
                    .call(
                        "call_tool",
                        json!({"name": name, "arguments": arguments(name)}),
                    )
                    .await;
                let runs = search && granted(policy, name);
                check(called.is_error != runs, || {
                    format!("{tag}: call_tool {name} (runs: {runs}): {called:?} under {policy:?}")
                })?;
                if runs && name != "ToolSearch" {
                    ran.push((name.clone(), by.clone()));
                }
                (name.clone(), called)
            }
            Ask::Direct(name) => {
                let called = agent.call(name, arguments(name)).await;
                let runs = granted(policy, name);
                check(called.is_error != runs, || {
                    format!("{tag}: tools/call {name} (runs: {runs}): {called:?} under {policy:?}")
                })?;
                if runs && name != "ToolSearch" {
                    ran.push((name.clone(), by.clone()));
                }
                (name.clone(), called)
            }
        };
        let answer = format!(
            "{}{}",
            called.text,
            called
                .structured
                .as_ref()
                .map(Value::to_string)
                .unwrap_or_default()
        );
        let leaked = leaked(policy, &request, &answer);
        check(leaked.is_empty(), || {
            format!("{tag}: {ask:?} answered {leaked:?}, not granted: {policy:?}: {answer}")
        })?;
    }
    Ok(ran)
}

async fn run(
    host: &Host,
    upstreams: &[Upstream],
    case: &Case,
    n: usize,
) -> Result<(), TestCaseError> {
    let logged: Vec<usize> = upstreams.iter().map(|u| u.calls(0).len()).collect();
    let builtins_before = builtin_calls(0).len();
    let tokens: Vec<String> = (0..case.clients.len())
        .map(|i| format!("iso-token-{n}-{i}-0123456789abcdef"))
        .collect();
    let routes = (tokens.iter().zip(&case.clients))
        .map(|(token, (policy, _))| {
            (
                token.clone(),
                policy.gateway(&host.dispatcher, GatewayMode::Search),
            )
        })
        .collect();
    let served = serve(routes).await;
    let mut agents = Vec::new();
    for token in &tokens {
        agents.push(Agent::connect(&served.url, token).await);
    }
    let runs =
        (agents.iter().zip(&case.clients).enumerate()).map(|(i, (agent, (policy, asks)))| {
            client(agent, policy, asks, format!("iso-case{n}-client{i}"))
        });
    let mut expected = BTreeSet::new();
    for ran in futures_util::future::join_all(runs).await {
        expected.extend(ran?);
    }
    for &(kind, index) in &case.refused {
        let header = wrong(kind, &tokens[index % tokens.len()]);
        let (status, challenge, body) = raw_list(&served.url, header.as_deref()).await;
        check(
            status == 401
                && challenge.as_deref() == Some("Bearer realm=\"toolreg\"")
                && body == "a bearer token is required",
            || format!("{header:?}: {status} {challenge:?} {body}"),
        )?;
    }
    for agent in agents {
        agent.close().await;
    }
    served.stop().await;
    // What ran, on the tools' side: exactly the granted calls, each once.
    let mine = format!("iso-case{n}-");
    let mut seen = Vec::new();
    for (upstream, from) in upstreams.iter().zip(logged) {
        seen.extend(upstream.calls(from));
    }
    seen.extend(
        builtin_calls(builtins_before)
            .into_iter()
            .filter(|(_, by)| by.starts_with(&mine)),
    );
    let unique: BTreeSet<(String, String)> = seen.iter().cloned().collect();
    check(unique.len() == seen.len() && unique == expected, || {
        format!("ran {seen:?}, expected {expected:?}")
    })
}

#[test]
fn no_client_lists_finds_reads_or_runs_a_tool_its_token_does_not_grant() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let upstreams: Vec<Upstream> = (SERVERS.iter())
        .map(|(name, tools)| Upstream::new(dir.path(), name, tools))
        .collect();
    let host = runtime.block_on(host(&upstreams));
    let pool: Vec<&str> = host
        .dispatcher
        .pool()
        .iter()
        .map(|tool| tool.name.as_str())
        .collect();
    for name in tool_names() {
        assert!(
            pool.contains(&name.as_str()),
            "{name} is not in the pool {pool:?}"
        );
    }
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let n = std::cell::Cell::new(0);
    runner
        .run(&case(), |case| {
            n.set(n.get() + 1);
            runtime.block_on(run(&host, &upstreams, &case, n.get()))
        })
        .unwrap();
    runtime.block_on(host.hub.close());
}
