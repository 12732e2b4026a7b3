//! `toolreg mcp serve --http` under abuse, driven over raw sockets: idle connections past the
//! open-file limit never end it and a client is served meanwhile; a flood of `initialize`s with
//! one token is capped and the process's memory stays bounded; two policies with one token are
//! refused at start; every refusal is one line on stderr, without the token.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Child, Stdio};

use super::mcp::free_port;
use super::*;

/// A gateway process, its stderr in a file; killed when dropped.
pub(super) struct Served {
    child: Child,
    pub(super) port: u16,
    stderr: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// `toolreg ARGS mcp serve --http 127.0.0.1:PORT SERVE_ARGS` in `dir`, with `env`, under an
    /// open-file limit of `open_files` (soft and hard) when given; returns once it listens.
    pub(super) fn start(
        dir: &Path,
        args: &[&str],
        serve_args: &[&str],
        env: &[(&str, &str)],
        open_files: Option<u32>,
    ) -> Served {
        let port = free_port();
        let address = format!("127.0.0.1:{port}");
        let mut command = match open_files {
            // `ulimit -n` sets both limits; exec keeps the process id.
            Some(limit) => {
                let mut command = std::process::Command::new("bash");
                command
                    .arg("-c")
                    .arg(format!("ulimit -n {limit} && exec \"$0\" \"$@\""))
                    .arg(binary());
                command
            }
            None => std::process::Command::new(binary()),
        };
        command
            .current_dir(dir)
            .args(args)
            .args(["mcp", "serve", "--http", &address])
            .args(serve_args)
            .envs(env.iter().copied());
        let stderr = dir.join(format!("gateway-{port}.stderr"));
        let child = command
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        let mut served = Served {
            child,
            port,
            stderr,
        };
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                served.child.try_wait().unwrap().is_none(),
                "the gateway exited before listening:\n{}",
                served.stderr()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        served
    }

    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(super) fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    pub(super) fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Stops it with SIGTERM and waits for it to exit.
    pub(super) fn stop(&mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// An answer: its status and body (de-chunked).
#[derive(Debug)]
pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) body: String,
}

impl Answer {
    /// The JSON-RPC message of the body (JSON, or an SSE event's data).
    pub(super) fn message(&self) -> Value {
        let json = (self.body.lines())
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .find(|data| !data.is_empty())
            .unwrap_or(&self.body);
        serde_json::from_str(json).unwrap_or(Value::Null)
    }
}

/// Sends `head` (its lines, without the blank line) and `body` on a new connection that the
/// server closes after answering.
pub(super) fn exchange(port: u16, head: &str, body: &[u8]) -> std::io::Result<Answer> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    let request = format!(
        "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(request.as_bytes())?;
    stream.write_all(body)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let split = (raw.windows(4).position(|window| window == b"\r\n\r\n")).unwrap_or(raw.len());
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let rest = raw.get(split + 4..).unwrap_or_default();
    let status = (head.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    Ok(Answer {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// A chunked body's bytes.
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(end) = rest.windows(2).position(|window| window == b"\r\n") {
        let size = String::from_utf8_lossy(&rest[..end]);
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        let data = &rest[end + 2..];
        if size == 0 || data.len() < size {
            break;
        }
        body.extend_from_slice(&data[..size]);
        rest = data[size..].strip_prefix(b"\r\n").unwrap_or(&data[size..]);
    }
    body
}

/// A POST to `/mcp` of `message` with `headers` (and the MCP transport's own).
pub(super) fn post(port: u16, headers: &[(&str, &str)], message: &Value) -> Answer {
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json, \
         text/event-stream\r\nContent-Type: application/json"
    );
    for (name, value) in headers {
        head.push_str(&format!("\r\n{name}: {value}"));
    }
    exchange(port, &head, message.to_string().as_bytes()).expect("an answer")
}

/// A 2026-07-28 request (served statelessly) of `method` with `params`, by `token`.
pub(super) fn request(port: u16, token: &str, method: &str, params: Value) -> Answer {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "cli-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let bearer = format!("Bearer {token}");
    let mut headers = vec![
        ("Authorization", bearer.as_str()),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    let name = message["params"]["name"].as_str().map(str::to_owned);
    if let Some(name) = &name {
        headers.push(("Mcp-Name", name));
    }
    post(port, &headers, &message)
}

/// A 2025-11-25 `initialize` by `token`: it opens a session.
fn initialize(port: u16, token: &str) -> Answer {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "cli-test", "version": "1"}}});
    post(
        port,
        &[("Authorization", &format!("Bearer {token}"))],
        &message,
    )
}

