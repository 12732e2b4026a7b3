//! Processes die with the `toolreg` process: what a Bash command of `toolreg call` starts
//! (background jobs, `setsid`'d and double-forked ones) is not running after toolreg exits or is
//! killed with SIGKILL, with the sandbox and without bwrap; the same for an upstream MCP server
//! behind a wrapper and the helpers it starts, under `toolreg mcp serve`. (That they die with
//! the call itself is the tools crate's test: `tools/tests/lifetime.rs`.)
//!
//! Every process of a test carries a marker (in its environment, and in the command line of
//! the shells and of bwrap), and the test counts the live processes of the host that carry it
//! by scanning `/proc`. Where the kernel needs a moment to tear a namespace down, the count is
//! polled a bounded number of times; no test asserts how long anything takes.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;

use super::TOOLREG;

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
