//! Runs one turn over the example's tools and prints the user message and when each call ran.

use std::sync::Arc;

use serde_json::json;
use toolreg::wire::anthropic::tool_results;
use toolreg::{ToolCall, TurnOptions};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let service = weather_agent::serve("all systems normal").await?;
    let app = Arc::new(weather_agent::AppState::new(service));
    let dispatcher = weather_agent::dispatcher(app.clone());
    let calls = [
        ToolCall::new("t1", "Forecast", json!({"city": "Paris", "delay_ms": 300})),
        ToolCall::new("t2", "Forecast", json!({"city": "Oslo", "delay_ms": 300})),
        ToolCall::new("t3", "Status", json!({"path": "/status"})),
        ToolCall::new("t4", "SaveNote", json!({"text": "umbrella for Oslo"})),
        ToolCall::new("t5", "Forecast", json!({"city": "Rome", "delay_ms": 300})),
    ];
    let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
    println!("{:#}", tool_results(&turn));
    for (call, timing) in calls.iter().zip(&turn.timings) {
        let started = timing.started.map_or(f64::NAN, |at| at.as_secs_f64() * 1e3);
        println!(
            "{:<9} {:>7.1} ms -> {:>7.1} ms",
            call.name,
            started,
            timing.finished.as_secs_f64() * 1e3
        );
    }
    println!("notes: {:?}", app.notes());
    Ok(())
}
