//! The real MCP servers the tests run, installed by `tests/mcp-peers/install.sh` into
//! `target/mcp-peers` (or `$TOOLREG_MCP_PEERS`). The first test that finds them missing runs
//! the script; when they still cannot be found (no npm or PyPI here), a test prints why and
//! returns, unless `TOOLREG_REQUIRE_MCP_PEERS` is set (CI sets it once the install succeeded).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use std::sync::Arc;

use toolreg::{Dispatcher, Env, PermissionContext, PermissionMode, Pool};
use toolreg_mcp::{McpHub, ServerSpec, Transport};

mod http;
pub use http::{HttpPeer, change, connect_remote, free_port, names, wait_for};

/// A dispatcher over the hub's tools that asks nothing (the servers' tools are destructive
/// unless annotated otherwise).
pub fn dispatcher(hub: &Arc<McpHub>) -> Dispatcher {
    let mut rules = PermissionContext::new();
    rules.mode = PermissionMode::BypassPermissions;
    Dispatcher::new(
        Env::default(),
        rules,
        Pool::new(&Env::default(), hub.tools().tools),
        ".",
    )
    .with_mcp(hub.clone())
}

pub struct Peers {
    pub dir: PathBuf,
    /// A scratch folder: the filesystem server's root, the git repository, the memory file.
    pub scratch: tempfile::TempDir,
}

/// The installed peers, or `None` (and a printed reason) when they are missing.
pub fn peers() -> Option<Peers> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dir = std::env::var_os("TOOLREG_MCP_PEERS")
        .map_or_else(|| workspace.join("target/mcp-peers"), PathBuf::from);
    let needed = [
        "node/node_modules/.bin/mcp-server-everything",
        "venv/bin/mcp-server-time",
    ];
    let missing = || needed.iter().find(|path| !dir.join(path).exists());
    // Installing them is slow: done by the tests only with `TOOLREG_SLOW_TESTS=1` (CI installs
    // them first anyway).
    let install = std::env::var_os("TOOLREG_REQUIRE_MCP_PEERS").is_some()
        || std::env::var_os("TOOLREG_SLOW_TESTS")
            .is_some_and(|value| !value.is_empty() && value != "0");
    if missing().is_some() && std::env::var_os("TOOLREG_MCP_PEERS").is_none() && install {
        static INSTALL: OnceLock<()> = OnceLock::new();
        INSTALL.get_or_init(|| {
            let script = workspace.join("tests/mcp-peers/install.sh");
            eprintln!("installing the MCP peers: {}", script.display());
            let _ = std::process::Command::new("bash")
                .arg(&script)
                .arg(&dir)
                .status();
        });
    }
    if let Some(missing) = missing() {
        let reason = format!(
            "MCP peers not installed ({} is missing): run tests/mcp-peers/install.sh",
            dir.join(missing).display()
        );
        assert!(
            std::env::var_os("TOOLREG_REQUIRE_MCP_PEERS").is_none(),
            "{reason}"
        );
        eprintln!("skipped: {reason}");
        return None;
    }
    Some(Peers {
        dir,
        scratch: tempfile::tempdir().unwrap(),
    })
}

impl Peers {
    fn bin(&self, path: &str) -> String {
        self.dir.join(path).to_string_lossy().into_owned()
    }

    pub fn everything(&self) -> ServerSpec {
        ServerSpec::stdio(
            "everything",
            self.bin("node/node_modules/.bin/mcp-server-everything"),
            ["stdio"],
        )
    }

    pub fn filesystem(&self) -> ServerSpec {
        let root = self.scratch.path().join("fsroot");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("hello.txt"), "hello from the filesystem server\n").unwrap();
        let root = root.to_string_lossy().into_owned();
        ServerSpec::stdio(
            "filesystem",
            self.bin("node/node_modules/.bin/mcp-server-filesystem"),
            [root],
        )
    }

    pub fn memory(&self) -> ServerSpec {
        let mut spec = ServerSpec::stdio(
            "memory",
            self.bin("node/node_modules/.bin/mcp-server-memory"),
            Vec::<String>::new(),
        );
        if let Transport::Stdio { env, .. } = &mut spec.transport {
            let file = self.scratch.path().join("memory.jsonl");
            env.insert(
                "MEMORY_FILE_PATH".into(),
                file.to_string_lossy().into_owned(),
            );
        }
        spec
    }

    pub fn git(&self) -> ServerSpec {
        let repo = self.scratch.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        let status = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(&repo)
            .status()
            .unwrap();
        assert!(status.success());
        let repo = repo.to_string_lossy().into_owned();
        ServerSpec::stdio(
            "git",
            self.bin("venv/bin/mcp-server-git"),
            ["--repository".to_owned(), repo],
        )
    }

    pub fn time(&self) -> ServerSpec {
        ServerSpec::stdio(
            "time",
            self.bin("venv/bin/mcp-server-time"),
            ["--local-timezone", "UTC"],
        )
    }

    /// The Python SDK server of `tests/mcp-peers/servers/changing.py`; `slow` writes
    /// `cancelled` to `marker` when cancelled.
    pub fn changing(&self, marker: &Path) -> ServerSpec {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let script = workspace.join("tests/mcp-peers/servers/changing.py");
        ServerSpec::stdio(
            "changing",
            self.bin("venv/bin/python"),
            [
                script.to_string_lossy().into_owned(),
                marker.to_string_lossy().into_owned(),
            ],
        )
    }

    /// The Python SDK server of `tests/mcp-peers/servers/paging.py`: five tools, two a page.
    pub fn paging(&self) -> ServerSpec {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let script = workspace.join("tests/mcp-peers/servers/paging.py");
        ServerSpec::stdio(
            "paging",
            self.bin("venv/bin/python"),
            [script.to_string_lossy().into_owned()],
        )
    }

    /// The raw JSON-RPC server of `tests/mcp-peers/servers/raw.py`, listing `tools` as given.
    pub fn raw(&self, name: &str, tools: &serde_json::Value) -> ServerSpec {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let script = workspace.join("tests/mcp-peers/servers/raw.py");
        ServerSpec::stdio(
            name,
            self.bin("venv/bin/python"),
            [script.to_string_lossy().into_owned(), tools.to_string()],
        )
    }

    /// A Python one-liner as a server.
    pub fn python(&self, name: &str, code: &str) -> ServerSpec {
        ServerSpec::stdio(name, self.bin("venv/bin/python"), ["-c", code])
    }
}

/// The hostile server of `registry-mcp/tests/peers/hostile.py` in `mode` (plain Python, no SDK:
/// it needs only `python3`, not the installed peers).
pub fn hostile(name: &str, mode: &[&str]) -> ServerSpec {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/hostile.py");
    let mut args = vec![script.to_string_lossy().into_owned()];
    args.extend(mode.iter().map(|arg| (*arg).to_owned()));
    ServerSpec::stdio(name, "python3", args)
}
