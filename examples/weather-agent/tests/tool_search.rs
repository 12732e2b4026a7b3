//! A crate that depends only on `toolreg` gets a working ToolSearch: the core registers
//! the tool, the render announces the deferred tools, and the dispatcher answers searches over
//! its own pool.

use std::sync::Arc;

use serde_json::json;
use toolreg::{
    Env, RenderOptions, SchemaCache, ToolCall, ToolOutput, TurnOptions, render_anthropic,
};

#[test]
fn the_pool_has_tool_search_and_the_render_announces_the_deferred_tool() {
    let pool = weather_agent::pool();
    let names: Vec<&str> = pool.iter().map(|tool| tool.name.as_str()).collect();
    assert!(names.contains(&"ToolSearch"), "{names:?}");
    let options = RenderOptions {
        tool_search: true,
        ..RenderOptions::default()
    };
    let rendered = render_anthropic(&Env::default(), &pool, &SchemaCache::new(), &options).unwrap();
    assert!(rendered.tools.to_json().contains(r#""name":"ToolSearch""#));
    assert!(!rendered.tools.to_json().contains(r#""name":"Radar""#));
    assert_eq!(
        rendered.deferred_tools_message.as_deref(),
        Some("<available-deferred-tools>\nRadar\n</available-deferred-tools>")
    );
}

#[tokio::test]
async fn tool_search_loads_the_deferred_tool_and_the_model_can_call_it() {
    let app = Arc::new(weather_agent::AppState::new("http://127.0.0.1:9"));
    let dispatcher = weather_agent::dispatcher(app);
    let found = dispatcher
        .run_turn(
            &[
                ToolCall::new("s1", "ToolSearch", json!({"query": "rain radar"})),
                ToolCall::new("s2", "ToolSearch", json!({"query": "select:Radar"})),
            ],
            &TurnOptions::default(),
        )
        .await;
    for result in &found.results {
        assert_eq!(
            result.content,
            ToolOutput::Blocks(vec![
                json!({"type": "tool_reference", "tool_name": "Radar"})
            ]),
            "{result:?}"
        );
    }
    let radar = dispatcher
        .dispatch(&ToolCall::new("r", "Radar", json!({"city": "Oslo"})))
        .await;
    assert_eq!(
        radar.content,
        ToolOutput::Text("Oslo: no rain on the radar".into())
    );
}
