//! Security invariants, as property tests over random pools, rules and agent contexts.
//!
//! A tool denied as a whole, or outside the agent's context, is never in the pool, never
//! returned by ToolSearch (any query: keywords, `select:`, exact names, `mcp__` prefixes), never
//! rendered, never announced as deferred, and never dispatched. A path rule is never passed by
//! another spelling of a path. What "denied as a whole" means is computed here from the raw
//! inputs, independently of the registry's own matching.
//!
//! Cases: `PROPTEST_CASES` (CI runs the default of 64; `PROPTEST_CASES=10000` locally).

use crate::common;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolreg_tools::profile::{self, switch};

use proptest::prelude::*;
use serde_json::{Value, json};
use toolreg::dispatch::{McpCall, McpCaller};
use toolreg::env::AgentKind;
use toolreg::mcp::{load_servers, normalize_name_for_mcp};
use toolreg::permissions::{RuleTarget, RuleValue, Subject, Verdict};
use toolreg::pool::filter_tools_for_agent;
use toolreg::pool::is_allowed_for_agent;
use toolreg::tool::BoxFuture;
use toolreg::wire::anthropic::DeferStrategy;
use toolreg::wire::openai::{OpenAiFormat, OpenAiOptions};
use toolreg::{
    Behavior, Dispatcher, PermissionContext, RenderOptions, RuleSource, SchemaCache, SearchEngine,
    Strategy as SearchStrategy, ToolCall, ToolError, ToolInfo, ToolOutput, assemble_tool_pool,
};

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64)
}

/// Server names that clash after normalization, or hold `__`.
const SERVERS: [&str; 6] = ["s", "s.", "s_", "a__b", "ünï", "srv"];

/// Tool names that clash after normalization, are long, unicode or hold control characters.
fn raw_tool_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("delete_all".to_owned()),
        Just("delete.all".to_owned()),
        Just("delete all".to_owned()),
        Just("list".to_owned()),
        Just("subscribe_pr_activity".to_owned()),
        "[a-z_.]{1,12}",
        "[a-z]{65,80}",
        "\\PC{1,10}",
        "[a-z]{1,4}[\u{0}-\u{1f}][a-z]{1,4}",
    ]
}

/// An MCP tool entry: server index, raw name, description, deferral-relevant `_meta`.
fn mcp_entry() -> impl Strategy<Value = (usize, String, String, bool)> {
    (
        0..SERVERS.len(),
        raw_tool_name(),
        "[a-z ]{0,30}",
        any::<bool>(),
    )
}

/// A rule string: names of built-ins (current, legacy, aliases), MCP permission names and
/// server rules, with or without content, or garbage.
fn rule_text(entries: Vec<(usize, String, String, bool)>) -> impl Strategy<Value = String> {
    let builtins: Vec<String> = common::catalog()
        .tools()
        .iter()
        .map(|tool| tool.name.to_owned())
        .chain(["Task", "KillShell", "AgentOutputTool"].map(str::to_owned))
        .collect();
    let mcp: Vec<String> = entries
        .iter()
        .map(|(server, tool, _, _)| {
            format!(
                "mcp__{}__{}",
                normalize_name_for_mcp(SERVERS[*server]),
                normalize_name_for_mcp(tool)
            )
        })
        .chain(SERVERS.iter().flat_map(|server| {
            let server = normalize_name_for_mcp(server);
            [format!("mcp__{server}"), format!("mcp__{server}__*")]
        }))
        .chain(["mcp__*".to_owned()])
        .collect();
    let name = prop_oneof![
        proptest::sample::select(builtins),
        proptest::sample::select(mcp),
        "[A-Za-z_]{1,10}",
    ];
    (name, 0..5u8).prop_map(|(name, content)| match content {
        0 | 1 => name,
        2 => format!("{name}()"),
        3 => format!("{name}(*)"),
        _ => format!("{name}(rm:*)"),
    })
}

