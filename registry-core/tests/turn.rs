//! The turn runner: concurrency-safe calls together, the others alone and in order, results in
//! the blocks' order; timeouts, cancellation, progress, panics; typed host state.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use toolreg::Pool;
use toolreg::dispatch::{CallTiming, CancellationToken};
use toolreg::tool::Progress;
use toolreg::wire::anthropic::tool_results;
use toolreg::{
    DispatchError, Dispatcher, Env, PermissionContext, State, Tool, ToolCall, ToolContext,
    ToolError, ToolInfo, ToolSpec, TurnOptions, tool,
};

/// Waits, then answers; safe to run beside others.
#[tool(
    read_only,
    concurrency_safe,
    search_hint = "wait for a while then answer"
)]
#[derive(Deserialize)]
struct Wait {
    /// Milliseconds.
    ms: u64,
}

impl Tool for Wait {
    type Output = String;
    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        ctx.report_progress("waiting", Some((0.0, Some(1.0))));
        tokio::time::sleep(Duration::from_millis(self.ms)).await;
        Ok(format!("waited {} ms", self.ms))
    }
}

/// Appends to the host's log; runs alone.
#[tool(search_hint = "append a line to the application log")]
#[derive(Deserialize)]
struct Note {
    /// The line.
    line: String,
}

/// The host's state, registered as `Arc<AppState>`.
struct AppState {
    log: Mutex<Vec<String>>,
}

impl Tool for Note {
    type Output = String;
    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let state = ctx
            .state::<AppState>()
            .ok_or_else(|| ToolError::new("no AppState"))?;
        tokio::time::sleep(Duration::from_millis(20)).await;
        state.log.lock().unwrap().push(self.line);
        Ok("noted".into())
    }
}

/// Panics.
#[tool(concurrency_safe, search_hint = "always fails by panicking loudly")]
#[derive(Deserialize)]
struct Boom {}

impl Tool for Boom {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        tokio::task::yield_now().await;
        panic!("boom at {}", 42)
    }
}

/// Waits until the turn is cancelled.
#[tool(concurrency_safe, search_hint = "wait until the turn is cancelled")]
#[derive(Deserialize)]
struct Patient {}

impl Tool for Patient {
    type Output = String;
    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        ctx.cancelled().await;
        Ok("saw the cancellation".into())
    }
}

/// Deletes everything (destructive).
#[tool(destructive, search_hint = "remove every record for good")]
#[derive(Deserialize)]
struct Wipe {}

impl Tool for Wipe {
    type Output = String;
    async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
        Ok("wiped".into())
    }
}

fn pool() -> Pool {
    let env = Env::default();
    let tools = [
        &<Wait as ToolSpec>::DESCRIPTOR,
        &<Note as ToolSpec>::DESCRIPTOR,
        &<Boom as ToolSpec>::DESCRIPTOR,
        &<Patient as ToolSpec>::DESCRIPTOR,
        &<Wipe as ToolSpec>::DESCRIPTOR,
    ]
    .into_iter()
    .map(|descriptor| Arc::new(ToolInfo::from_builtin(descriptor, &env.switches)));
    Pool::new(&env, tools)
}

fn dispatcher() -> (Dispatcher, Arc<AppState>) {
    let rules = PermissionContext::new();
    let app = Arc::new(AppState {
        log: Mutex::new(Vec::new()),
    });
    let dispatcher = Dispatcher::new(Env::default(), rules.clone(), pool(), ".")
        .with_state(State::new().with(app.clone()));
    (dispatcher, app)
}

fn uses(calls: &[(&str, Value)]) -> Vec<ToolCall> {
    calls
        .iter()
        .enumerate()
        .map(|(i, (name, input))| ToolCall::new(format!("t{i}"), *name, input.clone()))
        .collect()
}

/// Whether every call of `group` started before any of them finished: they ran together.
fn overlapped(timings: &[CallTiming]) -> bool {
    let last_start = timings.iter().filter_map(|t| t.started).max().unwrap();
    let first_end = timings.iter().map(|t| t.finished).min().unwrap();
    last_start < first_end
}

/// Whether `before` had all finished when `after` started.
fn in_sequence(before: &[CallTiming], after: &CallTiming) -> bool {
    before.iter().all(|t| t.finished <= after.started.unwrap())
}

