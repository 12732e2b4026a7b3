//! What the CLI keeps secret: the credentials file (OAuth tokens) and the `--mcp-config` file
//! are out of every tool's reach in `toolreg call`, the tokens file out of every token's tools in `mcp serve --http`
//! (file tools by rule; Bash by the sandbox, which masks what `Read` deny rules cover); a URL's
//! key or userinfo never shows in `mcp servers` or a warning.
//!
//! The files live under the target directory, not `/tmp`: the sandbox replaces `/tmp` with an
//! empty one of its own, which would hide them whatever the rules say.

use toolreg::sandbox::Sandboxing;

use super::gateway::{Served, request, tokens_file};
use super::*;

/// Whether Bash runs sandboxed here; when it cannot, says so (and fails when
/// `TOOLREG_REQUIRE_SANDBOX` is set, as in CI).
fn sandbox_works() -> bool {
    let why = match Sandboxing::detect() {
        Sandboxing::On(_) => return true,
        Sandboxing::Unavailable(why) => why,
        Sandboxing::Off => "off".into(),
    };
    assert!(
        std::env::var_os("TOOLREG_REQUIRE_SANDBOX").is_none(),
        "TOOLREG_REQUIRE_SANDBOX is set but the sandbox is unavailable: {why}"
    );
    eprintln!("skipped (the Bash part): the sandbox is unavailable here: {why}");
    false
}

