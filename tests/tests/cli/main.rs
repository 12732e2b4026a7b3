//! The `toolreg` command line, driven as a child process: the pool per agent context (the
//! matrix of `docs/design.md` §5.7), `list --json`'s shape and order (§7), deny rules
//! (§3, §4), simple and embedded-search modes (§2, §3), `--mcp` errors, ToolSearch (§9),
//! rendering (§10) and dispatch (§11).
//!
//! Finding the binary: `toolreg` belongs to the `toolreg-tools` package, and Cargo only tells a test
//! where the binaries of its *own* package are (`CARGO_BIN_EXE_*`, which `assert_cmd`'s
//! `cargo_bin` relies on), and guessing `target/debug/toolreg` breaks under `CARGO_TARGET_DIR`,
//! `--target` or a stale binary. So the first test that needs it runs, once (a `OnceLock`),
//! `cargo build -p toolreg-tools --bin toolreg --message-format=json-render-diagnostics` on this
//! workspace, with the `CARGO` the tests run under, the same environment (so the same target
//! directory and flags) and the `tools` features this test crate was compiled with, and takes
//! the path from the `executable` field of the `toolreg` artifact. When everything is up to
//! date that build is a no-op of well under a second. The tests then run a private copy of it
//! (under `CARGO_TARGET_TMPDIR`), since any other build of `tools` in the same target
//! directory, with other features, relinks `target/debug/toolreg` in place.
//!
//! Every child runs without ENABLE_TOOL_SEARCH, ENABLE_LSP_TOOL, ANTHROPIC_BASE_URL and any
//! CLAUDE_CODE_* variable, so the machine's environment cannot change a result; a test that
//! needs one sets it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Running the binary

/// The `toolreg` binary, built once per test run.
fn binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(build_binary)
}

/// The cargo features of `tools` that this test crate was compiled with, so the binary and
/// `toolreg_tools::features()` agree.
fn tools_features() -> Vec<String> {
    toolreg_tools::features()
        .iter()
        .map(str::to_owned)
        .collect()
}

fn build_binary() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let mut command = std::process::Command::new(cargo);
    command
        .args(["build", "-p", "toolreg-tools", "--bin", "toolreg"])
        .arg("--message-format=json-render-diagnostics")
        .arg("--manifest-path")
        .arg(&manifest);
    let mut features = tools_features();
    if cfg!(feature = "semantic") {
        features.push("semantic".into());
    }
    if !features.is_empty() {
        command.arg("--features").arg(features.join(","));
    }
    let output = command.output().expect("run cargo build");
    assert!(
        output.status.success(),
        "cargo build -p toolreg-tools --bin toolreg failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let built = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["target"]["name"] == "toolreg"
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .expect("cargo build reported the toolreg executable");
    private_copy(&built)
}

/// Copies the binary out of the shared target directory, where another build of `tools` (with
/// other features, or a newer source) may replace `target/debug/toolreg` while these tests
/// run. Copies older than an hour, left by earlier runs, are removed.
fn private_copy(built: &Path) -> PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-test-toolreg");
    let hour = std::time::Duration::from_secs(3600);
    for entry in std::fs::read_dir(&base).into_iter().flatten().flatten() {
        let stale = entry
            .metadata()
            .and_then(|meta| meta.modified())
            .is_ok_and(|modified| modified.elapsed().is_ok_and(|age| age > hour));
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    // One directory per test process; the file keeps its name, which `--help` shows.
    let dir = base.join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).expect("create the binary's directory");
    let copy = dir.join(built.file_name().expect("a file name"));
    std::fs::copy(built, &copy).expect("copy the toolreg binary");
    copy
}

/// A `toolreg` command with the variables that steer the registry removed.
fn toolreg() -> Command {
    let mut command = Command::new(binary());
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("CLAUDE_CODE_") {
            command.env_remove(&*key);
        }
    }
    command
        .env_remove("ENABLE_TOOL_SEARCH")
        .env_remove("ENABLE_LSP_TOOL")
        .env_remove("ANTHROPIC_BASE_URL");
    command
}

