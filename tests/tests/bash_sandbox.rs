//! The rules become the sandbox: Bash, called through the dispatcher in bypass mode (so the
//! shell checker lets everything through), still cannot read what `Read` deny rules cover,
//! write what `Edit` deny rules cover, or write outside the working directories — also with
//! commands that fool the checker. Runs only where the sandbox works; where it does not, it
//! prints why and passes, unless `TOOLREG_REQUIRE_SANDBOX` is set (CI sets it).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::json;
use toolreg::sandbox::Sandboxing;
use toolreg::{
    Behavior, Dispatcher, PermissionContext, PermissionMode, RuleSource, ToolCall, ToolOutput,
    ToolResult, assemble_tool_pool,
};

fn sandboxing() -> Option<Sandboxing> {
    common::sandbox().map(Sandboxing::On)
}

/// `proj/` with `secrets/key.txt`, `.env`, `src/deep/.env`, `docs/readme.txt`, a link
/// `pub/lnk -> ../secrets`, and `outside/` beside it; outside `/tmp`, which the sandbox
/// replaces by a private one.
struct Tree {
    _dir: tempfile::TempDir,
    proj: PathBuf,
    outside: PathBuf,
}

fn tree() -> Tree {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tempfile::tempdir_in(base).unwrap();
    let root = dir.path().canonicalize().unwrap();
    let proj = root.join("proj");
    for (path, text) in [
        ("proj/secrets/key.txt", "TOPSECRET-key"),
        ("proj/.env", "TOPSECRET-env"),
        ("proj/src/deep/.env", "TOPSECRET-deep"),
        ("proj/docs/readme.txt", "DOCS"),
        ("proj/notes.txt", "NOTES"),
        ("outside/keep.txt", "OUTSIDE"),
    ] {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    fs::create_dir_all(proj.join("pub")).unwrap();
    std::os::unix::fs::symlink("../secrets", proj.join("pub/lnk")).unwrap();
    Tree {
        _dir: dir,
        outside: root.join("outside"),
        proj,
    }
}

fn bash(sandboxing: &Sandboxing, t: &Tree, command: &str) -> ToolResult {
    bash_in(PermissionMode::BypassPermissions, sandboxing, t, command)
}

fn bash_in(mode: PermissionMode, sandboxing: &Sandboxing, t: &Tree, command: &str) -> ToolResult {
    let mut rules = PermissionContext::new();
    rules.mode = mode;
    rules.set_project_root(&t.proj);
    for (behavior, rule) in [
        (Behavior::Deny, "Read(./secrets/**)"),
        (Behavior::Deny, "Read(*.env)"),
        (Behavior::Deny, "Edit(./docs/**)"),
    ] {
        rules.add(behavior, RuleSource::User, rule);
    }
    let env = common::env();
    let pool = assemble_tool_pool(&env, &rules, &common::catalog(), &[]);
    let dispatcher = Dispatcher::new(env, rules, pool, &t.proj).with_sandboxing(sandboxing.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(dispatcher.dispatch(&ToolCall::new(
        "toolu_1",
        "Bash",
        json!({"command": command}),
    )))
}

fn output(result: &ToolResult) -> &str {
    match &result.content {
        ToolOutput::Text(text) => text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[test]
fn read_deny_rules_hide_their_files_from_any_command() {
    let Some(sandboxing) = sandboxing() else {
        return;
    };
    let t = tree();
    for command in [
        "cat secrets/key.txt",
        "cat pub/lnk/key.txt",
        "cat .env src/deep/.env",
        "cat /proc/self/root$PWD/secrets/key.txt",
        "cd / && cat \"$OLDPWD/secrets/key.txt\"",
        // Text bash evaluates behind the checker's back.
        "x='a[$(cat secrets/key.txt >&2)]'; let x",
        "(cat secrets/key.txt &) ; wait; sleep 0.1",
        "grep -r TOPSECRET . ; find . -name key.txt -exec cat {} +",
    ] {
        let result = bash(&sandboxing, &t, command);
        assert!(
            !output(&result).contains("TOPSECRET"),
            "{command}: {}",
            output(&result)
        );
    }
    // What no rule covers is read as before.
    let result = bash(&sandboxing, &t, "cat notes.txt docs/readme.txt");
    assert!(output(&result).contains("NOTESDOCS"), "{}", output(&result));
}

#[test]
fn edit_deny_rules_and_the_working_directories_bound_what_any_command_writes() {
    let Some(sandboxing) = sandboxing() else {
        return;
    };
    let t = tree();
    let outside = t.outside.display().to_string();
    for command in [
        "echo x > docs/readme.txt".to_owned(),
        "rm -f docs/readme.txt".to_owned(),
        "x='a[$(echo x > docs/readme.txt)]'; let x".to_owned(),
        format!("echo x > {outside}/keep.txt; touch {outside}/new"),
        format!("setsid sh -c 'echo x > {outside}/keep.txt' ; sleep 0.1"),
        format!("cd {outside} && touch new2"),
    ] {
        bash(&sandboxing, &t, &command);
    }
    assert_eq!(
        fs::read_to_string(t.proj.join("docs/readme.txt")).unwrap(),
        "DOCS"
    );
    assert_eq!(
        fs::read_to_string(t.outside.join("keep.txt")).unwrap(),
        "OUTSIDE"
    );
    assert!(!t.outside.join("new").exists() && !t.outside.join("new2").exists());
    // Inside the working directories, writes go through.
    let result = bash(&sandboxing, &t, "echo made > made.txt && cat made.txt");
    assert!(output(&result).contains("made"), "{}", output(&result));
    assert!(t.proj.join("made.txt").exists());
}

#[test]
fn without_a_working_sandbox_unasked_commands_are_held_to_the_list_and_the_read_rules() {
    let t = tree();
    for sandboxing in [
        Sandboxing::Unavailable("bwrap not found".into()),
        Sandboxing::Off,
    ] {
        // `ls` of the project reads names only; `cat notes.txt` a file no rule covers.
        for command in ["ls", "cat notes.txt"] {
            let result = bash_in(PermissionMode::Default, &sandboxing, &t, command);
            assert!(!result.is_error(), "{command}: {}", output(&result));
        }
        // What a Read deny rule covers, named, walked or behind a glob, asks.
        for command in ["cat secrets/key.txt", "grep -r TOP .", "cat src/deep/*"] {
            let result = bash_in(PermissionMode::Default, &sandboxing, &t, command);
            assert!(
                matches!(
                    result.error,
                    Some(toolreg::DispatchError::NeedsApproval { .. })
                ),
                "{command}: {}",
                output(&result)
            );
        }
    }
}
