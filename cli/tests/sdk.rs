//! Every request `toolreg render` makes, checked against the official SDK types and the API
//! rules the types cannot say, by `tests/sdk-check/check.mjs` (tsc --strict, `satisfies` on
//! each body; see its header). The matrix: format × strategy × strict × tool-search mode ×
//! provider (first-party, Bedrock, Vertex, Foundry, kill switch) × catalog (the demo, the 11
//! captured MCP servers with tools callable from code) × agent context × conversation (none, or one that loaded tools with a
//! real ToolSearch call) × beta set × MCP servers as namespaces (Responses). Identical requests
//! are checked once.
//!
//! The SDKs come from `tests/sdk-check/install.sh` (npm, pinned, into `target/sdk-check`); the
//! test runs it when they are missing and `TOOLREG_SLOW_TESTS` is set. When they are not
//! installed it skips, saying why,
//! unless `TOOLREG_REQUIRE_SDK_CHECK` is set (CI sets it).

use std::collections::HashSet;
use std::process::Output;

use toolreg_tests::sdk_check;

use super::*;

struct Catalog {
    name: &'static str,
    args: Vec<String>,
    /// What the conversation's ToolSearch call selects: deferred tools and a loaded one.
    select: &'static str,
    /// A deferred tool the API's own search finds in the server conversations.
    found: &'static str,
}

const PROVIDERS: [(&str, &[(&str, &str)]); 5] = [
    ("first-party", &[]),
    ("bedrock", &[("CLAUDE_CODE_USE_BEDROCK", "1")]),
    ("vertex", &[("CLAUDE_CODE_USE_VERTEX", "1")]),
    ("foundry", &[("CLAUDE_CODE_USE_FOUNDRY", "1")]),
    (
        "kill-switch",
        &[("CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS", "1")],
    ),
];

const MODES: [(&str, &str); 3] = [("tst", "true"), ("standard", "false"), ("auto", "auto")];

/// (api of the case, --format, --strategy).
const SHAPES: [(&str, &str, &str); 7] = [
    ("anthropic", "anthropic", "discovered"),
    ("anthropic", "anthropic", "all-deferred"),
    ("anthropic", "anthropic", "server-bm25"),
    ("anthropic", "anthropic", "server-regex"),
    ("openai-chat", "openai", "discovered"),
    ("openai-responses", "openai-responses", "discovered"),
    ("openai-responses", "openai-responses", "server"),
];

/// One render of the matrix: the CLI's arguments and environment, and what its request is.
struct Render {
    args: Vec<String>,
    env: Vec<(&'static str, &'static str)>,
    api: &'static str,
    name: String,
    strict_rules: Value,
}

/// Runs every render, as many processes at a time as the machine has cores (and no fewer than
/// two: each process also waits on its files); their outputs in the renders' order.
fn run_all(jobs: &[Render]) -> Vec<Output> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
    toolreg_tests::in_order(&mut vec![(); workers], jobs, |(), job| {
        toolreg()
            .envs(job.env.iter().copied())
            .args(&job.args)
            .output()
            .expect("run")
    })
}

fn run(args: &[String], env: &[(&str, &str)]) -> String {
    let mut command = toolreg();
    command.envs(env.iter().copied());
    stdout_of(command.args(args))
}

/// The conversations a request may continue, per shape: written to files in `dir`.
struct Conversations {
    anthropic: PathBuf,
    server_bm25: PathBuf,
    server_regex: PathBuf,
    chat: PathBuf,
    responses: PathBuf,
}

