//! `--mcp-config` and `toolreg mcp servers`, against real servers (installed by
//! `tests/mcp-peers/install.sh`, which the first test that misses them runs; when they cannot
//! be installed these tests say so and return, unless `TOOLREG_REQUIRE_MCP_PEERS` is set).

use super::*;

/// The `mcp-server-time` of the installed peers.
fn time_server() -> Option<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::var_os("TOOLREG_MCP_PEERS")
        .map_or_else(|| workspace.join("target/mcp-peers"), PathBuf::from);
    let server = dir.join("venv/bin/mcp-server-time");
    if !server.exists() && std::env::var_os("TOOLREG_MCP_PEERS").is_none() {
        static INSTALL: OnceLock<()> = OnceLock::new();
        INSTALL.get_or_init(|| {
            let script = workspace.join("tests/mcp-peers/install.sh");
            let _ = std::process::Command::new("bash")
                .arg(&script)
                .arg(&dir)
                .status();
        });
    }
    if server.exists() {
        return Some(server);
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
    assert!(
        servers[2]["error"]
            .as_str()
            .unwrap()
            .contains("Streamable HTTP")
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
    let tools: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = tools
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
