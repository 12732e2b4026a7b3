//! Rendering a fixed pool (the built-ins plus the `git` and `time` fixtures): golden JSON, and the
//! same bytes from two threads.
//!
//! Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p toolreg-tests --test end_to_end render::`.

use crate::common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::{catalog, env, fixtures, load};
use serde_json::{Value, json};
use toolreg::wire::ToolsArray;
use toolreg::wire::anthropic::CacheSettings;
use toolreg::wire::anthropic::DeferStrategy;
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions};
use toolreg::{
    Pool, RenderOptions, SchemaCache, assemble_tool_pool, render_anthropic, render_openai,
};

fn pool() -> Pool {
    let rules = toolreg_tools::profile::permissions();
    let servers: Vec<_> = fixtures()
        .into_iter()
        .filter(|(name, _)| name == "git" || name == "time")
        .collect();
    assemble_tool_pool(&env(), &rules, &catalog(), &load(&servers))
}

fn render_all(pool: &Pool) -> Value {
    let env = env();
    let mut options = RenderOptions {
        tool_search: true,
        discovered: BTreeSet::from(["mcp__git__git_status".to_owned()]),
        settings: CacheSettings {
            first_party: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let discovered = render_anthropic(&env, pool, &SchemaCache::new(), &options).unwrap();
    options.strategy = DeferStrategy::AllDeferred;
    let all = render_anthropic(&env, pool, &SchemaCache::new(), &options).unwrap();
    let off = render_anthropic(&env, pool, &SchemaCache::new(), &RenderOptions::default()).unwrap();
    let openai = render_openai(
        pool,
        &OpenAiOptions {
            format: OpenAiFormat::ChatCompletions,
            strict: true,
            ..Default::default()
        },
    )
    .unwrap()
    .tools;
    let parse = |tools: &ToolsArray| tools.to_value().unwrap();
    json!({
        "anthropic_discovered": {"tools": parse(&discovered.tools), "message": discovered.deferred_tools_message, "beta": discovered.beta},
        "anthropic_all_deferred": {"tools": parse(&all.tools), "beta": all.beta},
        "anthropic_tool_search_off": {"tools": parse(&off.tools)},
        "openai_chat_strict": parse(&openai),
    })
}

#[test]
fn fixed_pool_renders_to_the_golden_json() {
    if toolreg_tools::features() != toolreg::env::Features::none() {
        return; // the golden file is for the default build's catalog
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots/render/fixed-pool.json");
    let actual = render_all(&pool());
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&actual).unwrap() + "\n").unwrap();
    }
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(
        expected == actual,
        "rendered JSON differs from {} (UPDATE_SNAPSHOTS=1 to accept)",
        path.display()
    );
}

#[test]
fn two_threads_render_identical_bytes() {
    let pool = pool();
    let render = || {
        let options = RenderOptions {
            tool_search: true,
            strategy: DeferStrategy::AllDeferred,
            ..Default::default()
        };
        render_anthropic(&env(), &pool, &SchemaCache::new(), &options)
            .unwrap()
            .tools
    };
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(render);
        let b = scope.spawn(render);
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a, b);
    assert_eq!(a, render());
}

#[test]
fn a_shared_cache_serves_identical_bytes_to_concurrent_renders() {
    let pool = pool();
    let cache = SchemaCache::new();
    let outputs: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    render_anthropic(&env(), &pool, &cache, &RenderOptions::default())
                        .unwrap()
                        .tools
                        .to_json()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap())
            .collect()
    });
    assert!(outputs.windows(2).all(|pair| pair[0] == pair[1]));
}
