//! Processes die with their call: what a Bash command starts (background jobs, `setsid`'d
//! and double-forked ones) is not running after the call returns, times out or is cancelled.
//! (That they also die with the process running the call, killed or not, is the CLI's test:
//! `cli/tests/lifetime.rs`.)
//!
//! Every process of a test carries a marker (in its environment, and in the command line of
//! the shells and of bwrap), and the test counts the live processes of the host that carry it
//! by scanning `/proc`. Where the kernel needs a moment to tear a namespace down, the count is
//! polled a bounded number of times; no test asserts how long anything takes.

use crate::common;

use std::path::Path;
use std::time::Duration;

use serde_json::json;
use toolreg::dispatch::CancellationToken;
use toolreg::env::Switches;
use toolreg::sandbox::Sandboxing;
use toolreg::tool::IntoToolOutput as _;
use toolreg::{Tool as _, ToolContext};
use toolreg_tools::bash::BashTool;

/// A marker unique to the test.
fn marker(test: &str) -> String {
    format!("toolreg-lifetime-{}-{test}", std::process::id())
}

/// The live processes (zombies left out) whose command line or environment holds `marker`.
fn running(marker: &str) -> Vec<String> {
    let marker = marker.as_bytes();
    let holds = |bytes: &[u8]| bytes.windows(marker.len()).any(|window| window == marker);
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let dir = entry.path();
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        // `pid (comm) state …`: the state follows the last `)`.
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next());
        if matches!(state, None | Some("Z" | "X")) {
            continue;
        }
        let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
        let environ = std::fs::read(dir.join("environ")).unwrap_or_default();
        if holds(&cmdline) || holds(&environ) {
            found.push(stat);
        }
    }
    found
}

/// Polls until no process holds `marker` (at most 400 looks, 25 ms apart); what is still
/// running then.
fn left_running(marker: &str) -> Vec<String> {
    let mut left = running(marker);
    for _ in 0..400 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
        left = running(marker);
    }
    left
}

/// Polls until at least `count` `sleep` processes hold `marker` (at most 2,400 looks, 25 ms
/// apart); whether they did.
fn started(marker: &str, count: usize) -> bool {
    let sleeps = || {
        running(marker)
            .iter()
            .filter(|stat| stat.contains("(sleep)"))
            .count()
    };
    for _ in 0..2400 {
        if sleeps() >= count {
            return true;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    false
}

/// Kills whatever still holds `marker`, so a failed test leaves nothing behind.
fn clean_up(marker: &str) {
    for stat in running(marker) {
        if let Some(pid) = stat
            .split_whitespace()
            .next()
            .and_then(|pid| pid.parse().ok())
        {
            // SAFETY: kill(2) on a pid we found running with our marker.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

/// A command that starts, with `marker` in their environment, a background job, a `setsid`'d
/// one and a double-forked one, then runs `rest`.
fn spawner(marker: &str, rest: &str) -> String {
    format!(
        "export TOOLREG_LIFETIME_MARK={marker}; sleep 1000 & setsid sleep 1000 & \
         (setsid sh -c 'sleep 1000 &' &); {rest}"
    )
}

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
