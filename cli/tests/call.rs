//! `call`: dispatch through the binary, and usage errors.

use super::*;

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
    // Edit changes files, so it asks unless a rule or the mode lets it through.
    let result = call(
        dir.path(),
        &["--allow", "Edit"],
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
        &["--allow", "Edit"],
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
    let input = json!({"file_path": path.to_str().unwrap(), "content": "hello\n"});
    // Write is destructive: without a rule that allows it, it asks, and the CLI cannot ask.
    let asked = call(dir.path(), &[], "Write", &input);
    assert!(is_error(&asked), "{asked}");
    assert!(content_text(&asked).contains("destructive"), "{asked}");
    assert!(!path.exists());
    for allowed in [
        &["--allow", "Write"][..],
        &["--permission-mode", "accept-edits"],
    ] {
        std::fs::remove_file(&path).ok();
        let result = call(dir.path(), allowed, "Write", &input);
        assert!(!is_error(&result), "{allowed:?}: {result}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello\n");
    }
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
    assert!(
        is_error(&result),
        "touch asks, and the CLI cannot ask: {result}"
    );
    assert!(!dir.path().join("marker").exists(), "Bash ran unasked");

    let result = call(dir.path(), &["--allow", "Bash(touch:*)"], "Bash", &input);
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
        &["eval", "--k", "0", "."],
        &[],
    ] {
        toolreg().args(args).assert().code(2);
    }
}

#[test]
fn eval_with_a_cut_off_of_zero_is_a_usage_error_not_a_panic() {
    let output = toolreg().args(["eval", "--k", "0", "."]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("at least 1") && !stderr.contains("panicked"),
        "{stderr}"
    );
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

#[test]
fn bash_commands_never_see_the_environment_s_secrets_unless_kept() {
    let dir = tempfile::tempdir().unwrap();
    let printenv = |args: &[&str]| {
        let result = json_of(
            toolreg()
                .current_dir(dir.path())
                .env("ANTHROPIC_API_KEY", "sk-HIDDEN-api-key")
                .env("GITHUB_TOKEN", "HIDDEN-github-token")
                .env("db_password", "HIDDEN-password")
                .env("TOOLREG_GATEWAY_TOKEN", "HIDDEN-gateway-token")
                .env("PLAIN_SETTING", "VISIBLE-setting")
                .args(args)
                .args(["call", "Bash", "--input", r#"{"command": "printenv"}"#]),
        );
        content_text(&result).to_owned()
    };
    // Unasked (printenv only reads): the read-only environment, nothing of the caller's but
    // the locale, HOME, TERM and TZ.
    for args in [&[][..], &["--no-sandbox"]] {
        let out = printenv(args);
        assert!(
            out.contains("GIT_CONFIG_COUNT") && !out.contains("VISIBLE-setting"),
            "{args:?}: {out}"
        );
        assert!(!out.contains("HIDDEN"), "{args:?}: {out}");
    }
    // Allowed by a rule, sandboxed or not: the caller's environment without its secrets.
    for args in [
        &["--allow", "Bash"][..],
        &["--no-sandbox", "--allow", "Bash"],
    ] {
        let out = printenv(args);
        assert!(out.contains("VISIBLE-setting"), "{args:?}: {out}");
        assert!(!out.contains("HIDDEN"), "{args:?}: {out}");
    }
    let out = printenv(&["--keep-env", "GITHUB_TOKEN", "--allow", "Bash"]);
    assert!(out.contains("HIDDEN-github-token"), "{out}");
    assert!(!out.contains("sk-HIDDEN"), "{out}");
}
