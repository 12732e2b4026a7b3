//! `list`: the pool per context, deny rules, modes and `--mcp` errors.

use super::*;
use toolreg_tools::profile::feature;

/// The matrix of `docs/design.md` §5.7: main thread, sub-agent, async agent, coordinator ("Ant":
/// only in the internal build). A custom agent loses what a sub-agent loses; an in-process teammate
/// has the async set plus task tools and SendMessage, none of which is a row here.
#[test]
fn list_per_context_follows_the_availability_matrix_of_design_5_7() {
    let internal = toolreg_tools::features().is_on(feature::INTERNAL_BUILD);
    for context in CONTEXTS {
        let column = match context {
            "main" => 0,
            "subagent" | "custom-agent" => 1,
            "async" | "teammate" => 2,
            "coordinator" => 3,
            _ => unreachable!(),
        };
        let pool = list_names(&["--no-demo", "--context", context]);
        for (tool, cells) in toolreg_tests::MATRIX {
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
        assert!(tool.is_object(), "{tool}");
        assert_eq!(keys(tool), expected, "{tool}");
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
    let listing: Value = serde_json::from_slice(&output.stdout).unwrap();
    let listed = listing["tools"].as_array().unwrap().clone();
    let mut expected = server_tool_names("git", &std::fs::read_to_string(fixture("git")).unwrap());
    expected.retain(|name| *name != format!("mcp__git__{dropped}"));
    assert_eq!(expected.len(), 11);
    assert_eq!(mcp_names(&listed), expected);
}
