//! The `toolreg` command line, driven as a child process: the pool per agent context (the
//! lesson's §14.4 matrix, SEMANTICS.md §5), `list --json`'s shape and order (§7), deny rules
//! (§3, §4), simple and embedded-search modes (§2, §3), `--mcp` errors, ToolSearch (§9),
//! rendering (§10) and dispatch (§11).
//!
//! Finding the binary: `toolreg` belongs to the `tools` package, and Cargo only tells a test
//! where the binaries of its *own* package are (`CARGO_BIN_EXE_*`, which `assert_cmd`'s
//! `cargo_bin` relies on), and guessing `target/debug/toolreg` breaks under `CARGO_TARGET_DIR`,
//! `--target` or a stale binary. So the first test that needs it runs, once (a `OnceLock`),
//! `cargo build -p tools --bin toolreg --message-format=json-render-diagnostics` on this
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
/// `tools::features()` agree.
fn tools_features() -> Vec<&'static str> {
    let f = tools::features();
    [
        (f.kairos, "KAIROS"),
        (f.kairos_brief, "KAIROS_BRIEF"),
        (f.fork_subagent, "FORK_SUBAGENT"),
        (f.coordinator_mode, "COORDINATOR_MODE"),
        (f.agent_triggers, "AGENT_TRIGGERS"),
        (f.workflow_scripts, "WORKFLOW_SCRIPTS"),
        (f.internal_build, "INTERNAL_BUILD"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect()
}

fn build_binary() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let mut command = std::process::Command::new(cargo);
    command
        .args(["build", "-p", "tools", "--bin", "toolreg"])
        .arg("--message-format=json-render-diagnostics")
        .arg("--manifest-path")
        .arg(&manifest);
    let features = tools_features();
    if !features.is_empty() {
        command.arg("--features").arg(features.join(","));
    }
    let output = command.output().expect("run cargo build");
    assert!(
        output.status.success(),
        "cargo build -p tools --bin toolreg failed:\n{}",
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

/// `toolreg ARGS list --json`.
fn list(args: &[&str]) -> Vec<Value> {
    let value = json_of(toolreg().args(args).args(["list", "--json"]));
    value.as_array().expect("a JSON array").clone()
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
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../shared/mcp-fixtures/{name}.json"))
}

fn mcp_option(server: &str, path: &Path) -> String {
    format!("{server}={}", path.display())
}

const CONTEXTS: [&str; 6] = [
    "main",
    "subagent",
    "custom-agent",
    "async",
    "teammate",
    "coordinator",
];

/// The lesson's §14.4 matrix: main thread, sub-agent, async agent, coordinator ("Ant": only in
/// the internal build). A custom agent loses what a sub-agent loses; an in-process teammate
/// has the async set plus task tools and SendMessage, none of which is a row here.
#[test]
fn list_per_context_follows_the_availability_matrix_of_lesson_14_4() {
    const ROWS: &[(&str, [&str; 4])] = &[
        ("Bash", ["Yes", "Yes", "Yes", "No"]),
        ("Read", ["Yes", "Yes", "Yes", "No"]),
        ("Edit", ["Yes", "Yes", "Yes", "No"]),
        ("Agent", ["Yes", "Ant", "No", "Yes"]),
        ("AskUserQuestion", ["Yes", "No", "No", "No"]),
        ("EnterPlanMode", ["Yes", "No", "No", "No"]),
        ("TaskStop", ["Yes", "No", "No", "Yes"]),
        ("ToolSearch", ["Yes", "Yes", "Yes", "No"]),
    ];
    let internal = tools::features().internal_build;
    for context in CONTEXTS {
        let column = match context {
            "main" => 0,
            "subagent" | "custom-agent" => 1,
            "async" | "teammate" => 2,
            "coordinator" => 3,
            _ => unreachable!(),
        };
        let pool = list_names(&["--no-demo", "--context", context]);
        for (tool, cells) in ROWS {
            let expected = match cells[column] {
                "Yes" => true,
                "No" => false,
                _ => internal,
            };
            assert_eq!(
                pool.iter().any(|name| name == tool),
                expected,
                "{tool} in --context {context}: {pool:?}"
            );
        }
    }
}

#[test]
fn every_context_keeps_the_demo_mcp_tools_but_the_coordinator_only_pr_activity() {
    let demo = all_demo_tool_names();
    assert_eq!(demo.len(), 30);
    for context in CONTEXTS {
        let mcp = mcp_names(&list(&["--context", context]));
        if context == "coordinator" {
            assert_eq!(mcp, ["mcp__tracker__subscribe_pr_activity"]);
        } else {
            assert_eq!(mcp, demo, "--context {context}");
        }
    }
}

#[test]
fn list_json_objects_have_exactly_the_documented_keys() {
    let expected: BTreeSet<&str> = [
        "name",
        "aliases",
        "mcp",
        "deferred",
        "search_hint",
        "description",
        "read_only",
    ]
    .into();
    let tools = list(&[]);
    assert!(tools.len() > 30);
    let mut hints = 0;
    for tool in &tools {
        let object = tool.as_object().expect("an object");
        let keys: BTreeSet<&str> = object.keys().map(String::as_str).collect();
        assert_eq!(keys, expected, "{tool}");
        let name = tool["name"].as_str().expect("name is a string");
        assert!(
            tool["aliases"]
                .as_array()
                .expect("aliases is an array")
                .iter()
                .all(Value::is_string),
            "{name}"
        );
        assert_eq!(tool["mcp"].as_bool(), Some(name.starts_with("mcp__")));
        assert!(tool["deferred"].is_boolean(), "{name}");
        assert!(tool["read_only"].is_boolean(), "{name}");
        assert!(tool["description"].is_string(), "{name}");
        let hint = &tool["search_hint"];
        assert!(hint.is_string() || hint.is_null(), "{name}: {hint}");
        hints += usize::from(hint.is_string());
        if name.starts_with("mcp__") {
            assert_eq!(tool["deferred"], true, "MCP tools are deferred: {name}");
        }
    }
    assert!(hints > 0, "some tool has a search hint");
    let by_name = |wanted: &str| tools.iter().find(|tool| tool["name"] == wanted).unwrap();
    assert_eq!(by_name("NotebookEdit")["deferred"], true);
    assert_eq!(by_name("Read")["deferred"], false);
    assert_eq!(by_name("Read")["read_only"], true);
    assert_eq!(by_name("Bash")["read_only"], false);
}

#[test]
fn list_puts_sorted_builtins_first_then_sorted_mcp_tools() {
    let tools = list(&["--mcp", &mcp_option("git", &fixture("git"))]);
    let split = tools
        .iter()
        .position(|tool| tool["mcp"] == true)
        .expect("MCP tools listed");
    assert!(split > 0, "built-ins listed");
    assert!(
        tools[split..].iter().all(|tool| tool["mcp"] == true),
        "the built-ins are one prefix"
    );
    for part in [&tools[..split], &tools[split..]] {
        let part = names(part);
        assert!(
            part.windows(2).all(|pair| pair[0] < pair[1]),
            "each part sorted by bytes: {part:?}"
        );
    }
}

#[test]
fn agent_lists_its_legacy_alias_task() {
    let tools = list(&["--no-demo"]);
    let agent = tools.iter().find(|tool| tool["name"] == "Agent").unwrap();
    assert_eq!(agent["aliases"], json!(["Task"]));
}

// ---------------------------------------------------------------------------------------------
// Deny rules and modes

#[test]
fn deny_rule_without_content_removes_the_builtin() {
    assert!(list_names(&["--no-demo"]).contains(&"Bash".to_owned()));
    let before = list_names(&[]);
    let after = list_names(&["--deny", "Bash"]);
    assert_eq!(removed(&before, &after), ["Bash"]);
    assert_eq!(after.len() + 1, before.len());
}

#[test]
fn deny_rule_with_content_never_removes_the_tool() {
    assert_eq!(list_names(&["--deny", "Bash(rm:*)"]), list_names(&[]));
}

#[test]
fn deny_mcp_server_removes_exactly_that_servers_demo_tools() {
    let before = list_names(&[]);
    let after = list_names(&["--deny", "mcp__chat"]);
    let chat = demo_tool_names("chat");
    assert_eq!(chat.len(), 7);
    assert_eq!(removed(&before, &after), chat);
    assert_eq!(after.len() + chat.len(), before.len());
}

#[test]
fn deny_mcp_git_removes_exactly_the_git_fixture_tools() {
    let git = mcp_option("git", &fixture("git"));
    let before = list_names(&["--mcp", &git]);
    let after = list_names(&["--mcp", &git, "--deny", "mcp__git"]);
    let expected = server_tool_names("git", &std::fs::read_to_string(fixture("git")).unwrap());
    assert_eq!(expected.len(), 12);
    assert_eq!(removed(&before, &after), expected);
    assert_eq!(after.len() + expected.len(), before.len());
    assert!(after.iter().all(|name| !name.starts_with("mcp__")));
}

#[test]
fn simple_mode_lists_bash_read_edit_plus_mcp_tools() {
    assert_eq!(
        list_names(&["--simple", "--no-demo"]),
        ["Bash", "Edit", "Read"]
    );
    let tools = list(&["--simple"]);
    let builtins: Vec<String> = names(&tools)
        .into_iter()
        .filter(|name| !name.starts_with("mcp__"))
        .collect();
    assert_eq!(builtins, ["Bash", "Edit", "Read"]);
    assert_eq!(mcp_names(&tools), all_demo_tool_names());
}

#[test]
fn embedded_search_drops_glob_and_grep() {
    let before = list_names(&[]);
    assert!(before.contains(&"Glob".to_owned()) && before.contains(&"Grep".to_owned()));
    let after = list_names(&["--embedded-search"]);
    assert_eq!(removed(&before, &after), ["Glob", "Grep"]);
    assert_eq!(after.len() + 2, before.len());
}

// ---------------------------------------------------------------------------------------------
// --mcp errors

#[test]
fn mcp_missing_file_fails_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let stderr = failure_of(
        toolreg()
            .args(["--mcp", &mcp_option("x", &missing)])
            .arg("list"),
    );
    assert!(stderr.contains("--mcp x="), "{stderr}");
    assert!(stderr.contains("missing.json"), "{stderr}");
}

#[test]
fn mcp_file_that_is_not_json_fails_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, "this is not json\n").unwrap();
    let stderr = failure_of(
        toolreg()
            .args(["--mcp", &mcp_option("x", &file)])
            .arg("list"),
    );
    assert!(stderr.contains("--mcp x="), "{stderr}");
    assert!(stderr.contains("not JSON"), "{stderr}");
    assert_eq!(
        stderr.matches("line 1").count(),
        1,
        "the location once: {stderr}"
    );
}

