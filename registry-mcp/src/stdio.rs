//! A stdio server's transport: the child process, contained, and the end of its stderr.

use std::process::Stdio;
use std::sync::{Arc, Mutex};

use rmcp::transport::TokioChildProcess;
use tokio::io::AsyncReadExt as _;
use toolreg::sandbox::contained;

/// The most bytes of a server's stderr kept for its error messages (the last ones).
const STDERR_TAIL_BYTES: usize = 2048;

pub(crate) fn stderr_tail(stderr: &Mutex<Vec<u8>>) -> Option<String> {
    let bytes = stderr.lock().unwrap_or_else(|e| e.into_inner());
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// Starts a stdio server, contained: what it starts (behind `sh -c`, npx or uvx, its helpers)
/// dies with it, it dies with this process (toolreg::sandbox::contained), it holds none of
/// this process's open files, and it sees the environment `environment` gives. Its stderr's
/// last bytes go to `stderr`.
pub(crate) fn spawn(
    command: &str,
    args: &[String],
    environment: &toolreg::sandbox::EnvPolicy,
    cwd: Option<&std::path::Path>,
    stderr: &Arc<Mutex<Vec<u8>>>,
) -> std::io::Result<TokioChildProcess> {
    let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    let mut child = contained(command.as_ref(), &args);
    environment.apply_to(&mut child);
    let mut child = tokio::process::Command::from(child);
    // Killed when its session is dropped, also when no runtime is left to run rmcp's own
    // cleanup (a hub dropped while the server still starts, or at the end of a program).
    child.kill_on_drop(true);
    if let Some(dir) = cwd {
        child.current_dir(dir);
    }
    let (transport, stderr_pipe) = TokioChildProcess::builder(child)
        .stderr(Stdio::piped())
        .spawn()?;
    if let Some(mut pipe) = stderr_pipe {
        let tail = Arc::clone(stderr);
        tokio::spawn(async move {
            let mut buffer = [0u8; 1024];
            while let Ok(read @ 1..) = pipe.read(&mut buffer).await {
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                tail.extend_from_slice(buffer.get(..read).unwrap_or_default());
                let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                tail.drain(..excess);
            }
        });
    }
    Ok(transport)
}
