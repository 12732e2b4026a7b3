//! Processes die with the `toolreg` process: what a Bash command of `toolreg call` starts
//! (background jobs, `setsid`'d and double-forked ones) is not running after toolreg exits or is
//! killed with SIGKILL, with the sandbox and without bwrap; the same for an upstream MCP server
//! behind a wrapper and the helpers it starts, under `toolreg mcp serve`. (That they die with
//! the call itself is the tools crate's test: `tools/tests/lifetime.rs`.)
//!
//! Every process of a test carries a marker, and the test counts the host's live processes that
//! carry it (`toolreg-test-processes`, which every lifetime test shares); no test asserts how
//! long anything takes.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::json;
use toolreg_test_processes::{clean_up, left_running, marker, running, spawner, started};

use super::TOOLREG;

/// `toolreg [options] call Bash` of a command that never ends, started with its marker; the
/// test kills it once the command's processes run.
fn toolreg_call(mark: &str, options: &[&str], path: Option<&Path>) -> Child {
    let input = json!({"command": spawner(mark, "sleep 1000")}).to_string();
    let mut command = Command::new(TOOLREG);
    command
        .args(["--no-demo", "--permission-mode", "bypass"])
        .args(options)
        .args(["call", "Bash", "--input", &input])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(path) = path {
        command.env("PATH", path);
    }
    command.spawn().unwrap()
}

#[test]
fn nothing_a_bash_call_started_survives_toolreg_being_killed() {
    for (name, options) in [("sandbox", &[][..]), ("no-sandbox", &["--no-sandbox"][..])] {
        let mark = marker(&format!("sigkill-{name}"));
        let mut toolreg = toolreg_call(&mark, options, None);
        assert!(
            started(&mark, 4),
            "the command starts: {:?}",
            running(&mark)
        );
        toolreg.kill().unwrap();
        toolreg.wait().unwrap();
        let left = left_running(&mark);
        clean_up(&mark);
        assert!(
            left.is_empty(),
            "{name}: still running after SIGKILL: {left:?}"
        );
    }
}

/// A `PATH` of one directory that holds the programs the tests' commands use, and no bwrap.
fn path_without_bwrap() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for program in ["bash", "sh", "sleep", "setsid"] {
        let found = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|dir| dir.join(program))
            .find(|path| path.is_file())
            .unwrap();
        std::os::unix::fs::symlink(found, dir.path().join(program)).unwrap();
    }
    let path = dir.path().to_owned();
    (dir, path)
}

#[test]
fn without_bwrap_background_jobs_still_end_with_the_call() {
    // The fallback: a process group of its own, killed when the shell exits.
    let (_bin, path) = path_without_bwrap();
    let mark = marker("fallback-returns");
    let input = json!({"command": format!(
        "export TOOLREG_LIFETIME_MARK={mark}; sleep 1000 & (sleep 1000 &); echo started"
    )});
    let output = Command::new(TOOLREG)
        .args([
            "--no-demo",
            "--permission-mode",
            "bypass",
            "call",
            "Bash",
            "--input",
        ])
        .arg(input.to_string())
        .env("PATH", &path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stdout.contains("started"), "{stdout}{stderr}");
    assert!(stderr.contains("sandbox: unavailable"), "{stderr}");
    let left = left_running(&mark);
    clean_up(&mark);
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn without_bwrap_the_shell_dies_with_toolreg() {
    // The fallback's parent-death signal reaches the shell; its own children are what escapes
    // the fallback (RELIABILITY.md), so only the shell is counted here.
    let (_bin, path) = path_without_bwrap();
    let mark = marker("fallback-sigkill");
    let input = json!({"command": format!("exec -a {mark} sleep 1000")}).to_string();
    let mut toolreg = Command::new(TOOLREG)
        .args([
            "--no-demo",
            "--permission-mode",
            "bypass",
            "call",
            "Bash",
            "--input",
            &input,
        ])
        .env("PATH", &path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The shell, exec'd into `sleep` with the marker as its name.
    assert!(
        started(&mark, 1),
        "the command starts: {:?}",
        running(&mark)
    );
    toolreg.kill().unwrap();
    toolreg.wait().unwrap();
    let left = left_running(&mark);
    clean_up(&mark);
    assert!(left.is_empty(), "still running after SIGKILL: {left:?}");
}

/// An `--mcp-config` file whose one server is `toolreg mcp serve` behind `sh -c`, which first
/// starts helpers (a background job, a `setsid`'d one, a double-forked one), with `mark` in
/// the environment of all of them.
#[cfg(feature = "mcp")]
fn wrapped_server_config(dir: &Path, mark: &str) -> PathBuf {
    let config = json!({"mcpServers": {"wrapped": {
        "command": "sh",
        "args": ["-c", format!(
            "sleep 1000 & setsid sleep 1000 & (setsid sh -c 'sleep 1000 &' &); exec {TOOLREG} --no-demo mcp serve"
        )],
        "env": {"TOOLREG_LIFETIME_MARK": mark},
    }}});
    let path = dir.join("mcp.json");
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

/// `toolreg mcp serve` with the wrapped server as its upstream, its stdin held open.
#[cfg(feature = "mcp")]
fn serve(config: &Path) -> Child {
    Command::new(TOOLREG)
        .args(["--no-demo", "--mcp-config"])
        .arg(config)
        .args(["mcp", "serve"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[cfg(feature = "mcp")]
#[test]
fn an_upstream_server_behind_sh_c_and_its_helpers_die_with_a_killed_mcp_serve() {
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("mcp-sigkill");
    let mut gateway = serve(&wrapped_server_config(dir.path(), &mark));
    // The server's three helpers.
    assert!(started(&mark, 3), "the server starts: {:?}", running(&mark));
    gateway.kill().unwrap();
    gateway.wait().unwrap();
    let left = left_running(&mark);
    clean_up(&mark);
    assert!(left.is_empty(), "still running after SIGKILL: {left:?}");
}

#[cfg(feature = "mcp")]
#[test]
fn an_upstream_server_behind_sh_c_and_its_helpers_end_with_mcp_serve() {
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("mcp-exit");
    let mut gateway = serve(&wrapped_server_config(dir.path(), &mark));
    assert!(started(&mark, 3), "the server starts: {:?}", running(&mark));
    // The client goes away: the gateway ends its sessions and exits.
    let mut stdin = gateway.stdin.take().unwrap();
    let _ = std::io::Write::flush(&mut stdin);
    drop(stdin);
    gateway.wait().unwrap();
    let left = left_running(&mark);
    clean_up(&mark);
    assert!(left.is_empty(), "still running after exit: {left:?}");
}