#[test]
fn mcp_option_without_equals_fails_naming_the_option() {
    for option in ["nonsense", "=file.json", "server="] {
        let stderr = failure_of(toolreg().args(["--mcp", option, "list"]));
        assert!(stderr.contains("--mcp"), "{option}: {stderr}");
        assert!(stderr.contains("SERVER=FILE"), "{option}: {stderr}");
    }
}

#[test]
fn mcp_entry_without_a_name_is_skipped_with_a_warning() {
    let mut tools: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("git")).unwrap()).unwrap();
    let entries = tools.as_array_mut().unwrap();
    let dropped = entries[3]["name"].as_str().unwrap().to_owned();
    entries[3].as_object_mut().unwrap().remove("name");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("git.json");
    std::fs::write(&file, tools.to_string()).unwrap();

    let output = toolreg()
        .args([
            "--no-demo",
            "--mcp",
            &mcp_option("git", &file),
            "list",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("warning: skipped: "))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains("tools[3]"), "{stderr}");
    let listed: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    let mut expected = server_tool_names("git", &std::fs::read_to_string(fixture("git")).unwrap());
    expected.retain(|name| *name != format!("mcp__git__{dropped}"));
    assert_eq!(expected.len(), 11);
    assert_eq!(mcp_names(&listed), expected);
}