/// A folder under the target directory (not `/tmp`, which the Bash sandbox replaces by one of
/// its own) holding a tokens file of `policies`.
pub(super) fn tokens_file(policies: Value) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = dir.path().join("tokens.json");
    std::fs::write(&path, json!({ "tokens": policies }).to_string()).unwrap();
    (dir, path)
}

const TOKEN: &str = "gateway-cli-token-0123456789";

/// The process's resident memory in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn connections_past_the_limit_never_end_the_gateway_and_a_client_is_served_meanwhile() {
    let (dir, tokens) = tokens_file(json!([{"token": TOKEN, "servers": []}]));
    // 256 open files: the gateway keeps 192 connections; 600 idle ones are opened.
    let tokens = tokens.to_str().unwrap();
    let mut served = Served::start(
        dir.path(),
        &["--no-demo"],
        &["--tokens", tokens],
        &[],
        Some(256),
    );
    let port = served.port;
    let served_ok = |what: &str| {
        let health = exchange(
            port,
            &format!("GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}"),
            b"",
        )
        .unwrap_or_else(|error| panic!("{what}: /health: {error}"));
        assert_eq!(health.status, 200, "{what}: {health:?}");
        let list = request(port, TOKEN, "tools/list", json!({}));
        assert_eq!(list.status, 200, "{what}: {list:?}");
    };
    let mut idle = Vec::new();
    for k in 0..600 {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(stream) => idle.push(stream),
            Err(error) => panic!(
                "connection {k} refused ({error}); the gateway said:\n{}",
                served.stderr()
            ),
        }
        if k % 50 == 49 {
            served_ok(&format!("after {} idle connections", k + 1));
        }
    }
    assert!(served.alive(), "{}", served.stderr());
    drop(idle);
    served_ok("after the idle connections closed");
    let stderr = served.stderr();
    assert!(stderr.contains("at most 192 connections"), "{stderr}");
    assert!(
        stderr.contains("which had sent no request, to make room"),
        "{stderr}"
    );
}

#[test]
fn a_session_flood_with_one_token_is_capped_and_the_memory_stays_bounded() {
    let (dir, tokens) = tokens_file(json!([{"token": TOKEN, "servers": []}]));
    let tokens = tokens.to_str().unwrap();
    let served = Served::start(dir.path(), &["--no-demo"], &["--tokens", tokens], &[], None);
    let port = served.port;
    assert_eq!(request(port, TOKEN, "tools/list", json!({})).status, 200);
    let before = resident_kib(served.pid());
    let (mut opened, mut refused) = (0, 0);
    for _ in 0..2064 {
        let answer = initialize(port, TOKEN);
        match answer.status {
            200 => opened += 1,
            429 => {
                assert!(answer.body.contains("sessions"), "{answer:?}");
                refused += 1;
            }
            _ => panic!("{answer:?}"),
        }
    }
    // The default limit: 64 sessions a token.
    assert_eq!((opened, refused), (64, 2000));
    let grown = resident_kib(served.pid()).saturating_sub(before);
    // 64 sessions take about 4 MiB; 2,064 took 120 MiB before the limit.
    assert!(grown < 32 * 1024, "resident memory grew by {grown} KiB");
}

#[test]
fn two_policies_with_one_token_are_refused_at_start_naming_the_entries_not_the_token() {
    let secret = "dup-token-0123456789abcdef";
    let (dir, tokens) = tokens_file(json!([
        {"token": "${TOOLREG_TEST_DUP_TOKEN}", "servers": []},
        {"token": "another-token-0123456789", "servers": []},
        {"token": secret, "servers": []},
    ]));
    let port = free_port();
    let mut child = std::process::Command::new(binary())
        .current_dir(dir.path())
        .env("TOOLREG_TEST_DUP_TOKEN", secret)
        .args([
            "--no-demo",
            "mcp",
            "serve",
            "--http",
            &format!("127.0.0.1:{port}"),
        ])
        .arg("--tokens")
        .arg(&tokens)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It must exit; listening means it started (and is then killed).
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the gateway started with two policies of one token");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!status.success());
    assert!(
        stderr.contains("tokens[0] and tokens[2] are the same token") && !stderr.contains(secret),
        "{stderr}"
    );
}