fn conversations(dir: &Path, catalog: &Catalog, context: &str) -> Conversations {
    let on = [("ENABLE_TOOL_SEARCH", "true")];
    let base: Vec<String> = catalog
        .args
        .iter()
        .cloned()
        .chain(["--context".into(), context.into()])
        .collect();
    let with = |rest: &[&str]| -> Vec<String> {
        base.iter()
            .cloned()
            .chain(rest.iter().map(|arg| (*arg).to_owned()))
            .collect()
    };
    let query = format!("select:{}", catalog.select);
    let user = json!({"role": "user", "content": "Do the task with the tools you find."});
    let write = |name: &str, value: Value| -> PathBuf {
        let path = dir.join(format!("{}-{context}-{name}.json", catalog.name));
        std::fs::write(&path, value.to_string()).unwrap();
        path
    };
    // Anthropic, client-side search: a real ToolSearch turn.
    let assistant = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "ToolSearch", "input": {"query": query}},
        {"type": "tool_use", "id": "toolu_2", "name": "ToolSearch",
         "input": {"query": "list", "max_results": 3}},
    ]});
    let calls = write("calls", assistant.clone());
    let results: Value =
        serde_json::from_str(&run(&with(&["turn", calls.to_str().unwrap()]), &on)).unwrap();
    let anthropic = write("anthropic", json!([user, assistant, results]));
    // Anthropic, the API's search: the blocks its response holds, passed back unchanged.
    let server = |tool: &str, input: Value| {
        json!([user, {"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": tool, "input": input},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1", "content": {
                "type": "tool_search_tool_search_result",
                "tool_references": [{"type": "tool_reference", "tool_name": catalog.found}],
            }},
            {"type": "tool_use", "id": "toolu_3", "name": catalog.found, "input": {}},
        ]}, {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_3", "content": "done"},
        ]}])
    };
    let server_bm25 = write(
        "server-bm25",
        server("tool_search_tool_bm25", json!({"query": "the task"})),
    );
    let server_regex = write(
        "server-regex",
        server("tool_search_tool_regex", json!({"pattern": "task"})),
    );
    // OpenAI: the same ToolSearch call, run by `turn` and answered as each API takes it.
    let input = json!({"query": query}).to_string();
    let turn = |format: &str, calls: Value, name: &str| -> Vec<Value> {
        let file = write(name, calls);
        serde_json::from_str(&run(
            &with(&["turn", file.to_str().unwrap(), "--format", format]),
            &on,
        ))
        .unwrap()
    };
    let assistant = json!({"role": "assistant", "content": null, "tool_calls": [{
        "id": "call_1", "type": "function",
        "function": {"name": "ToolSearch", "arguments": input},
    }]});
    let mut chat = vec![user.clone(), assistant.clone()];
    chat.extend(turn("openai", assistant, "chat-calls"));
    let chat = write("chat", Value::Array(chat));
    let search_call = json!({
        "type": "tool_search_call", "id": "ts_1", "call_id": "call_2", "execution": "client",
        "status": "completed", "arguments": {"query": query},
    });
    let mut responses = vec![user, search_call.clone()];
    responses.extend(turn(
        "openai-responses",
        json!([search_call]),
        "responses-calls",
    ));
    let responses = write("responses", Value::Array(responses));
    Conversations {
        anthropic,
        server_bm25,
        server_regex,
        chat,
        responses,
    }
}