// ---------------------------------------------------------------------------------------------
// search

/// `toolreg search ARGS --json -- QUERY`.
fn search(args: &[&str], query: &str) -> Value {
    json_of(
        toolreg()
            .arg("search")
            .args(args)
            .args(["--json", "--", query]),
    )
}

fn matches(output: &Value) -> Vec<String> {
    output["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|name| name.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn search_finds_notebook_edit_and_the_notebook_demo_tools() {
    let output = search(&[], "notebook jupyter");
    let found = matches(&output);
    assert!(found.contains(&"NotebookEdit".to_owned()), "{found:?}");
    assert!(
        found.iter().any(|name| name.starts_with("mcp__notebook__")),
        "{found:?}"
    );
    assert!(found.len() <= 5, "max_results defaults to 5");
    let deferred = list(&[])
        .iter()
        .filter(|tool| tool["deferred"] == true)
        .count();
    assert_eq!(output["total_deferred_tools"], deferred);
    assert_eq!(output["query"], "notebook jupyter");
}

const QUERIES: [&str; 5] = [
    "notebook jupyter",
    "select:Read,NotebookEdit",
    "slack message",
    "mcp__chat",
    "+calendar event",
];

fn queries_file(dir: &Path) -> PathBuf {
    let file = dir.join("queries.txt");
    std::fs::write(&file, QUERIES.join("\n") + "\n").unwrap();
    file
}

#[test]
fn search_queries_file_prints_one_object_per_line_equal_to_each_query_alone() {
    for strategy in ["seed", "ranked"] {
        let dir = tempfile::tempdir().unwrap();
        let file = queries_file(dir.path());
        let text = stdout_of(
            toolreg()
                .args(["search", "--json", "--strategy", strategy, "--queries"])
                .arg(&file),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), QUERIES.len(), "{text}");
        for (line, query) in lines.iter().zip(QUERIES) {
            let object: Value = serde_json::from_str(line).unwrap();
            let keys: BTreeSet<&str> = object
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                keys,
                ["matches", "query", "total_deferred_tools"].into(),
                "{line}"
            );
            assert_eq!(object["query"], query);
            let alone = search(&["--strategy", strategy], query);
            assert_eq!(object, alone, "{strategy}: {query}");
        }
    }
}

