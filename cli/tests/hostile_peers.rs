//! Hostile peers against the real binary: a client that sends `toolreg mcp serve` what it
//! cannot parse still gets an answer to every request (and the gateway answers the next one),
//! and nothing an MCP server writes reaches the terminal raw through `toolreg mcp servers` or
//! a warning.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::*;

/// How long a test waits for an answer it must get before it says it got none (an input, so
/// a gateway that never answers fails the test instead of hanging it).
const ANSWER_WAIT: Duration = Duration::from_secs(120);

/// `toolreg mcp serve` with Read offered, its answers read on a thread.
struct Gateway {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: mpsc::Receiver<Value>,
}

impl Gateway {
    fn start() -> Gateway {
        let mut child = std::process::Command::new(binary())
            .args(["--no-demo", "mcp", "serve", "--builtins", "Read"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start toolreg mcp serve");
        let stdout = child.stdout.take().unwrap();
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let answer = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the gateway wrote a line that is not JSON ({e}): {line}")
                });
                if sender.send(answer).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Gateway {
            child,
            stdin,
            answers,
        }
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn send_json(&mut self, message: &Value) {
        self.send(message.to_string().as_bytes());
    }

    /// The answers until (and with) the one to request `id`.
    fn answers_until(&self, id: i64) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let answer = self.answers.recv_timeout(ANSWER_WAIT).unwrap_or_else(|_| {
                panic!("no answer to request {id}; the answers so far: {seen:#?}")
            });
            let done = answer["id"] == id;
            seen.push(answer);
            if done {
                return seen;
            }
        }
    }

    fn initialize(&mut self) {
        self.send_json(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "0"},
            }}),
        );
        let answers = self.answers_until(0);
        assert!(
            answers.last().unwrap()["result"]["serverInfo"].is_object(),
            "{answers:?}"
        );
        self.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Closes stdin; every answer left, once the gateway has exited.
    fn finish(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the gateway exited with {status}");
        self.answers.try_iter().collect()
    }

    /// The peak resident memory of the gateway so far, in bytes.
    fn peak_memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kib = status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
            .expect("VmHWM in /proc/PID/status");
        kib * 1024
    }
}

fn tools_list(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"})
}

fn error_code(answer: &Value) -> Option<i64> {
    answer["error"]["code"].as_i64()
}

