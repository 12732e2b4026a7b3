//! Runs command lines under real bash inside bubblewrap, with a logging stand-in for `rm`.
//!
//! A [`Sandbox`] owns a scratch directory (on `/dev/shm` when it exists; removed on drop, so a
//! process killed, or libFuzzer's exit, leaves it behind). [`Sandbox::run`]
//! starts one `bwrap` for a batch of lines; inside it a driver script (`driver.sh`) runs each
//! line as `bash -c LINE` in a directory of its own (`work/I`, holding the empty files `t`,
//! `u`, `f` and `rm`), with `HOME` and `TMPDIR` set to it and stdin from `/dev/null`; then it
//! waits until every process the line left behind has exited, and counts the runs of the
//! stand-in. A watchdog kills every process of a line that has run for [`TIMEOUT_SECS`].
//!
//! The stand-in is a `/bin/sh` script that appends a line to the scratch directory's log and
//! exits 0. It is first on `PATH` and bind-mounted over the real `rm` (`/usr/bin/rm`, and
//! `/bin/rm` where that is another file), so `/bin/rm`, `env -i rm` and `command -p rm` find it
//! too; the real `rm` cannot run inside.
//!
//! Guaranteed, by the kernel: the lines cannot change anything outside the scratch directory
//! (the root is bound read-only, `/tmp` is an empty tmpfs, `/dev` and `/proc` are the
//! sandbox's own), cannot reach the network, and see only the sandbox's processes (a pid
//! namespace) and cannot signal outside it (a session of its own: `kill 0` names the process
//! group, which the pid namespace does not confine); every process dies with the sandbox.
//! They run as root of a new user namespace, mapped to the user who started the test; `setgroups` is denied there, so `su` and `runuser`
//! fail before running their command. Not guaranteed: lines of one batch share `/tmp` and the
//! sandbox's clock; what one line leaves in `/tmp` the next sees (the generated lines do not
//! use `/tmp`).

use std::fmt;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tempfile::TempDir;

/// The driver run inside the sandbox.
const DRIVER: &str = include_str!("driver.sh");
/// Seconds one command line and the processes it left may run, together.
pub const TIMEOUT_SECS: u32 = 3;
/// The exit status of a command line killed by its timeout (128 + SIGKILL).
const KILLED: i32 = 137;
/// The directories the sandbox's `PATH` holds after the stand-in's.
const PATH_DIRS: [&str; 5] = ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"];
/// Empty files in each line's working directory: arguments for `rm`, a lock file for
/// `flock`, and a file named `rm` for globs (`r?`) to expand to.
const SEEDS: [&str; 4] = ["t", "u", "f", "rm"];

/// The sandbox cannot start or run a batch; says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxError(pub String);

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SandboxError {}

fn error(what: impl fmt::Display) -> SandboxError {
    SandboxError(what.to_string())
}

/// What one command line did under bash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The exit status of `bash -c LINE` (137 when it was killed at the timeout).
    pub status: i32,
    /// How many times the `rm` stand-in ran, the line's leftover processes included.
    pub rm_runs: usize,
}

impl Outcome {
    /// The line ran past its timeout and was killed.
    pub fn timed_out(&self) -> bool {
        self.status == KILLED
    }
}

/// A scratch directory and the `bwrap` that runs batches of command lines in it.
#[derive(Debug)]
pub struct Sandbox {
    dir: TempDir,
    bwrap: PathBuf,
    /// The real `rm` paths the stand-in is bound over.
    rm_paths: Vec<PathBuf>,
}