#[test]
fn search_select_returns_canonical_names_in_request_order_uncapped() {
    for strategy in ["seed", "ranked"] {
        let args = ["--strategy", strategy, "--max-results", "1"];
        let json_args = |query: &str| {
            json_of(
                toolreg()
                    .arg("search")
                    .args(args)
                    .args(["--json", "--", query]),
            )
        };
        assert_eq!(
            matches(&json_args(
                "select:WebFetch, Read,WebFetch,NoSuchTool,,Task"
            )),
            ["WebFetch", "Read", "Agent"],
            "{strategy}: de-duplicated, aliases resolved, unknown dropped, not capped"
        );
        assert_eq!(
            matches(&json_args("SELECT:mcp__chat__set_status")),
            ["mcp__chat__set_status"],
            "{strategy}: `select:` is case-insensitive"
        );
        assert_ne!(
            matches(&json_args(" select:Read")),
            ["Read"],
            "{strategy}: a leading space defeats `select:`"
        );
    }
}

#[test]
fn search_ranked_strategy_finds_keyword_matches() {
    let output = search(&["--strategy", "ranked"], "notebook jupyter");
    let found = matches(&output);
    assert!(!found.is_empty() && found.len() <= 5, "{found:?}");
    assert!(found.contains(&"NotebookEdit".to_owned()), "{found:?}");
    let chat = matches(&search(&["--strategy", "ranked"], "mcp__chat"));
    assert_eq!(
        chat,
        demo_tool_names("chat")[..5],
        "the `mcp__` prefix path, in pool order"
    );
}

