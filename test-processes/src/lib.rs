//! The processes a test started, found by a marker: the lifetime tests of the tools crate, the
//! CLI and the MCP crate give every process they start a marker (in its environment, and in the
//! command line of the shells and of bwrap) and count the live processes of the host that carry
//! it by scanning `/proc`. Where the kernel needs a moment to tear a namespace down, the count is
//! polled a bounded number of times; nothing here measures how long anything takes.
//!
//! ```
//! let marker = toolreg_test_processes::marker("doc");
//! assert!(toolreg_test_processes::running(&marker).is_empty());
//! ```

#![deny(missing_docs)]

use std::time::Duration;

/// A marker unique to the test `test` of this process.
pub fn marker(test: &str) -> String {
    format!("toolreg-lifetime-{}-{test}", std::process::id())
}

/// The `/proc/PID/stat` lines of the live processes (zombies left out) whose command line or
/// environment holds `marker`.
pub fn running(marker: &str) -> Vec<String> {
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
pub fn left_running(marker: &str) -> Vec<String> {
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
pub fn started(marker: &str, count: usize) -> bool {
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

/// Kills whatever still holds `marker`, so that a failed test leaves nothing behind.
pub fn clean_up(marker: &str) {
    for stat in running(marker) {
        if let Some(pid) = stat
            .split_whitespace()
            .next()
            .and_then(|pid| pid.parse().ok())
        {
            // SAFETY: kill(2) on a pid found running with the test's marker.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

/// A shell command that starts, with `marker` in their environment, a background job, a
/// `setsid`'d one and a double-forked one (three `sleep`s), then runs `rest`.
pub fn spawner(marker: &str, rest: &str) -> String {
    format!(
        "export TOOLREG_LIFETIME_MARK={marker}; sleep 1000 & setsid sleep 1000 & \
         (setsid sh -c 'sleep 1000 &' &); {rest}"
    )
}
