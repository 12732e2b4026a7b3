//! What a rendered tool carries besides its schema: the built-ins' `input_examples`, and
//! `allowed_callers` from `--callable-from-code`, which `turn` enforces.

use super::*;

/// The body's tool named `name`.
fn tool_named<'a>(body: &'a Value, name: &str) -> &'a Value {
    body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not rendered"))
}

fn render_body(args: &[&str]) -> Value {
    json_of(toolreg().arg("render").args(args))["body"].take()
}

#[test]
fn the_builtins_people_get_wrong_carry_input_examples_their_schema_accepts() {
    for strict in [false, true] {
        let args: &[&str] = if strict { &["--strict"] } else { &[] };
        let body = render_body(args);
        for name in ["Bash", "Grep", "Glob", "Edit"] {
            let tool = tool_named(&body, name);
            let examples = tool["input_examples"]
                .as_array()
                .unwrap_or_else(|| panic!("{name} has no input_examples: {tool}"));
            assert!(!examples.is_empty(), "{name}");
            // Each example is an input the schema sent with it accepts (the strict one with
            // --strict, whose optional properties the examples then give as null).
            let validator = jsonschema::validator_for(&tool["input_schema"]).unwrap();
            for example in examples {
                let errors: Vec<String> = validator
                    .iter_errors(example)
                    .map(|error| error.to_string())
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{name} (strict {strict}): {example}: {errors:?}"
                );
            }
        }
        // A tool that declares none carries none.
        assert!(tool_named(&body, "Write").get("input_examples").is_none());
    }
    // OpenAI's tools have no such field: the examples are left out.
    let openai = stdout_of(toolreg().args(["render", "--format", "openai"]));
    assert!(!openai.contains("input_examples"), "{openai}");
}

#[test]
fn render_callable_from_code_gives_the_named_tools_allowed_callers_with_code_execution() {
    let body = render_body(&["--callable-from-code", "Read"]);
    assert_eq!(
        tool_named(&body, "Read")["allowed_callers"],
        json!([
            "direct",
            "code_execution_20250825",
            "code_execution_20260120"
        ])
    );
    for tool in body["tools"].as_array().unwrap() {
        if tool["name"] != "Read" {
            assert!(tool.get("allowed_callers").is_none(), "{tool}");
        }
    }
    // A rule is checked as the permission rules are; a caller rule names whole tools.
    for (rule, wrong) in [
        ("Read(x)", "names whole tools"),
        ("Read(x", "is not closed"),
    ] {
        let output = toolreg()
            .args(["render", "--callable-from-code", rule])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success());
        assert!(
            stderr.contains("--callable-from-code") && stderr.contains(wrong),
            "{stderr}"
        );
    }
}

#[test]
fn turn_runs_a_call_from_code_only_for_a_tool_callable_from_code() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
    let caller = json!({"type": "code_execution_20260120", "tool_id": "srvtoolu_1"});
    let blocks = json!([
        {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a.txt"},
         "caller": caller},
        {"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "a.txt"},
         "caller": {"type": "direct"}},
    ]);
    let file = dir.path().join("calls.json");
    std::fs::write(&file, blocks.to_string()).unwrap();
    let turn = |extra: &[&str]| -> Vec<Value> {
        let reply = json_of(
            toolreg()
                .current_dir(dir.path())
                .args(extra)
                .args(["turn", file.to_str().unwrap()]),
        );
        reply["content"].as_array().unwrap().clone()
    };
    let refused = turn(&[]);
    assert_eq!(refused[0]["is_error"], true, "{refused:?}");
    let text = refused[0]["content"].as_str().unwrap();
    assert!(text.contains("cannot be called from code"), "{text}");
    assert!(refused[1]["content"].as_str().unwrap().contains("alpha"));
    let allowed = turn(&["--callable-from-code", "Read"]);
    for result in &allowed {
        assert!(result.get("is_error").is_none(), "{allowed:?}");
        assert!(result["content"].as_str().unwrap().contains("alpha"));
    }
}