async fn safe_calls_run_together_and_the_others_alone() {
    let (dispatcher, app) = dispatcher();
    let calls = uses(&[
        ("Wait", json!({"ms": 300})),
        ("Wait", json!({"ms": 300})),
        ("Note", json!({"line": "between"})),
        ("Wait", json!({"ms": 300})),
        ("Wait", json!({"ms": 300})),
    ]);
    let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
    let t = &turn.timings;
    assert!(overlapped(&t[0..2]), "{t:?}");
    assert!(
        in_sequence(&t[0..2], &t[2]),
        "the Note starts after both: {t:?}"
    );
    assert!(
        t[3..5].iter().all(|later| in_sequence(&t[2..3], later)),
        "{t:?}"
    );
    assert!(overlapped(&t[3..5]), "{t:?}");
    let ids: Vec<&str> = turn
        .results
        .iter()
        .map(|r| r.tool_use_id.as_str())
        .collect();
    assert_eq!(
        ids,
        ["t0", "t1", "t2", "t3", "t4"],
        "results keep the blocks' order"
    );
    assert!(
        turn.results.iter().all(|r| !r.is_error()),
        "{:?}",
        turn.results
    );
    assert_eq!(
        *app.log.lock().unwrap(),
        ["between"],
        "Arc state found by its type"
    );
    let message = tool_results(&turn);
    assert_eq!(message["role"], "user");
    assert_eq!(message["content"][2]["content"], "noted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multi_thread_runtime_runs_safe_calls_together_and_the_others_alone() {
    safe_calls_run_together_and_the_others_alone().await;
}

#[tokio::test(flavor = "current_thread")]
async fn current_thread_runtime_runs_safe_calls_together_and_the_others_alone() {
    safe_calls_run_together_and_the_others_alone().await;
}

#[tokio::test]
async fn at_most_max_concurrency_safe_calls_run_at_once() {
    let (dispatcher, _) = dispatcher();
    let calls = uses(&[
        ("Wait", json!({"ms": 100})),
        ("Wait", json!({"ms": 100})),
        ("Wait", json!({"ms": 100})),
    ]);
    let options = TurnOptions {
        max_concurrency: 2,
        ..TurnOptions::default()
    };
    let t = dispatcher.run_turn(&calls, &options).await.timings;
    assert!(overlapped(&t[0..2]), "{t:?}");
    assert!(
        t[0].finished.min(t[1].finished) <= t[2].started.unwrap(),
        "the third waits for a free slot: {t:?}"
    );
}

#[tokio::test]
async fn a_call_past_its_timeout_is_stopped_and_the_turn_goes_on() {
    let (dispatcher, _) = dispatcher();
    let calls = uses(&[("Wait", json!({"ms": 5_000})), ("Wait", json!({"ms": 1}))]);
    let options = TurnOptions {
        timeout: Some(Duration::from_millis(50)),
        ..TurnOptions::default()
    };
    let turn = dispatcher.run_turn(&calls, &options).await;
    assert_eq!(
        turn.results[0].error,
        Some(DispatchError::TimedOut {
            tool: "Wait".into(),
            after: Duration::from_millis(50)
        })
    );
    assert!(!turn.results[1].is_error());
}

#[tokio::test]
async fn cancelling_the_turn_stops_running_calls_and_skips_the_rest() {
    let (dispatcher, app) = dispatcher();
    let calls = uses(&[
        ("Wait", json!({"ms": 5_000})),
        ("Note", json!({"line": "never"})),
    ]);
    let options = TurnOptions::default();
    let cancel = options.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        cancel.cancel();
    });
    let turn = dispatcher.run_turn(&calls, &options).await;
    let cancelled = |tool: &str| {
        Some(DispatchError::Cancelled {
            tool: tool.to_owned(),
        })
    };
    assert_eq!(turn.results[0].error, cancelled("Wait"));
    assert_eq!(turn.results[1].error, cancelled("Note"));
    assert_eq!(turn.timings[1].started, None, "the Note never started");
    assert!(app.log.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_running_tool_sees_the_cancellation() {
    let (dispatcher, _) = dispatcher();
    let cancel = CancellationToken::new();
    let calls = uses(&[("Patient", json!({}))]);
    let options = TurnOptions {
        cancel: cancel.clone(),
        ..TurnOptions::default()
    };
    let turn = tokio::join!(dispatcher.run_turn(&calls, &options), async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        cancel.cancel();
    })
    .0;
    // The runner polls the call before its own cancellation, so a tool that stops when it sees
    // the signal gives its own answer.
    assert_eq!(
        turn.results[0].content,
        toolreg::ToolOutput::Text("saw the cancellation".into())
    );
}

