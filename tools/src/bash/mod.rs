//! Bash: runs a shell command and reports its output and exit code.

use std::io::Read as _;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toolreg::permissions::{Subject, shell};
use toolreg::sandbox::CommandGuard;
use toolreg::{PermissionDecision, Tool, ToolContext, ToolError, tool};

mod capability;
mod reads;

use capability::shell_command;

/// The timeout when the input gives none: two minutes.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// The longest timeout the input may ask for: ten minutes.
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// The most output characters returned; the rest is cut with a visible marker.
pub const MAX_OUTPUT_CHARS: usize = 30_000;

/// How long to keep reading output after the shell exits: a background job that inherited the
/// output pipe may hold it open forever, so reading stops after this grace period.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Executes a bash command in a fresh `bash -c` shell, started in the session's working directory, and returns its combined stdout and stderr followed by its exit code.
///
/// Use it for terminal operations: git, builds, tests, package managers, running programs. Do not use it for what a dedicated tool does better: find files with Glob (not find or ls), search contents with Grep (not grep or rg), read files with Read (not cat, head or tail), change files with Edit or Write (not sed, awk or echo redirection).
///
/// - Quote paths that contain spaces with double quotes.
/// - Chain dependent commands with `&&`; make independent calls in parallel instead.
/// - Each call starts a new shell: variables and `cd` do not persist between calls, so prefer absolute paths.
/// - The command times out after 120000 ms (2 minutes) unless `timeout` says otherwise (at most 600000 ms); on timeout (or when the turn is cancelled) the whole process group is killed and the output so far is returned with the error.
/// - Output beyond 30000 characters is cut, with a marker saying how much was left out.
/// - A non-zero exit code is not an error of the tool: read the output and the exit code.
/// - Never run interactive commands (editors, pagers, prompts): standard input is empty.
#[tool(
    strict,
    name = "Bash",
    destructive,
    search_hint = "execute shell commands in a terminal",
    max_result_size_chars = 30000,
    input_examples = [
        r#"{"command": "git status --short && git diff --stat", "description": "Show what changed in the working tree"}"#,
        r#"{"command": "cargo test --workspace 2>&1 | tail -n 40", "description": "Run the tests and show the summary", "timeout": 300000}"#,
    ]
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct BashTool {
    /// The command to execute.
    pub command: String,
    /// Optional timeout in milliseconds (at most 600000). Defaults to 120000 (2 minutes).
    pub timeout: Option<u64>,
    /// A clear, concise description of what the command does, in 5-10 words and active voice (e.g. "List files in the current directory").
    pub description: Option<String>,
}

impl BashTool {
    fn checked_timeout(&self) -> Result<Duration, ToolError> {
        if self.command.trim().is_empty() {
            return Err(ToolError::new(
                "`command` is empty; give the command to run",
            ));
        }
        match self.timeout {
            Some(0) => Err(ToolError::new("`timeout` must be above 0 milliseconds")),
            Some(ms) if ms > MAX_TIMEOUT_MS => Err(ToolError::new(format!(
                "`timeout` is {ms} ms; the most allowed is {MAX_TIMEOUT_MS} ms (10 minutes)"
            ))),
            Some(ms) => Ok(Duration::from_millis(ms)),
            None => Ok(Duration::from_millis(DEFAULT_TIMEOUT_MS)),
        }
    }
}

impl Tool for BashTool {
    type Output = String;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        self.checked_timeout().map(|_| ())
    }

    fn rule_subject(&self, _: &ToolContext<'_>) -> Option<Subject> {
        Some(Subject::Command(self.command.clone()))
    }

    /// When no rule decides: a command line whose every simple command is read-only (the
    /// documented list, [`shell::READ_ONLY`]) and whose every named read the `Read` rules
    /// neither deny nor ask about runs unasked — in the sandbox with nothing writable, no
    /// network and no sockets; anything else asks.
    fn check_permissions(&self, ctx: &ToolContext<'_>) -> PermissionDecision {
        let commands = match shell::split(&self.command) {
            Ok(commands) => commands,
            Err(why) => {
                return PermissionDecision::Ask(format!(
                    "the command could not be checked ({why}), so it cannot be shown to only read"
                ));
            }
        };
        if commands.is_empty() {
            return PermissionDecision::Ask("the command is empty".into());
        }
        if let Some(command) = commands.iter().find(|command| !command.read_only) {
            return PermissionDecision::Ask(format!(
                "`{}` is not a read-only command and no rule allows it",
                command.text
            ));
        }
        match reads::unasked_reads(&commands, ctx) {
            Ok(()) => PermissionDecision::Allow,
            Err(why) => PermissionDecision::Ask(why),
        }
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        let timeout = self.checked_timeout()?;
        let run = run_shell(&self.command, ctx, timeout).await?;
        let status = run.status.map(describe_status);
        // The status line is kept whatever the output's length: the output is cut to leave
        // room for it within the tool's cap.
        let reserve = status.as_ref().map_or(0, |line| line.chars().count() + 2);
        let mut text = render_output(&run.capture, MAX_OUTPUT_CHARS.saturating_sub(reserve));
        if text.is_empty() {
            text.push_str("(no output)");
        }
        match status {
            Some(status) => {
                text.push_str("\n\n");
                text.push_str(&status);
                Ok(text)
            }
            None if ctx.is_cancelled() => Err(ToolError::new(format!(
                "The turn was cancelled; the command's process group was killed.\nOutput before that:\n{text}"
            ))),
            None => Err(ToolError::new(format!(
                "Command timed out after {} ms; its process group was killed.\nOutput before the timeout:\n{text}",
                timeout.as_millis()
            ))),
        }
    }
}

