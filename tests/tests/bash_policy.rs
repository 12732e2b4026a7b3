//! When Bash, Edit and NotebookEdit run without asking, through the dispatcher with real bash
//! and real files.
//!
//! Bash asks unless every simple command of the line is allowed by a rule or is on the
//! read-only list, or the mode bypasses permissions; Edit and NotebookEdit ask in the default
//! mode (accept-edits lets them through). Without an approver, a call that asks is refused.

use crate::common;

use std::fs;
use std::path::Path;

use serde_json::{Value, json};
use toolreg::{
    Behavior, DispatchError, Dispatcher, PermissionContext, PermissionMode, RuleSource, ToolCall,
    ToolOutput, ToolResult, assemble_tool_pool,
};

fn dispatch(
    mode: PermissionMode,
    allow: &[&str],
    cwd: &Path,
    tool: &str,
    input: Value,
) -> ToolResult {
    let mut rules = PermissionContext::new();
    rules.mode = mode;
    rules.set_project_root(cwd);
    for rule in allow {
        rules.add(Behavior::Allow, RuleSource::User, rule);
    }
    let env = common::env();
    let pool = assemble_tool_pool(&env, &rules, &common::catalog(), &[]);
    let dispatcher = Dispatcher::new(env, rules, pool, cwd);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(dispatcher.dispatch(&ToolCall::new("toolu_1", tool, input)))
}

fn bash(mode: PermissionMode, allow: &[&str], cwd: &Path, command: &str) -> ToolResult {
    dispatch(mode, allow, cwd, "Bash", json!({"command": command}))
}

fn text(result: &ToolResult) -> &str {
    match &result.content {
        ToolOutput::Text(text) => text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[track_caller]
fn asked(result: &ToolResult) {
    assert!(
        matches!(result.error, Some(DispatchError::NeedsApproval { .. })),
        "{}",
        text(result)
    );
}

#[test]
fn bash_asks_in_the_default_mode_unless_the_command_only_reads() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "hello\n").unwrap();
    for command in [
        "ls",
        "cat a.txt | wc -l",
        "grep -r hello . && pwd",
        "git log --oneline -1 2>/dev/null; echo done",
    ] {
        let result = bash(PermissionMode::Default, &[], dir.path(), command);
        assert!(!result.is_error(), "{command}: {}", text(&result));
    }
    for command in [
        "touch made",
        "echo x > made",
        "ls; touch made",
        "ls $(touch made)",
        "sort -o made a.txt",
        "find . -name a.txt -delete",
        "setsid touch made",
    ] {
        let result = bash(PermissionMode::Default, &[], dir.path(), command);
        asked(&result);
        assert!(!dir.path().join("made").exists(), "{command} ran");
        assert!(dir.path().join("a.txt").exists(), "{command} ran");
    }
}

#[test]
fn bash_allow_rule_lets_through_only_the_commands_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let allow = ["Bash(git status:*)"];
    let result = bash(
        PermissionMode::Default,
        &allow,
        dir.path(),
        "git status; touch made",
    );
    asked(&result);
    assert!(!dir.path().join("made").exists());
    let result = bash(
        PermissionMode::Default,
        &allow,
        dir.path(),
        "git status 2>&1; ls",
    );
    assert!(!result.is_error(), "{}", text(&result));
    let allow = ["Bash(touch:*)"];
    let result = bash(
        PermissionMode::Default,
        &allow,
        dir.path(),
        "touch made && ls",
    );
    assert!(!result.is_error(), "{}", text(&result));
    assert!(dir.path().join("made").exists());
}

#[test]
fn bash_runs_everything_not_denied_when_the_mode_bypasses_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let result = bash(
        PermissionMode::BypassPermissions,
        &[],
        dir.path(),
        "touch made",
    );
    assert!(!result.is_error(), "{}", text(&result));
    assert!(dir.path().join("made").exists());
}

#[test]
fn edit_and_notebook_edit_ask_in_the_default_mode_and_run_when_edits_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.txt");
    fs::write(&file, "hello\n").unwrap();
    let notebook = dir.path().join("n.ipynb");
    let cells = json!({"cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "source": ["1"], "outputs": [], "execution_count": null}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5});
    fs::write(&notebook, cells.to_string()).unwrap();
    let edit = json!({"file_path": file, "old_string": "hello", "new_string": "bye"});
    let cell = json!({"notebook_path": notebook, "cell_id": "c1", "new_source": "2"});
    asked(&dispatch(
        PermissionMode::Default,
        &[],
        dir.path(),
        "Edit",
        edit.clone(),
    ));
    asked(&dispatch(
        PermissionMode::Default,
        &[],
        dir.path(),
        "NotebookEdit",
        cell.clone(),
    ));
    assert_eq!(fs::read_to_string(&file).unwrap(), "hello\n");
    assert_eq!(fs::read_to_string(&notebook).unwrap(), cells.to_string());
    let result = dispatch(PermissionMode::AcceptEdits, &[], dir.path(), "Edit", edit);
    assert!(!result.is_error(), "{}", text(&result));
    let result = dispatch(
        PermissionMode::AcceptEdits,
        &[],
        dir.path(),
        "NotebookEdit",
        cell,
    );
    assert!(!result.is_error(), "{}", text(&result));
    assert_eq!(fs::read_to_string(&file).unwrap(), "bye\n");
}

#[test]
fn bash_edit_and_notebook_edit_are_marked_destructive() {
    let catalog = common::catalog();
    for name in ["Bash", "Edit", "NotebookEdit", "Write"] {
        let tool = catalog
            .tools()
            .iter()
            .find(|tool| tool.name == name)
            .unwrap();
        assert!(tool.flags.destructive, "{name}");
    }
}
