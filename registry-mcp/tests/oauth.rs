//! OAuth 2.1 against a real authorization server: `tests/mcp-peers/servers/oauth.py`, the
//! Python SDK's authorization-server routes in front of an MCP server on 127.0.0.1. The
//! "browser" is an HTTP client that follows the authorization server's redirect to the login's
//! listener, as a browser would once the user approves.

use crate::peers::{self, Peers, dispatcher, free_port, wait_for};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::task::JoinHandle;
use toolreg::{ToolCall, ToolOutput};
use toolreg_mcp::oauth::{CredentialFile, LoggedIn, LoginError, login_within};
use toolreg_mcp::{McpConfig, McpHub, Problem, ServerState, Timeouts};

/// The authorization server and MCP server in one process, and the log of what it issued.
struct OAuthPeer {
    url: String,
    issuer: String,
    log: PathBuf,
    child: std::process::Child,
}

impl Drop for OAuthPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl OAuthPeer {
    fn start(peers: &Peers, env: &[(&str, String)]) -> OAuthPeer {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let port = free_port();
        let log = peers.scratch.path().join(format!("oauth-{port}.log"));
        let mut child = std::process::Command::new(peers.dir.join("venv/bin/python"))
            .arg(workspace.join("tests/mcp-peers/servers/oauth.py"))
            .env("PORT", port.to_string())
            .envs(env.iter().map(|(name, value)| (name, value)))
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        wait_for(port, &mut child);
        OAuthPeer {
            url: format!("http://127.0.0.1:{port}/mcp"),
            issuer: format!("http://127.0.0.1:{port}"),
            log,
            child,
        }
    }

    /// How many tokens it issued for `grant` (`authorization_code`, `refresh_token`).
    fn issued(&self, grant: &str) -> usize {
        let log = std::fs::read_to_string(&self.log).unwrap();
        log.lines()
            .filter(|line| line.starts_with(&format!("issued {grant} ")))
            .count()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap()
    }
}

fn config(entry: Value, credentials: &Path) -> McpConfig {
    let mut config =
        McpConfig::parse(&json!({ "mcpServers": { "notes": entry } }).to_string()).unwrap();
    config.credentials = Some(credentials.to_owned());
    config
}

fn timeouts() -> Timeouts {
    Timeouts {
        connect: Duration::from_secs(60),
        ..Timeouts::default()
    }
}

/// The browser: follows every redirect from the authorization URL and returns the last page.
fn browse(url: &str) -> JoinHandle<String> {
    let url = url.to_owned();
    tokio::spawn(async move {
        let page = reqwest::get(&url).await.unwrap();
        page.text().await.unwrap()
    })
}

/// Logs in to the config's server with `browser` as the user's browser: the login's outcome and
/// the last page the browser showed.
async fn log_in(
    config: &McpConfig,
    store: &CredentialFile,
    browser: impl FnOnce(&str) -> JoinHandle<String>,
) -> (Result<LoggedIn, LoginError>, String) {
    let mut page = None;
    let outcome = login_within(&config.servers[0], store, Duration::from_secs(120), |url| {
        page = Some(browser(url));
    })
    .await;
    let shown = match page {
        Some(page) => page.await.unwrap(),
        None => String::new(),
    };
    (outcome, shown)
}

async fn whoami(hub: &Arc<McpHub>) -> String {
    let result = dispatcher(hub)
        .dispatch(&ToolCall::new("w", "mcp__notes__whoami", json!({})))
        .await;
    match result.content {
        ToolOutput::Json(value) => value["result"].as_str().unwrap_or_default().to_owned(),
        ToolOutput::Text(text) => text,
        other => panic!("{other:?}"),
    }
}

