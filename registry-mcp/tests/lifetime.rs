//! An upstream server's processes end with its session: a real server (the PyPI time server)
//! behind `sh -c` that first starts helpers (a background job, a `setsid`'d one, a
//! double-forked one). The test counts the host's live processes that carry its marker
//! (`toolreg-test-processes`).

use crate::peers;

use std::time::Duration;

use toolreg_mcp::{McpConfig, McpHub, ServerSpec, ServerState, Timeouts, Transport};
use toolreg_test_processes::running;

/// Polls until no process holds `marker` (at most 400 looks, 25 ms apart); what is still
/// running then.
async fn left_running(marker: &str) -> Vec<String> {
    let mut left = running(marker);
    for _ in 0..400 {
        if left.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
        left = running(marker);
    }
    left
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrapped_server_and_the_helpers_it_started_end_with_the_session() {
    let Some(peers) = peers::peers() else { return };
    let mark = format!("toolreg-mcp-lifetime-{}", std::process::id());
    let Transport::Stdio { command: time, .. } = peers.time().transport else {
        unreachable!("the time server is a stdio server")
    };
    let mut spec = ServerSpec::stdio(
        "wrapped",
        "sh",
        [
            "-c".to_owned(),
            "sleep 1000 & setsid sleep 1000 & (setsid sh -c 'sleep 1000 &' &); exec \"$0\" \"$@\""
                .to_owned(),
            time,
            "--local-timezone".to_owned(),
            "UTC".to_owned(),
        ],
    );
    if let Transport::Stdio { env, .. } = &mut spec.transport {
        env.insert("TOOLREG_LIFETIME_MARK".into(), mark.clone());
    }
    let timeouts = Timeouts {
        connect: Duration::from_secs(60),
        ..Timeouts::default()
    };
    let hub = McpHub::connect(
        &McpConfig {
            servers: vec![spec],
            ..McpConfig::default()
        },
        timeouts,
    )
    .await;
    let state = hub.statuses().remove(0).state;
    assert!(
        matches!(state, ServerState::Connected { tools: 2, .. }),
        "{state:?}"
    );
    let sleeps = || {
        running(&mark)
            .iter()
            .filter(|stat| stat.contains("(sleep)"))
            .count()
    };
    for _ in 0..400 {
        if sleeps() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(sleeps(), 3, "the helpers run: {:?}", running(&mark));
    hub.close().await;
    let left = left_running(&mark).await;
    // Leave nothing behind when the test fails.
    for stat in &left {
        if let Some(pid) = stat.split_whitespace().next() {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", pid])
                .status();
        }
    }
    assert!(
        left.is_empty(),
        "still running after the session ended: {left:?}"
    );
}