#[test]
fn every_render_of_the_matrix_type_checks_against_the_sdks_and_keeps_the_api_rules() {
    let Some(node_modules) = sdk_check::node_modules() else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sdk-check");
    let _ = std::fs::remove_dir_all(&root);
    let cases = root.join("cases");
    let inputs = root.join("conversations");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::create_dir_all(&inputs).unwrap();
    let catalogs = [
        Catalog {
            name: "demo",
            args: Vec::new(),
            select: "mcp__chat__send_message,mcp__calendar__list_events,Read",
            found: "mcp__tracker__create_issue",
        },
        // With tools callable from code (`allowed_callers`): a built-in and a server's tools.
        Catalog {
            name: "fixtures",
            args: every_fixture()
                .into_iter()
                .chain(
                    [
                        "--callable-from-code",
                        "Read",
                        "--callable-from-code",
                        "mcp__git",
                    ]
                    .map(String::from),
                )
                .collect(),
            select: "mcp__github__create_issue,mcp__git__git_status,Read",
            found: "mcp__memory__create_entities",
        },
    ];
    // Every render of the matrix, named; run a few at a time (each is a process of its own),
    // then checked in order.
    let mut jobs = Vec::new();
    for catalog in &catalogs {
        for context in ["main", "subagent"] {
            let talks = conversations(&inputs, catalog, context);
            for (provider, provider_env) in PROVIDERS {
                for (mode, mode_value) in MODES {
                    for (api, format, strategy) in SHAPES {
                        let anthropic = api == "anthropic";
                        if !anthropic && !matches!(provider, "first-party" | "kill-switch") {
                            continue; // the provider changes only Anthropic requests
                        }
                        let server = strategy.starts_with("server-");
                        let conversation = match (api, strategy) {
                            ("anthropic", "server-bm25") => &talks.server_bm25,
                            ("anthropic", "server-regex") => &talks.server_regex,
                            ("anthropic", _) => &talks.anthropic,
                            ("openai-chat", _) => &talks.chat,
                            _ => &talks.responses,
                        };
                        // The API's own search leaves its blocks only where it was on.
                        let talk_too = !server || (mode == "tst" && provider != "kill-switch");
                        // The beta set (Anthropic), and MCP servers as namespaces (Responses).
                        let variants: &[(&str, bool)] = if anthropic && provider == "first-party" {
                            &[("current", false), ("profile", false)]
                        } else if api == "openai-responses" {
                            &[("current", false), ("current", true)]
                        } else {
                            &[("current", false)]
                        };
                        for strict in [false, true] {
                            for talk in [false, true] {
                                if talk && !talk_too {
                                    continue;
                                }
                                for &(beta, namespaces) in variants {
                                    let mut args = catalog.args.clone();
                                    args.extend(
                                        [
                                            "--context",
                                            context,
                                            "render",
                                            "--format",
                                            format,
                                            "--strategy",
                                            strategy,
                                            "--betas",
                                            beta,
                                        ]
                                        .map(str::to_owned),
                                    );
                                    if strict {
                                        args.push("--strict".into());
                                    }
                                    if namespaces {
                                        args.push("--namespaces".into());
                                    }
                                    if talk {
                                        args.push("--messages".into());
                                        args.push(conversation.to_str().unwrap().to_owned());
                                        if api == "openai-chat" {
                                            args.push("--discovered".into());
                                            args.push(catalog.select.into());
                                        }
                                    }
                                    let mut env = vec![("ENABLE_TOOL_SEARCH", mode_value)];
                                    env.extend(provider_env.iter().copied());
                                    let strict_rules = match (strict, api) {
                                        (false, _) => Value::Null,
                                        (true, "anthropic") if provider == "kill-switch" => {
                                            Value::Null
                                        }
                                        (true, "anthropic") => json!("anthropic"),
                                        (true, _) => json!("openai"),
                                    };
                                    let name = format!(
                                        "{api}/{}/{context}/{provider}/{mode}/{strategy}/{}/{}/betas-{beta}{}",
                                        catalog.name,
                                        if strict { "strict" } else { "plain" },
                                        if talk { "conversation" } else { "fresh" },
                                        if namespaces { "/namespaces" } else { "" },
                                    );
                                    jobs.push(Render {
                                        args,
                                        env,
                                        api,
                                        name,
                                        strict_rules,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let outputs = run_all(&jobs);
    let mut seen = HashSet::new();
    let mut refused = 0;
    for (job, output) in jobs.iter().zip(outputs) {
        let args = &job.args;
        if !output.status.success() {
            // The one refusal: Chat Completions past its limit.
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                job.api == "openai-chat" && stderr.contains("at most 128 tools"),
                "{args:?}: {stderr}"
            );
            refused += 1;
            continue;
        }
        let text = String::from_utf8(output.stdout).unwrap();
        if !seen.insert(text.clone()) {
            continue;
        }
        let request: Value = serde_json::from_str(&text).unwrap();
        let case = json!({
            "name": job.name,
            "api": job.api,
            "headers": request["headers"],
            "body": request["body"],
            "expect": {"strict_rules": job.strict_rules},
        });
        let file = cases.join(format!("{:05}.json", seen.len()));
        std::fs::write(file, case.to_string()).unwrap();
    }
    let renders = jobs.len();
    let stdout = sdk_check::check(
        &cases,
        &node_modules,
        &format!(
            "{renders} renders ({refused} refused: Chat Completions past 128 tools), {} distinct\n",
            seen.len()
        ),
    );
    assert!(
        refused > 0,
        "the fixtures' 154 tools with tool search off are refused on Chat"
    );
    assert!(
        stdout.contains(&format!("sdk-check: {} cases", seen.len())),
        "{stdout}"
    );
}
