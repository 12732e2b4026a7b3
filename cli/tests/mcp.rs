//! `--mcp-config` and `toolreg mcp servers`, against real servers (installed by
//! `tests/mcp-peers/install.sh`, which the first test that misses them runs; when they cannot
//! be installed these tests say so and return, unless `TOOLREG_REQUIRE_MCP_PEERS` is set).

use std::sync::OnceLock;

use super::*;

/// The `mcp-server-time` of the installed peers.
fn time_server() -> Option<PathBuf> {
    peers().map(|dir| dir.join("venv/bin/mcp-server-time"))
}

/// The folder of the installed peers.
pub(super) fn peers() -> Option<PathBuf> {
    let workspace = workspace();
    let dir = std::env::var_os("TOOLREG_MCP_PEERS")
        .map_or_else(|| workspace.join("target/mcp-peers"), PathBuf::from);
    let server = dir.join("venv/bin/mcp-server-time");
    if !server.exists()
        && std::env::var_os("TOOLREG_MCP_PEERS").is_none()
        && (std::env::var_os("TOOLREG_REQUIRE_MCP_PEERS").is_some()
            || toolreg_tests::slow_tests("installing the MCP peers (npm, PyPI)"))
    {
        static INSTALL: OnceLock<()> = OnceLock::new();
        INSTALL.get_or_init(|| {
            let script = workspace.join("tests/mcp-peers/install.sh");
            let _ = std::process::Command::new("bash")
                .arg(&script)
                .arg(&dir)
                .status();
        });
    }
    if server.exists()
        && dir
            .join("node/node_modules/@modelcontextprotocol/sdk")
            .exists()
    {
        return Some(dir);
    }
    let reason = format!(
        "MCP peers not installed ({} is missing): run tests/mcp-peers/install.sh",
        server.display()
    );
    assert!(
        std::env::var_os("TOOLREG_REQUIRE_MCP_PEERS").is_none(),
        "{reason}"
    );
    eprintln!("skipped: {reason}");
    None
}

