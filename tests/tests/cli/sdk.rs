//! Every request `toolreg render` makes, checked against the official SDK types and the API
//! rules the types cannot say, by `tests/sdk-check/check.mjs` (tsc --strict, `satisfies` on
//! each body; see its header). The matrix: format × strategy × strict × tool-search mode ×
//! provider (first-party, Bedrock, Vertex, Foundry, kill switch) × catalog (the demo, the 11
//! captured MCP servers) × agent context × conversation (none, or one that loaded tools with a
//! real ToolSearch call) × beta set × MCP servers as namespaces (Responses). Identical requests
//! are checked once.
//!
//! The SDKs come from `tests/sdk-check/install.sh` (npm, pinned, into `target/sdk-check`); the
//! test runs it when they are missing and `TOOLREG_SLOW_TESTS` is set. When they are not
//! installed it skips, saying why,
//! unless `TOOLREG_REQUIRE_SDK_CHECK` is set (CI sets it).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use super::*;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The SDKs' node_modules, installing them when missing; `None` (after saying why) when they
/// cannot be installed and the check is not required.
fn sdk_node_modules() -> Option<PathBuf> {
    let node_modules = workspace().join("target/sdk-check/node/node_modules");
    if !node_modules.join(".bin/tsc").exists() {
        let script = workspace().join("tests/sdk-check/install.sh");
        let install = std::env::var_os("TOOLREG_REQUIRE_SDK_CHECK").is_some()
            || toolreg_tests::slow_tests("installing the SDK type check (npm)");
        let status = if install {
            Process::new("bash").arg(&script).status()
        } else {
            Err(std::io::Error::other(
                "not installed outside the slow suites",
            ))
        };
        if !status.is_ok_and(|status| status.success()) || !node_modules.join(".bin/tsc").exists() {
            let reason = format!(
                "the SDK type check could not be installed ({})",
                script.display()
            );
            assert!(
                std::env::var_os("TOOLREG_REQUIRE_SDK_CHECK").is_none(),
                "{reason}"
            );
            eprintln!("skipped: {reason}");
            return None;
        }
    }
    Some(node_modules)
}

