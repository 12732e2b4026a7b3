//! What a Bash call may do follows from how it was allowed: a call run unasked (the checker
//! found every command only reads) gets nothing writable, no network, no sockets and none of
//! this process's open files, so a command the checker misjudged can at worst read; a call a
//! rule allowed or the user approved gets the working directories and the network. Against
//! real bash, files, sockets and processes. Runs only where the sandbox works; where it does
//! not, it prints why and passes, unless `TOOLREG_REQUIRE_SANDBOX` is set (CI sets it).

use crate::common;

use std::fs;
use std::io::Read as _;
use std::os::fd::AsRawFd as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use toolreg::ApprovalRequest;
use toolreg::env::Switches;
use toolreg::permissions::Grant;
use toolreg::sandbox::Sandboxing;
use toolreg::tool::IntoToolOutput as _;
use toolreg::{
    Dispatcher, PermissionContext, Pool, Tool as _, ToolCall, ToolContext, ToolOutput, ToolResult,
    assemble_tool_pool,
};
use toolreg_tools::bash::BashTool;

use common::sandbox;

/// A project directory outside `/tmp` (which the sandbox replaces by a private one) with
/// `notes.txt`.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let proj = dir.path().canonicalize().unwrap();
    fs::write(proj.join("notes.txt"), "NOTES").unwrap();
    (dir, proj)
}

/// Runs `command` with the Bash tool directly, under `grant`, in `proj`.
fn run(sandboxing: &Sandboxing, proj: &Path, grant: Grant, command: &str) -> String {
    let switches = Switches::default();
    let mut rules = PermissionContext::new();
    rules.set_project_root(proj);
    let ctx = ToolContext::new(proj, &switches)
        .with_sandboxing(sandboxing)
        .with_permissions(&rules)
        .with_grant(grant);
    let bash: BashTool = serde_json::from_value(json!({ "command": command })).unwrap();
    match block_on(bash.call(&ctx)).map(|out| out.into_tool_output()) {
        Ok(ToolOutput::Text(text)) => text,
        other => panic!("{other:?}"),
    }
}

