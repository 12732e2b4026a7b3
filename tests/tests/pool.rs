//! `docs/design.md` §2, §3, §5, §7 against the real built-in catalog and the MCP fixtures.

use crate::common;

use std::sync::Arc;

use common::{catalog, env, fixtures, load, names};
use toolreg::env::AgentKind;
use toolreg::env::ToolSearchMode;
use toolreg::pool::{base_tools, filter_tools_for_agent, merge_and_filter_tools, offered_builtins};
use toolreg::tool::compare_names;
use toolreg::wire::anthropic::DeferStrategy;
use toolreg::{
    Behavior, Env, PermissionContext, Pool, RenderOptions, RuleSource, SchemaCache, ToolInfo,
    assemble_tool_pool, render_anthropic,
};
use toolreg_tools::profile::{self, feature, switch};

fn tool_names(env: &Env, rules: &PermissionContext) -> Vec<String> {
    offered_builtins(env, rules, &catalog())
        .iter()
        .map(|tool| tool.name.clone())
        .collect()
}

fn has(env: &Env, rules: &PermissionContext, name: &str) -> bool {
    tool_names(env, rules).iter().any(|tool| tool == name)
}

/// The availability matrix of `docs/design.md` §5.7, row by row: main thread, sub-agent, async
/// agent, coordinator.
#[test]
fn availability_matrix_of_design_5_7() {
    let rules = profile::permissions();
    let kinds = [
        AgentKind::Main,
        AgentKind::SubAgent,
        AgentKind::Async,
        AgentKind::Coordinator,
    ];
    for internal in [false, true] {
        let mut env = env();
        env.features.set(feature::INTERNAL_BUILD, internal);
        let pool = Pool::new(&env, offered_builtins(&env, &rules, &catalog()));
        for (tool, cells) in common::MATRIX {
            for (kind, cell) in kinds.iter().zip(cells) {
                let expected = match *cell {
                    "Yes" => true,
                    "No" => false,
                    _ => internal,
                };
                let got = filter_tools_for_agent(&pool, *kind, &env)
                    .iter()
                    .any(|t| t.name == *tool);
                assert_eq!(
                    got, expected,
                    "{tool} for {kind:?} (internal build: {internal})"
                );
            }
        }
    }
}

#[test]
fn custom_agents_lose_the_same_tools_as_sub_agents() {
    let rules = profile::permissions();
    let env = env();
    let pool = Pool::new(&env, offered_builtins(&env, &rules, &catalog()));
    assert_eq!(
        names(&filter_tools_for_agent(&pool, AgentKind::CustomAgent, &env)),
        names(&filter_tools_for_agent(&pool, AgentKind::SubAgent, &env))
    );
}

#[test]
fn in_process_teammates_add_task_tools_and_send_message_to_the_async_set() {
    let rules = profile::permissions();
    let mut env = env();
    env.switches.set(switch::TODO_V2, true);
    let pool = Pool::new(&env, offered_builtins(&env, &rules, &catalog()));
    let teammate = filter_tools_for_agent(&pool, AgentKind::InProcessTeammate, &env);
    let async_agent = filter_tools_for_agent(&pool, AgentKind::Async, &env);
    for name in [
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskUpdate",
        "SendMessage",
    ] {
        assert!(names(&teammate).contains(&name), "{name}");
        assert!(!names(&async_agent).contains(&name), "{name}");
    }
}

#[test]
fn agent_filters_keep_every_mcp_tool_but_the_coordinator_keeps_only_pr_activity() {
    let rules = profile::permissions();
    let env = env();
    let mut tools = offered_builtins(&env, &rules, &catalog());
    tools.push(Arc::new(ToolInfo::new(
        "mcp__gh__subscribe_pr_activity",
        "x",
    )));
    tools.push(Arc::new(ToolInfo::new("mcp__gh__list_issues", "x")));
    let pool = Pool::new(&env, tools);
    for kind in [
        AgentKind::SubAgent,
        AgentKind::CustomAgent,
        AgentKind::Async,
        AgentKind::InProcessTeammate,
    ] {
        let kept = filter_tools_for_agent(&pool, kind, &env);
        assert!(names(&kept).contains(&"mcp__gh__list_issues"), "{kind:?}");
    }
    let coordinator = filter_tools_for_agent(&pool, AgentKind::Coordinator, &env);
    assert!(names(&coordinator).contains(&"mcp__gh__subscribe_pr_activity"));
    assert!(!names(&coordinator).contains(&"mcp__gh__list_issues"));
}

#[test]
fn simple_mode_is_bash_read_edit() {
    let rules = profile::permissions();
    let mut env = env();
    env.switches.set(switch::SIMPLE, true);
    assert_eq!(tool_names(&env, &rules), ["Bash", "Read", "Edit"]);
}