#[test]
fn every_request_the_gateway_cannot_parse_gets_an_error_answer_and_the_next_is_served() {
    let mut gateway = Gateway::start();
    gateway.initialize();
    // 17 MiB on one line: over the 16 MiB cap, refused unread (its id cannot be known).
    let mut huge = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":""#.to_vec();
    huge.resize(17 * 1024 * 1024, b'a');
    huge.extend_from_slice(br#""}}"#);
    gateway.send(&huge);
    // Nested 200 levels deep: too deep to parse, but its id can still be read.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"Read","arguments":{{"x":{}{}}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    gateway.send(deep.as_bytes());
    gateway.send(br#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#);
    gateway.send(b"[1, 2, 3]");
    gateway.send(b"42");
    gateway.send(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"not an object"}"#);
    gateway.send(br#"{"jsonrpc":"1.0","id":4,"method":"tools/list"}"#);
    gateway.send_json(&tools_list(5));
    let mut answers = gateway.answers_until(5);
    let listed = answers.pop().unwrap();
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["Read", "search_tools", "call_tool"],
        "the next request is served"
    );
    answers.extend(gateway.finish());
    let by_id = |id: i64| {
        answers
            .iter()
            .find(|answer| answer["id"] == id)
            .unwrap_or_else(|| panic!("no answer to request {id}: {answers:#?}"))
    };
    assert_eq!(error_code(by_id(2)), Some(-32700), "{}", by_id(2));
    let deep_message = by_id(2)["error"]["message"].as_str().unwrap();
    assert!(
        deep_message.contains("deeper than 128 levels"),
        "{deep_message}"
    );
    assert_eq!(error_code(by_id(3)), Some(-32602), "{}", by_id(3));
    assert_eq!(error_code(by_id(4)), Some(-32600), "{}", by_id(4));
    let mut anonymous: Vec<(i64, String)> = answers
        .iter()
        .filter(|answer| answer["id"].is_null())
        .map(|answer| {
            (
                error_code(answer).unwrap_or_default(),
                answer["error"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    anonymous.sort();
    let codes: Vec<i64> = anonymous.iter().map(|(code, _)| *code).collect();
    assert_eq!(
        codes,
        [-32700, -32600, -32600, -32600],
        "the huge line, the invalid JSON, the batch and the number: {anonymous:#?}"
    );
    assert!(
        anonymous
            .iter()
            .any(|(_, message)| message.contains("16777216 bytes")),
        "the refusal names the cap: {anonymous:#?}"
    );
}

#[test]
fn a_line_of_64_mib_is_refused_without_being_kept() {
    let mut gateway = Gateway::start();
    gateway.initialize();
    gateway.send_json(&tools_list(1));
    gateway.answers_until(1);
    let before = gateway.peak_memory();
    let mut huge = br#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"pad":""#.to_vec();
    huge.resize(64 * 1024 * 1024, b'a');
    huge.extend_from_slice(br#""}}"#);
    gateway.send(&huge);
    drop(huge);
    gateway.send_json(&tools_list(3));
    let answers = gateway.answers_until(3);
    assert!(
        answers
            .iter()
            .any(|answer| answer["id"].is_null() && error_code(answer) == Some(-32600)),
        "{answers:#?}"
    );
    let grown = gateway.peak_memory().saturating_sub(before);
    // At most one line of the 16 MiB cap is held (plus its buffer's growth), never the 64 MiB.
    assert!(
        grown < 40 * 1024 * 1024,
        "the gateway's peak memory grew by {grown} bytes"
    );
    gateway.finish();
}

#[test]
fn a_notification_before_the_handshake_does_not_end_the_session() {
    let mut gateway = Gateway::start();
    gateway.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    gateway.send_json(&json!({"jsonrpc": "2.0", "id": 99, "result": {}}));
    gateway.send(b"not json at all");
    gateway.initialize();
    gateway.send_json(&tools_list(1));
    let answers = gateway.answers_until(1);
    assert!(
        answers.last().unwrap()["result"]["tools"].is_array(),
        "{answers:#?}"
    );
    let rest = gateway.finish();
    assert!(rest.is_empty(), "{rest:#?}");
}

/// A config with the hostile server that writes terminal escapes to its stderr and in its
/// handshake error.
fn escaping_config(dir: &Path) -> PathBuf {
    let script = workspace().join("registry-mcp/tests/peers/hostile.py");
    let path = dir.join("mcp.json");
    let config =
        json!({"mcpServers": {"hostile": {"command": "python3", "args": [script, "escapes"]}}});
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

/// The characters of `output` a terminal would act on: controls (but newlines), and the
/// bidirectional overrides.
fn raw_controls(output: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(output)
        .chars()
        .filter(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c))
        .collect()
}

#[test]
fn mcp_servers_shows_what_a_server_wrote_with_its_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let config = escaping_config(dir.path());
    for json in [false, true] {
        let mut command = toolreg();
        command
            .arg("--mcp-config")
            .arg(&config)
            .args(["mcp", "servers"]);
        if json {
            command.arg("--json");
        }
        let shown = stdout_of(&mut command);
        assert_eq!(
            raw_controls(shown.as_bytes()),
            Vec::<char>::new(),
            "{shown:?}"
        );
        assert!(shown.contains(r"\x1b[2J"), "{shown}");
        if !json {
            assert_eq!(
                shown.lines().count(),
                2,
                "a header and one line a server: {shown}"
            );
        }
    }
}

#[test]
fn warnings_quote_servers_and_tool_lists_with_their_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let config = escaping_config(dir.path());
    let list = dir.path().join("evil.json");
    let tools = json!([{"name": "\u{1b}[31mevil\u{7}", "inputSchema": "not an object"}]);
    std::fs::write(&list, tools.to_string()).unwrap();
    let output = toolreg()
        .arg("--mcp-config")
        .arg(&config)
        .arg("--mcp")
        .arg(format!("evil={}", list.display()))
        .args(["list", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        raw_controls(&output.stderr),
        Vec::<char>::new(),
        "{stderr:?}"
    );
    assert!(
        stderr.contains(r"\x1b[2J"),
        "the server's stderr, escaped: {stderr}"
    );
    // The loader quotes a name as Rust does (`\u{1b}`): escaped as well.
    assert!(stderr.contains("[31mevil"), "the tool's name: {stderr}");
}
