//! The gateway's stdio framing: one JSON-RPC message per line, read with a cap, every request
//! answered, in front of rmcp.
//!
//! rmcp's own line transport drops what it cannot read without a word: a line over its cap,
//! text that is not JSON, JSON nested deeper than serde_json reads. A client waits forever for
//! those answers, and a notification sent before the handshake ends rmcp's session. So the
//! gateway reads the client's lines itself and hands rmcp only messages rmcp will take:
//!
//! * A line longer than the cap ([`MAX_MESSAGE_BYTES`] by default) is answered at once with
//!   `-32600` (id `null`: it was not read) naming the cap; the rest of it is skipped without
//!   being kept. Memory stays within the cap, whatever the client sends.
//! * Text that is not JSON, or JSON nested deeper than 128 levels, is answered `-32700`
//!   (parse error), with the request's id when it can still be read, else `null`.
//! * JSON that is no JSON-RPC message (a number, a batch, an object without `"jsonrpc":
//!   "2.0"`, an id that is neither a string nor an integer, a method that is not a string) is
//!   answered `-32600` (invalid request); a request whose parameters rmcp cannot read,
//!   `-32602` (invalid params), both with the request's id when it has one.
//! * A well-formed notification rmcp cannot read is dropped (notifications get no answer), and
//!   so are notifications and responses that come before the session has started (a client
//!   may send none then; rmcp would end the session on one).
//! * Empty lines are skipped; a last line without a newline is read like any other.
//!
//! Everything else goes to rmcp unchanged, and rmcp's answers go to the client whole, line by
//! line, beside the framing's own. What is not guaranteed: the order of answers (JSON-RPC does
//! not order them), and an answer to a request still running when the client closes its end.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::ProtocolVersion;
use rmcp::service::ServiceExt as _;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{RoleServer, ServerHandler as _};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::mpsc;

use crate::gateway::Gateway;

mod lines;
mod verdict;

use lines::{Line, LineReader};
use verdict::{Opens, Verdict, classify, too_long};

/// The longest message (one line, without its newline) the gateway reads by default: 16 MiB,
/// rmcp's own cap.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// How many answers may wait for the client to read them before reading from it pauses.
const QUEUED_ANSWERS: usize = 64;

/// The boxed error of a gateway's session.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What the framing knows of the session rmcp runs.
struct Session {
    /// The protocol versions the gateway takes.
    supported: Vec<ProtocolVersion>,
    /// Whether rmcp's session is open (before, rmcp takes only requests).
    open: AtomicBool,
    /// The ids of the `initialize` requests not answered yet, as JSON text.
    initializing: Mutex<HashSet<String>>,
}

/// The most `initialize` requests awaited before the session opens; past it the session
/// counts as open (a client that sends thousands gets rmcp's own rules).
const MAX_INITIALIZING: usize = 1024;

impl Session {
    fn is_open(&self) -> bool {
        self.open.load(Ordering::SeqCst)
    }