/// The text of a tool_result (`call`'s output) or of an MCP call result.
fn text_of(result: &Value) -> String {
    match &result["content"] {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|block| block["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

/// `toolreg … call NAME --input INPUT` in bypass mode, after the options `command` has: the
/// tool_result.
fn call_in(command: &mut Command, name: &str, input: &Value) -> Value {
    json_of(
        command
            .args(["--permission-mode", "bypass", "call", name])
            .arg("--input")
            .arg(input.to_string()),
    )
}

/// What `call` (a tool's name and input: its result) shows of `file`, which holds `secret`, in
/// the folder the commands run in: Read and Write refuse it by the safeguard, and a sandboxed
/// Bash command can neither read nor replace it.
fn assert_out_of_reach(call: impl Fn(&str, Value) -> Value, file: &Path, secret: &str) {
    let holds_secret = || std::fs::read_to_string(file).unwrap().contains(secret);
    let read = call("Read", json!({"file_path": file}));
    assert_eq!(read["is_error"], true, "{read}");
    let text = text_of(&read);
    assert!(
        text.contains("safeguard") && !text.contains(secret),
        "{text}"
    );
    let written = call("Write", json!({"file_path": file, "content": "{}"}));
    assert_eq!(written["is_error"], true, "{written}");
    assert!(holds_secret());
    if sandbox_works() {
        let name = file.file_name().unwrap().to_str().unwrap();
        let command = format!("cat {name}; echo x > {name}; echo exit=$?");
        let cat = call("Bash", json!({"command": command}));
        let text = text_of(&cat);
        assert!(!text.contains(secret) && text.contains("exit=1"), "{cat}");
        assert!(holds_secret());
    }
}

#[test]
fn the_credentials_file_is_out_of_reach_of_the_tools_of_toolreg_call() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let secret = "refresh-token-s3cret-0123456789";
    let credentials = dir.path().join("credentials.json");
    std::fs::write(
        &credentials,
        json!({"servers": {"https://h/mcp": {"refresh_token": secret}}}).to_string(),
    )
    .unwrap();
    let call = |name: &str, input: Value| -> Value {
        let mut command = toolreg();
        command
            .current_dir(dir.path())
            .env("TOOLREG_CREDENTIALS", &credentials)
            .arg("--no-demo");
        call_in(&mut command, name, &input)
    };
    assert_out_of_reach(call, &credentials, secret);
    let grep = call(
        "Grep",
        json!({"pattern": "s3cret", "path": dir.path(), "output_mode": "content"}),
    );
    assert!(!text_of(&grep).contains(secret), "{grep}");
}

#[test]
fn the_mcp_config_file_is_out_of_reach_of_the_tools_of_toolreg_call() {
    // A config that gives a server its key: no tool may read it, nor change what toolreg
    // starts next time.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let secret = "api-key-s3cret-0123456789";
    let config = dir.path().join("servers.json");
    let servers = json!({"mcpServers": {"gone": {
        "command": dir.path().join("no-such-server"), "env": {"API_KEY": secret}}}});
    std::fs::write(&config, servers.to_string()).unwrap();
    let call = |name: &str, input: Value| -> Value {
        let mut command = toolreg();
        command
            .current_dir(dir.path())
            .arg("--mcp-config")
            .arg(&config);
        call_in(&mut command, name, &input)
    };
    assert_out_of_reach(call, &config, secret);
}

#[test]
fn the_tokens_file_is_out_of_reach_of_a_tokens_tools_through_the_http_gateway() {
    let token = "tokens-file-token-0123456789";
    let grant = ["Bash", "Read", "Grep", "Write"];
    let (dir, tokens) = tokens_file(json!([
        {"token": token, "servers": [], "builtins": grant, "allow": grant},
    ]));
    let mut served = Served::start(
        dir.path(),
        &["--no-demo"],
        &[
            "--builtins",
            "Bash,Read,Grep,Write",
            "--tokens",
            tokens.to_str().unwrap(),
        ],
        &[],
        None,
    );
    let port = served.port;
    let call = |name: &str, arguments: Value| -> Value {
        let answer = request(
            port,
            token,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        );
        assert_eq!(answer.status, 200, "{answer:?}");
        answer.message()["result"].clone()
    };
    let read = call("Read", json!({"file_path": tokens}));
    assert_eq!(read["isError"], true, "{read}");
    assert!(!text_of(&read).contains(token), "{read}");
    let write = call("Write", json!({"file_path": tokens, "content": "{}"}));
    assert_eq!(write["isError"], true, "{write}");
    let grep = call(
        "Grep",
        json!({"pattern": "tokens-file", "path": dir.path(), "output_mode": "content"}),
    );
    assert!(!text_of(&grep).contains(token), "{grep}");
    if sandbox_works() {
        let cat = call(
            "Bash",
            json!({"command": "cat tokens.json; echo exit=$?; echo '{}' > tokens.json"}),
        );
        let text = text_of(&cat);
        assert!(!text.contains(token) && text.contains("exit=1"), "{cat}");
    }
    assert!(std::fs::read_to_string(&tokens).unwrap().contains(token));
    assert!(served.alive());
}

#[test]
fn a_urls_key_and_userinfo_never_show_in_mcp_servers_or_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("mcp.json");
    // Nothing listens on port 9: connecting fails, and the error quotes the URL.
    std::fs::write(
        &config,
        json!({"mcpServers": {"remote": {
            "url": "http://me:s3cret-pass@127.0.0.1:9/mcp?api_key=k3y-value&region=eu"}}})
        .to_string(),
    )
    .unwrap();
    let run = |args: &[&str]| {
        let output = toolreg()
            .arg("--mcp-config")
            .arg(&config)
            .args(args)
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    };
    for shown in [
        run(&["mcp", "servers", "--json"]),
        run(&["mcp", "servers"]),
        run(&["list"]),
    ] {
        assert!(
            !shown.contains("s3cret-pass") && !shown.contains("k3y-value"),
            "{shown}"
        );
        // The HTTP client sends the userinfo as Basic credentials and leaves it out of the URL
        // it quotes.
        assert!(
            shown.contains("127.0.0.1:9/mcp?api_key=***&region=***"),
            "{shown}"
        );
    }
}

#[test]
fn the_mcp_config_help_describes_url_entries() {
    let help = stdout_of(toolreg().arg("--help"));
    for part in ["\"url\"", "\"headers\"", "\"oauth\"", "${VAR}"] {
        assert!(help.contains(part), "{part} missing from:\n{help}");
    }
}

#[test]
fn a_token_allowed_bash_cannot_read_another_token_from_the_environment() {
    let (first, second) = (
        "first-token-0123456789abcdef",
        "second-token-0123456789abcdef",
    );
    let (dir, tokens) = tokens_file(json!([
        {"token": "${GATEWAY_FIRST}", "servers": [], "builtins": ["Bash"], "allow": ["Bash"]},
        {"token": "${GATEWAY_SECOND}", "servers": [], "builtins": ["Write"], "allow": ["Write"]},
    ]));
    let mut served = Served::start(
        dir.path(),
        &["--no-demo"],
        &[
            "--builtins",
            "Bash,Write",
            "--tokens",
            tokens.to_str().unwrap(),
        ],
        &[
            ("GATEWAY_FIRST", first),
            ("GATEWAY_SECOND", second),
            ("TOOLREG_GATEWAY_TOKEN", "unused-token-0123456789abcdef"),
        ],
        None,
    );
    // Allowed by a rule (the widest grant) and unasked: neither sees any token.
    for command in [
        "printenv",
        "env; cat /proc/self/environ; cat /proc/$PPID/environ",
    ] {
        let answer = request(
            served.port,
            first,
            "tools/call",
            json!({"name": "Bash", "arguments": {"command": command}}),
        );
        assert_eq!(answer.status, 200, "{answer:?}");
        let text = answer.message()["result"].to_string();
        assert!(text.contains("PATH"), "{text}");
        for token in [first, second, "unused-token"] {
            assert!(!text.contains(token), "{command}: {text}");
        }
    }
    assert!(served.alive());
}
