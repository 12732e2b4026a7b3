//! Many clients at once on the HTTP gateway, over loopback: every call answered, none lost,
//! each client's answers its own (the `by` it sent comes back, and its search finds only its
//! grant), on the upstream's side each call run once; and an upstream killed mid-load fails
//! only its own calls and comes back.
//!
//! CI runs 8 clients × 50 calls. `TOOLREG_LOAD_FULL=1` runs 50 × 2,000 and prints calls per
//! second, the latency of a forwarded call through the gateway against the same call
//! dispatched in-process (what the gateway adds: HTTP, JSON-RPC, the token's routing), and the
//! process's memory (BENCHMARKS.md has the figures):
//!
//! ```text
//! TOOLREG_LOAD_FULL=1 cargo test --release -p toolreg-mcp --test mcp scale::load -- --nocapture
//! ```

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use toolreg::ToolCall;
use toolreg_mcp::{GatewayMode, ServerState, TokenPolicy};

use super::{Agent, Upstream, host, serve};

fn full() -> bool {
    std::env::var_os("TOOLREG_LOAD_FULL").is_some_and(|value| !value.is_empty() && value != "0")
}

/// Client `i`'s token and policy: even clients get the `left` server and Note, odd ones
/// `right` and Stamp.
fn policy(i: usize) -> TokenPolicy {
    let (server, builtin) = if i.is_multiple_of(2) {
        ("left", "Note")
    } else {
        ("right", "Stamp")
    };
    TokenPolicy {
        token: format!("load-token-{i}-0123456789abcdef"),
        servers: Some(vec![server.to_owned()]),
        builtins: vec![builtin.to_owned()],
        ..TokenPolicy::default()
    }
}

fn own(i: usize) -> (&'static str, &'static str) {
    if i.is_multiple_of(2) {
        ("mcp__left__echo", "Note")
    } else {
        ("mcp__right__echo", "Stamp")
    }
}

/// The value at `q` (0..1) of sorted `samples`.
fn quantile(samples: &[Duration], q: f64) -> Duration {
    let index = ((samples.len() as f64 - 1.0) * q).round() as usize;
    samples.get(index).copied().unwrap_or_default()
}

