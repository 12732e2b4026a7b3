//! Bash against a temporary directory.

use crate::common;

use std::time::Duration;

use common::{error, text};
use serde_json::json;
use toolreg::env::Switches;
use toolreg::{Tool, ToolContext};
use toolreg_tools::bash::{BashTool, MAX_OUTPUT_CHARS};

#[test]
fn output_of_stdout_and_stderr_is_combined_with_exit_code_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = text::<BashTool>(dir.path(), json!({"command": "echo out; echo err >&2"}));
    assert_eq!(out, "out\nerr\n\nExit code: 0");
}

#[test]
fn command_runs_in_the_context_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("marker.txt"), "").unwrap();
    let out = text::<BashTool>(dir.path(), json!({"command": "ls"}));
    assert!(out.starts_with("marker.txt\n"), "{out}");
}

#[test]
fn non_zero_exit_is_not_an_error_and_reports_the_code() {
    let dir = tempfile::tempdir().unwrap();
    let out = text::<BashTool>(dir.path(), json!({"command": "echo failing; exit 3"}));
    assert_eq!(out, "failing\n\nExit code: 3");
}

#[test]
fn empty_output_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = text::<BashTool>(dir.path(), json!({"command": "true"}));
    assert_eq!(out, "(no output)\n\nExit code: 0");
}

#[test]
fn timeout_kills_the_whole_process_group_and_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    // A background child of the shell would create the marker after one second, unless the
    // timeout killed the group it belongs to.
    let message = error::<BashTool>(
        dir.path(),
        json!({"command": "echo before; (sleep 1; touch marker) & sleep 30", "timeout": 300}),
    );
    assert!(
        message.starts_with("Command timed out after 300 ms"),
        "{message}"
    );
    assert!(message.contains("before"), "{message}");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !dir.path().join("marker").exists(),
        "the background child survived"
    );
}

#[test]
fn output_beyond_the_cap_is_cut_with_a_visible_marker() {
    let dir = tempfile::tempdir().unwrap();
    let out = text::<BashTool>(
        dir.path(),
        json!({"command": "head -c 200000 /dev/zero | tr '\\0' 'x'"}),
    );
    let kept = out.split("\n\n").next().unwrap();
    assert!(kept.len() > MAX_OUTPUT_CHARS - 200 && kept.bytes().all(|b| b == b'x'));
    assert!(out.contains(&format!(
        "[output truncated: showing the first {} characters of 200000 bytes]",
        kept.len()
    )));
    // The marker and the exit code fit in the cap, so dispatch's cut never removes them.
    assert!(out.chars().count() <= MAX_OUTPUT_CHARS, "{}", out.len());
    assert!(out.ends_with("Exit code: 0"));
}

#[test]
fn timeout_above_ten_minutes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<BashTool>(dir.path(), json!({"command": "true", "timeout": 600_001}));
    assert!(message.contains("600000"), "{message}");
}

#[test]
fn rule_subject_is_the_command() {
    let tool: BashTool = serde_json::from_value(json!({"command": "npm test"})).unwrap();
    let switches = Switches::default();
    let ctx = ToolContext::new(std::path::Path::new("."), &switches);
    assert_eq!(
        tool.rule_subject(&ctx),
        Some(toolreg::permissions::Subject::Command("npm test".into()))
    );
    assert!(tool.validate_input(&ctx).is_ok());
}