/// Dispatches one Bash call in `proj` with `rules`, approving whatever asks when `approve`.
fn dispatch(
    sandboxing: Sandboxing,
    proj: &Path,
    mut rules: PermissionContext,
    approve: bool,
    command: &str,
) -> ToolResult {
    rules.set_project_root(proj);
    let env = common::env();
    let pool = assemble_tool_pool(&env, &rules, &common::catalog(), &[]);
    let mut dispatcher = Dispatcher::new(env, rules, pool, proj).with_sandboxing(sandboxing);
    if approve {
        dispatcher = dispatcher.with_approver(Arc::new(|_: ApprovalRequest| async { true }));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(dispatcher.dispatch(&ToolCall::new(
        "t1",
        "Bash",
        json!({ "command": command }),
    )))
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

fn text(result: &ToolResult) -> &str {
    match &result.content {
        ToolOutput::Text(text) => text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[test]
fn unasked_command_runs_with_nothing_writable() {
    let Some(sandbox) = sandbox() else { return };
    let (_dir, proj) = project();
    let on = Sandboxing::On(sandbox);
    let out = run(
        &on,
        &proj,
        Grant::Unasked,
        "echo x > written.txt; touch -d 2000-01-01 notes.txt",
    );
    assert!(out.contains("Read-only file system"), "{out}");
    assert!(!proj.join("written.txt").exists(), "{out}");
    let age = fs::metadata(proj.join("notes.txt"))
        .unwrap()
        .modified()
        .unwrap();
    assert!(age.elapsed().unwrap().as_secs() < 3600, "{out}");
    // The same command, approved, writes the working directory.
    let out = run(&on, &proj, Grant::Approved, "echo x > written.txt");
    assert!(proj.join("written.txt").exists(), "{out}");
}

#[test]
fn a_misjudged_read_only_command_through_dispatch_cannot_write() {
    let Some(sandbox) = sandbox() else { return };
    let (_dir, proj) = project();
    // An output option attached to its letter: a checker that compares whole words with
    // `-o` takes it for a plain sort.
    let result = dispatch(
        Sandboxing::On(sandbox),
        &proj,
        PermissionContext::new(),
        false,
        "sort -oout.txt notes.txt",
    );
    assert!(!proj.join("out.txt").exists(), "{result:?}");
}

#[test]
fn unasked_command_cannot_reach_a_listener_on_the_host() {
    let Some(sandbox) = sandbox() else { return };
    let (_dir, proj) = project();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let send = format!("cat notes.txt > /dev/tcp/127.0.0.1/{port} && echo sent");
    let on = Sandboxing::On(sandbox);
    let out = run(&on, &proj, Grant::Unasked, &send);
    assert!(!out.contains("sent"), "{out}");
    assert!(listener.accept().is_err(), "a connection came in: {out}");
    // Approved, with the sandbox's network on, the same command reaches the listener.
    let out = run(&on, &proj, Grant::Approved, &send);
    assert!(out.contains("sent"), "{out}");
    let (mut stream, _) = listener.accept().unwrap();
    stream.set_nonblocking(false).unwrap();
    let mut got = String::new();
    stream.read_to_string(&mut got).unwrap();
    assert_eq!(got, "NOTES");
}

#[test]
fn unasked_command_cannot_connect_to_a_unix_socket_on_a_path() {
    let Some(sandbox) = sandbox() else { return };
    let (_dir, proj) = project();
    // A host service's socket the command can see: connecting needs no write access, so
    // only refusing new sockets stops it.
    let listener = std::os::unix::net::UnixListener::bind(proj.join("daemon.sock")).unwrap();
    listener.set_nonblocking(true).unwrap();
    let connect = "perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => \"daemon.sock\") \
                   or die \"refused: $!\\n\"; print \"connected\\n\"'";
    let on = Sandboxing::On(sandbox);
    let out = run(&on, &proj, Grant::Unasked, connect);
    assert!(out.contains("refused: Permission denied"), "{out}");
    assert!(listener.accept().is_err(), "a connection came in: {out}");
    let out = run(&on, &proj, Grant::Approved, connect);
    assert!(out.contains("connected"), "{out}");
    assert!(listener.accept().is_ok(), "{out}");
}

/// A descriptor to a file outside the project, opened without close-on-exec, as a parent
/// process might leave one; returns its number and what the file holds.
fn inherited_descriptor(dir: &Path) -> (fs::File, i32) {
    let path = dir.join("held.txt");
    fs::write(&path, "HELD-BY-THE-HOST").unwrap();
    let file = fs::File::open(&path).unwrap();
    // F_DUPFD gives a copy without close-on-exec, at 40 or above.
    // SAFETY: fcntl on a descriptor this test owns.
    let fd = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD, 40) };
    assert!(fd >= 40);
    fs::remove_file(&path).unwrap();
    (file, fd)
}

#[test]
fn host_descriptors_do_not_reach_a_command_in_or_out_of_the_sandbox() {
    let (_dir, proj) = project();
    let outside = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (_file, fd) = inherited_descriptor(outside.path());
    let read = format!("cat <&{fd}; cat /proc/self/fd/{fd}; ls /proc/self/fd | wc -l");
    let mut modes = vec![Sandboxing::Off];
    modes.extend(sandbox().map(Sandboxing::On));
    for sandboxing in &modes {
        for grant in [Grant::Unasked, Grant::Approved] {
            let out = run(sandboxing, &proj, grant, &read);
            assert!(
                !out.contains("HELD-BY-THE-HOST"),
                "{sandboxing:?} {grant:?}: {out}"
            );
        }
    }
    // SAFETY: closing the descriptor this test made.
    unsafe { libc::close(fd) };
}

#[test]
fn one_call_cannot_run_more_processes_than_its_bound() {
    let Some(sandbox) = sandbox() else { return };
    let Some(_) = sandbox.process_limit() else {
        // SAFETY: getuid has no preconditions.
        let root = unsafe { libc::getuid() } == 0;
        assert!(
            !(root && std::env::var_os("TOOLREG_REQUIRE_SANDBOX").is_some()),
            "no pids cgroup could be made, though this runs as root"
        );
        eprintln!("skipped: no pids cgroup can be made here, so processes are not bounded");
        return;
    };
    let (_dir, proj) = project();
    let on = Sandboxing::On(sandbox.with_max_processes(20));
    // Forks until the kernel refuses; each child waits, so they all count at once.
    let out = run(
        &on,
        &proj,
        Grant::Approved,
        "perl -e 'for my $n (1..1000) { my $pid = fork; if (!defined $pid) { print \"stopped at $n\\n\"; exit } \
         if (!$pid) { sleep 60; exit } } print \"all 1000\\n\"'",
    );
    let stopped: u32 = out
        .lines()
        .find_map(|line| line.strip_prefix("stopped at "))
        .unwrap_or_else(|| panic!("{out}"))
        .parse()
        .unwrap();
    assert!(stopped <= 21, "{out}");
}

#[test]
fn bash_output_past_the_cap_keeps_its_exit_code() {
    let (_dir, proj) = project();
    let result = dispatch(
        Sandboxing::Off,
        &proj,
        PermissionContext::new(),
        true,
        "head -c 40000 /dev/zero | tr '\\0' x; exit 3",
    );
    let out = text(&result);
    assert!(
        out.ends_with("\n\nExit code: 3"),
        "{}",
        &out[out.len() - 200..]
    );
    assert!(
        out.contains("[output truncated: showing the first "),
        "{out}"
    );
    assert!(out.chars().count() <= toolreg_tools::bash::MAX_OUTPUT_CHARS);
}

#[test]
fn a_dispatcher_uses_the_sandbox_it_detects_unless_told_otherwise() {
    let Some(_) = sandbox() else { return };
    let dispatcher = Dispatcher::new(
        common::env(),
        PermissionContext::new(),
        Pool::default(),
        ".",
    );
    assert!(
        matches!(dispatcher.sandboxing(), Sandboxing::On(_)),
        "{:?}",
        dispatcher.sandboxing()
    );
    let off = dispatcher.with_sandboxing(Sandboxing::Off);
    assert!(matches!(off.sandboxing(), Sandboxing::Off));
}

#[test]
fn a_path_under_a_read_ask_rule_is_unreadable_to_an_unasked_command() {
    let Some(sandbox) = sandbox() else { return };
    let (_dir, proj) = project();
    fs::create_dir(proj.join("secrets")).unwrap();
    fs::write(proj.join("secrets/key.txt"), "TOPSECRET-asked").unwrap();
    let rules = PermissionContext::new().with(
        toolreg::Behavior::Ask,
        toolreg::RuleSource::User,
        "Read(./secrets/**)",
    );
    let result = dispatch(
        Sandboxing::On(sandbox),
        &proj,
        rules,
        false,
        "cat secrets/key.txt; grep -r TOPSECRET .; cat notes.txt",
    );
    let out = text(&result);
    assert!(!out.contains("TOPSECRET-asked"), "{out}");
}

/// `proj/secrets/key.txt` under `rule` (deny or ask), then each command dispatched without a
/// sandbox and without an approver: none may print the secret, and each must ask.
fn without_a_sandbox_reads_of_protected_paths_ask(behavior: toolreg::Behavior) {
    let (_dir, proj) = project();
    fs::create_dir(proj.join("secrets")).unwrap();
    fs::write(proj.join("secrets/key.txt"), "TOPSECRET-key").unwrap();
    std::os::unix::fs::symlink("secrets/key.txt", proj.join("to_key")).unwrap();
    for command in [
        "cat secrets/key.txt",
        "cat to_key",
        "head -n 1 < secrets/key.txt",
        "grep -r TOPSECRET .",
        "cat secrets/*",
        "cd secrets && cat key.txt",
        "ls secrets",
    ] {
        let rules = PermissionContext::new().with(
            behavior,
            toolreg::RuleSource::User,
            "Read(./secrets/**)",
        );
        let result = dispatch(Sandboxing::Off, &proj, rules, false, command);
        let out = text(&result);
        assert!(!out.contains("TOPSECRET-key"), "{command}: {out}");
        assert!(
            matches!(
                result.error,
                Some(toolreg::DispatchError::NeedsApproval { .. })
            ),
            "{command}: {out}"
        );
    }
    // A read the rules leave alone still runs unasked.
    let result = dispatch(
        Sandboxing::Off,
        &proj,
        PermissionContext::new(),
        false,
        "cat notes.txt",
    );
    assert_eq!(text(&result), "NOTES\n\nExit code: 0");
}

#[test]
fn without_a_sandbox_an_unasked_command_may_not_read_what_a_read_deny_rule_covers() {
    without_a_sandbox_reads_of_protected_paths_ask(toolreg::Behavior::Deny);
}

#[test]
fn without_a_sandbox_an_unasked_command_may_not_read_what_a_read_ask_rule_covers() {
    without_a_sandbox_reads_of_protected_paths_ask(toolreg::Behavior::Ask);
}

#[test]
fn without_a_sandbox_reading_another_process_under_proc_asks() {
    let (_dir, proj) = project();
    let result = dispatch(
        Sandboxing::Off,
        &proj,
        PermissionContext::new(),
        false,
        "cat /proc/1/environ",
    );
    assert!(
        matches!(
            result.error,
            Some(toolreg::DispatchError::NeedsApproval { .. })
        ),
        "{}",
        text(&result)
    );
}