#[test]
fn simple_mode_in_coordinator_mode_adds_agent_task_stop_send_message() {
    let rules = profile::permissions();
    let mut env = env();
    env.switches.set(switch::SIMPLE, true);
    env.switches.set(switch::COORDINATOR, true);
    env.features.set(feature::COORDINATOR_MODE, true);
    assert_eq!(
        tool_names(&env, &rules),
        ["Bash", "Read", "Edit", "Agent", "TaskStop", "SendMessage"]
    );
    env.features.set(feature::COORDINATOR_MODE, false);
    assert_eq!(
        tool_names(&env, &rules),
        ["Bash", "Read", "Edit"],
        "coordinator mode needs the build feature"
    );
}

#[test]
fn simple_mode_still_applies_deny_rules() {
    let mut rules = profile::permissions();
    let mut env = env();
    env.switches.set(switch::SIMPLE, true);
    rules.add(Behavior::Deny, RuleSource::User, "Read");
    assert_eq!(tool_names(&env, &rules), ["Bash", "Edit"]);
}

#[test]
fn simple_repl_mode_is_only_repl_when_the_repl_tool_exists() {
    let rules = profile::permissions();
    let mut env = env();
    env.switches.set(switch::SIMPLE, true);
    env.switches.set(switch::REPL, true);
    let expected: &[&str] = if toolreg_tools::features().is_on(feature::INTERNAL_BUILD) {
        &["REPL"]
    } else {
        &["Bash", "Read", "Edit"]
    };
    assert_eq!(tool_names(&env, &rules), expected);
}

#[test]
fn special_tools_are_in_the_base_list_but_not_offered() {
    let rules = profile::permissions();
    let env = env();
    let base: Vec<&str> = base_tools(&env, &catalog())
        .iter()
        .map(|tool| tool.name)
        .collect();
    for special in ["ListMcpResources", "ReadMcpResource", "StructuredOutput"] {
        assert!(base.contains(&special), "{special}");
        assert!(!has(&env, &rules, special), "{special}");
    }
}

#[test]
fn deny_rule_removes_the_builtin_from_the_pool() {
    let mut rules = profile::permissions();
    let env = env();
    rules.add(Behavior::Deny, RuleSource::Policy, "WebFetch");
    assert!(!has(&env, &rules, "WebFetch"));
    rules.add(Behavior::Deny, RuleSource::Policy, "Bash(rm:*)");
    assert!(
        has(&env, &rules, "Bash"),
        "a rule with content never removes a tool"
    );
}

#[test]
fn repl_mode_hides_the_primitive_tools_only_when_repl_survived() {
    let mut rules = profile::permissions();
    let mut env = env();
    env.switches.set(switch::REPL, true);
    if toolreg_tools::features().is_on(feature::INTERNAL_BUILD) {
        assert!(!has(&env, &rules, "Bash") && has(&env, &rules, "REPL"));
        rules.add(Behavior::Deny, RuleSource::User, "REPL");
    }
    assert!(
        has(&env, &rules, "Bash") && has(&env, &rules, "Read"),
        "without REPL nothing is hidden"
    );
}

#[test]
fn embedded_search_tools_drop_glob_and_grep() {
    let rules = profile::permissions();
    let mut env = env();
    assert!(has(&env, &rules, "Glob") && has(&env, &rules, "Grep"));
    env.switches.set(switch::EMBEDDED_SEARCH_TOOLS, true);
    assert!(!has(&env, &rules, "Glob") && !has(&env, &rules, "Grep"));
}

#[test]
fn tool_search_is_in_the_catalog_only_when_it_might_be_on() {
    let rules = profile::permissions();
    let mut env = env();
    assert!(has(&env, &rules, "ToolSearch"));
    env.tool_search.mode = Some(ToolSearchMode::Standard);
    assert!(!has(&env, &rules, "ToolSearch"));
}

#[test]
fn run_time_gates_decide_presence() {
    let rules = profile::permissions();
    let mut env = env();
    let gated = [
        "TaskCreate",
        "TaskGet",
        "TaskUpdate",
        "TaskList",
        "EnterWorktree",
        "ExitWorktree",
        "TeamCreate",
        "TeamDelete",
        "LSP",
        "PowerShell",
    ];
    for name in gated {
        assert!(!has(&env, &rules, name), "{name} is off by default");
    }
    env.switches.set(switch::TODO_V2, true);
    env.switches.set(switch::WORKTREE_MODE, true);
    env.switches.set(switch::AGENT_SWARMS, true);
    env.switches.set(switch::LSP, true);
    env.switches.set(switch::POWERSHELL, true);
    for name in gated {
        assert!(has(&env, &rules, name), "{name} with its switch on");
    }
}

#[test]
fn base_tools_follow_the_catalog_order() {
    let env = env();
    let base: Vec<&str> = base_tools(&env, &catalog())
        .iter()
        .map(|tool| tool.name)
        .collect();
    let positions: Vec<usize> = base
        .iter()
        .map(|name| {
            toolreg_tools::BASE_ORDER
                .iter()
                .position(|n| n == name)
                .unwrap()
        })
        .collect();
    assert!(
        positions.windows(2).all(|pair| pair[0] < pair[1]),
        "{base:?}"
    );
    assert_eq!(base.first(), Some(&"Agent"));
    assert_eq!(base.last(), Some(&"ToolSearch"));
}

