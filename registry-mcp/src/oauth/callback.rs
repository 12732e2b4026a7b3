//! The listener on 127.0.0.1 that the authorization server sends the browser back to.

use std::io;
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// The most bytes of a request head read; a redirect's is a few hundred.
const MAX_HEAD: usize = 16 * 1024;

/// How long one connection may take to send its request head (a browser may open a connection
/// ahead of time and send nothing on it).
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// The redirect listener: its port, and the path it answers.
pub(crate) struct Callback {
    listener: TcpListener,
    port: u16,
}

/// The browser's request to the redirect URI, waiting for its answer.
pub(crate) struct Redirect {
    /// The full URL requested (`http://127.0.0.1:PORT/callback?code=…&state=…`).
    pub(crate) url: String,
    stream: TcpStream,
}

impl Callback {
    /// Listens on 127.0.0.1 at `port` (any free port when `None`).
    pub(crate) async fn bind(port: Option<u16>) -> io::Result<Callback> {
        let listener = TcpListener::bind(("127.0.0.1", port.unwrap_or(0))).await?;
        let port = listener.local_addr()?.port();
        Ok(Callback { listener, port })
    }

    /// The redirect URI to register and send.
    pub(crate) fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    /// The first request for `/callback`; requests for anything else get 404.
    pub(crate) async fn redirect(&self) -> io::Result<Redirect> {
        let mut reading = JoinSet::new();
        loop {
            tokio::select! {
                accepted = self.listener.accept() => {
                    let (stream, _) = accepted?;
                    reading.spawn(tokio::time::timeout(HEAD_TIMEOUT, read_target(stream)));
                }
                Some(read) = reading.join_next() => {
                    let Ok(Ok(Ok((target, mut stream)))) = read else { continue };
                    if target == "/callback" || target.starts_with("/callback?") {
                        let url = format!("http://127.0.0.1:{}{target}", self.port);
                        return Ok(Redirect { url, stream });
                    }
                    let _ = respond(&mut stream, "404 Not Found", "Not found.").await;
                }
            }
        }
    }
}

impl Redirect {
    /// Answers the browser with a page saying `message`.
    pub(crate) async fn answer(mut self, ok: bool, message: &str) {
        let status = if ok { "200 OK" } else { "400 Bad Request" };
        let _ = respond(&mut self.stream, status, message).await;
    }
}

/// The request target of a `GET` request head.
async fn read_target(mut stream: TcpStream) -> io::Result<(String, TcpStream)> {
    let mut head = Vec::with_capacity(1024);
    let mut chunk = [0_u8; 1024];
    while !head.windows(4).any(|window| window == b"\r\n\r\n") {
        if head.len() > MAX_HEAD {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "head too long"));
        }
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        head.extend_from_slice(chunk.get(..read).unwrap_or_default());
    }
    let head = String::from_utf8_lossy(&head);
    let mut words = head.lines().next().unwrap_or_default().split(' ');
    match (words.next(), words.next()) {
        (Some("GET"), Some(target)) => Ok((target.to_owned(), stream)),
        _ => Err(io::Error::new(io::ErrorKind::InvalidData, "not a GET")),
    }
}

async fn respond(stream: &mut TcpStream, status: &str, message: &str) -> io::Result<()> {
    let body = format!(
        "<!doctype html><meta charset=utf-8><title>toolreg</title><p>{}</p>\n",
        escape(message)
    );
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\n\
         cache-control: no-store\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
