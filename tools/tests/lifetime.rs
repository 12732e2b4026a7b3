//! Processes die with their call: what a Bash command starts (background jobs, `setsid`'d
//! and double-forked ones) is not running after the call returns, times out or is cancelled.
//! (That they also die with the process running the call, killed or not, is the CLI's test:
//! `cli/tests/lifetime.rs`.)
//!
//! Every process of a test carries a marker, and the test counts the host's live processes that
//! carry it (`toolreg-test-processes`, which every lifetime test shares); no test asserts how
//! long anything takes.

use crate::common;

use std::path::Path;

use serde_json::json;
use toolreg::dispatch::CancellationToken;
use toolreg::env::Switches;
use toolreg::sandbox::Sandboxing;
use toolreg::tool::IntoToolOutput as _;
use toolreg::{Tool as _, ToolContext};
use toolreg_test_processes::{clean_up, left_running, marker, running, spawner, started};
use toolreg_tools::bash::BashTool;

/// Calls Bash in `dir` with `sandboxing` and, optionally, a cancellation.
fn bash(
    dir: &Path,
    sandboxing: &Sandboxing,
    cancel: Option<&CancellationToken>,
    input: serde_json::Value,
) -> Result<String, String> {
    let switches = Switches::default();
    let mut ctx = ToolContext::new(dir, &switches).with_sandboxing(sandboxing);
    if let Some(cancel) = cancel {
        ctx = ctx.with_cancellation(cancel);
    }
    let tool: BashTool = serde_json::from_value(input).unwrap();
    common::block_on(tool.call(&ctx))
        .map(|output| format!("{:?}", output.into_tool_output()))
        .map_err(|error| error.message().to_owned())
}

fn sandboxings() -> Vec<(&'static str, Sandboxing)> {
    let mut all = vec![("off", Sandboxing::Off)];
    match Sandboxing::detect() {
        Sandboxing::On(sandbox) => all.push(("on", Sandboxing::On(sandbox))),
        other => eprintln!("the sandboxed variant is skipped: {other:?}"),
    }
    all
}

#[test]
fn background_jobs_do_not_outlive_the_call() {
    for (name, sandboxing) in sandboxings() {
        let mark = marker(&format!("returns-{name}"));
        let dir = tempfile::tempdir().unwrap();
        let output = bash(
            dir.path(),
            &sandboxing,
            None,
            json!({"command": spawner(&mark, "echo started")}),
        );
        assert!(
            output.as_deref().is_ok_and(|out| out.contains("started")),
            "{output:?}"
        );
        let left = left_running(&mark);
        clean_up(&mark);
        assert!(left.is_empty(), "sandbox {name}: still running: {left:?}");
    }
}

#[test]
fn setsid_jobs_do_not_outlive_the_timeout() {
    for (name, sandboxing) in sandboxings() {
        let mark = marker(&format!("timeout-{name}"));
        let dir = tempfile::tempdir().unwrap();
        let output = bash(
            dir.path(),
            &sandboxing,
            None,
            json!({"command": spawner(&mark, "sleep 1000"), "timeout": 1000}),
        );
        assert!(
            output
                .as_ref()
                .is_err_and(|error| error.contains("timed out")),
            "{output:?}"
        );
        let left = left_running(&mark);
        clean_up(&mark);
        assert!(left.is_empty(), "sandbox {name}: still running: {left:?}");
    }
}

#[test]
fn setsid_jobs_do_not_outlive_a_cancelled_call() {
    for (name, sandboxing) in sandboxings() {
        let mark = marker(&format!("cancel-{name}"));
        let dir = tempfile::tempdir().unwrap();
        let cancel = CancellationToken::new();
        let output = std::thread::scope(|scope| {
            let call = scope.spawn(|| {
                bash(
                    dir.path(),
                    &sandboxing,
                    Some(&cancel),
                    json!({"command": spawner(&mark, "sleep 1000")}),
                )
            });
            // The three jobs and the shell's own sleep.
            assert!(
                started(&mark, 4),
                "the command starts: {:?}",
                running(&mark)
            );
            cancel.cancel();
            call.join().unwrap()
        });
        assert!(
            output
                .as_ref()
                .is_err_and(|error| error.contains("cancelled")),
            "{output:?}"
        );
        let left = left_running(&mark);
        clean_up(&mark);
        assert!(left.is_empty(), "sandbox {name}: still running: {left:?}");
    }
}
