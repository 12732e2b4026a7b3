//! What the HTTP gateway refuses before a token's gateway runs, and what it bounds: a
//! connection that sends nothing is closed after `HttpOptions::header_timeout`; a foreign or
//! `null` `Origin` gets 403 while an allowed or absent one is served; `initialize`s past
//! `max_sessions_per_token` get 429 and idle sessions end after `session_idle`; connections idle
//! after their response make room for a new client at `max_connections`; two equal tokens
//! are refused when the gateway is made; and every refusal is reported as an `Incident` that
//! never holds a token. Real sockets, rmcp's real session manager; nothing mocked.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio_util::sync::CancellationToken;
use toolreg::mcp::load_server;
use toolreg::{Dispatcher, Env, PermissionContext, Pool};
use toolreg_mcp::{
    Gateway, GatewayMode, HttpGateway, HttpOptions, HttpSetupError, Incident, RequestRefusal,
};

const TOKEN: &str = "limits-test-token-0123456789";

/// A gateway over one listed tool.
fn gateway() -> Gateway {
    let listed = json!([{"name": "read_file", "description": "Reads a file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]);
    let pool = Pool::new(&Env::default(), load_server("files", &listed).tools);
    let dispatcher = Dispatcher::new(Env::default(), PermissionContext::new(), pool, ".");
    Gateway::new(dispatcher, |_| true, GatewayMode::Direct)
}

/// A served gateway: its address, the incidents it reported, the token that stops it.
struct Served {
    address: std::net::SocketAddr,
    incidents: Arc<Mutex<Vec<Incident>>>,
    stop: CancellationToken,
}

impl Served {
    fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }

    fn incidents(&self) -> Vec<Incident> {
        self.incidents.lock().unwrap().clone()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn serve(options: HttpOptions) -> Served {
    let incidents = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&incidents);
    let http = HttpGateway::new(vec![(TOKEN.into(), gateway())], &options)
        .unwrap()
        .with_log(move |incident| seen.lock().unwrap().push(incident.clone()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let stop = CancellationToken::new();
    tokio::spawn(http.serve(listener, stop.clone()));
    Served {
        address,
        incidents,
        stop,
    }
}

/// A 2026-07-28 `tools/list` with `headers`: its status.
async fn list(url: &str, token: Option<&str>, headers: &[(&str, &str)]) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "limits-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let mut request = reqwest::Client::new()
        .post(url)
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/list")
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap().status().as_u16()
}

/// A 2025-11-25 `initialize`: its status and session id.
async fn initialize(url: &str) -> (u16, Option<String>, String) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "limits-test", "version": "1"}}});
    let response = reqwest::Client::new()
        .post(url)
        .bearer_auth(TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let session =
        (response.headers().get("mcp-session-id")).map(|id| id.to_str().unwrap().to_owned());
    (status, session, response.text().await.unwrap())
}