fn failed_problem(hub: &McpHub) -> Problem {
    match &hub.statuses()[0].state {
        ServerState::Failed(error) => error.problem.clone(),
        other => panic!("expected a failed server, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_behind_oauth_is_logged_in_to_once_then_connected_with_refreshed_tokens() {
    let Some(peers) = peers::peers() else { return };
    // Access tokens that live two seconds, so the second call needs a refresh.
    let server = OAuthPeer::start(&peers, &[("ACCESS_TTL", "2".into())]);
    let credentials = peers.scratch.path().join("config/toolreg/credentials.json");
    let config = config(
        json!({"type": "http", "url": server.url, "oauth": {}}),
        &credentials,
    );

    // Before the login: the server's 401 names the login, not the headers.
    let hub = McpHub::connect(&config, timeouts()).await;
    assert!(
        matches!(failed_problem(&hub), Problem::LoginRequired { .. }),
        "{:?}",
        hub.statuses()
    );
    let ServerState::Failed(error) = &hub.statuses()[0].state else {
        unreachable!()
    };
    assert!(
        error.to_string().contains("toolreg mcp login notes"),
        "{error}"
    );

    let store = CredentialFile::new(&credentials);
    let (logged, page) = log_in(&config, &store, |url| {
        assert!(url.contains("code_challenge_method=S256"), "{url}");
        browse(url)
    })
    .await;
    let logged = logged.unwrap();
    assert!(page.contains("toolreg is authorized for notes"), "{page}");
    assert_eq!(logged.issuer.as_deref(), Some(server.issuer.as_str()));
    assert!(
        server
            .log()
            .contains(&format!("registered {}", logged.client_id))
    );
    assert_eq!(server.issued("authorization_code"), 1);
    assert_eq!(store.servers().unwrap(), std::slice::from_ref(&server.url));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&credentials)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let saved = std::fs::read_to_string(&credentials).unwrap();

    // Connected with the stored tokens; the calls arrive as the logged-in client.
    let hub = McpHub::connect(&config, timeouts()).await;
    assert_eq!(whoami(&hub).await, logged.client_id, "{:?}", hub.statuses());
    // Past the access token's life: the next call refreshes it first, and the new tokens
    // replace the old in the file.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(whoami(&hub).await, logged.client_id);
    assert!(server.issued("refresh_token") >= 1, "{}", server.log());
    assert_ne!(std::fs::read_to_string(&credentials).unwrap(), saved);
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pre_registered_client_logs_in_on_its_own_callback_port_without_registering() {
    let Some(peers) = peers::peers() else { return };
    let port = free_port();
    let callback = format!("http://127.0.0.1:{port}/callback");
    let server = OAuthPeer::start(
        &peers,
        &[("CLIENT_ID", "toolreg-test".into()), ("CALLBACK", callback)],
    );
    let credentials = peers.scratch.path().join("credentials.json");
    let entry = json!({"type": "http", "url": server.url,
        "oauth": {"clientId": "toolreg-test", "callbackPort": port}});
    let config = config(entry, &credentials);
    let store = CredentialFile::new(&credentials);
    let logged = log_in(&config, &store, browse).await.0.unwrap();
    assert_eq!(logged.client_id, "toolreg-test");
    assert!(!server.log().contains("registered"), "{}", server.log());
    let hub = McpHub::connect(&config, timeouts()).await;
    assert_eq!(whoami(&hub).await, "toolreg-test");
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_authorization_is_reported_and_stores_nothing() {
    let Some(peers) = peers::peers() else { return };
    let server = OAuthPeer::start(&peers, &[("DENY", "1".into())]);
    let credentials = peers.scratch.path().join("credentials.json");
    let config = config(json!({"type": "http", "url": server.url}), &credentials);
    let store = CredentialFile::new(&credentials);
    let (error, page) = log_in(&config, &store, browse).await;
    let error = error.unwrap_err();
    assert!(
        matches!(&error, LoginError::Denied { error, .. } if error == "access_denied"),
        "{error:?}"
    );
    assert!(page.contains("Authorization refused"), "{page}");
    assert!(store.servers().unwrap().is_empty());
}

/// The authorization server's redirect, rewritten by `forge` before the browser follows it.
fn browse_forged(url: &str, forge: fn(&str) -> String) -> JoinHandle<String> {
    let url = url.to_owned();
    tokio::spawn(async move {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let answer = client.get(&url).send().await.unwrap();
        let location = answer.headers()["location"].to_str().unwrap().to_owned();
        client
            .get(forge(&location))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_with_another_issuer_or_state_is_refused() {
    let Some(peers) = peers::peers() else { return };
    let server = OAuthPeer::start(&peers, &[]);
    let credentials = peers.scratch.path().join("credentials.json");
    let config = config(json!({"type": "http", "url": server.url}), &credentials);
    let store = CredentialFile::new(&credentials);
    type Forge = fn(&str) -> String;
    let forgeries: [(Forge, &str); 2] = [
        (
            |location| {
                let (head, _) = location.split_once("&iss=").unwrap();
                format!("{head}&iss=http%3A%2F%2Fevil.example")
            },
            "issuer mismatch",
        ),
        (
            |location| location.replace("state=", "state=x"),
            "state not found",
        ),
    ];
    for (forge, why) in forgeries {
        let (error, page) = log_in(&config, &store, |url| browse_forged(url, forge)).await;
        let error = error.unwrap_err();
        assert!(
            matches!(&error, LoginError::Authorization(message) if message.contains(why)),
            "{error:?}"
        );
        assert!(page.contains("Authorization failed"), "{page}");
        assert!(store.servers().unwrap().is_empty());
    }
    assert_eq!(server.issued("authorization_code"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_bound_to_another_issuer_are_dropped_not_sent() {
    let Some(peers) = peers::peers() else { return };
    let server = OAuthPeer::start(&peers, &[]);
    let credentials = peers.scratch.path().join("credentials.json");
    let config = config(json!({"type": "http", "url": server.url}), &credentials);
    let store = CredentialFile::new(&credentials);
    log_in(&config, &store, browse).await.0.unwrap();
    // The file now says another authorization server issued the tokens.
    let text = std::fs::read_to_string(&credentials).unwrap();
    let moved = text.replace(
        &format!("\"issuer\": \"{}\"", server.issuer),
        "\"issuer\": \"https://elsewhere.example\"",
    );
    assert_ne!(moved, text);
    std::fs::write(&credentials, moved).unwrap();
    let hub = McpHub::connect(&config, timeouts()).await;
    assert!(
        matches!(failed_problem(&hub), Problem::LoginRequired { .. }),
        "{:?}",
        hub.statuses()
    );
    assert!(store.servers().unwrap().is_empty(), "the tokens are gone");
}
