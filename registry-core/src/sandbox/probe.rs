//! Probing bwrap: finding it on `PATH` and running a trivial command under it, with a bound on
//! how long that may take.

use std::ffi::OsStr;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// bwrap's program name.
pub(super) const BWRAP: &str = "bwrap";

/// How long a probe may run before it counts as failed: bwrap starts in milliseconds, but a
/// loaded machine may be slow.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// How often a running probe is looked at.
const PROBE_POLL: Duration = Duration::from_millis(5);

/// The most bytes of a failed probe's stderr kept for the reason.
const MAX_REASON_BYTES: u64 = 1024;

/// The first executable file named `name` in the directories of `path` (a `PATH` value).
pub(super) fn find_on_path(name: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    meta.is_file()
}

/// Runs `command` with no input and no output but stderr; `Ok` when it exits with 0, else why
/// (its stderr, or how it failed to start or finish).
pub(super) fn run(mut command: Command) -> Result<(), String> {
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("could not run {program}: {error}"))?;
    let mut waited = Duration::ZERO;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if waited < PROBE_TIMEOUT => {
                std::thread::sleep(PROBE_POLL);
                waited += PROBE_POLL;
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{program} did not finish a trivial command in {} s",
                    PROBE_TIMEOUT.as_secs()
                ));
            }
            Err(error) => return Err(format!("waiting for {program} failed: {error}")),
        }
    };
    if status.success() {
        return Ok(());
    }
    let mut stderr = String::new();
    if let Some(pipe) = child.stderr.take() {
        let _ = pipe.take(MAX_REASON_BYTES).read_to_string(&mut stderr);
    }
    let stderr = stderr.trim();
    Err(if stderr.is_empty() {
        format!("{program} failed ({status})")
    } else {
        format!("{stderr} ({status})")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_found_only_in_absolute_directories_of_path() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("tool");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let path = std::env::join_paths([Path::new("relative"), dir.path()]).unwrap();
        assert_eq!(find_on_path("tool", Some(&path)), Some(program));
        assert_eq!(find_on_path("missing", Some(&path)), None);
        assert_eq!(find_on_path("tool", None), None);
    }
}
