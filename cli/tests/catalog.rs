//! A large catalog through the command line: `list --json` and `search` over 20,000 MCP tools
//! (the catalog `BENCHMARKS.md` measures at 100,000, `examples/catalog.rs`) cost a small
//! multiple of the catalog's text in resident memory. The child's peak is the kernel's count
//! (`wait4`), not a clock: the bounds are in bytes, and hold in debug and release builds.
//!
//! What they guard against, each several times over a bound: a `Value` tree of every
//! `tools/list` file (about eight times its text), the listing built as a `Value` and a string
//! before it is printed, name tables keyed by copies of every name.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Command, Stdio};

use super::binary;

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/catalog.rs"]
mod generator;

/// The tools of the catalog.
const TOOLS: usize = 20_000;

/// The peak resident memory of `toolreg ARGS`, in bytes, which must succeed.
// The child is reaped by `wait4`, which reports its resources where `Child::wait` would not.
#[allow(clippy::zombie_processes)]
fn peak_rss(args: &[String]) -> u64 {
    let child = Command::new(binary())
        .args(args)
        .env_remove("ENABLE_TOOL_SEARCH")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run toolreg");
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value, which `wait4` fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for this test's own child, once; `status` and `usage` outlive the call.
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as libc::pid_t, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "toolreg {args:?} failed: {status}"
    );
    // Linux counts `ru_maxrss` in KiB.
    usage.ru_maxrss as u64 * 1024
}

fn options(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("options"))
        .expect("the catalog's options")
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[test]
fn list_and_search_of_twenty_thousand_tools_cost_a_few_times_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = generator::write(dir.path(), TOOLS).expect("the catalog is written") as u64;
    let mcp = options(dir.path());
    let with = |command: &[&str]| -> Vec<String> {
        let command = command.iter().map(|arg| (*arg).to_owned());
        mcp.iter().cloned().chain(command).collect()
    };
    let base = peak_rss(&["--no-demo".into(), "list".into(), "--json".into()]);
    for (command, times) in [
        (&["list", "--json"][..], 4),
        (&["search", "weather forecast"][..], 5),
    ] {
        let peak = peak_rss(&with(command));
        let above = peak.saturating_sub(base);
        eprintln!(
            "{command:?}: {} KiB resident at the peak, {} KiB above an empty pool's, {:.1} times the catalog's text ({} KiB)",
            peak / 1024,
            above / 1024,
            above as f64 / text as f64,
            text / 1024
        );
        assert!(
            above <= times * text,
            "{command:?} over {TOOLS} tools took {above} bytes above an empty pool's {base}, more than {times} times the catalog's {text} bytes of text"
        );
    }
}