/// What a finished (or killed) command left.
struct Run {
    /// Combined stdout and stderr, the first bytes kept.
    capture: Capture,
    /// The exit status; `None` when the timeout killed the command.
    status: Option<ExitStatus>,
}

/// Collected output: the first bytes kept, the total counted.
#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    total: u64,
}

/// Bytes kept before decoding: enough for [`MAX_OUTPUT_CHARS`] characters of any width.
const KEEP_BYTES: usize = MAX_OUTPUT_CHARS * 4;

async fn run_shell(
    command: &str,
    ctx: &ToolContext<'_>,
    timeout: Duration,
) -> Result<Run, ToolError> {
    let cwd = ctx.cwd;
    let (mut reader, writer) =
        os_pipe::pipe().map_err(|e| ToolError::new(format!("could not create a pipe: {e}")))?;
    let writer_err = writer
        .try_clone()
        .map_err(|e| ToolError::new(format!("could not create a pipe: {e}")))?;
    let (cmd, guard) = shell_command(command, ctx)?;
    // Dropped (from a blocking thread: removing the command's cgroup may wait a moment) once
    // the command has ended, or with this future.
    let guard = GuardOnDrop(Some(guard));
    let mut cmd = tokio::process::Command::from(cmd);
    cmd.current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(writer_err)
        .kill_on_drop(true);
    let spawned = cmd.spawn();
    // The command holds the pipe's write ends; drop them so the reader sees the end of output.
    drop(cmd);
    let child = spawned
        .map_err(|e| ToolError::new(format!("could not start `bash` in {}: {e}", cwd.display())))?;
    // Kills the group if this future is dropped (a cancelled turn) before the shell is reaped.
    let mut group = Group {
        pgid: child.id(),
        child: Some(child),
    };

    let capture = Arc::new(Mutex::new(Capture::default()));
    let (done_tx, done_rx) = tokio::sync::oneshot::channel();
    let sink = Arc::clone(&capture);
    // The pipe is read on a thread of its own: it blocks, and a background job may hold it.
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let mut capture = sink.lock().unwrap_or_else(|e| e.into_inner());
                    let room = KEEP_BYTES.saturating_sub(capture.kept.len());
                    capture
                        .kept
                        .extend_from_slice(buf.get(..n.min(room)).unwrap_or_default());
                    capture.total += n as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        let _ = done_tx.send(());
    });

    let waited = {
        let Some(child) = group.child.as_mut() else {
            return Err(ToolError::new("the command's process was lost"));
        };
        tokio::select! {
            waited = tokio::time::timeout(timeout, child.wait()) => waited.ok(),
            () = ctx.cancelled() => None,
        }
    };
    let status = match waited {
        Some(Ok(status)) => {
            group.child = None;
            // What the shell left in its group (background jobs) ends with the call. In the
            // sandbox the namespace is gone already; this is for the unsandboxed fallback.
            group.kill_rest();
            Some(status)
        }
        Some(Err(e)) => {
            return Err(ToolError::new(format!(
                "waiting for the command failed: {e}"
            )));
        }
        None => {
            group.kill().await;
            None
        }
    };
    let _ = tokio::time::timeout(DRAIN_GRACE, done_rx).await;
    drop(guard);
    let capture = std::mem::take(&mut *capture.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Run { capture, status })
}

/// Drops a sandboxed command's guard on a blocking thread.
struct GuardOnDrop(Option<CommandGuard>);

impl Drop for GuardOnDrop {
    fn drop(&mut self) {
        if let Some(guard) = self.0.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn_blocking(move || drop(guard));
                }
                Err(_) => drop(guard),
            }
        }
    }
}

/// The shell, until it is reaped: dropping it kills its whole process group.
struct Group {
    /// The shell; `None` once reaped.
    child: Option<tokio::process::Child>,
    /// The group's id: the shell's pid.
    pgid: Option<u32>,
}

impl Group {
    /// Kills the process group and reaps the shell.
    async fn kill(&mut self) {
        self.kill_rest();
        if let Some(mut child) = self.child.take() {
            let _ = child.kill().await;
        }
    }

    /// Sends SIGKILL to the process group (the shell and what it started in the group).
    fn kill_rest(&self) {
        #[cfg(unix)]
        if let Some(pgid) = self.pgid.and_then(|pid| i32::try_from(pid).ok()) {
            // SAFETY: kill(2) with a negative pid signals the process group created at spawn;
            // it touches no memory of ours. The id stays the group's while any member lives
            // (the shell's zombie included); once none does, the signal finds no group, as
            // pids are handed out in a cycle and this runs right after the shell is reaped.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if self.child.is_some() {
            self.kill_rest();
        }
    }
}

/// Decodes the kept bytes (invalid UTF-8 replaced) and, when they do not fit in `limit`
/// characters, cuts them with a marker that says how much is shown; the marker counts
/// within `limit`.
fn render_output(capture: &Capture, limit: usize) -> String {
    let text = String::from_utf8_lossy(&capture.kept);
    let text = text.trim_end_matches('\n');
    let dropped_bytes = capture.total - capture.kept.len() as u64;
    if dropped_bytes == 0 && !crate::util::cut_chars(text, limit).1 {
        return text.to_owned();
    }
    let marker = |shown: usize| {
        format!(
            "\n\n[output truncated: showing the first {shown} characters of {} bytes]",
            capture.total
        )
    };
    let shown = limit.saturating_sub(marker(limit).chars().count());
    let (kept, _) = crate::util::cut_chars(text, shown);
    format!("{kept}{}", marker(kept.chars().count()))
}

fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("Exit code: {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(signal) = status.signal() {
            return format!("Exit code: none (killed by signal {signal})");
        }
    }
    format!("Exit code: none ({status})")
}