fn behavior() -> impl Strategy<Value = Behavior> {
    prop_oneof![
        Just(Behavior::Deny),
        Just(Behavior::Allow),
        Just(Behavior::Ask)
    ]
}

fn source() -> impl Strategy<Value = RuleSource> {
    proptest::sample::select(RuleSource::ALL.to_vec())
}

fn kind() -> impl Strategy<Value = AgentKind> {
    proptest::sample::select(AgentKind::ALL.to_vec())
}

/// What the rules deny as a whole, from the rule strings alone: the permission identity
/// (`mcp__<normalized server>__<normalized raw tool>` for MCP tools, the name otherwise), or an
/// MCP server rule `mcp__<server>` / `mcp__<server>__*` whose server holds no `__`.
fn oracle_denied(rules: &[(Behavior, String)], identity: &str, server: Option<&str>) -> bool {
    rules.iter().any(|(behavior, text)| {
        let rule = RuleValue::parse(text);
        if *behavior != Behavior::Deny || rule.content.is_some() {
            return false;
        }
        if rule.tool == identity {
            return true;
        }
        let Some(server) = server else { return false };
        let Some(rest) = rule.tool.strip_prefix("mcp__") else {
            return false;
        };
        let named = rest.strip_suffix("__*").unwrap_or(rest);
        !named.contains("__") && !named.is_empty() && named == server
    })
}

/// Records every MCP call that reaches the host.
struct Recorder(AtomicUsize);