#[test]
fn search_stats_prints_one_json_line_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let file = queries_file(dir.path());
    let output = toolreg()
        .args(["search", "--json", "--stats", "--queries"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let stats: Value = serde_json::from_str(lines[0]).unwrap();
    let keys: BTreeSet<&str> = stats
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "tools",
            "deferred",
            "index_build_us",
            "queries",
            "search_us_total",
            "search_us_per_query",
        ]
        .into()
    );
    let tools = list(&[]);
    assert_eq!(stats["tools"], tools.len());
    assert_eq!(
        stats["deferred"],
        tools.iter().filter(|tool| tool["deferred"] == true).count()
    );
    assert_eq!(stats["queries"], QUERIES.len());
    for key in ["index_build_us", "search_us_total", "search_us_per_query"] {
        assert!(stats[key].as_f64().is_some_and(|us| us >= 0.0), "{key}");
    }
    assert_eq!(
        String::from_utf8(output.stdout).unwrap().lines().count(),
        QUERIES.len(),
        "stdout keeps only the results"
    );
}

// ---------------------------------------------------------------------------------------------
// render

fn render(env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut command = toolreg();
    for (key, value) in env {
        command.env(key, value);
    }
    json_of(command.arg("render").args(args))
}

fn tool_names_of(request: &Value) -> Vec<String> {
    names(request["tools"].as_array().expect("tools"))
}

fn deferred_and_loaded(tools: &[Value]) -> (Vec<String>, Vec<String>) {
    let (deferred, loaded): (Vec<&Value>, Vec<&Value>) =
        tools.iter().partition(|tool| tool["deferred"] == true);
    let names = |tools: Vec<&Value>| {
        tools
            .into_iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    (names(deferred), names(loaded))
}

fn defer_loading(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|tool| tool.get("defer_loading").is_some())
        .inspect(|tool| assert_eq!(tool["defer_loading"], true))
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect()
}

fn announcement(names: &[String]) -> String {
    let mut sorted = names.to_vec();
    sorted.sort();
    format!(
        "<available-deferred-tools>\n{}\n</available-deferred-tools>",
        sorted.join("\n")
    )
}

