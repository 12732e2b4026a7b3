//! The command line and the library make the same next request: `toolreg render --messages`
//! on a conversation's history prints what the library's `Conversation` sends next, for each
//! API, over the recorded responses of `tests/data/responses`, a turn that loaded MCP tools
//! through ToolSearch, and a pool one of whose servers has since left.

use super::*;

use toolreg::conversation::{Conversation, Request};
use toolreg::env::{AgentKind, Betas};
use toolreg::mcp::load_servers;
use toolreg::pool::filter_tools_for_agent;
use toolreg::wire::anthropic::{CacheSettings, DeferStrategy, REFS_REMOVED_GONE};
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions, OpenAiToolSearch};
use toolreg::{Dispatcher, Env, Pool, RenderOptions, TurnOptions, assemble_tool_pool};
use toolreg_tools::profile;

/// The servers of the conversation; `github` leaves before the last request.
const SERVERS: [&str; 3] = ["git", "github", "memory"];
const LEAVES: &str = "github";
/// What the second turn's ToolSearch loads: one tool of the server that leaves, one that stays.
const SELECTED: &str = "select:mcp__github__list_issues,mcp__git__git_status";

/// The environment `toolreg()` gives the binary, read as the binary reads it.
fn env() -> Env {
    profile::env_from_lookup(toolreg_tools::features(), |name| {
        let steering = name.starts_with("CLAUDE_CODE_")
            || [
                "ENABLE_TOOL_SEARCH",
                "ENABLE_LSP_TOOL",
                "ANTHROPIC_BASE_URL",
            ]
            .contains(&name);
        if steering {
            None
        } else {
            std::env::var(name).ok()
        }
    })
}

/// The pool `toolreg --no-demo --mcp …` builds from `servers`.
fn pool(env: &Env, servers: &[&str]) -> Pool {
    let lists: Vec<(&str, Value)> = (servers.iter())
        .map(|server| {
            let text = std::fs::read_to_string(fixture(server)).unwrap();
            (*server, serde_json::from_str(&text).unwrap())
        })
        .collect();
    let loaded = load_servers(lists.iter().map(|(server, list)| (*server, list)));
    let catalog = toolreg_tools::catalog().unwrap();
    let rules = profile::permissions_from_env();
    let assembled = assemble_tool_pool(env, &rules, &catalog, &loaded.tools);
    filter_tools_for_agent(&assembled, AgentKind::Main, env)
}

/// The `--mcp` options of `servers`.
fn mcp_options(servers: &[&str]) -> Vec<String> {
    (servers.iter())
        .flat_map(|server| ["--mcp".to_owned(), mcp_option(server, &fixture(server))])
        .collect()
}

/// A library conversation with the options `toolreg render` uses by default for `format`.
fn conversation(env: &Env, format: &str) -> Conversation {
    let openai = |format| {
        Conversation::openai(OpenAiOptions {
            format,
            tool_search: OpenAiToolSearch::Client,
            ..OpenAiOptions::default()
        })
    };
    match format {
        "anthropic" => Conversation::anthropic(RenderOptions {
            tool_search: true,
            strategy: DeferStrategy::DiscoveredOnly,
            settings: CacheSettings {
                first_party: env.tool_search.provider.is_first_party(),
                ..CacheSettings::default()
            },
            // `--betas current`.
            betas: Some(Betas::CURRENT),
            ..RenderOptions::default()
        }),
        "openai" => openai(OpenAiFormat::ChatCompletions),
        _ => openai(OpenAiFormat::Responses),
    }
}

/// The model's second reply, in `format`'s shape: ToolSearch with [`SELECTED`].
fn search_reply(format: &str) -> Value {
    match format {
        "anthropic" => json!({"role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": "toolu_search", "name": "ToolSearch",
             "input": {"query": SELECTED}}]}),
        "openai" => json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null, "tool_calls": [{"id": "call_search",
            "type": "function", "function": {"name": "ToolSearch",
            "arguments": json!({"query": SELECTED}).to_string()}}]}}]}),
        _ => json!({"status": "completed", "output": [{"type": "tool_search_call",
            "id": "tsc_search", "call_id": "call_search", "execution": "client",
            "arguments": {"query": SELECTED}, "status": "completed"}]}),
    }
}