/// This process's resident memory now and at its peak, in MiB.
fn memory() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        (status.lines())
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches(" kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// One client's calls: forwarded ones (through `call_tool` and direct), searches, its
/// built-in, and the other grant's tool (refused). Returns the forwarded calls' `by`s and
/// latencies.
async fn client(agent: &Agent, i: usize, calls: usize) -> (Vec<String>, Vec<Duration>) {
    let (echo, builtin) = own(i);
    let (other, _) = own(i + 1);
    let mut forwarded = Vec::new();
    let mut latencies = Vec::new();
    for k in 0..calls {
        let by = format!("load-{i}-{k}");
        let started = Instant::now();
        let answer = match k % 8 {
            0 | 2 | 4 | 6 => {
                let called = if k % 4 == 0 {
                    agent
                        .try_call("call_tool", json!({"name": echo, "arguments": {"by": by}}))
                        .await
                } else {
                    agent.try_call(echo, json!({"by": by})).await
                };
                latencies.push(started.elapsed());
                forwarded.push(by.clone());
                called
            }
            1 | 5 => {
                let found = agent
                    .try_call("search_tools", json!({"query": "echo"}))
                    .await;
                let found = found.unwrap_or_else(|e| panic!("client {i}, search {k}: {e}"));
                let names: Vec<&str> = (found.structured.as_ref())
                    .and_then(|s| s["tools"].as_array())
                    .map(|tools| tools.iter().filter_map(|t| t["name"].as_str()).collect())
                    .unwrap_or_default();
                assert_eq!(names, [echo], "client {i} found another grant's tools");
                continue;
            }
            3 => {
                let refused = agent
                    .try_call("call_tool", json!({"name": other, "arguments": {"by": by}}))
                    .await;
                let refused = refused.unwrap_or_else(|e| panic!("client {i}, call {k}: {e}"));
                assert!(refused.is_error, "client {i} ran {other}: {refused:?}");
                continue;
            }
            _ => agent.try_call(builtin, json!({"by": by})).await,
        };
        let answer = answer.unwrap_or_else(|e| panic!("client {i}, call {k}: {e}"));
        assert!(!answer.is_error, "client {i}, call {k}: {answer:?}");
        // The answer is this call's: its `by` came back, from its own grant.
        assert!(
            answer.text.contains(&format!("\"{by}\""))
                || answer.text == format!("{builtin} by {by}"),
            "client {i}, call {k}: {answer:?}"
        );
    }
    (forwarded, latencies)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_clients_get_every_answer_and_only_their_own() {
    let (clients, calls) = if full() { (50, 2000) } else { (8, 50) };
    let dir = tempfile::tempdir().unwrap();
    let upstreams = [
        Upstream::new(dir.path(), "left", &["echo"]),
        Upstream::new(dir.path(), "right", &["echo"]),
    ];
    let host = host(&upstreams).await;
    let (before, _) = memory();
    let routes = (0..clients)
        .map(|i| {
            let policy = policy(i);
            (
                policy.token.clone(),
                policy.gateway(&host.dispatcher, GatewayMode::Search),
            )
        })
        .collect();
    let served = serve(routes).await;
    let mut agents = Vec::new();
    for i in 0..clients {
        agents.push(Agent::connect(&served.url, &policy(i).token).await);
    }
    let started = Instant::now();
    let runs = agents
        .iter()
        .enumerate()
        .map(|(i, agent)| client(agent, i, calls));
    let results = futures_util::future::join_all(runs).await;
    let elapsed = started.elapsed();
    let (_, peak) = memory();
    let mut latencies = Vec::new();
    let mut expected = [BTreeSet::new(), BTreeSet::new()];
    for (i, (forwarded, times)) in results.into_iter().enumerate() {
        expected[i % 2].extend(forwarded);
        latencies.extend(times);
    }
    for agent in agents {
        agent.close().await;
    }
    served.stop().await;
    // No call lost, none run twice, none run on the other grant's server.
    for (upstream, expected) in upstreams.iter().zip(&expected) {
        let ran: Vec<String> = upstream.calls(0).into_iter().map(|(_, by)| by).collect();
        let unique: BTreeSet<String> = ran.iter().cloned().collect();
        assert_eq!(
            unique.len(),
            ran.len(),
            "{} ran a call twice",
            upstream.name
        );
        assert!(
            unique == *expected,
            "{} ran {} calls, {} sent",
            upstream.name,
            unique.len(),
            expected.len()
        );
    }
    if !full() {
        host.hub.close().await;
        return;
    }
    let total = clients * calls;
    println!(
        "load: {clients} clients x {calls} calls = {total} in {:.2} s: {:.0} calls/s",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64()
    );
    report("through the gateway, under load", latencies);
    println!(
        "load: process RSS {before:.1} MiB with the hub connected, peak {peak:.1} MiB with the gateway and {clients} clients"
    );
    // The same forwarded call dispatched in-process, as many at once: the upstream's own cost.
    let direct = (0..clients).map(|i| timed_dispatch(&host, i, calls / 2));
    report(
        "dispatched in-process, under load",
        futures_util::future::join_all(direct).await.concat(),
    );
    // One call at a time: what a call costs without queueing, through the gateway and not.
    let served = serve(vec![(
        policy(0).token.clone(),
        policy(0).gateway(&host.dispatcher, GatewayMode::Search),
    )])
    .await;
    let agent = Agent::connect(&served.url, &policy(0).token).await;
    let mut alone = Vec::new();
    for k in 0..calls {
        let started = Instant::now();
        let called = agent
            .call("mcp__left__echo", json!({"by": format!("alone-{k}")}))
            .await;
        alone.push(started.elapsed());
        assert!(!called.is_error, "{called:?}");
    }
    agent.close().await;
    served.stop().await;
    report("through the gateway, one client", alone);
    report(
        "dispatched in-process, one caller",
        timed_dispatch(&host, 0, calls).await,
    );
    host.hub.close().await;
}

/// `calls` forwarded calls of client `i`'s tool, dispatched in-process one after another: each
/// one's time.
async fn timed_dispatch(host: &super::Host, i: usize, calls: usize) -> Vec<Duration> {
    let mut times = Vec::new();
    for k in 0..calls {
        let by = format!("direct-{i}-{k}");
        let call = ToolCall::new(format!("d{i}-{k}"), own(i).0, json!({"by": by}));
        let started = Instant::now();
        let result = host.dispatcher.dispatch(&call).await;
        times.push(started.elapsed());
        assert!(result.error.is_none(), "{result:?}");
    }
    times
}

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    println!(
        "load: forwarded call {name}: p50 {:.2} ms, p99 {:.2} ms ({} calls)",
        quantile(&samples, 0.5).as_secs_f64() * 1e3,
        quantile(&samples, 0.99).as_secs_f64() * 1e3,
        samples.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_killed_mid_load_fails_only_its_calls_and_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let upstreams = [
        Upstream::new(dir.path(), "left", &["echo"]),
        Upstream::new(dir.path(), "right", &["echo"]),
    ];
    let host = host(&upstreams).await;
    // What `toolreg mcp serve` runs beside the gateway.
    let upkeep = tokio::spawn({
        let hub = host.hub.clone();
        async move { hub.keep_connected().await }
    });
    let routes = (0..4)
        .map(|i| {
            let policy = policy(i);
            (
                policy.token.clone(),
                policy.gateway(&host.dispatcher, GatewayMode::Search),
            )
        })
        .collect();
    let served = serve(routes).await;
    let mut agents = Vec::new();
    for i in 0..4 {
        agents.push(Arc::new(
            Agent::connect(&served.url, &policy(i).token).await,
        ));
    }
    // The right clients call all along; every one of their calls must succeed.
    let stop = Arc::new(AtomicBool::new(false));
    let right_calls = Arc::new(AtomicUsize::new(0));
    let right = [1, 3].map(|i| {
        let (agent, stop, count) = (agents[i].clone(), stop.clone(), right_calls.clone());
        tokio::spawn(async move {
            let mut k = 0;
            while !stop.load(Ordering::SeqCst) {
                let by = format!("right-{i}-{k}");
                let called = agent
                    .try_call(
                        "call_tool",
                        json!({"name": "mcp__right__echo", "arguments": {"by": by}}),
                    )
                    .await;
                let called = called.unwrap_or_else(|e| panic!("right client {i}, call {k}: {e}"));
                assert!(
                    !called.is_error && called.text.contains(&by),
                    "right client {i}, call {k}: {called:?}"
                );
                count.fetch_add(1, Ordering::SeqCst);
                k += 1;
            }
        })
    });
    let left = |k: usize| {
        let agent = agents[0].clone();
        async move {
            let by = format!("left-{k}");
            let called = agent
                .try_call(
                    "call_tool",
                    json!({"name": "mcp__left__echo", "arguments": {"by": by}}),
                )
                .await;
            // Never a transport or protocol error: a refused call is a tool error.
            let called = called.unwrap_or_else(|e| panic!("left call {k}: {e}"));
            (!called.is_error && called.text.contains(&by), called)
        }
    };
    for k in 0..20 {
        let (ok, called) = left(k).await;
        assert!(ok, "{called:?}");
    }
    let first = upstreams[0].pid().expect("the left server's process");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &first.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // The left calls fail while it is down (as tool errors), and succeed again once the hub
    // has started it anew; bounded, in case it never comes back.
    let mut back = false;
    for k in 20..2000 {
        let (ok, called) = left(k).await;
        if ok {
            back = true;
            break;
        } else {
            assert!(
                called.is_error && called.text.contains("left"),
                "{called:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    assert!(
        back,
        "the left server did not come back: {:?}",
        host.hub.statuses()
    );
    let now = upstreams[0].pid();
    assert!(
        now.is_some_and(|pid| pid != first),
        "the left server was not started anew: {now:?}"
    );
    assert!(matches!(
        host.hub.statuses()[0].state,
        ServerState::Connected { .. }
    ));
    // The right clients kept going, every call answered, while the left was down and after.
    let during = right_calls.load(Ordering::SeqCst);
    while right_calls.load(Ordering::SeqCst) < during + 20 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.store(true, Ordering::SeqCst);
    for task in right {
        task.await.unwrap();
    }
    upkeep.abort();
    drop(agents);
    served.stop().await;
    host.hub.close().await;
}