impl McpCaller for Recorder {
    fn call_tool<'a>(&'a self, _: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(std::future::ready(Ok(ToolOutput::Text("called".into()))))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn denied_or_out_of_context_tools_are_never_listed_found_rendered_or_dispatched(
        (entries, rules) in proptest::collection::vec(mcp_entry(), 0..12).prop_flat_map(|entries| {
            let rules = proptest::collection::vec((behavior(), source(), rule_text(entries.clone())), 0..8);
            (Just(entries), rules)
        }),
        kind in kind(),
        tool_search in proptest::sample::select(vec![None, Some("true"), Some("false"), Some("auto:0")]),
        queries in proptest::collection::vec("[a-z_ +:,]{0,20}", 0..4),
    ) {
        let mut env = common::env();
        env.tool_search.mode = tool_search.map(profile::parse_tool_search_mode);
        env.switches.set(switch::COORDINATOR, kind == AgentKind::Coordinator);
        let mut permissions = profile::permissions();
        for (behavior, source, text) in &rules {
            permissions.add(*behavior, *source, text);
        }
        let plain_rules: Vec<(Behavior, String)> =
            rules.iter().map(|(b, _, text)| (*b, text.clone())).collect();

        let mut per_server: Vec<Vec<Value>> = vec![Vec::new(); SERVERS.len()];
        for (server, name, description, always_load) in &entries {
            per_server[*server].push(json!({
                "name": name,
                "description": description,
                "inputSchema": {"type": "object"},
                "_meta": {"anthropic/alwaysLoad": always_load},
            }));
        }
        let results: Vec<(String, Value)> = per_server
            .into_iter()
            .enumerate()
            .map(|(i, tools)| (SERVERS[i].to_owned(), Value::Array(tools)))
            .collect();
        let loaded = load_servers(results.iter().map(|(s, v)| (s.as_str(), v)));
        let catalog = common::catalog();
        let pool = filter_tools_for_agent(&assemble_tool_pool(&env, &permissions, &catalog, &loaded.tools), kind, &env);

        // Everything that could have been in the pool, with whether it must stay out.
        let all = assemble_tool_pool(&common::env(), &profile::permissions(), &catalog, &loaded.tools);
        let forbidden: Vec<&Arc<ToolInfo>> = all
            .iter()
            .filter(|tool| {
                let server = tool.mcp().map(|mcp| normalize_name_for_mcp(&mcp.server));
                let identity = match tool.mcp() {
                    Some(mcp) => format!("mcp__{}__{}", normalize_name_for_mcp(&mcp.server), normalize_name_for_mcp(&mcp.tool)),
                    None => tool.name.clone(),
                };
                oracle_denied(&plain_rules, &identity, server.as_deref())
                    || !is_allowed_for_agent(tool, kind, &env)
            })
            .collect();
        let forbidden_names: HashSet<&str> = forbidden.iter().map(|tool| tool.name.as_str()).collect();
        let pool_names: HashSet<&str> = pool.iter().map(|tool| tool.name.as_str()).collect();

        // Listed.
        for name in &forbidden_names {
            prop_assert!(!pool_names.contains(name), "{name} is in the pool");
        }

        // Found.
        let mut all_queries = queries.clone();
        for tool in &forbidden {
            all_queries.push(tool.name.clone());
            all_queries.push(tool.name.to_lowercase());
            all_queries.push(format!("select:{}", tool.name));
            all_queries.push(tool.permission_name().to_owned());
            all_queries.extend(tool.aliases.iter().cloned());
            if let Some(prefix) = tool.name.get(..tool.name.len().min(9)) {
                all_queries.push(prefix.to_owned());
            }
        }
        let every: Vec<&str> = all.iter().map(|tool| tool.name.as_str()).collect();
        all_queries.push(format!("select:{}", every.join(",")));
        for strategy in [SearchStrategy::Keyword, SearchStrategy::Bm25f] {
            let engine = SearchEngine::new(pool.to_vec(), strategy);
            for query in &all_queries {
                for found in engine.search(query, 10).matches {
                    prop_assert!(!forbidden_names.contains(found.as_str()), "{query:?} found {found}");
                    prop_assert!(pool_names.contains(found.as_str()));
                }
            }
        }

        // Rendered or announced.
        for strategy in [DeferStrategy::DiscoveredOnly, DeferStrategy::AllDeferred] {
            let options = RenderOptions {
                tool_search: true,
                strategy,
                discovered: every.iter().map(|name| (*name).to_owned()).collect(),
                ..Default::default()
            };
            let rendered = toolreg::render_anthropic(&env, &pool, &SchemaCache::new(), &options).unwrap();
            let tools: Vec<Value> = rendered.tools.to_value().unwrap().as_array().unwrap().clone();
            for tool in &tools {
                let name = tool["name"].as_str().unwrap();
                prop_assert!(!forbidden_names.contains(name), "{name} rendered");
            }
            let announced = rendered.deferred_tools_message.unwrap_or_default();
            for line in announced.lines() {
                prop_assert!(!forbidden_names.contains(line), "{line} announced");
            }
        }
        for format in [OpenAiFormat::ChatCompletions, OpenAiFormat::Responses] {
            let tools: Vec<Value> = toolreg::render_openai(&pool, &OpenAiOptions { format, strict: false, ..Default::default() }).unwrap().tools.to_value().unwrap().as_array().unwrap().clone();
            for tool in &tools {
                let name = tool.get("name").or_else(|| tool.pointer("/function/name")).and_then(Value::as_str).unwrap();
                prop_assert!(!forbidden_names.contains(name), "{name} rendered for OpenAI");
            }
        }

        // Dispatched: by name and by alias; `{}` is not valid input for most built-ins, so a
        // tool that were found would fail validation instead of running.
        let recorder = Arc::new(Recorder(AtomicUsize::new(0)));
        let dispatcher = Dispatcher::new(env.clone(), permissions, pool.clone(), "/nonexistent")
            .with_mcp(recorder.clone());
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        for tool in &forbidden {
            for name in std::iter::once(&tool.name).chain(&tool.aliases) {
                if pool_names.contains(name.as_str()) || pool.iter().any(|t| t.answers_to(name)) {
                    // An alias another allowed tool also answers to is that tool's.
                    continue;
                }
                let result = runtime.block_on(dispatcher.dispatch(&ToolCall::new("toolu", name, json!({}))));
                prop_assert!(!result.called(), "{name} was called");
                prop_assert!(result.is_error());
            }
        }
        prop_assert_eq!(recorder.0.load(Ordering::SeqCst), 0);
    }
}