#[test]
fn every_refusal_is_one_line_on_stderr_without_the_token() {
    let other = "second-token-0123456789ab";
    let (dir, tokens) = tokens_file(json!([
        {"token": "${TOOLREG_TEST_LOG_TOKEN}", "servers": []},
        {"token": other, "servers": []},
    ]));
    let tokens = tokens.to_str().unwrap();
    let mut served = Served::start(
        dir.path(),
        &["--no-demo"],
        &["--tokens", tokens],
        &[("TOOLREG_TEST_LOG_TOKEN", TOKEN)],
        None,
    );
    let port = served.port;
    let wrong = "sk-wrong-token-sent-by-mistake";
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
    let bearer = |token: &str| format!("Bearer {token}");
    let answers = [
        post(port, &[], &list),
        post(port, &[("Authorization", &bearer(wrong))], &list),
        post(
            port,
            &[
                ("Authorization", &bearer(TOKEN)),
                ("Origin", "https://evil.example"),
            ],
            &list,
        ),
        post(
            port,
            &[("Authorization", &bearer(other)), ("Origin", "null")],
            &list,
        ),
    ];
    let statuses: Vec<u16> = answers.iter().map(|answer| answer.status).collect();
    assert_eq!(statuses, [401, 401, 403, 403]);
    let foreign_host = exchange(
        port,
        &format!("POST /mcp?key={TOKEN} HTTP/1.1\r\nHost: rebound.example\r\nAuthorization: Bearer {TOKEN}"),
        b"{}",
    )
    .unwrap();
    assert_eq!(foreign_host.status, 403);
    assert_eq!(request(port, TOKEN, "tools/list", json!({})).status, 200);
    served.stop();
    let stderr = served.stderr();
    let refusals: Vec<&str> = (stderr.lines())
        .filter(|line| line.starts_with("http gateway: "))
        .collect();
    assert_eq!(refusals.len(), 5, "{stderr}");
    for line in &refusals {
        assert!(line.contains(" from 127.0.0.1:"), "{line}");
        for secret in [TOKEN, other, wrong] {
            assert!(!line.contains(secret), "{line}");
        }
    }
    assert!(refusals[0].contains("401 POST /mcp") && refusals[0].ends_with("no bearer token"));
    assert!(
        refusals[1].contains("unknown bearer token (sha256:"),
        "{}",
        refusals[1]
    );
    assert!(refusals[2].contains("403") && refusals[2].contains("https://evil.example"));
    assert!(refusals[3].contains("Origin `null`"), "{}", refusals[3]);
    assert!(
        refusals[4].contains("Host `rebound.example`"),
        "{}",
        refusals[4]
    );
}

#[test]
fn errors_about_a_token_at_start_name_its_entry_never_its_value() {
    let secret = "sk-live-0123456789abcdef";
    let cases = [
        (
            json!([{"token": "sk-short-1"}]),
            "tokens[0].token: shorter than 16 characters",
        ),
        (
            json!([{"token": "ok-token-0123456789"}, {"token": format!("${{{secret}}}")}]),
            "tokens[1].token: the `${…}` at byte 0 does not name a variable",
        ),
        (
            json!([{"token": "ok-token-0123456789", "servers": secret}]),
            "tokens[0].servers: invalid type: string, expected a sequence",
        ),
        (
            json!([{"token": 1234567890123456789_u64}]),
            "tokens[0].token: expected a string",
        ),
    ];
    for (policies, expected) in cases {
        let (dir, tokens) = tokens_file(policies);
        let stderr = failure_of(
            toolreg()
                .current_dir(dir.path())
                .args([
                    "--no-demo",
                    "mcp",
                    "serve",
                    "--http",
                    "127.0.0.1:0",
                    "--tokens",
                ])
                .arg(&tokens),
        );
        assert!(stderr.contains(expected), "{stderr}");
        for value in [secret, "sk-short-1", "1234567890123456789"] {
            assert!(!stderr.contains(value), "{stderr}");
        }
    }
}
