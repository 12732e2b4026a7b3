//! Turns over async tools under both tokio runtimes: four concurrency-safe calls of 300 ms run
//! together, and a call that is not concurrency-safe runs alone between them. Asserted on the
//! recorded start and end offsets, never on wall-clock thresholds.

use std::sync::Arc;

use serde_json::json;
use toolreg::dispatch::CallTiming;
use toolreg::{ToolCall, ToolOutput, TurnOptions};

fn forecast(id: &str, city: &str) -> ToolCall {
    ToolCall::new(id, "Forecast", json!({"city": city, "delay_ms": 300}))
}

/// Every call of `group` started before any of the `slow` ones finished: none waited for a
/// slow call of the group to end (a quick call may end before the last one is started).
fn together(group: &[CallTiming], slow: &[CallTiming]) -> bool {
    let last_start = group.iter().filter_map(|t| t.started).max();
    let first_end = slow.iter().map(|t| t.finished).min();
    matches!((last_start, first_end), (Some(start), Some(end)) if start < end)
}

/// `call` started after every call of `before` finished, and finished before any of `after`
/// started.
fn alone(before: &[CallTiming], call: &CallTiming, after: &[CallTiming]) -> bool {
    let started = call.started.expect("it started");
    before.iter().all(|t| t.finished <= started)
        && after
            .iter()
            .all(|t| t.started.is_some_and(|s| call.finished <= s))
}

async fn four_safe_calls_together_and_one_alone_between_them() {
    let service = weather_agent::serve("all systems normal").await.unwrap();
    let app = Arc::new(weather_agent::AppState::new(service));
    let dispatcher = weather_agent::dispatcher(app.clone());
    let calls = [
        forecast("a", "Paris"),
        forecast("b", "Oslo"),
        ToolCall::new("c", "Status", json!({"path": "/status"})),
        forecast("d", "Rome"),
        ToolCall::new("e", "SaveNote", json!({"text": "umbrella"})),
        forecast("f", "Lima"),
    ];
    let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
    let t = &turn.timings;
    assert!(
        together(&t[0..4], &[t[0], t[1], t[3]]),
        "the first four are concurrency-safe: {t:?}"
    );
    assert!(
        alone(&t[0..4], &t[4], &t[5..]),
        "SaveNote runs alone: {t:?}"
    );
    let texts: Vec<String> = turn
        .results
        .iter()
        .map(|result| match &result.content {
            ToolOutput::Text(text) => text.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        texts,
        [
            "Paris: sunny",
            "Oslo: sunny",
            "all systems normal",
            "Rome: sunny",
            "saved",
            "Lima: sunny"
        ]
    );
    assert_eq!(app.notes(), ["umbrella"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multi_thread_runtime() {
    four_safe_calls_together_and_one_alone_between_them().await;
}

#[tokio::test(flavor = "current_thread")]
async fn current_thread_runtime() {
    four_safe_calls_together_and_one_alone_between_them().await;
}