/// A config with the time server, a server that cannot start and an HTTP one.
fn config(dir: &Path, time: &Path) -> PathBuf {
    let path = dir.join("mcp.json");
    let config = json!({"mcpServers": {
        "time": {"command": time, "args": ["--local-timezone", "UTC"]},
        "broken": {"command": "/nonexistent/mcp-server"},
        "remote": {"url": "http://127.0.0.1:9/mcp"},
    }});
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

#[test]
fn mcp_servers_shows_each_servers_state() {
    let Some(time) = time_server() else { return };
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &time);
    let servers = json_of(
        toolreg()
            .arg("--mcp-config")
            .arg(&config)
            .args(["mcp", "servers", "--json"]),
    );
    assert_eq!(servers[0]["name"], "time");
    assert_eq!(servers[0]["state"], "connected");
    assert_eq!(servers[0]["tools"], 2);
    assert_eq!(servers[0]["protocol"], "2026-07-28");
    assert_eq!(servers[1]["state"], "failed");
    assert!(
        servers[1]["error"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/mcp-server")
    );
    // Nothing listens on port 9: the HTTP server is tried and fails, saying where.
    let error = servers[2]["error"].as_str().unwrap();
    assert!(
        error.contains("error sending request for url (http://127.0.0.1:9/mcp)")
            && !error.contains("rmcp::"),
        "{error}"
    );
}

#[test]
fn live_servers_join_the_pool_and_answer_calls() {
    let Some(time) = time_server() else { return };
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &time);
    let output = toolreg()
        .arg("--mcp-config")
        .arg(&config)
        .args(["list", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("skipped: MCP server `broken`"), "{stderr}");
    let listing: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = listing["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"mcp__time__get_current_time"), "{names:?}");
    assert!(
        !names.iter().any(|name| name.starts_with("mcp__chat__")),
        "no demo catalog: {names:?}"
    );

    let result = json_of(toolreg().arg("--mcp-config").arg(&config).args([
        "--permission-mode",
        "bypass",
        "call",
        "mcp__time__get_current_time",
        "--input",
        r#"{"timezone": "UTC"}"#,
    ]));
    assert!(result.get("is_error").is_none(), "{result}");
    let content: Value = serde_json::from_str(result["content"].as_str().unwrap()).unwrap();
    assert_eq!(content["timezone"], "UTC");
}

#[test]
fn a_bad_mcp_config_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcp.json");
    std::fs::write(
        &path,
        r#"{"mcpServers": {"time": {"command": "x", "args": [1]}}}"#,
    )
    .unwrap();
    let error = failure_of(toolreg().arg("--mcp-config").arg(&path).arg("list"));
    assert!(
        error.contains("mcpServers.time.args[0]: invalid type"),
        "{error}"
    );
    assert!(error.contains("mcp.json"), "{error}");
}

/// Runs a client script against `toolreg mcp serve` (the time server upstream, Read offered,
/// Write denied) in `mode`; what the script saw.
fn client_run(program: &Path, script: &Path, mode: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let time = peers().unwrap().join("venv/bin/mcp-server-time");
    let config = config(dir.path(), &time);
    let note = dir.path().join("note.txt");
    std::fs::write(&note, "hello gateway\n").unwrap();
    let output = std::process::Command::new(program)
        .arg(script)
        .args([mode, note.to_str().unwrap(), "--"])
        .arg(binary())
        .arg("--mcp-config")
        .arg(&config)
        .args([
            "--deny",
            "Write",
            "--allow",
            "mcp__time",
            "mcp",
            "serve",
            "--builtins",
            "Read",
            "--mode",
            mode,
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{} {mode} failed:\n{}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// What each client script must have seen.
fn assert_script(seen: &Value, mode: &str) {
    assert_eq!(seen["server"], "toolreg");
    assert_eq!(seen["list_is_stable"], true);
    let tools: Vec<&str> = seen["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if mode == "search" {
        assert_eq!(
            tools,
            ["Read", "search_tools", "call_tool"],
            "deferred tools are not listed"
        );
        assert_eq!(seen["search"][0], "mcp__time__get_current_time", "{seen}");
    } else {
        assert_eq!(
            tools,
            [
                "Read",
                "mcp__time__convert_time",
                "mcp__time__get_current_time"
            ]
        );
        assert_eq!(
            seen["meta"]["mcp__time__get_current_time"]["anthropic/alwaysLoad"],
            false
        );
        assert_eq!(seen["meta"]["Read"]["anthropic/alwaysLoad"], true);
    }
    assert_eq!(seen["time"]["is_error"], false, "{seen}");
    assert_eq!(
        seen["time"]["structured"]["timezone"], "UTC",
        "forwarded upstream: {seen}"
    );
    assert_eq!(seen["read"]["is_error"], false, "{seen}");
    assert!(
        seen["read"]["text"]
            .as_str()
            .unwrap()
            .contains("hello gateway"),
        "{seen}"
    );
    assert_eq!(seen["denied"]["is_error"], true, "{seen}");
    assert!(
        seen["denied"]["text"]
            .as_str()
            .unwrap()
            .contains("not in this agent's tool pool"),
        "refused as the library refuses: {seen}"
    );
}

pub(super) fn scripts() -> PathBuf {
    workspace().join("tests/mcp-peers/clients")
}

#[test]
fn the_python_sdk_client_completes_its_script_in_each_mode() {
    let Some(peers) = peers() else { return };
    for mode in ["search", "direct"] {
        let seen = client_run(
            &peers.join("venv/bin/python"),
            &scripts().join("python_client.py"),
            mode,
        );
        assert_eq!(seen["protocol"], "2025-11-25");
        assert_script(&seen, mode);
    }
}

#[test]
fn the_typescript_sdk_client_completes_its_script_in_each_mode() {
    let Some(peers) = peers() else { return };
    // Node resolves the SDK from the script's folder: the script runs from the peers' folder.
    let script = peers.join("node/ts_client.mjs");
    std::fs::copy(scripts().join("ts_client.mjs"), &script).unwrap();
    for mode in ["search", "direct"] {
        assert_script(&client_run(Path::new("node"), &script, mode), mode);
    }
}

#[test]
fn a_toolreg_gateway_serves_another_toolreg_on_the_2026_lane() {
    let Some(peers) = peers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let inner = config(dir.path(), &peers.join("venv/bin/mcp-server-time"));
    let outer = dir.path().join("outer.json");
    let serve = json!({"mcpServers": {"gateway": {
        "command": binary(),
        "args": ["--mcp-config", inner, "--allow", "mcp__time", "mcp", "serve", "--mode", "direct"],
    }}});
    std::fs::write(&outer, serve.to_string()).unwrap();
    let servers = json_of(
        toolreg()
            .arg("--mcp-config")
            .arg(&outer)
            .args(["mcp", "servers", "--json"]),
    );
    assert_eq!(servers[0]["state"], "connected", "{servers}");
    assert_eq!(
        servers[0]["protocol"], "2026-07-28",
        "rmcp on both sides: {servers}"
    );
    assert_eq!(servers[0]["tools"], 2);
    let result = json_of(toolreg().arg("--mcp-config").arg(&outer).args([
        "--permission-mode",
        "bypass",
        "call",
        "mcp__gateway__mcp__time__get_current_time",
        "--input",
        r#"{"timezone": "UTC"}"#,
    ]));
    let content: Value = serde_json::from_str(result["content"].as_str().unwrap()).unwrap();
    assert_eq!(content["timezone"], "UTC", "two hops: {result}");
}

/// Runs `commands` through Bash on `toolreg mcp serve --builtins Bash,…` (with `args` before
/// `mcp serve`) from the Python SDK's client, in `dir`; what the client saw.
fn bash_through_the_gateway(dir: &Path, args: &[&str], commands: &[&str]) -> Value {
    let python = peers().unwrap().join("venv/bin/python");
    let output = std::process::Command::new(python)
        .arg(scripts().join("bash_client.py"))
        .arg(serde_json::to_string(commands).unwrap())
        .arg("--")
        .arg(binary())
        .args(args)
        .args([
            "--no-demo",
            "mcp",
            "serve",
            "--builtins",
            "Bash,Edit,NotebookEdit,Read",
            "--mode",
            "direct",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn gateway_bash_without_an_allow_rule_refuses_every_command_that_changes_something() {
    if peers().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let commands = [
        "touch made",
        "git status; touch made",
        "echo x > made",
        "setsid touch made",
        "x='a[$(touch made)]'; let x",
    ];
    let seen = bash_through_the_gateway(dir.path(), &[], &commands);
    for tool in ["Bash", "Edit", "NotebookEdit"] {
        assert_eq!(
            seen["annotations"][tool]["destructiveHint"], true,
            "{tool}: {seen}"
        );
    }
    assert_eq!(seen["annotations"]["Read"]["readOnlyHint"], true, "{seen}");
    for result in seen["results"].as_array().unwrap() {
        assert_eq!(result["is_error"], true, "{result}");
        assert!(
            result["text"].as_str().unwrap().contains("approver"),
            "refused for lack of an approver: {result}"
        );
    }
    assert!(!dir.path().join("made").exists(), "a command ran");
}

#[test]
fn gateway_bash_with_an_allow_rule_runs_exactly_what_it_names() {
    if peers().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    let seen = bash_through_the_gateway(
        dir.path(),
        &["--allow", "Bash(git status:*)"],
        &[
            "git status",
            "git status; touch made",
            "git status && git stash",
        ],
    );
    let results = seen["results"].as_array().unwrap();
    assert_eq!(results[0]["is_error"], false, "{seen}");
    assert!(
        results[0]["text"].as_str().unwrap().contains("On branch"),
        "{seen}"
    );
    assert_eq!(results[1]["is_error"], true, "{seen}");
    assert_eq!(results[2]["is_error"], true, "{seen}");
    assert!(!dir.path().join("made").exists(), "touch ran");
}

/// A Streamable HTTP server behind a bearer token, its token read from the environment by the
/// config's `${VAR}`, connected and called through the CLI; the token never printed.
#[test]
fn a_bearer_protected_http_server_serves_calls_through_the_cli() {
    let Some(peers) = peers() else { return };
    let port = free_port();
    let script = workspace().join("tests/mcp-peers/servers/http_bearer.py");
    let mut server = listening(
        std::process::Command::new(peers.join("venv/bin/python"))
            .arg(script)
            .env("MCP_TOKEN", "cli-t0ken-value")
            .env("PORT", port.to_string()),
        port,
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("mcp.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"remote": {"type": "http",
        "url": format!("http://127.0.0.1:{port}/mcp"),
        "headers": {"Authorization": "Bearer ${TOOLREG_TEST_MCP_TOKEN}"}}}})
        .to_string(),
    )
    .unwrap();
    let run = |token: &str, args: &[&str]| {
        toolreg()
            .env("TOOLREG_TEST_MCP_TOKEN", token)
            .arg("--mcp-config")
            .arg(&config)
            .args(args)
            .output()
            .unwrap()
    };
    let output = run(
        "cli-t0ken-value",
        &[
            "--permission-mode",
            "bypass",
            "call",
            "mcp__remote__add",
            "--input",
            r#"{"a": 20, "b": 22}"#,
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("42"),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = run("not-the-token", &["mcp", "servers", "--json"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("refused the credentials") && !text.contains("not-the-token"),
        "{text}"
    );
    let _ = server.kill();
    let _ = server.wait();
}

/// `toolreg mcp serve --http` with two tokens of different policies, driven by the Python and
/// the TypeScript SDK over Streamable HTTP: each token lists, finds and calls what it is granted
/// and nothing else; `/health` answers; no token or a wrong one gets 401.
#[test]
fn the_http_gateway_serves_each_token_its_own_tools_to_both_sdks() {
    let Some(peers) = peers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), &peers.join("venv/bin/mcp-server-time"));
    let tokens = dir.path().join("tokens.json");
    std::fs::write(
        &tokens,
        json!({"tokens": [
            {"token": "${TOOLREG_TEST_TOKEN_A}", "servers": ["time"], "allow": ["mcp__time"]},
            {"token": "token-b-0123456789abcdef", "servers": [], "builtins": ["Glob"]},
        ]})
        .to_string(),
    )
    .unwrap();
    let port = free_port();
    let mut server = listening(
        std::process::Command::new(binary())
            .current_dir(dir.path())
            .env("TOOLREG_TEST_TOKEN_A", "token-a-0123456789abcdef")
            .arg("--mcp-config")
            .arg(&config)
            .args([
                "mcp",
                "serve",
                "--builtins",
                "Glob",
                "--http",
                &format!("127.0.0.1:{port}"),
                "--tokens",
            ])
            .arg(&tokens),
        port,
    );
    let url = format!("http://127.0.0.1:{port}/mcp");
    let python = |token: &str| -> Value {
        json_of(
            Command::new(peers.join("venv/bin/python"))
                .arg(scripts().join("python_http_client.py"))
                .args([&url, token]),
        )
    };
    // Node resolves the SDK from the script's folder: the script runs from the peers' folder.
    let script = peers.join("node/ts_http_client.mjs");
    std::fs::copy(scripts().join("ts_http_client.mjs"), &script).unwrap();
    let typescript =
        |token: &str| -> Value { json_of(Command::new("node").arg(&script).args([&url, token])) };
    let a = python("token-a-0123456789abcdef");
    assert_eq!(
        (
            a["health"].as_u64(),
            a["no_token"].as_u64(),
            a["wrong_token"].as_u64()
        ),
        (Some(200), Some(401), Some(401))
    );
    for a in [a, typescript("token-a-0123456789abcdef")] {
        let search = a["search"].as_array().unwrap();
        assert!(
            search
                .iter()
                .any(|name| name == "mcp__time__get_current_time"),
            "{a}"
        );
        assert_eq!(a["time"]["is_error"], false, "{a}");
        // Glob is not granted to token A: refused, though the command line offers it.
        assert_eq!(a["glob"]["is_error"], true, "{a}");
    }
    for b in [
        python("token-b-0123456789abcdef"),
        typescript("token-b-0123456789abcdef"),
    ] {
        assert!(b["search"].as_array().unwrap().is_empty(), "{b}");
        assert_eq!(b["time"]["is_error"], true, "{b}");
        assert_eq!(b["glob"]["is_error"], false, "{b}");
    }
    // A toolreg connects to it as an HTTP server with token A, on the newest protocol.
    let outer = dir.path().join("outer.json");
    std::fs::write(
        &outer,
        json!({"mcpServers": {"gateway": {"url": url,
        "headers": {"Authorization": "Bearer token-a-0123456789abcdef"}}}})
        .to_string(),
    )
    .unwrap();
    let servers = json_of(
        toolreg()
            .arg("--mcp-config")
            .arg(&outer)
            .args(["mcp", "servers", "--json"]),
    );
    assert_eq!(servers[0]["state"], "connected", "{servers}");
    assert_eq!(servers[0]["protocol"], "2026-07-28", "{servers}");
    // SIGTERM: the gateway finishes and exits.
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    assert!(server.wait().unwrap().success());
}

/// A port on 127.0.0.1 nothing listens on now.
pub(super) fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Starts `command` (output discarded) and waits until `port` accepts connections, without a
/// deadline (a loaded machine may take seconds); panics if the process exits first.
pub(super) fn listening(command: &mut std::process::Command, port: u16) -> std::process::Child {
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "it exited before listening"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child
}

#[test]
fn a_stdio_server_sees_neither_secrets_nor_other_servers_variables_only_its_own() {
    let Some(peers) = peers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let everything =
        peers.join("node/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let config = dir.path().join("mcp.json");
    let servers = json!({"mcpServers": {
        "everything": {"command": "node", "args": [everything, "stdio"],
                       "env": {"GIVEN_TO_IT": "${FOR_EVERYTHING}"}},
        "other": {"command": "/nonexistent/mcp-server", "env": {"AUTH": "${REMOTE_AUTH}"}},
    }});
    std::fs::write(&config, servers.to_string()).unwrap();
    let result = json_of(
        toolreg()
            .current_dir(dir.path())
            .env("ANTHROPIC_API_KEY", "HIDDEN-api-key")
            .env("REMOTE_AUTH", "HIDDEN-other-servers-header")
            .env("FOR_EVERYTHING", "its-own-value")
            .env("PLAIN_SETTING", "VISIBLE-setting")
            .args(["--mcp-config", config.to_str().unwrap()])
            .args(["call", "mcp__everything__get-env", "--input", "{}"]),
    );
    let text = result.to_string();
    assert!(text.contains("VISIBLE-setting"), "{text}");
    assert!(text.contains("its-own-value"), "{text}");
    assert!(!text.contains("HIDDEN"), "{text}");
}