/// A tree: `root/{secret/{key,deep/file},pub/{a,sub/b}}`, links `pub/to_secret -> ../secret`
/// and `pub/key_link -> ../secret/key`.
fn tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap();
    for d in ["secret/deep", "pub/sub"] {
        fs::create_dir_all(root.join(d)).unwrap();
    }
    for f in ["secret/key", "secret/deep/file", "pub/a", "pub/sub/b"] {
        fs::write(root.join(f), f).unwrap();
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../secret", root.join("pub/to_secret")).unwrap();
        std::os::unix::fs::symlink("../secret/key", root.join("pub/key_link")).unwrap();
    }
    (dir, root)
}

/// Real directories of the tree, to detour through with `dir/..`.
const DIRS: [&str; 4] = ["secret", "secret/deep", "pub", "pub/sub"];

/// The files, whether each is under `secret/`, and the spellings a link gives them.
const TARGETS: [(&str, bool, &[&str]); 4] = [
    ("secret/key", true, &["pub/to_secret/key", "pub/key_link"]),
    ("secret/deep/file", true, &["pub/to_secret/deep/file"]),
    ("pub/a", false, &[]),
    ("pub/sub/b", false, &[]),
];

/// One spelling of `path` (relative to the root): a detour `dir/..` at the start, `.`
/// components, doubled slashes, and written relative to a working directory (`../` up to the
/// root) or absolutely.
fn spell(
    path: &str,
    edits: &[(u8, usize)],
    cwd: usize,
    absolute: bool,
    root: &Path,
) -> (String, PathBuf) {
    let mut parts: Vec<String> = path.split('/').map(str::to_owned).collect();
    for &(edit, at) in edits {
        let at = at % (parts.len());
        match edit % 3 {
            0 => {
                // Detour through a real directory from the root: `dir/../..` back up.
                let dir = DIRS[at % DIRS.len()];
                let back = dir.split('/').map(|_| "..").collect::<Vec<_>>().join("/");
                parts.insert(0, format!("{dir}/{back}"));
            }
            1 => parts.insert(at, ".".to_owned()),
            // A doubled slash after a directory component (never after the file itself).
            _ if at + 1 < parts.len() => parts[at] = format!("{}/", parts[at]),
            _ => {}
        }
    }
    let relative = parts.join("/");
    let cwd_dir = DIRS[cwd % DIRS.len()];
    if absolute {
        return (format!("{}/{relative}", root.display()), root.join(cwd_dir));
    }
    let up = cwd_dir
        .split('/')
        .map(|_| "..")
        .collect::<Vec<_>>()
        .join("/");
    (format!("{up}/{relative}"), root.join(cwd_dir))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn path_rule_is_never_passed_by_another_spelling(
        target in 0..TARGETS.len(),
        via_link in any::<bool>(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>()), 0..5),
        cwd in 0..DIRS.len(),
        absolute in any::<bool>(),
        pattern in proptest::sample::select(vec!["./secret/**", "secret", "/secret/**", "secret/", "**/key", "secret/**"]),
    ) {
        let (_dir, root) = tree();
        let (path, under_secret, links) = TARGETS[target];
        let path = match links.first() {
            Some(link) if via_link && cfg!(unix) => *link,
            _ => path,
        };
        let (spelled, cwd) = spell(path, &edits, cwd, absolute, &root);
        let mut ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::Project, &format!("Read({pattern})"));
        ctx.set_project_root(&root);
        let verdict = ctx.check(RuleTarget::named("Read"), Some(&Subject::read(&spelled)), &cwd);
        let names_key = pattern == "**/key";
        let should_deny = if names_key { TARGETS[target].0 == "secret/key" } else { under_secret };
        prop_assert_eq!(
            matches!(verdict, Verdict::Deny(_)),
            should_deny,
            "{} (from {}) against Read({}): {:?}", spelled, cwd.display(), pattern, verdict
        );
    }
}
