//! Rules through the binary, tried as an attacker would: a decoy MCP tool, other spellings of a
//! path, other spellings of a command, writes outside the working directory.

use super::*;

/// `toolreg ARGS call NAME --input INPUT` in `dir`: the tool_result's text and whether the
/// tool ran without error.
fn call(dir: &Path, args: &[&str], name: &str, input: Value) -> (String, bool) {
    let result = json_of(toolreg().current_dir(dir).args(args).args([
        "call",
        name,
        "--input",
        &input.to_string(),
    ]));
    let text = result["content"].as_str().unwrap_or_default().to_owned();
    (text, result.get("is_error") != Some(&Value::Bool(true)))
}

#[test]
fn cli_deny_rule_reaches_the_tool_a_decoy_pushed_to_a_hashed_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(
        &file,
        json!({"tools": [
            {"name": "delete.all", "inputSchema": {"type": "object"}},
            {"name": "delete_all", "inputSchema": {"type": "object"}},
        ]})
        .to_string(),
    )
    .unwrap();
    let mcp = mcp_option("s", &file);
    let open = mcp_names(&list(&["--no-demo", "--mcp", &mcp]));
    assert_eq!(open.len(), 2, "{open:?}");
    let denied = mcp_names(&list(&[
        "--no-demo",
        "--mcp",
        &mcp,
        "--deny",
        "mcp__s__delete_all",
    ]));
    assert!(denied.is_empty(), "{denied:?}");
}

#[test]
fn cli_path_rule_holds_for_every_spelling() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("secrets")).unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("secrets/key"), "hunter2").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("../secrets", dir.path().join("src/link")).unwrap();
    let deny = ["--deny", "Read(./secrets/**)"];
    for path in [
        "secrets/key",
        "./secrets//key",
        "src/../secrets/key",
        "src/link/key",
    ] {
        let (text, ok) = call(dir.path(), &deny, "Read", json!({"file_path": path}));
        assert!(
            !ok && text.contains("denied by rule Read(./secrets/**)"),
            "{path}: {text}"
        );
        assert!(!text.contains("hunter2"));
    }
    // Grep does not walk into what Read rules deny.
    let (text, _) = call(dir.path(), &deny, "Grep", json!({"pattern": "hunter2"}));
    assert!(!text.contains("secrets"), "{text}");
}

#[test]
fn cli_bash_prefix_rule_holds_for_every_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let deny = ["--deny", "Bash(touch:*)"];
    for command in [
        " touch x",
        "true && touch x",
        "; touch x",
        "/usr/bin/touch x",
        "\\touch x",
    ] {
        let (text, ok) = call(dir.path(), &deny, "Bash", json!({"command": command}));
        assert!(
            !ok && text.contains("denied by rule Bash(touch:*)"),
            "{command:?}: {text}"
        );
    }
    let (text, ok) = call(
        dir.path(),
        &deny,
        "Bash",
        json!({"command": "echo $(touch x)"}),
    );
    assert!(!ok && text.contains("could not be checked"), "{text}");
    assert!(!dir.path().join("x").exists());
}

#[test]
fn cli_write_outside_the_working_directory_needs_an_approver_or_an_added_directory() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let other = dir.path().join("other");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&other).unwrap();
    let target = other.join("f.txt");
    let input = json!({"file_path": target.to_str().unwrap(), "content": "x"});
    let (text, ok) = call(&work, &["--allow", "Write"], "Write", input.clone());
    assert!(
        !ok && text.contains("outside the working directories"),
        "{text}"
    );
    assert!(!target.exists());
    let (text, ok) = call(
        &work,
        &["--allow", "Write", "--add-dir", other.to_str().unwrap()],
        "Write",
        input,
    );
    assert!(ok, "{text}");
    assert!(target.exists());
}

#[test]
fn a_malformed_rule_on_the_command_line_is_refused_naming_the_flag_and_the_rule() {
    let stderr = failure_of(toolreg().args(["--no-demo", "--deny", "Bash(rm -rf:*", "list"]));
    assert!(
        stderr.contains("--deny: rule `Bash(rm -rf:*`: the `(` at byte 4 is not closed"),
        "{stderr}"
    );
}