#[test]
fn render_default_is_a_json_request_with_tools() {
    let request = render(&[], &[]);
    assert!(
        request["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty())
    );
    for tool in request["tools"].as_array().unwrap() {
        assert!(tool["name"].is_string() && tool["description"].is_string());
        assert_eq!(tool["input_schema"]["type"], "object", "{}", tool["name"]);
    }
}

#[test]
fn render_with_tool_search_sends_loaded_tools_and_announces_the_deferred_ones() {
    let (deferred, loaded) = deferred_and_loaded(&list(&[]));
    assert!(loaded.contains(&"ToolSearch".to_owned()));
    let request = render(&[("ENABLE_TOOL_SEARCH", "true")], &[]);
    assert_eq!(tool_names_of(&request), loaded);
    assert!(
        tool_names_of(&request)
            .iter()
            .all(|name| !name.starts_with("mcp__"))
    );
    assert!(defer_loading(&request).is_empty());
    let messages = request["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");
    let content = messages[0]["content"].as_str().unwrap();
    assert!(content.starts_with("<available-deferred-tools>"));
    assert_eq!(content, announcement(&deferred));
    assert_eq!(request["betas"], json!(["advanced-tool-use-2025-11-20"]));
}

#[test]
fn render_discovered_tool_is_sent_with_defer_loading_and_no_longer_announced() {
    const SEND: &str = "mcp__chat__send_message";
    let (deferred, loaded) = deferred_and_loaded(&list(&[]));
    let request = render(&[("ENABLE_TOOL_SEARCH", "true")], &["--discovered", SEND]);
    let mut expected = loaded;
    expected.push(SEND.to_owned());
    assert_eq!(tool_names_of(&request), expected);
    assert_eq!(defer_loading(&request), [SEND]);
    let rest: Vec<String> = deferred.into_iter().filter(|name| name != SEND).collect();
    assert_eq!(request["messages"][0]["content"], announcement(&rest));
}

#[test]
fn render_discovered_takes_a_comma_separated_list_with_spaces() {
    let env = [("ENABLE_TOOL_SEARCH", "true")];
    let spaced = render(
        &env,
        &[
            "--discovered",
            "mcp__chat__set_status, mcp__chat__send_message ,",
        ],
    );
    assert_eq!(
        defer_loading(&spaced),
        ["mcp__chat__send_message", "mcp__chat__set_status"]
    );
    let repeated = render(
        &env,
        &[
            "--discovered",
            "mcp__chat__send_message",
            "--discovered",
            "mcp__chat__set_status",
        ],
    );
    assert_eq!(spaced, repeated);
}

#[test]
fn render_all_deferred_sends_every_tool_marking_the_deferred_ones() {
    let tools = list(&[]);
    let (deferred, _) = deferred_and_loaded(&tools);
    let request = render(
        &[("ENABLE_TOOL_SEARCH", "true")],
        &["--strategy", "all-deferred"],
    );
    assert_eq!(tool_names_of(&request), names(&tools));
    assert_eq!(defer_loading(&request), deferred);
    assert!(request.get("messages").is_none());
}

#[test]
fn render_without_tool_search_sends_everything_in_full() {
    let env = [("ENABLE_TOOL_SEARCH", "false")];
    let listed = json_of(
        toolreg()
            .env("ENABLE_TOOL_SEARCH", "false")
            .args(["list", "--json"]),
    );
    let tools = names(listed.as_array().unwrap());
    let mut expected = list_names(&[]);
    expected.retain(|name| name != "ToolSearch");
    assert_eq!(tools, expected, "everything but ToolSearch");
    for args in [
        &["--strategy", "discovered"][..],
        &["--strategy", "all-deferred"],
        &["--discovered", "mcp__chat__send_message"],
    ] {
        let request = render(&env, args);
        assert_eq!(tool_names_of(&request), tools, "{args:?}");
        assert!(defer_loading(&request).is_empty(), "{args:?}");
        assert!(request.get("messages").is_none(), "{args:?}");
        assert!(request.get("betas").is_none(), "{args:?}");
    }
}

#[test]
fn render_openai_formats_are_function_tools_without_tool_search() {
    let expected: Vec<String> = list_names(&[])
        .into_iter()
        .filter(|name| name != "ToolSearch")
        .collect();
    let chat = render(&[], &["--format", "openai"]);
    assert_eq!(chat.as_object().unwrap().len(), 1, "only `tools`");
    let chat_tools = chat["tools"].as_array().unwrap();
    let mut chat_names = Vec::new();
    for tool in chat_tools {
        assert_eq!(tool["type"], "function");
        let keys: BTreeSet<&str> = tool
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["function", "type"].into());
        let function = &tool["function"];
        assert!(function["description"].is_string());
        assert_eq!(function["parameters"]["type"], "object");
        chat_names.push(function["name"].as_str().unwrap().to_owned());
    }
    assert_eq!(chat_names, expected);

    let responses = render(&[], &["--format", "openai-responses"]);
    assert_eq!(responses.as_object().unwrap().len(), 1, "only `tools`");
    let responses_tools = responses["tools"].as_array().unwrap();
    for (tool, chat_tool) in responses_tools.iter().zip(chat_tools) {
        assert_eq!(tool["type"], "function");
        assert!(tool.get("function").is_none());
        assert_eq!(tool["name"], chat_tool["function"]["name"]);
        assert_eq!(tool["description"], chat_tool["function"]["description"]);
        assert_eq!(tool["parameters"], chat_tool["function"]["parameters"]);
    }
    assert_eq!(names(responses_tools), expected);
}

