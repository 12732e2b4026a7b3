//! The `toolreg` command line, driven as a child process: the pool per agent context (the
//! matrix of `docs/design.md` §5.7), `list --json`'s shape and order (§7), deny rules
//! (§3, §4), simple and embedded-search modes (§2, §3), `--mcp` errors, ToolSearch (§9),
//! rendering (§10) and dispatch (§11).
//!
//! Each file under `tests/` is a module of this one binary, so a test run links once. One
//! file's tests: `cargo test -p toolreg-cli --test cli <file>::`. The binary under test is the
//! one Cargo built for these tests, with the same features (`CARGO_BIN_EXE_toolreg`).
//!
//! Every child runs without ENABLE_TOOL_SEARCH, ENABLE_LSP_TOOL, ANTHROPIC_BASE_URL and any
//! CLAUDE_CODE_* variable, so the machine's environment cannot change a result; a test that
//! needs one sets it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Running the binary

/// The `toolreg` binary Cargo built for these tests.
const TOOLREG: &str = env!("CARGO_BIN_EXE_toolreg");

/// The `toolreg` binary, as a path.
fn binary() -> &'static Path {
    Path::new(TOOLREG)
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
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("demo/{server}.json"));
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

/// The workspace's root, where `data/`, `target/` and the test support under `tests/` are.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A captured server of `data/mcp-fixtures`.
fn fixture(name: &str) -> PathBuf {
    workspace().join(format!("data/mcp-fixtures/{name}.json"))
}

fn mcp_option(server: &str, path: &Path) -> String {
    format!("{server}={}", path.display())
}

/// `--mcp` options for every captured server of `data/mcp-fixtures` (134 tools).
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

mod call;
mod conversation;
mod gateway;
mod hostile_peers;
mod lifetime;
mod login;
mod mcp;
mod pool;
mod render;
mod replicas;
mod rules;
mod sdk;
mod search;
mod secrets;
mod tool_definition;
mod turn;
