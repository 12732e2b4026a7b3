//! `toolreg mcp login` and `logout` against a real authorization server
//! (`tests/mcp-peers/servers/oauth.py`): the browser the CLI opens is `$BROWSER`, here a script
//! that follows the authorization server's redirect back to the CLI, as a browser would once
//! the user approves.

use super::*;

use super::mcp::{free_port, listening, peers};

#[test]
fn an_oauth_server_is_logged_in_to_through_the_cli_and_then_serves_its_calls() {
    let Some(peers) = peers() else { return };
    let port = free_port();
    let script = workspace().join("tests/mcp-peers/servers/oauth.py");
    let python = peers.join("venv/bin/python");
    let mut server = listening(
        std::process::Command::new(&python)
            .arg(script)
            .env("PORT", port.to_string()),
        port,
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("mcp.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"notes": {"type": "http",
            "url": format!("http://127.0.0.1:{port}/mcp"), "oauth": {}}}})
        .to_string(),
    )
    .unwrap();
    let browser = dir.path().join("browser");
    std::fs::write(
        &browser,
        format!(
            "#!/bin/sh\nexec {} -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1]).read()' \"$1\"\n",
            python.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&browser, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let credentials = dir.path().join("credentials.json");
    let run = |args: &[&str]| {
        let output = toolreg()
            .env("TOOLREG_CREDENTIALS", &credentials)
            .env("BROWSER", &browser)
            .arg("--mcp-config")
            .arg(&config)
            .args(args)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    };
    let servers = || run(&["mcp", "servers", "--json"]).1;

    assert!(
        servers().contains("needs an OAuth login") && servers().contains("toolreg mcp login notes"),
        "{}",
        servers()
    );
    let (ok, text) = run(&["mcp", "login", "notes", "--wait", "120"]);
    assert!(ok && text.contains("Logged in to `notes`"), "{text}");
    assert!(
        text.contains("code_challenge_method=S256"),
        "the URL is shown: {text}"
    );
    let (ok, text) = run(&[
        "--permission-mode",
        "bypass",
        "call",
        "mcp__notes__whoami",
        "--input",
        "{}",
    ]);
    assert!(ok && !text.contains("nobody"), "{text}");
    // The tokens are on disk, for the owner only, and never printed.
    let stored = std::fs::read_to_string(&credentials).unwrap();
    let access: Value = serde_json::from_str(&stored).unwrap();
    let token =
        access["servers"][format!("http://127.0.0.1:{port}/mcp")]["token_response"]["access_token"]
            .as_str()
            .unwrap()
            .to_owned();
    assert!(!text.contains(&token));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&credentials)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    let (ok, text) = run(&["mcp", "logout", "notes"]);
    assert!(ok && text.contains("Logged out of `notes`"), "{text}");
    assert!(servers().contains("needs an OAuth login"), "{}", servers());
    let (ok, text) = run(&["mcp", "logout", "nowhere"]);
    assert!(!ok && text.contains("no server `nowhere`"), "{text}");
    let _ = server.kill();
    let _ = server.wait();
}