#[tokio::test]
async fn a_panicking_call_keeps_its_message_and_the_others_finish() {
    let (dispatcher, _) = dispatcher();
    let calls = uses(&[("Boom", json!({})), ("Wait", json!({"ms": 1}))]);
    let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
    assert_eq!(
        turn.results[0].error,
        Some(DispatchError::Panicked {
            tool: "Boom".into(),
            message: "boom at 42".into()
        })
    );
    assert!(!turn.results[1].is_error());
}

#[tokio::test]
async fn a_block_with_an_id_an_earlier_block_has_is_refused_without_running() {
    let (dispatcher, app) = dispatcher();
    let calls = vec![
        ToolCall::new("same", "Note", json!({"line": "first"})),
        ToolCall::new("same", "Note", json!({"line": "second"})),
        ToolCall::new("other", "Note", json!({"line": "third"})),
    ];
    let turn = dispatcher.run_turn(&calls, &TurnOptions::default()).await;
    assert!(!turn.results[0].is_error());
    assert_eq!(
        turn.results[1].error,
        Some(DispatchError::DuplicateId {
            tool: "Note".into(),
            id: "same".into()
        })
    );
    assert!(!turn.results[2].is_error());
    assert_eq!(*app.log.lock().unwrap(), ["first", "third"]);
}

#[tokio::test]
async fn progress_reports_reach_the_host_with_the_tool_use_id() {
    let (dispatcher, _) = dispatcher();
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let options = TurnOptions {
        progress: Some(Arc::new(move |report: Progress| {
            sink.lock().unwrap().push(report)
        })),
        ..TurnOptions::default()
    };
    dispatcher
        .run_turn(&uses(&[("Wait", json!({"ms": 1}))]), &options)
        .await;
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].tool_use_id, "t0");
    assert_eq!(seen[0].message, "waiting");
}

#[tokio::test]
async fn destructive_tool_asks_and_without_an_approver_is_refused() {
    let mut rules = PermissionContext::new();
    let (dispatcher, _) = dispatcher();
    let result = dispatcher
        .dispatch(&ToolCall::new("w", "Wipe", json!({})))
        .await;
    assert!(
        matches!(&result.error, Some(DispatchError::NeedsApproval { tool, .. }) if tool == "Wipe"),
        "{result:?}"
    );
    let env = Env::default();
    rules.add(toolreg::Behavior::Allow, toolreg::RuleSource::User, "Wipe");
    let allowed = Dispatcher::new(env, rules.clone(), pool(), ".");
    let result = allowed
        .dispatch(&ToolCall::new("w", "Wipe", json!({})))
        .await;
    assert!(!result.is_error(), "{result:?}");
}

/// A turn inside a handler whose future must be `Send` (an MCP server's `call_tool`, a
/// spawned task): this compiles only when the turn's future is `Send` for every lifetime.
fn in_a_send_handler<'a>(
    dispatcher: &'a Dispatcher,
    calls: &'a [ToolCall],
    options: &'a TurnOptions,
) -> toolreg::tool::BoxFuture<'a, toolreg::Turn> {
    Box::pin(dispatcher.run_turn(calls, options))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_runs_in_a_spawned_task_and_a_send_handler() {
    let (dispatcher, _) = dispatcher();
    let calls = uses(&[("Wait", json!({"ms": 1})), ("Note", json!({"line": "x"}))]);
    let options = TurnOptions::default();
    let turn = in_a_send_handler(&dispatcher, &calls, &options).await;
    assert!(
        turn.results.iter().all(|r| !r.is_error()),
        "{:?}",
        turn.results
    );
    let spawned = tokio::spawn(async move { dispatcher.run_turn(&calls, &options).await });
    assert_eq!(spawned.await.unwrap().results.len(), 2);
}