/// Runs `check.mjs` over the cases in `cases`, which must pass; its stdout. `heading` is printed
/// before what it says.
fn check(cases: &Path, node_modules: &Path, heading: &str) -> String {
    let output = Process::new("node")
        .arg(workspace().join("tests/sdk-check/check.mjs"))
        .arg(cases)
        .env("SDK_CHECK_NODE_MODULES", node_modules)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    eprintln!(
        "{heading}{}{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "the SDK check failed:\n{stdout}");
    stdout
}

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
    let Some(node_modules) = sdk_node_modules() else {
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
        Catalog {
            name: "fixtures",
            args: every_fixture(),
            select: "mcp__github__create_issue,mcp__git__git_status,Read",
            found: "mcp__memory__create_entities",
        },
    ];
    let mut seen = HashSet::new();
    let mut renders = 0;
    let mut refused = 0;
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
                                    let mut command = toolreg();
                                    let output =
                                        command.envs(env).args(&args).output().expect("run");
                                    renders += 1;
                                    if !output.status.success() {
                                        // The one refusal: Chat Completions past its limit.
                                        let stderr = String::from_utf8_lossy(&output.stderr);
                                        assert!(
                                            api == "openai-chat"
                                                && stderr.contains("at most 128 tools"),
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
                                    let case = json!({
                                        "name": name,
                                        "api": api,
                                        "headers": request["headers"],
                                        "body": request["body"],
                                        "expect": {"strict_rules": strict_rules},
                                    });
                                    let file = cases.join(format!("{:05}.json", seen.len()));
                                    std::fs::write(file, case.to_string()).unwrap();
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let stdout = check(
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

/// The recorded responses of each API (`tests/data/responses`), as sent and as assembled from
/// their streams, checked as the SDKs' response types; and the conversations toolreg builds on
/// them — the assistant message kept, the calls run by real tools and answered — checked as
/// the next request, with the rules the types cannot say (every call answered once, in order,
/// by id). With tool changes, a server that connects between two requests enters as
/// `tool_addition` blocks, checked with the beta request type.
#[test]
fn every_recorded_response_and_every_conversation_built_on_it_type_checks() {
    use toolreg::conversation::Conversation;
    use toolreg::wire::anthropic::{DeferStrategy, ServerSearch};
    use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
    use toolreg::wire::{Api, StreamAssembler};
    use toolreg::{Dispatcher, Env, PermissionContext, RenderOptions, TurnOptions};

    let Some(node_modules) = sdk_node_modules() else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sdk-check-conversations");
    let _ = std::fs::remove_dir_all(&root);
    let cases = root.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::write(
        project.path().join("Cargo.toml"),
        "[package]\nname = \"demo\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(project.path().join("src")).unwrap();
    std::fs::write(project.path().join("src/main.rs"), "fn main() {}\n").unwrap();

    let servers: Vec<(String, Value)> = ["git", "github", "memory"]
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(fixture(name)).unwrap();
            ((*name).to_owned(), serde_json::from_str(&text).unwrap())
        })
        .collect();
    let pool_of = |count: usize| {
        let loaded = toolreg::mcp::load_servers(
            servers
                .iter()
                .take(count)
                .map(|(name, list)| (name.as_str(), list)),
        );
        let catalog = toolreg_tools::catalog().unwrap();
        toolreg::assemble_tool_pool(
            &Env::default(),
            &PermissionContext::new(),
            &catalog,
            &loaded.tools,
        )
    };
    let mut written = 0;
    let mut write = |name: &str, api: &str, headers: Value, body: Value| {
        let case = json!({"name": name, "api": api, "headers": headers, "body": body});
        std::fs::write(cases.join(format!("{written:03}.json")), case.to_string()).unwrap();
        written += 1;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let data = workspace().join("tests/data/responses");
    for (api, name, response_api, request_api) in [
        (
            Api::Anthropic,
            "anthropic",
            "anthropic-response",
            "anthropic",
        ),
        (
            Api::ChatCompletions,
            "chat",
            "openai-chat-response",
            "openai-chat",
        ),
        (
            Api::Responses,
            "responses",
            "openai-responses-response",
            "openai-responses",
        ),
    ] {
        let recorded: Value = serde_json::from_str(
            &std::fs::read_to_string(data.join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        let mut stream = StreamAssembler::new(api);
        stream
            .push(
                std::fs::read_to_string(data.join(format!("{name}.sse")))
                    .unwrap()
                    .as_bytes(),
            )
            .unwrap();
        write(
            &format!("{name}/recorded"),
            response_api,
            json!({}),
            recorded.clone(),
        );
        write(
            &format!("{name}/assembled"),
            response_api,
            json!({}),
            stream.finish().unwrap(),
        );

        for tool_changes in [false, true] {
            if tool_changes && api != Api::Anthropic {
                continue;
            }
            let mut conversation = match api {
                Api::Anthropic => Conversation::anthropic(RenderOptions {
                    tool_search: true,
                    strategy: DeferStrategy::Server(ServerSearch::Bm25),
                    ..Default::default()
                })
                .with_tool_changes(tool_changes),
                _ => Conversation::openai(OpenAiOptions {
                    format: if api == Api::Responses {
                        OpenAiFormat::Responses
                    } else {
                        OpenAiFormat::ChatCompletions
                    },
                    tool_search: OpenAiToolSearch::Client,
                    ..Default::default()
                }),
            };
            let request_api = if tool_changes {
                "anthropic-beta"
            } else {
                request_api
            };
            let label = if tool_changes {
                format!("{name}/tool-changes")
            } else {
                name.to_owned()
            };
            let mut send = |step: &str, request: toolreg::conversation::Request| {
                let mut body = Value::Object(request.body);
                body["model"] = json!(if api == Api::Anthropic {
                    "claude-sonnet-4-5"
                } else {
                    "gpt-5.4"
                });
                if api == Api::Anthropic {
                    body["max_tokens"] = json!(1024);
                }
                let headers: serde_json::Map<String, Value> = request
                    .headers
                    .into_iter()
                    .map(|(k, v)| (k, Value::String(v)))
                    .collect();
                write(
                    &format!("{label}/{step}"),
                    request_api,
                    Value::Object(headers),
                    body,
                );
            };
            let pool = pool_of(2);
            conversation.push_user("List the Rust files and read Cargo.toml.");
            send(
                "first",
                conversation.request(&Env::default(), &pool).unwrap(),
            );
            let response = conversation.receive(&recorded).unwrap();
            let dispatcher = Dispatcher::new(
                Env::default(),
                PermissionContext::new(),
                pool.clone(),
                project.path(),
            )
            .with_state(toolreg_tools::default_state());
            let turn =
                runtime.block_on(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
            assert!(
                turn.results.iter().all(|result| !result.is_error()),
                "{name}: {:?}",
                turn.results
            );
            conversation.answer(&response, &turn, &pool).unwrap();
            // A third server connects before the next request.
            let pool = pool_of(3);
            send(
                "second",
                conversation.request(&Env::default(), &pool).unwrap(),
            );
        }
    }
    let stdout = check(&cases, &node_modules, "");
    assert!(
        stdout.contains(&format!("sdk-check: {written} cases")),
        "{stdout}"
    );
    assert!(stdout.contains("2 anthropic beta"), "{stdout}");
}
