//! The conversations the library builds, checked against the official SDK types by
//! `tests/sdk-check/check.mjs` (see `toolreg_tests::sdk_check`): the recorded responses of each
//! API, and the next request after their calls ran through real tools. (Every request of the
//! `toolreg` command line's render matrix is checked by the CLI's own tests,
//! `cli/tests/sdk.rs`.)

use std::path::PathBuf;

use serde_json::{Value, json};
use toolreg_tests::sdk_check;

use crate::common;

/// The recorded responses of each API (`tests/data/responses`), as sent and as assembled from
/// their streams, checked as the SDKs' response types; and the conversations toolreg builds on
/// them — the assistant message kept, the calls run by real tools and answered — checked as
/// the next request, with the rules the types cannot say (every call answered once, in order,
/// by id). With tool changes, a server that connects between two requests enters as
/// `tool_addition` blocks, checked with the beta request type. A response whose script, run by
/// the code execution tool, calls tools callable from code is answered the same way, and the
/// next request names its container.
#[test]
fn every_recorded_response_and_every_conversation_built_on_it_type_checks() {
    use toolreg::conversation::Conversation;
    use toolreg::wire::anthropic::{DeferStrategy, ServerSearch};
    use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
    use toolreg::wire::{Api, StreamAssembler};
    use toolreg::{Dispatcher, Env, PermissionContext, RenderOptions, TurnOptions};

    let Some(node_modules) = sdk_check::node_modules() else {
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
            let path = common::fixtures_dir().join(format!("{name}.json"));
            let text = std::fs::read_to_string(path).unwrap();
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
    let data = toolreg_tests::workspace().join("tests/data/responses");
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
    // Tools called from code: the recorded response whose script calls Glob and Read, its
    // calls run with both tools callable from code, and the requests around it (the tools'
    // `allowed_callers`; then the container named and the script's blocks sent back).
    let recorded: Value = serde_json::from_str(
        &std::fs::read_to_string(data.join("anthropic-code-execution.json")).unwrap(),
    )
    .unwrap();
    write(
        "anthropic/code-execution/recorded",
        "anthropic-response",
        json!({}),
        recorded.clone(),
    );
    let mut env = Env::default();
    for tool in ["Read", "Glob"] {
        env.callers
            .allow(tool, toolreg::tool::AllowedCallers::DIRECT_AND_CODE)
            .unwrap();
    }
    let pool = toolreg::assemble_tool_pool(
        &env,
        &PermissionContext::new(),
        &toolreg_tools::catalog().unwrap(),
        &[],
    );
    let mut conversation = Conversation::anthropic(RenderOptions::default());
    conversation.push_user("Count the Rust files and read the manifest's first lines.");
    let mut send = |step: &str, request: toolreg::conversation::Request| {
        let mut body = Value::Object(request.body);
        body["model"] = json!("claude-sonnet-4-5");
        body["max_tokens"] = json!(1024);
        write(
            &format!("anthropic/code-execution/{step}"),
            "anthropic",
            json!({}),
            body,
        );
    };
    send("first", conversation.request(&env, &pool).unwrap());
    let response = conversation.receive(&recorded).unwrap();
    let dispatcher = Dispatcher::new(
        env.clone(),
        PermissionContext::new(),
        pool.clone(),
        project.path(),
    );
    let turn = runtime.block_on(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
    assert!(
        turn.results.iter().all(|result| !result.is_error()),
        "{:?}",
        turn.results
    );
    conversation.answer(&response, &turn, &pool).unwrap();
    let next = conversation.request(&env, &pool).unwrap();
    assert_eq!(next.body["container"], recorded["container"]["id"]);
    send("second", next);
    let stdout = sdk_check::check(&cases, &node_modules, "");
    assert!(
        stdout.contains(&format!("sdk-check: {written} cases")),
        "{stdout}"
    );
    assert!(stdout.contains("2 anthropic beta"), "{stdout}");
}