/// Runs a command that must succeed; its stdout.
fn stdout_of(command: &mut Command) -> String {
    let output = command.output().expect("run toolreg");
    assert!(
        output.status.success(),
        "toolreg failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 stdout")
}

/// Runs a command that must succeed and print one JSON value.
fn json_of(command: &mut Command) -> Value {
    let text = stdout_of(command);
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("not JSON ({error}):\n{text}"))
}

/// Runs a command that must fail with exit code 1; its stderr.
fn failure_of(command: &mut Command) -> String {
    let output = command.output().expect("run toolreg");
    assert_eq!(
        output.status.code(),
        Some(1),
        "stdout:\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
    String::from_utf8(output.stderr).expect("UTF-8 stderr")
}

// ---------------------------------------------------------------------------------------------
// Pools

/// The tools of `toolreg ARGS list --json`.
fn list(args: &[&str]) -> Vec<Value> {
    let value = json_of(toolreg().args(args).args(["list", "--json"]));
    value["tools"]
        .as_array()
        .expect("a JSON array of tools")
        .clone()
}

/// The keys of a JSON object (none for any other value).
fn keys(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .into_iter()
        .flat_map(|object| object.keys().map(String::as_str))
        .collect()
}

fn names(tools: &[Value]) -> Vec<String> {
    tools
        .iter()
        .map(|tool| tool["name"].as_str().expect("a name").to_owned())
        .collect()
}

fn list_names(args: &[&str]) -> Vec<String> {
    names(&list(args))
}

fn mcp_names(tools: &[Value]) -> Vec<String> {
    names(tools)
        .into_iter()
        .filter(|name| name.starts_with("mcp__"))
        .collect()
}

/// The names in `before` that are not in `after`.
fn removed(before: &[String], after: &[String]) -> Vec<String> {
    before
        .iter()
        .filter(|name| !after.contains(name))
        .cloned()
        .collect()
}

/// The tool names of a tools/list result (an array or `{"tools": [...]}`).
fn server_tool_names(server: &str, text: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(text).unwrap();
    let tools = value.get("tools").unwrap_or(&value);
    let mut names: Vec<String> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| format!("mcp__{server}__{}", tool["name"].as_str().unwrap()))
        .collect();
    names.sort();
    names
}

/// The demo catalog compiled into the binary, read from its source files.
fn demo_tool_names(server: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../tools/demo/{server}.json"));
    server_tool_names(server, &std::fs::read_to_string(path).unwrap())
}

fn all_demo_tool_names() -> Vec<String> {
    let mut names: Vec<String> = ["calendar", "chat", "notebook", "tracker"]
        .into_iter()
        .flat_map(demo_tool_names)
        .collect();
    names.sort();
    names
}

fn fixture(name: &str) -> PathBuf {
    common::fixtures_dir().join(format!("{name}.json"))
}

fn mcp_option(server: &str, path: &Path) -> String {
    format!("{server}={}", path.display())
}

/// `--mcp` options for every captured server of `data/mcp-fixtures` (154 tools).
fn every_fixture() -> Vec<String> {
    let dir = fixture("git");
    let dir = dir.parent().unwrap();
    let mut servers: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_stem()?.to_str()?.to_owned();
            (path.extension()? == "json").then(|| mcp_option(&name, &path))
        })
        .collect();
    servers.sort();
    servers
        .into_iter()
        .flat_map(|option| ["--mcp".to_owned(), option])
        .collect()
}

const CONTEXTS: [&str; 6] = [
    "main",
    "subagent",
    "custom-agent",
    "async",
    "teammate",
    "coordinator",
];

use crate::common;

mod call;
mod gateway;
mod hostile_peers;
mod login;
mod mcp;
mod pool;
mod render;
mod replicas;
mod rules;
mod sdk;
mod search;
mod secrets;
mod turn;