#[test]
fn render_is_byte_identical_across_runs_and_locales() {
    let git = mcp_option("git", &fixture("git"));
    for args in [
        vec!["render"],
        vec!["render", "--strategy", "all-deferred"],
        vec!["--mcp", &git, "render", "--discovered", "mcp__git__git_log"],
        vec!["render", "--format", "openai"],
    ] {
        let run = |env: &[(&str, &str)]| {
            let mut command = toolreg();
            command.env_remove("LC_ALL").env_remove("LANG");
            for (key, value) in env {
                command.env(key, value);
            }
            stdout_of(command.args(&args))
        };
        let first = run(&[]);
        assert_eq!(first, run(&[]), "{args:?}: two runs");
        for variable in ["LC_ALL", "LANG"] {
            let c = run(&[(variable, "C")]);
            let turkish = run(&[(variable, "tr_TR.UTF-8")]);
            assert_eq!(c, first, "{args:?}: {variable}=C");
            assert_eq!(turkish, c, "{args:?}: {variable}=tr_TR.UTF-8");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// call

/// `toolreg ARGS call NAME --input INPUT` in `dir`; the tool_result block.
fn call(dir: &Path, args: &[&str], name: &str, input: &Value) -> Value {
    json_of(toolreg().current_dir(dir).args(args).args([
        "call",
        name,
        "--input",
        &input.to_string(),
    ]))
}

fn content_text(result: &Value) -> &str {
    result["content"].as_str().expect("text content")
}

fn is_error(result: &Value) -> bool {
    result.get("is_error") == Some(&Value::Bool(true))
}

fn temp_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn call_read_returns_numbered_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(dir.path(), "a.txt", "alpha\nbeta\ngamma\n");
    let result = call(
        dir.path(),
        &[],
        "Read",
        &json!({"file_path": path.to_str().unwrap()}),
    );
    assert_eq!(result["type"], "tool_result");
    assert!(!is_error(&result), "{result}");
    let lines: Vec<&str> = content_text(&result).lines().collect();
    assert_eq!(lines.len(), 3, "{result}");
    for (number, (line, text)) in lines.iter().zip(["alpha", "beta", "gamma"]).enumerate() {
        assert_eq!(line.trim_start(), format!("{}\t{text}", number + 1));
    }
}

#[test]
fn call_edit_changes_the_file_and_an_ambiguous_edit_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(dir.path(), "a.txt", "alpha\nbeta\nalpha\n");
    let file_path = path.to_str().unwrap();
    let result = call(
        dir.path(),
        &[],
        "Edit",
        &json!({"file_path": file_path, "old_string": "beta", "new_string": "delta"}),
    );
    assert!(!is_error(&result), "{result}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "alpha\ndelta\nalpha\n"
    );

    let result = call(
        dir.path(),
        &[],
        "Edit",
        &json!({"file_path": file_path, "old_string": "alpha", "new_string": "omega"}),
    );
    assert!(is_error(&result), "{result}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "alpha\ndelta\nalpha\n",
        "unchanged"
    );
}

#[test]
fn call_grep_searches_the_current_directory() {
    // A decoy one level up: searching anywhere but the child's current directory finds it.
    let outer = tempfile::tempdir().unwrap();
    temp_file(outer.path(), "decoy.txt", "a needle up here\n");
    let dir = outer.path().join("work");
    std::fs::create_dir(&dir).unwrap();
    temp_file(&dir, "hit.txt", "a needle here\n");
    temp_file(&dir, "miss.txt", "only hay\n");
    let result = call(&dir, &[], "Grep", &json!({"pattern": "needle"}));
    assert!(!is_error(&result), "{result}");
    let text = content_text(&result);
    assert!(text.contains("hit.txt"), "{text}");
    assert!(!text.contains("miss.txt"), "{text}");
    assert!(!text.contains("decoy.txt"), "{text}");
}

#[test]
fn call_write_creates_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.txt");
    let result = call(
        dir.path(),
        &[],
        "Write",
        &json!({"file_path": path.to_str().unwrap(), "content": "hello\n"}),
    );
    assert!(!is_error(&result), "{result}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello\n");
}