impl Sandbox {
    /// Finds `bwrap` on `PATH`, prepares the scratch directory, and checks that a batch runs
    /// and that the stand-in is seen (`rm t` counts one run, `true` none).
    pub fn new() -> Result<Sandbox, SandboxError> {
        let bwrap = find_on_path("bwrap").ok_or_else(|| error("bwrap is not on PATH"))?;
        let shm = Path::new("/dev/shm");
        // Named after the process: the fuzz target keeps its sandbox for the process's life,
        // and a later process removes the directory once this one has ended.
        let prefix = format!("toolreg-shelldiff-{}-", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        let dir = if shm.is_dir() {
            crate::fuzz::scratch::remove_ended(shm, "toolreg-shelldiff-");
            builder.tempdir_in(shm)
        } else {
            crate::fuzz::scratch::remove_ended(&std::env::temp_dir(), "toolreg-shelldiff-");
            builder.tempdir()
        }
        .map_err(|e| error(format_args!("no scratch directory: {e}")))?;
        let root = dir.path();
        let log = root.join("log");
        let stand_in = format!(
            "#!/bin/sh\n# The rm stand-in of the shell differential test: logs, deletes nothing.\n\
             echo run >> '{}'\nexit 0\n",
            log.display()
        );
        let setup = || -> std::io::Result<()> {
            std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755))?;
            std::fs::create_dir(root.join("bin"))?;
            std::fs::write(root.join("bin/rm"), stand_in)?;
            std::fs::set_permissions(root.join("bin/rm"), std::fs::Permissions::from_mode(0o755))?;
            // Writable by every uid: `unshare -U rm` runs the stand-in as nobody.
            std::fs::write(&log, "")?;
            std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o666))?;
            std::fs::write(root.join("driver.sh"), DRIVER)?;
            Ok(())
        };
        setup().map_err(|e| error(format_args!("{}: {e}", root.display())))?;
        let status = Command::new("mkfifo")
            .arg(root.join("sleep"))
            .status()
            .map_err(|e| error(format_args!("mkfifo: {e}")))?;
        if !status.success() {
            return Err(error(format_args!("mkfifo failed: {status}")));
        }
        let mut rm_paths: Vec<PathBuf> = ["/usr/bin/rm", "/bin/rm"]
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        rm_paths.dedup();
        let mut sandbox = Sandbox {
            dir,
            bwrap,
            rm_paths,
        };
        let probe = sandbox.run(&["rm t".to_owned(), "true".to_owned()])?;
        let runs: Vec<usize> = probe.iter().map(|o| o.rm_runs).collect();
        if runs != [1, 0] {
            return Err(error(format_args!(
                "the sandbox ran, but the stand-in was seen {runs:?} times for `rm t` and `true` \
                 (expected [1, 0])"
            )));
        }
        Ok(sandbox)
    }

    /// The scratch directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Runs each of `lines` as `bash -c LINE`, in order, in one sandbox; one outcome per line.
    ///
    /// A line holding a NUL byte (which no argument can hold) is an error naming its index.
    pub fn run(&mut self, lines: &[String]) -> Result<Vec<Outcome>, SandboxError> {
        if let Some(i) = lines.iter().position(|l| l.contains('\0')) {
            return Err(error(format_args!("line {i} holds a NUL byte")));
        }
        let root = self.dir.path().to_owned();
        let work = root.join("work");
        let results = root.join("results");
        let prepare = || -> std::io::Result<()> {
            if work.exists() {
                std::fs::remove_dir_all(&work)?;
            }
            for i in 0..lines.len() {
                let dir = work.join(i.to_string());
                std::fs::create_dir_all(&dir)?;
                for seed in SEEDS {
                    std::fs::write(dir.join(seed), "")?;
                }
            }
            std::fs::write(&results, "")?;
            std::fs::write(root.join("log"), "")?;
            let mut file = std::fs::File::create(root.join("lines"))?;
            for line in lines {
                file.write_all(line.as_bytes())?;
                file.write_all(b"\0")?;
            }
            Ok(())
        };
        prepare().map_err(|e| error(format_args!("{}: {e}", root.display())))?;
        let output = self
            .command(&root)
            .output()
            .map_err(|e| error(format_args!("{}: {e}", self.bwrap.display())))?;
        if !output.status.success() {
            return Err(error(format_args!(
                "bwrap failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            )));
        }
        let text = std::fs::read_to_string(&results)
            .map_err(|e| error(format_args!("{}: {e}", results.display())))?;
        let outcomes = parse_results(&text, lines.len())?;
        Ok(outcomes)
    }

    /// The `bwrap` command that runs the driver over the scratch directory `root`.
    fn command(&self, root: &Path) -> Command {
        let mut path = root.join("bin").display().to_string();
        for dir in PATH_DIRS {
            path.push(':');
            path.push_str(dir);
        }
        let mut cmd = Command::new(&self.bwrap);
        cmd.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
            .args(["--tmpfs", "/tmp"])
            .arg("--bind")
            .args([root, root]);
        for rm in &self.rm_paths {
            cmd.arg("--ro-bind").arg(root.join("bin/rm")).arg(rm);
        }
        // `--new-session`: a process group spans pid namespaces, so without a session of its own
        // `kill 0` in a line signals this process and whatever shares its group.
        cmd.args(["--unshare-pid", "--unshare-user", "--unshare-net"])
            .args(["--new-session", "--die-with-parent", "--clearenv"])
            .args(["--setenv", "PATH"])
            .arg(path)
            .args(["--setenv", "LANG", "C.UTF-8", "--chdir"])
            .arg(root)
            .args(["--", "/bin/bash"])
            .arg(root.join("driver.sh"))
            .arg(root)
            .arg(TIMEOUT_SECS.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        cmd
    }
}

/// The driver's `I STATUS RUNS` lines, which must be `0..count` in order.
fn parse_results(text: &str, count: usize) -> Result<Vec<Outcome>, SandboxError> {
    let mut outcomes = Vec::with_capacity(count);
    for (expected, line) in text.lines().enumerate() {
        let fields: Vec<i64> = line
            .split(' ')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| error(format_args!("driver result {line:?}: {e}")))?;
        let [index, status, runs] = fields[..] else {
            return Err(error(format_args!("driver result {line:?}: not 3 numbers")));
        };
        if usize::try_from(index).ok() != Some(expected) {
            return Err(error(format_args!(
                "driver result {line:?}: expected line {expected}"
            )));
        }
        outcomes.push(Outcome {
            status: i32::try_from(status).unwrap_or(i32::MAX),
            rm_runs: usize::try_from(runs).unwrap_or(0),
        });
    }
    if outcomes.len() != count {
        return Err(error(format_args!(
            "the driver reported {} of {count} lines",
            outcomes.len()
        )));
    }
    Ok(outcomes)
}

/// `program` in a directory of `PATH`.
fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Whether `program` is installed where the sandbox's `PATH` looks (`sudo`, `busybox` are
/// generated only when they are).
pub fn installed(program: &str) -> bool {
    PATH_DIRS
        .iter()
        .any(|dir| Path::new(dir).join(program).is_file())
}