/// A `tools/list` in the 2025-11-25 session `session`: its status.
async fn in_session(url: &str, session: &str) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    reqwest::Client::new()
        .post(url)
        .bearer_auth(TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .header("Mcp-Session-Id", session)
        .header("MCP-Protocol-Version", "2025-11-25")
        .json(&body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Waits for `done`, asking every `every`; panics after 120 tries, so a broken build cannot
/// hang.
async fn eventually(every: Duration, mut done: impl AsyncFnMut() -> bool) {
    for _ in 0..120 {
        if done().await {
            return;
        }
        tokio::time::sleep(every).await;
    }
    panic!("not after 120 tries");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_nothing_is_closed_after_the_header_timeout() {
    let options = HttpOptions {
        header_timeout: Duration::from_millis(300),
        ..HttpOptions::default()
    };
    let served = serve(options).await;
    let mut silent = tokio::net::TcpStream::connect(served.address)
        .await
        .unwrap();
    // A half-sent request head is no better than none.
    let mut slow = tokio::net::TcpStream::connect(served.address)
        .await
        .unwrap();
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    for stream in [&mut silent, &mut slow] {
        let mut buffer = [0u8; 64];
        // The bound only keeps a broken build from hanging: the gateway closes it first.
        let read = tokio::time::timeout(Duration::from_secs(60), stream.read(&mut buffer))
            .await
            .expect("the connection is closed by the gateway");
        assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    }
    // The gateway reports a closing after it has closed: wait for both reports.
    let timeouts = || {
        (served.incidents().into_iter())
            .filter(|incident| matches!(incident, Incident::HeaderTimeout { .. }))
            .count()
    };
    eventually(Duration::from_millis(50), async || timeouts() >= 2).await;
    assert_eq!(timeouts(), 2, "{:?}", served.incidents());
    // A client that sends its request in time is served.
    assert_eq!(list(&served.url(), Some(TOKEN), &[]).await, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_and_null_origins_get_403_while_allowed_and_absent_ones_are_served() {
    let options = HttpOptions {
        allowed_origins: vec!["http://localhost:*".into(), "https://app.example".into()],
        ..HttpOptions::default()
    };
    let served = serve(options).await;
    let url = served.url();
    for origin in [
        "https://evil.example",
        "null",
        "http://localhost.evil.example",
        "https://app.example:8443",
    ] {
        assert_eq!(
            list(&url, Some(TOKEN), &[("Origin", origin)]).await,
            403,
            "{origin}"
        );
    }
    for origin in ["http://localhost:5173", "https://app.example"] {
        assert_eq!(
            list(&url, Some(TOKEN), &[("Origin", origin)]).await,
            200,
            "{origin}"
        );
    }
    assert_eq!(list(&url, Some(TOKEN), &[]).await, 200);
    // Refused before the token is even looked at.
    assert_eq!(
        list(&url, None, &[("Origin", "https://evil.example")]).await,
        403
    );
    let refused: Vec<String> = (served.incidents().iter())
        .filter_map(|incident| match incident {
            Incident::Refused {
                status: 403,
                reason: RequestRefusal::Origin { origin },
                ..
            } => Some(origin.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(refused.len(), 5, "{refused:?}");
    assert!(refused.contains(&"null".to_owned()), "{refused:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initializes_past_the_session_limit_get_429_and_idle_sessions_end() {
    let options = HttpOptions {
        max_sessions_per_token: 2,
        session_idle: Duration::from_millis(500),
        ..HttpOptions::default()
    };
    let served = serve(options).await;
    let url = served.url();
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let (status, session, body) = initialize(&url).await;
        assert_eq!(status, 200, "{body}");
        sessions.push(session.expect("a session id"));
    }
    let (status, session, body) = initialize(&url).await;
    assert_eq!((status, session), (429, None), "{body}");
    assert!(body.contains("sessions"), "{body}");
    assert!(
        served.incidents().iter().any(|incident| matches!(
            incident,
            Incident::Refused {
                status: 429,
                reason: RequestRefusal::SessionLimit { token: 0, limit: 2 },
                ..
            }
        )),
        "{:?}",
        served.incidents()
    );
    // Idle, the sessions end: their ids answer 404 and the token may open new ones. (A request
    // in a session keeps it alive: each is asked again only after more than its idle time.)
    for session in &sessions {
        eventually(Duration::from_secs(1), async || {
            in_session(&url, session).await == 404
        })
        .await;
    }
    let (status, _, body) = initialize(&url).await;
    assert_eq!(status, 200, "{body}");
    // 2026-07-28 requests open no session: served however many sessions are open.
    let (status, _, _) = initialize(&url).await;
    assert_eq!(status, 200);
    assert_eq!(initialize(&url).await.0, 429);
    assert_eq!(list(&url, Some(TOKEN), &[]).await, 200);
}

#[test]
fn two_equal_tokens_are_refused_naming_their_indexes_not_the_token() {
    let tokens = vec![
        (TOKEN.to_owned(), gateway()),
        ("another-token-0123456789".to_owned(), gateway()),
        (TOKEN.to_owned(), gateway()),
    ];
    let error = HttpGateway::new(tokens, &HttpOptions::default()).unwrap_err();
    assert_eq!(
        error,
        HttpSetupError::DuplicateToken {
            first: 0,
            second: 2
        }
    );
    let text = error.to_string();
    assert!(
        text.contains("tokens[0] and tokens[2]") && !text.contains(TOKEN),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_is_reported_without_the_token() {
    let options = HttpOptions {
        max_body_bytes: 4096,
        ..HttpOptions::default()
    };
    let served = serve(options).await;
    let url = served.url();
    let wrong = "wrong-secret-token-value-42";
    assert_eq!(list(&url, None, &[]).await, 401);
    assert_eq!(list(&url, Some(wrong), &[]).await, 401);
    assert_eq!(list(&url, Some(TOKEN), &[("Origin", "null")]).await, 403);
    // A body past the limit, with the right token.
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {"padding": "x".repeat(64 * 1024)}}});
    let status = reqwest::Client::new()
        .post(&url)
        .bearer_auth(TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .json(&big)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status.as_u16(), 413);
    // A foreign Host, sent raw.
    let mut raw = tokio::net::TcpStream::connect(served.address)
        .await
        .unwrap();
    let head = format!(
        "POST /mcp?token={TOKEN} HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Length: 0\r\nConnection: close\r\n\r\n"
    );
    raw.write_all(head.as_bytes()).await.unwrap();
    let mut answer = String::new();
    raw.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");

    let incidents = served.incidents();
    let lines: Vec<String> = incidents.iter().map(ToString::to_string).collect();
    let statuses: Vec<u16> = (incidents.iter())
        .filter_map(|incident| match incident {
            Incident::Refused { status, .. } => Some(*status),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, [401, 401, 403, 413, 403], "{lines:#?}");
    for line in &lines {
        assert!(!line.contains(TOKEN) && !line.contains(wrong), "{line}");
        assert!(line.contains("127.0.0.1:"), "no peer: {line}");
    }
    assert!(lines[1].contains("sha256:"), "{}", lines[1]);
    assert!(lines[3].contains("tokens[0]"), "{}", lines[3]);
    assert!(
        lines[4].contains("evil.example") && lines[4].contains(" /mcp "),
        "{}",
        lines[4]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_kept_open_after_their_response_make_room_for_a_new_client() {
    // HTTP/2 clients that asked once and keep their connections open (answering the gateway's
    // pings) fill the table; a new client is still served, in the place of the one that has
    // been idle the longest.
    let options = HttpOptions {
        max_connections: 2,
        ..HttpOptions::default()
    };
    let served = serve(options).await;
    let health = format!("http://{}/health", served.address);
    let client = || {
        reqwest::Client::builder()
            .http2_prior_knowledge()
            .build()
            .unwrap()
    };
    let (first, second, third) = (client(), client(), client());
    // Kept alive to the end, so that their connections stay open.
    for idle in [&first, &second] {
        let response = idle.get(&health).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.version(), reqwest::Version::HTTP_2);
        response.bytes().await.unwrap();
    }
    let response = third.get(&health).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let evicted: Vec<_> = (served.incidents().into_iter())
        .filter(|incident| matches!(incident, Incident::Evicted { .. }))
        .collect();
    assert_eq!(evicted.len(), 1, "{:?}", served.incidents());
    assert!(
        !(served.incidents().iter()).any(|incident| matches!(incident, Incident::Shed { .. })),
        "{:?}",
        served.incidents()
    );
}
