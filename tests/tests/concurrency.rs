//! Eight threads search, render and dispatch while another clears the schema cache and swaps
//! the MCP servers: no panic, no deadlock, and every render equals one of the valid renders.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use serde_json::json;
use toolreg::dispatch::{McpCall, McpCaller};
use toolreg::search::ToolSearcher;
use toolreg::tool::BoxFuture;
use toolreg::wire::anthropic::DeferStrategy;
use toolreg::{
    Dispatcher, PermissionMode, Pool, RenderOptions, SchemaCache, SearchEngine, Strategy, ToolCall,
    ToolError, ToolOutput, assemble_tool_pool, render_anthropic,
};

/// One pool with its search engine and its render from a fresh cache.
struct Snapshot {
    pool: Pool,
    engine: Arc<SearchEngine>,
    render: String,
}

fn options() -> RenderOptions {
    RenderOptions {
        tool_search: true,
        strategy: DeferStrategy::AllDeferred,
        ..Default::default()
    }
}

struct Echo;

impl McpCaller for Echo {
    fn call_tool<'a>(&'a self, call: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        let text = format!("{}/{}", call.server, call.tool);
        Box::pin(std::future::ready(Ok(ToolOutput::Text(text))))
    }
}

#[test]
fn searching_rendering_and_dispatching_race_with_cache_clears_and_server_swaps() {
    const WORKERS: usize = 8;
    const ROUNDS: usize = 40;
    let env = common::env();
    let mut rules = toolreg_tools::profile::permissions();
    // The fixture servers' tools are mostly destructive: nothing asks in this test.
    rules.mode = PermissionMode::BypassPermissions;
    let catalog = common::catalog();
    let fixtures = common::fixtures();
    let (first, second) = fixtures.split_at(fixtures.len() / 2);
    let snapshots: Vec<Arc<Snapshot>> = [first, second, &fixtures[..]]
        .into_iter()
        .map(|servers| {
            let pool = assemble_tool_pool(&env, &rules, &catalog, &common::load(servers));
            let render = render_anthropic(&env, &pool, &SchemaCache::new(), &options())
                .unwrap()
                .tools
                .to_json();
            let engine = Arc::new(SearchEngine::new(pool.to_vec(), Strategy::Bm25f));
            Arc::new(Snapshot {
                pool,
                engine,
                render,
            })
        })
        .collect();
    let current = RwLock::new(Arc::clone(&snapshots[0]));
    let cache = SchemaCache::new();
    let done = AtomicBool::new(false);
    let swaps = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut i = 0;
            while !done.load(Ordering::Acquire) {
                i += 1;
                let next = Arc::clone(&snapshots[i % snapshots.len()]);
                *current.write().unwrap() = next;
                if i % 2 == 0 {
                    cache.clear();
                } else {
                    cache.invalidate_server("git");
                }
                swaps.fetch_add(1, Ordering::Relaxed);
                std::thread::yield_now();
            }
        });
        let workers: Vec<_> = (0..WORKERS)
            .map(|worker| {
                let (env, rules, cache, current, snapshots) =
                    (&env, &rules, &cache, &current, &snapshots);
                scope.spawn(move || {
                    for round in 0..ROUNDS {
                        let snapshot = Arc::clone(&current.read().unwrap());
                        let rendered =
                            render_anthropic(env, &snapshot.pool, cache, &options()).unwrap();
                        assert!(
                            snapshots
                                .iter()
                                .any(|s| s.render == rendered.tools.to_json()),
                            "worker {worker} round {round}: a render that is no pool's"
                        );
                        let found = snapshot.engine.search("list files in a directory", 5);
                        assert!(
                            found
                                .matches
                                .iter()
                                .all(|name| snapshot.pool.iter().any(|tool| &tool.name == name))
                        );
                        let dispatcher = Dispatcher::new(
                            env.clone(),
                            rules.clone(),
                            snapshot.pool.clone(),
                            "/nonexistent",
                        )
                        .with_searcher(Arc::clone(&snapshot.engine) as Arc<dyn ToolSearcher>)
                        .with_mcp(Arc::new(Echo));
                        let runtime = tokio::runtime::Builder::new_current_thread()
                            .build()
                            .unwrap();
                        let call = ToolCall::new(
                            "toolu",
                            "ToolSearch",
                            json!({"query": "select:Read,Edit"}),
                        );
                        let result = runtime.block_on(dispatcher.dispatch(&call));
                        assert!(!result.is_error(), "{result:?}");
                        // An MCP tool an empty input is valid for: the input is checked
                        // against its schema before the caller sees it.
                        let mcp = snapshot
                            .pool
                            .iter()
                            .find(|tool| {
                                tool.mcp().is_some() && !tool.input_schema.contains("\"required\"")
                            })
                            .unwrap();
                        let call = ToolCall::new("toolu", &mcp.name, json!({}));
                        let result = runtime.block_on(dispatcher.dispatch(&call));
                        assert!(!result.is_error() && result.called(), "{result:?}");
                    }
                })
            })
            .collect();
        // The swapper stops when the workers are done, also when one panics (the scope then
        // waits for every thread before it reports the panic).
        let _stop = Stop(&done);
        for worker in workers {
            worker.join().unwrap();
        }
    });
    assert!(swaps.load(Ordering::Relaxed) > 0);
}

/// Sets the flag when dropped.
struct Stop<'a>(&'a AtomicBool);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}