#[test]
fn call_with_input_of_the_wrong_shape_is_a_tool_error_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let result = call(dir.path(), &[], "Read", &json!({"file_path": 5}));
    assert!(is_error(&result), "{result}");
    assert!(content_text(&result).contains("file_path"), "{result}");
}

#[test]
fn call_of_an_unknown_tool_is_a_tool_error() {
    let dir = tempfile::tempdir().unwrap();
    let result = call(dir.path(), &[], "NoSuchTool", &json!({}));
    assert!(is_error(&result), "{result}");
    assert!(
        content_text(&result).contains("No such tool available"),
        "{result}"
    );
}

#[test]
fn call_of_a_denied_tool_is_refused_and_never_runs() {
    let dir = tempfile::tempdir().unwrap();
    let input = json!({"command": "touch marker"});
    let result = call(dir.path(), &["--deny", "Bash"], "Bash", &input);
    assert!(is_error(&result), "{result}");
    assert!(
        content_text(&result).contains("No such tool available: Bash"),
        "{result}"
    );
    assert!(!dir.path().join("marker").exists(), "Bash ran");

    let result = call(dir.path(), &[], "Bash", &input);
    assert!(!is_error(&result), "{result}");
    assert!(dir.path().join("marker").exists(), "Bash runs when allowed");
}

#[test]
fn call_tool_search_select_returns_tool_reference_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let result = call(
        dir.path(),
        &[],
        "ToolSearch",
        &json!({"query": "select:Read,NotebookEdit"}),
    );
    assert!(!is_error(&result), "{result}");
    assert_eq!(
        result["content"],
        json!([
            {"type": "tool_reference", "tool_name": "Read"},
            {"type": "tool_reference", "tool_name": "NotebookEdit"},
        ])
    );
}

#[test]
fn call_with_input_that_is_not_json_fails() {
    let output = toolreg()
        .args(["call", "Read", "--input", "{not json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("error: --input is not JSON"), "{stderr}");
    assert!(stderr.contains("column 2"), "{stderr}");
    assert_eq!(
        stderr.matches("line 1").count(),
        1,
        "the location once: {stderr}"
    );
}

// ---------------------------------------------------------------------------------------------
// Usage

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // `toolreg render | head -c 100`: the reading end is closed, almost surely before the
    // binary writes (it assembles the pool first), so the write fails with EPIPE.
    let mut child = std::process::Command::new(binary())
        .args(["render", "--strategy", "all-deferred"])
        .env_remove("ENABLE_TOOL_SEARCH")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{}: {stderr}", output.status);
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn unknown_subcommand_or_flag_exits_with_code_2() {
    for args in [
        &["frobnicate"][..],
        &["list", "--frobnicate"],
        &["--frobnicate", "list"],
        &["--context", "nobody", "list"],
        &["search", "--strategy", "nonsense", "x"],
        &["render", "--format", "nonsense"],
        &[],
    ] {
        toolreg().args(args).assert().code(2);
    }
}

#[test]
fn help_works_for_every_subcommand() {
    let top = stdout_of(toolreg().arg("--help"));
    for subcommand in ["list", "search", "render", "call", "eval"] {
        assert!(top.contains(subcommand), "{subcommand} in --help:\n{top}");
        for args in [vec![subcommand, "--help"], vec!["help", subcommand]] {
            let text = stdout_of(toolreg().args(&args));
            assert!(
                text.contains(&format!("Usage: toolreg {subcommand}")),
                "{args:?}:\n{text}"
            );
        }
    }
}
