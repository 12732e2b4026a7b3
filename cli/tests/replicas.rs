//! Two replicas of `toolreg mcp serve --http` behind a real load balancer (haproxy, the Debian
//! package; `.ci/run` installs it), sharing nothing but their config and tokens files: one
//! Python SDK session's calls on the 2026-07-28 lane are served by both, and go on when one
//! replica dies; a 2025-11-25 session lives on the replica that opened it (the other answers
//! 404), and the balancer's stick rules keep it there; a replica's upstream server killed is
//! started again. The haproxy configuration is the README's.
//!
//! Without haproxy the test says so and returns, except in CI (`CI` set), where it fails.

use super::mcp::{free_port, listening, peers, scripts};
use super::*;

/// The processes of a test, killed when it ends however it ends.
struct Processes(Vec<std::process::Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// haproxy, or `None` (and why) when it is not installed outside CI.
fn haproxy() -> Option<PathBuf> {
    let found = [
        "/usr/sbin/haproxy",
        "/usr/bin/haproxy",
        "/usr/local/sbin/haproxy",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|path| path.exists());
    if found.is_none() {
        let reason = "haproxy is not installed (apt-get install haproxy)";
        assert!(std::env::var_os("CI").is_none(), "{reason}");
        eprintln!("skipped: {reason}");
    }
    found
}

/// The README's haproxy configuration (its ```haproxy block), on these ports.
fn haproxy_config(front: u16, replicas: [u16; 2]) -> String {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let block = readme
        .split("```haproxy\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("README.md has a ```haproxy block");
    for address in ["127.0.0.1:8930", "127.0.0.1:8931", "127.0.0.1:8932"] {
        assert!(
            block.contains(address),
            "the README's haproxy block has no {address}"
        );
    }
    block
        .replace("127.0.0.1:8930", &format!("127.0.0.1:{front}"))
        .replace("127.0.0.1:8931", &format!("127.0.0.1:{}", replicas[0]))
        .replace("127.0.0.1:8932", &format!("127.0.0.1:{}", replicas[1]))
}

/// The calls each replica's upstream server ran (its log, in the replica's folder).
fn ran(replica: &Path) -> usize {
    std::fs::read_to_string(replica.join("calls.log"))
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn two_replicas_behind_haproxy_serve_one_stateless_session_and_outlive_a_dead_replica_or_upstream()
{
    let Some(peers) = peers() else { return };
    let Some(haproxy) = haproxy() else { return };
    let dir = tempfile::tempdir().unwrap();
    // The files both replicas read; the upstream's log is relative: each replica's folder.
    let recording = workspace().join("registry-mcp/tests/peers/recording.py");
    let config = dir.path().join("mcp.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"rec": {"command": "python3",
            "args": [recording, "rec", "[\"echo\"]", "calls.log"]}}})
        .to_string(),
    )
    .unwrap();
    let tokens = dir.path().join("tokens.json");
    let token = "replica-token-0123456789abcdef";
    std::fs::write(
        &tokens,
        json!({"tokens": [{"token": token, "servers": ["rec"], "allow": ["mcp__rec"]}]})
            .to_string(),
    )
    .unwrap();
    let ports = [free_port(), free_port()];
    let folders = [dir.path().join("replica1"), dir.path().join("replica2")];
    let mut processes = Processes(Vec::new());
    for (port, folder) in ports.iter().zip(&folders) {
        std::fs::create_dir_all(folder).unwrap();
        processes.0.push(listening(
            std::process::Command::new(binary())
                .current_dir(folder)
                .arg("--mcp-config")
                .arg(&config)
                .args([
                    "mcp",
                    "serve",
                    "--http",
                    &format!("127.0.0.1:{port}"),
                    "--tokens",
                ])
                .arg(&tokens),
            *port,
        ));
    }
    let front = free_port();
    let haproxy_cfg = dir.path().join("haproxy.cfg");
    std::fs::write(&haproxy_cfg, haproxy_config(front, ports)).unwrap();
    processes.0.push(listening(
        std::process::Command::new(haproxy)
            .arg("-db")
            .arg("-f")
            .arg(&haproxy_cfg),
        front,
    ));
    let url = format!("http://127.0.0.1:{front}/mcp");
    let calls = |count: usize, prefix: &str| -> Value {
        json_of(
            Command::new(peers.join("venv/bin/python"))
                .arg(scripts().join("python_http_calls.py"))
                .args([&url, token, "mcp__rec__echo", &count.to_string(), prefix]),
        )
    };
    let answered = |seen: &Value, prefix: &str| {
        let calls = seen["calls"].as_array().unwrap();
        for (k, call) in calls.iter().enumerate() {
            assert_eq!(call["is_error"], false, "{seen}");
            let text = call["text"].as_str().unwrap();
            assert!(text.contains(&format!("\"{prefix}-{k}\"")), "{seen}");
        }
        calls.len()
    };
    // One session, its requests spread over both replicas by haproxy's round robin.
    let seen = calls(40, "spread");
    assert_eq!(seen["protocol"], "2026-07-28", "{seen}");
    assert_eq!(answered(&seen, "spread"), 40);
    let [first, second] = [ran(&folders[0]), ran(&folders[1])];
    assert_eq!(first + second, 40, "{first} + {second}");
    assert!(
        first > 0 && second > 0,
        "one replica served all: {first}, {second}"
    );
    // A 2025-11-25 session is one replica's: the other answers 404 (route such clients
    // sticky).
    let replica = |port: u16| format!("http://127.0.0.1:{port}/mcp");
    let legacy = json_of(
        Command::new(peers.join("venv/bin/python"))
            .arg(scripts().join("legacy_session.py"))
            .args([&replica(ports[0]), &replica(ports[1]), token]),
    );
    assert_eq!(
        legacy,
        json!({"initialize": 200, "session": true, "protocol": "2025-11-25",
            "same_replica": 200, "other_replica": 404})
    );
    // Through the balancer, the README's stick rules keep it on its replica.
    let sticky = json_of(
        Command::new(peers.join("venv/bin/python"))
            .arg(scripts().join("legacy_session.py"))
            .args([&url, &url, token]),
    );
    assert_eq!(sticky["same_replica"], 200, "{sticky}");
    assert_eq!(sticky["other_replica"], 200, "{sticky}");
    // The first replica dies: the session's calls go on, all on the second.
    let mut dead = processes.0.remove(0);
    dead.kill().unwrap();
    dead.wait().unwrap();
    let seen = calls(20, "after");
    assert_eq!(answered(&seen, "after"), 20);
    assert_eq!(ran(&folders[0]), first);
    assert_eq!(ran(&folders[1]), second + 20);
    // The survivor's upstream server dies: the replica starts it again (bounded, in case it
    // never does), and the calls go on.
    let upstream = upstream_of(&folders[1]).expect("the second replica's upstream server");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &upstream.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let back = (0..120).any(|k| {
        let seen = calls(1, &format!("restarted{k}"));
        let ok = seen["calls"][0]["is_error"] == false;
        if !ok {
            std::thread::sleep(std::time::Duration::from_millis(250));
        }
        ok
    });
    assert!(back, "the upstream server was not started again");
    assert!(upstream_of(&folders[1]).is_some_and(|pid| pid != upstream));
}

/// The process id of the upstream server (`recording.py` under Python) started in `folder`.
fn upstream_of(folder: &Path) -> Option<u32> {
    let folder = folder.canonicalize().ok()?;
    let entries = std::fs::read_dir("/proc").ok()?;
    entries.filter_map(Result::ok).find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
        let args: Vec<String> = (cmdline.split(|byte| *byte == 0))
            .map(|arg| String::from_utf8_lossy(arg).into_owned())
            .collect();
        let python =
            (args.first()?.rsplit('/').next()).is_some_and(|name| name.starts_with("python"));
        let script = args.get(1)?.ends_with("recording.py");
        let here = std::fs::read_link(entry.path().join("cwd")).ok()? == folder;
        (python && script && here).then_some(pid)
    })
}