fn assert_partitioned(pool: &[Arc<ToolInfo>]) {
    let split = pool
        .iter()
        .position(|tool| tool.is_mcp())
        .unwrap_or(pool.len());
    assert!(
        pool[split..].iter().all(|tool| tool.is_mcp()),
        "built-ins are one contiguous prefix"
    );
    for part in [&pool[..split], &pool[split..]] {
        assert!(
            part.windows(2)
                .all(|pair| compare_names(&pair[0].name, &pair[1].name).is_lt()),
            "each part sorted"
        );
    }
}

#[test]
fn fixture_pool_is_a_sorted_builtin_prefix_and_a_sorted_mcp_suffix() {
    let rules = profile::permissions();
    let env = env();
    let mcp = load(&fixtures());
    assert_eq!(mcp.len(), 134);
    let pool = assemble_tool_pool(&env, &rules, &catalog(), &mcp);
    assert_eq!(
        pool.len(),
        offered_builtins(&env, &rules, &catalog()).len() + 134
    );
    assert_partitioned(&pool);
}

#[test]
fn deny_mcp_git_removes_exactly_the_git_tools() {
    let mut rules = profile::permissions();
    let mcp = load(&fixtures());
    let before = assemble_tool_pool(&env(), &rules, &catalog(), &mcp);
    let env = env();
    rules.add(Behavior::Deny, RuleSource::User, "mcp__git");
    let after = assemble_tool_pool(&env, &rules, &catalog(), &mcp);
    let removed: Vec<&str> = names(&before)
        .into_iter()
        .filter(|name| !names(&after).contains(name))
        .collect();
    assert_eq!(removed.len(), 12);
    assert!(
        removed.iter().all(|name| name.starts_with("mcp__git__")),
        "{removed:?}"
    );
}

#[test]
fn adding_a_server_changes_no_byte_before_the_first_mcp_tool() {
    let rules = profile::permissions();
    let env = env();
    let servers = fixtures();
    let (without_last, _) = servers.split_at(servers.len() - 1);
    let render = |servers: &[(String, serde_json::Value)]| {
        let pool = assemble_tool_pool(&env, &rules, &catalog(), &load(servers));
        let options = RenderOptions {
            tool_search: true,
            strategy: DeferStrategy::AllDeferred,
            ..Default::default()
        };
        render_anthropic(&env, &pool, &SchemaCache::new(), &options)
            .unwrap()
            .tools
            .to_json()
    };
    let small = render(without_last);
    let large = render(&servers);
    let prefix_end = small.find(r#"{"name":"mcp__"#).unwrap();
    assert_eq!(&small[..prefix_end], &large[..prefix_end]);
    assert_ne!(small, large);
}

#[test]
fn a_builtin_beats_an_mcp_tool_of_the_same_name() {
    let rules = profile::permissions();
    let env = env();
    let mut impostor = ToolInfo::new("Bash", "not the real one");
    impostor.origin = toolreg::tool::Origin::Mcp(toolreg::mcp::McpInfo::new("x", "Bash"));
    let pool = assemble_tool_pool(&env, &rules, &catalog(), &[Arc::new(impostor)]);
    let bash: Vec<_> = pool.iter().filter(|tool| tool.name == "Bash").collect();
    assert_eq!(bash.len(), 1);
    assert!(bash[0].builtin().is_some());
}

#[test]
fn merge_keeps_initial_tools_first_and_sorts_partitions() {
    let rules = profile::permissions();
    let env = env();
    let assembled = assemble_tool_pool(&env, &rules, &catalog(), &load(&fixtures()[..2]));
    let initial = vec![
        Arc::new(ToolInfo::new("Read", "host's own Read")),
        Arc::new(ToolInfo::new("Zeta", "extra")),
    ];
    let merged = merge_and_filter_tools(&env, &initial, &assembled);
    assert_eq!(
        merged
            .iter()
            .find(|tool| tool.name == "Read")
            .unwrap()
            .description,
        "host's own Read"
    );
    assert!(names(&merged).contains(&"Zeta"));
    assert_partitioned(&merged);
}

#[test]
fn merge_in_coordinator_mode_keeps_only_the_coordinator_set() {
    let rules = profile::permissions();
    let mut env = env();
    env.features.set(feature::COORDINATOR_MODE, true);
    env.switches.set(switch::COORDINATOR, true);
    let assembled = assemble_tool_pool(&env, &rules, &catalog(), &[]);
    let merged = merge_and_filter_tools(&env, &[], &assembled);
    assert_eq!(names(&merged), ["Agent", "SendMessage", "TaskStop"]);
}