/// Runs `reply`'s calls in `project` and keeps the answers in the conversation.
fn run(conversation: &mut Conversation, reply: &Value, env: &Env, pool: &Pool, project: &Path) {
    let response = conversation.receive(reply).unwrap();
    assert!(!response.calls.is_empty(), "{reply}");
    let dispatcher = Dispatcher::new(
        env.clone(),
        profile::permissions_from_env(),
        pool.clone(),
        project,
    )
    .with_state(toolreg_tools::default_state());
    let turn = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(dispatcher.run_turn(&response.calls, &TurnOptions::default()));
    conversation.answer(&response, &turn, pool).unwrap();
}

/// What `toolreg render` prints for the conversation's history, as the library's parts: the
/// body without the model's fields, and the headers.
fn rendered_by_the_cli(
    conversation: &Conversation,
    format: &str,
    servers: &[&str],
    dir: &Path,
) -> Request {
    let history = dir.join(format!("{format}-history.json"));
    std::fs::write(
        &history,
        Value::from(conversation.history().to_vec()).to_string(),
    )
    .unwrap();
    let discovered: Vec<String> = conversation.discovered().into_iter().collect();
    let mut command = toolreg();
    command
        .arg("--no-demo")
        .args(mcp_options(servers))
        .args(["render", "--format", format, "--messages"])
        .arg(&history)
        .arg(format!("--discovered={}", discovered.join(",")));
    let printed = json_of(&mut command);
    let Value::Object(mut body) = printed["body"].clone() else {
        panic!("no body: {printed}");
    };
    body.remove("model");
    body.remove("max_tokens");
    let headers = (printed["headers"].as_object().unwrap().iter())
        .map(|(name, value)| (name.clone(), value.as_str().unwrap().to_owned()))
        .collect();
    Request { body, headers }
}

#[test]
fn the_cli_and_the_library_make_the_same_next_request_after_a_server_left() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("Cargo.toml"), "[package]\nname = \"demo\"\n").unwrap();
    std::fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    let env = env();
    let all = pool(&env, &SERVERS);
    let staying: Vec<&str> = SERVERS.into_iter().filter(|s| *s != LEAVES).collect();
    let after = pool(&env, &staying);
    let responses = workspace().join("tests/data/responses");
    for (format, recorded) in [
        ("anthropic", "anthropic"),
        ("openai", "chat"),
        ("openai-responses", "responses"),
    ] {
        let mut conversation = conversation(&env, format);
        conversation.push_user("List the Rust files and read Cargo.toml.");
        let recorded: Value = serde_json::from_str(
            &std::fs::read_to_string(responses.join(format!("{recorded}.json"))).unwrap(),
        )
        .unwrap();
        run(&mut conversation, &recorded, &env, &all, &project);
        run(
            &mut conversation,
            &search_reply(format),
            &env,
            &all,
            &project,
        );
        assert!(
            conversation
                .discovered()
                .contains("mcp__github__list_issues"),
            "{format}: {:?}",
            conversation.discovered()
        );

        let library = conversation.request(&env, &after).unwrap();
        let cli = rendered_by_the_cli(&conversation, format, &staying, dir.path());
        assert_eq!(cli, library, "{format}");

        // The request carries no tool of the server that left, and the tool that stayed is
        // loaded.
        let sent = Value::Object(library.body).to_string();
        assert!(
            !sent.contains(r#""name":"mcp__github__"#),
            "{format}: {sent}"
        );
        assert!(sent.contains("mcp__git__git_status"), "{format}");
        if format == "anthropic" {
            assert!(sent.contains(REFS_REMOVED_GONE), "{format}: {sent}");
        }
    }
}