    fn open(&self) {
        self.open.store(true, Ordering::SeqCst);
        self.initializing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Notes a message forwarded to rmcp.
    fn forwarded(&self, opens: Opens) {
        match opens {
            Opens::Now => self.open(),
            Opens::OnResult(id) if !self.is_open() => {
                let mut waiting = self.initializing.lock().unwrap_or_else(|e| e.into_inner());
                if waiting.len() < MAX_INITIALIZING {
                    waiting.insert(id);
                    return;
                }
                drop(waiting);
                self.open();
            }
            _ => {}
        }
    }

    /// Looks at one line rmcp wrote: a result for an `initialize` opens the session.
    fn answered(&self, line: &[u8]) {
        if self.is_open() {
            return;
        }
        let Ok(message) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        let Some(id) = message.get("id").map(Value::to_string) else {
            return;
        };
        let waited = (self.initializing.lock().unwrap_or_else(|e| e.into_inner())).remove(&id);
        if waited && message.get("result").is_some() {
            self.open();
        }
    }
}

/// Serves `gateway` to one client reading `reader` and writing `writer`, one message a line,
/// until the client closes `reader` or stops reading `writer`.
pub(crate) async fn serve<R, W>(
    gateway: Gateway,
    reader: R,
    writer: W,
    max_message_bytes: usize,
) -> Result<(), BoxError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (from_rmcp, to_rmcp) = tokio::io::split(ours);
    let (rmcp_reads, rmcp_writes) = tokio::io::split(theirs);
    let transport = AsyncRwTransport::<RoleServer, _, _>::new_server(rmcp_reads, rmcp_writes)
        .with_max_line_length(max_message_bytes.saturating_add(2));
    let session = Arc::new(Session {
        supported: gateway.supported_protocol_versions().into_owned(),
        open: AtomicBool::new(false),
        initializing: Mutex::default(),
    });
    let (answers, queued) = mpsc::channel::<Vec<u8>>(QUEUED_ANSWERS);
    let writing = tokio::spawn(write_lines(writer, queued));
    let pumping = tokio::spawn(pump(from_rmcp, answers.clone(), Arc::clone(&session)));
    let reading = tokio::spawn(read_requests(
        reader,
        to_rmcp,
        answers,
        session,
        max_message_bytes,
    ));
    let served = async {
        let running = gateway.serve(transport).await?;
        running.waiting().await?;
        Ok::<(), BoxError>(())
    }
    .await;
    // rmcp is done (the client closed its end, or the session failed): what it wrote is in the
    // pipe; the answers already queued are written before returning.
    reading.abort();
    let _ = pumping.await;
    let _ = writing.await;
    served
}

/// Writes each queued line to the client, flushing after each.
async fn write_lines<W: AsyncWrite + Unpin>(mut writer: W, mut queued: mpsc::Receiver<Vec<u8>>) {
    while let Some(line) = queued.recv().await {
        let written = async {
            writer.write_all(&line).await?;
            writer.flush().await
        };
        if written.await.is_err() {
            return;
        }
    }
}

/// Passes rmcp's answers on, a whole line at a time.
async fn pump<R: AsyncRead + Unpin>(
    from_rmcp: R,
    answers: mpsc::Sender<Vec<u8>>,
    session: Arc<Session>,
) {
    let mut from_rmcp = BufReader::new(from_rmcp);
    loop {
        let mut line = Vec::new();
        match from_rmcp.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        session.answered(&line);
        if !line.ends_with(b"\n") {
            line.push(b'\n');
        }
        if answers.send(line).await.is_err() {
            return;
        }
    }
}

/// Reads the client's lines: forwards what rmcp takes, answers what it would not.
async fn read_requests<R, W>(
    reader: R,
    mut to_rmcp: W,
    answers: mpsc::Sender<Vec<u8>>,
    session: Arc<Session>,
    max_message_bytes: usize,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = LineReader::new(reader, max_message_bytes);
    loop {
        let verdict = match lines.next().await {
            Ok(Line::Eof) | Err(_) => break,
            Ok(Line::TooLong) => Verdict::Answer(too_long(max_message_bytes)),
            Ok(Line::Message(line)) => classify(line, &session.supported),
        };
        match verdict {
            Verdict::Answer(answer) => {
                let mut line = answer.to_string().into_bytes();
                line.push(b'\n');
                if answers.send(line).await.is_err() {
                    break;
                }
            }
            Verdict::Drop => {}
            Verdict::Forward(opens) => {
                // A notification or response before the session would end rmcp's; a client
                // sends none then.
                if opens == Opens::Nothing && !session.is_open() {
                    continue;
                }
                session.forwarded(opens);
                let line = lines.current();
                let sent = async {
                    to_rmcp.write_all(line).await?;
                    to_rmcp.write_all(b"\n").await?;
                    to_rmcp.flush().await
                };
                if sent.await.is_err() {
                    break;
                }
            }
        }
    }
    // The client closed its end: so does rmcp's input, which ends the session.
    let _ = to_rmcp.shutdown().await;
}
